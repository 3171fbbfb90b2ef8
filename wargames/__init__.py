"""wargames: play through and take apart four published wargames about the Vietnam War.

    import wargames
    game = wargames.load("tet", scenario="historical", seed=7)
    game.legal_actions(); game.apply(...); game.advance("phase"); game.undo()

The rules (``wargames.core`` and the game packages) never import Bokeh or ipywidgets; the notebook kit
(``wargames.notebook``) does.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"


def load(game: str, scenario: str | None = None, seed: int = 0, **options: Any):
    """Start a game at its first decision: ``wargames.load("tet", "historical", seed=7)``."""
    from .core.registry import load as _load

    return _load(game, scenario, seed, **options)


def open_save(source: Any):
    """Open a save written by ``game.save(path)`` (a path or the returned dict)."""
    from .core.saves import open_save as _open

    return _open(source)


def montecarlo(game: str, games: int = 100, **kw: Any):
    """Bot-against-bot games of ``game`` as a DataFrame, one row per seed (see ``wargames.core.montecarlo``)."""
    from .core.montecarlo import montecarlo as _mc

    return _mc(game, games, **kw)


def games() -> list[str]:
    from .core.registry import known_games

    return sorted(known_games())


def scenarios(game: str) -> list[str]:
    from .core.registry import scenarios as _scenarios

    return _scenarios(game)


def analyse(game: Any, candidates: Any = None, **kw: Any):
    """What if? Each candidate action from ``game``'s position played forward by the built-in players, as a
    DataFrame of win shares with 95% intervals (see ``wargames.core.analysis``)."""
    from .core.analysis import analyse as _analyse

    return _analyse(game, candidates, **kw)
