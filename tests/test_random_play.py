"""Random play over every registered game (DESIGN.md test layer 4).

Many seeded games with random players on every side; after every decision the game's declared invariants
hold and the decision has legal actions; at three random points each, save->open and undo round-trip with equal digests.
"""

from __future__ import annotations

import random

import pytest

import wargames
from wargames.core import RandomPlayer

SEEDS = range(30)


@pytest.mark.parametrize("game_id", wargames.games())
@pytest.mark.parametrize("seed", SEEDS)
def test_random_play_invariants_saves_and_undo(game_id, seed):
    game = wargames.load(game_id, seed=seed)
    game.set_players({side: None for side in game.sides})
    players = {side: RandomPlayer(seed * 31 + i) for i, side in enumerate(game.sides)}
    rng = random.Random(seed)
    checks = {"save": set(rng.sample(range(400), 3)), "undo": set(rng.sample(range(400), 3))}
    decisions = 0
    while not game.is_over:
        if game.decision is None:
            game.advance("decision")
            continue
        assert game.legal_actions(), f"dead end: {game.decision!r} has no legal actions"
        action = players[game.decision.side].choose(game, game.decision)
        before = game.state_dict()
        rulings = game.apply(action)
        decisions += 1
        problems = game.invariants() + game.transition_problems(before, rulings)
        assert not problems, f"after decision {decisions} ({action.label}): {problems[:5]}"
        if decisions in checks["save"]:
            again = wargames.open_save(game.save())
            assert again.digest() == game.digest()
        if decisions in checks["undo"] and game.decision is not None:
            here = game.digest()
            game.apply(game.legal_actions()[0])
            game.undo()
            assert game.digest() == here
        assert decisions < 20_000, "the game does not end"
    assert game.result is not None
