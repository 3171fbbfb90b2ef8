"""Back, jump and refusal timings for every game (issue #13 targets).

    python benchmarks/bench_back.py [--reps 7] [--sweep] [--games tet row] [--out benchmarks/results/back.md]

For each game a whole bot game is played and its save opened (public API only: ``wargames.load``, ``play``,
``save``, ``open_save``, ``branch``, ``undo``); then, at a decision near the start, in the middle and at the end,
it times ``undo()`` (Back one decision, then the decision is made again, ``reps`` times), ``rewind(turn)``
to that decision's turn, and a refused illegal action (the state is checked unchanged).  Targets: undo
median <= 20 ms and worst <= 50 ms; rewind <= 50 ms; refusal <= 20 ms.  ``--sweep`` also undoes through whole
games, every decision, and reports how much of the worst undo was Python's cyclic garbage collector (a full
collection walks every object of the process, whatever the engine does; the sweep counts the full passes that
landed on an undo and times one full pass at its end, what any Back may meet) and the processor time of the undos
(on a machine shared with other work the wall-clock worst case mostly measures waiting for a core); ``--out``
appends the tables to a
Markdown file with a label.  ``--freeze`` first loads every game once and moves everything then alive (modules,
rules data) out of the collector's reach (``gc.freeze()``), as an interactive front-end could do after start-up:
it shows how much of the worst case the collector's full passes over static data cost.  (Since the core settles
each game's static data itself at its first load, ``wargames.core.snapshot.settle_static_data``, ``--freeze`` adds
little; ``--no-settle`` switches that off, to measure the collector as it was.)
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

GAMES = [
    ("tet", "historical"),
    ("yotr", "historical"),
    ("fitl", "short"),
    ("fitl", "full"),
    ("row", "year-in-i-corps"),
]


def played(gid: str, scenario: str, seed: int) -> dict:
    """A whole bot game, as its save."""
    g = wargames.load(gid, scenario, seed)
    g.play()
    return g.save()


def at_decision(whole, k: int):
    """The game ``whole`` (a finished game opened from its save) back at its k-th decision, pending, on a branch
    (public API only: ``branch`` and ``undo``; no player is seated, so no bot runs)."""
    n = len(whole.decisions())
    game = whole.branch()
    game.undo(n - max(0, min(k, n - 1)))
    return game


def ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def last_act(game) -> dict:
    return next(e["act"] for e in reversed(game.record) if "act" in e)


def measure(gid: str, scenario: str, seed: int, reps: int) -> list[dict]:
    whole = wargames.open_save(played(gid, scenario, seed))
    n = len(whole.decisions())
    rows = []
    for where, k in (("start", 5), ("middle", n // 2), ("end", n - 1)):
        game = at_decision(whole, k)
        undo_t, undo_cpu = [], []
        for _ in range(reps):  # Back one decision, then make it again
            act = last_act(game)
            t, c = time.perf_counter(), time.process_time()
            game.undo()
            undo_t.append(time.perf_counter() - t)
            undo_cpu.append(time.process_time() - c)
            game.apply(act)
        t, c = time.perf_counter(), time.process_time()
        game.rewind(game.turn)
        rewind_t, rewind_cpu = time.perf_counter() - t, time.process_time() - c
        game = at_decision(whole, k)
        before = game.digest()
        t, c = time.perf_counter(), time.process_time()
        try:
            game.apply(Action("no_such_action", {}))
        except IllegalAction:
            pass
        refuse_t, refuse_cpu = time.perf_counter() - t, time.process_time() - c
        assert game.digest() == before
        rows.append(
            {
                "game": f"{gid} {scenario}",
                "where": where,
                "decision": f"{k}/{n}",
                "turn": game.turn,
                "undo median ms": ms(statistics.median(undo_t)),
                "undo worst ms": ms(max(undo_t)),
                "rewind ms": ms(rewind_t),
                "refusal ms": ms(refuse_t),
                "undo median cpu ms": ms(statistics.median(undo_cpu)),
                "undo worst cpu ms": ms(max(undo_cpu)),
                "rewind cpu ms": ms(rewind_cpu),
                "refusal cpu ms": ms(refuse_cpu),
            }
        )
    return rows


def sweep(gid: str, scenario: str, seed: int) -> dict:
    """Back through a whole game one decision at a time, from the end to the start: the worst and median
    undo, and where the worst was (a long step, whose decisions are replayed from the step's start)."""
    game = wargames.open_save(played(gid, scenario, seed))
    n = len(game.decisions())
    game.undo()  # at the last decision, pending
    times, worst_where, collected, full = [], "", [], []

    def on_gc(phase: str, info: dict) -> None:  # time spent in the cyclic collector during one undo
        collected.append(time.perf_counter() if phase == "start" else -time.perf_counter())
        if info["generation"] == 2:  # a full pass: its processor time
            full.append(time.process_time() if phase == "start" else time.process_time() - full.pop())

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
    c = time.process_time()
    gc.collect()  # what one full pass costs now, were it to land on a Back: the game and everything else alive
    full_now = time.process_time() - c
    return {
        "game": f"{gid} {scenario}",
        "undos": len(times),
        "median ms": ms(statistics.median(times)),
        "95th percentile ms": ms(sorted(times)[int(0.95 * (len(times) - 1))]),
        "worst ms": ms(max(times)),
        "worst without gc ms": ms(max(no_gc)),
        "median cpu ms": ms(statistics.median(cpu)),
        "worst cpu ms": ms(max(cpu)),
        "full gc passes": len(full),
        "longest full gc cpu ms": ms(max(full, default=0)),
        "a full gc pass now cpu ms": ms(full_now),
        "worst at": worst_where,
    }


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
    ap.add_argument(
        "--no-settle", action="store_true", help="do not let the core freeze the static data at load"
    )
    args = ap.parse_args(argv)
    if args.no_settle:
        from wargames.core import snapshot

        snapshot.SETTLE_STATIC_DATA = False
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
        text = (
            f"\n## {args.label or 'run'} ({stamp}, seed {args.seed}, {args.reps} reps"
            f"{', gc.freeze() after loading' if args.freeze else ''}"
            f"{', static data not settled' if args.no_settle else ''})\n\n"
        )
        text += "\n\n".join(markdown(t) for t in tables) + "\n"
        with Path(args.out).open("a", encoding="utf-8") as f:
            f.write(text)
    return rows


if __name__ == "__main__":
    main()
