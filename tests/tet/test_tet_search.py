"""Phase 5, Allied search (summary lines 51-52): detection rolls and Recce."""

from __future__ import annotations

from wargames.core import Action
from wargames.tet.data import load_data

from .conftest import clear, put, tet_at

SPOTTERS = ["us_1cav_1", "us_1cav_3", "us_101_1"]  # the best spotters: equal detection factors
DF = load_data().units["us_1cav_1"].df


def _search_position(area, allied, hidden):
    def edit(g):
        clear(g, area)
        for u in allied:
            put(g, u, area)
        for u in hidden:
            put(g, u, area, face_up=False)

    return edit


def _detections(g, area):
    return [r for r in g.log if r.rule_id in ("TET-P5-2", "TET-P5-3") and r.inputs.get("area") == area]


def test_tet_p5_2_detection_roll_at_most_df_succeeds():
    """Digest case 23: 3 Allied ground units, best DF d, roll d: success, up to 3 units turned up."""
    hidden = ["vc_i_01", "vc_i_02", "vc_i_04", "vc_i_05"]
    g = tet_at(
        "p5", edit=_search_position("12", SPOTTERS, hidden), dice=[DF] * 40
    )  # every search roll this phase
    (r,) = _detections(g, "12")
    assert r.inputs["effective_df"] == DF and r.dice[0].value == DF and r.dice[0].forced
    assert r.result["detected"] == 3
    assert sum(g.face_up[u] for u in hidden) == 3


def test_tet_p5_2_roll_above_df_detects_nothing():
    hidden = ["vc_i_01", "vc_i_02"]
    g = tet_at(
        "p5", edit=_search_position("12", SPOTTERS[:1], hidden), dice=[DF + 1] * 40
    )  # every search roll this phase
    (r,) = _detections(g, "12")
    assert r.result == {"detected": 0} and not any(g.face_up[u] for u in hidden)


def test_tet_p5_2_detects_no_more_than_allied_ground_units():
    hidden = ["vc_i_01", "vc_i_02", "vc_i_04"]
    g = tet_at(
        "p5", edit=_search_position("12", SPOTTERS[:1], hidden), dice=[1] * 40
    )  # every search roll this phase
    assert sum(g.face_up[u] for u in hidden) == 1


def test_tet_p5_3_sanctuary_detection_is_one_less():
    """Digest case 24: best DF d in a sanctuary, roll d: effective DF d - 1, the search fails."""
    g = tet_at(
        "p5", edit=_search_position("S2", SPOTTERS, ["vc_i_06"]), dice=[DF] * 40
    )  # every search roll this phase
    (r,) = _detections(g, "S2")
    assert r.rule_id == "TET-P5-3" and r.inputs["effective_df"] == DF - 1 and r.result == {"detected": 0}


def test_tet_p5_1_search_only_where_allied_ground_units_meet_hidden_units():
    def edit(g):
        clear(g, "12", "15")
        put(g, "us_heli_I", "12")  # a helicopter is not a ground unit (decision A-21)
        put(g, "vc_i_01", "12", face_up=False)
        put(g, "us_1cav_1", "15")
        put(g, "vc_i_02", "15", face_up=True)  # already face up: nothing to search for

    g = tet_at("p5", edit=edit)
    assert "12" not in g.search_areas() and "15" not in g.search_areas()


def test_tet_p5_4_recce_detects_one_unit_without_a_roll():
    g = tet_at("p5", edit=_search_position("12", [], ["vc_i_01", "vc_i_02"]), players={"Allied": None})
    while g.decision is None or g.decision.rule_id != "TET-P5-4":
        g.advance("decision")
    act = next(a for a in g.legal_actions() if a.get("area") == "12")
    draws = g.dice.draws
    rulings = g.apply(act)
    r = rulings[0]
    assert r.rule_id == "TET-P5-4" and r.result["detected"] == 1 and not r.dice
    assert sum(g.face_up[u] for u in ("vc_i_01", "vc_i_02")) == 1
    assert g.dice.draws == draws + 1  # the blind pick (decision D-12), not a detection roll


def test_tet_p5_4_no_recce_on_even_turns():
    g = tet_at("p5", turn=2)
    g.advance("phase")
    assert any(r.rule_id == "TET-P5-4" and r.result == {"recce": 0} for r in g.log if r.turn == 2)


def test_tet_p5_4_recce_may_stay_in_reserve():
    g = tet_at("p5", players={"Allied": None})
    while g.decision is None or g.decision.rule_id != "TET-P5-4":
        g.advance("decision")
    recce = g.legal_actions()[0]["recce"]
    g.apply(Action.make("recce_skip", recce=recce))
    assert g.loc[recce] == "recce_pool"
