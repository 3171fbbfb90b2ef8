"""Fire in the Lake: what the four Non-players (rules 8.5-8.8) choose, and who wins (issue #18).

    PYTHONPATH=. python benchmarks/fitl_nonplayer_stats.py [--games 40] [--scenarios short medium full]
                                                           [--seed0 0] [--csv out.csv]

Plays ``--games`` games per scenario with the built-in Non-players (``wargames.load("fitl", ...)`` with no
options, the same players as the notebooks, the CLI and ``montecarlo.py``) and prints, per scenario:

* per faction, how often each card choice was made (Event, Operation, Pass) as a share of its card decisions,
  then how often each Operation and each Special Activity was executed (per game);
* the winners (count and share), how many games ended early at a victory check, the median seconds per game.

With ``--csv`` one row per game is written (seed, scenario, winner, seconds, cards, and the counts per faction).
Keep samples small on shared machines (the project's rule: at most 50 games while developing).
"""

from __future__ import annotations

import argparse
import csv
import statistics
import time
from collections import Counter
from typing import Any

import wargames

FACTIONS = ("US", "ARVN", "NVA", "VC")


def tally(game: Any) -> Counter[str]:
    """Counts of "<faction>:<what>" over the decision record: card choices (card:event, card:op, card:pass,
    card:pivotal), the Operation chosen (op:<name>) and the Special Activity chosen (sa:<name>)."""
    c: Counter[str] = Counter()
    for e in game.record:
        act, side = e.get("act"), e.get("side")
        if not act or side not in FACTIONS:
            continue
        kind, params = act.get("kind"), act.get("params") or {}
        if kind in ("event", "pass", "pivotal"):
            c[f"{side}:card:{kind}"] += 1
        elif kind == "op" and "op" in params:
            c[f"{side}:op:{params['op']}"] += 1
        elif kind == "op":
            c[f"{side}:card:op"] += 1
        elif kind == "sa" and "sa" in params:
            c[f"{side}:sa:{params['sa']}"] += 1
    return c


def play(scenario: str, seed: int) -> dict[str, Any]:
    g = wargames.load("fitl", scenario=scenario, seed=seed)
    t = time.perf_counter()
    g.play()
    res = g.result.result or {}
    return {
        "scenario": scenario,
        "seed": seed,
        "winner": res.get("winner"),
        "final_coup": res.get("final_coup"),
        "seconds": time.perf_counter() - t,
        "cards": len(g.played),
        "counts": tally(g),
    }


def report(rows: list[dict[str, Any]]) -> str:
    n = len(rows)
    total: Counter[str] = Counter()
    for r in rows:
        total.update(r["counts"])
    lines = [f"== {rows[0]['scenario']}: {n} games =="]
    for f in FACTIONS:
        cards = sum(v for k, v in total.items() if k.startswith(f"{f}:card:"))
        share = (
            ", ".join(
                f"{k.split(':')[2]} {v / cards:.0%}"
                for k, v in sorted(total.items())
                if k.startswith(f"{f}:card:")
            )
            if cards
            else "no card decisions"
        )
        ops = ", ".join(
            f"{k.split(':')[2]} {v / n:.1f}" for k, v in sorted(total.items()) if k.startswith(f"{f}:op:")
        )
        sas = ", ".join(
            f"{k.split(':')[2]} {v / n:.1f}" for k, v in sorted(total.items()) if k.startswith(f"{f}:sa:")
        )
        lines.append(f"{f:5} cards: {share}")
        lines.append(f"      Operations per game: {ops or '-'}")
        lines.append(f"      Special Activities per game: {sas or '-'}")
    wins = Counter(r["winner"] for r in rows)
    lines.append(
        "winners: "
        + ", ".join(f"{f} {wins.get(f, 0)} ({wins.get(f, 0) / n:.0%})" for f in FACTIONS)
        + (f", none {wins[None]}" if wins.get(None) else "")
    )
    early = sum(1 for r in rows if not r["final_coup"])
    secs = [r["seconds"] for r in rows]
    lines.append(
        f"ended early at a victory check: {early} of {n}; median {statistics.median(secs):.2f} s per game "
        f"(max {max(secs):.2f} s); median {statistics.median(r['cards'] for r in rows)} cards"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed0", type=int, default=0)
    ap.add_argument("--scenarios", nargs="+", default=["short", "medium", "full"])
    ap.add_argument("--csv", default="")
    args = ap.parse_args(argv)
    every: list[dict[str, Any]] = []
    for scen in args.scenarios:
        rows = [play(scen, s) for s in range(args.seed0, args.seed0 + args.games)]
        every += rows
        print(report(rows), flush=True)
    if args.csv:
        keys = sorted({k for r in every for k in r["counts"]})
        with open(args.csv, "w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(["scenario", "seed", "winner", "final_coup", "seconds", "cards"] + keys)
            for r in every:
                w.writerow(
                    [
                        r["scenario"],
                        r["seed"],
                        r["winner"],
                        r["final_coup"],
                        round(r["seconds"], 3),
                        r["cards"],
                    ]
                    + [r["counts"].get(k, 0) for k in keys]
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
