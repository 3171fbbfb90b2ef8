"""Players: anything with ``choose(game, decision) -> action``.

Bots, the seeded random player, scripted players and a student at the widgets all implement the same
small protocol, so every game can be played by any mix of them.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from .actions import Action, Decision

if TYPE_CHECKING:  # pragma: no cover
    from .engine import Game


@runtime_checkable
class Player(Protocol):
    def choose(self, game: Game, decision: Decision) -> Action: ...


class RandomPlayer:
    """Picks uniformly among the legal actions with its own seeded generator (not the game's dice)."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(f"random-player:{seed}")

    def choose(self, game: Game, decision: Decision) -> Action:
        return decision.options[self.rng.randrange(len(decision.options))]

    def __repr__(self) -> str:
        return "RandomPlayer()"


class ScriptedPlayer:
    """Plays a fixed list of actions (by label or Action), then falls back to another player."""

    def __init__(self, actions: Iterable[Action | str], fallback: Player | None = None):
        self.actions = list(actions)
        self.fallback = fallback

    def choose(self, game: Game, decision: Decision) -> Action:
        if self.actions:
            nxt = self.actions.pop(0)
            if isinstance(nxt, Action):
                return nxt
            for option in decision.options:
                if option.label == nxt:
                    return option
            raise ValueError(f"scripted action {nxt!r} is not legal now ({decision.prompt})")
        if self.fallback is None:
            raise ValueError("the script has run out of actions")
        return self.fallback.choose(game, decision)
