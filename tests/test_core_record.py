"""The engine owns its record (issue #29 item 1) and nothing is lost (issue #30 items 1-3, 11-12).

Every widget button a student or a teacher presses leaves a game whose save reopens and replays to the same
digest, in every game; what a user interface adds to a decision (the advisor's run, a note) goes through the
engine's declared API into the save schema; a failed automatic step puts the game back where it rested; a save
keeps who sits at each side; saves are written atomically; an edited record is refused.
"""

from __future__ import annotations

import json
import os

import pytest

import wargames
from wargames.core import EngineError, IllegalAction, PositionError
from wargames.core.engine import StepFailed
from wargames.core.presentation import default_side
from wargames.core.record import ENTRY_KEYS, RecordError, atomic_open, write_atomic
from wargames.core.saves import SaveError, _Entry, open_save
from wargames.notebook.widgets import Stepper, Walkthrough
from wargames.testing import unstarted

GAMES = ["tet", "yotr", "fitl", "row"]


def reopens(game) -> None:
    """The save of ``game`` reopens, through the file as JSON, to the same digest, position and record."""
    data = json.loads(json.dumps(game.save()))
    again = open_save(data)
    assert again.digest() == game.digest() and again.position == game.position
    assert again.record == game.record
    assert again.seats() == game.seats()


def test_record_entry_and_save_schema_declare_the_same_keys():
    assert set(_Entry.model_fields) == ENTRY_KEYS
    assert {"advice", "note", "by", "why", "side"} <= ENTRY_KEYS


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_save_after_every_play_widget_button_reopens_to_the_same_digest(game_id):
    """Play mode (a student's side, autoplay): advisor, Apply, Back, and a branch of the game."""
    game = wargames.load(game_id, seed=3)
    wt = Walkthrough(game, human=default_side(game_id), autoplay=True)
    wt.play_to_my_turn()
    reopens(game)
    wt.advisor.click()
    assert any(e.get("by") == "advisor" and "advice" in e for e in game.record)
    reopens(game)
    if not game.is_over and wt.chooser.enabled:
        wt.chooser.choose(0)
        wt.chooser.apply_button.click()
        reopens(game)
    wt.stepper.back.click()
    reopens(game)
    wt.chooser.clear_button.click()
    reopens(game)
    other = game.branch()
    reopens(other)


@pytest.mark.slow
def test_save_after_the_new_game_button_reopens_to_the_same_digest():
    """The play widget's New game (a fresh secret for the hidden draws, issue #30 item 6): its save reopens."""
    from wargames.notebook.play import PlayGame

    play = PlayGame("row", seed=4, secret=True)
    play.seed_box.value = 5
    play.new_button.click()
    assert play.game.seed == 5
    reopens(play.game)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_save_after_every_stepper_button_reopens_to_the_same_digest(game_id):
    """Watching mode (the built-in players on every side): Step, Next phase, Next turn, Back, Go to turn."""
    game = wargames.load(game_id, seed=5)
    st = Stepper(game)
    for button in (st.step, st.next_phase, st.back, st.next_turn):
        button.click()
        reopens(game)
    st.turn_box.value = 1
    st.go.click()
    reopens(game)
    st.play.click()  # Play to the end
    reopens(game)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_lesson_position_with_a_note_reopens_to_the_same_digest(game_id):
    """A lesson (the ``dice`` option) and a teacher's note on a decision: both in the save, which reopens."""
    game = wargames.load(game_id, seed=2, dice=[1, 2])
    game.set_players({s: None for s in game.sides})
    game.advance("decision")
    game.apply(game.legal_actions()[0], note="compare with the historical move")
    game.annotate("first decision of the lesson")
    assert game.record[-1]["note"] == "first decision of the lesson"
    reopens(game)


def test_the_engine_writes_advice_and_notes_and_refuses_a_bad_record(tet):
    tet.set_players({"Communist": None})
    tet.advance("decision")
    tet.apply(tet.legal_actions()[0], by="advisor", why="the bot's reason", advice=4, note="n")
    entry = tet.record[-1]
    assert entry["advice"] == 4 and entry["note"] == "n" and entry["by"] == "advisor"
    with pytest.raises(EngineError, match="advice"):
        tet.apply(tet.legal_actions()[0], advice="first")
    with pytest.raises(RecordError, match="unknown key"):
        tet.replay([{**tet.record[0], "colour": "red"}])
    with pytest.raises(EngineError, match="no decision"):
        tet.annotate("x", decision=999)


def test_public_replay_reaches_the_same_game_and_unstarted_has_done_nothing(tet):
    tet.advance("phase")
    fresh = type(tet).unstarted(tet.scenario_id, tet.seed, tet.options)
    assert fresh.log == [] and fresh.decision is None and fresh.record == []
    fresh.replay(tet.record, tet.position)
    assert fresh.digest() == tet.digest()
    again = type(tet).unstarted(tet.scenario_id, tet.seed, tet.options)
    again.replay(tet.record)  # no resting point: to where it next rests after the last entry
    assert again.record == tet.record


# ---------------------------------------------------------------------------- issue #30 item 1: rollback
def test_a_failing_automatic_step_puts_the_game_back_and_says_so(tet, monkeypatch):
    tet.advance("decision")
    before, at, n_record = tet.digest(), tet.position, len(tet.record)
    step = tet.step.procedure if tet.step else None
    calls = {"n": 0}
    original = type(tet).advance

    def broken(self, *a, **k):
        raise KeyError("a bug in the rules code")

    # break the next procedure that runs: every step procedure of the phase after this one
    names = {s.procedure for p in tet.sequence.phases for s in p.steps if s.procedure != step}
    for name in names:
        monkeypatch.setattr(type(tet), name, broken)
    with pytest.raises(StepFailed, match="put back") as err:
        tet.advance("end")
    assert isinstance(err.value.__cause__, KeyError)
    assert tet.digest() == before and tet.position == at and len(tet.record) == n_record
    assert not tet.is_over and tet.decision is not None
    reopens(tet)
    monkeypatch.undo()
    assert type(tet).advance is original
    calls["n"] += 1
    tet.advance("end")  # the bug fixed, the same game plays on to a result
    assert tet.is_over and tet.result is not None


def test_a_failing_step_after_apply_leaves_the_game_as_it_was(tet, monkeypatch):
    tet.set_players({s: None for s in tet.sides})
    tet.advance("decision")
    before, at = tet.digest(), tet.position
    procs = {s.procedure for p in tet.sequence.phases for s in p.steps}

    def broken(self, *a, **k):
        raise ZeroDivisionError("bug")
        yield  # pragma: no cover

    for name in procs - {tet.step.procedure}:
        monkeypatch.setattr(type(tet), name, broken)
    with pytest.raises(StepFailed):
        while True:  # decide until the game leaves this step and reaches the broken one
            tet.apply(tet.legal_actions()[-1])
            before, at = tet.digest(), tet.position
    assert tet.digest() == before and tet.position == at
    reopens(tet)


# ---------------------------------------------------------------------------- issue #30 item 2: seats
def test_a_fitl_save_made_while_a_persons_faction_has_not_decided_reopens():
    game = wargames.load("fitl", seed=3)
    game.set_players({"VC": None})
    game.advance("end")
    assert game.decision is not None and game.decision.side == "VC"
    assert not any(e.get("side") == "VC" for e in game.record)  # VC has never decided yet
    data = game.save()
    assert data["seats"]["VC"] == "person" and data["seats"]["US"] == "built-in"
    again = open_save(data)
    assert again.digest() == game.digest() and again.player_for("VC") is None


# ---------------------------------------------------------------------------- issue #30 item 3: atomic saves
def test_a_save_is_written_atomically_and_a_failed_write_keeps_the_old_file(tmp_path, tet):
    path = tmp_path / "game.json"
    tet.save(path)
    old = path.read_bytes()
    tet.advance("phase")
    with pytest.raises(RuntimeError), atomic_open(path, "w", encoding="utf-8") as fh:
        fh.write('{"half": ')
        raise RuntimeError("killed mid-save")
    assert path.read_bytes() == old  # the previous save is whole
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary file left behind
    tet.save(path)
    assert open_save(path).digest() == tet.digest()
    with pytest.raises(wargames.core.WargamesError, match="folder"):
        write_atomic(tmp_path, "x")


def test_the_cli_save_is_atomic(tmp_path, monkeypatch):
    from wargames import cli

    target = tmp_path / "out.json"
    target.write_text("previous", encoding="utf-8")
    real_replace = os.replace
    seen = []

    def spy(src, dst):
        seen.append((os.path.basename(src), os.path.basename(dst)))
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", spy)
    assert cli.main(["play", "tet", "--seed", "1", "--quiet", "--save", str(target)]) == 0
    assert seen and seen[-1][1] == "out.json" and seen[-1][0] != "out.json"
    assert open_save(target).is_over


# ---------------------------------------------------------------------------- issue #30 items 11 and 12
@pytest.mark.parametrize(
    "edit",
    [
        lambda d: next(e for e in d["record"] if "why" in e).update(why="edited reason"),
        lambda d: next(e for e in d["record"] if "by" in e).update(by="person"),
        lambda d: d["seats"].update(Allied="person"),
        lambda d: d.update(note="edited"),
    ],
)
def test_a_save_whose_records_were_edited_is_refused(tet, edit):
    tet.advance("turn")
    data = tet.save()
    edit(data)
    with pytest.raises(SaveError, match="edited"):
        open_save(data)


def test_open_save_of_a_folder_json_text_or_a_list_is_a_clear_error(tmp_path, tet):
    with pytest.raises(SaveError, match="folder"):
        open_save(tmp_path)
    assert open_save(json.dumps(tet.save())).digest() == tet.digest()  # the JSON text of a save opens
    listed = tmp_path / "list.json"
    listed.write_text("[1]", encoding="utf-8")
    with pytest.raises(SaveError, match="not an object"):
        open_save(listed)
    bad = tmp_path / "latin1.json"
    bad.write_bytes('{"note": "caf\xe9"}'.encode("latin-1"))
    with pytest.raises(SaveError, match="UTF-8"):
        open_save(bad)


def test_apply_none_is_refused_naming_the_rule(tet):
    tet.set_players({s: None for s in tet.sides})
    tet.advance("decision")
    before = tet.digest()
    with pytest.raises(IllegalAction, match="no action given") as err:
        tet.apply(None)
    assert err.value.rule_id == tet.decision.rule_id and tet.digest() == before


@pytest.mark.parametrize("game_id", GAMES)
def test_impossible_forced_dice_and_a_lesson_after_the_last_turn_are_refused(game_id):
    with pytest.raises(PositionError, match="not a face"):
        wargames.load(game_id, dice=[66])
    game = unstarted(game_id)
    assert wargames.load(game_id, dice=[game.die_faces]).digest()  # its largest die face is a die face
    last = game.sequence.turns
    if last is None:
        pytest.skip("no last turn")
    first = game.sequence.phases[0].id
    with pytest.raises(PositionError, match="there is no"):
        wargames.load(game_id, position={"at": {"turn": last + 1, "phase": first}})
