"""Stored Monte Carlo runs of Rumor of War's scenarios, one game after another, each row written as it finishes.

    PYTHONPATH=. python benchmarks/row_montecarlo.py tet-offensive 200 benchmarks/results/row_tet_200.csv \
        [--until 18:10]

The rows are those of ``wargames.montecarlo`` (``wargames.core.montecarlo.play_one``: seed, winner, level, rule,
turn, scores, seconds) plus the calendar season the game ended in.  ``--until HH:MM`` (UTC) stops starting new
games at that time, so a shared machine's budget is kept; the file then holds the games that finished and the
summary says how many.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import statistics
from collections import Counter
from pathlib import Path

from wargames.core.montecarlo import play_one
from wargames.row.scenario import load_scenario, turn_label


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario")
    ap.add_argument("games", type=int)
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--until", default=None, help="UTC HH:MM after which no new game starts")
    args = ap.parse_args(argv)
    first = load_scenario(args.scenario).first_turn
    stop = None
    if args.until:
        h, m = map(int, args.until.split(":"))
        now = dt.datetime.now(dt.UTC)
        stop = now.replace(hour=h, minute=m, second=0, microsecond=0)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    rows: list[dict] = []
    with out.open("w", newline="", encoding="utf-8") as fh:
        writer = None
        for seed in range(args.seed, args.seed + args.games):
            if stop is not None and dt.datetime.now(dt.UTC) >= stop:
                break
            row = play_one(seed, "row", args.scenario, {})
            row["season"] = turn_label(int(row["turn"]) + first - 1)
            if writer is None:
                writer = csv.DictWriter(fh, fieldnames=list(row), lineterminator="\n")
                writer.writeheader()
            writer.writerow(row)
            fh.flush()
            rows.append(row)
    wins = Counter(r["winner"] for r in rows)
    n = len(rows) or 1
    print(
        f"{args.scenario}: {len(rows)} of {args.games} games; "
        + ", ".join(f"{k} {100 * v / n:.1f}%" for k, v in sorted(wins.items(), key=str))
        + f"; median {statistics.median(r['seconds'] for r in rows) if rows else 0:.2f} s a game"
    )


if __name__ == "__main__":
    main()
