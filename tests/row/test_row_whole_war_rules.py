"""Rules of the whole war (issue #27 items 1 and 4): a scenario's starting US Unrest holds its breakpoints
(ROW-12.1.2, ROW-14.2.1; decision R-WAR-06) and the General Uprising is declared once a game (ROW-9.5; R-WAR-07)."""

from __future__ import annotations

import wargames
from wargames.row import victory as V
from wargames.row.hq import mission_options
from wargames.row.pieces import COMMUNIST
from wargames.row.supply import Pools


def test_row_12_1_2_a_starting_unrest_sets_the_breakpoint_floor():
    """The Tet Offensive starts US Unrest at 14: the 10 breakpoint is reached, so a loss stops at 10."""
    g = wargames.load("row", "tet-offensive", 0)
    assert g.vp["us_unrest"] == 14 and g.vp["unrest_floor"] == 10
    s, r = V.award(g.vstate(), COMMUNIST, -10, "a new theater commander (14.2.1)")
    assert s.us_unrest == 10 and "breakpoint" in r.explanation
    assert V.breakpoint_reached(4) == 0 and V.breakpoint_reached(5) == 5 and V.breakpoint_reached(23) == 20


def test_row_14_2_1_a_new_commander_cannot_take_unrest_below_the_starting_floor():
    """Eastertide starts US Unrest at 12 (floor 10): Abrams's or Weyand's reduction stops at 10."""
    g = wargames.load("row", "eastertide", 0)
    assert g.vp["unrest_floor"] == 10
    s, _ = V.award(g.vstate(), COMMUNIST, -5, "Weyand takes command")
    assert s.us_unrest == 10


def test_row_9_5_the_general_uprising_once_a_game():
    """Once declared, the General Uprising is no longer offered, however much supply the Communist has."""
    pools = Pools.start(Communist_Supply=19)
    offered = {a["mission"] for a in mission_options(COMMUNIST, pools)}
    assert "general_uprising" in offered
    assert "general_uprising" not in {
        a["mission"] for a in mission_options(COMMUNIST, pools, uprising_used=True)
    }
    g = wargames.load("row", "tet-offensive", 0)
    assert not g.uprising_declared()
    g.play()
    declared = [
        r
        for r in g.log
        if r.title == "HQ mission" and r.side == COMMUNIST and r.result.get("mission") == "general_uprising"
    ]
    assert len(declared) == 1 and g.uprising_declared()
