"""Air strikes and naval gunfire in phase 6 (summary line 55): digest worked cases 8, 20-22."""

from __future__ import annotations

from wargames.core import Action

from .conftest import put, quiet_board, tet_at


def _strike_position(area, planes, red, allied=()):
    def edit(g):
        quiet_board(g, area)
        for p in planes:
            put(g, p, area)
        for u in red:
            put(g, u, area, face_up=True)
        for u in allied:
            put(g, u, area)

    return edit


def _to_strike(g):
    while g.decision is None or g.decision.rule_id not in ("TET-P6-2", "TET-P2-3"):
        if g.decision is None:
            g.advance("decision")
        elif g.decision.rule_id == "TET-P2-2":
            g.apply(g.legal_actions()[0])
        else:
            g.apply(g.legal_actions()[-1])


def test_tet_p6_2_strikes_assigned_before_any_roll_and_tac_air_combine():
    g = tet_at(
        "p6",
        turn=2,
        edit=_strike_position("23", ["us_tac_II", "us_tac_I"], ["vc_ii_01"]),
        players={"Allied": None, "Communist": None},
        dice=[6] * 10,
    )
    _to_strike(g)
    draws = g.dice.draws
    g.apply(Action.make("air_target", plane="us_tac_I", target="vc_ii_01", sortie=0))
    assert g.dice.draws == draws  # nothing rolled until every strike is assigned
    g.apply(Action.make("air_target", plane="us_tac_II", target="vc_ii_01", sortie=0))
    strike = next(r for r in g.log if r.rule_id == "TET-P6-2" and r.dice)
    assert strike.inputs["attack"] == 12 and sorted(strike.inputs["planes"]) == ["us_tac_I", "us_tac_II"]


def test_tet_p6_3_arc_light_bombs_twice():
    """Digest case 22: two attacks, each at full strength."""
    g = tet_at(
        "p6",
        turn=2,
        edit=_strike_position("22", ["us_arclight"], ["nva_1", "vc_ii_03"]),
        players={"Allied": None, "Communist": None},
        dice=[6] * 10,
    )
    _to_strike(g)
    g.apply(Action.make("air_target", plane="us_arclight", target="nva_1", sortie=0))
    g.apply(Action.make("air_target", plane="us_arclight", target="vc_ii_03", sortie=1))
    strikes = [r for r in g.log if r.rule_id == "TET-P6-2" and r.dice]
    assert len(strikes) == 2 and all(r.inputs["attack"] == 12 for r in strikes)


def test_tet_p6_3_arc_light_never_bombs_a_city_holding_allied_units():
    """Digest case 21."""
    g = tet_at(
        "p6",
        turn=2,
        edit=_strike_position("pleiku", ["us_arclight"], ["nva_r08"], allied=["us_4id_3"]),
        players={"Allied": None, "Communist": None},
    )
    _to_strike(g)
    assert any(r.rule_id == "TET-P6-3" and r.result == {"strikes": 0} for r in g.log)
    assert g.decision.rule_id != "TET-P6-2"


def test_tet_p6_4_bombing_a_city_costs_usa_and_svn_once_per_turn():
    """Digest case 20: two strikes on one city PV 5 cost each track 5 once."""
    g = tet_at(
        "p6",
        turn=2,
        edit=_strike_position("da_nang", ["us_tac_I", "us_tac_t"], ["vc_i_01", "vc_i_02"]),
        players={"Allied": None, "Communist": None},
        dice=[6] * 10,
    )
    before = dict(g.score)
    _to_strike(g)
    g.apply(Action.make("air_target", plane="us_tac_I", target="vc_i_01", sortie=0))
    g.apply(Action.make("air_target", plane="us_tac_t", target="vc_i_02", sortie=0))
    pv = g.data.areas["da_nang"].pv
    assert g.score["USA"] - before["USA"] == pv and g.score["SVN"] - before["SVN"] == pv
    assert sum(r.rule_id == "TET-P6-4" for r in g.log) == 1


def test_tet_p6_4_no_political_cost_for_a_strike_that_never_happens():
    """L34 with L55: a lone Tac Air (6) cannot strike a 24-factor division (below 1:2): it holds, and the city
    costs nothing."""
    g = tet_at(
        "p6",
        turn=2,
        edit=_strike_position("da_nang", ["us_tac_I"], ["nva_2"], allied=["us_1mar"]),
        players={"Allied": None, "Communist": None},
        dice=[6] * 10,
    )
    before = dict(g.score)
    _to_strike(g)
    assert g.decision.rule_id == "TET-P2-3"  # the ground fire of the same battle: no strike was rolled
    held = next(r for r in g.log if r.title == "I Corps Tac Air holds its strike")
    assert held.rule_id == "TET-P2-8" and "below 1:2" in held.explanation
    assert not any(r.rule_id == "TET-P6-4" for r in g.log) and g.score == before


def test_tet_p6_2_a_strike_below_1_2_cannot_be_assigned():
    """L34 with L55: a Tac Air is offered a target it can reach 1:2 against only with the Tac Air still to come,
    and once a group counts on the last one, that one may neither hold nor strike elsewhere."""
    g = tet_at(
        "p6",
        turn=2,
        edit=_strike_position("23", ["us_tac_II", "us_tac_I"], ["nva_2", "vc_ii_01"]),
        players={"Allied": None, "Communist": None},
        dice=[6] * 10,
    )
    _to_strike(g)
    assert {a.get("target") for a in g.legal_actions()} == {"nva_2", "vc_ii_01", None}  # 6+6 : 24 is 1:2
    g.apply(Action.make("air_target", plane="us_tac_I", target="nva_2", sortie=0))
    assert [(a.kind, a.get("target")) for a in g.legal_actions()] == [("air_target", "nva_2")]
    g.apply(Action.make("air_target", plane="us_tac_II", target="nva_2", sortie=0))
    strike = next(r for r in g.log if r.rule_id == "TET-P6-2" and r.dice)
    assert strike.inputs["attack"] == 12 and strike.lookup.column == "1:2"


def test_tet_p6_2_arc_light_run_below_1_2_is_not_offered():
    from wargames.tet.odds import odds_column

    g = tet_at(
        "p6",
        turn=2,
        edit=_strike_position("22", ["us_arclight"], ["nva_304", "vc_ii_03"]),
        players={"Allied": None, "Communist": None},
        dice=[6] * 10,
    )
    _to_strike(g)
    assert odds_column(12, 30) is None
    assert {a.get("target") for a in g.legal_actions()} == {"vc_ii_03", None}


def test_tet_p6_5_battleship_adds_ten_to_one_ground_attack():
    """Digest case 8: marines 10 + battleship 10 in a city of the province the ship lies off, vs 6: 3:1."""

    def edit(g):
        _strike_position("hue", [], ["nva_r03"], allied=["us_1mar"])(g)
        put(g, "us_bb", "offshore_11")

    g = tet_at("p6", turn=2, edit=edit, players={"Allied": None, "Communist": None}, dice=[6] * 10)
    _to_strike(g)
    while g.decision.side != "Allied":
        g.apply(Action.make("hold_fire"))
    g.apply(Action.make("target", target="nva_r03"))
    assert not any(a.kind == "fire" for a in g.legal_actions())
    g.apply(Action.make("add_firer", unit="us_bb"))
    assert not any(a.kind == "fire" for a in g.legal_actions())  # the guns support a ground unit, not alone
    g.apply(Action.make("add_firer", unit="us_1mar"))
    fire = next(a for a in g.legal_actions() if a.kind == "fire")
    assert fire.label.startswith("Fire at 3:1")
    g.apply(fire)
    assert g.battleship_used
