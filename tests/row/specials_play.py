"""Random play of A Year in I Corps with the optional special-rule blocks on (the ``extras`` game option):
the same checks as ``wargames.testing.random_play`` (invariants, every change explained, save and Back)."""

from __future__ import annotations

from wargames.testing import random_play


def random_play_with(seed: int, extras: dict, max_decisions: int = 20_000):
    return random_play("row", seed, None, max_decisions=max_decisions, extras=extras)
