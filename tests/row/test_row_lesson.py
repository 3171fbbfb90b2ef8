"""Lesson positions for Rumor of War (issue #26 item 25; ``wargames.row.lesson`` on ``core.position``): pieces and
their hexes, fresh/spent, markers, tracks, victory points, leaders, tunnels and the season, each checked, refused with
a message naming the key, explained as a LESSON ruling, saved and replayed."""

from __future__ import annotations

import pytest

import wargames
from wargames.core import PositionError

EDITS = {
    "units": {"vc_802": "3349", "pavn_21rgt": "2447"},
    "fresh": {"vc_802": False},
    "markers": {"vc_802": ["Disrupted"], "arvn_37rgr": ["Routed", "Elite"]},
    "pools": {"US Artillery": 7, "Communist Infrastructure": 9},
    "vp": {"us_military_victory": 12, "body_count": 4},
    "leaders": {"hoang_xuan_lam": "arvn_1div_hq"},
    "tunnels": {"3046": "Hidden"},
}


def lessons(g):
    return [r for r in g.log if r.rule_id == "LESSON"]


def test_row_lesson_edits_land_in_the_state_as_rulings():
    g = wargames.load("row", seed=3, position=EDITS, dice=[4])
    assert g.pos["vc_802"] == "3349" and g.pos["pavn_21rgt"] == "2447" and "pavn_21rgt" not in g.box
    assert not g.fresh["vc_802"] and g.markers["vc_802"] == ("Disrupted",)
    assert g.markers["arvn_37rgr"] == ("Elite", "Routed")
    # the Strategic Phase then sets the supply to the infrastructure (7.2)
    assert g.pools["US Artillery"] == 7 and g.pools["Communist Infrastructure"] == 9
    assert g.pools["Communist Supply"] == 9
    assert g.vp["us_military_victory"] == 12 and g.vp["body_count"] == 4
    assert g.leaders["hoang_xuan_lam"] == "arvn_1div_hq" and g.tunnels["3046"] == "Hidden"
    made = lessons(g)
    assert len(made) == 12 and all("not a rule of the game" in r.explanation for r in made)
    assert not any("vc_802" in r.explanation for r in made)  # students read names, not ids
    assert not g.invariants() and not g.unexplained_changes()


def test_row_lesson_position_saves_and_replays():
    g = wargames.load("row", seed=3, position=EDITS, dice=[4])
    again = wargames.open_save(g.save())
    assert again.digest() == g.digest()
    g.advance("phase")
    assert wargames.open_save(g.save()).digest() == g.digest()


def test_row_lesson_season_is_the_start_of_that_turn():
    from wargames.testing import position

    g = position("row", "year-in-i-corps", 3, season="Fall 1965", pools={"US Tank": 5})
    assert g.season == 2 and g.pools["US Tank"] == 5 and g.phase.id == "strategic"


@pytest.mark.parametrize(
    "bad,says",
    [
        ({"units": {"vc_80": "3349"}}, "position.units: unknown piece of this scenario 'vc_80'"),
        ({"units": {"vc_802": "9999"}}, "position.units.vc_802: unknown hex '9999'"),
        ({"units": {"us_3mar": "2447"}}, "outside the operational limits"),
        ({"fresh": {"vc_802": "yes"}}, "position.fresh.vc_802"),
        ({"markers": {"vc_802": ["Shaken"]}}, "position.markers.vc_802"),
        ({"markers": {"vc_802": ["Disrupted", "Routed"]}}, "not both"),
        ({"markers": {"vc_mr5_hq": ["Disrupted"]}}, "is an HQ"),
        ({"pools": {"US Artillery": 40}}, "position.pools.US Artillery: 40 is out of range 0-19"),
        ({"pools": {"US Guns": 4}}, "unknown resource track 'US Guns'"),
        ({"vp": {"us_military_victory": -1}}, "position.vp.us_military_victory"),
        ({"leaders": {"hoang_xuan_lam": "vc_mr5_hq"}}, "not an HQ of the Capitalist"),
        ({"tunnels": {"3046": "Secret"}}, "position.tunnels.3046"),
        ({"season": "Summer 1970"}, "position.season: Summer 1970"),
        ({"score": {"Communist": 3}}, "has no edit 'score'"),
    ],
)
def test_row_lesson_bad_edit_is_refused_naming_it(bad, says):
    with pytest.raises(PositionError) as err:
        wargames.load("row", seed=3, position=bad)
    assert says in str(err.value)


def test_row_lesson_overstacking_is_refused():
    """ROW-4.2: at most one spent unit of a side in a hex between activations."""
    crowd = {"vc_802": "3349", "vc_804": "3349"}
    with pytest.raises(PositionError, match="breaks the rules of play.*ROW-4.2"):
        wargames.load("row", seed=3, position={"units": crowd, "fresh": {"vc_802": False, "vc_804": False}})
