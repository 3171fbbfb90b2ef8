"""Student actions for one lesson-sized stretch of each game, played through the app's own API (issue #31).

    python benchmarks/bench_lesson.py [--seeds 1 2 3] [--games tet row fitl yotr] [--out benchmarks/results/lesson.md]

The stretch is the student's first turn in the app's default scenario and side: from the student's first decision
until the turn changes (Tet: the Game Turn; Rumor of War: the season; Fire in the Lake: the card; Year of the Rat:
the Game-Turn).  A student action is one press in the app: an Apply (the pick in the list before it is part of
it), an "Advisor completes this", an "Advisor's plan", an order unticked, a "Confirm plan", each pick in the
several-orders box and its "Give these orders".  The student always chooses what the game's built-in player of
their side would (so every run is the same game); the rules engine checks every decision either way.

* before, Apply only: ``PlayGame(lesson=False)``, every decision of the side picked and applied;
* before, with the Advisor button: ``PlayGame(lesson=False)``, each run pressed "Advisor completes this" once
  (the button takes the decisions of one rule and step);
* after: ``PlayGame(lesson=True)``: the kinds the game declares ``commander`` are the student's, the others are
  the Advisor's; at a decision whose kind has a plan the student asks for the Advisor's plan, unticks one order
  in a plan of the whole phase with three or more orders (an edit), and confirms; any other decision is an Apply.

Targets: Tet <= 40, Rumor of War <= 30, Fire in the Lake <= 8, Year of the Rat <= 40.  The figures also count the
decisions of the side in the record (all still there, made by the student, the plan or the Advisor).
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._results import machine, write_section  # noqa: E402

TARGETS = {"tet": 40, "row": 30, "fitl": 8, "yotr": 40}
GAMES = ("tet", "row", "fitl", "yotr")
ROOT = Path(__file__).resolve().parents[1]


def _app(game_id: str, seed: int, lesson: bool):
    from wargames.notebook.play import PlayGame

    return PlayGame(game_id, seed=seed, lesson=lesson)


def _pick_and_apply(walk, bot) -> None:
    """The student picks, in the list, what their side's built-in player ``bot`` would, and presses Apply."""
    g = walk.game
    act = bot.choose(g, g.decision)
    walk.chooser.choose(next(i for i, a in enumerate(walk.chooser.actions) if a == act))
    walk.chooser.apply_selected()


def _side_decisions(game, side: str, start: int) -> int:
    return sum(1 for e in game.record[start:] if "act" in e and e.get("side") == side)


def run(game_id: str, seed: int, mode: str) -> dict[str, float | int | str]:
    """One first turn in ``mode`` ("apply", "advisor" or "lesson"): presses, decisions, seconds."""
    app = _app(game_id, seed, mode == "lesson")
    walk, g = app.walk, app.game
    side = walk.human
    start, turn = len(g.record), g.turn
    presses = 0
    t0 = time.perf_counter()

    def mine() -> bool:
        return g.decision is not None and g.decision.side == side and not g.is_over

    if mode == "lesson":
        panel = app.panel
        panel.lesson.presses = 0
        while mine() and g.turn == turn:
            row = panel.lesson.kinds.get(g.decision.kind)
            if row is not None and row.plan:
                plan = panel.show_plan()
                if row.plan == "phase" and len(plan.orders) >= 3:
                    panel.drop(len(plan.orders) - 2)
                panel.confirm()
            else:
                _pick_and_apply(walk, panel.lesson.advisor)
        presses = panel.lesson.presses
    else:
        bot = g.default_player(side)
        while mine() and g.turn == turn:
            if mode == "advisor":
                walk.advise()
            else:
                _pick_and_apply(walk, bot)
            presses += 1
    return {
        "game": game_id,
        "seed": seed,
        "mode": mode,
        "presses": presses,
        "decisions": _side_decisions(g, side, start),
        "seconds": round(time.perf_counter() - t0, 2),
        "where": g.where(),
    }


def main(argv: list[str] | None = None) -> dict[str, dict[str, float]]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="*", default=list(GAMES))
    ap.add_argument("--seeds", nargs="*", type=int, default=[1, 2, 3])
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    rows = [run(gm, s, m) for gm in args.games for s in args.seeds for m in ("apply", "advisor", "lesson")]
    summary: dict[str, dict[str, float]] = {}
    lines = [
        "| game | target | Apply only (before) | with Advisor button (before) | lesson (after) | decisions of the side |",
        "|---|---|---|---|---|---|",
    ]
    for gm in args.games:
        got = {
            m: [r for r in rows if r["game"] == gm and r["mode"] == m] for m in ("apply", "advisor", "lesson")
        }
        med = {m: statistics.median(int(r["presses"]) for r in rs) for m, rs in got.items()}
        dec = [int(r["decisions"]) for r in got["lesson"]]
        summary[gm] = med
        per = {m: f"{med[m]:g} ({', '.join(str(r['presses']) for r in got[m])})" for m in med}
        lines.append(
            f"| {gm} | {TARGETS[gm]} | {per['apply']} | {per['advisor']} | {per['lesson']} | {', '.join(map(str, dec))} |"
        )
    table = "\n".join(lines)
    print(table)
    if args.out is not None:
        body = (
            f"## first turn, seeds {' '.join(map(str, args.seeds))}\n\n"
            f"{datetime.date.today()}, {machine()}. Student actions (presses) as the median over the seeds, each "
            "seed's figure in brackets; the last column counts the side's decisions in the record in lesson mode "
            "(every one still an ordinary decision).\n\n" + table + "\n"
        )
        head = "# Lesson-sized play: student actions per turn (issue #31)\n\n`python benchmarks/bench_lesson.py --out benchmarks/results/lesson.md`\n"
        write_section(args.out, head, f"first turn, seeds {' '.join(map(str, args.seeds))}", body)
    return summary


if __name__ == "__main__":
    main()
