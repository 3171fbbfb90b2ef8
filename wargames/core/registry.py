"""The registry of games: id -> class, imported only when a game is loaded (keeps import fast)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .actions import WargamesError

if TYPE_CHECKING:  # pragma: no cover
    from .engine import Game

GAMES: dict[str, str] = {
    "tet": "wargames.tet.game:TetGame",
    "yotr": "wargames.yotr.game:YotrGame",
    "fitl": "wargames.fitl.game:FitlGame",
}


def game_class(game: str) -> type[Game]:
    try:
        module, name = GAMES[game].split(":")
    except KeyError:
        raise WargamesError(f"unknown game {game!r}; known games: {', '.join(sorted(GAMES))}") from None
    return getattr(importlib.import_module(module), name)


def scenarios(game: str) -> list[str]:
    from .data import game_dir

    game_class(game)
    return sorted(p.stem for p in (game_dir(game) / "scenarios").glob("*.yaml"))


def load(game: str, scenario: str = "historical", seed: int = 0, **options: Any) -> Game:
    """Start a game: ``wargames.load("tet", scenario="historical", seed=7)``."""
    return game_class(game)(scenario, seed, options)
