"""The one generic check that every state change is explained by a ruling (issue #13, wargames.core.transitions):
each game declares how its state is explained (``Game.explained``) instead of writing its own check."""

from __future__ import annotations

import pytest

import wargames
from wargames.core import Explained, Game, Ruling
from wargames.core.registry import game_class
from wargames.core.transitions import flatten, transition_problems

RULES = (
    Explained("loc.*", "moved", "unit"),
    Explained("face_up.*", "revealed", "unit"),
    Explained("score.*", "track", "track"),
    Explained("support.*", "named", "support"),
    Explained("pieces", "listed"),
    Explained("pos.*", "told"),
    Explained("vp", "rule", rule="TOY-12"),
    Explained("moved", "bookkeeping"),
)
BEFORE = {
    "loc": {"a": "x", "b": "y"},
    "face_up": ["a"],
    "score": {"red": 3},
    "support": {"hue": 1},
    "pieces": {"hue": {"vc": 1}},
    "pos": {"c": "0101"},
    "vp": 0,
    "moved": [],
    "pool": 4,
}


def ruling(*changes, rule="TOY-1", places=(), result=None) -> Ruling:
    return Ruling(rule, "toy", "toy", result=result, changes=tuple(changes), places=tuple(places))


def after(**edits):
    state = {
        k: (dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v)
        for k, v in BEFORE.items()
    }
    state.update(edits)
    return state


def test_core_flatten_makes_dict_keys_paths_and_list_members_leaves():
    flat = flatten({"loc": {"a": "x"}, "face_up": ["a", "b"], "deck": [3, 1], "n": 2})
    assert flat[("loc", "a")] == "x" and flat[("n",)] == 2
    assert flat[("face_up", "b")] == 1 and flat[("deck",)] == "[3, 1]"  # the order of a list is a leaf too


@pytest.mark.parametrize(
    "state,rulings,expected",
    [
        (after(loc={"a": "z", "b": "y"}), [ruling({"unit": "a", "to": "z"})], None),
        (after(loc={"a": "z", "b": "y"}), [ruling({"unit": "a", "to": "w"})], "loc.a"),
        (after(face_up=["a", "b"]), [ruling({"unit": "b", "face_up": True})], None),
        (after(face_up=["a", "b"]), [ruling({"unit": "a", "face_up": True})], "face_up.b"),
        (
            after(score={"red": 5}),
            [ruling({"track": "red", "from": 3, "to": 4}), ruling({"track": "red", "from": 4, "to": 5})],
            None,
        ),
        (after(score={"red": 5}), [ruling({"track": "red", "from": 3, "to": 4})], "score.red"),
        (after(score={"red": 9}), [ruling({"track": "red", "set": 9})], None),
        (after(), [ruling({"track": "red", "from": 3, "to": 4})], "score.red did not change"),
        (after(support={"hue": 2}), [ruling({"support": "hue"})], None),
        (after(support={"hue": 2}), [ruling({"track": "red", "set": 3})], "support.hue"),
        (after(pieces={"hue": {"vc": 2}}), [ruling(places=["hue"])], None),
        (after(pieces={"hue": {"vc": 2}}), [ruling()], "pieces.hue.vc"),
        (after(pos={"c": "0202"}), [ruling(places=["0202"])], None),
        (after(pos={"c": "0202"}), [ruling(result={"units": ["c"]})], None),
        (after(pos={"c": "0202"}), [ruling(places=["0303"])], "pos.c"),
        (after(pos={}), [ruling(result={"eliminated": "c"})], None),
        (after(vp=2), [ruling(rule="TOY-12.1")], None),
        (after(vp=2), [ruling(rule="TOY-3")], "vp"),
        (after(moved=["a"]), [], None),
        (after(pool=3), [ruling()], None),
        (after(pool=3), [], "pool (4 -> 3) changed with no ruling at all"),
    ],
)
def test_core_every_change_needs_the_ruling_its_declaration_asks_for(state, rulings, expected):
    problems = transition_problems(RULES, BEFORE, state, rulings)
    if expected is None:
        assert problems == []
    else:
        assert problems and any(p.startswith(expected) for p in problems), problems


def test_core_explained_declarations_are_checked_when_made():
    with pytest.raises(ValueError, match="how must be one of"):
        Explained("loc.*", "moves", "unit")
    with pytest.raises(ValueError, match="needs the change field"):
        Explained("loc.*", "moved")
    with pytest.raises(ValueError, match="rule id prefix"):
        Explained("vp", "rule")


@pytest.mark.parametrize("game_id", ["tet", "yotr", "fitl", "row"])
def test_core_every_game_uses_the_one_generic_check(game_id):
    cls = game_class(game_id)
    assert cls.transition_problems is Game.transition_problems
    assert cls.explained, f"{game_id} declares how its state changes are explained"


@pytest.mark.parametrize(
    "game_id,scenario,field",
    [("tet", "historical", "loc"), ("yotr", "historical", "loc"), ("row", "year-in-i-corps", "pos")],
)
def test_core_a_unit_moved_behind_the_rules_back_is_caught(game_id, scenario, field):
    g = wargames.load(game_id, scenario, seed=1)
    g.advance("turn")
    before = g.state_dict()
    where = getattr(g, field)
    uid = next(u for u, h in where.items() if h)
    other = next(h for h in where.values() if h and h != where[uid])
    if game_id == "row":
        g.place(uid, other)
    else:
        where[uid] = other
    problems = g.transition_problems(before, [])
    assert any(p.startswith(f"{field}.{uid} ") for p in problems), problems


def test_core_an_absent_leaf_may_stand_for_a_value():
    """Year of the Rat (YOTR-LSI): a counter of an OB just picked appears on the track, where it already was."""
    rules = (Explained("loc.*", "moved", "unit", absent="track"),)
    assert transition_problems(rules, {"loc": {}}, {"loc": {"u": "track"}}, []) == []
    assert transition_problems(rules, {"loc": {}}, {"loc": {"u": "0101"}}, [])
