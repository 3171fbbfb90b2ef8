"""Year of the Rat: where a game stands, for the analysis board (issue #33; decision D-ANALYSIS).

The deciding number is the Communist victory points (YOTR-VIC): the Communist margin is the VP, the Allied
margin its negative.  Before the end the winner is the one the Level of Victory Table (YOTR-VIC-LEVELS) gives
for the VP now.
"""

from __future__ import annotations

from ..core.standing import Standing, result_winner


def standing(game) -> Standing:
    """YOTR-VIC-LEVELS read now (or the result when the game is over), and the Communist VP."""
    if game.is_over and game.result is not None:
        winner, rule, level = result_winner(game), game.result.rule_id, game.result.title
    else:
        row = game.data.level(game.vp)
        winner, rule, level = (row.winner if row.winner in game.sides else None), "YOTR-VIC-LEVELS", row.level
    return Standing(
        winner=winner,
        margins={"Communist": float(game.vp), "Allied": -float(game.vp) + 0.0},
        rule=rule,
        number="Communist victory points",
        final=game.is_over,
        level=level,
    )
