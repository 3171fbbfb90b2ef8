"""Bot-against-bot Monte Carlo for any registered game (issues #4-#6 calibration).

    python benchmarks/montecarlo.py yotr [--games 1000] [--workers 2] [--out benchmarks/results/yotr_1000.csv]
    python benchmarks/montecarlo.py fitl --scenario short --games 200

One row per game: the winner, the deciding rule, the last turn, the scores and the result's own fields
(YotR: VP and level of victory; FitL: the four margins).  The Tet script (``tet_calibration.py``) adds the
demoralization columns of that game.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from functools import partial

import wargames


def one_game(seed: int, game_id: str, scenario: str | None) -> dict:
    g = wargames.load(game_id, scenario=scenario, seed=seed)
    t = time.perf_counter()
    g.play()
    res = g.result.result or {}
    row = {
        "seed": seed,
        "winner": res.get("winner"),
        "rule": g.result.rule_id,
        "title": g.result.title,
        "turn": g.turn,
        "seconds": round(time.perf_counter() - t, 3),
    }
    row.update({f"score_{k}": v for k, v in g.scores().items()})
    for key, value in sorted(res.items()):
        if isinstance(value, dict):
            row.update({f"{key}_{k}": v for k, v in value.items()})
        elif isinstance(value, (int, float, str)) and key != "winner":
            row[key] = value
    return row


def run(game_id: str, games: int, workers: int = 2, scenario: str | None = None) -> list[dict]:
    fn = partial(one_game, game_id=game_id, scenario=scenario)
    if (
        workers <= 1
    ):  # in-process (also what the smoke test uses: the script is not an importable module there)
        return [fn(seed) for seed in range(games)]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(fn, range(games), chunksize=max(1, games // (workers * 8))))


def summary(rows: list[dict]) -> dict:
    n = len(rows)
    out: dict = {"games": n}
    for title, count in Counter(r["title"] for r in rows).most_common():
        out[title] = f"{100 * count / n:.1f}%"
    for key in sorted(k for k in rows[0] if k.startswith(("score_", "margins_")) or k == "vp"):
        vals = [r[key] for r in rows if isinstance(r.get(key), (int, float))]
        if vals:
            out[f"{key} median"] = statistics.median(vals)
    out["median game seconds"] = statistics.median(r["seconds"] for r in rows)
    return out


def write(rows: list[dict], path: str) -> None:
    fields = sorted({k for r in rows for k in r}, key=lambda k: (k != "seed", k))
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser()
    ap.add_argument("game")
    ap.add_argument("--scenario", default=None)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out")
    args = ap.parse_args(argv)
    scenario = args.scenario  # None: the game's own default scenario
    t = time.perf_counter()
    rows = run(args.game, args.games, args.workers, scenario)
    if args.out:
        write(rows, args.out)
    out = summary(rows)
    out["seconds"] = round(time.perf_counter() - t, 1)
    for k, v in out.items():
        print(f"{k:32} {v}")
    return out


if __name__ == "__main__":
    main()
