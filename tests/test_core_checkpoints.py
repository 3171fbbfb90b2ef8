"""Checkpoints (issue #13): Back, rewind, branch and a refused action restore a copy of the state taken at
a phase or step start and replay only the rest.  Whatever the path, the state must be the one a replay
from the very start gives (same digest, same rulings)."""

from __future__ import annotations

import random

import pytest

import wargames
from wargames.core.registry import game_class

GAMES = [("tet", "historical"), ("yotr", "historical"), ("fitl", "short"), ("row", "year-in-i-corps")]


def from_scratch(game):
    """The same record replayed into a new game with no checkpoints (the slow, obviously right path)."""
    fresh = game_class(game.game_id)(game.scenario_id, game.seed, game.options, _start=False)
    fresh._replay(list(game.record), game.position)
    return fresh


def same(a, b) -> None:
    assert a.position == b.position
    assert a.digest() == b.digest()
    assert [r.to_dict() for r in a.log] == [r.to_dict() for r in b.log]


@pytest.mark.parametrize("game_id,scenario", GAMES)
def test_core_undo_and_rewind_from_checkpoints_equal_a_replay_from_the_start(game_id, scenario):
    g = wargames.load(game_id, scenario, seed=2)
    g.play()
    n = len(g.decisions())
    rng = random.Random(5)
    for steps in sorted(rng.sample(range(1, n // 3), 4)):
        g.undo(steps)
        assert g._checkpoints, "no checkpoint was taken"
        same(g, from_scratch(g))
    turn = max(1, g.turn - 1)
    g.rewind(turn)
    same(g, from_scratch(g))


@pytest.mark.parametrize("game_id,scenario", GAMES)
def test_core_a_new_line_of_play_after_back_never_reuses_the_abandoned_checkpoints(game_id, scenario):
    g = wargames.load(game_id, scenario, seed=3)
    g.set_players({s: None for s in g.sides})
    for _ in range(40):  # a person's first decisions: always the first legal action
        g.apply(g.legal_actions()[0])
    g.undo(30)
    options = g.legal_actions()
    g.apply(options[-1])  # a different choice where there is one
    for _ in range(25):
        if g.is_over:
            break
        g.apply(g.legal_actions()[-1])
    g.undo(3)
    same(g, from_scratch(g))


@pytest.mark.parametrize("game_id,scenario", GAMES)
def test_core_branch_shares_checkpoints_but_not_state(game_id, scenario):
    g = wargames.load(game_id, scenario, seed=4)
    g.advance("turn")
    before = g.digest()
    other = g.branch()
    assert other.digest() == before and other._checkpoints is not g._checkpoints
    other.play()
    assert g.digest() == before
    g.play()
    same(g, from_scratch(g))
