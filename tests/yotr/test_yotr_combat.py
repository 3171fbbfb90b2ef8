"""Ground combat, the CRT, battlegroups, retreats, towns and militia (YOTR-CBT, YOTR-TWN, YOTR-SUP-D)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from wargames.core import Action, IllegalAction
from wargames.yotr.combat import odds_column
from wargames.yotr.data import CRT_COLUMNS, load_data

from .conftest import choose, clear, put, yotr_at

P = "1987"
D = load_data()
RING = D.adj[P]

CRT_TEXT = """\
1,Ar2,NE,NE,Dr1,Dr1,Dr1,Dr2,Dr2,Dr2,Dr2,De,De,De
2,Ar2,Ar1,NE,NE,NE,Dr1,Dr1,Dr1,Dr2,Dr2,Dr2,De,De
3,Ae,Ar2,Ar2,NE,NE,NE,Dr1,Dr1,Dr1,Dr1,Dr2,Dr2,De
4,Ae,Ae,Ar2,Ar1,NE,NE,NE,Dr1,Dr1,Dr1,Dr1,Dr2,Dr2
5,Ae,Ae,Ae,Ar2,Ar1,NE,NE,NE,NE,Dr1,Dr1,Dr1,Dr2
6,Ae,Ae,Ae,Ae,Ar2,Ar1,NE,NE,NE,NE,Dr1,Dr1,Dr1"""


def position(units: dict[str, str], phase: str = "c_combat", dice=None, **kw):
    def edit(g):
        clear(g)
        for u, h in units.items():
            put(g, u, h)

    return yotr_at(phase, edit=edit, dice=dice, **kw)


def attack(g, target: str, *units: str, advance: bool = False):
    """Declare one attack, resolve it, take the first retreat hexes and (unless asked) no advance."""
    out = choose(g, "target", hex=target)
    for u in units:
        if any(a.kind == "attacker" and a["unit"] == u for a in g.legal_actions()):
            out += choose(g, "attacker", unit=u)
    if g.decision and any(a.kind == "commit" for a in g.legal_actions()):
        out += choose(g, "commit")
    if g.decision and g.decision.rule_id == "YOTR-CBT-D":
        out += choose(g, "no_more")
    if g.decision and g.decision.rule_id == "YOTR-CBT-A":
        out += choose(g, "done")
    while g.decision and g.decision.rule_id in ("YOTR-ZOC-D", "YOTR-CBT-L"):
        acts = g.legal_actions()
        pick = acts[0] if g.decision.rule_id == "YOTR-ZOC-D" or advance else acts[-1]
        out += g.apply(pick)
    return out


def nbr(h: str, avoid=()) -> str:
    return next(
        n
        for n in D.adj[h]
        if D.terrain(n) == "clear" and n not in D.towns and n not in avoid and not D.side_has(h, n, "river")
    )


# ---------------------------------------------------------------------- the table and the odds
def test_yotr_cbt_crt_cells_match_the_text():
    for line in CRT_TEXT.splitlines():
        die, *cells = line.split(",")
        for col, cell in zip(CRT_COLUMNS, cells, strict=True):
            assert D.crt[(int(die), col)] == cell


def test_yotr_cbt_crt_odds_limits():
    # EX-36: below 1-4 is 1-4, above 10-1 is 10-1
    assert odds_column(Fraction(1), Fraction(6)) == "1-4"
    assert odds_column(Fraction(14), Fraction(1)) == "10-1"


def test_yotr_cbt_g_odds_round_in_defender_favour():
    assert odds_column(Fraction(26), Fraction(9)) == "2-1"  # EX-01
    assert odds_column(Fraction(8), Fraction(9)) == "1-2"  # EX-37
    assert odds_column(Fraction(5), Fraction(12)) == "1-3"
    assert odds_column(Fraction(40), Fraction(4)) == "10-1"
    assert odds_column(Fraction(3), Fraction(0)) == "10-1"  # D-40


# ---------------------------------------------------------------------- strengths
def test_yotr_twn_e_militia_adds_to_the_defence():
    hue = "4413"
    g = position({"arvn_qt_3": hue, "nva_2": nbr(hue)})
    total, parts = g.defense_strength(hue, ["nva_2"])
    assert total == 6 and parts["militia"] == 3  # EX-26


def test_yotr_twn_f_units_in_a_base_double_then_add_militia():
    long_binh = "3674"
    g = position({"arvn_mdw_1": long_binh, "arvn_mde_2": long_binh, "nva_2": nbr(long_binh)})
    total, _ = g.defense_strength(long_binh, ["nva_2"])
    assert total == 10  # EX-25: (2 + 2) x 2 + 2


def test_yotr_twn_d_militia_never_attacks():
    an_loc = "3365"
    g = position({"nva_2": nbr(an_loc)}, phase="a_combat")
    assert g.attack_targets("Allied", set(), set()) == []  # no Allied unit: the militia cannot attack


def test_yotr_sup_chart_effects_on_strength():
    g = position({"arvn_mdw_1": P, "rok_1": "6542", "nva_2": "1784"})
    assert g.supply_factor("arvn_mdw_1", "unsupplied", "attack") == 0
    assert g.supply_factor("arvn_mdw_1", "unsupplied", "defense") == Fraction(1, 2)
    assert g.supply_factor("rok_1", "unsupplied", "attack") == Fraction(1, 2)
    assert g.supply_factor("nva_2", "general_supply", "attack") == Fraction(1, 2)
    assert g.supply_factor("nva_2", "isolated", "attack") == Fraction(1, 4)  # D-13
    assert g.supply_factor("nva_2", "isolated", "defense") == Fraction(1, 2)


def test_yotr_tec_1_river_doubles_only_if_every_attacker_crosses():
    a, b = next(
        (x, y)
        for (x, y), f in sorted(D.sides.items())
        if f == {"river"}
        and D.terrain(x) == "clear"
        and D.terrain(y) == "clear"
        and D.country(x) == D.country(y) == "SVN"
        and x not in D.towns
        and y not in D.towns
    )
    other = next(
        n for n in D.adj[a] if n in D.adj[b] and not D.side_has(n, a, "river") and D.terrain(n) != "sea"
    )
    g = position({"arvn_mdw_1": a, "nva_2": b, "nva_3": other})
    assert g.defense_strength(a, ["nva_2"])[0] == 4
    assert g.defense_strength(a, ["nva_2", "nva_3"])[0] == 2


def test_yotr_tec_4_doubling_never_exceeds_two():
    base = "3674"
    across = next((n for n in D.adj[base] if D.side_has(base, n, "river")), None)
    g = position({"arvn_mdw_1": base})
    if across is None:
        pytest.skip("no river next to Long Binh on the reconstructed map")
    put(g, "nva_2", across)
    assert g.defense_strength(base, ["nva_2"])[0] == 2 * 2 + 2


# ---------------------------------------------------------------------- battles
def test_yotr_cbt_a_only_adjacent_hexes_may_be_attacked():
    g = position({"nva_2": P, "arvn_mdw_1": RING[0], "arvn_mde_2": "2187"})
    targets = [a["hex"] for a in g.legal_actions() if a.kind == "target"]
    assert targets == [RING[0]]
    before = g.digest()
    with pytest.raises(IllegalAction) as err:
        g.apply(Action.make("target", hex="2187"))
    assert err.value.rule_id == "YOTR-CBT-A" and g.digest() == before


def test_yotr_cbt_proc_attack_resolved_on_the_crt():
    g = position({"nva_2": P, "arvn_mdw_1": RING[0]}, dice=[1])
    rulings = attack(g, RING[0], "nva_2")
    battle = next(r for r in rulings if r.rule_id == "YOTR-CBT-CRT" and r.lookup)
    assert battle.result["odds"] == "2-1" and battle.result["crt"] == "Dr1" and battle.lookup.cell == "Dr1"


def test_yotr_sop_a3a_attackers_turned_face_up_when_declared():
    g = position({"nva_2": P, "nva_3": "1687", "arvn_mdw_1": RING[0], "arvn_mde_2": "1686"})
    choose(g, "target", hex=RING[0])
    choose(g, "attacker", unit="nva_2")
    assert "nva_2" in g.face_up and any(u["id"] == "nva_2" for u in g.view("Allied").state["units"])
    choose(g, "done")
    assert "nva_2" not in g.face_up  # YOTR-SOP-A3b: hidden again after the result


def test_yotr_sop_a3b_results_applied_at_once():
    g = position({"nva_2": P, "arvn_mdw_1": RING[0]}, dice=[6])  # 2-1, die 6: Ar2
    attack(g, RING[0], "nva_2")
    assert g.loc["nva_2"] != P and g.data.grid.distance(P, g.loc["nva_2"]) == 2


def test_yotr_cbt_c_each_unit_and_hex_once():
    g = position({"nva_2": P, "nva_3": P, "arvn_mdw_1": RING[0], "arvn_mde_2": RING[1]})
    choose(g, "target", hex=RING[0])
    choose(g, "attacker", unit="nva_2")
    choose(g, "commit")
    choose(g, "no_more")
    targets = [a["hex"] for a in g.legal_actions() if a.kind == "target"]
    assert targets == [RING[1]]
    choose(g, "target", hex=RING[1])
    assert [a["unit"] for a in g.legal_actions() if a.kind == "attacker"] == ["nva_3"]


def test_yotr_cbt_h_stacks_need_not_attack_together():
    test_yotr_cbt_c_each_unit_and_hex_once()


def test_yotr_cbt_l_advance_after_combat():
    g = position({"nva_2": P, "arvn_mdw_1": RING[0]}, dice=[1])
    attack(g, RING[0], "nva_2", advance=True)
    assert g.loc["nva_2"] == RING[0]


def test_yotr_cbt_q_full_strength_nva_becomes_a_battlegroup():
    # EX-03: a 5-6 that cannot retreat becomes a 1-6 Battlegroup in place, not forced to retreat
    units = {"nva_2": P}
    allies = ["arvn_sg_1", "arvn_sg_2", "arvn_sg_3", "arvn_sg_4", "arvn_sg_5", "arvn_sg_6"]
    units.update(dict(zip(allies, RING, strict=True)))
    g = position(units, phase="a_combat", dice=[1])  # 12 against 5: 2-1, die 1: Dr1
    rulings = choose(g, "target", hex=P) + choose(g, "all_attack", hex=P)
    assert "nva_2" in g.bg and g.loc["nva_2"] == P
    assert g.attack_value("nva_2") == 1 and any(r.rule_id == "YOTR-CBT-Q" for r in rulings)
    # EX-04: a Battlegroup eliminated makes no new Battlegroup
    list(g.eliminate("nva_2", "test"))
    assert g.loc["nva_2"] == "eliminated"


def test_yotr_cbt_p_dummies_exposed_and_attack_spent():
    g = position({"dummy_1": P, "arvn_mdw_1": RING[0]}, phase="a_combat")
    rulings = attack(g, P, "arvn_mdw_1")
    assert g.loc["dummy_1"] == "removed"
    assert [r.rule_id for r in rulings if r.rule_id in ("YOTR-DUM-C", "YOTR-CBT-P")] == [
        "YOTR-DUM-C",
        "YOTR-CBT-P",
    ]
    assert not any(r.rule_id == "YOTR-CBT-CRT" for r in rulings)


def test_yotr_dum_c_exposed_dummy_removed_real_units_still_fight():
    g = position({"dummy_1": P, "nlf_4": P, "arvn_mdw_1": RING[0]}, phase="a_combat", dice=[3])
    rulings = attack(g, P, "arvn_mdw_1")
    assert g.loc["dummy_1"] == "removed"
    assert any(r.rule_id == "YOTR-CBT-CRT" and r.lookup for r in rulings)


def test_yotr_cbt_crt_de_eliminates_defenders():
    g = position({"nva_1": P, "nva_2": P, "arvn_mdw_1": RING[0]}, dice=[1])  # 11 v 2: 5-1 die 1 Dr2
    attack(g, RING[0], "nva_1", "nva_2")
    assert g.loc["arvn_mdw_1"] in ("eliminated",) or g.data.grid.distance(RING[0], g.loc["arvn_mdw_1"]) == 2


def test_yotr_twn_proc_militia_eliminated_town_taken():
    an_loc = "3365"
    g = position({"nva_2": nbr(an_loc)}, dice=[1])  # 5 v 1: 5-1, die 1: Dr2
    rulings = attack(g, an_loc, "nva_2")
    assert g.town[an_loc] == "nlf" and g.vp == 2
    assert any(r.rule_id == "YOTR-TWN-PROC" for r in rulings)


def test_yotr_twn_m_retake_restores_militia_and_scores_the_reduced_value():
    # EX-29: seize a strength-2 town (+5), the Allies retake it (-3), seize it again (+3)
    my_tho = "3080"

    def edit(g):
        clear(g)
        g.town[my_tho] = "nlf"
        put(g, "arvn_mde_2", nbr(my_tho))

    g = yotr_at("a_combat", edit=edit, dice=[1])
    assert g.vp == 5
    attack(g, my_tho, "arvn_mde_2")  # 2 v 1: 2-1, die 1: Dr1
    assert g.town[my_tho] == "retaken" and g.vp == 2 and g.allied_militia(my_tho) == 2
    g.town[my_tho] = "nlf"
    assert g.vp_function()["towns"] == 5


def test_yotr_sup_d_supply_center_destroyed_on_de_only():
    sc = "1274"  # Chau Doc border, one supply unit
    land = [n for n in D.adj[sc] if D.terrain(n) != "sea"]
    g = position({"arvn_sg_1": land[0]}, phase="a_combat")
    assert g.defense_strength(sc, ["arvn_sg_1"])[0] == 2  # intrinsic 2, like a town
    # EX-14: a retreat result leaves a Supply Center that is not surrounded
    rulings = list(g.defender_loses("Allied", sc, "Dr1", ["arvn_sg_1"], advance=False))
    assert sc not in g.sc_destroyed and any("holds" in r.title for r in rulings)
    # ... but destroys it once every hex around it is held or controlled by Allied units (D-27)
    for i, n in enumerate(land, start=1):
        put(g, f"arvn_sg_{i}", n)
    g.touch()
    list(g.defender_loses("Allied", sc, "Dr1", ["arvn_sg_1"], advance=False))
    assert sc in g.sc_destroyed
    # EX-15: De destroys a centre for good, with the supply units on it
    tch = "2710"
    list(g.defender_loses("Allied", tch, "De", ["arvn_sg_1"], advance=False))
    assert tch in g.sc_destroyed and all(
        g.loc[u] == "eliminated" for u in ("supply_dummy_2", "supply_dummy_3")
    )
    assert tch not in g.general_sources()


def test_yotr_zoc_f2_usa_zones_switch_on_when_attacked():
    danang = "5217"
    g = position({"usa_1": danang, "nva_1": nbr(danang)}, dice=[4])
    assert not g.usa_zoc
    rulings = attack(g, danang, "nva_1")
    assert g.usa_zoc and any(r.rule_id == "YOTR-ZOC-F2" for r in rulings)  # EX-31


def test_yotr_zoc_d_retreat_through_friendly_units_in_enemy_zones():
    # EX-11: a hex in an enemy zone but holding a friendly unit is open to a retreat
    g = position({"arvn_mdw_1": P, "nva_2": RING[0], "nva_3": RING[3], "arvn_mde_2": "2187"})
    opts1 = g.retreat_options("arvn_mdw_1", 1)
    assert all(h not in g.zoc_for_tracing("Communist") for h in opts1)
    free = [h for h in RING if h not in (RING[0], RING[3])]
    zoned_friendly = [h for h in free if h in g.zoc("Communist")]
    put(g, "arvn_mde_3", zoned_friendly[0]) if zoned_friendly else None
    g.touch()
    if zoned_friendly:
        assert zoned_friendly[0] in g.retreat_options("arvn_mdw_1", 1)


def test_yotr_zoc_h_enemy_zones_block_retreats():
    g = position({"arvn_mdw_1": P, "nva_2": RING[0], "nva_3": RING[3]})
    z = g.zoc("Communist")
    assert all(h not in z or g.occupied_by(h, "Allied") for h in g.retreat_options("arvn_mdw_1", 1))


def test_yotr_mov_k_retreat_costs_no_movement_points():
    g = position({"nva_2": P, "arvn_mdw_1": RING[0]}, dice=[6])
    rulings = attack(g, RING[0], "nva_2")
    assert any(r.rule_id == "YOTR-ZOC-D" and "no movement points" in r.explanation for r in rulings)


def test_yotr_mov_s_rok_retreat_out_of_region_eliminates():
    # EX-32: a ROK unit may only retreat inside its Region; with no such hex it is eliminated
    edge = next(
        h
        for h in sorted(D.hexes)
        if D.region(h) == "central_coast"
        and h not in D.towns
        and D.terrain(h) == "clear"
        and any(D.region(n) not in ("central_coast", None) and D.terrain(n) == "clear" for n in D.adj[h])
    )
    g = position({"rok_1": edge, "arvn_cc_1": edge}, phase="a_combat")
    rok = g.retreat_options("rok_1", 1)
    assert all(D.region(h) == "central_coast" for h in rok)
    assert any(D.region(h) != "central_coast" for h in g.retreat_options("arvn_cc_1", 1))
    inside = [n for n in D.adj[edge] if D.region(n) == "central_coast" and D.terrain(n) != "sea"]
    for u, n in zip(("nva_1", "nva_2", "nva_3", "nva_4", "nva_5", "nva_6"), inside, strict=False):
        put(g, u, n)
    g.touch()
    assert g.retreat_options("rok_1", 1) == []
    rulings = list(g.retreat("rok_1", 1))
    assert g.loc["rok_1"] == "eliminated" and rulings[-1].rule_id == "YOTR-CBT-CRT"


def test_yotr_mov_s_usa_retreat_from_base_goes_to_another_base():
    # EX-33
    g = position({"usa_2": "3980", "usa_1": "5217"})
    opts = g.retreat_options("usa_2", 1)
    assert "5217" in opts and "3674" in opts and all(D.towns[h].kind == "base" for h in opts)


def test_yotr_cbt_n_attacks_cross_any_border():
    a, b = next(
        (x, y)
        for x in sorted(D.hexes)
        if D.country(x) == "KHM" and D.terrain(x) == "clear"
        for y in D.adj[x]
        if D.country(y) == "SVN"
        and D.terrain(y) == "clear"
        and y not in D.towns
        and not D.side_has(x, y, "river")
    )
    g = position({"nva_2": a, "arvn_mdw_1": b})
    assert b in [x["hex"] for x in g.legal_actions() if x.kind == "target"]


def test_yotr_cbt_m_supply_changes_attack_strength():
    g = position({"nva_2": P, "arvn_mdw_1": RING[0]})
    assert g.attack_strength("nva_2") == 5  # Attack Supply on Game-Turn 1
    g.turn = 3
    g.touch()
    assert g.attack_strength("nva_2") < 5  # far from every Supply Center on Game-Turn 3


def test_yotr_cbt_d_several_adjacent_hexes_in_one_attack():
    g = position({"nva_1": P, "nva_2": P, "arvn_mdw_1": RING[0], "arvn_mde_2": RING[1]}, dice=[1])
    choose(g, "target", hex=RING[0])
    choose(g, "all_attack", hex=RING[0])
    assert g.decision.rule_id == "YOTR-CBT-D"
    rulings = choose(g, "add_hex", hex=RING[1])
    while g.decision and g.decision.rule_id in ("YOTR-CBT-D", "YOTR-CBT-A", "YOTR-ZOC-D", "YOTR-CBT-L"):
        acts = g.legal_actions()
        pick = next((a for a in acts if a.kind in ("no_more", "done", "stop")), acts[0])
        rulings += g.apply(pick)
    battle = next(r for r in rulings if r.rule_id == "YOTR-CBT-CRT" and r.lookup)
    assert battle.result["hexes"] == [RING[0], RING[1]]
    assert battle.inputs["defense"] == 4 and battle.result["odds"] == "2-1"  # 11 against 2 + 2 (D-35)
    assert g.loc["arvn_mdw_1"] != RING[0] and g.loc["arvn_mde_2"] != RING[1]  # Dr1 applies to both hexes


def test_yotr_twn_proc_nlf_militia_gone_under_a_battlegroup():
    # D-55: Allied 1-1 on an NLF-held Ca Mau (NVA 5-6 + militia 1 = 6 against 2+2+2), die 1 is Dr1; every hex
    # around is Allied, so the NVA unit cannot retreat and becomes a Battlegroup in place.  The NLF militia is
    # gone (the town stays Communist while the Battlegroup holds it, defending without militia), and the first
    # Allied unit to enter it once empty retakes it.
    town = "1593"
    ring = list(D.adj[town])
    attackers = ["arvn_qt_1", "arvn_qt_2", "arvn_ch_1"]
    others = ["arvn_qn_1", "arvn_svay_rieng_2", "arvn_svay_rieng_3"]
    units = {"nva_2": town, **dict(zip(attackers + others, ring, strict=True))}

    def edit(g):
        clear(g)
        g.town[town] = "nlf"
        for u, h in units.items():
            put(g, u, h)

    g = yotr_at("a_combat", edit=edit, dice=[1])
    assert g.communist_militia(town) == 1
    rulings = attack(g, town, *attackers)
    crt = next(r for r in rulings if r.rule_id == "YOTR-CBT-CRT" and "Battle" in r.title)
    assert crt.result["odds"] == "1-1" and crt.result["crt"] == "Dr1"
    assert "nva_2" in g.bg and g.loc["nva_2"] == town and g.town[town] == "nlf"
    gone = next(r for r in rulings if r.rule_id == "YOTR-TWN-PROC")
    assert "D-55" in gone.explanation and g.communist_militia(town) == 0
    assert g.defense_strength(town, attackers)[1]["militia"] == 0
    assert g.vp_function()["towns"] >= D.town_vp[1].vp_on_seizure  # still Communist-held
    # the Battlegroup leaves; an Allied unit walking in retakes the town
    g.place("nva_2", "eliminated")
    g.touch()
    assert town not in g.blocked_for("Allied")
    rulings = list(g.retake_unheld(town))
    assert g.town[town] == "retaken" and rulings[0].rule_id == "YOTR-TWN-M" and town not in g.militia_gone


def test_yotr_sr_h_battlegroup_shown_as_2_1_6():
    g = position({"nva_2": P}, options={"special_rule_h": True})
    g.bg.add("nva_2")
    assert g.attack_value("nva_2") == 2 and g.defense_value("nva_2") == 1
    assert g.describe("nva_2") == "NVA Battlegroup 2-1-6 (nva_2)"
    assert next(u for u in g.public_state(None)["units"] if u["id"] == "nva_2")["values"] == "2-1-6"
    plain = position({"nva_2": P})
    plain.bg.add("nva_2")
    assert plain.describe("nva_2") == "NVA Battlegroup 1-6 (nva_2)"


def test_yotr_tec_4_one_majority_terrain_per_hex_and_symbols_count_whole():
    # D-65: our reconstructed hexes carry one (majority) terrain each; a town symbol counts whatever its size
    assert {r.terrain for r in D.hexes.values()} <= {"clear", "rough", "swamp", "sea"}
    row = D.decisions["D-65"]
    assert "majority" in row.decision and row.alternatives and row.reasoning
    assert "D-65" in D.rules["YOTR-TEC-4"].decisions
    assert all(h in D.town_symbols for h in D.towns) and D.places["svay_rieng"].hex in D.town_symbols


def finish(g) -> list:
    """End the declarations, resolve in the offered order (first battle first), first retreat, no advance."""
    out = []
    if g.decision and g.decision.rule_id == "YOTR-CBT-A":
        out += choose(g, "done")
    while g.decision and g.decision.rule_id in ("YOTR-ZOC-D", "YOTR-CBT-L", "YOTR-CBT-K"):
        out += g.apply(g.legal_actions()[-1] if g.decision.rule_id == "YOTR-CBT-L" else g.legal_actions()[0])
    return out


def _two_declared(first: str, second: str, ring_units: dict, b_units: dict, dice):
    """Allied attacks declared on ``first`` (by the ring units) then ``second`` (by the b units)."""
    g = position({"nva_2": first, "nva_7": second, **ring_units, **b_units}, phase="a_combat", dice=dice)
    out = choose(g, "target", hex=first)
    for u in ring_units:
        if any(a.kind == "attacker" and a["unit"] == u for a in g.legal_actions()):
            out += choose(g, "attacker", unit=u)
    if any(x.kind == "commit" for x in g.legal_actions()):
        out += choose(g, "commit")
    if g.decision.rule_id == "YOTR-CBT-D":
        out += choose(g, "no_more")
    out += choose(g, "target", hex=second)
    out += choose(g, "all_attack", hex=second)
    if g.decision.rule_id == "YOTR-CBT-D":
        out += choose(g, "no_more")
    return g, out


def test_yotr_cbt_c_a_defender_that_retreats_into_another_target_is_not_attacked_again():
    # A = 1987 (NVA 5-6) is ringed by five ARVN 2Y6 (2-1, die 1: Dr1), so its only retreat is B = 1986, itself a
    # declared target (NVA 4-6, attacked at 1-1 by 7 points from 1985, die 1: Dr1, no retreat: a Battlegroup).
    # The unit that retreated into B neither adds its defence there nor suffers B's result (D-66).
    a, b = "1987", "1986"
    ring = [h for h in D.adj[a] if h != b]
    ring_units = dict(
        zip(
            ["arvn_qt_1", "arvn_qt_2", "arvn_ch_1", "arvn_svay_rieng_2", "arvn_svay_rieng_3"],
            ring,
            strict=True,
        )
    )
    b_units = {"arvn_qt_3": "1985", "arvn_qn_1": "1985", "arvn_ch_2": "1985"}
    g, out = _two_declared(a, b, ring_units, b_units, dice=[1, 1])
    out += finish(g)
    battles = [r for r in out if r.rule_id == "YOTR-CBT-CRT" and r.title.startswith("Battle")]
    assert [r.result["crt"] for r in battles] == ["Dr1", "Dr1"]
    assert battles[1].inputs["units"] == 4  # nva_7 alone: nva_2, which retreated in, does not defend again
    assert g.loc["nva_2"] == b and "nva_2" not in g.bg  # nor suffer the second result
    assert "nva_7" in g.bg and g.loc["nva_7"] == b


def test_yotr_cbt_c_attack_on_a_hex_holding_only_already_attacked_units_is_not_made():
    # D-66: A's NVA 5-6 retreats (Dr1) into B, which holds only a dummy and is the second declared target; when
    # B is resolved the dummy is exposed and removed and only the unit already attacked is left, so no die is
    # rolled and the attacker on B is spent
    a, b = "1987", "1986"
    ring = [h for h in D.adj[a] if h != b]
    ring_units = dict(
        zip(
            ["arvn_qt_1", "arvn_qt_2", "arvn_ch_1", "arvn_svay_rieng_2", "arvn_svay_rieng_3"],
            ring,
            strict=True,
        )
    )

    def edit(g):
        clear(g)
        for u, h in {"nva_2": a, "dummy_1": b, **ring_units, "arvn_qt_3": "1985"}.items():
            put(g, u, h)

    g = yotr_at("a_combat", edit=edit, dice=[1])
    out = choose(g, "target", hex=a)
    for u in ring_units:
        if any(x.kind == "attacker" and x["unit"] == u for x in g.legal_actions()):
            out += choose(g, "attacker", unit=u)
    if any(x.kind == "commit" for x in g.legal_actions()):
        out += choose(g, "commit")
    if g.decision.rule_id == "YOTR-CBT-D":
        out += choose(g, "no_more")
    out += choose(g, "target", hex=b)
    out += choose(g, "attacker", unit="arvn_qt_3")
    if g.decision.rule_id == "YOTR-CBT-H":
        out += choose(g, "commit")
    if g.decision.rule_id == "YOTR-CBT-D":
        out += choose(g, "no_more")
    out += finish(g)
    assert g.loc["nva_2"] == b and g.loc["dummy_1"] == "removed"
    assert sum(r.rule_id == "YOTR-CBT-CRT" and r.title.startswith("Battle") for r in out) == 1
    spent = next(r for r in out if r.rule_id == "YOTR-CBT-C")
    assert "D-66" in spent.explanation and spent.result["spent"] == ["arvn_qt_3"]


def test_yotr_twn_proc_militia_left_alone_by_a_retreated_unit_is_still_eliminated():
    """YOTR-TWN-PROC with YOTR-CBT-C (decisions D-55, D-66, D-71): the USA unit at Long Binh, beaten (Dr1), falls
    back to the base of Vung Tau, itself a declared target.  There it takes no part (attacked once already), so
    Vung Tau's militia defends alone; the Dr1 it suffers eliminates the militia, while the unit keeps the town
    Allied: no capture, no advance, and a town without militia strength from then on."""
    a, b = "3674", "3980"

    def edit(g):
        clear(g)
        put(g, "usa_3", a)
        for uid, h in zip(("nva_1", "nva_2", "nva_3"), ("3673", "3773", "3774"), strict=True):
            put(g, uid, h)
        put(g, "nva_7", "3979")

    g = yotr_at("c_combat", turn=1, edit=edit, dice=[1, 1])
    out = choose(g, "target", hex=a) + choose(g, "all_attack", hex=a)
    out += choose(g, "target", hex=b) + choose(g, "attacker", unit="nva_7")
    out += choose(g, "resolve", hex=a) + choose(g, "retreat", to=b)
    while g.decision.rule_id == "YOTR-CBT-L":  # no advance into Long Binh
        out += g.apply(g.legal_actions()[-1])
    battle = [r for r in out if r.rule_id == "YOTR-CBT-CRT" and r.title.startswith("Battle")][-1]
    assert battle.inputs["units"] == 0 and battle.inputs["militia"] == 2 and battle.result["crt"] == "Dr1"
    assert g.loc["usa_3"] == b and g.town[b] == "allied" and g.allied_militia(b) == 0
    lost = next(r for r in out if r.rule_id == "YOTR-TWN-PROC" and r.result.get("town") == b)
    assert "D-55" in lost.explanation and lost.result["militia"] == 0
    assert g.loc["nva_7"] == "3979"
