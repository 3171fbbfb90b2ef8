"""Back, jump and refusal timings for every game (issue #13 targets).

    python benchmarks/bench_back.py [--reps 7]

For each game a whole bot game is played; then, at a decision near the start, in the middle and at the end,
it times ``undo()`` (Back one decision, then the decision is made again, ``reps`` times), ``rewind(turn)``
to that decision's turn, and a refused illegal action (the state is checked unchanged).  Targets: undo
median <= 20 ms and worst <= 50 ms; rewind <= 50 ms; refusal <= 20 ms.
"""

from __future__ import annotations

import argparse
import statistics
import time

import wargames
from wargames.core import Action, IllegalAction
from wargames.core.registry import game_class

GAMES = [("tet", "historical"), ("yotr", "historical"), ("fitl", "short"), ("fitl", "full"), ("row", "year-in-i-corps")]


def played(gid: str, scenario: str, seed: int) -> dict:
    """A whole bot game, as its save."""
    g = wargames.load(gid, scenario, seed)
    g.play()
    return g.save()


def at_decision(save: dict, k: int):
    """The saved game at its k-th decision, pending (opened from a shortened save, so no bot runs)."""
    acts = [i for i, e in enumerate(save["record"]) if "act" in e]
    i = acts[max(0, min(k, len(acts) - 1))]
    cls = game_class(save["game"])
    game = cls(save["scenario"], save["seed"], save["options"], _start=False)
    game._replay(save["record"][:i], save["record"][i]["at"])
    return game


def ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def last_act(game) -> dict:
    return next(e["act"] for e in reversed(game.record) if "act" in e)


def measure(gid: str, scenario: str, seed: int, reps: int) -> list[dict]:
    save = played(gid, scenario, seed)
    n = len([e for e in save["record"] if "act" in e])
    rows = []
    for where, k in (("start", 5), ("middle", n // 2), ("end", n - 1)):
        game = at_decision(save, k)
        undo_t = []
        for _ in range(reps):  # Back one decision, then make it again
            act = last_act(game)
            t = time.perf_counter()
            game.undo()
            undo_t.append(time.perf_counter() - t)
            game.apply(act)
        t = time.perf_counter()
        game.rewind(game.turn)
        rewind_t = time.perf_counter() - t
        game = at_decision(save, k)
        before = game.digest()
        t = time.perf_counter()
        try:
            game.apply(Action("no_such_action", {}))
        except IllegalAction:
            pass
        refuse_t = time.perf_counter() - t
        assert game.digest() == before
        rows.append({"game": f"{gid} {scenario}", "where": where, "decision": f"{k}/{n}", "turn": game.turn,
                     "undo median ms": ms(statistics.median(undo_t)), "undo worst ms": ms(max(undo_t)),
                     "rewind ms": ms(rewind_t), "refusal ms": ms(refuse_t)})
    return rows


def sweep(gid: str, scenario: str, seed: int) -> dict:
    """Back through a whole game one decision at a time, from the end to the start: the worst and median
    undo, and where the worst was (a long step, whose decisions are replayed from the step's start)."""
    save = played(gid, scenario, seed)
    n = len([e for e in save["record"] if "act" in e])
    game = at_decision(save, n - 1)
    times, worst_where = [], ""
    for _ in range(n - 1):
        t = time.perf_counter()
        game.undo()
        dt = time.perf_counter() - t
        if not times or dt > max(times):
            worst_where = game.where()
        times.append(dt)
    return {"game": f"{gid} {scenario}", "undos": len(times), "median ms": ms(statistics.median(times)),
            "95th percentile ms": ms(sorted(times)[int(0.95 * (len(times) - 1))]), "worst ms": ms(max(times)),
            "worst at": worst_where}


def main(argv=None) -> list[dict]:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sweep", action="store_true", help="also undo through whole games, every decision")
    args = ap.parse_args(argv)
    rows = [r for gid, sc in GAMES for r in measure(gid, sc, args.seed, args.reps)]
    import pandas as pd

    print(pd.DataFrame(rows).to_string(index=False))
    if args.sweep:
        print(pd.DataFrame([sweep(gid, sc, args.seed) for gid, sc in GAMES]).to_string(index=False))
    return rows


if __name__ == "__main__":
    main()
