"""Hand-made Year of the Rat positions: run to the start of a phase, edit the position, then let it run."""

from __future__ import annotations

from collections.abc import Callable

from wargames.testing import Passive, stop_at  # noqa: F401  (Passive: ends every phase without acting)
from wargames.yotr.game import BOXES, YotrGame


def yotr_at(
    phase: str,
    turn: int = 1,
    seed: int = 7,
    edit: Callable[[YotrGame], None] | None = None,
    players=None,
    dice: list[int] | None = None,
    options=None,
) -> YotrGame:
    """A game stopped just after the phase-start ruling of ``phase`` on ``turn``, edited by ``edit``, then run
    to its next decision.  (Edited positions are for rule tests; they do not replay from saves.)"""
    game = stop_at("yotr", phase, turn, seed, options=options)
    if edit:
        edit(game)
        game.vp = game.vp_function()["total"]
    if dice:
        game.force_dice(dice)
    game.set_players(players or {"Communist": None, "Allied": None})
    game.advance("decision")  # to the next decision, whoever makes it
    return game


def clear(game: YotrGame, keep: tuple[str, ...] = ()) -> None:
    """Take every counter off the map except ``keep`` (supply units stay on their centres)."""
    for uid, where in list(game.loc.items()):
        if where not in BOXES and uid not in keep and not game.is_supply_unit(uid):
            game.place(uid, "removed")


def put(game: YotrGame, uid: str, h: str) -> None:
    game.place(uid, h)


def choose(game: YotrGame, kind: str, **params) -> list:
    """Apply the pending legal action of ``kind`` whose parameters include ``params``."""
    for a in game.legal_actions():
        if a.kind == kind and all(a.get(k) == v for k, v in params.items()):
            return game.apply(a)
    raise AssertionError(f"no {kind} {params} among {[x.label for x in game.legal_actions()][:20]}")
