"""The shared core (wargames.core): one interface, rulings as values, chance, undo, saves, branch.

Tet is the vehicle, but every assertion here is about the engine, not about Tet's rules.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import wargames
from wargames.core import Action, IllegalAction, RandomPlayer, Ruling
from wargames.core.engine import EngineError
from wargames.core.saves import SaveError


def test_core_load_stops_at_first_decision(tet):
    assert tet.turn == 1 and tet.phase.id == "p1"
    assert tet.decision is not None and tet.decision.side == "Communist"
    assert tet.legal_actions() and all(isinstance(a, Action) and a.label for a in tet.legal_actions())
    assert all(isinstance(r, Ruling) and r.rule_id and r.explanation for r in tet.log)


def test_core_same_seed_same_decisions_same_game():
    a = wargames.load("tet", seed=11)
    b = wargames.load("tet", seed=11)
    a.play()
    b.play()
    assert a.digest() == b.digest()
    assert [r.to_text() for r in a.log] == [r.to_text() for r in b.log]


def test_core_different_seed_differs():
    a = wargames.load("tet", seed=1)
    b = wargames.load("tet", seed=2)
    assert a.digest() != b.digest()  # the Ruff Puff shuffle differs


def test_core_illegal_action_cites_rule_and_leaves_state(tet):
    before = tet.digest()
    with pytest.raises(IllegalAction) as err:
        tet.apply({"kind": "move", "params": {"unit": "nva_304", "to": "saigon"}})
    assert err.value.rule_id.startswith("TET-")
    assert tet.digest() == before
    with pytest.raises(IllegalAction):
        tet.apply({"kind": "nonsense", "params": {"x": [1, 2]}})
    assert tet.digest() == before


def test_core_undo_restores_identical_state(tet):
    before = tet.digest()
    action = tet.legal_actions()[0]
    rulings = tet.apply(action)
    assert rulings and tet.digest() != before
    tet.undo()
    assert tet.digest() == before
    with pytest.raises(EngineError):
        tet.undo()


def test_core_advance_until_each_granularity(tet):
    n = len(tet.log)
    tet.advance("decision")
    assert len(tet.log) > n
    r = tet.advance("ruling")
    assert len(r) == 1
    start = (tet.turn, tet.phase.id)
    tet.advance("phase")
    assert (tet.turn, tet.phase.id) != start
    t = tet.turn
    tet.advance("turn")
    assert tet.turn == t + 1
    tet.advance("end")
    assert tet.is_over and tet.result is not None and tet.result.rule_id == "TET-AIM-3"
    with pytest.raises(EngineError):
        tet.advance("sometime")


def test_core_human_side_stops_advance(tet):
    tet.set_players({"Communist": None})
    assert tet.advance("end") == []
    assert tet.decision.side == "Communist"


def test_core_force_dice_is_recorded_and_replayed(tet):
    tet.set_players({"Communist": RandomPlayer(3)})
    tet.advance("phase")  # to phase 2
    while tet.phase.id != "p5":
        tet.advance("phase")
    tet.force_dice([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    tet.advance("phase")
    search = [r for r in tet.log if r.rule_id in ("TET-P5-2", "TET-P5-3") and r.dice]
    assert search and all(r.dice[0].forced and r.dice[0].value == 1 for r in search)
    copy = tet.branch()
    assert copy.digest() == tet.digest()


def test_core_save_open_round_trip(tmp_path, tet):
    tet.advance("phase")
    tet.advance("ruling")
    path = tmp_path / "g.json"
    tet.save(path)
    data = json.loads(path.read_text())
    assert data["format"] == "wargames-save" and data["version"] == 2 and data["game"] == "tet"
    again = wargames.open_save(path)
    assert again.digest() == tet.digest()
    assert [r.to_text() for r in again.log] == [r.to_text() for r in tet.log]


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.update(digest="0" * 64),
        lambda d: d.update(version=99),
        lambda d: d["record"].append(
            {"act": {"kind": "move", "params": {"unit": "nva_1", "to": "saigon"}}, "at": [999, True]}
        ),
        lambda d: d.update(record="not a list"),
        lambda d: d.pop("seed"),
        lambda d: d.update(game="chess"),
    ],
)
def test_core_corrupt_save_gives_clear_error_and_loads_nothing(tmp_path, tet, damage):
    tet.advance("phase")
    data = tet.save()
    damage(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(SaveError) as err:
        wargames.open_save(path)
    assert str(path) in str(err.value)


def test_core_save_is_json_not_pickle(tmp_path):
    path = tmp_path / "evil.json"
    path.write_bytes(b"\x80\x04\x95cos\nsystem\n")
    with pytest.raises(SaveError, match="not valid JSON"):
        wargames.open_save(path)


def test_core_rulings_render_text_html_and_frame(tet):
    tet.advance("turn")
    r = tet.log[-1]
    assert r.rule_id in r.to_text() and r.rule_id in r._repr_html_()
    frame = tet.log_frame()
    assert len(frame) == len(tet.log) and {"rule", "dice", "explanation"} <= set(frame.columns)
    assert "Tet Offensive 1968" in tet._repr_html_()


def test_core_every_die_roll_is_in_a_ruling():
    g = wargames.load("tet", seed=5)
    g.play()
    rolled = sum(len(r.dice) for r in g.log)
    assert rolled > 0 and rolled == g.dice.draws - sum(1 for r in g.log if r.rule_id == "TET-SETUP-2") - sum(
        len(r.result["units"]) for r in g.log if isinstance(r.result, dict) and "units" in r.result
    )


def test_core_view_masks_hidden_units(tet):
    allied = tet.view("Allied")
    hidden = [u for u in allied.state["units"] if not u["face_up"] and u["faction"] == "NVA/VC"]
    assert hidden and all("cf" not in u and u["id"].startswith("hidden@") for u in hidden)
    communist = tet.view("Communist")
    assert any(u["faction"] == "VC" and not u["face_up"] for u in communist.state["units"])
    assert all(r.explanation for r in allied.log)
    with pytest.raises(EngineError):
        tet.view("Martians")


def test_core_import_is_light():
    code = (
        "import sys, time; t=time.perf_counter(); import wargames; dt=time.perf_counter()-t; "
        "bad=[m for m in ('bokeh','ipywidgets','pandas','pydantic') if m in sys.modules]; print(dt, bad)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert float(out[0]) < 0.5
    assert out[1] == "[]"


def test_core_rules_never_import_bokeh():
    code = (
        "import sys, wargames; g = wargames.load('tet', seed=1); g.play(); "
        "print([m for m in ('bokeh','ipywidgets') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_core_decision_log_keeps_who_decided_and_why(tmp_path, tet):
    tet.advance("phase")
    entries = tet.decisions()
    assert entries and all(e["side"] in tet.sides for e in entries)
    bot = [e for e in entries if e["by"] == "CommunistBot"]
    assert bot and all(e["why"] for e in bot)
    tet.apply(tet.legal_actions()[-1]) if tet.decision else None
    if tet.decisions()[-1]["by"] == "person":
        assert tet.decisions()[-1]["why"] == ""
    again = wargames.open_save(tet.save())
    assert again.decisions() == tet.decisions()


def test_core_undo_several_and_rewind_to_a_turn(tet):
    start = tet.digest()
    for _ in range(3):
        tet.apply(tet.legal_actions()[0])
    tet.undo(3)
    assert tet.digest() == start
    tet.advance("turn")
    tet.advance("turn")
    assert tet.turn == 3
    tet.rewind(2)
    assert tet.turn == 2 and tet.decision is not None
    with pytest.raises(EngineError):
        tet.undo(10_000)


def test_core_branch_does_not_share_bots_with_the_original():
    """Playing a what-if branch to the end must not change what the original game does next."""
    import wargames

    def finish(g):
        g.advance("end")
        return g.digest()

    plain = wargames.load("yotr", seed=4)
    plain.advance("phase")
    expected = finish(plain)

    g = wargames.load("yotr", seed=4)
    g.advance("phase")
    branch = g.branch()
    finish(branch)
    assert finish(g) == expected


def test_core_action_own_constructor_sets_every_field_and_stays_frozen():
    """Action has its own fast ``__init__`` (speed, issue #21): it must set every field of the dataclass (a field
    added to Action fails here), keep the defaults, stay frozen, and give the same JSON, equality and hash."""
    import dataclasses

    assert [f.name for f in dataclasses.fields(Action)] == ["kind", "params", "label", "places"]
    full = Action("move_to", (("to", "1234"), ("unit", "nva_1")), "nva_1 to 1234", ("1234",))
    assert (full.kind, full.params, full.label, full.places) == (
        "move_to",
        (("to", "1234"), ("unit", "nva_1")),
        "nva_1 to 1234",
        ("1234",),
    )
    bare = Action("done")
    assert (bare.kind, bare.params, bare.label, bare.places) == ("done", (), "", ())
    assert Action(kind="done", label="x") == bare  # label and places do not count in equality
    with pytest.raises(dataclasses.FrozenInstanceError):
        full.kind = "other"  # type: ignore[misc]
    made = Action.make("move_to", "label", ["1234"], unit="nva_1", to="1234")
    assert made == full and hash(made) == hash(full) and made.places == ("1234",)
    assert made.to_json() == {"kind": "move_to", "params": {"to": "1234", "unit": "nva_1"}}
    assert Action.make("done").label == "done" and Action.make("done").params == ()
    assert Action.from_json(json.loads(json.dumps(made.to_json()))) == made
    assert dataclasses.replace(made, label="new").label == "new"
    assert repr(made) == (
        "Action(kind='move_to', params=(('to', '1234'), ('unit', 'nva_1')), label='label', places=('1234',))"
    )
