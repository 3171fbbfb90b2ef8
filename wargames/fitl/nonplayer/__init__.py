"""Fire in the Lake Non-player factions (rules 8.0-8.9, except the per-card Event instructions of 8.4.x).

``NonPlayer(faction)`` builds the Non-player for ``"US"``, ``"ARVN"``, ``"NVA"`` or ``"VC"``: a player object
(``choose(game, decision) -> Action``, ``last_reason``) that answers every decision by that faction's flowchart.
``nonplayer_for(faction)`` is the same (for ``FitlGame.default_player``).  Every choice's reason names the step
of the flowchart (FITL-8.5 VC, FITL-8.6 NVA, FITL-8.7 ARVN, FITL-8.8 US) or the shared priority (FITL-8.1.2,
FITL-8.1.3, FITL-8.2, FITL-8.3) that chose it.

Wiring (the lead's ``game.py``)::

    def default_player(self, side: str) -> Player:
        from .nonplayer import nonplayer_for
        return nonplayer_for(side, self.seed)

or per game: ``game.set_players({f: NonPlayer(f) for f in game.sides})``.  A Non-player keeps no game state of
its own except the US Policy rolled at a Commitment (decision F-77) and small per-Operation notes; its rolls
never touch ``game.dice`` (decision F-71).
"""

from __future__ import annotations

from .arvn import ArvnNonPlayer
from .base import NonPlayerBase, Plan
from .nva import NvaNonPlayer
from .us import UsNonPlayer
from .vc import VcNonPlayer

CLASSES: dict[str, type[NonPlayerBase]] = {
    "ARVN": ArvnNonPlayer,
    "NVA": NvaNonPlayer,
    "US": UsNonPlayer,
    "VC": VcNonPlayer,
}


def NonPlayer(faction: str, seed: int = 0) -> NonPlayerBase:  # noqa: N802 - a factory named like the class
    """FITL-8.0: the Non-player of ``faction``."""
    try:
        cls = CLASSES[faction]
    except KeyError:
        raise ValueError(f"no Non-player for {faction!r}; factions are {sorted(CLASSES)}") from None
    return cls(faction, seed)


def nonplayer_for(faction: str, seed: int = 0) -> NonPlayerBase:
    """FITL-8.0: the Non-player for ``FitlGame.default_player(side)``."""
    return NonPlayer(faction, seed)


__all__ = ["CLASSES", "NonPlayer", "NonPlayerBase", "Plan", "nonplayer_for"]
