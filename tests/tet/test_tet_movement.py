"""Phase 1, NVA/VC movement (summary line 30) and the insurrection check (line 38)."""

from __future__ import annotations

import pytest

from wargames.core import Action, IllegalAction

from .conftest import clear, put, tet_at


def move(game, uid, to):
    return game.apply(Action.make("move", unit=uid, to=to))


def test_tet_p1_1_one_step_moves_from_a_province():
    g = tet_at("p1")
    dest = g.destinations("vc_i_03")  # VC I Corps unit in province 13
    assert g.loc["vc_i_03"] == "13"
    assert {"12", "15"} <= set(dest)  # adjacent provinces of its Corps
    assert {"tam_ky", "chu_lai", "quang_ngai"} <= set(dest)  # the cities of province 13
    assert "11" not in dest and "hue" not in dest  # two steps away / a city of another province


def test_tet_p1_1_from_a_city_only_back_to_its_province():
    g = tet_at("p1", edit=lambda g: put(g, "vc_i_01", "hue", face_up=True))
    assert g.destinations("vc_i_01") == {"11": "TET-P1-1"}


def test_tet_p1_1_each_unit_moves_once_per_phase():
    g = tet_at("p1")
    move(g, "vc_i_03", "15")
    assert not any(a.get("unit") == "vc_i_03" for a in g.legal_actions())
    before = g.digest()
    with pytest.raises(IllegalAction) as err:
        move(g, "vc_i_03", "13")
    assert err.value.rule_id == "TET-P1-1" and "already moved" in err.value.message
    assert g.digest() == before


def test_tet_p1_2_trail_run_stops_at_enemy_sanctuary():
    """Digest worked case 35: NVA in S1 (no enemy), Allied unit in S3: may reach NVN, S2, S3 but no further."""

    def edit(g):
        clear(g, "S1", "S2", "S3", "NVN")
        put(g, "nva_304", "S1", face_up=False)
        put(g, "us_1cav_1", "S3")

    g = tet_at("p1", edit=edit)
    trail = g.trail_destinations("nva_304")
    assert trail == {"NVN", "S2", "S3"}
    assert g.destinations("nva_304")["S3"] == "TET-P1-2"


def test_tet_p1_2_no_trail_run_from_a_sanctuary_holding_enemy():
    def edit(g):
        clear(g, "S1")
        put(g, "nva_304", "S1", face_up=False)
        put(g, "us_1cav_1", "S1")

    g = tet_at("p1", edit=edit)
    assert g.trail_destinations("nva_304") == set()
    with pytest.raises(IllegalAction) as err:
        move(g, "nva_304", "S4")
    assert err.value.rule_id == "TET-P1-2"


def test_tet_p1_3_face_up_in_city_face_down_in_province():
    """Digest case 37: into a city face up; back into the countryside face down (hidden from the Allies)."""
    g = tet_at("p1")
    move(g, "vc_i_03", "quang_ngai")
    assert g.face_up["vc_i_03"]
    g2 = tet_at("p1", edit=lambda g: put(g, "vc_i_01", "hue", face_up=True))
    rulings = move(g2, "vc_i_01", "11")
    assert not g2.face_up["vc_i_01"]
    r = next(r for r in rulings if r.rule_id == "TET-P1-1" and r.result.get("to") == "11")
    assert r.hidden_from == () and "face down" in r.explanation  # it was visible when it left the city


def test_tet_p1_3_hidden_moves_are_masked_for_the_allies():
    g = tet_at("p1")
    rulings = move(g, "vc_i_03", "15")
    r = rulings[0]
    assert r.hidden_from == ("Allied",)
    masked = r.for_side("Allied")
    assert "vc_i_03" not in masked.explanation and "face-down" in masked.explanation
    assert "VC" not in masked.title  # the title must not say which faction moved either


def test_tet_p1_4_never_cross_a_corps_boundary():
    """Digest case 36: NVA in 13 may not step to 23 (I/II Corps border)."""
    g = tet_at("p1", edit=lambda g: put(g, "nva_r01", "13", face_up=False))
    assert "23" not in g.destinations("nva_r01")
    before = g.digest()
    with pytest.raises(IllegalAction) as err:
        move(g, "nva_r01", "23")
    assert err.value.rule_id == "TET-P1-4"
    assert g.digest() == before


def test_tet_p1_5_vc_stay_in_their_corps():
    g = tet_at("p1", edit=lambda g: put(g, "vc_i_03", "15", face_up=False))
    dest = g.destinations("vc_i_03")
    assert "21" not in dest  # II Corps province (also a Corps crossing)
    assert "LA3" in dest  # Laos province next to I Corps (decision A-07)
    assert "S3" in dest  # sanctuary bordering I Corps province 15
    with pytest.raises(IllegalAction) as err:
        move(g, "vc_i_03", "21")
    assert err.value.rule_id in ("TET-P1-4", "TET-P1-5")


def test_tet_unit_5_vc_may_not_enter_a_sanctuary_of_another_corps():
    g = tet_at("p1", edit=lambda g: put(g, "vc_i_03", "15", face_up=False))
    assert not g.vc_may_enter("vc_i_03", "S4")  # borders only II Corps provinces
    assert g.vc_may_enter("vc_i_03", "S2")


def _ruff_puff_in(g, city, cf):
    rp = next(u.id for u in g.data.units.values() if u.type == "ruff_puff" and u.cf == cf)
    for uid, where in list(g.loc.items()):
        if where == city:
            g.loc[uid] = "eliminated"
    put(g, rp, city, face_up=False)
    return rp


def test_tet_p1_6_zero_ruff_puff_goes_to_casualties_and_city_rises():
    """Digest case 11: VC enter a city whose Ruff Puff is 0: it is lost, the city rises, VC -PV."""
    holder = {}

    def edit(g):
        holder["rp"] = _ruff_puff_in(g, "quang_ngai", 0)

    g = tet_at("p1", edit=edit)
    rulings = move(g, "vc_i_03", "quang_ngai")
    assert g.loc[holder["rp"]] == "casualties" and g.face_up[holder["rp"]]
    assert any(r.rule_id == "TET-P1-6" and r.result["lost"] for r in rulings)
    g.apply(Action.make("end_movement"))
    rising = [r for r in g.log if r.rule_id == "TET-P2-18" and r.inputs.get("city") == "quang_ngai"]
    pv = g.data.areas["quang_ngai"].pv
    assert rising and rising[0].result == {"bonus": 2 * pv, "vc_change": -pv}
    assert "quang_ngai" in g.insurrection and g.score["VC"] == -pv


def test_tet_p1_6_ruff_puff_with_strength_holds_the_city():
    """Digest case 14: a Ruff Puff of strength 3 is revealed and stops the insurrection."""
    g = tet_at("p1", edit=lambda g: _ruff_puff_in(g, "quang_ngai", 3))
    move(g, "vc_i_03", "quang_ngai")
    g.apply(Action.make("end_movement"))
    assert "quang_ngai" not in g.insurrection and g.score["VC"] == 0


def test_tet_p2_18_nva_alone_raise_no_insurrection():
    """Digest case 13."""

    def edit(g):
        for uid, where in list(g.loc.items()):
            if where == "quang_ngai":
                g.loc[uid] = "eliminated"
        put(g, "nva_r01", "quang_ngai", face_up=True)

    g = tet_at("p1", edit=edit)
    g.apply(Action.make("end_movement"))
    assert "quang_ngai" not in g.insurrection


def test_tet_p2_18_vc_credit_only_once_per_city():
    """Digest case 12: a city that rises a second time gives the VC nothing more."""

    def edit(g):
        _ruff_puff_in(g, "quang_ngai", 0)
        g.vc_scored.add("quang_ngai")

    g = tet_at("p1", edit=edit)
    move(g, "vc_i_03", "quang_ngai")
    g.apply(Action.make("end_movement"))
    assert "quang_ngai" in g.insurrection and g.score["VC"] == 0
    r = next(r for r in g.log if r.rule_id == "TET-P2-18" and r.inputs.get("city") == "quang_ngai")
    assert r.result["vc_change"] == 0 and r.result["bonus"] == 2 * g.data.areas["quang_ngai"].pv


def test_tet_unit_8_insurrection_marker_bonus_is_twice_the_political_value():
    def edit(g):
        _ruff_puff_in(g, "hue", 0)
        put(g, "vc_i_01", "11", face_up=False)

    g = tet_at("p1", edit=edit)
    move(g, "vc_i_01", "hue")
    g.apply(Action.make("end_movement"))
    r = next(r for r in g.log if r.rule_id == "TET-P2-18" and r.inputs.get("city") == "hue")
    pv = g.data.areas["hue"].pv
    assert r.inputs["pv"] == pv and r.result["bonus"] == 2 * pv and f"2 x {pv} = {2 * pv}" in r.explanation


def test_tet_p2_18_a_helicopter_alone_blocks_insurrection_but_not_the_airbase_loss():
    """Decision D-21: after phase 1 the heli (an Allied unit) stops the rising; at the end of phase 2 it is lost
    (not a ground unit, TET-P2-17), and the insurrection check that follows raises the city."""
    from .conftest import Passive

    def edit(g):
        clear(g, "pleiku")
        put(g, "us_heli_II", "pleiku")
        put(g, "vc_ii_01", "pleiku", face_up=True)

    g = tet_at("p1", turn=2, edit=edit, players={"Communist": Passive(), "Allied": Passive()})
    g.advance("phase")
    assert "pleiku" not in g.insurrection
    g.advance("phase")
    assert g.loc["us_heli_II"] == "casualties" and "pleiku" in g.insurrection
    lost = next(i for i, r in enumerate(g.log) if r.rule_id == "TET-P2-17" and "pleiku" in r.places)
    rose = next(i for i, r in enumerate(g.log) if r.rule_id == "TET-P2-18" and "pleiku" in r.places)
    assert lost < rose
