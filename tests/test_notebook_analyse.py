"""The analysis board in the play widgets (issue #33 item 2): the Analyse button beside the Advisor, the chart
with the best choice marked, one sentence per candidate, and a pick that plays the candidate."""

from __future__ import annotations

import pytest

import wargames
from wargames.notebook.analyse import STAR, AnalysisBoard, analysis_figure, chart_labels


@pytest.fixture
def walk():
    from wargames.notebook.play import PlayGame

    return PlayGame("fitl", scenario="short", side="NVA", seed=3).walk


def test_analysis_play_widget_has_an_analyse_button_beside_the_advisor(walk):
    buttons = list(walk.chooser.buttons.children)
    assert (
        walk.analyse_button in buttons
        and buttons.index(walk.analyse_button) == buttons.index(walk.advisor) + 1
    )
    assert not walk.analyse_button.disabled
    board = walk.open_analysis()
    assert walk.analysis_box.children == (board.widget,)
    assert "NVA" in board.status.value and "hidden" in board.status.value


def test_analysis_board_shows_chart_sentences_and_plays_the_picked_candidate(walk):
    board = walk.open_analysis()
    board.rollouts.value = 2
    board.start(wait=True)
    frame = board.frame
    assert frame is not None and len(board.chart.children) == 1
    assert board.sentences.value.count("<li") == len(frame) and STAR in board.sentences.value
    best = int(frame.index[frame["best"]][0])
    assert board.pick.value == best
    board._tapped([0])  # a click on the first candidate's bar
    assert board.pick.value == 0
    n = len(walk.game.record)
    chosen = board.play_pick()
    entry = walk.game.record[n]
    assert entry["by"] == "person" and entry["act"] == chosen.actions[0].to_json()
    assert walk.analysis is None and walk.analysis_box.children == ()


def test_analysis_chart_marks_the_best_and_numbers_the_candidates():
    g = wargames.load("fitl", "short", seed=3)
    frame = wargames.analyse(g, rollouts=2, horizon="turn")
    labels = chart_labels(frame)
    assert [x.startswith(STAR) for x in labels] == list(frame["best"])
    assert all(f"{k + 1}. " in x for k, x in enumerate(labels))
    layout = analysis_figure(frame)
    left, right = layout.children
    assert list(left.y_range.factors) == labels[::-1] and right.y_range is left.y_range
    assert "ahead" in left.title.text


def test_analysis_board_cancel_leaves_the_game_alone():
    g = wargames.load("fitl", "short", seed=3)
    before = g.digest()
    board = AnalysisBoard(g, rollouts=50)
    board.start()
    board.cancel()
    board.wait(60)
    assert "Stopped" in board.status.value and board.frame is None
    assert g.digest() == before and not board.run_button.disabled
