"""Random play over every registered game (DESIGN.md test layer 4).

Many seeded games with random players on every side; after every decision the game's declared invariants
hold and the decision has legal actions; at three random points each, save->open and undo round-trip with
equal digests (``wargames.testing.random_play``).

Fifteen seeds a game in CI (thirty before, half of CI's random-play time: ``benchmarks/results/ci_durations.md``);
the standing fuzz (``tools/fuzz.py``, figures in ``benchmarks/results/fuzz.md``) plays the same checks after every
decision on many more seeds and every scenario, for as long as it is given.
"""

from __future__ import annotations

import pytest

import wargames
from wargames.testing import random_play

SEEDS = range(15)


@pytest.mark.parametrize("game_id", wargames.games())
@pytest.mark.parametrize("seed", SEEDS)
def test_random_play_invariants_saves_and_undo(game_id, seed):
    random_play(game_id, seed)
