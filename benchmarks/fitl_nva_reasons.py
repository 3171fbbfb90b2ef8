"""Fire in the Lake: why the NVA Non-player wins least (issue #28 item 15).

    PYTHONPATH=. nice python benchmarks/fitl_nva_reasons.py [--scenario short] [--games 40] [--seed0 0]

Plays ``--games`` games with the four built-in Non-players and prints the reasons the NVA gave for its
Operations (8.6.4 Rally conditions, 8.6.5 March, the IF NONE steps) and, at the end of the games, the median NVA
victory marker (FITL-7.2) split into NVA Bases on the map and NVA-Controlled Population, with the winners.
The findings are written up in ``benchmarks/results/fitl_nonplayer_notes.md``.
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter
from typing import Any

import wargames


def reason(why: str) -> str:
    """The NVA's reason for an Operation, shortened to its condition (the numbers of a roll dropped)."""
    if "Rally because" in why:
        text = why.split("Rally because ", 1)[1]
        if text.startswith("the roll"):
            return "2d6 exceeds the NVA Guerrillas Available"
        if text.startswith("the Trail"):
            return "the Trail is 0 or 1"
        if "fewer than 2 NVA units" in text:
            return "an NVA Base with fewer than 2 NVA units"
        return text.split(" (")[0]
    for op in ("Attack", "Terror"):
        if f"{op} because" in why:
            return f"{op} (its condition held)"
    if "IF NONE" in why:
        return "IF NONE" + why.partition("IF NONE")[2].split(" (")[0]
    return why.split(": ", 1)[-1].split(" (")[0]


def survey(scenario: str, games: int, seed0: int = 0) -> dict[str, Any]:
    """Reasons counted over the NVA's Operation choices, and the end-of-game marker parts, per game."""
    reasons: Counter[str] = Counter()
    ends = []
    for seed in range(seed0, seed0 + games):
        g = wargames.load("fitl", scenario=scenario, seed=seed)
        g.play()
        for e in g.record:
            act = e.get("act") or {}
            if e.get("side") == "NVA" and act.get("kind") == "op" and "op" in (act.get("params") or {}):
                reasons[reason(e.get("why", ""))] += 1
        b = g.board
        marker, bases = b.victory()["NVA"], b.on_map("nva_bases")
        ends.append((marker, bases, marker - bases, (g.result.result or {}).get("winner")))
    return {"reasons": reasons, "ends": ends}


def report(scenario: str, out: dict[str, Any]) -> str:
    ends = out["ends"]
    total = sum(out["reasons"].values()) or 1
    lines = [f"== {scenario}: {len(ends)} games, {total} NVA Operations =="]
    lines += [f"{c:5d} ({c / total:4.0%})  {k}" for k, c in out["reasons"].most_common(10)]
    lines.append(
        f"NVA marker at the end: median {statistics.median(e[0] for e in ends)} (threshold 18; best "
        f"{max(e[0] for e in ends)}): NVA Bases {statistics.median(e[1] for e in ends)}, NVA-Controlled "
        f"Population {statistics.median(e[2] for e in ends)}"
    )
    lines.append("winners: " + ", ".join(f"{k} {v}" for k, v in Counter(e[3] for e in ends).most_common()))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenario", default="short")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed0", type=int, default=0)
    args = ap.parse_args(argv)
    print(report(args.scenario, survey(args.scenario, args.games, args.seed0)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
