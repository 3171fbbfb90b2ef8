"""Theater commanders' combat effects (14.2.1) and the chits a declaration draws (5.2.1, 9.5, 14.2.1), as small
pure rulings the game object calls when it sets up a combat:

* ``planning_relief``: Giap takes 1 off the artillery planning deduction of PAVN and VC combats, An 1 off the tank
  deduction of PAVN combats (never below 0, R-CBT-07);
* ``westmoreland_arvn``: under Westmoreland an ARVN side with no US unit in or next to the combat hex gets no
  support but adjacent-unit support (decision R-LDR-04);
* ``chits_to_draw``: the Communist draws 3 chits and keeps one under a General Uprising (9.5), 2 with Ye Jianying
  in command (14.2.1); one otherwise (decision R-LDR-05).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..core.rulings import Ruling
from .pieces import COMMUNIST


def planning_relief(commander: str | None, nationality: str) -> dict[str, int]:
    """ROW-14.2.1: the theater commander's -1 on a planning deduction for a combat of ``nationality``."""
    if commander == "vo_nguyen_giap" and nationality in ("PAVN", "VC"):
        return {"artillery": 1}
    if commander == "nguyen_huu_an" and nationality == "PAVN":
        return {"tank": 1}
    return {}


def westmoreland_arvn(commander: str | None, nationalities: Iterable[str], us_near: bool) -> Ruling | None:
    """ROW-14.2.1 (R-LDR-04): None when the rule does not bite; else the ruling that denies the ARVN support."""
    nats = set(nationalities)
    if commander != "westmoreland" or "ARVN" not in nats or "US" in nats or us_near:
        return None
    return Ruling(
        rule_id="ROW-14.2.1",
        title="Westmoreland and the ARVN",
        explanation="Westmoreland in command: ARVN forces with no US unit in or next to the combat hex get "
        "no tank, artillery, air or bombardment support, only adjacent-unit support (R-LDR-04).",
        result=True,
        inputs={"nationalities": sorted(nats), "us_near": us_near},
    )


def chits_to_draw(side: str, mission: str | None, commander: str | None) -> int:
    """ROW-9.5 / ROW-14.2.1 (R-LDR-05): how many chits a declaration of ``side`` draws (it keeps one)."""
    if side != COMMUNIST:
        return 1
    if mission == "general_uprising":
        return 3
    return 2 if commander == "ye_jianying" else 1
