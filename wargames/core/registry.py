"""The registry of games: found, not listed (issue #14 item 1).

A game package announces itself with an entry point in the ``wargames.games`` group (``pyproject.toml``:
``[project.entry-points."wargames.games"] tet = "wargames.tet.game:TetGame"``); a plugin or a test may also
call :func:`register`.  Games are imported only when one is loaded, so ``import wargames`` stays fast.
"""

from __future__ import annotations

import importlib
import os
import sys
from functools import cache
from typing import TYPE_CHECKING, Any

from .actions import WargamesError

if TYPE_CHECKING:  # pragma: no cover
    from .engine import Game
    from .gametype import GameType, VictoryFacts

GROUP = "wargames.games"
_REGISTERED: dict[str, str | type] = {}


@cache
def _discovered() -> dict[str, str]:
    from importlib.metadata import entry_points

    return {ep.name: ep.value for ep in entry_points(group=GROUP)}


@cache
def _own() -> dict[str, str]:
    """The games this distribution announces itself, read from the ``entry_points.txt`` of the first
    ``wargames-*.dist-info`` (or ``.egg-info``) on ``sys.path``, the one ``importlib.metadata`` would find first.

    A fast path for :func:`game_class` (issue #21, the first ``load()``): importing ``importlib.metadata`` and
    scanning every installed distribution cost more than the rest of a cached load.  Empty when the package is
    not installed (run from a checkout); :func:`known_games` still scans every distribution."""
    for base in sys.path:
        try:
            names = sorted(os.listdir(base or "."))
        except OSError:
            continue
        for name in names:
            if name.startswith("wargames-") and name.endswith((".dist-info", ".egg-info")):
                return _entry_points_txt(os.path.join(base or ".", name, "entry_points.txt"))
    return {}


def _entry_points_txt(path: str) -> dict[str, str]:
    """The ``name = module:Class`` lines of the ``[wargames.games]`` section of an ``entry_points.txt``."""
    out: dict[str, str] = {}
    try:
        with open(path, encoding="utf-8") as fh:
            section = None
            for line in fh:
                line = line.strip()
                if line.startswith("[") and line.endswith("]"):
                    section = line[1:-1].strip()
                elif section == GROUP and "=" in line and not line.startswith(("#", ";")):
                    name, value = line.split("=", 1)
                    out[name.strip()] = value.strip()
    except OSError:
        return {}
    return out


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


def victory_facts(game: str) -> VictoryFacts:
    """What decides ``game`` (thresholds, the deciding number, where it changes the result), as the game declares it
    with its ``victory_facts`` class method (issue #29 item 4)."""
    cls = game_class(game)
    facts = getattr(cls, "victory_facts", None)
    if facts is None:
        raise WargamesError(
            f"game {game!r} ({cls.__name__}) declares no victory facts (a victory_facts classmethod)"
        )
    return facts()


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
