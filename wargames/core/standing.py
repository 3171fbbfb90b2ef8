"""Where a game stands at a moment: who would win and by how much (issue #33, the analysis board).

The analysis board (:mod:`wargames.core.analysis`) plays candidate actions forward to a horizon (the end of the
turn, the season, the game) and must say who did better.  At the end of a game the result says it.  Before the
end, each game reads its own end-of-game victory rule as if the game ended now (decision
``ANALYSIS-STANDING`` in each game's ``decisions.csv``): the winner that rule would name, and each side's margin
(a number that is larger the better the side is doing: victory points, demoralization, marker minus threshold).

A game declares its reading in ``wargames/<game>/standing.py`` as ``standing(game) -> Standing``; a game without
one (the toy games of the tests) is read from its result only.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from .engine import Game


@dataclass(frozen=True)
class Standing:
    """Who wins (a side, or None for a draw or no winner), each side's margin, the rule that decides and the
    name of the deciding number as a student reads it (e.g. "Communist victory points")."""

    winner: str | None
    margins: dict[str, float]
    rule: str
    number: str
    final: bool = False
    level: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def standing(game: Game) -> Standing:
    """The game's own reading (``wargames.<game>.standing``) or, for a game without one, its result: winner and
    the ``margin_*`` of :meth:`~wargames.core.engine.Game.outcome` (no winner and no margins while it runs)."""
    try:
        module = importlib.import_module(f"wargames.{game.game_id}.standing")
    except ModuleNotFoundError:
        module = None
    if module is not None:
        return module.standing(game)
    out = game.outcome()
    winner = out.get("winner")
    margins = {k[len("margin_") :]: float(v) for k, v in out.items() if k.startswith("margin_")}
    return Standing(
        winner=None if winner in (None, "none") else str(winner),
        margins={s: margins.get(s, 0.0) for s in game.sides},
        rule=str(out.get("rule") or ""),
        number="margin",
        final=game.is_over,
        level=str(out.get("level") or ""),
    )


def result_winner(game: Game) -> str | None:
    """The winner named by the game's result (None: a draw, no winner, or the game still runs)."""
    res = game.result
    data = res.result if res is not None and isinstance(res.result, dict) else {}
    w = data.get("winner")
    return None if w in (None, "none") else str(w)
