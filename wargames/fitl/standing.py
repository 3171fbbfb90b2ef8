"""Fire in the Lake: where a game stands, for the analysis board (issue #33; decision F-ANALYSIS).

The deciding number is each faction's margin of FITL-7.3 (victory marker minus threshold).  Before the end the
winner is the party FITL-7.1 ranks first if the game ended now (highest margin, ties as the rules break them).
"""

from __future__ import annotations

from ..core.standing import Standing, result_winner


def standing(game) -> Standing:
    """FITL-7.1 / 7.3 read now (or the result when the game is over), and the four margins."""
    margins = {f: float(m) for f, m in game.margins().items()}
    if game.is_over and game.result is not None:
        winner, rule, level = result_winner(game), game.result.rule_id, game.result.title
    else:
        first = game.ranking(final=True)[0]
        winner, rule, level = first, "FITL-7.3", "if the game ended now"
    return Standing(
        winner=winner,
        margins={s: margins.get(s, 0.0) for s in game.sides},
        rule=rule,
        number="victory margin (marker minus threshold)",
        final=game.is_over,
        level=level,
    )
