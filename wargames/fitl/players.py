"""Fire in the Lake: simple default players, one per faction, each explaining its choice (``last_reason``).

These are placeholders until the Non-player rules (8.x) are written: they follow the rules, never the
flowcharts.  On a card a faction executes an Operation (with a Special Activity when it may) if one is
offered, else Passes (FITL-2.3.3).  In a Coup Round the US and ARVN Pacify (FITL-6.3.1) and the VC Agitate
(FITL-6.3.2) in the most populous spaces first; forced ARVN Redeploy (FITL-6.4.2) goes to Saigon when it
can; optional moves are declined.  Any other decision (e.g. inside an Operation) is answered by a seeded
random choice, said so in ``last_reason``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.actions import Action, Decision
from ..core.players import Bot

if TYPE_CHECKING:  # pragma: no cover
    from .game import FitlGame

OP_PREFERENCE = ("op_sa", "op", "limited")


class FitlBot(Bot):
    """A rule-following default player for one faction (on the core :class:`~wargames.core.players.Bot`: each
    decision kind has its ``on_<kind>`` answer; any other goes to :meth:`fallback`)."""

    def __init__(self, side: str, seed: int = 0):
        super().__init__(seed, rng_key=f"fitl-bot:{side}:{seed}")
        self.side = side

    def _pop(self, game: FitlGame, a: Action) -> int:
        s = a.get("space") or a.get("dest")
        return game.data.spaces[s].population if s in game.data.spaces else 0

    def on_card(self, game: FitlGame, decision: Decision) -> Action:
        """FITL-2.3.3: an Operation (with a Special Activity when it may) if one is offered, else Pass."""
        opts = decision.options
        for pref in OP_PREFERENCE:
            for a in opts:
                if a.kind == "op" and (("limited" if a["limited"] else "op_sa" if a["sa"] else "op") == pref):
                    self.last_reason = f"an Operation is possible, so {self.side} acts: {a.label}"
                    return a
        a = next(o for o in opts if o.kind == "pass")
        self.last_reason = "no Operation is offered (and Events are not yet playable): Pass for Resources"
        return a

    def on_pivotal(self, game: FitlGame, decision: Decision) -> Action:
        self.last_reason = "Pivotal Event texts are not yet implemented: keep the card"
        return self._done(decision)

    def on_pacify(self, game: FitlGame, decision: Decision) -> Action:
        """FITL-6.3.1 / 6.3.2 (and the withdrawal shift): the most populous space first."""
        steps = [a for a in decision.options if a.kind != "done"]
        best = max(steps, key=lambda a: (self._pop(game, a), a.get("space")))
        self.last_reason = f"the most populous space where Support can move: {best.label}"
        return best

    on_agitate = on_withdraw_shift = on_pacify

    def on_move(self, game: FitlGame, decision: Decision) -> Action:
        """FITL-6.4.2: forced ARVN Redeploy goes to Saigon when it can; other moves: :meth:`fallback`."""
        opts = decision.options
        if decision.rule_id != "FITL-6.4.2":
            return self.fallback(game, decision)
        for a in opts:
            if (
                a.get("dest") == "saigon"
                and a.get("n", 1) > 1
                or a.get("dest") == "saigon"
                and len(opts) <= 2
            ):
                self.last_reason = "forced ARVN Redeploy: all Troops to Saigon"
                return a
        a = max(opts, key=lambda a: (a.get("n", 1), self._pop(game, a)))
        self.last_reason = f"forced ARVN Redeploy to the most populous destination: {a.label}"
        return a

    def on_commit_place(self, game: FitlGame, decision: Decision) -> Action:
        pick = [a for a in decision.options if a.get("space") == "saigon"] or decision.options
        a = max(pick, key=lambda a: a.get("n", 1))
        self.last_reason = "returning US Troops go to Saigon, all at once"
        return a

    def _done(self, decision: Decision) -> Action:
        return [a for a in decision.options if a.kind in ("done", "no_pivotal")][0]

    def fallback(self, game: FitlGame, decision: Decision) -> Action:
        """An optional step is declined; any other choice is a seeded random pick, said so."""
        if any(a.kind in ("done", "no_pivotal") for a in decision.options):
            self.last_reason = "optional step: declined"
            return self._done(decision)
        opts = decision.options
        a = opts[self.rng.randrange(len(opts))]
        self.last_reason = f"no rule of thumb for '{decision.prompt}': picked at random"
        return a
