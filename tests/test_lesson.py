"""Lesson-sized play (issue #31, ``wargames.core.lesson``): delegated decisions, the Advisor's plan and the
student's orders are ordinary decisions in the record, the rules engine checks each one, and the record replays
to the same digest."""

from __future__ import annotations

import pytest

import wargames
from wargames.core.actions import Action, WargamesError
from wargames.core.data import DataError, rules_index
from wargames.core.lesson import KindRow, Lesson, commander_kinds, decision_kinds

GAMES = ("tet", "yotr", "fitl", "row")
SIDE = {"tet": "Allied", "yotr": "Allied", "fitl": "VC", "row": "Capitalist"}


def _lesson(game_id: str, seed: int = 1) -> Lesson:
    g = wargames.load(game_id, seed=seed)
    g.set_players({SIDE[game_id]: None})
    g.advance("end")
    lesson = Lesson(g, SIDE[game_id])
    lesson.delegate()
    return lesson


def _replayed_digest(g) -> str:
    fresh = type(g).unstarted(g.scenario_id, g.seed, g.options, players={s: g.player_for(s) for s in g.sides})
    fresh.replay(g.record, g.position)
    return fresh.digest()


@pytest.mark.parametrize("game_id", GAMES)
def test_decision_kinds_cite_indexed_rules_and_have_commander_kinds(game_id):
    index = rules_index(game_id)
    kinds = decision_kinds(game_id)
    assert commander_kinds(game_id) and len(commander_kinds(game_id)) < len(kinds)
    for row in kinds.values():
        assert isinstance(row, KindRow) and row.name and row.explanation
        for rule in row.rules.split():
            assert rule in index, (
                f"data/{game_id}/decision_kinds.csv: {row.kind} cites {rule}, not in the index"
            )


def test_decision_kinds_repeated_kind_is_a_data_error(tmp_path, monkeypatch):
    import shutil

    from wargames.core import lesson as L

    d = tmp_path / "tet"
    d.mkdir()
    text = (wargames.core.data.game_dir("tet") / "decision_kinds.csv").read_text()
    (d / "decision_kinds.csv").write_text(text + text.splitlines()[1] + "\n")
    shutil.copy(wargames.core.data.game_dir("tet") / "rules_index.csv", d)
    monkeypatch.setattr(L, "game_dir", lambda _g: d)
    L.decision_kinds.cache_clear()
    try:
        with pytest.raises(DataError, match="declared twice"):
            L.decision_kinds("tet")
    finally:
        L.decision_kinds.cache_clear()


def test_lesson_routine_kinds_are_made_by_the_advisor_with_reasons_in_the_record():
    lesson = _lesson("tet")
    g = lesson.game
    delegated = [e for e in g.record if e.get("by") == "advisor"]
    assert delegated, "Tet's first Allied decisions (fire groups) are routine: the Advisor makes them"
    assert all(e["side"] == "Allied" and "left to the Advisor" in e["why"] for e in delegated)
    assert lesson.is_mine(g.decision.kind), "the game stops at one of the student's kinds"


def test_lesson_unknown_kind_is_refused_and_undeclared_kinds_stay_the_students():
    lesson = _lesson("tet")
    with pytest.raises(WargamesError, match="decision_kinds.csv"):
        lesson.set_mine("no_such_kind", False)
    assert lesson.is_mine("no_such_kind")


def test_lesson_plan_is_worked_out_on_a_branch_and_leaves_the_game_unchanged():
    lesson = _lesson("yotr")
    g = lesson.game
    before = g.digest()
    plan = lesson.plan()
    assert len(plan.orders) >= 3 and g.digest() == before
    assert all(o.steps and o.label for o in plan.orders)


def test_lesson_confirmed_plan_is_in_the_record_and_replays_to_the_same_digest():
    lesson = _lesson("yotr")
    g = lesson.game
    n0 = len(g.record)
    plan = lesson.plan()
    dropped = plan.orders[1]
    lesson.drop(plan, 1)
    out = lesson.confirm(plan)
    applied = [Action.from_json(e["act"]) for e in g.record[n0:] if e.get("side") == "Allied"]
    assert out.made and applied
    assert dropped.steps[0].action not in applied, "a dropped order is not given"
    assert _replayed_digest(g) == g.digest()


def test_lesson_plan_confirm_refused_after_the_game_moved_on():
    lesson = _lesson("yotr")
    plan = lesson.plan()
    lesson.confirm(plan)
    with pytest.raises(WargamesError, match="moved on"):
        lesson.confirm(plan)


def test_lesson_illegal_order_is_not_given_and_changes_nothing():
    lesson = _lesson("fitl")
    g = lesson.game
    before = g.digest()
    out = lesson.orders([Action.make("no_such_action", x=1)])
    assert "not given" in out.stopped and g.digest() == before


def test_lesson_several_orders_given_at_once_are_the_students_decisions():
    lesson = _lesson("fitl")
    g = lesson.game
    while g.decision.kind != "space":
        lesson.apply(lesson.advisor.choose(g, g.decision))
    spaces = [a for a in g.legal_actions() if a.kind == "space"][:2]
    n0 = len(g.record)
    out = lesson.orders(spaces)
    mine = [Action.from_json(e["act"]) for e in g.record[n0:] if e.get("by") == "person"]
    assert mine[:2] == spaces and not out.stopped
    assert _replayed_digest(g) == g.digest()


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_lesson_turn_keeps_every_decision_and_replays(game_id):
    lesson = _lesson(game_id)
    g = lesson.game
    turn = g.turn
    while lesson.waiting and g.turn == turn:
        row = lesson.kinds.get(g.decision.kind)
        if row is not None and row.plan:
            lesson.confirm(lesson.plan())
        else:
            lesson.apply(lesson.advisor.choose(g, g.decision))
    assert lesson.presses < sum(1 for e in g.record if e.get("side") == SIDE[game_id])
    assert _replayed_digest(g) == g.digest()


@pytest.mark.slow
def test_lesson_panel_plan_confirm_and_back_take_one_press_each():
    from wargames.notebook.play import PlayGame

    app = PlayGame("tet", side="Allied", seed=1, lesson=True)
    panel, g = app.panel, app.game
    assert panel.lesson.waiting and panel.lesson.is_mine(g.decision.kind)
    before = g.digest()
    plan = panel.show_plan()
    assert len(panel.plan_box.children) == len(plan.orders) and not panel.confirm_button.disabled
    panel.drop(0)
    assert not plan.orders[0].keep
    out = panel.confirm()
    assert out is not None and out.made and g.digest() != before
    assert "Back takes them back" in panel.message.value
    app.walk.stepper.back.click()
    assert g.digest() == before, "Back takes the confirmed plan back as one"


@pytest.mark.slow
def test_lesson_panel_settings_delegate_the_pending_kind_at_once():
    from wargames.notebook.play import PlayGame

    app = PlayGame("fitl", side="VC", seed=1, lesson=True)
    panel, g = app.panel, app.game
    kind = g.decision.kind
    n0 = len(g.record)
    panel.boxes[kind].value = False
    assert not panel.lesson.is_mine(kind)
    assert any(e.get("by") == "advisor" for e in g.record[n0:])
    app.new_game()
    assert kind not in app.panel.lesson.mine, "New game keeps the student's setting"


def test_prompts_do_not_repeat_the_deciding_side():
    from wargames.core.actions import Decision
    from wargames.notebook.widgets import prompt_text as _prompt

    g = wargames.load("row", seed=1)
    d = Decision("Capitalist", "Capitalist: declare the HQ mission for Summer 1965", "ROW-9.5", [])
    assert _prompt(g, d, "Capitalist") == "Declare the HQ mission for Summer 1965"
    d = Decision("VC", "VC, 1st Eligible on #120 US Press Corps: choose", "FITL-2.3.4", [])
    assert _prompt(wargames.load("fitl", seed=1), d, "VC") == "1st Eligible on #120 US Press Corps: choose"
    d = Decision("Capitalist", "Which die does the defender roll?", "ROW-5.4.1", [])
    assert _prompt(g, d, "Capitalist") == d.prompt


def test_lesson_advisor_takes_a_destination_after_the_student_picked_the_unit():
    """Tet TET-P4-1: the student picks the unit (select is theirs), the Advisor its destination (allied_move
    left to it): the Advisor's bot never saw the pick and still answers, with a reason."""
    lesson = _lesson("tet")
    g = lesson.game
    lesson.set_mine("allied_move", False)
    assert g.decision.kind == "select"
    unit = next(a for a in g.legal_actions() if a.kind == "select")
    n0 = len(g.record)
    lesson.apply(unit)
    moved = [e for e in g.record[n0:] if e.get("by") == "advisor"]
    assert moved and moved[0]["side"] == "Allied" and "left to the Advisor" in moved[0]["why"]
    assert _replayed_digest(g) == g.digest()


def test_lesson_game_saves_and_opens_with_its_runs():
    lesson = _lesson("yotr")
    g = lesson.game
    lesson.confirm(lesson.plan())
    back = wargames.open_save(g.save())
    assert back.digest() == g.digest()
    assert [e.get("advice") for e in back.record] == [e.get("advice") for e in g.record]


@pytest.mark.parametrize(
    ("game_id", "units"),
    [
        ("tet", {"vc_i_01": "12", "vc_i_02": "11"}),  # swapped: each from the other's area
        ("yotr", {"arvn_cc_1": "4832", "arvn_ch_3": "6235"}),
    ],
)
def test_lesson_position_each_edit_ruling_carries_only_its_own_changes(game_id, units):
    """A lesson position that places several units (core.position, rule LESSON): each unit's ruling lists that
    unit's change and no other's (the edits are all made before the first ruling, so the state's changes of the
    later edits used to be added to the first ruling's)."""
    g = wargames.load(game_id, seed=7, position={"units": units})
    placed = [r for r in g.log if r.rule_id == "LESSON" and r.result.get("unit") in units]
    assert [r.result["unit"] for r in placed] == list(units)
    for r in placed:
        assert {c.get("unit") for c in r.changes} == {r.result["unit"]}, (r.title, r.changes)
        assert any(c.get("to") == units[r.result["unit"]] for c in r.changes)


def test_decisions_table_reads_action_kinds_with_the_games_abbreviations():
    """An action kind no ``decision_kinds.csv`` row names reads from ``action_kinds.csv`` (issue #31 item 3:
    "Place SNAFU", "Activate HQ", "Trace LoC", not "Place snafu"), else as plain words; every named kind is one
    holds the kind's words, and none is also a decision kind (which would add a "Who decides what" tick box)."""
    import re

    from wargames.core.lesson import action_kinds

    row = wargames.load("row", seed=1)
    assert row.action_words("place_snafu") == "Place SNAFU"
    assert row.action_words("activate_hq") == "Activate HQ"
    assert row.action_words("trace_loc") == "Trace LoC"
    assert row.action_words("give_up") == "Give up"  # not named: plain words
    assert wargames.load("fitl", seed=1).action_words("no_sa") == "No Special Activity"
    for game_id in ("row", "fitl", "tet"):
        named = action_kinds(game_id)
        assert named and not set(named) & set(decision_kinds(game_id))
        for kind, r in named.items():  # the name says the kind's words, only spelt as the game spells them
            words = {w for w in re.split(r"[\s_]+", kind.lower()) if w not in ("sa",)}
            assert words <= set(r.name.lower().split()), (game_id, kind, r.name)


def test_action_kinds_naming_a_decision_kind_again_is_a_data_error(tmp_path, monkeypatch):
    """``action_kinds.csv`` may not name a kind ``decision_kinds.csv`` already names (the error names the file's line)."""
    from wargames.core import lesson as L

    d = tmp_path / "tet"
    d.mkdir()
    for f in ("decision_kinds.csv", "rules_index.csv"):
        (d / f).write_text((wargames.core.data.game_dir("tet") / f).read_text())
    (d / "action_kinds.csv").write_text("kind,name,source\nmove,Moving,decision: test\n")
    monkeypatch.setattr(L, "game_dir", lambda _g: d)
    L.decision_kinds.cache_clear()
    L.action_kinds.cache_clear()
    try:
        with pytest.raises(DataError, match="already named in decision_kinds.csv"):
            L.action_kinds("tet")
    finally:
        L.decision_kinds.cache_clear()
        L.action_kinds.cache_clear()
