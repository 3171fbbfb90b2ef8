"""Hand-made Tet positions: run to the start of a phase, edit the position, then let the phase run."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from wargames.testing import Passive, stop_at  # noqa: F401  (Passive: ends every phase without acting)
from wargames.tet import TetGame


def tet_at(
    phase: str,
    turn: int = 1,
    seed: int = 7,
    edit: Callable[[TetGame], None] | None = None,
    players=None,
    dice: list[int] | None = None,
) -> TetGame:
    """A Tet game stopped just after the phase-start ruling of ``phase`` on ``turn``, edited by ``edit``,
    then run to its next decision.  (Edited positions are for rule tests; they do not replay from saves.)"""
    game = stop_at("tet", phase, turn, seed)
    if edit:
        edit(game)
    if dice:
        game.force_dice(dice)
    game.set_players(players or {})  # who decides from here on (None: the test applies actions itself)
    game.advance("decision")  # to the next decision, whoever makes it
    return game


def clear(game: TetGame, *areas: str) -> None:
    """Send every unit in ``areas`` to the Eliminated box (to build a clean position)."""
    for uid, where in game.loc.items():
        if where in areas:
            game.loc[uid] = "eliminated"


def quiet_board(game: TetGame, area: str) -> None:
    """Empty ``area`` and hide every other NVA/VC unit (off the cities): no battle anywhere else."""
    clear(game, area)
    for u, where in list(game.loc.items()):
        if game.unit(u).faction in ("NVA", "VC") and where != area:
            if game.data.areas[where].kind == "city":
                game.loc[u] = "eliminated"
            game.face_up[u] = False


def put(game: TetGame, uid: str, area: str, face_up: bool | None = None) -> None:
    game.loc[uid] = area
    if face_up is not None:
        game.face_up[uid] = face_up


@pytest.fixture
def units():
    from wargames.tet.data import load_data

    return load_data().units
