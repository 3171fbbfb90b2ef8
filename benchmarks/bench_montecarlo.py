"""Monte Carlo scaling (issue #20): the same games on 1 and 2 local processes and on a Dask LocalCluster.

    python benchmarks/bench_montecarlo.py [--game tet] [--games 1000]

Prints the wall time of each way, the speed-up against one process and the speed-up per worker, and checks
that every way gives the same rows (same seeds, same outcomes).  A Dask cluster beyond this machine is used
the same way: ``wargames.montecarlo(game, n, scheduler="tcp://host:8786")``.
"""

from __future__ import annotations

import argparse
import os
import time

import wargames


def main(argv=None) -> list[dict]:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="tet")
    ap.add_argument("--games", type=int, default=1000)
    args = ap.parse_args(argv)
    from dask.distributed import Client, LocalCluster

    rows, frames = [], {}
    for name, kw in (("1 local process", {"workers": 1}), ("2 local processes", {"workers": 2})):
        t = time.perf_counter()
        frames[name] = wargames.montecarlo(args.game, args.games, **kw)
        rows.append({"way": name, "workers": kw["workers"], "seconds": round(time.perf_counter() - t, 1)})
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        t = time.perf_counter()
        frames["Dask LocalCluster, 2 workers"] = wargames.montecarlo(args.game, args.games, client=client)
        rows.append({"way": "Dask LocalCluster, 2 workers", "workers": 2,
                     "seconds": round(time.perf_counter() - t, 1)})
    base = rows[0]["seconds"]
    for r in rows:
        r["speed-up"] = round(base / r["seconds"], 2)
        r["speed-up per worker"] = round(base / r["seconds"] / r["workers"], 2)
    first = next(iter(frames.values())).drop(columns="seconds")
    same = all(f.drop(columns="seconds").equals(first) for f in frames.values())
    import pandas as pd

    print(f"{args.game}: {args.games} games on {os.cpu_count()} cores; same rows every way: {same}")
    print(pd.DataFrame(rows).to_string(index=False))
    return rows


if __name__ == "__main__":
    main()
