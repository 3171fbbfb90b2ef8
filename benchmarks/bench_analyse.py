"""How fast the analysis board is (issue #33 item 4): from a mid-game position of every game, 8 candidates x 50
replays to the end of the turn (season, card) and to the end of the game, on local workers.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_analyse.py                    # all games, 2 workers
    PYTHONPATH=. .venv/bin/python benchmarks/bench_analyse.py tet --rollouts 10 --profile

Targets: at most 30 s to the end of the turn and 120 s to the end of the game on a 2-core machine.  Each line gives
the wall time and the CPU seconds the replays used (summed over the workers): on a busy machine the wall time
grows with the load, CPU / workers is what an idle machine would take (plus the fixed start of the pool).  With
``--profile`` (or for a game over its target) the replays of one candidate are profiled in this process and the
top functions printed.  ``--write`` puts the figures in ``benchmarks/results/analyse.md``.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import time
from pathlib import Path

import wargames
from wargames.core.analysis import _base, analyse, as_candidates, replay

#: the mid-game position of each game: scenario, seed, the turn to play to (built-in players)
POSITIONS = {
    "tet": (None, 11, 3),
    "yotr": (None, 11, 7),
    "fitl": ("full", 11, 12),
    "row": (None, 11, 2),
}
TARGET = {"turn": 30.0, "end": 120.0}
RESULTS = Path(__file__).resolve().parent / "results" / "analyse.md"


def position(game_id: str, candidates: int = 8):
    """The game at the first decision from the mid-game turn on that offers at least ``candidates`` choices."""
    scenario, seed, turn = POSITIONS[game_id]
    g = wargames.load(game_id, scenario, seed=seed)
    g.advance_to(turn)
    for _ in range(5000):
        if g.decision is not None and len({g.display_label(a) for a in g.legal_actions()}) >= candidates:
            return g
        g.advance("decision")
    raise SystemExit(f"{game_id}: no decision with {candidates} choices near turn {turn}")


def profile(g, horizon: str, rollouts: int) -> str:
    """The top functions of ``rollouts`` replays of the first candidate, in this process."""
    cand = as_candidates(g, None, 8)[0]
    base = _base(g)
    prof = cProfile.Profile()
    prof.enable()
    for i in range(rollouts):
        replay(base, cand, 0, i, 0, horizon)
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(12)
    return out.getvalue()


def run(game_id: str, rollouts: int, workers: int, horizons: list[str], show_profile: bool) -> list[dict]:
    g = position(game_id)
    lines = []
    for horizon in horizons:
        t = time.perf_counter()
        frame = analyse(g, rollouts=rollouts, horizon=horizon, workers=workers)
        wall = time.perf_counter() - t
        cpu = frame.attrs["cpu_seconds"]
        n = len(frame) * rollouts
        line = {
            "game": game_id,
            "where": g.where(),
            "side": g.decision.side,
            "horizon": horizon,
            "candidates": len(frame),
            "rollouts": rollouts,
            "wall_s": round(wall, 1),
            "cpu_s": round(cpu, 1),
            "idle_estimate_s": round(cpu / max(1, workers), 1),
            "ms_per_replay_cpu": round(1000 * cpu / n, 1),
            "target_s": TARGET.get(horizon),
        }
        print(
            f"{game_id:5} {horizon:4} {g.where()}: {len(frame)} candidates x {rollouts} replays, "
            f"{workers} workers: wall {wall:.1f} s, CPU {cpu:.1f} s ({line['ms_per_replay_cpu']} ms a replay), "
            f"CPU/workers {line['idle_estimate_s']} s, target {line['target_s']} s",
            flush=True,
        )
        if show_profile or line["idle_estimate_s"] > (line["target_s"] or 1e9):
            print(profile(g, horizon, max(3, rollouts // 10)))
        lines.append(line)
    return lines


def main(argv: list[str] | None = None) -> list[dict]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="*", default=list(POSITIONS))
    ap.add_argument("--rollouts", type=int, default=50)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--horizon", action="append", choices=["turn", "end"])
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--write", action="store_true", help=f"write the figures to {RESULTS}")
    args = ap.parse_args(argv)
    lines = []
    for game_id in args.games:
        got = run(game_id, args.rollouts, args.workers, args.horizon or ["turn", "end"], args.profile)
        lines += got
        if args.write:  # each game's figures as soon as they are measured
            write(got, args.rollouts, args.workers)
    return lines


def write(lines: list[dict], rollouts: int, workers: int) -> None:
    """One section a game and horizon in ``benchmarks/results/analyse.md`` (replacing the last one)."""
    from _results import machine, write_section

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    for x in lines:
        label = (
            f"{x['game']} to the {x['horizon']}, {x['candidates']} x {rollouts} replays, {workers} workers"
        )
        body = (
            f"## {label}\n\n{machine()}; load average {load:.1f} when written\n\n"
            "| position | wall s | CPU s | CPU / workers s | CPU ms a replay | target s |\n|---|---|---|---|---|---|\n"
            f"| {x['where']} ({x['side']}) | {x['wall_s']} | {x['cpu_s']} | {x['idle_estimate_s']} | "
            f"{x['ms_per_replay_cpu']} | {x['target_s']} |\n"
        )
        write_section(
            RESULTS,
            "# The analysis board's speed (issue #33 item 4)\n\nWritten by `benchmarks/bench_analyse.py --write`. "
            "Wall time depends on the machine's load; CPU / workers is the time an idle machine with that many "
            "cores would take, plus the pool's start.\n",
            label,
            body,
        )


if __name__ == "__main__":
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main()
