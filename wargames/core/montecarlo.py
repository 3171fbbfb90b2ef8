"""Monte Carlo over seeds, once for every game (issue #14 item 4; issue #20 adds Dask).

    import wargames
    frame = wargames.montecarlo("yotr", games=200, workers=2)          # one row per game
    frame.winner.value_counts(normalize=True)

Each game is loaded with its seed (``seed``, ``seed + 1``, ...), played to the end by the built-in players
(or by players made by ``players``, a picklable function ``(game) -> {side: Player}``), and reduced to
:meth:`~wargames.core.engine.Game.outcome`: one shape for every game (seed, winner, level, deciding rule,
last turn, seconds, and the final scores and margins as ``score_*`` / ``margin_*`` columns).  Rows come
back in seed order whatever the number of workers, so the same seeds give the same frame.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


def play_one(seed: int, game: str, scenario: str | None, options: Mapping[str, Any],
             players: Callable[[Any], Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """One whole game with ``seed``; its outcome row."""
    from .registry import load

    g = load(game, scenario, seed, **dict(options))
    if players is not None:
        g.set_players(players(g))
    t = time.perf_counter()
    g.play()
    return {"seed": seed, **g.outcome(), "seconds": round(time.perf_counter() - t, 3)}


def montecarlo(game: str, games: int = 100, *, scenario: str | None = None, seed: int = 0,
               options: Mapping[str, Any] | None = None, workers: int = 1,
               players: Callable[[Any], Mapping[str, Any]] | None = None,
               seeds: Iterable[int] | None = None) -> pd.DataFrame:
    """Play ``games`` games of ``game`` (seeds ``seed`` .. ``seed + games - 1``, or the given ``seeds``) and
    return one row per game.  ``workers`` > 1 plays them in that many local processes."""
    import pandas as pd

    todo = list(seeds) if seeds is not None else list(range(seed, seed + games))
    fn = partial(play_one, game=game, scenario=scenario, options=dict(options or {}), players=players)
    if workers <= 1 or len(todo) <= 1:
        rows = [fn(s) for s in todo]
    else:
        with ProcessPoolExecutor(workers) as pool:
            rows = list(pool.map(fn, todo, chunksize=max(1, len(todo) // (workers * 8))))
    return pd.DataFrame(rows)
