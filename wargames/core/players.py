"""Players: anything with ``choose(game, decision) -> action``, and a reason for it.

Bots, the seeded random player, scripted players and a student at the widgets all implement the same
small protocol, so every game can be played by any mix of them.  After ``choose`` the engine reads the
player's ``last_reason`` (:func:`reason_of`) and keeps it in the decision record (``why``): a built-in
player explains every choice in plain words; a person or a random player may leave it empty.

:class:`Bot` is the base of every game's built-in players (issue #14 item 4): a decision carries a
``kind`` and the bot answers it with its ``on_<kind>`` method, or with :meth:`Bot.fallback`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

from .actions import Action, Decision

if TYPE_CHECKING:  # pragma: no cover
    from .engine import Game


@runtime_checkable
class Player(Protocol):
    """The player protocol: ``choose`` one of ``decision.options``; a player that explains itself also sets
    ``last_reason`` (read by :func:`reason_of` right after ``choose``)."""

    def choose(self, game: Game, decision: Decision) -> Action: ...


def reason_of(player: Any) -> str:
    """Why ``player`` made its last choice (its ``last_reason``; "" for a player that gives none)."""
    return str(getattr(player, "last_reason", "") or "")


class Bot:
    """Base of the built-in players of every game: dispatch by decision kind, a seeded tie-break, a reason.

    ``choose`` answers a decision of kind ``k`` with the method ``on_k(game, decision)``; a decision whose kind
    the bot has no method for goes to :meth:`fallback`.  Every answer sets ``last_reason`` (the player
    protocol's reason, kept in the decision record).  ``weighs_options``, when a bot sets it, makes a handler
    run only if the decision offers an option of the kinds it weighs (by decision kind; by default the option
    kind named like the decision): a choice left with nothing but its closing option ("end", "done") then goes
    to :meth:`fallback`, which takes the last option and says so.  The bot's own generator (``rng``, seeded
    from the class name and the game seed unless ``rng_key`` is given) breaks ties, never the game's dice.
    """

    side: str = ""
    #: the reason given by :meth:`fallback`
    fallback_reason: ClassVar[str] = "nothing to decide: the only sensible choice"
    #: decision kind -> option kinds its handler weighs (None: a handler always runs)
    weighs_options: ClassVar[Mapping[str, tuple[str, ...]] | None] = None
    #: draw from ``rng`` even when one option scores best (Tet's bots always have; kept so games replay)
    draw_on_single_best: ClassVar[bool] = False
    #: decision kinds the bot answers with :meth:`fallback` on purpose (it has no ``on_<kind>`` for them)
    fallback_kinds: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, seed: int = 0, *, rng_key: str | None = None):
        self.rng = random.Random(rng_key if rng_key is not None else f"{type(self).__name__}:{seed}")
        self.last_reason = ""

    def choose(self, game: Game, decision: Decision) -> Action:
        handler = self.handler(decision)
        return handler(game, decision) if handler is not None else self.fallback(game, decision)

    def knows(self, kind: str) -> bool:
        """Whether decisions of ``kind`` are ones this bot was written for: it has ``on_<kind>``, or leaves them
        to :meth:`fallback` on purpose (``fallback_kinds``)."""
        return kind in self.fallback_kinds or callable(getattr(self, f"on_{kind}", None))

    def handler(self, decision: Decision) -> Callable[[Game, Decision], Action] | None:
        """The method answering ``decision`` (``on_<kind>``), or None: :meth:`fallback` answers it."""
        method = getattr(self, f"on_{decision.kind}", None)
        if method is None or self.weighs_options is None:
            return method
        wanted = self.weighs_options.get(decision.kind, (decision.kind,))
        return method if any(a.kind in wanted for a in decision.options) else None

    def fallback(self, game: Game, decision: Decision) -> Action:
        """No handler weighs this choice: the last option (the closing one: end, done, pass), said so."""
        self.last_reason = self.fallback_reason
        return decision.options[-1]

    def best(self, scored: list[tuple[Any, Action, str]]) -> Action:
        """The option with the highest score, ties broken by ``rng``; its reason becomes ``last_reason``."""
        top = max(s for s, _, _ in scored)
        best = [(a, why) for s, a, why in scored if s == top]
        pick = best[self.rng.randrange(len(best))] if len(best) > 1 or self.draw_on_single_best else best[0]
        action, self.last_reason = pick
        return action

    def weigh(
        self,
        decision: Decision,
        kind: str,
        score: Callable[[Action], tuple[Any, str] | None],
        closing: tuple[Any, str],
    ) -> Action:
        """:meth:`best` over the decision's options in order: an option of ``kind`` scored by ``score(action)``
        (a value and the reason; None leaves it out), any other option (the closing one: end, hold fire, skip)
        scored ``closing`` (a value and the reason)."""
        scored = []
        for a in decision.options:
            if a.kind != kind:
                scored.append((closing[0], a, closing[1]))
                continue
            got = score(a)
            if got is not None:
                scored.append((got[0], a, got[1]))
        return self.best(scored)

    def first(self, decision: Decision, *kinds: str) -> Action | None:
        """The first option of the first of ``kinds`` the decision offers (None if it offers none)."""
        for kind in kinds:
            for a in decision.options:
                if a.kind == kind:
                    return a
        return None


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
