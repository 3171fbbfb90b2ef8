"""Monte Carlo of Tet 1968, bot against bot (issue #4 calibration).

    python benchmarks/tet_calibration.py [--games 1000] [--workers 2] [--out benchmarks/results/tet_1000.csv]

Reports how games end (sudden-death demoralization and on which turn, or the end-of-game count), which
factions break, and the mean tracks; the same function feeds the "whole offensive" notebook.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

import wargames


def one_game(seed: int) -> dict:
    g = wargames.load("tet", seed=seed)
    g.play()
    dem = g.demoralized()
    return {
        "seed": seed,
        "winner": g.result.result.get("winner"),
        "rule": g.result.rule_id,
        "turn": g.turn,
        **{f"score_{k}": v for k, v in g.scores().items()},
        **{f"broken_{k}": v for k, v in dem.items()},
    }


def run(games: int, workers: int = 2) -> list[dict]:
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(one_game, range(games), chunksize=max(1, games // (workers * 8))))


def summary(rows: list[dict]) -> dict:
    n = len(rows)
    out = {"games": n}
    for key, count in sorted(Counter((r["winner"] or "draw", r["rule"]) for r in rows).items()):
        out[f"{key[0]} by {key[1]}"] = f"{100 * count / n:.1f}%"
    for f in ("NVA", "VC", "USA", "SVN"):
        out[f"{f} demoralized"] = f"{100 * sum(r[f'broken_{f}'] for r in rows) / n:.1f}%"
        out[f"{f} mean score"] = round(statistics.mean(r[f"score_{f}"] for r in rows), 1)
    ends = Counter(r["turn"] for r in rows if r["rule"] == "TET-AIM-2")
    out["sudden-death turns"] = dict(sorted(ends.items()))
    return out


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument(
        "--out", help="also write one row per game to this CSV (e.g. benchmarks/results/tet_1000.csv)"
    )
    args = ap.parse_args()
    t = time.perf_counter()
    rows = run(args.games, args.workers)
    if args.out:
        import csv

        with open(args.out, "w", newline="", encoding="utf-8") as fh:
            writer = csv.DictWriter(fh, fieldnames=list(rows[0]), lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
    for k, v in summary(rows).items():
        print(f"{k:28} {v}")
    print(f"{'seconds':28} {time.perf_counter() - t:.1f}")
