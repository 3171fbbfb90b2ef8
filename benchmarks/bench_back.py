"""Back, jump and refusal timings for every game (issue #13 targets).

    python benchmarks/bench_back.py [--reps 7] [--sweep] [--games tet row] [--out benchmarks/results/back.md]

For each game a whole bot game is played; then, at a decision near the start, in the middle and at the end,
it times ``undo()`` (Back one decision, then the decision is made again, ``reps`` times), ``rewind(turn)``
to that decision's turn, and a refused illegal action (the state is checked unchanged).  Targets: undo
median <= 20 ms and worst <= 50 ms; rewind <= 50 ms; refusal <= 20 ms.  ``--sweep`` also undoes through whole
games, every decision, and reports how much of the worst undo was Python's cyclic garbage collector (a full
collection walks every object of the process, whatever the engine does) and the processor time of the undos
(on a machine shared with other work the wall-clock worst case mostly measures waiting for a core); ``--out``
appends the tables to a
Markdown file with a label.  ``--freeze`` first loads every game once and moves everything then alive (modules,
rules data) out of the collector's reach (``gc.freeze()``), as an interactive front-end could do after start-up:
it shows how much of the worst case the collector's full passes over static data cost.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import statistics
import time
from pathlib import Path

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
    times, worst_where, collected = [], "", []

    def on_gc(phase: str, info: dict) -> None:  # time spent in the cyclic collector during one undo
        collected.append(time.perf_counter() if phase == "start" else -time.perf_counter())

    gc.callbacks.append(on_gc)
    try:
        no_gc, cpu = [], []
        for _ in range(n - 1):
            collected.clear()
            t, c = time.perf_counter(), time.process_time()
            game.undo()
            dt = time.perf_counter() - t
            cpu.append(time.process_time() - c)
            if not times or dt > max(times):
                worst_where = game.where()
            times.append(dt)
            no_gc.append(dt + sum(collected) if len(collected) % 2 == 0 else dt)
    finally:
        gc.callbacks.remove(on_gc)
    return {"game": f"{gid} {scenario}", "undos": len(times), "median ms": ms(statistics.median(times)),
            "95th percentile ms": ms(sorted(times)[int(0.95 * (len(times) - 1))]), "worst ms": ms(max(times)),
            "worst without gc ms": ms(max(no_gc)), "median cpu ms": ms(statistics.median(cpu)),
            "worst cpu ms": ms(max(cpu)), "worst at": worst_where}


def markdown(frame) -> str:
    """A DataFrame as a Markdown table (no extra dependency)."""
    lines = ["| " + " | ".join(map(str, frame.columns)) + " |", "|" + "---|" * len(frame.columns)]
    lines += ["| " + " | ".join(map(str, row)) + " |" for row in frame.itertuples(index=False)]
    return "\n".join(lines)


def main(argv=None) -> list[dict]:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sweep", action="store_true", help="also undo through whole games, every decision")
    ap.add_argument("--games", nargs="*", help="only these game ids (default: all)")
    ap.add_argument("--out", help="append the tables to this Markdown file")
    ap.add_argument("--label", default="", help="a label for the --out section (e.g. the commit measured)")
    ap.add_argument("--freeze", action="store_true", help="gc.freeze() after loading every game once")
    args = ap.parse_args(argv)
    games = [(gid, sc) for gid, sc in GAMES if not args.games or gid in args.games]
    if args.freeze:
        for gid, sc in games:
            wargames.load(gid, sc, args.seed)
        gc.collect()
        gc.freeze()
    rows = [r for gid, sc in games for r in measure(gid, sc, args.seed, args.reps)]
    import pandas as pd

    tables = [pd.DataFrame(rows)]
    print(tables[0].to_string(index=False))
    if args.sweep:
        tables.append(pd.DataFrame([sweep(gid, sc, args.seed) for gid, sc in games]))
        print(tables[1].to_string(index=False))
    if args.out:
        stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
        text = (f"\n## {args.label or 'run'} ({stamp}, seed {args.seed}, {args.reps} reps"
                f"{', gc.freeze() after loading' if args.freeze else ''})\n\n")
        text += "\n\n".join(markdown(t) for t in tables) + "\n"
        with Path(args.out).open("a", encoding="utf-8") as f:
            f.write(text)
    return rows


if __name__ == "__main__":
    main()
