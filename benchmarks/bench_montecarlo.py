"""Monte Carlo scaling (issue #20): the same games on 1 and 2 local processes and on a Dask LocalCluster.

    python benchmarks/bench_montecarlo.py [--game tet] [--games 1000] [--out benchmarks/results/montecarlo_scaling.md]

Prints the wall time of each way, the speed-up against one process and the speed-up per worker, and checks
that every way gives the same rows (same seeds, same outcomes).  ``--out`` appends the figures to a Markdown
file with the machine they were measured on (CPU, cores, Python, and the load average before and after, since
a shared machine's other work slows every way).  A Dask cluster beyond this machine is used
the same way: ``wargames.montecarlo(game, n, scheduler="tcp://host:8786")``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import wargames

sys.path.append(str(Path(__file__).resolve().parents[1]))  # for benchmarks/_results.py
from benchmarks._results import machine  # noqa: E402


def main(argv=None) -> list[dict]:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="tet")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--out", default=None, help="append the figures and the machine to this Markdown file")
    args = ap.parse_args(argv)
    load_before = _load_average()
    from dask.distributed import Client, LocalCluster

    rows, frames = [], {}
    for name, kw in (("1 local process", {"workers": 1}), ("2 local processes", {"workers": 2})):
        t = time.perf_counter()
        frames[name] = wargames.montecarlo(args.game, args.games, **kw)
        rows.append({"way": name, "workers": kw["workers"], "seconds": round(time.perf_counter() - t, 1)})
    with (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        t = time.perf_counter()
        frames["Dask LocalCluster, 2 workers"] = wargames.montecarlo(args.game, args.games, client=client)
        rows.append(
            {
                "way": "Dask LocalCluster, 2 workers",
                "workers": 2,
                "seconds": round(time.perf_counter() - t, 1),
            }
        )
    base = rows[0]["seconds"]
    for r in rows:
        r["speed-up"] = round(base / r["seconds"], 2)
        r["speed-up per worker"] = round(base / r["seconds"] / r["workers"], 2)
    first = next(iter(frames.values())).drop(columns="seconds")
    same = all(f.drop(columns="seconds").equals(first) for f in frames.values())
    import pandas as pd

    print(f"{args.game}: {args.games} games on {os.cpu_count()} cores; same rows every way: {same}")
    print(pd.DataFrame(rows).to_string(index=False))
    if args.out:
        _write(args.out, args.game, args.games, rows, same, load_before, _load_average())
    return rows


def _load_average() -> str:
    """The 1, 5 and 15 minute load averages (what ``uptime`` prints), or "unknown"."""
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover - not on Windows
        return "unknown"


def _write(path: str, game: str, games: int, rows: list[dict], same: bool, before: str, after: str) -> None:
    import datetime as dt

    when = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        f"## {game}: {games} games, {when}",
        "",
        f"Machine: {machine()}. Load average (1/5/15 min) before: {before}; after: {after}. "
        f"Same rows every way: {same}.",
        "",
        "| way | workers | seconds | speed-up | speed-up per worker |",
        "|---|---|---|---|---|",
    ]
    lines += [
        f"| {r['way']} | {r['workers']} | {r['seconds']} | {r['speed-up']} | {r['speed-up per worker']} |"
        for r in rows
    ]
    with open(path, "a", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n\n")


if __name__ == "__main__":
    main()
