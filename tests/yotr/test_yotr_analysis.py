"""Tests of the notebook tables of ``wargames/yotr/analysis.py`` (they read the log, they apply no rule)."""

from __future__ import annotations

import pytest

import wargames
from wargames.yotr import analysis as A
from wargames.yotr.data import load_data

D = load_data()


@pytest.fixture(scope="module")
def turn3():
    """Seed 1 played by the bots to the start of Game-Turn 3, then Game-Turn 3 played (rulings kept)."""
    g = wargames.load("yotr", seed=1)
    g.advance("turn")
    g.advance("turn")
    n0 = len(g.log)
    g.advance("turn")
    return g, g.log[n0:]


def test_yotr_vic_score_vp_by_turn_follows_the_track(turn3):
    g, _ = turn3
    frame = A.vp_by_turn(g)
    assert list(frame["turn"]) == list(range(0, g.turn + 1))
    assert frame["vp"].iloc[0] == 0 and frame["vp"].iloc[-1] == g.vp
    assert (frame["vp"] == frame["towns"] + frame["regions"] + frame["saigon"]).all()
    assert frame["change"].sum() == g.vp


def test_yotr_sop_phase_summary_lists_phases_in_order(turn3):
    _, rulings = turn3
    frame = A.phase_summary(rulings)
    phases = list(frame["phase"])
    assert phases.index("Communist Movement") < phases.index("Communist Combat") < phases.index("Bombardment")
    assert frame["rulings"].sum() == len(rulings)
    assert frame["dice"].sum() == sum(len(r.dice) for r in rulings)
    assert A.rulings_of(rulings, "Bombardment") and all(
        r.phase == "Bombardment" for r in A.rulings_of(rulings, "Bombardment")
    )


def test_yotr_sup_supply_table_states_and_chart(turn3):
    g, _ = turn3
    frame = A.supply_table(g)
    assert set(frame["state"]) <= {"Attack Supply", "General Supply", "Isolated"}
    nlf = frame[frame["unit"].str.startswith("nlf")]
    assert (nlf["state"] == "Attack Supply").all()  # YOTR-SUP-B
    general = frame[frame["state"] == "General Supply"]
    assert (general["sc_distance"] <= A.supply_limit()).all() and (general["attack x"] == "1/2").all()
    iso = frame[frame["state"] == "Isolated"]
    assert iso["sc_distance"].isna().all()
    allied = A.supply_table(g, "Allied")
    assert set(allied["state"]) <= {"Supplied", "Unsupplied"} and "sc_distance" not in allied


def test_yotr_sup_a_all_in_attack_supply_on_turn_1():
    g = wargames.load("yotr", seed=1)
    assert set(A.supply_counts(g).index) == {"Attack Supply"}


def test_yotr_cbt_g_odds_steps_round_for_the_defender():
    assert A.odds_steps(22, 7)["column"] == "3-1"
    assert A.odds_steps(2, 3)["column"] == "1-2"
    assert A.odds_steps(9, 0.5)["column"] == "10-1"
    assert A.odds_steps(1, 9)["column"] == "1-4"


def test_yotr_cbt_crt_battles_and_brt_tables(turn3):
    g, _ = turn3
    b = A.battles(g.log)
    assert len(b) == sum(1 for r in g.log if r.rule_id == "YOTR-CBT-CRT" and r.lookup)
    assert set(b["attacker"]) <= {"Communist", "Allied"} and not b["forced"].any()
    bm = A.bombardments(g.log)
    assert (bm["reconstructed row"] == bm["die"].isin([4, 5, 6])).all()  # YOTR-BMB-BRT rows 4-6 (D-09)
    assert list(A.table_sources("brt")["from"]) == ["rules"] * 3 + ["reconstruction"] * 3
    assert set(A.table_sources("crt")["from"]) == {"rules"}


def test_yotr_vic_levels_play_games_and_counts():
    frame = A.play_games([1])
    assert frame.loc[0, "vp"] == frame.loc[0, "t13"]
    counts = A.level_counts(frame["level"])
    assert counts["games"].sum() == 1 and list(counts["level"]) == list(A.LEVEL_ORDER)


def test_yotr_mov_c_bot_advice_leaves_the_game_unchanged():
    g = wargames.load("yotr", seed=1)
    before = g.digest()
    advice = A.bot_advice(g)
    assert advice["side"] == "Communist" and advice["why"] and advice["action"] in g.legal_actions()
    assert g.digest() == before


def test_yotr_mov_m_as_read_by_masks_hidden_moves():
    g = wargames.load("yotr", seed=1)
    g.advance("phase")
    moves = [r for r in g.log if r.rule_id == "YOTR-MOV-M"]
    frame = A.as_read_by(moves, "Allied")
    assert len(frame) == len(moves) > 0
    assert frame["Allied reads"].str.contains("face-down").all()
    assert not any(r.result["unit"] in text for r, text in zip(moves, frame["Allied reads"], strict=True))


def test_yotr_sup_d_supply_center_table_and_attack_by_supply(turn3):
    g, _ = turn3
    scs = A.supply_center_table(g)
    assert set(scs["hex"]) == set(g.data.supply_centers) and scs["intact"].dtype == bool
    nva = [u for u in g.on_map("Communist") if g.counters[u].nationality == "NVA" and g.is_combat(u)][:2]
    steps = A.attack_by_supply(g, nva, 2)
    assert list(steps["supply state"]) == ["Attack Supply", "General Supply", "Isolated"]
    assert (
        steps.loc[1, "attack"] == steps.loc[0, "attack"] / 2
        and steps.loc[2, "attack"] == steps.loc[0, "attack"] / 4
    )


def test_yotr_cbt_crt_chances_and_source_kinds():
    chances = A.crt_chances().set_index("odds")
    assert chances.loc["1-4", "attacker hurt"] == "6/6" and chances.loc["10-1", "defender hurt"] == "6/6"
    kinds = A.source_kinds(["crt.csv", "brt.csv"])
    assert kinds.loc["brt.csv", "reconstruction"] == 3 and kinds.loc["crt.csv", "rules"] == 6


def test_yotr_cbt_a_declared_attacks_and_about_to_resolve():
    g = wargames.load("yotr", seed=1)
    assert A.advance_until(g, A.about_to_resolve)
    attacks = A.declared_attacks(g)
    assert g.turn >= 3 and attacks and all(a["attackers"] for a in attacks)
    nxt = A.bot_advice(g)["action"]
    assert nxt.kind == "resolve" or (nxt.kind == "done" and len(attacks) == 1)
    target = nxt["hex"] if nxt.kind == "resolve" else attacks[0]["target"]
    first = A.battles(g.apply(nxt)).iloc[0]
    assert first["hex"] == target and target in [a["target"] for a in attacks]


def test_yotr_mov_f_blocked_move_is_refused():
    g = wargames.load("yotr", seed=2)
    g.set_players({"Allied": None})
    g.advance("end")
    while g.decision.rule_id != "YOTR-MOV-C":  # earlier Allied decisions (retreats) on the bot's advice
        g.apply(A.bot_advice(g)["action"])
    found = A.blocked_move(g)
    assert found is not None
    unit, bad = found
    g.apply({"kind": "move_unit", "params": {"unit": unit}})
    before = g.digest()
    with pytest.raises(Exception, match="Movement case"):
        g.apply({"kind": "move_to", "params": {"to": bad, "unit": unit}})
    assert g.digest() == before


def test_yotr_vic_town_towns_held_sum_to_town_points():
    g = wargames.load("yotr", seed=3)
    g.play()
    held = A.towns_held(g)
    assert held["VP"].sum() == g.vp_function()["towns"]
    assert set(held["held by"]) <= {"Communist", "Allied (retaken)"}


def test_yotr_vic_levels_calibration_check_against_the_digest_target():
    from wargames.yotr.analysis import calibration_check

    hit = calibration_check([14, 15, 18, 20, 41], D)
    assert hit["this run"].iloc[0] == "18" and bool(hit["met"].iloc[0])
    assert hit["this run"].iloc[1] == "20.0%" and not bool(hit["met"].iloc[1])
    miss = calibration_check([3, 9, 10, 12, 30], D)
    assert miss["level"].iloc[0] == "Draw" and not bool(miss["met"].iloc[0]) and bool(miss["met"].iloc[1])
