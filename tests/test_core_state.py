"""The state is one value (issue #13): every field a game changes in play is part of its digest, so save,
undo and branch equality (same digest) prove equal states.  The test changes each state field of a game in
the middle of play, one at a time, and the digest must change.  Fields derived from others (a reverse
index, a version counter) are declared in ``derived_attrs`` and are exempt; everything else is not."""

from __future__ import annotations

from collections import Counter

import pytest

import wargames
from wargames.core.registry import known_games, register

if "row" not in known_games():  # until the package is reinstalled with its entry point (pyproject.toml)
    register("row", "wargames.row.game:RowGame")

GAMES = [
    ("tet", "historical", "phase"),
    ("yotr", "historical", "turn"),
    ("fitl", "short", "turn"),
    ("row", "year-in-i-corps", "turn"),
]
SKIP_INSIDE = {"data"}  # an object's link to the rules data


def fields(game):
    """(path, getter of the container, key) for every state field; objects are opened one level down."""
    out = []
    for name in game.state_attrs():
        if name in game.derived_attrs or name in game.declared_state.scratch:
            continue
        value = getattr(game, name)
        if hasattr(value, "__dict__") and not isinstance(value, dict):
            for sub in vars(value):
                if sub not in SKIP_INSIDE:
                    out.append((f"{name}.{sub}", lambda g, n=name: getattr(g, n), sub))
        else:
            out.append((name, lambda g: g, name))
    return out


def changed(value):
    """A different value of the same shape (containers changed in place and returned)."""
    if value is None or isinstance(value, bool | int | float | str):
        return _changed_scalar(value)
    return _changed_container(value)


def _changed_scalar(value):
    """A different plain value: a flag flipped, a number plus one, a string longer, None made a string."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value + 1
    if isinstance(value, str):
        return value + "~"
    return "probe"


def _changed_container(value):
    """A container with one more or one changed member (changed in place, except a tuple)."""
    if isinstance(value, Counter):
        value["probe"] += 1
        return value
    if isinstance(value, dict):
        if value:
            key = sorted(value, key=str)[0]
            value[key] = changed(value[key])
        else:
            value["probe"] = 1
        return value
    if isinstance(value, list):
        value.append(value[0] if value else "probe")
        return value
    if isinstance(value, set):
        value.add("probe")
        return value
    if isinstance(value, tuple):
        return (*value, "probe")
    raise AssertionError(f"no way to change a {type(value).__name__}")


@pytest.mark.parametrize("game_id,scenario,until", GAMES)
def test_core_every_state_field_is_in_the_digest(game_id, scenario, until):
    g = wargames.load(game_id, scenario, seed=1)
    for _ in range(3):
        g.advance(until)
    base = g.digest()
    missing = []
    for path, holder, key in fields(g):
        trial = g.branch()
        obj = holder(trial)
        if isinstance(obj, dict) and not hasattr(obj, key):
            obj[key] = changed(obj[key])
        else:
            setattr(obj, key, changed(getattr(obj, key)))
        try:
            if trial.digest() == base:
                missing.append(path)
        except Exception as err:  # a state_dict that cannot even read the changed field still covers it
            assert not isinstance(err, AssertionError)
    assert not missing, f"{game_id}: state fields outside the digest: {missing}"


@pytest.mark.parametrize("game_id,scenario,until", GAMES)
def test_core_state_fields_are_declared(game_id, scenario, until):
    """Every attribute a game has after play is engine, static, cache, derived or state: and the derived and
    cache declarations name real attributes."""
    g = wargames.load(game_id, scenario, seed=1)
    g.advance(until)
    names = set(vars(g))
    for group in ("static_attrs", "derived_attrs"):  # caches may be made lazily
        assert getattr(g, group) <= names, f"{group} names unknown attributes"
    assert set(g.state_attrs()) == names - g.static_attrs - g.cache_attrs - wargames.core.engine.ENGINE_ATTRS
    assert not g.declared_state.undeclared(names, wargames.core.engine.ENGINE_ATTRS)
