"""Vietnam: Rumor of War: where a game stands, for the analysis board (issue #33; decision R-ANALYSIS).

The deciding number is US Military Victory minus US Unrest (ROW-12.1): the Capitalist margin, the Communist
margin its negative.  Before the end the winner is the one ROW-12.1 would name at the scenario's end now (the
higher total; a tie to the Communist).
"""

from __future__ import annotations

from ..core.standing import Standing, result_winner
from . import victory as V
from .pieces import CAPITALIST, COMMUNIST


def standing(game) -> Standing:
    """ROW-12.1 read now (or the result when the game is over), and the VP difference."""
    s = game.vstate()
    diff = float(s.us_military_victory - s.us_unrest)
    if game.is_over and game.result is not None:
        winner, rule, level = result_winner(game), game.result.rule_id, game.result.title
    else:
        winner, rule, level = V.result(s, final=True).result, "ROW-12.1", "if the scenario ended now"
    return Standing(
        winner=winner,
        margins={CAPITALIST: diff, COMMUNIST: -diff + 0.0},
        rule=rule,
        number="US Military Victory minus US Unrest",
        final=game.is_over,
        level=level,
    )
