"""Rumor of War victory (ROW-12.1 - ROW-12.1.5) and the VP multipliers of missions and commanders (ROW-9.5,
ROW-14.2.1, ROW-12.2), with the worked numbers of the text (digest 8: E9, E10) and decisions R-VIC-01 - R-VIC-07."""

from __future__ import annotations

import pytest

from wargames.core import IllegalAction
from wargames.core.dice import Dice
from wargames.row import victory
from wargames.row.victory import VictoryState


def dice(*values):
    d = Dice(0)
    d.force(list(values))
    return d


# ------------------------------------------------------------------------------------------ 12.1 winning
def test_row_12_1_capitalist_vp_on_military_victory_communist_on_unrest():
    s, r = victory.award(VictoryState(), "Capitalist", 3, "a scenario award")
    assert s.us_military_victory == 3 and s.us_unrest == 0 and r.rule_id == "ROW-12.1"
    s, _ = victory.award(s, "Communist", 2, "a scenario award")
    assert s.us_unrest == 2 and s.vp("Communist") == 2


def test_row_12_1_thirty_one_wins_at_once_and_the_communist_wins_ties():
    s, r = victory.award(VictoryState(us_military_victory=29), "Capitalist", 2, "x")
    assert s.winner == "Capitalist" and r.result["winner"] == "Capitalist"
    with pytest.raises(IllegalAction, match="game is over"):
        victory.award(s, "Communist", 1, "x")
    # both at 31 together (the zero rule moving VPs across): the Communist
    s = VictoryState(us_military_victory=31, us_unrest=31)
    assert victory.result(s).result == "Communist"
    assert (
        victory.result(VictoryState(us_military_victory=12, us_unrest=12), final=True).result == "Communist"
    )
    assert (
        victory.result(VictoryState(us_military_victory=13, us_unrest=12), final=True).result == "Capitalist"
    )
    assert victory.result(VictoryState(us_military_victory=13, us_unrest=12)).result is None


# ------------------------------------------------------------------------------------------ 12.1.2
def test_row_12_1_2_unrest_breakpoints_example_e9():
    # 12.1.2: US Unrest on 7 (breakpoint 5 passed) reduced by 3 ends on 5
    s, r = victory.award(VictoryState(us_unrest=7, unrest_floor=5), "Communist", -3, "E9")
    assert s.us_unrest == 5 and r.rule_id == "ROW-12.1.2"
    s, _ = victory.award(VictoryState(us_unrest=4), "Communist", 6, "x")
    assert s.unrest_floor == 10  # reaching 10 is enough (R-VIC-01)
    s, _ = victory.award(s, "Communist", -9, "x")
    assert s.us_unrest == 10
    s, _ = victory.award(
        VictoryState(us_unrest=12, unrest_floor=10),
        "Communist",
        -10,
        "Chinese intervention",
        pass_breakpoints=True,
    )
    assert s.us_unrest == 2 and s.unrest_floor == 0


def test_row_12_1_2_zero_rule_example_e10():
    # 12.1.3 text: US Military Victory at 0 and a loss of 2 puts 4 on US Unrest
    s, r = victory.award(VictoryState(), "Capitalist", -2, "E10")
    assert s.us_military_victory == 0 and s.us_unrest == 4 and r.result["to_opponent"] == 4
    # a partial loss: first down to 0, the rest doubled (R-VIC-02)
    s, _ = victory.award(VictoryState(us_military_victory=2), "Capitalist", -5, "x")
    assert s.us_military_victory == 0 and s.us_unrest == 6 and s.unrest_floor == 5
    s, _ = victory.award(VictoryState(us_unrest=1), "Communist", -3, "x")
    assert s.us_unrest == 0 and s.us_military_victory == 4


def test_row_12_1_bad_input():
    with pytest.raises(IllegalAction, match="ROW-12.1"):
        victory.award(VictoryState(), "Neutral", 1, "x")
    with pytest.raises(ValueError, match="ROW-12.1.2"):
        VictoryState(us_unrest=3, unrest_floor=5)
    with pytest.raises(IllegalAction, match="ROW-12.1"):
        victory.vp_value("style")


# ------------------------------------------------------------------------------------------ 12.1.4 / 12.1.5
def test_row_12_1_4_accumulator_roll_at_most_the_track_earns_a_vp():
    s, r, opts = victory.add_points(VictoryState(), "body_count", 4)
    assert s.body_count == 4 and [o.kind for o in opts] == ["roll_accumulator", "no_roll"]
    won, r = victory.roll_accumulator(s, "body_count", dice(4))
    assert (
        won.us_military_victory == 1 and won.body_count == 0 and r.result["vp"] == 1 and r.dice[0].value == 4
    )
    lost, r = victory.roll_accumulator(s, "body_count", dice(5))
    assert lost.us_military_victory == 0 and lost.body_count == 0 and r.result["vp"] == 0
    s, _, _ = victory.add_points(VictoryState(), "casualties", 3)
    s, r = victory.roll_accumulator(s, "casualties", dice(1), vp=2)  # e.g. Abrams: 2 VP a Casualty VP
    assert s.us_unrest == 2
    with pytest.raises(IllegalAction, match="nothing to roll"):
        victory.roll_accumulator(VictoryState(), "pow", dice(1))


def test_row_12_1_4_passing_nine_gives_a_vp_at_once():
    s, r, opts = victory.add_points(VictoryState(pow=8), "pow", 3)
    assert s.pow == 0 and s.us_unrest == 1 and opts == [] and r.result["auto_vp"] == 1
    s, r, opts = victory.add_points(VictoryState(pow=8), "pow", 1)
    assert s.pow == 9 and s.us_unrest == 0 and opts
    with pytest.raises(IllegalAction, match="ROW-12.1.4"):
        victory.add_points(VictoryState(), "pow", -1)


def test_row_12_1_4_body_count_and_casualties_reset_after_the_end_phase_check():
    s, r = victory.end_phase_reset(VictoryState(body_count=3, casualties=5, pow=2))
    assert (s.body_count, s.casualties, s.pow) == (0, 0, 2)


def test_row_12_1_5_secret_ops_reveal_ends_them():
    s, _, opts = victory.add_points(VictoryState(), "secret_ops", 2)
    assert opts
    s, r = victory.roll_accumulator(s, "secret_ops", dice(2))
    assert s.us_unrest == 1 and not s.secret_ops_allowed and r.rule_id == "ROW-12.1.5"
    with pytest.raises(IllegalAction, match="ROW-12.1.5"):
        victory.add_points(s, "secret_ops", 1)
    s, _ = victory.roll_accumulator(VictoryState(secret_ops=2), "secret_ops", dice(3))
    assert s.secret_ops_allowed and s.us_unrest == 0


# ------------------------------------------------------------------------------------------ 12.1.3 objectives
def test_row_12_1_3_objectives_resolved_by_combat_and_claimed():
    s, r = victory.resolve_objective(VictoryState(us_military_victory=4), 3, True, "2284")
    assert s.us_military_victory == 7 and r.result["removed"]
    s, _ = victory.resolve_objective(VictoryState(us_military_victory=1), 2, False)
    assert s.us_military_victory == 0 and s.us_unrest == 2  # the zero rule
    opts = victory.claim_options(
        {"1111": (2, False), "2222": (1, True), "3333": (3, False)}, {"1111", "2222"}
    )
    assert [o["hex"] for o in opts] == ["1111"]
    s, r = victory.claim_objective(VictoryState(us_military_victory=5), "1111", 2, False, True)
    assert s.us_military_victory == 3 and r.rule_id == "ROW-12.1.3"
    with pytest.raises(IllegalAction, match="chit was placed"):
        victory.claim_objective(VictoryState(us_military_victory=5), "2222", 1, True, True)
    with pytest.raises(IllegalAction, match="does not control"):
        victory.claim_objective(VictoryState(us_military_victory=5), "3333", 3, False, False)
    with pytest.raises(IllegalAction, match="1, 2 or 3"):
        victory.resolve_objective(VictoryState(), 4, True)


# ------------------------------------------------------------------------------------------ multipliers
def test_row_9_5_mission_vp_multipliers():
    assert victory.vp_value("body_count", {"Capitalist": "search_and_destroy"}).result == 2
    assert (
        victory.vp_value("body_count", {"Capitalist": "hearts_and_minds"}).result == 0
    )  # half of 1, rounded down
    assert victory.vp_value("body_count", {"Capitalist": "hearts_and_minds"}, base=3).result == 1
    assert victory.vp_value("casualty", {"Communist": "offensive"}).result == 2
    assert victory.vp_value("end_turn", {"Communist": "offensive"}, base=2).result == 4
    assert victory.vp_value("territorial", {"Communist": "general_uprising"}).result == 2
    assert victory.vp_value("casualty", {"Communist": "evade"}).result == 1
    with pytest.raises(IllegalAction, match="ROW-9.5"):
        victory.vp_value("casualty", {"Communist": "hearts_and_minds"})


def test_row_14_2_1_commander_and_chinese_vp_effects():
    assert victory.vp_value("casualty", commander={"Capitalist": "Abrams"}).result == 2
    assert victory.vp_value("casualty", {"Communist": "offensive"}, {"Capitalist": "Weyand"}).result == 4
    assert victory.vp_value("body_count", commander={"Capitalist": "Weyand"}).result == 0
    assert victory.vp_value("body_count", commander={"Capitalist": "Westmoreland"}).result == 2
    assert (
        victory.vp_value(
            "body_count", {"Capitalist": "search_and_destroy"}, {"Capitalist": "Westmoreland"}, chinese=True
        ).result
        == 5
    )  # 1 x2 x2, then +1 (R-VIC-04)


def test_row_12_1_3_objectives_are_drawn_from_the_pool_and_placed():
    value, pool, r = victory.draw_objective(dice(1))
    # face down: neither player knows its value until it is revealed (12.1.3, issue #30 item 7)
    assert value == 1 and pool == {1: 4, 2: 5, 3: 5} and r.hidden_from == ("Capitalist", "Communist")
    value, pool, r = victory.draw_objective(dice(14), pool, revealed=True)
    assert value == 3 and pool == {1: 4, 2: 5, 3: 4} and r.hidden_from == ()
    value, _, _ = victory.draw_objective(dice(5), pool)  # 4 ones, then the twos
    assert value == 2
    with pytest.raises(IllegalAction, match="empty"):
        victory.draw_objective(dice(1), {1: 0, 2: 0, 3: 0})
    from wargames.row.hexmap import load_map

    m = load_map()
    land = sorted(h for h in m.hexes if not m.is_sea(h))[:4]
    cap = {land[0], land[1]}
    assert victory.check_objective_placement("Communist", 2, land[:2], cap).result == land[:2]
    with pytest.raises(IllegalAction, match="Capitalist-controlled"):
        victory.check_objective_placement("Communist", 2, land[1:3], cap)
    assert victory.check_objective_placement("Capitalist", 2, land[2:4], cap).rule_id == "ROW-9.5"
    with pytest.raises(IllegalAction, match="different hexes"):
        victory.check_objective_placement("Capitalist", 3, land[2:4], cap)
    sea = next(h for h in sorted(m.hexes) if m.is_sea(h))
    with pytest.raises(IllegalAction, match="land hexes"):
        victory.check_objective_placement("Capitalist", 1, [sea], cap)
