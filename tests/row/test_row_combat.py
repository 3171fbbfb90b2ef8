"""Rumor of War combat (ROW-4.6, ROW-5.x, ROW-6.1, ROW-6.2, ROW-8.2) as pure rules functions returning rulings.

Tests are named for the rule they check; the worked numbers of the rules text (digest section 8: E1-E7, E13) are
reproduced exactly; every Random Event Table face is checked with forced dice; decisions R-CBT-nn are tested where
they bite.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from wargames.core import Action, IllegalAction
from wargames.core.dice import Dice
from wargames.core.rulings import Ruling
from wargames.row import chits, losses, randomevents
from wargames.row.combat import (
    ATTACKER,
    DEFENDER,
    CombatSides,
    CombatUnit,
    SupportSituation,
    adjacent_support,
    available_support,
    check_participants,
    commit_support,
    cut_support,
    defender_die_options,
    die_mods,
    final_spread,
    reroll,
    reroll_options,
    roll_attacker,
    roll_defender,
    side_quality_options,
    size_modifiers,
    special_roll,
    special_roll_options,
    support_levels,
    terrain_modifier,
)


def dice(*values: int) -> Dice:
    d = Dice(0)
    d.force(list(values))
    return d


def unit(uid, side="Capitalist", nat=None, kind="battalion", fresh=True, active=True, markers=()):
    nat = nat or ("US" if side == "Capitalist" else "PAVN")
    return CombatUnit(uid, side, nat, kind, fresh=fresh, active=active, markers=frozenset(markers))


def chit(cid="PR-01"):
    return chits.chit_by_id(cid)


def combat(combat_type="hasty", cid="ME-01", declarer=None, sup=(), defenders=None, dsup=(), hex_="0101"):
    declarer = declarer or unit("us1")
    defenders = defenders if defenders is not None else (unit("nva1", "Communist"),)
    return CombatSides(hex_, combat_type, chit(cid), declarer, tuple(sup), tuple(defenders), tuple(dsup))


# ============================================================== ROW-4.6 / ROW-5.1 / ROW-5.2 declaring
@pytest.mark.parametrize("kind,cost", [("meeting_engagement", 1), ("hasty", 2), ("prepared", 3)])
def test_row_4_6_declaration_costs(kind, cost):
    r = chits.declaration_cost(unit("u"), kind, mp_left=5, mp_spent=0)
    assert isinstance(r, Ruling) and r.rule_id == "ROW-4.6"
    assert r.result["mp_cost"] == cost
    assert r.result["mug"] == ("ME_HASTY" if kind in ("meeting_engagement", "hasty") else "PREP_DELIB")


def test_row_4_6_deliberate_costs_all_mp_and_needs_a_start_adjacent():
    assert chits.declaration_cost(unit("u"), "deliberate", mp_left=5, mp_spent=0).result["mp_cost"] == 5
    with pytest.raises(IllegalAction) as e:
        chits.declaration_cost(unit("u"), "deliberate", mp_left=3, mp_spent=2)  # R-CBT-19
    assert e.value.rule_id == "ROW-4.6"


def test_row_4_6_not_enough_mp_or_unenterable_hex_refused():
    with pytest.raises(IllegalAction, match="costs 3 MP"):
        chits.declaration_cost(unit("u"), "prepared", mp_left=2, mp_spent=3)
    with pytest.raises(IllegalAction, match="could not legally enter"):
        chits.declaration_cost(unit("u"), "hasty", mp_left=5, mp_spent=0, enterable=False)


def test_row_6_2_low_morale_adds_one_mp_and_forbids_deliberate():
    lm = unit("u", markers=["Low Morale"])
    assert chits.declaration_cost(lm, "hasty", mp_left=3, mp_spent=2).result["mp_cost"] == 3
    with pytest.raises(IllegalAction, match="costs 3 MP"):
        chits.declaration_cost(lm, "hasty", mp_left=2, mp_spent=3)
    with pytest.raises(IllegalAction) as e:
        chits.declaration_cost(lm, "deliberate", mp_left=5, mp_spent=0)
    assert e.value.rule_id == "ROW-6.2"


def test_row_5_1_one_chit_per_unit_per_turn_and_per_hex():
    with pytest.raises(IllegalAction) as e:
        chits.declaration_cost(unit("u"), "hasty", 5, 0, placed_chit_this_turn=True)
    assert e.value.rule_id == "ROW-5.1"
    with pytest.raises(IllegalAction, match="already carries a combat chit"):
        chits.declaration_cost(unit("u"), "hasty", 5, 0, hex_has_chit=True)


def test_row_5_2_routed_unit_may_not_declare():
    with pytest.raises(IllegalAction) as e:
        chits.declaration_cost(unit("u", markers=["Routed"]), "hasty", 5, 0)
    assert e.value.rule_id == "ROW-6.2"


def test_row_5_1_participants_checked():
    c = combat(sup=[unit("us2")], dsup=[unit("vc1", "Communist", "VC")])
    r = check_participants(c)
    assert r.rule_id == "ROW-5.1" and r.result["attackers"] == ["us1", "us2"]
    with pytest.raises(IllegalAction) as e:
        check_participants(combat(sup=[unit("us2", markers=["Routed"])]))
    assert e.value.rule_id == "ROW-6.2"
    with pytest.raises(IllegalAction, match="not on the attacker's side"):
        check_participants(combat(sup=[unit("x", "Communist")]))
    with pytest.raises(IllegalAction, match="needs a defending unit"):
        check_participants(combat(defenders=()))


# ============================================================== ROW-5.2.1 chits
def test_row_5_2_1_chit_drawn_from_the_declared_types_mug_by_forced_die():
    r = chits.draw_chits(dice(3), "hasty")
    assert r.rule_id == "ROW-5.2.1" and r.dice[0].sides == 12 and r.dice[0].forced
    assert r.result["chits"] == ["ME-03"] and r.lookup.reconstructed
    r = chits.draw_chits(dice(12), "deliberate")  # R-CBT-02: the declared type picks the mug
    assert r.result["chits"] == ["PR-12"]


def test_row_5_2_1_e1_chit_die_and_modifier():
    """E1 (5.2.1 L1044-1047): a 'D6 (+1)' chit: the attacker rolls a D6 and adds 1."""
    c = chit("ME-05")
    assert (c.die, c.modifier) == (6, 1)
    r = roll_attacker(dice(4), c)
    assert r.result == 4 and r.dice[0].sides == 6 and r.inputs["chit_modifier"] == 1
    total = die_mods(ATTACKER, {"chit": c.modifier}).result + r.result
    assert total == 5


def test_row_5_2_1_several_draws_keep_one():
    """Ye Jianying (14.2.1): two draws without putting back; the drawer keeps one, the other goes back."""
    r = chits.draw_chits(dice(1, 1), "hasty", n=2)
    assert r.result["chits"] == ["ME-01", "ME-02"] and r.dice[1].sides == 11
    assert [a["chit"] for a in chits.chit_options(r)] == ["ME-01", "ME-02"]
    kept, k = chits.keep_chit(r, "ME-02")
    assert kept.id == "ME-02" and k.result["returned"] == ["ME-01"]
    with pytest.raises(IllegalAction):
        chits.keep_chit(r, "ME-07")


# ============================================================== ROW-5.3.1 / ROW-8.2 support
def test_row_8_2_e13_support_formula():
    """E13 (8.2): US artillery 8, chit Spt B (artillery deduction 3), terrain 1/2 -> floor(5/2) = 2."""
    c = combat(cid="ME-03")  # Spt B
    r = available_support(c, ATTACKER, SupportSituation({"artillery": 8}, Fraction(1, 2)))
    assert r.rule_id == "ROW-5.3.1" and r.result["artillery"] == 2
    assert r.lookup.row == "B" and r.lookup.cell == "2/3/3/2"


def test_row_8_0_and_8_2_air_counts_at_most_19():
    c = combat(cid="ME-01")  # Spt A: air deduction 4
    r = available_support(c, ATTACKER, SupportSituation({"air": 25}))
    assert r.result["air"] == 15  # (19 - 4) x 1


def test_row_5_3_1_defender_plans_by_combat_type():
    c = combat("meeting_engagement", cid="ME-09")
    r = available_support(
        c, DEFENDER, SupportSituation({"tank": 6, "artillery": 6, "air": 6}, Fraction(1, 3))
    )
    assert r.lookup.row == "meeting_engagement" and r.result == {
        "tank": 0,
        "artillery": 0,
        "air": 0,
        "bombardment": 0,
    }
    c = combat("prepared", cid="PR-01")
    r = available_support(
        c, DEFENDER, SupportSituation({"tank": 6, "artillery": 6, "air": 6}, Fraction(1, 3))
    )
    assert r.result == {"tank": 1, "artillery": 1, "air": 1, "bombardment": 0}


def test_row_5_3_1_deduction_never_below_zero_r_cbt_07():
    c = combat(cid="ME-01")  # Spt A
    r = available_support(
        c, ATTACKER, SupportSituation({"tank": 2, "artillery": 5}, planning_relief={"artillery": 1})
    )
    assert r.result["tank"] == 0 and r.result["artillery"] == 2  # 5 - (4 - 1) with Giap


def test_row_5_3_1_trace_fire_base_and_road_bonus():
    c = combat(cid="PR-03")  # Spt D
    sit = SupportSituation({"tank": 5, "artillery": 5}, Fraction(1, 4), trace=False)
    r = available_support(c, ATTACKER, sit)
    assert r.result["tank"] == 0 and r.result["artillery"] == 0 and "no LoC" in r.explanation
    r = available_support(
        c,
        ATTACKER,
        SupportSituation({"tank": 5, "artillery": 5}, Fraction(1, 4), trace=False, fire_base=True),
    )
    assert r.result["artillery"] == 1 and r.result["tank"] == 0
    road = available_support(c, ATTACKER, SupportSituation({"tank": 5}, Fraction(1, 4), road_bonus=True))
    assert road.result["tank"] == 4  # terrain ignored for tanks
    assert (
        available_support(c, DEFENDER, SupportSituation({"tank": 5}, Fraction(1, 4), road_bonus=True)).result[
            "tank"
        ]
        == 0
    )  # never for the defender: (5 - 3) x 1/4
    paid = losses.road_bonus_cost("Capitalist", True)
    assert paid.rule_id == "ROW-5.3.1" and paid.result == {"tank": -1}


def test_row_5_3_1_support_is_optional_and_capped():
    avail = {"tank": 2, "artillery": 3, "air": 0, "bombardment": 0}
    r = commit_support(avail, {"tank": 1, "artillery": 3}, ATTACKER)
    assert r.result["total"] == 4 and "declines" in r.explanation
    assert commit_support(avail, None, ATTACKER).result["total"] == 5
    with pytest.raises(IllegalAction) as e:
        commit_support(avail, {"artillery": 4}, ATTACKER)
    assert e.value.rule_id == "ROW-5.3.1"


def test_row_5_3_2_bombardment_capitalist_only_minus_two_as_artillery():
    c = combat(cid="PR-01")
    sit = SupportSituation({"bombardment": 8}, Fraction(1, 2), bombardment_in_range=True)
    assert available_support(c, ATTACKER, sit).result["bombardment"] == 3  # (8 - 2) x 1/2
    assert available_support(c, ATTACKER, SupportSituation({"bombardment": 8})).result["bombardment"] == 0
    red = combat(declarer=unit("n", "Communist"), defenders=(unit("u"),))
    assert available_support(red, ATTACKER, sit).result["bombardment"] == 0


def test_row_5_3_5_restricted_ops_halve_artillery_air_bombardment_not_tank():
    c = combat(cid="PR-03")  # Spt D: 1/1/1
    sit = SupportSituation(
        {"tank": 8, "artillery": 8, "air": 8, "bombardment": 9}, restricted=True, bombardment_in_range=True
    )
    assert available_support(c, ATTACKER, sit).result == {
        "tank": 7,
        "artillery": 3,
        "air": 3,
        "bombardment": 3,
    }


def test_row_6_1_ammo_and_fuel_markers_on_the_declarer_r_cbt_15():
    sit = SupportSituation({"tank": 9, "artillery": 9}, restricted=True)
    short = combat(cid="PR-03", declarer=unit("u", markers=["Ammo Shortage", "Fuel Shortage"]))
    r = available_support(short, ATTACKER, sit)
    assert (
        r.result["artillery"] == 2 and r.result["tank"] == 4
    )  # art (9-1)=8 -> 4 restricted -> 2; tank 8 -> 4
    out = combat(cid="PR-03", declarer=unit("u", markers=["Ammo Out", "Fuel Out"]))
    assert available_support(out, ATTACKER, sit).result["artillery"] == 0
    assert available_support(out, ATTACKER, sit).result["tank"] == 0
    # a marked supporter does not count: only the declaring (defending) unit's markers gate support
    sup = combat(cid="PR-03", sup=[unit("s", markers=["Ammo Out"])])
    assert available_support(sup, ATTACKER, sit).result["artillery"] == 4


def test_row_6_2_disrupted_routed_ooc_gate_support():
    sit = SupportSituation({"tank": 9, "artillery": 9, "air": 9})
    dis = combat(defenders=(unit("n", "Communist", markers=["Disrupted"]),))
    assert available_support(dis, DEFENDER, sit).result == {
        "tank": 0,
        "artillery": 0,
        "air": 6,
        "bombardment": 0,
    }
    rout = combat(defenders=(unit("n", "Communist", markers=["Routed"]),))
    assert sum(available_support(rout, DEFENDER, sit).result.values()) == 0
    ooc = combat(declarer=unit("u", markers=["OOC"]))
    assert sum(available_support(ooc, ATTACKER, sit).result.values()) == 0


TRACKS = {
    "US Tank": 5,
    "US Artillery": 8,
    "US Air": 12,
    "US Navy Bombardment": 6,
    "ARVN Tank": 2,
    "ARVN Artillery": 3,
    "PAVN Tank": 4,
    "PAVN Artillery": 7,
    "VC Artillery": 2,
    "Communist Air": 1,
}


def test_row_8_0_support_tracks_by_nationality_r_cbt_05():
    c = combat(
        declarer=unit("arvn", nat="ARVN", kind="regiment"),
        defenders=(unit("vc", "Communist", "VC"), unit("reg", "Communist", kind="regiment")),
    )
    a = support_levels(c, ATTACKER, TRACKS)
    assert a.rule_id == "ROW-8.0" and a.result == {"tank": 2, "artillery": 3, "air": 12, "bombardment": 6}
    d = support_levels(c, DEFENDER, TRACKS)  # the PAVN regiment (class B) is the largest in the hex
    assert d.result == {"tank": 4, "artillery": 7, "air": 1, "bombardment": 0}
    vc = support_levels(combat(defenders=(unit("vc", "Communist", "VC"),)), DEFENDER, TRACKS)
    assert vc.result == {"tank": 0, "artillery": 2, "air": 0, "bombardment": 0}
    rok = support_levels(combat(declarer=unit("rok", nat="ROK", kind="brigade")), ATTACKER, TRACKS)
    assert rok.result["tank"] == 5


def test_row_5_5_support_cut_by_a_random_event():
    committed = {"tank": 2, "artillery": 3, "air": 1, "bombardment": 0}
    after = available_support(
        combat(cid="PR-03", declarer=unit("u", markers=["Ammo Out"])),
        ATTACKER,
        SupportSituation({"tank": 3, "artillery": 9, "air": 2}),
    ).result
    r = cut_support(committed, after, ATTACKER, "Ammo Out")
    assert r.rule_id == "ROW-5.5" and r.result == {
        "support": {"tank": 2, "artillery": 0, "air": 1, "bombardment": 0},
        "total": 3,
    }


def test_row_1_0_unknown_unit_refused():
    with pytest.raises(ValueError, match="size_classes.csv"):
        CombatUnit("x", "Capitalist", "ARVN", "cadre")
    with pytest.raises(ValueError, match="side must be"):
        CombatUnit("x", "Allied", "US", "battalion")


# ============================================================== ROW-5.3.3 adjacency
def test_row_5_3_3_e2_three_adjacent_units_one_the_declarer():
    """E2 (5.3.3 L1184-1187): 3 adjacent units, one of them the declarer: +3 (1 + 2 for the two others)."""
    r = adjacent_support(combat(sup=[unit("a"), unit("b")]), ATTACKER)
    assert r.rule_id == "ROW-5.3.3" and r.result == 3


def test_row_5_3_3_e3_four_supporters_hasty_10_deliberate_20():
    """E3 / E3b (5.3.3 L1188-1191): 4 supporters: +10 in a Hasty Attack, +20 in a Deliberate Attack."""
    four = [unit(x) for x in "abcd"]
    assert adjacent_support(combat("hasty", sup=four), ATTACKER).result == 10
    assert adjacent_support(combat("deliberate", cid="PR-01", sup=four), ATTACKER).result == 20


def test_row_5_3_3_defender_two_per_supporting_unit_r_cbt_06():
    c = combat(
        defenders=(unit("n1", "Communist"), unit("n2", "Communist")),
        dsup=[unit("s1", "Communist"), unit("s2", "Communist"), unit("s3", "Communist")],
    )
    assert adjacent_support(c, DEFENDER).result == 6  # the second unit in the hex adds nothing
    assert (
        adjacent_support(combat("deliberate", cid="PR-01", dsup=[unit("s", "Communist")]), DEFENDER).result
        == 2
    )


def test_row_5_3_3_radio_out_and_marked_units_r_cbt_16():
    three = [unit(x) for x in "abc"]
    assert adjacent_support(combat(sup=three), ATTACKER, radio_out=True).result == 0
    short = combat(declarer=unit("u", markers=["Ammo Shortage", "Fuel Shortage"]), sup=three)
    assert adjacent_support(short, ATTACKER).result == 3  # 6 halved once
    out = combat(declarer=unit("u", markers=["Fuel Out"]), sup=three)
    assert adjacent_support(out, ATTACKER).result == 0
    assert adjacent_support(combat(sup=three), ATTACKER, no_support="discovered tunnel (14.3)").result == 0


# ============================================================== ROW-5.3.4 size
def test_row_5_3_4_largest_class_on_each_side_counts():
    div = unit("div", kind="division")
    r = size_modifiers(combat(declarer=div, defenders=(unit("n", "Communist", "VC"),)))
    assert r.result == {ATTACKER: 4, DEFENDER: 0}  # A against only C
    r = size_modifiers(
        combat(
            declarer=unit("arvn", nat="ARVN", kind="regiment"),
            defenders=(unit("n", "Communist", kind="regiment"),),
        )
    )
    assert r.result == {ATTACKER: 0, DEFENDER: 2}  # ARVN regiment C against a PAVN regiment B
    # supporters count as in the combat
    r = size_modifiers(
        combat(sup=[unit("bde", kind="brigade")], defenders=(unit("n", "Communist", kind="regiment"),))
    )
    assert r.result == {ATTACKER: 2, DEFENDER: 0}


# ============================================================== ROW-5.4.x dice
def test_row_5_4_1_defender_dice_choice():
    assert sorted(a["die"] for a in defender_die_options([unit("n", "Communist")])) == [6, 10]
    assert [a["die"] for a in defender_die_options([unit("n", "Communist", fresh=False)])] == [6]
    r = roll_defender(dice(10), 10, [unit("n", "Communist"), unit("m", "Communist", fresh=False)])
    assert r.result == 10 and r.changes == ({"unit": "n", "fresh": False},)
    assert roll_defender(dice(6), 6, [unit("n", "Communist")]).changes == ()
    with pytest.raises(IllegalAction) as e:
        roll_defender(dice(9), 10, [unit("n", "Communist", fresh=False)])
    assert e.value.rule_id == "ROW-5.4.1"


def test_row_5_4_2_natural_one_and_max_give_quality_markers():
    us = [unit("a"), unit("b", markers=["Elite"])]
    r = special_roll("Capitalist", 10, 1, us)
    assert r.result["marker"] == "Poor" and r.result["candidates"] == ["a"]
    assert [a["unit"] for a in special_roll_options(r)] == ["a"]
    assert special_roll("Communist", 6, 6, [unit("n", "Communist")]).result["marker"] == "Guards"
    assert special_roll("Communist", 10, 10, [unit("n", "Communist")]).result["marker"] == "Guards"
    assert (
        special_roll("Communist", 10, 6, [unit("n", "Communist")]).result is None
    )  # a 6 on a D10 is not special
    full = special_roll("Capitalist", 6, 6, [unit("b", markers=["Poor"])])
    assert full.result["candidates"] == [] and special_roll_options(full) == []
    new, placed = randomevents.quality_marker(unit("a"), "Elite")
    assert new.quality() == "elite" and placed.rule_id == "ROW-5.4.2"
    with pytest.raises(IllegalAction):
        randomevents.quality_marker(unit("a"), "Guards")


def test_row_5_4_3_die_mods_and_terrain():
    t = terrain_modifier("0101", "jungle", 2, river_mod=2, every_attacker_across_river=False)
    assert t.rule_id == "ROW-5.4.3" and t.result == 2 and t.lookup.reconstructed
    assert terrain_modifier("0101", "jungle", 2, 2, every_attacker_across_river=True).result == 4
    assert die_mods(DEFENDER, {"artillery": 2, "adjacent": 4, "terrain": 4, "size": 0}).result == 10


def test_row_5_4_3_quality_both_kinds_owner_chooses():
    assert side_quality_options([unit("a", markers=["Elite"]), unit("b", markers=["Poor"])]) == [
        "elite",
        "poor",
    ]
    assert side_quality_options([unit("a", markers=["Elite"]), unit("b", markers=["Elite"])]) == ["elite"]
    assert side_quality_options([unit("a")]) == []


def test_row_6_1_leader_rerolls_r_cbt_17():
    c = combat(
        declarer=unit("u", markers=["Great Leader"]),
        defenders=(unit("n", "Communist", markers=["Incompetent Leader"]),),
    )
    kinds = [a.get("which") for a in reroll_options(c, ATTACKER)]
    assert kinds == [None, "own", "enemy"]
    r = reroll(dice(7), c, ATTACKER, "enemy", 10)
    assert r.result == {"die_of": DEFENDER, "value": 7} and r.rule_id == "ROW-6.1"
    assert [a.get("which") for a in reroll_options(c, ATTACKER, {"enemy": 1})] == [None, "own"]
    assert [a.get("which") for a in reroll_options(c, DEFENDER)] == [None]
    with pytest.raises(IllegalAction):
        reroll(dice(3), c, DEFENDER, "own", 6)


# ============================================================== ROW-5.6 spread
def test_row_5_6_e6_tie_is_an_attacker_loss_of_one():
    r = final_spread(9, 9)
    assert r.rule_id == "ROW-5.6" and r.result["winner"] == DEFENDER and r.result["spread"] == 1


def test_row_5_6_spread_capped_at_five():
    assert final_spread(20, 3).result["spread"] == 5
    assert final_spread(3, 20).result == {
        "winner": DEFENDER,
        "loser": ATTACKER,
        "spread": 5,
        "signed": -5,
        "raw": -17,
        "capped": -5,
    }


def test_row_5_6_e5a_elite_attacker_beats_poor_defender_by_12():
    """E5a (5.6 L1441-1445): raw 12 -> capped 5 -> +2 for the two markers = 7."""
    r = final_spread(15, 3, attacker_quality="elite", defender_quality="poor")
    assert r.result["winner"] == ATTACKER and r.result["spread"] == 7


def test_row_5_6_e5b_the_markers_turn_a_defender_win_of_one_r_cbt_01():
    """E5b (5.6 L1445-1448): same units, the defender ahead by 1: the two markers make a spread of 1 (attacker)."""
    r = final_spread(7, 8, attacker_quality="elite", defender_quality="poor")
    assert r.result["winner"] == ATTACKER and r.result["spread"] == 1


@pytest.mark.parametrize(
    "example,att,dfn,aq,dq,winner,spread",
    [
        ("E4a Poor loses with 5 -> 6", 3, 10, "poor", None, DEFENDER, 6),
        ("E4b Poor wins with 5 -> 4", 10, 3, "poor", None, ATTACKER, 4),
        ("E4c Elite (defender) loses with 5 -> 4", 10, 3, None, "elite", ATTACKER, 4),
        ("E4c' Elite (attacker) loses with 5 -> 4", 3, 10, "elite", None, DEFENDER, 4),
        ("E4d Elite wins with 5 -> 6", 10, 3, "elite", None, ATTACKER, 6),
        ("E4e Elite defeats Poor: 7", 3, 10, "poor", "elite", DEFENDER, 7),
        ("E4f Poor defeats Elite: 3", 10, 3, "poor", "elite", ATTACKER, 3),
    ],
)
def test_row_5_4_3_e4_quality_shifts(example, att, dfn, aq, dq, winner, spread):
    """E4a-E4f (5.4.2 L1249-1256, 5.4.3 L1293-1308): one step per side, after the cap of 5."""
    r = final_spread(att, dfn, attacker_quality=aq, defender_quality=dq)
    assert (r.result["winner"], r.result["spread"]) == (winner, spread), example


def test_row_5_4_2_e4e_e4f_caps_seen_from_the_defender_side():
    """E4 as the defender's markers: a Poor defender that loses by 5 to an Elite attacker gives 7."""
    r = final_spread(12, 3, attacker_quality="elite", defender_quality="poor")
    assert r.result["spread"] == 7


def test_row_5_6_final_zero_is_an_attacker_loss():
    r = final_spread(6, 5, defender_quality="elite")  # +1, then -1 -> 0 -> -1
    assert r.result["winner"] == DEFENDER and r.result["spread"] == 1


def test_row_14_2_2_ground_commander_values_shift_the_final_spread():
    r = final_spread(10, 8, attacker_leader=1, defender_leader=2)
    assert r.result["signed"] == 1 and r.result["winner"] == ATTACKER
    r = final_spread(10, 4, attacker_leader=2)
    assert r.result["spread"] == 7  # after the cap of 5


def test_row_6_2_fortification_and_bunker_r_cbt_18():
    r = final_spread(12, 3, defence_works="Fortification")
    assert r.result["spread"] == 3 and r.lookup.reconstructed
    assert final_spread(5, 3, defence_works="Bunker").result["spread"] == 1
    assert final_spread(4, 3, defence_works="Bunker").result == {
        "winner": DEFENDER,
        "loser": ATTACKER,
        "spread": 1,
        "signed": -1,
        "raw": 1,
        "capped": 1,
    }


# ============================================================== ROW-5.5 random events (forced dice)
TEXT_TABLES = {  # from the rules text 5.5 L1323-1432, independent of the CSV
    "A": ["objective"] + ["defender"] * 5 + ["attacker"] * 4,
    "B": ["objective"] * 3 + ["defender"] * 3 + ["attacker"] * 4,
    "C": ["objective"] * 4 + ["defender"] * 1 + ["attacker"] * 5,
}
RE_CHITS = {"A": "ME-01", "B": "ME-03", "C": "ME-04"}


@pytest.mark.parametrize("table", "ABC")
@pytest.mark.parametrize("face", range(1, 11))
def test_row_5_5_random_event_tables_every_face(table, face):
    c = chit(RE_CHITS[table])
    assert c.re == table
    r = randomevents.random_event(dice(face), c, "0101")
    want = TEXT_TABLES[table][face - 1]
    assert r.rule_id == "ROW-5.5" and r.dice[0].forced and r.dice[0].sides == 10
    if want == "objective":
        assert r.result == {"event": "objective", "placer": None} and "Objective" in r.explanation
    else:
        assert r.result == {"event": "snafu", "placer": want}
    assert r.lookup.table == f"Random Event Table {table}" and r.lookup.row == str(face)


def test_row_5_5_no_random_event_rolls_no_die():
    d = dice(4)
    r = randomevents.random_event(d, chit("ME-02"))
    assert r.result["event"] == "none" and r.dice == () and d.forced == [4]


# ============================================================== ROW-6.1 Cup of SNAFU
def test_row_6_1_snafu_draw_by_forced_die():
    cup = randomevents.SnafuCup.full()
    assert len(cup.counters) == 13 and cup.counters[0] == "CAP-AIRSTRIKE"
    left, r = randomevents.draw_snafu(dice(1, 1), cup, n=2, why="rout")
    assert r.result["drawn"] == ["CAP-AIRSTRIKE", "CAP-AMBUSH"] and len(left.counters) == 11
    assert r.dice[1].sides == 12 and r.lookup.reconstructed


def test_row_6_1_e7_communist_ammo_marker_on_a_communist_unit():
    """E7 (6.1 L1529-1536): a Communist Ammo counter goes on a Communist unit; the placer picks the face."""
    att = [unit("n1", "Communist"), unit("n2", "Communist")]
    units = att + [unit("u1")]
    opts = randomevents.placement_options("COM-AMMO", units)
    assert {(a["unit"], a["face"]) for a in opts} == {
        (u, f) for u in ("n1", "n2") for f in ("Ammo Shortage", "Ammo Out")
    }
    # the attacker placing picks the milder face on his own unit...
    mild = randomevents.place_snafu(dice(), "COM-AMMO", "Ammo Shortage", att[0])
    assert mild.unit.has("Ammo Shortage") and mild.returned == ()
    # ... the Capitalist placing (defender) would put Ammo Out on a Communist unit
    harsh = randomevents.place_snafu(dice(), "COM-AMMO", "Ammo Out", att[1])
    assert harsh.unit.has("Ammo Out")
    with pytest.raises(IllegalAction, match="goes on a Communist unit"):
        randomevents.place_snafu(dice(), "COM-AMMO", "Ammo Out", units[2])


def test_row_6_1_ammo_and_fuel_stacking():
    s = unit("u", markers=["Fuel Shortage"])
    o = randomevents.place_snafu(dice(), "CAP-FUEL", "Fuel Shortage", s)
    assert o.unit.has("Fuel Out") and not o.unit.has("Fuel Shortage") and o.returned == ("CAP-FUEL",)
    out = unit("u", markers=["Ammo Out"])
    o = randomevents.place_snafu(dice(), "CAP-AMMO", "Ammo Shortage", out)
    assert o.unit.markers == frozenset({"Ammo Out"})


def test_row_6_1_leader_marker_placement():
    gl = unit("a", markers=["Great Leader"])
    opts = randomevents.placement_options("CAP-LEADER", [gl, unit("b")])
    assert {a["unit"] for a in opts} == {"b"}
    back = randomevents.placement_options("CAP-LEADER", [gl])
    assert [a.kind for a in back] == ["return_snafu"]
    o = randomevents.place_snafu(dice(), "CAP-LEADER", "Incompetent Leader", unit("b"))
    assert o.unit.has("Incompetent Leader") and o.returned == ()


@pytest.mark.parametrize(
    "counter,face,roll,track,amount",
    [
        ("CAP-AMBUSH", "Ambush", 4, "US Casualties", 4),
        ("COM-AMBUSH", "Ambush", 5, "Body Count", 5),
        ("COM-FF", "Friendly Fire", 3, "Body Count", 3),
        ("CAP-AIRSTRIKE", "Air Strike", 7, "Body Count", 4),
        ("CAP-AIRSTRIKE", "Air Strike", 10, "Body Count", 5),
    ],
)
def test_row_6_1_loss_markers_r_cbt_12(counter, face, roll, track, amount):
    side = "Capitalist" if counter.startswith("CAP") else "Communist"
    o = randomevents.place_snafu(dice(roll), counter, face, unit("x", side))
    assert o.losses == {track: amount} and o.returned == (counter,)
    assert o.ruling.dice[0].sides == (10 if face == "Air Strike" else 6)


def test_row_6_1_radio_out_and_key_officer_killed():
    o = randomevents.place_snafu(dice(), "COM-RADIO", "Radio Out", unit("n", "Communist"))
    assert o.radio_out_side == "Communist" and o.returned == ("COM-RADIO",)
    units = [unit("a", markers=["Elite"]), unit("b", markers=["Great Leader"]), unit("n", "Communist")]
    o = randomevents.place_snafu(dice(), "CAP-KOK", "Key Officer Killed", units[0], units)
    assert [(a["unit"], a["strike"]) for a in o.key_officer_options] == [("b", "Great Leader")]
    assert [a["strike"] for a in randomevents.key_officer_options("Capitalist", units[:1])] == [
        "Elite/Guards"
    ]
    assert [a["strike"] for a in randomevents.key_officer_options("Communist", units)] == [
        "Incompetent Leader"
    ]
    new, r = randomevents.key_officer(units[1], "Great Leader")
    assert not new.has("Great Leader") and r.rule_id == "ROW-6.1"


def test_row_6_2_optional_draw_may_be_discarded():
    opts = randomevents.placement_options("COM-AMMO", [unit("n", "Communist")], optional=True)
    assert opts[-1].kind == "return_snafu" and len(opts) == 3
    # a Capitalist marker drawn for a routed Communist unit cannot be placed on it
    assert [
        a.kind for a in randomevents.placement_options("CAP-AMMO", [unit("n", "Communist")], optional=True)
    ] == ["return_snafu"]


# ============================================================== ROW-5.6 losses (the loser's choice)
def _units(*us):
    return {u.uid: u for u in us}


def test_row_5_6_loss_options_are_offered_not_chosen():
    c = combat(sup=[unit("us2", markers=["Disrupted"])])
    spread = final_spread(2, 6)  # defender wins by 4: the attacker loses 4 (R-CBT-13)
    st = losses.start_losses(c, spread)
    assert (st.role, st.side, st.remaining, st.units) == (ATTACKER, "Capitalist", 4, ("us1", "us2"))
    us = _units(*c.attackers())
    kinds = [
        (a.kind, a.get("unit"), a.get("hexes")) for a in losses.loss_options(st, us, replacements_available=1)
    ]
    assert ("retreat", "us1", 3) in kinds and ("retreat", "us2", 1) not in kinds  # Disrupted cannot retreat
    assert ("eliminate", "us2", None) in kinds and ("loss_point", None, None) in kinds
    assert ("replacement", None, None) in kinds and ("eliminate_all", None, None) in kinds
    assert ("replacement", None, None) not in [(a.kind, None, None) for a in losses.loss_options(st, us)]


def test_row_5_6_loss_absorption_walk_and_limits():
    c = combat(declarer=unit("n0", "Communist"), defenders=(unit("u1"), unit("u2")))
    spread = final_spread(12, 3)  # attacker wins 5
    st = losses.start_losses(c, spread)
    us = _units(*c.defending())
    st, r1 = losses.apply_loss(st, Action.make("loss_point"), us)
    st, r2 = losses.apply_loss(st, Action.make("loss_point"), us)
    assert r1.result == {"way": "loss_point", "track": "US Casualties", "amount": 1, "remaining": 4}
    assert "loss_point" not in [a.kind for a in losses.loss_options(st, us)]  # at most 2
    with pytest.raises(IllegalAction) as e:
        losses.apply_loss(st, Action.make("loss_point"), us)
    assert e.value.rule_id == "ROW-5.6"
    st, _ = losses.apply_loss(st, Action.make("retreat", unit="u1", hexes=2), us)
    assert st.remaining == 1
    assert not any(a.kind == "retreat" and a["hexes"] > 1 for a in losses.loss_options(st, us))
    st, r = losses.apply_loss(st, Action.make("eliminate", unit="u2"), us)
    assert st.done and st.eliminated == ("u2",) and losses.loss_options(st, us) == []


def test_row_5_6_eliminate_all_ignores_the_rest():
    c = combat(declarer=unit("n0", "Communist"), defenders=(unit("u1"),), dsup=[unit("u2")])
    st = losses.start_losses(c, final_spread(12, 3))
    st, r = losses.apply_loss(st, Action.make("eliminate_all"), _units(*c.defending()))
    assert st.done and st.all_eliminated and r.result["units"] == ["u1", "u2"]


def test_row_5_6_map_limits_retreat_length():
    c = combat()
    st = losses.start_losses(c, final_spread(2, 9))
    opts = losses.loss_options(st, _units(*c.attackers()), max_retreat={"us1": 1})
    assert [a["hexes"] for a in opts if a.kind == "retreat"] == [1]


def test_row_14_2_1_westmoreland_casualties_first():
    c = combat(sup=[unit("arvn", nat="ARVN")])
    st = losses.start_losses(c, final_spread(2, 9))
    us = _units(*c.attackers())
    assert [a.kind for a in losses.loss_options(st, us, westmoreland=True)] == ["loss_point"]


def test_row_14_3_tunnel_retreat_meets_the_whole_spread():
    c = combat(defenders=(unit("vc", "Communist", "VC"),))
    st = losses.start_losses(c, final_spread(12, 2))
    us = _units(*c.defending())
    st, r = losses.apply_loss(st, Action.make("tunnel", unit="vc"), us, tunnel_units=["vc"])
    assert st.done and r.rule_id == "ROW-14.3"


@pytest.mark.parametrize(
    "nat,kind,side,rolls,track,amount",
    [
        ("VC", "battalion", "Communist", [4], "Body Count", 4),  # C: D6
        ("PAVN", "regiment", "Communist", [9], "Body Count", 9),  # B: D10
        ("US", "brigade", "Capitalist", [3, 5], "US Casualties", 8),  # A: 2D6
        ("US", "battalion", "Capitalist", [10], "US Casualties", 10),  # B: D10
        ("ARVN", "regiment", "Capitalist", [6], None, 0),  # R-CBT-09: no US loss
    ],
)
def test_row_5_6_elimination_rolls(nat, kind, side, rolls, track, amount):
    r = losses.elimination_roll(dice(*rolls), unit("x", side, nat, kind))
    assert r.result["track"] == track and r.result["amount"] == amount
    assert [d.value for d in r.dice] == rolls


def test_row_5_6_retreat_results_disrupt_rout_spent():
    r1 = losses.retreat_result(unit("u"), 1)
    assert r1.result["marker"] is None and r1.changes[0]["fresh"] is False
    r2 = losses.retreat_result(unit("u"), 2)
    assert r2.result["marker"] == "Disrupted" and r2.result["snafu_draws"] == 1
    r3 = losses.retreat_result(unit("u", fresh=False), 3)
    assert r3.result["marker"] == "Routed" and (r3.result["snafu_draws"], r3.result["snafu_keep"]) == (2, 1)
    assert "turns spent" not in r3.explanation
    with pytest.raises(IllegalAction) as e:
        losses.retreat_result(unit("u", markers=["Disrupted"]), 1)
    assert e.value.rule_id == "ROW-6.2"


def test_row_6_2_snafu_after_disruption_and_rout():
    reg = unit("reg", "Communist", kind="regiment")
    opts = losses.retreat_snafu_options(["COM-AMMO", "CAP-FUEL"], reg)  # a rout: two drawn, keep at most one
    assert {(a.kind, a.get("face")) for a in opts} == {
        ("place_snafu", "Ammo Shortage"),
        ("place_snafu", "Ammo Out"),
        ("return_snafu", None),
    }
    assert [a.kind for a in losses.retreat_snafu_options(["CAP-FUEL"], reg)] == ["return_snafu"]


def test_row_9_5_evade_retreat_through_zoc_costs_body_count():
    r = losses.evade_rolls(dice(3, 5), ["3", "4"])
    assert r.result == {"track": "Body Count", "amount": 8} and len(r.dice) == 2


def test_row_5_6_support_lost_in_retreats_r_cbt_11():
    r = losses.retreat_support_losses("Capitalist", [2, 3], {"tank": 2, "artillery": 5})
    assert r.result == {"tank": 2, "artillery": 3}  # tank 1+2 capped at 2 committed
    assert losses.retreat_support_losses("Capitalist", [3], {"tank": 0, "artillery": 1}).result == {
        "tank": 0,
        "artillery": 1,
    }
    assert losses.retreat_support_losses("Capitalist", [1], {"tank": 4}).result == {"tank": 0, "artillery": 0}


# a straight strip of hexes 0..6 along a line: distance is the difference
def _line(enemy=(), zoc=()):
    return dict(
        neighbours=lambda h: [str(int(h) + d) for d in (-1, 1) if 0 <= int(h) + d <= 6],
        distance=lambda a, b: abs(int(a) - int(b)),
        enemy_occupied=lambda h: h in enemy,
        enemy_zoc=lambda h: h in zoc,
    )


def test_row_5_6_retreat_paths():
    geo = _line()
    assert [a["hex"] for a in losses.retreat_step_options(["2"], "1", **geo)] == ["3"]  # farther only
    assert losses.check_retreat(["2", "3", "4"], "1", **geo).result["hexes"] == 2
    with pytest.raises(IllegalAction):
        losses.check_retreat(["2", "3", "2"], "1", **geo)
    assert losses.retreat_step_options(["2"], "1", **_line(zoc={"3"})) == []
    assert losses.retreat_step_options(["2"], "1", **_line(enemy={"3"})) == []
    evade = losses.retreat_step_options(["2"], "1", **_line(zoc={"3"}), evade=True)
    assert [a["zoc"] for a in evade] == [True]


# ============================================================== ROW-5.7 advance
def test_row_5_7_advance_only_active_attackers_into_an_empty_hex():
    c = combat(sup=[unit("act"), unit("inact", active=False)])
    won = final_spread(10, 2)
    opts = losses.advance_options(c, won, hex_vacated=True)
    assert [a.get("unit") for a in opts] == ["us1", "act", None]
    assert losses.advance_options(c, won, hex_vacated=False) == []
    assert losses.advance_options(c, final_spread(2, 10), hex_vacated=True) == []  # defenders never advance
    r = losses.advance(c, won, True, ["us1", "act"])
    assert r.rule_id == "ROW-5.7" and r.result == {"units": ["us1", "act"], "adv_mp": c.chit.adv}
    with pytest.raises(IllegalAction):
        losses.advance(c, won, True, ["inact"])
    assert [a.get("unit") for a in losses.advance_options(c, won, True, gone=["us1"])] == ["act", None]


def test_row_5_7_meeting_engagement_may_advance_and_exploit_r_cbt_04():
    c = combat("meeting_engagement", cid="ME-02")
    r = losses.advance(c, final_spread(10, 2), True, ["us1"])
    assert r.result["adv_mp"] == 3 and "R-CBT-04" in r.explanation


def test_row_6_2_low_morale_removed_when_its_declarer_wins():
    c = combat(declarer=unit("u", markers=["Low Morale"]))
    assert losses.low_morale_after_combat(c, final_spread(9, 2)).result["removed"] is True
    assert losses.low_morale_after_combat(c, final_spread(2, 9)).result["removed"] is False
    assert losses.low_morale_after_combat(combat(), final_spread(9, 2)) is None


# ============================================================== one whole combat, step by step (digest 3.8.11)
def test_row_5_0_whole_combat_with_forced_dice():
    """A Prepared Attack by a US brigade with two supporters on a PAVN regiment in jungle, walked through every step."""
    att = unit("bde", kind="brigade")
    sup = [unit("b1"), unit("b2", active=False)]
    dfn = (unit("reg", "Communist", kind="regiment"),)
    dsup = [unit("vc1", "Communist", "VC")]
    d = dice(10, 2)  # the chit draw (PR-10: D10 +2, RE B, Spt C), then the random event
    declared = chits.declaration_cost(att, "prepared", mp_left=4, mp_spent=1)
    drawn = chits.draw_chits(d, "prepared")
    c = CombatSides(
        "0505", "prepared", chits.chit_by_id(drawn.result["chits"][0]), att, tuple(sup), dfn, tuple(dsup)
    )
    assert declared.result["mp_cost"] == 3 and c.chit.id == "PR-10"
    check_participants(c)
    jungle = Fraction(1, 3)
    a_av = available_support(c, ATTACKER, SupportSituation({"tank": 5, "artillery": 8, "air": 7}, jungle))
    d_av = available_support(c, DEFENDER, SupportSituation({"tank": 0, "artillery": 6}, jungle))
    assert a_av.result == {"tank": 1, "artillery": 2, "air": 2, "bombardment": 0}  # (5-1)/3, (8-2)/3, (7-1)/3
    assert d_av.result["artillery"] == 1
    a_sup = commit_support(a_av.result, None, ATTACKER).result["total"]
    d_sup = commit_support(d_av.result, None, DEFENDER).result["total"]
    size = size_modifiers(c).result
    a_mods = die_mods(
        ATTACKER,
        {
            "chit": c.chit.modifier,
            "support": a_sup,
            "adjacent": adjacent_support(c, ATTACKER).result,
            "size": size[ATTACKER],
        },
    ).result
    d_mods = die_mods(
        DEFENDER,
        {
            "support": d_sup,
            "adjacent": adjacent_support(c, DEFENDER).result,
            "terrain": terrain_modifier("0505", "jungle", 2).result,
            "size": size[DEFENDER],
        },
    ).result
    assert (a_mods, d_mods) == (2 + 5 + 3 + 2, 1 + 2 + 2 + 0)
    ev = randomevents.random_event(d, c.chit, c.hex)
    assert ev.result == {"event": "objective", "placer": None}  # table B, roll 2: news reporters
    assert d.forced == []
    d.force([6, 9])
    a_roll = roll_attacker(d, c.chit).result
    d_roll = roll_defender(d, 10, dfn).result
    assert (a_roll, d_roll) == (6, 9)
    spread = final_spread(a_roll + a_mods, d_roll + d_mods)  # 18 - 14
    assert spread.result == {
        "winner": ATTACKER,
        "loser": DEFENDER,
        "spread": 4,
        "signed": 4,
        "raw": 4,
        "capped": 4,
    }
    st = losses.start_losses(c, spread)
    us = _units(*c.defending())
    st, _ = losses.apply_loss(st, Action.make("retreat", unit="reg", hexes=2), us)
    st, _ = losses.apply_loss(st, Action.make("loss_point"), us)
    st, _ = losses.apply_loss(st, Action.make("eliminate", unit="vc1"), us)
    assert st.done
    disrupted = losses.retreat_result(dfn[0], 2)
    assert disrupted.result["marker"] == "Disrupted" and disrupted.result["snafu_draws"] == 1
    lost = losses.retreat_support_losses("Communist", [2], d_av.result)
    assert lost.result == {"tank": 0, "artillery": 1}
    assert [a.get("unit") for a in losses.advance_options(c, spread, True)] == ["bde", "b1", None]


def test_row_5_6_bad_spread_inputs_refused():
    with pytest.raises(ValueError, match="5.4.3"):
        final_spread(5, 3, attacker_quality="guards")
    with pytest.raises(ValueError, match="6.2"):
        final_spread(5, 3, defence_works="Trench")


# ============================================================== the whole procedure as an engine generator
def _drive(gen, script):
    """Run a resolve_combat generator; ``script`` is a list of (rule_id, pick) answering each Decision in order."""
    from wargames.core import Decision

    rulings, decisions = [], []
    script = list(script)
    try:
        item = next(gen)
        while True:
            if isinstance(item, Decision):
                decisions.append(item)
                assert script, f"unscripted decision {item!r}: {[a.label for a in item.options]}"
                rule, pick = script.pop(0)
                assert item.rule_id == rule, (item, rule)
                act = pick(item.options)
                assert item.find(act) is not None, f"{act} not among {item.options}"
                item = gen.send(act)
            else:
                rulings.append(item)
                item = next(gen)
    except StopIteration as stop:
        assert not script, f"unused script steps {script}"
        return stop.value, rulings, decisions


def first(opts):
    return opts[0]


def kind(k, **params):
    return lambda opts: next(a for a in opts if a.kind == k and all(a.get(x) == v for x, v in params.items()))


def _line_ctx(positions, capitalist_hexes, communist_hexes, **kw):
    from wargames.row.resolve import CombatContext

    enemy = {"Capitalist": set(communist_hexes), "Communist": set(capitalist_hexes)}
    return CombatContext(
        positions=positions,
        neighbours=lambda h: [str(int(h) + d) for d in (-1, 1) if 0 <= int(h) + d <= 9],
        distance=lambda a, b: abs(int(a) - int(b)),
        enemy_occupied=lambda s, h: h in enemy[s],
        enemy_zoc=lambda s, h: False,
        **kw,
    )


def test_row_5_0_resolve_combat_procedure_attacker_wins():
    from wargames.row.resolve import resolve_combat

    att = unit("bde", kind="brigade")
    sup = (unit("b1"), unit("b2", active=False))
    dfn = (unit("reg", "Communist", kind="regiment"),)
    dsup = (unit("vc1", "Communist", "VC"),)
    c = CombatSides("3", "prepared", chit("PR-10"), att, sup, dfn, dsup)  # D10 +2, RE B, Spt C, Adv 2
    ctx = _line_ctx(
        {"bde": "2", "b1": "2", "b2": "2", "reg": "3", "vc1": "4"},
        ["2"],
        ["3", "4"],
        attack=SupportSituation({"tank": 5, "artillery": 8, "air": 7}, Fraction(1, 3)),
        defense=SupportSituation({"artillery": 6}, Fraction(1, 3)),
        terrain="jungle",
        terrain_die_mod=2,
    )
    d = dice(
        2, 6, 9, 9, 4
    )  # RE B: news; attacker 6; defender 9; SNAFU draw 9 = COM-AMMO; VC elimination D6 4
    cup = randomevents.SnafuCup.full()
    out, rulings, decisions = _drive(
        resolve_combat(d, c, ctx, cup),
        [
            ("ROW-5.3.1", first),
            ("ROW-5.3.1", first),
            ("ROW-5.3.1", first),  # attacker: all tank, artillery, air
            ("ROW-5.3.1", first),  # defender: all artillery
            ("ROW-5.4.1", kind("defender_die", die=10)),
            ("ROW-5.6", kind("retreat", unit="reg", hexes=2)),
            ("ROW-5.6", first),
            ("ROW-5.6", first),  # the retreat path 3 -> 4 -> 5
            ("ROW-6.2", kind("place_snafu", face="Ammo Out")),  # the Capitalist marks the disrupted unit
            ("ROW-5.6", kind("loss_point")),
            ("ROW-5.6", kind("eliminate", unit="vc1")),
            ("ROW-5.7", kind("advance", unit="bde")),
            ("ROW-5.7", kind("advance", unit="b1")),
        ],
    )
    assert d.forced == []
    assert (out.winner, out.spread) == (ATTACKER, 4)  # (6 + 12) - (9 + 5)
    assert out.objective is True
    assert out.retreats == {"reg": ["3", "4", "5"]} and out.eliminated == ["vc1"]
    assert out.units["reg"].markers == frozenset({"Disrupted", "Ammo Out"}) and not out.units["reg"].fresh
    assert out.tracks == {"Body Count": 1 + 4}
    assert out.support_levels == {"Communist": {"artillery": -1}}
    assert out.advanced == ["bde", "b1"] and out.adv_mp == 2
    assert "COM-AMMO" not in out.cup.counters and len(out.cup.counters) == 12
    rules = [r.rule_id for r in rulings]
    assert rules[0] == "ROW-5.1" and rules.index("ROW-5.5") < rules.index("ROW-5.4.1") < rules.index(
        "ROW-5.7"
    )
    assert all(r.explanation for r in rulings)


def test_row_5_0_resolve_combat_procedure_reroll_and_tie():
    from wargames.row.resolve import resolve_combat

    att = unit("us1", markers=["Great Leader"])
    c = CombatSides(
        "3", "hasty", chit("ME-02"), att, (), (unit("vc", "Communist", "VC"),), ()
    )  # D10 +0, RE No
    ctx = _line_ctx(
        {"us1": "2", "vc": "3"},
        ["2"],
        ["3"],
        attack=SupportSituation({}),
        defense=SupportSituation({}),
        terrain_die_mod=1,
    )
    d = dice(2, 5, 7)  # attacker 2, defender D6 5, attacker's Great Leader re-roll 7
    out, rulings, decisions = _drive(
        resolve_combat(d, c, ctx, randomevents.SnafuCup.full()),
        [
            ("ROW-5.4.1", kind("defender_die", die=6)),
            ("ROW-6.1", kind("reroll", which="own")),
            ("ROW-5.6", kind("loss_point")),
            ("ROW-5.6", kind("loss_point")),
            ("ROW-5.6", kind("retreat", unit="vc", hexes=1)),
            ("ROW-5.6", first),
            ("ROW-5.7", kind("advance", unit="us1")),
        ],
    )
    # attacker 7 + 4 (size: US battalion B against a VC battalion C ... +2) vs 5 + 1 terrain
    spread = next(r for r in rulings if r.title == "Combat spread")
    assert spread.inputs["attacker_total"] == 7 + 2 and spread.inputs["defender_total"] == 5 + 1
    assert out.winner == ATTACKER and out.spread == 3
    assert out.tracks == {"Body Count": 2} and out.retreats == {"vc": ["3", "4"]}
    assert not out.units["vc"].fresh  # the D6 kept it fresh, the retreat turned it spent
    assert out.advanced == ["us1"] and out.adv_mp == 3


def test_row_5_6_resolve_tie_makes_the_attacker_lose_and_choose():
    from wargames.row.resolve import resolve_combat

    c = CombatSides(
        "3", "hasty", chit("ME-02"), unit("us1"), (), (unit("vc", "Communist", "VC", fresh=False),), ()
    )
    ctx = _line_ctx(
        {"us1": "2", "vc": "3"},
        ["2"],
        ["3"],
        attack=SupportSituation({}),
        defense=SupportSituation({}),
        terrain_die_mod=1,
    )
    d = dice(4, 5)  # 4 + 2 (size) against 5 + 1 (terrain): a tie
    out, rulings, decisions = _drive(
        resolve_combat(d, c, ctx, randomevents.SnafuCup.full()),
        [
            ("ROW-5.4.1", kind("defender_die", die=6)),
            ("ROW-5.6", kind("retreat", unit="us1", hexes=1)),
            ("ROW-5.6", first),
        ],
    )
    assert (out.winner, out.spread) == (DEFENDER, 1) and out.retreats == {"us1": ["2", "1"]}
    assert out.advanced == [] and not out.units["us1"].fresh
    assert [a["hex"] for a in decisions[-1].options] == ["1"]


def test_row_5_5_resolve_snafu_marker_cuts_declared_support():
    from wargames.row.resolve import resolve_combat

    c = CombatSides(
        "3", "hasty", chit("ME-01"), unit("us1"), (), (unit("reg", "Communist", kind="regiment"),), ()
    )
    ctx = _line_ctx(
        {"us1": "2", "reg": "3"},
        ["2"],
        ["3"],
        attack=SupportSituation({}),
        defense=SupportSituation({"artillery": 9}),
    )
    d = dice(7, 9, 5, 2)  # RE A 7: the attacker places; draw 9 = COM-AMMO; attacker 5; defender D6 2
    out, rulings, decisions = _drive(
        resolve_combat(d, c, ctx, randomevents.SnafuCup.full()),
        [
            ("ROW-5.3.1", first),  # the defender commits 6 artillery
            ("ROW-6.1", kind("place_snafu", unit="reg", face="Ammo Out")),
            ("ROW-5.4.1", kind("defender_die", die=6)),
            ("ROW-5.6", kind("eliminate_all")),
            ("ROW-5.7", kind("no_advance")),
        ],
    )
    cut = next(r for r in rulings if r.title == "Support after the random event")
    assert cut.rule_id == "ROW-5.5" and cut.result["total"] == 0
    dm = [r for r in rulings if r.title == "Defender die modifiers"][0]
    assert dm.result == 0  # artillery gone; size: US battalion B = PAVN regiment B
    assert out.winner == ATTACKER and out.spread == 3 and out.eliminated == ["reg"]
    assert out.tracks == {"Body Count": d_value(rulings, "Elimination roll")}
    assert out.units["reg"].has("Ammo Out") and "COM-AMMO" not in out.cup.counters


def d_value(rulings, title):
    return sum(x.value for r in rulings if r.title == title for x in r.dice)


def test_row_6_1_resolve_key_officer_killed_chosen_by_the_placer():
    from wargames.row.resolve import resolve_combat

    gl = unit("reg", "Communist", kind="regiment", markers=["Great Leader"])
    c = CombatSides("3", "hasty", chit("ME-01"), unit("us1"), (), (gl,), ())
    ctx = _line_ctx(
        {"us1": "2", "reg": "3"}, ["2"], ["3"], attack=SupportSituation({}), defense=SupportSituation({})
    )
    d = dice(2, 11, 5, 5)  # RE A 2: the defender places; draw 11 = COM-KOK; attacker 5; defender D6 5
    out, rulings, decisions = _drive(
        resolve_combat(d, c, ctx, randomevents.SnafuCup.full()),
        [
            ("ROW-6.1", kind("place_snafu", unit="reg")),
            ("ROW-6.1", kind("key_officer", unit="reg", strike="Great Leader")),
            ("ROW-5.4.1", kind("defender_die", die=6)),
            ("ROW-5.6", kind("loss_point")),
        ],
    )
    assert decisions[1].side == "Communist"  # the defender placed the marker, so he picks (R-CBT-12)
    assert not out.units["reg"].has("Great Leader") and "COM-KOK" in out.cup.counters
    assert (out.winner, out.spread) == (DEFENDER, 1)  # 5 against 5: a tie


def test_row_14_3_resolve_tunnel_retreat_opens_the_hex_r_cbt_22():
    from wargames.row.resolve import resolve_combat

    c = CombatSides(
        "3", "hasty", chit("ME-02"), unit("us1"), (), (unit("vc", "Communist", "VC", fresh=False),), ()
    )
    ctx = _line_ctx(
        {"us1": "2", "vc": "3"},
        ["2"],
        ["3"],
        attack=SupportSituation({}),
        defense=SupportSituation({}),
        tunnel_units=("vc",),
    )
    d = dice(9, 2)
    out, rulings, decisions = _drive(
        resolve_combat(d, c, ctx, randomevents.SnafuCup.full()),
        [
            ("ROW-5.4.1", first),
            ("ROW-5.6", kind("tunnel", unit="vc")),
            ("ROW-5.7", kind("advance", unit="us1")),
        ],
    )
    assert out.spread == 5 and out.eliminated == [] and out.retreats == {} and out.advanced == ["us1"]


def _random_play(seed):
    import random

    from wargames.core import Decision
    from wargames.row.resolve import resolve_combat

    rng = random.Random(seed)
    kinds = ["meeting_engagement", "hasty", "prepared", "deliberate"]
    ctype = kinds[seed % 4]
    d = Dice(seed)
    c_id = chits.draw_chits(d, ctype).result["chits"][0]
    quality = ["Elite", "Poor", "Great Leader", "Incompetent Leader", "Ammo Shortage", "Fuel Shortage"]
    att = unit("a0", kind=rng.choice(["battalion", "brigade", "division"]), markers=rng.sample(quality, 1))
    sup = tuple(unit(f"a{i}", active=rng.random() < 0.5) for i in range(1, rng.randint(1, 3)))
    dfn = (
        unit(
            "d0",
            "Communist",
            rng.choice(["PAVN", "VC"]),
            rng.choice(["battalion", "regiment"]),
            fresh=rng.random() < 0.5,
            markers=rng.sample(quality[:4] + ["Penal", "Guards"], 1),
        ),
    )
    dsup = tuple(unit(f"d{i}", "Communist", "VC") for i in range(1, rng.randint(1, 3)))
    c = CombatSides("4", ctype, chit(c_id), att, sup, dfn, dsup)
    pos = {"a0": "3", **{u.uid: "3" for u in sup}, "d0": "4", **{u.uid: "5" for u in dsup}}
    ctx = _line_ctx(
        pos,
        ["3"],
        ["4", "5"],
        attack=SupportSituation({"tank": 6, "artillery": 9, "air": 5}),
        defense=SupportSituation({"artillery": 5, "tank": 3}),
        terrain_die_mod=rng.randint(0, 3),
        replacements={"Capitalist": 1, "Communist": 1},
        tunnel_units=("d0",) if seed % 5 == 0 else (),
    )
    gen = resolve_combat(d, c, ctx, randomevents.SnafuCup.full())
    log = []
    try:
        item = next(gen)
        while True:
            if isinstance(item, Decision):
                assert item.options, item
                act = rng.choice(item.options)
                log.append(("decide", item.rule_id, act.to_json()))
                item = gen.send(act)
            else:
                assert item.rule_id.startswith("ROW-") and item.explanation
                log.append(("rule", item.rule_id, item.explanation))
                item = next(gen)
    except StopIteration as stop:
        return stop.value, log


@pytest.mark.parametrize("seed", range(40))
def test_row_5_0_resolve_random_choices_always_finish(seed):
    out, log = _random_play(seed)
    assert out.winner in (ATTACKER, DEFENDER) and out.spread >= 1
    assert set(out.eliminated) <= set(out.units) and not (set(out.eliminated) & set(out.retreats))
    assert all(1 <= len(p) - 1 <= 3 for p in out.retreats.values())
    assert _random_play(seed)[1] == log  # same seed, same choices: same combat


def test_row_6_2_routed_defender_and_ooc_get_no_adjacent_support_r_cbt_23():
    two = [unit("s1", "Communist"), unit("s2", "Communist")]
    rout = combat(defenders=(unit("n", "Communist", markers=["Routed"]),), dsup=two)
    assert (
        adjacent_support(rout, DEFENDER).result == 0
        and "R-CBT-23" in adjacent_support(rout, DEFENDER).explanation
    )
    assert adjacent_support(combat(dsup=two), DEFENDER).result == 4
    ooc = combat(declarer=unit("u", markers=["OOC"]), sup=[unit("a")])
    assert adjacent_support(ooc, ATTACKER).result == 0
    disrupted = combat(defenders=(unit("n", "Communist", markers=["Disrupted"]),), dsup=two)
    assert adjacent_support(disrupted, DEFENDER).result == 4  # disruption only stops tank and artillery
