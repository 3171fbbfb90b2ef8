"""The registry of games: found, not listed (issue #14 item 1).

A game package announces itself with an entry point in the ``wargames.games`` group (``pyproject.toml``:
``[project.entry-points."wargames.games"] tet = "wargames.tet.game:TetGame"``); a plugin or a test may also
call :func:`register`.  Games are imported only when one is loaded, so ``import wargames`` stays fast.
"""

from __future__ import annotations

import importlib
from functools import cache
from importlib.metadata import PackageNotFoundError, distribution, entry_points
from typing import TYPE_CHECKING, Any

from .actions import WargamesError

if TYPE_CHECKING:  # pragma: no cover
    from .engine import Game
    from .gametype import GameType

GROUP = "wargames.games"
_REGISTERED: dict[str, str | type] = {}


@cache
def _discovered() -> dict[str, str]:
    return {ep.name: ep.value for ep in entry_points(group=GROUP)}


@cache
def _own() -> dict[str, str]:
    """The games this distribution announces itself: reading its one ``entry_points.txt`` is quicker than
    scanning every installed distribution (issue #21, the first ``load()``)."""
    try:
        return {ep.name: ep.value for ep in distribution("wargames").entry_points if ep.group == GROUP}
    except PackageNotFoundError:  # run from a checkout that is not installed
        return {}


def register(game_id: str, target: str | type) -> None:
    """Make a game loadable by id: ``target`` is a Game subclass or ``"module:Class"``."""
    _REGISTERED[game_id] = target


def unregister(game_id: str) -> None:
    _REGISTERED.pop(game_id, None)


def known_games() -> dict[str, str | type]:
    """Every game id and where its class is (entry points, then registrations)."""
    return {**_discovered(), **_REGISTERED}


def game_class(game: str) -> type[Game]:
    target = _REGISTERED.get(game) or _own().get(game)  # a registration wins, as in known_games()
    if target is None:
        games = known_games()
        try:
            target = games[game]
        except KeyError:
            raise WargamesError(f"unknown game {game!r}; known games: {', '.join(sorted(games))}") from None
    if isinstance(target, type):
        return target
    module, name = target.split(":")
    return getattr(importlib.import_module(module), name)


def game_type(game: str) -> GameType:
    return game_class(game).facts()


def scenarios(game: str) -> list[str]:
    from .data import game_dir

    cls = game_class(game)
    custom = getattr(cls, "scenario_ids", None)
    if custom is not None:
        return sorted(custom())
    return sorted(p.stem for p in (game_dir(game) / "scenarios").glob("*.yaml"))


def load(game: str, scenario: str | None = None, seed: int = 0, **options: Any) -> Game:
    """Start a game: ``wargames.load("tet", scenario="historical", seed=7)`` (no scenario: the game's default)."""
    cls = game_class(game)
    return cls(scenario or cls.default_scenario, seed, options)
