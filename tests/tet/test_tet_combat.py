"""Ground combat, phases 2 and 6 (summary lines 33-38, 55): digest worked cases 1-10 and 30-34."""

from __future__ import annotations

from fractions import Fraction

import pytest

from wargames.core import Action, IllegalAction
from wargames.tet.odds import odds_column, shift

from .conftest import clear, put, quiet_board, tet_at


@pytest.mark.parametrize(
    "attack,defense,column",
    [
        (7, 4, "1:1"),  # case 1: 1.75 rounds down for the defender
        (3, 7, None),  # case 2: below 1:2 is not allowed
        (4, 8, "1:2"),  # case 3: exactly 1:2 is legal
        (30, 4, "5:1"),  # case 4: above 5:1 counts as 5:1
        (5, 8, "1:2"),  # case 5: 0.625 is 1:2, not 1:1
        (Fraction(10), 4, "2:1"),  # case 7: (8/2 + 6) / 4 = 2.5
        (20, 6, "3:1"),  # case 8: marines 10 + battleship 10 against 6
        (4, 1, "4:1"),  # case 9: a sapper defends with its bracketed factor
    ],
)
def test_tet_p2_8_odds_rounded_for_the_defender(attack, defense, column):
    assert odds_column(attack, defense) == column


def test_tet_p2_7_sanctuary_shift_is_one_column_left_and_clamped():
    assert shift("2:1", -1) == "1:1"  # case 10
    assert shift("1:2", -1) == "1:2"  # decision A-15


def _battle(area, allied, red, turn=1, phase="p2", dice=None, insurrection=False, edit_more=None):
    def edit(g):
        quiet_board(g, area)
        for u in allied:
            put(g, u, area)
        for u in red:
            put(g, u, area, face_up=True)
        if insurrection:
            g.insurrection.add(area)
        if edit_more:
            edit_more(g)

    return tet_at(phase, turn=turn, edit=edit, dice=dice, players={"Communist": None, "Allied": None})


def _run_until(g, rule_id):
    while g.decision is None or g.decision.rule_id != rule_id:
        if g.decision is not None:
            g.apply(g.legal_actions()[-1])
        else:
            g.advance("decision")


def test_tet_p2_9_mech_cav_half_in_highland_province_not_in_its_city():
    """Digest case 6: mech/cav 8 fires at 4 in a highland province, 8 in a city of it."""
    g = tet_at("p2")
    assert g.data.areas["22"].terrain == "highland"
    assert g.fire_strength("us_1_69ar", "22") == 4 and g.fire_strength("us_1_69ar", "pleiku") == 8
    assert g.fire_strength("us_4id_1", "22") == 8


def test_tet_p2_4_allies_fire_first_in_a_city():
    g = _battle("quang_ngai", ["us_11lib"], ["vc_i_03"], turn=2)
    rule, order = g.fire_order("quang_ngai")
    assert rule == "TET-P2-4" and [[s for s, _ in v] for v in order] == [["Allied"], ["Communist"]]


def test_tet_p2_5_simultaneous_in_provinces_and_risen_cities():
    g = _battle("quang_ngai", ["us_11lib"], ["vc_i_03"], turn=2, insurrection=True)
    assert g.fire_order("quang_ngai")[0] == "TET-P2-5" and g.fire_order("13")[0] == "TET-P2-5"


def test_tet_p2_6_sappers_fire_first_on_turn_one():
    g = _battle("quang_ngai", ["us_11lib"], ["vc_i_10", "vc_i_03"], turn=1)
    rule, order = g.fire_order("quang_ngai")
    assert rule == "TET-P2-6" and order[0] == [("Communist", True)] and order[1] == [("Allied", None)]


def test_tet_p2_7_nva_fire_first_in_sanctuaries():
    g = _battle("S2", ["us_1cav_1"], ["vc_i_06"], turn=2)
    assert g.fire_order("S2")[0] == "TET-P2-7"


def test_tet_p2_2_allies_choose_the_battle_order():
    g = _battle("quang_ngai", ["us_11lib"], ["vc_i_03"], turn=2)
    _run_until(g, "TET-P2-2")
    assert g.decision.side == "Allied" and any(a.get("area") == "quang_ngai" for a in g.legal_actions())


def _fire(g, side_target_firers):
    """Drive one battle: for each (side, target, firers) pick the target, add the firers, fire; else hold."""
    plan = list(side_target_firers)
    start = (g.turn, g.phase.id)
    while not g.is_over and (g.turn, g.phase.id) == start:
        d = g.decision
        if d is None:
            g.advance("decision")
            continue
        if d.rule_id == "TET-P2-3":
            step = next((p for p in plan if p[0] == d.side), None)
            if step:
                g.apply(Action.make("target", target=step[1]))
                for u in step[2]:
                    g.apply(Action.make("add_firer", unit=u))
                g.apply(next(a for a in g.legal_actions() if a.kind == "fire"))
                plan.remove(step)
            else:
                g.apply(Action.make("hold_fire"))
        elif d.rule_id in ("TET-P2-1", "TET-P6-1", "TET-P2-2"):
            g.apply(g.legal_actions()[-1] if d.rule_id != "TET-P2-2" else g.legal_actions()[0])
        else:
            return


def test_tet_p2_3_each_unit_fires_once_and_each_target_once():
    g = _battle("13", ["us_11lib", "us_198lib"], ["vc_i_03", "vc_i_07"], turn=2, dice=[6] * 10)
    _run_until(g, "TET-P2-3")
    g.apply(Action.make("target", target="vc_i_03"))
    g.apply(Action.make("add_firer", unit="us_11lib"))
    with pytest.raises(IllegalAction):
        g.apply(Action.make("add_firer", unit="us_11lib"))  # already in the group
    g.apply(next(a for a in g.legal_actions() if a.kind == "fire"))
    assert g.decision.rule_id == "TET-P2-3"
    assert not any(a.get("target") == "vc_i_03" for a in g.legal_actions())  # fired on once only


def test_tet_p2_10_overrun_goes_to_casualties():
    g = _battle("13", ["us_11lib"], ["vc_i_07"], turn=2, dice=[1] * 10)
    _fire(g, [("Allied", "vc_i_07", ["us_11lib"])])
    assert g.loc["vc_i_07"] == "casualties"
    r = next(r for r in g.log if r.rule_id == "TET-P2-8")
    assert r.lookup.reconstructed and r.lookup.column == "4:1" and r.lookup.cell == "OR"
    assert "reconstructed" in r.explanation


def test_tet_p2_11_hit_ruff_puff_is_lost_not_retreated():
    def more(g):
        put(g, "rp_10", "quang_ngai", face_up=True)

    g = _battle("quang_ngai", [], ["vc_i_01"], turn=2, dice=[5] * 10, edit_more=more)
    cf = g.unit("rp_10").cf
    assert cf >= 1
    _fire(g, [("Communist", "rp_10", ["vc_i_01"])])
    r = next(r for r in g.log if r.rule_id == "TET-P2-8")
    if r.result["result"] == "H":
        assert g.loc["rp_10"] == "casualties" and any(x.rule_id == "TET-P2-11" for x in g.log)


def test_tet_p2_12_nva_vc_retreat_only_to_an_adjacent_sanctuary():
    """Digest case 33: VC hit in province 23 (no adjacent sanctuary) is lost; in 15 it may go to S2/S3."""
    g = tet_at("p2")
    put(g, "vc_ii_01", "23", face_up=True)
    assert g.retreat_options("vc_ii_01", "23") == ("TET-P2-12", [])
    put(g, "vc_i_03", "15", face_up=True)
    rule, opts = g.retreat_options("vc_i_03", "15")
    assert rule == "TET-P2-12" and set(opts) <= {"S2", "S3"} and opts


def test_tet_p2_13_allied_retreat_from_province_to_a_safe_city_of_it():
    """Digest case 31: hit in province 22; Pleiku in insurrection -> no retreat."""
    g = tet_at("p2")
    assert g.retreat_options("us_4id_3", "22")[1] == ["pleiku"]
    g.insurrection.add("pleiku")
    assert g.retreat_options("us_4id_3", "22") == ("TET-P2-13", [])


def test_tet_p2_14_road_retreat_stays_in_sector_if_it_can():
    """Digest case 32: a II Corps unit hit in Qui Nhon goes to An Khe or Tuy Hoa, not Quang Ngai."""
    g = tet_at("p2")
    rule, opts = g.retreat_options("arvn_41", "qui_nhon")
    assert rule == "TET-P2-14"
    assert "quang_ngai" not in opts and set(opts) <= {"an_khe", "tuy_hoa"} and opts


def test_tet_p2_14_sector_unit_crosses_only_when_no_friendly_city_is_left_in_its_corps():
    """L36: the nearest friendly city lies across the border (Quang Ngai, one link), but a farther one of its own
    Corps is reachable through empty cities: the II Corps unit goes there (decision D-16)."""
    g = tet_at("p2")
    clear(g, "an_khe", "tuy_hoa")
    assert g.retreat_options("arvn_41", "qui_nhon") == ("TET-P2-14", ["nha_trang", "pleiku"])
    assert g.retreat_options("us_173", "qui_nhon") == ("TET-P2-14", ["quang_ngai"])  # theater: the nearest


def test_tet_p2_14_enemy_held_or_risen_cities_block_the_retreat_road():
    """Decision D-16: a retreat does not pass a city held by the enemy or in insurrection; with its own Corps
    closed off the sector unit may cross; with every road closed it is lost (TET-P2-16)."""
    g = tet_at("p2")
    clear(g, "an_khe", "tuy_hoa")
    put(g, "vc_ii_01", "an_khe", face_up=True)
    g.insurrection.add("tuy_hoa")
    assert g.retreat_options("arvn_41", "qui_nhon") == ("TET-P2-14", ["quang_ngai"])
    clear(g, "quang_ngai")
    put(g, "vc_i_01", "quang_ngai", face_up=True)
    assert g.retreat_options("arvn_41", "qui_nhon") == ("TET-P2-14", [])


def test_tet_p2_14_retreat_across_the_border_is_explained():
    def edit(g):
        quiet_board(g, "qui_nhon")
        clear(g, "an_khe", "tuy_hoa")
        put(g, "vc_ii_01", "an_khe", face_up=True)
        put(g, "vc_ii_02", "tuy_hoa", face_up=True)
        put(g, "arvn_41", "qui_nhon")
        put(g, "vc_ii_03", "qui_nhon", face_up=True)

    g = tet_at("p2", turn=2, edit=edit, players={"Allied": None, "Communist": None})
    rulings = list(g.apply_result("qui_nhon", "arvn_41", "H", {"out": set()}))
    assert g.loc["arvn_41"] == "quang_ngai"
    assert rulings[-1].rule_id == "TET-P2-14" and "crosses the sector border" in rulings[-1].explanation


def test_tet_p2_15_nva_retreat_from_sanctuary_along_the_trail():
    """Digest case 34: NVA hit in S4, S3 holds Allied units, S5 empty: NVA -> S5; VC -> nowhere."""
    g = tet_at("p2")
    clear(g, "S3", "S4", "S5")
    put(g, "us_1cav_1", "S3")
    assert g.retreat_options("nva_1", "S4") == ("TET-P2-15", ["S5"])
    assert g.retreat_options("vc_ii_01", "S4") == ("TET-P2-15", [])


def test_tet_p2_16_no_retreat_means_casualties():
    g = _battle("23", ["us_1cav_2"], ["vc_ii_01"], turn=2, dice=[2] * 10)
    _fire(g, [("Allied", "vc_ii_01", ["us_1cav_2"])])
    assert g.loc["vc_ii_01"] == "casualties"
    assert any(r.rule_id == "TET-P2-16" for r in g.log)


def test_tet_p2_17_airbase_overrun_destroys_based_air():
    """Digest case 30: NVA in Pleiku with no Allied ground unit: the II Corps heli there is lost."""

    def edit(g):
        clear(g, "pleiku")
        put(g, "us_heli_II", "pleiku")
        put(g, "nva_r08", "pleiku", face_up=True)

    g = tet_at("p2", turn=2, edit=edit)
    g.advance("phase")
    assert g.loc["us_heli_II"] == "casualties"
    assert any(r.rule_id == "TET-P2-17" and "us_heli_II" in r.result["lost"] for r in g.log)


def test_tet_unit_8_insurrection_bonus_fires_with_the_vc():
    g = _battle("quang_ngai", ["arvn_4"], ["vc_i_07"], turn=2, insurrection=True, dice=[6] * 10)
    _run_until(g, "TET-P2-3")
    while g.decision.side != "Communist":
        g.apply(Action.make("hold_fire"))
    g.apply(Action.make("target", target="arvn_4"))
    assert any(a.get("unit") == "insurrection_marker" for a in g.legal_actions())


def test_tet_p6_6_retaken_city_ends_insurrection_and_svn_scores_once():
    """Digest case 15: Allied unit in a risen city PV 4 with no NVA/VC left: marker removed, SVN -4."""

    def edit(g):
        clear(g, "qui_nhon")
        put(g, "arvn_41", "qui_nhon")
        g.insurrection.add("qui_nhon")

    g = tet_at("p6", edit=edit)
    g.advance("phase")
    pv = g.data.areas["qui_nhon"].pv
    assert "qui_nhon" not in g.insurrection and g.score["SVN"] == -pv
    assert any(r.rule_id == "TET-P6-6" and r.result == {"svn_change": -pv} for r in g.log)


def test_tet_p6_1_communists_reveal_units_to_fire_in_phase_six():
    def edit(g):
        clear(g, "13")
        put(g, "us_11lib", "13")
        put(g, "vc_i_03", "13", face_up=False)

    g = tet_at("p6", edit=edit, players={"Communist": None})
    assert g.decision.rule_id == "TET-P6-1"
    g.apply(Action.make("reveal", unit="vc_i_03"))
    assert g.face_up["vc_i_03"]


def test_tet_p2_1_revealed_attackers_can_be_fired_on():
    def edit(g):
        clear(g, "13")
        put(g, "us_11lib", "13")
        put(g, "vc_i_03", "13", face_up=False)

    g = tet_at("p2", turn=2, edit=edit, players={"Communist": None})
    assert g.decision.rule_id == "TET-P2-1" and "vc_i_03" not in g._targets(
        "13", "Allied", {"fired_upon": set(), "out": set()}
    )
    g.apply(Action.make("reveal", unit="vc_i_03"))
    assert g.face_up["vc_i_03"] and "13" in g.battle_areas()
