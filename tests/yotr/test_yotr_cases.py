"""The smaller cases of Movement, Zones of Control, Combat, Bombardment and the scenario files."""

from __future__ import annotations

from fractions import Fraction

import pytest

from wargames.core import Action, IllegalAction
from wargames.core.data import DataError
from wargames.yotr.data import load_data
from wargames.yotr.game import YotrGame

from .conftest import choose, clear, put, yotr_at

D = load_data()
P = "1987"
RING = D.adj[P]


def position(units: dict[str, str], phase: str = "c_move", **kw):
    def edit(g):
        clear(g)
        for u, h in units.items():
            put(g, u, h)

    return yotr_at(phase, edit=edit, **kw)


# ---------------------------------------------------------------------- movement
def test_yotr_mov_g_a_finished_move_is_final():
    g = position({"nva_2": P, "nva_3": "1784"})
    choose(g, "move_unit", unit="nva_2")
    choose(g, "move_to", unit="nva_2", to=RING[0])
    assert "nva_2" not in [a.get("unit") for a in g.legal_actions()]
    before = g.digest()
    with pytest.raises(IllegalAction) as err:
        g.apply(Action.make("move_unit", unit="nva_2"))
    assert err.value.rule_id == "YOTR-MOV-G" and g.digest() == before


def test_yotr_mov_r_entry_costs_come_from_the_chart():
    assert D.tec_mp("clear", "communist") == 1 and D.tec_mp("rough", "allied") == 2
    assert D.tec_mp("road", "allied") == Fraction(1, 2) and D.tec_mp("river", "communist") == 3
    assert D.tec_mp("trail", "communist") is None  # D-44: NA, pay the terrain


def test_yotr_mov_h_mixed_terrain_paid_hex_by_hex():
    g = position({"nva_2": "3008"})
    for h, c in sorted(g.reachable("nva_2").items())[:40]:
        path = g.path_to("nva_2", h)
        if len(path) > 2:
            assert Fraction(c, 2) == sum(
                g.terrain_cost("nva_2", a, b) for a, b in zip(path, path[1:], strict=False)
            )


def test_yotr_mov_e_no_combat_while_moving():
    g = position({"nva_2": P, "arvn_mdw_1": "2187"})
    assert {a.kind for a in g.legal_actions()} <= {"move_unit", "done"}


def test_yotr_zoc_a_own_zones_never_hinder():
    g = position({"nva_2": P, "nva_3": RING[0], "dummy_1": RING[3]})
    assert all(g.move_cost("nva_2", n) == 1 for n in RING if n in g.reachable("nva_2"))


def test_yotr_zoc_c_zones_do_not_reach_friendly_hexes_for_supply_lines():
    g = position({"nva_2": P, "arvn_mdw_1": RING[0]})
    assert P in g.zoc("Allied") and P not in g.zoc_for_tracing("Allied")


def test_yotr_zoc_e_never_from_one_zone_straight_into_another():
    g = position({"nva_2": P, "arvn_mdw_1": "2087"})
    zoned = [n for n in RING if n in g.zoc("Allied")]
    assert zoned and all(len(g.path_to("nva_2", n)) > 2 for n in zoned if n in g.reachable("nva_2"))


def test_yotr_tec_2_town_symbols_use_the_hex_terrain():
    loc_ninh = "3363"
    start = next(
        n
        for n in D.adj[loc_ninh]
        if D.terrain(n) == "clear" and not D.sides.get(tuple(sorted((n, loc_ninh))))
    )
    g = position({"nva_2": start})
    assert g.terrain_cost("nva_2", start, loc_ninh) == 1


def test_yotr_dum_a_dummies_move_six_like_nva():
    g = position({"dummy_1": P, "nva_2": RING[0]})
    assert g.allowance("dummy_1") == 6 and g.edge_costs("dummy_1") is g.edge_costs("nva_2")


def test_yotr_dum_dummies_have_zones_but_never_attack():
    g = position({"dummy_1": P, "arvn_mdw_1": "2187"}, phase="c_combat")
    assert set(RING) <= set(g.zoc("Communist")) and not g.may_attack("dummy_1")


def test_yotr_sr_f_us_intervention_lets_allied_units_move_freely():
    a, b = next(
        (h, n)
        for h in sorted(D.hexes)
        if D.country(h) == "SVN" and D.terrain(h) == "clear"
        for n in D.adj[h]
        if D.country(n) == "NVN" and D.terrain(n) == "clear"
    )
    g = position({"usa_1": a}, phase="a_move", options={"special_rule_f": True})
    assert g.why_cannot_move("usa_1") is None and b in g.reachable("usa_1")


# ---------------------------------------------------------------------- combat
def test_yotr_cbt_b_attacking_is_voluntary():
    g = position({"nva_2": P, "arvn_mdw_1": RING[0]}, phase="c_combat")
    choose(g, "done")
    assert g.loc["arvn_mdw_1"] == RING[0] and not any(r.rule_id == "YOTR-CBT-CRT" for r in g.log)


def test_yotr_cbt_e_up_to_six_stacks_attack_one_hex():
    units = {"nva_2": P}
    units.update(dict(zip([f"arvn_sg_{i}" for i in range(1, 7)], RING, strict=True)))
    g = position(units, phase="a_combat")
    choose(g, "target", hex=P)
    assert len([a for a in g.legal_actions() if a.kind == "attacker"]) == 6


def test_yotr_cbt_f_defenders_in_a_hex_combine():
    g = position({"arvn_mdw_1": RING[0], "arvn_mde_2": RING[0], "nva_2": P}, phase="c_combat")
    assert g.defense_strength(RING[0], ["nva_2"])[0] == 4


def test_yotr_cbt_j_a_unit_never_splits_its_strength():
    g = position(
        {"nva_2": P, "arvn_mdw_1": RING[0], "arvn_mde_2": RING[1], "nva_3": "1787"}, phase="c_combat"
    )
    choose(g, "target", hex=RING[0])
    choose(g, "attacker", unit="nva_2")
    if any(a.kind == "commit" for a in g.legal_actions()):
        choose(g, "commit")
    assert not any(a.kind == "target" and a["hex"] == RING[1] for a in g.legal_actions())


def test_yotr_cbt_k_attacker_picks_the_order_of_battle():
    # D-56: once every attack is declared the attacker chooses which to fight first (here the one declared last)
    far = "2283"
    g = position(
        {"nva_2": P, "nva_3": far, "arvn_mdw_1": RING[1], "arvn_mde_2": D.adj[far][2]},
        phase="c_combat",
        dice=[3, 3],
    )
    targets = [a["hex"] for a in g.legal_actions() if a.kind == "target"]
    assert len(targets) == 2
    rulings = []
    for t in targets:
        rulings += choose(g, "target", hex=t)
        rulings += (
            choose(g, "all_attack", hex=t)
            if any(a.kind == "all_attack" for a in g.legal_actions())
            else choose(g, "attacker", unit=g.legal_actions()[0]["unit"])
        )
        if g.decision and any(a.kind == "commit" for a in g.legal_actions()):
            rulings += choose(g, "commit")
        if g.decision and g.decision.rule_id == "YOTR-CBT-D":
            rulings += choose(g, "no_more")
    if g.decision and g.decision.rule_id == "YOTR-CBT-A":
        rulings += choose(g, "done")
    assert g.decision.rule_id == "YOTR-CBT-K" and g.decision.side == "Communist"
    assert [a["hex"] for a in g.legal_actions()] == targets
    assert not any(r.rule_id == "YOTR-CBT-CRT" for r in rulings)  # no die before the order is chosen
    rulings = choose(g, "resolve", hex=targets[1])
    while g.decision and g.decision.rule_id in ("YOTR-ZOC-D", "YOTR-CBT-L"):
        rulings += g.apply(g.legal_actions()[-1])
    fought = [r.result["target"] for r in rulings if r.rule_id == "YOTR-CBT-CRT" and r.lookup]
    assert fought == [targets[1], targets[0]]  # the last one left needs no decision


def test_yotr_cbt_p_allied_order_chosen_after_each_battle_once_dummies_are_revealed():
    # three Allied attacks: after the first (a dummy, exposed and removed) the Allied player chooses again between
    # the two left; the bot explains its choice
    hexes = [P, "1784", "2283"]
    units = {"dummy_1": P, "nva_2": "1784", "nva_3": "2283"}
    allied = {}
    for h, u in zip(hexes, ["arvn_mdw_1", "arvn_qt_3", "arvn_mde_2"], strict=True):
        allied[u] = next(
            n
            for n in D.adj[h]
            if D.terrain(n) == "clear"
            and n not in D.towns
            and all(n not in D.adj[o] and n != o for o in hexes if o != h)
        )
    g = position({**units, **allied}, phase="a_combat", dice=[3, 3])
    for h, u in zip(hexes, allied, strict=True):
        choose(g, "target", hex=h)
        if g.decision.rule_id == "YOTR-CBT-H":
            choose(g, "attacker", unit=u)
        if g.decision.rule_id == "YOTR-CBT-H":
            choose(g, "commit")
    if g.decision.rule_id == "YOTR-CBT-A":
        choose(g, "done")
    assert g.decision.rule_id == "YOTR-CBT-K" and len(g.legal_actions()) == 3
    bot = g.default_player("Allied")
    pick = bot.choose(g, g.decision)
    assert pick.kind == "resolve" and "best odds" in bot.last_reason
    rulings = choose(g, "resolve", hex=P)
    assert any(r.rule_id == "YOTR-DUM-C" for r in rulings) and g.loc["dummy_1"] == "removed"
    assert g.decision.rule_id == "YOTR-CBT-K" and [a["hex"] for a in g.legal_actions()] == hexes[1:]


def test_yotr_twn_l_militia_never_affected_by_supply():
    an_loc = "3365"
    g = position(
        {"nva_2": next(n for n in D.adj[an_loc] if not D.side_has(n, an_loc, "river"))}, phase="c_combat"
    )
    assert (
        g.defense_strength(an_loc, ["nva_2"])[0] == 1
    )  # no Allied unit to be out of supply: the militia is 1


# ---------------------------------------------------------------------- bombardment
def test_yotr_bmb_b_target_strength_irrelevant():
    g = position({"nva_1": P, "dummy_1": "1784"}, phase="a_bomb", dice=[2, 2])
    choose(g, "air", hex=P, points=2)
    rulings = choose(g, "air", hex="1784", points=2)
    if g.decision and g.decision.rule_id == "YOTR-BMB-E":
        rulings += choose(g, "done")
    res = [r.result["brt"] for r in rulings if r.rule_id == "YOTR-BMB-BRT"]
    assert res == ["D", "D"]  # same points, same die: the 6-6 and the dummy fare alike


def test_yotr_bmb_c_markers_placed_regardless_of_units_and_zones():
    surrounded = {f"arvn_sg_{i}": n for i, n in enumerate(RING, start=1)}
    g = position({"nva_2": P, **surrounded}, phase="a_bomb")
    assert any(a.kind == "air" and a["hex"] == P for a in g.legal_actions())


# ---------------------------------------------------------------------- scenarios
def test_yotr_set_scen_scenario_options():
    g = YotrGame("historical", 0, {"isolated_attack_factor": 0.0})
    assert g.opts.isolated_attack_factor == 0.0 and g.scenario.allied_ob == "A"
    with pytest.raises(DataError):
        YotrGame("historical", 0, {"no_such_option": 1})
    with pytest.raises(DataError):
        YotrGame("no_such_scenario", 0)


def test_yotr_set_the_games_are_scenario_files():
    import wargames

    assert {"historical", "standard"} <= set(wargames.scenarios("yotr"))
