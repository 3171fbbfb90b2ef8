"""The card browser and the Event stepper of notebook 06 (``wargames/fitl/cards.py``; rules 5.1, 5.2, 8.4)."""

from __future__ import annotations

import csv

import pytest

from wargames.core import IllegalAction
from wargames.core.data import game_dir
from wargames.fitl import cards as C


def test_fitl_5_2_deck_rows_every_card_with_its_history_and_texts():
    rows = C.deck_rows()
    assert [r["number"] for r in rows] == list(range(1, 131))
    assert all(len(r["history"].split()) >= 6 and r["reference"] for r in rows)
    kinds = {r["kind"] for r in rows}
    assert kinds == {"Event", "Capability", "Momentum", "Pivotal Event", "Coup (RVN leader)"}
    assert (
        sum(r["kind"] == "Capability" for r in rows) == 19
        and sum(r["kind"] == "Momentum" for r in rows) == 14
    )
    assert all(r["unshaded"] for r in rows if r["kind"] != "Coup (RVN leader)")


def test_fitl_5_2_card_history_file_titles_match_the_deck_and_stay_short():
    with (game_dir("fitl") / C.HISTORY_FILE).open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    deck = {r["number"]: r["title"] for r in C.deck_rows()}
    assert [int(r["number"]) for r in rows] == list(range(1, 131))
    assert all(r["title"] == deck[int(r["number"])] for r in rows)
    assert max(len(r["history"].split()) for r in rows) <= 40


def test_fitl_5_1_event_run_person_choices_and_refusals():
    walk = C.EventRun(1, "unshaded", "US", scenario="medium", seed=3)
    assert walk.decision is not None and walk.decision.rule_id == "FITL-4.2.3"
    before = walk.game.board.to_dict()
    with pytest.raises(IllegalAction) as err:
        walk.choose("space", space="north_vietnam")  # no US/ARVN piece may be there (1.4.2): no Air Strike
    assert err.value.rule_id in ("FITL-1.4.2", "FITL-4.2.3") and walk.game.board.to_dict() == before
    walk.choose("space", space="quang_tri_thua_thien")
    walk.choose("done")
    walk.choose(walk.decision.options[0])  # Degrade the Trail
    for space in ("saigon", "saigon", "da_nang", "da_nang", "hue"):
        walk.choose("pick", space=space)
    assert walk.done and walk.game.board.tracks["trail"] == walk.before_tracks["trail"] - 1
    assert {r["space"] for r in walk.changes() if r["space"] != "track"} == {"Saigon", "Da Nang", "Hue"}
    with pytest.raises(IllegalAction):
        walk.choose("pick", space="hue")


def test_fitl_8_4_what_if_plays_both_sides_by_the_nonplayers_from_one_position():
    runs = C.what_if(27)
    assert set(runs) == {"unshaded", "shaded"} and runs["unshaded"].faction == "US"
    assert runs["shaded"].faction == "VC" and all(r.done for r in runs.values())
    assert runs["unshaded"].before == runs["shaded"].before  # the same start
    assert all(" 8.4" in x["why"] for r in runs.values() for x in r.reasons)
    assert any("terror" in str(row) for row in runs["shaded"].changes())
