"""Phase 3, Replacements (summary line 41): digest worked cases 25-28."""

from __future__ import annotations

import pytest

from wargames.core import Action, IllegalAction

from .conftest import put, tet_at


def test_tet_p3_1_no_replacements_on_turn_one():
    """Digest case 26."""
    g = tet_at("p3", edit=lambda g: put(g, "vc_i_07", "eliminated"), players={"Communist": None})
    g.advance("phase")
    assert any(r.rule_id == "TET-P3-1" and r.result == {"replaced": 0} for r in g.log)
    assert g.loc["vc_i_07"] == "eliminated"


def test_tet_p3_4_nva_gains_a_point_each_turn_and_pays_by_size():
    """Digest case 25: by turn 3 the NVA holds 3 points; a 24/30 division costs 3, an 18 costs 2, a regiment 1."""
    g = tet_at("p3", turn=3)
    g.advance("phase")
    assert g.nva_points == 3
    assert (g.nva_cost("nva_304"), g.nva_cost("nva_1"), g.nva_cost("nva_r01")) == (3, 2, 1)


def test_tet_p3_4_spending_points_returns_the_unit_face_down_to_a_sanctuary():
    def edit(g):
        put(g, "nva_304", "eliminated")
        g.nva_points = 2  # +1 this turn = 3

    g = tet_at("p3", turn=2, edit=edit, players={"Communist": None})
    while g.decision.rule_id != "TET-P3-4":
        g.apply(g.legal_actions()[-1])
    act = next(a for a in g.legal_actions() if a.get("unit") == "nva_304" and a.get("to") == "S1")
    g.apply(act)
    assert g.loc["nva_304"] == "S1" and not g.face_up["nva_304"] and g.nva_points == 0


def test_tet_p3_3_vc_return_only_two_factor_units():
    """Digest case 27: a 4-factor VC unit may not come back."""

    def edit(g):
        put(g, "vc_i_05", "eliminated")  # 4 factors
        put(g, "vc_i_07", "eliminated")  # 2 factors

    g = tet_at("p3", turn=2, edit=edit, players={"Communist": None})
    assert g.decision.rule_id == "TET-P3-3"
    assert {a.get("unit") for a in g.legal_actions() if a.kind == "replace"} == {"vc_i_07"}
    with pytest.raises(IllegalAction):
        g.apply(Action.make("replace", unit="vc_i_05", to="S2"))


def test_tet_p3_2_no_ranger_or_mike_force_replacements():
    """Digest case 28: Rangers and Mike Forces never return; a regular ARVN regiment may, to a secure city."""

    def edit(g):
        put(g, "rgr_37", "eliminated")
        put(g, "arvn_4", "eliminated")

    g = tet_at("p3", turn=2, edit=edit, players={"Allied": None})
    while g.decision is None or g.decision.side != "Allied":
        g.advance("decision")
    svn = [a for a in g.legal_actions() if a.kind == "replace"]
    while not svn or g.unit(svn[0]["unit"]).faction != "SVN":
        g.apply(g.legal_actions()[-1])
        svn = [a for a in g.legal_actions() if a.kind == "replace"]
    assert {a["unit"] for a in svn} == {"arvn_4"}
    assert all(g.secure(a["to"]) and g.in_sector("arvn_4", a["to"]) for a in svn)


def test_tet_p3_3_the_communist_player_chooses_which_two_factor_vc_unit_returns():
    """L41 (decision D-18): every eliminated 2-factor unit of the Corps is offered, sappers 2(1) included."""

    def edit(g):
        for u in ("vc_iii_12", "vc_iii_13", "vc_iii_19"):
            put(g, u, "eliminated")

    g = tet_at("p3", turn=2, edit=edit, players={"Communist": None})
    while not any(g.unit(a["unit"]).sector == "III" for a in g.legal_actions() if a.kind == "replace"):
        g.apply(g.legal_actions()[-1])
    offered = {a["unit"] for a in g.legal_actions() if a.kind == "replace"}
    assert offered == {"vc_iii_12", "vc_iii_13", "vc_iii_19"}
    pick = next(a for a in g.legal_actions() if a.get("unit") == "vc_iii_19")
    g.apply(pick)
    assert g.loc["vc_iii_19"] == pick["to"] and g.loc["vc_iii_12"] == "eliminated"


def test_tet_p3_3_bot_brings_back_the_stronger_defender_and_says_why():
    from wargames.tet.bots import CommunistBot

    def edit(g):
        for u in ("vc_iii_12", "vc_iii_19"):
            put(g, u, "eliminated")

    g = tet_at("p3", turn=2, edit=edit, players={"Communist": None})
    while not any(g.unit(a["unit"]).sector == "III" for a in g.legal_actions() if a.kind == "replace"):
        g.apply(g.legal_actions()[-1])
    bot = CommunistBot(0)
    act = bot.choose(g, g.decision)
    assert act["unit"] == "vc_iii_12" and "defends at 2" in bot.last_reason


def _allied_air_replacement(g):
    while g.decision is None or not any(
        a.kind == "replace" and g.unit(a["unit"]).type in ("heli", "tac_air") for a in g.legal_actions()
    ):
        g.advance("decision") if g.decision is None else g.apply(g.legal_actions()[-1])
    return [a for a in g.legal_actions() if a.kind == "replace"]


def test_tet_p3_2_a_theater_helicopter_is_not_replaced_into_the_off_map_boxes():
    """Decision D-14: the boxes are the strike aircraft's home; a theater heli returns to an airbase."""
    g = tet_at("p3", turn=2, edit=lambda g: put(g, "us_heli_ta", "eliminated"), players={"Allied": None})
    where = {a["to"] for a in _allied_air_replacement(g)}
    assert where and not where & {"offmap_box_1", "offmap_box_2"} and where <= set(g.airbases())
    g = tet_at("p3", turn=2, edit=lambda g: put(g, "us_tac_t", "eliminated"), players={"Allied": None})
    assert {"offmap_box_1", "offmap_box_2"} <= {a["to"] for a in _allied_air_replacement(g)}
