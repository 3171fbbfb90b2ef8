"""Chance: one seeded random generator per game, with forced (what-if) rolls consumed first.

Nothing else in a game may be random.  The generator's position (how many draws it has made) is part of
the game state, so two games with the same scenario, seed and decisions roll the same dice.

Hidden draws (a shuffled deck, counters placed face down at random, a face-down marker drawn: issue #30 item 6)
come from :meth:`Dice.shuffle`, :meth:`Dice.choice_index` and :meth:`Dice.hidden_roll`.  Without a ``secret``
they use the same generator as every roll (a game is then fully known from its seed: tests, goldens, Monte
Carlo).  With a ``secret`` (the load option ``secret``, which the play app sets to a fresh random value and never
shows) they come from a second generator seeded from the seed *and* the secret, so knowing or reusing the seed
tells a player nothing of the deck or of what lies face down.  The secret is kept in the game's options, so the
umpire's save replays the same game.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import TypeVar

from .actions import WargamesError
from .rulings import Roll

T = TypeVar("T")


class Dice:
    def __init__(self, seed: int, secret: str | None = None):
        self.seed = int(seed)
        self._rng = random.Random(self.seed)
        self.draws = 0
        self.forced: list[int] = []
        self.secret = secret
        #: the generator of hidden draws: the main one, or one seeded from the seed and the secret
        self._hidden = (
            random.Random(hashlib.sha256(f"{self.seed}:{secret}".encode()).digest()) if secret else self._rng
        )
        self.hidden_draws = 0

    def _count_hidden(self) -> None:
        if self.secret:
            self.hidden_draws += 1
        else:
            self.draws += 1

    def hidden_roll(self, sides: int = 6, purpose: str = "") -> Roll:
        """A die rolled for a hidden draw (a face-down marker picked from a pool): from the hidden generator;
        forced rolls (a lesson's) are used first, as for :meth:`roll`."""
        if not self.secret:
            return self.roll(sides, purpose)
        if self.forced:
            return self.roll(sides, purpose)
        self.hidden_draws += 1
        return Roll(self._hidden.randint(1, sides), sides, purpose)

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
        self._count_hidden()
        self._hidden.shuffle(out)
        return out

    def choice_index(self, n: int) -> int:
        """A uniformly random index in ``range(n)`` (a blind pick among indistinguishable counters)."""
        self._count_hidden()
        return self._hidden.randrange(n)

    def snapshot(self) -> tuple:
        """Everything needed to roll on exactly as from here (for checkpoints)."""
        if not self.secret:
            return (self._rng.getstate(), self.draws, tuple(self.forced))
        return (
            self._rng.getstate(),
            self.draws,
            tuple(self.forced),
            self._hidden.getstate(),
            self.hidden_draws,
        )

    def restore(self, snap: tuple) -> None:
        rng, self.draws, forced = snap[:3]
        self._rng.setstate(rng)
        self.forced = list(forced)
        if len(snap) > 3:
            self._hidden.setstate(snap[3])
            self.hidden_draws = snap[4]

    def state(self) -> dict:
        out = {"seed": self.seed, "draws": self.draws, "forced": list(self.forced)}
        if self.secret:
            out["hidden_draws"] = self.hidden_draws
        return out
