"""Benchmarks of the foundation (issue #3).  Prints figures; not a timed test.

    python benchmarks/bench_core.py [--games N]

* median time of one ``apply()`` with its rulings (target <= 1 ms),
* a whole game with random players on every side, and with the built-in bots,
* ``import wargames`` in a fresh interpreter (target <= 0.5 s; Bokeh/ipywidgets must not be imported),
* one ``MapView.update()`` in the kernel process (target <= 50 ms),
* Fire in the Lake's Full scenario played to its end by four Non-players with every card (target < 5 s, issue #7).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

import wargames
from wargames.core import RandomPlayer


def bench_apply(game_id: str, games: int) -> dict[str, float]:
    times = []
    for seed in range(games):
        g = wargames.load(game_id, seed=seed)
        g.set_players({s: None for s in g.sides})
        players = {s: RandomPlayer(seed + i) for i, s in enumerate(g.sides)}
        while not g.is_over:
            if g.decision is None:
                g.advance("decision")
                continue
            a = players[g.decision.side].choose(g, g.decision)
            t = time.perf_counter()
            g.apply(a)
            times.append(time.perf_counter() - t)
    return {
        "apply_median_ms": 1000 * statistics.median(times),
        "apply_p90_ms": 1000 * statistics.quantiles(times, n=10)[-1],
        "applies": len(times),
    }


def bench_game(game_id: str, games: int, random_players: bool) -> float:
    times = []
    for seed in range(games):
        t = time.perf_counter()
        g = wargames.load(game_id, seed=seed)
        if random_players:
            g.set_players({s: RandomPlayer(seed) for s in g.sides})
        g.play()
        times.append(time.perf_counter() - t)
    return 1000 * statistics.median(times)


def bench_fitl_full(games: int) -> tuple[float, float]:
    """FitL Full scenario, four Non-players, all 130 cards in the deck: (median, max) milliseconds per game."""
    times = []
    for seed in range(games):
        t = time.perf_counter()
        g = wargames.load("fitl", "full", seed=seed, non_players=["US", "ARVN", "NVA", "VC"])
        g.play()
        times.append(time.perf_counter() - t)
        assert g.is_over
    return 1000 * statistics.median(times), 1000 * max(times)


def bench_import(runs: int = 5) -> float:
    code = "import time; t=time.perf_counter(); import wargames; print(time.perf_counter()-t)"
    vals = [
        float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
        for _ in range(runs)
    ]
    return 1000 * statistics.median(vals)


def bench_mapview(runs: int = 20) -> float | None:
    try:
        from wargames.notebook import MapView
    except ImportError:
        return None
    g = wargames.load("tet", seed=1)
    view = MapView(g)
    times = []
    for _ in range(runs):
        g.advance("decision")
        t = time.perf_counter()
        view.update()
        times.append(time.perf_counter() - t)
    return 1000 * statistics.median(times)


def main(argv=None) -> dict[str, float]:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument(
        "--full-games", type=int, default=None, help="FitL Full scenario games [half of --games, at least 2]"
    )
    args = ap.parse_args(argv)
    out: dict[str, float] = {}
    for game_id in wargames.games():
        a = bench_apply(game_id, max(1, args.games // 4))
        out[f"{game_id}.apply_median_ms"] = a["apply_median_ms"]
        out[f"{game_id}.apply_p90_ms"] = a["apply_p90_ms"]
        out[f"{game_id}.random_game_ms"] = bench_game(game_id, args.games, True)
        out[f"{game_id}.bot_game_ms"] = bench_game(game_id, args.games, False)
    full = args.full_games if args.full_games is not None else max(2, args.games // 2)
    out["fitl.full_bot_game_ms"], out["fitl.full_bot_game_max_ms"] = bench_fitl_full(full)
    out["import_wargames_ms"] = bench_import()
    mv = bench_mapview()
    if mv is not None:
        out["mapview_update_ms"] = mv
    for k, v in out.items():
        print(f"{k:28} {v:9.2f}")
    return out


if __name__ == "__main__":
    main()
