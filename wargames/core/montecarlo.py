"""Monte Carlo over seeds, once for every game (issue #14 item 4), on local processes or a Dask cluster
(issue #20).

    import wargames
    frame = wargames.montecarlo("yotr", games=200, workers=2)          # one row per game
    frame.winner.value_counts(normalize=True)
    wargames.montecarlo("tet", 1000, scheduler="tcp://10.0.0.5:8786")  # a Dask cluster beyond this machine

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


def play_one(
    seed: int,
    game: str,
    scenario: str | None,
    options: Mapping[str, Any],
    players: Callable[[Any], Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """One whole game with ``seed``; its outcome row."""
    from .registry import load

    g = load(game, scenario, seed, **dict(options))
    if players is not None:
        g.set_players(players(g))
    g.without_copies()  # played to the end and dropped: its checkpoints need no copy of the state (issue #33)
    t = time.perf_counter()
    g.play()
    return {"seed": seed, **g.outcome(), "seconds": round(time.perf_counter() - t, 3)}


def montecarlo(
    game: str,
    games: int = 100,
    *,
    scenario: str | None = None,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    workers: int = 1,
    players: Callable[[Any], Mapping[str, Any]] | None = None,
    seeds: Iterable[int] | None = None,
    client: Any = None,
    scheduler: str | None = None,
    progress: bool | Callable[[int, int], None] = False,
) -> pd.DataFrame:
    """Play ``games`` games of ``game`` (seeds ``seed`` .. ``seed + games - 1``, or the given ``seeds``) and
    return one row per game, in seed order.

    Where they run: in this process (``workers=1``), in ``workers`` local processes, or on a Dask cluster
    given as a ``dask.distributed.Client`` (``client``) or a scheduler address (``scheduler``).  The rows
    are the same whatever runs them.  ``progress``: True writes a progress line on the terminal; a function
    is called with (done, total) after each game (``wargames.notebook.progress_bar()`` in a notebook)."""
    import pandas as pd

    todo = list(seeds) if seeds is not None else list(range(seed, seed + games))
    fn = partial(play_one, game=game, scenario=scenario, options=dict(options or {}), players=players)
    report = _progress(progress, len(todo))
    if client is not None or scheduler is not None:
        rows = _on_dask(fn, todo, client, scheduler, report)
    elif workers <= 1 or len(todo) <= 1:
        rows = []
        for s in todo:
            rows.append(fn(s))
            report(len(rows))
    else:
        _warm(game, scenario, options or {})
        with ProcessPoolExecutor(workers) as pool:
            rows = []
            for row in pool.map(fn, todo, chunksize=max(1, len(todo) // (workers * 8))):
                rows.append(row)
                report(len(rows))
    report(len(todo), final=True)
    return pd.DataFrame(rows)


def _warm(game: str, scenario: str | None, options: Mapping[str, Any]) -> None:
    """Import the game and read its data here once when the workers are forked copies of this process (the
    ``fork`` start method, Linux's default): each worker then starts with them instead of paying a first
    ``load()`` of its own (issue #21, the fixed cost of a Monte Carlo run)."""
    import multiprocessing

    method = multiprocessing.get_start_method(allow_none=True) or multiprocessing.get_all_start_methods()[0]
    if method == "fork":
        from .registry import load

        load(game, scenario, 0, **dict(options))


def _on_dask(
    fn: Callable[[int], dict[str, Any]],
    seeds: list[int],
    client: Any,
    scheduler: str | None,
    report: Callable[..., None],
) -> list[dict[str, Any]]:
    """Seeds in chunks on a Dask cluster (about eight chunks a worker thread, so a task is many games and the
    scheduling and transfer of each task are paid a few dozen times, not once a game; issue #21); the rows
    gathered back in seed order."""
    from dask.distributed import Client, as_completed

    own = client is None
    if own:
        client = Client(scheduler)
    try:
        threads = sum(client.nthreads().values()) or 1
        size = max(1, len(seeds) // (threads * 8))
        chunks = [seeds[i : i + size] for i in range(0, len(seeds), size)]
        futures = client.map(partial(_play_chunk, fn), chunks, pure=False)
        sizes = {f.key: len(c) for f, c in zip(futures, chunks, strict=True)}
        done = 0
        for fut in as_completed(futures):
            done += sizes[fut.key]
            report(done)
        return [row for rows in client.gather(futures) for row in rows]
    finally:
        if own:
            client.close()


def _play_chunk(fn: Callable[[int], dict[str, Any]], seeds: list[int]) -> list[dict[str, Any]]:
    """One Dask task: the games of a few seeds, one after another."""
    return [fn(s) for s in seeds]


def _progress(
    progress: bool | Callable[[int, int], None], total: int, unit: str = "games"
) -> Callable[..., None]:
    """A progress reporter: a callback ``(done, total)`` (in a notebook, ``wargames.notebook.progress_bar()``
    draws a bar; the core never imports widgets), a line on the terminal for True (``done/total <unit>``), or
    nothing.  Also the replays' reporter of :mod:`wargames.core.analysis`."""
    if callable(progress):
        return lambda done, final=False: progress(done, total)
    if not progress:
        return lambda done, final=False: None
    import sys

    step = max(1, total // 20)

    def to_line(done: int, final: bool = False) -> None:
        if final or done % step == 0:
            sys.stderr.write(f"\r{done}/{total} {unit}")
            if final:
                sys.stderr.write("\n")
            sys.stderr.flush()

    return to_line
