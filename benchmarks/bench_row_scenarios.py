"""Rumor of War's larger scenarios: bot game time, peak memory and Back (issue #16 figures).

    PYTHONPATH=. python benchmarks/bench_row_scenarios.py [--games 5] [--sweep]

For The Tet Offensive, Eastertide and The Vietnam War campaign: the median and worst wall time of ``--games`` bot
games (targets: Tet and Eastertide <= 5 s, the campaign <= 30 s median), the peak resident memory of this process
after them (target <= 500 MB), and Back (``game.undo()``) at the start, middle and end of a game (target <= 50 ms;
``--sweep`` undoes through a whole game, every decision, and reports the worst; ``--freeze`` first moves the
rules data out of the garbage collector's reach, as the play widget does).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

import wargames
from benchmarks.bench_back import measure, sweep

SCENARIOS = ("tet-offensive", "eastertide", "vietnam-war")


def timings(scenario: str, games: int) -> dict:
    secs, seasons = [], []
    for seed in range(games):
        g = wargames.load("row", scenario, seed)
        t = time.perf_counter()
        g.play()
        secs.append(time.perf_counter() - t)
        seasons.append(g.season - g.scenario.first_turn + 1)
    return {
        "scenario": scenario,
        "games": games,
        "median s": round(statistics.median(secs), 2),
        "worst s": round(max(secs), 2),
        "median seasons played": statistics.median(seasons),
    }


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--sweep", action="store_true")
    ap.add_argument(
        "--freeze",
        action="store_true",
        help="gc.freeze() after loading each scenario once, as the play widget does (wargames.notebook.play)",
    )
    args = ap.parse_args(argv)
    if args.freeze:
        import gc

        for s in SCENARIOS:
            wargames.load("row", s, 0)
        gc.collect()
        gc.freeze()
    import pandas as pd

    print(pd.DataFrame([timings(s, args.games) for s in SCENARIOS]).to_string(index=False))
    print(f"peak resident memory: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    print(pd.DataFrame([r for s in SCENARIOS for r in measure("row", s, 1, 5)]).to_string(index=False))
    if args.sweep:
        print(pd.DataFrame([sweep("row", s, 1) for s in SCENARIOS]).to_string(index=False))


if __name__ == "__main__":
    main()
