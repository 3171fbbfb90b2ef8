"""Tet Offensive 1968: where a game stands, for the analysis board (issue #33; decision A-ANALYSIS).

The deciding number is the demoralization race of TET-COMP-2 / TET-AIM-3: each faction's score as a share of its
demoralization level, the two Allied factions' shares summed minus the two Communist factions' (in percent of a
level).  Positive: the Communist side is ahead.  Before the end, the winner is the one TET-AIM-3 would name if
the game ended now (the side that has demoralized more enemy factions; none if equal).
"""

from __future__ import annotations

from ..core.standing import Standing, result_winner
from .data import ALLIED, COMMUNIST, SIDE_OF


def demoralization_lead(dem: dict[str, bool]) -> tuple[int, int, str | None]:
    """TET-AIM-3 (decision A-36): how many Communist factions the Allies demoralized, how many Allied factions the
    Communists demoralized, and the side ahead (None: level)."""
    allied_wins = sum(dem[f] for f in COMMUNIST)
    communist_wins = sum(dem[f] for f in ALLIED)
    if allied_wins == communist_wins:
        return allied_wins, communist_wins, None
    return allied_wins, communist_wins, "Allied" if allied_wins > communist_wins else "Communist"


def standing(game) -> Standing:
    """TET-AIM-3 read now (or the result when the game is over), and the demoralization race."""
    levels = {f: row.demoralization_level for f, row in game.data.factions.items()}
    share = {f: 100.0 * game.score[f] / levels[f] for f in game.score}
    race = sum(share[f] for f in ALLIED) - sum(share[f] for f in COMMUNIST)
    margins = {}
    for side in game.sides:
        team = SIDE_OF.get(side, side)
        margins[side] = round(race if team == "Communist" else -race, 2) + 0.0
    if game.is_over and game.result is not None:
        winner, rule, level = result_winner(game), game.result.rule_id, game.result.title
    else:
        dem = game.demoralized()
        _, _, winner = demoralization_lead(dem)
        rule, level = "TET-AIM-3", "if the game ended now"
    if winner is not None and winner not in game.sides:  # the four-player game: the side's factions share it
        winner = next((s for s in game.sides if SIDE_OF.get(s) == winner), winner)
    return Standing(
        winner=winner,
        margins=margins,
        rule=rule,
        number="Communist lead in demoralization (% of a level)",
        final=game.is_over,
        level=level,
    )
