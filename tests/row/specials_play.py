"""Random play of A Year in I Corps with the optional special-rule blocks on (the ``extras`` game option):
the same checks as ``wargames.testing.random_play`` (invariants, every change explained, save and Back), which
takes no game options."""

from __future__ import annotations

import random

import wargames
from wargames.core import RandomPlayer


def random_play_with(seed: int, extras: dict, max_decisions: int = 20_000):
    game = wargames.load("row", None, seed, extras=extras)
    game.set_players({side: None for side in game.sides})
    players = {side: RandomPlayer(seed * 31 + i) for i, side in enumerate(game.sides)}
    rng = random.Random(seed)
    checks = {"save": set(rng.sample(range(400), 3)), "undo": set(rng.sample(range(400), 3))}
    decisions = 0
    while not game.is_over:
        if game.decision is None:
            game.advance("decision")
            continue
        assert game.legal_actions(), f"dead end: {game.decision!r}"
        action = players[game.decision.side].choose(game, game.decision)
        before = game.state_dict()
        rulings = game.apply(action)
        decisions += 1
        problems = game.invariants() + game.transition_problems(before, rulings)
        assert not problems, f"after decision {decisions} ({action.label}): {problems[:5]}"
        if decisions in checks["save"]:
            assert wargames.open_save(game.save()).digest() == game.digest()
        if decisions in checks["undo"] and game.decision is not None:
            here = game.digest()
            game.apply(game.legal_actions()[0])
            game.undo()
            assert game.digest() == here
        assert decisions < max_decisions, "the game does not end"
    return game
