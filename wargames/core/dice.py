"""Chance: one seeded random generator per game, with forced (what-if) rolls consumed first.

Nothing else in a game may be random.  The generator's position (how many draws it has made) is part of
the game state, so two games with the same scenario, seed and decisions roll the same dice.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from .actions import WargamesError
from .rulings import Roll

T = TypeVar("T")


class Dice:
    def __init__(self, seed: int):
        self.seed = int(seed)
        self._rng = random.Random(self.seed)
        self.draws = 0
        self.forced: list[int] = []

    def force(self, values: Sequence[int]) -> None:
        """Fix the next die rolls (what-if).  They are used before the generator and marked forced."""
        for v in values:
            if not isinstance(v, int) or isinstance(v, bool):
                raise WargamesError(f"forced die values must be integers, got {v!r}")
        self.forced.extend(int(v) for v in values)

    def roll(self, sides: int = 6, purpose: str = "") -> Roll:
        if self.forced:
            value = self.forced.pop(0)
            if not 1 <= value <= sides:
                raise WargamesError(f"forced roll {value} is not a face of a d{sides}")
            return Roll(value, sides, purpose, forced=True)
        self.draws += 1
        return Roll(self._rng.randint(1, sides), sides, purpose)

    def shuffle(self, items: list[T]) -> list[T]:
        """A shuffled copy (used for random set-up such as face-down Ruff Puffs)."""
        out = list(items)
        self.draws += 1
        self._rng.shuffle(out)
        return out

    def choice_index(self, n: int) -> int:
        """A uniformly random index in ``range(n)`` (a blind pick among indistinguishable counters)."""
        self.draws += 1
        return self._rng.randrange(n)

    def snapshot(self) -> tuple:
        """Everything needed to roll on exactly as from here (for checkpoints)."""
        return (self._rng.getstate(), self.draws, tuple(self.forced))

    def restore(self, snap: tuple) -> None:
        rng, self.draws, forced = snap
        self._rng.setstate(rng)
        self.forced = list(forced)

    def state(self) -> dict:
        return {"seed": self.seed, "draws": self.draws, "forced": list(self.forced)}
