"""Tests of the notebook analysis helpers (wargames/fitl/analysis.py)."""

from __future__ import annotations

import pytest

import wargames
from wargames.fitl import analysis as A
from wargames.fitl.victory import THRESHOLDS
from wargames.notebook import fitlcharts as charts


@pytest.fixture(scope="module")
def finished():
    g = wargames.load("fitl", scenario="short", seed=5)
    history = A.play_with_history(g)
    return g, history


def test_fitl_2_3_4_card_option_rows_list_offered_and_unavailable_options():
    g = wargames.load("fitl", scenario="short", seed=5)
    rows = A.card_option_rows(g.decision)
    offered = [r for r in rows if r["available"] == "yes"]
    assert [r["option"] for r in offered] == [a.label for a in g.decision.options]
    assert any(r["option"].startswith("Pass") for r in offered)
    for r in rows:
        if r["available"] == "no":
            assert r["reason"] and r["rule"].startswith("FITL-")
    assert len(A.SECOND_ELIGIBLE) == 4


def test_fitl_1_9_snapshot_and_tracks_before_after_match_the_board():
    g = wargames.load("fitl", scenario="short", seed=5)
    s0 = A.snapshot(g)
    assert s0["markers"] == g.board.victory()
    assert s0["margins"] == {f: s0["markers"][f] - THRESHOLDS[f] for f in THRESHOLDS}
    a = g.legal_actions()[-1]  # Pass: +3 ARVN Resources (FITL-2.3.3)
    assert a.kind == "pass"
    g.set_players({f: None for f in g.sides})
    g.apply(a)
    rows = {r["item"]: r for r in A.tracks_before_after(s0, A.snapshot(g))}
    assert rows["ARVN Resources"]["change"] == 3
    assert rows["Aid"]["change"] == 0 and len(rows) == 11


def test_fitl_2_3_6_eligibility_rows_mark_moved_cylinders():
    s0 = {"eligible": {"US": True, "ARVN": True, "NVA": True, "VC": True}}
    s1 = {"eligible": {"US": False, "ARVN": True, "NVA": True, "VC": False}}
    rows = A.eligibility_rows(s0, s1)
    assert [r["faction"] for r in rows if r["moved"]] == ["US", "VC"]
    assert rows[0]["after"] == "Ineligible"


def test_fitl_1_6_board_changes_lists_pieces_and_support():
    before = {"pieces": {"a": {"us_troops": 2}}, "support": {"a": 1}}
    after = {
        "pieces": {"a": {"us_troops": 1, "vc_guerrillas:a": 1}, "b": {"nva_troops": 3}},
        "support": {"b": -2},
    }
    rows = A.board_changes(before, after, {"a": "Alpha"})
    assert rows[0] == {
        "space": "Alpha",
        "pieces": "-1 us_troops, +1 vc_guerrillas:a",
        "support before": "Passive Support",
        "support after": "Neutral",
    }
    assert rows[1]["space"] == "b" and rows[1]["support after"] == "Active Opposition"


def test_fitl_6_1_play_to_coup_stops_at_the_victory_phase():
    g = wargames.load("fitl", scenario="short", seed=5)
    rulings = A.play_to_coup(g)
    assert g.phase.id == "victory" and g.is_coup(g.card)
    assert any(r.rule_id == "FITL-6.0" for r in rulings)
    rows = A.track_changes(rulings)
    assert all(r["change"] == r["to"] - r["from"] != 0 for r in rows)


def test_fitl_7_3_play_with_history_one_row_per_card_ending_at_the_final_coup(finished):
    g, history = finished
    assert g.is_over and history[0]["card_index"] == 0
    assert [r["card_index"] for r in history] == list(range(len(history)))
    assert history[-1]["coup"] and history[-1]["card"] == g.card
    last = history[-1]
    assert {f: last[f"margin_{f}"] for f in THRESHOLDS} == g.result.result["margins"]
    assert sum(r["coup"] for r in history) >= g.coups_held >= 1


def test_fitl_7_1_run_games_one_row_per_seed():
    rows = A.run_games([1, 2])
    assert [r["seed"] for r in rows] == [1, 2]
    for r in rows:
        assert r["winner"] in THRESHOLDS and r["cards"] > 0
        margins = {f: r[f"margin_{f}"] for f in THRESHOLDS}
        assert max(margins.values()) == margins[r["winner"]]


def test_fitl_7_3_margins_figure_draws_four_lines(finished):
    _g, history = finished
    fig = charts.margins_figure(history)
    assert len(fig.legend[0].items) == 4


def test_fitl_3_1_find_action_picks_a_legal_action_or_names_the_choices():
    g = wargames.load("fitl", scenario="short", seed=5)
    a = A.find_action(g, "op", sa=True)
    assert a in g.legal_actions() and a["sa"] is True
    with pytest.raises(KeyError, match="Pass"):
        A.find_action(g, "op", sa="maybe")


def test_fitl_6_2_3_econ_rows_and_run_phase_through_the_resources_phase():
    g = wargames.load("fitl", scenario="short", seed=2)
    A.play_to_coup(g)
    victory = A.run_phase(g)
    assert victory[0].step == "phase" and any(r.rule_id == "FITL-7.2" for r in victory)
    before = A.snapshot(g)
    resources = A.run_phase(g)
    assert {r.rule_id for r in resources} >= {"FITL-6.2", "FITL-6.2.1", "FITL-6.2.3", "FITL-6.2.5"}
    rows = A.econ_rows(g)
    earn = next(r for r in resources if r.rule_id == "FITL-6.2.3")
    assert sum(r["adds to Total Econ"] for r in rows) == earn.inputs["total_econ"]
    assert sum(r["Econ"] for r in rows) == 15
    moved = A.tracks_before_after(before, A.snapshot(g), changed_only=True)
    assert moved and all(r["change"] for r in moved)


def test_fitl_6_5_box_changes_shows_only_pieces_that_moved_between_boxes():
    empty = {"available": {}, "casualties": {}, "out_of_play": {}}
    before = {**empty, "available": {"us_troops": 12, "vc_bases": 4}, "casualties": {"us_troops": 3}}
    after = {**empty, "available": {"us_troops": 12, "vc_bases": 4}, "out_of_play": {"us_troops": 1}}
    rows = A.box_changes(before, after)
    assert rows == [
        {"piece": "us_troops", "Available": "12", "Casualties": "3 -> 0", "Out of Play": "0 -> 1"}
    ]


def test_fitl_7_1_outcomes_figure_counts_winners():
    rows = [
        {"seed": 0, "winner": "US", "margin_US": -1, "margin_ARVN": -5, "margin_NVA": -8, "margin_VC": -6},
        {"seed": 1, "winner": "VC", "margin_US": -4, "margin_ARVN": -5, "margin_NVA": -8, "margin_VC": -2},
    ]
    layout = charts.outcomes_figure(rows)
    bars = layout.children[0]
    assert list(bars.renderers[0].data_source.data["top"]) == [1, 0, 0, 1]


def test_fitl_1_8_tracks_frame_says_when_nothing_moved():
    g = wargames.load("fitl", scenario="short", seed=5)
    s = A.snapshot(g)
    assert list(A.tracks_frame(s, s)["item"]) == ["no track or victory marker moved"]
    assert len(A.tracks_frame(s, s, changed_only=False)) == 11
