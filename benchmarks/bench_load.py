"""First ``load()`` of every game and the peak memory of one game (issue #21 targets: <= 150 ms, <= 150 MB).
Writes ``benchmarks/results/load.md``; not a timed test.

    python benchmarks/bench_load.py                              # this checkout, 5 fresh interpreters a case
    python benchmarks/bench_load.py --checkout ../main --label before   # another checkout, same figures
    python benchmarks/bench_load.py --runs 3 --games tet row

Each figure is the median over ``--runs`` fresh interpreters (processor time, ``time.process_time``):

* ``first load()``: ``wargames.load(game, scenario, 0)`` right after ``import wargames``, as
  ``benchmarks/bench_speed.py`` measures it; the imports of the game and the core are inside it.  Two ways:
  Python's bytecode cache off for the checkout (``PYTHONDONTWRITEBYTECODE=1``, and a checkout without
  ``__pycache__``: every wargames module compiled from source, the installed packages from their bytecode; this
  machine's agents' environment) and on (a ``__pycache__`` already written, as after
  ``pip install`` or a first run: what a reader sees);
* ``cold data cache``: the same with an empty parsed-data cache (``WARGAMES_CACHE`` pointing at a fresh
  directory, so every data file is validated again, as on the first run after a change of data or code);
* peak memory of one whole game (load and ``play()``, seed 0): maximum resident set, without and with
  ``tracemalloc`` (whose bookkeeping ``bench_speed.py``'s figure includes), and tracemalloc's peak.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))  # for benchmarks/_results.py
OUT = ROOT / "benchmarks" / "results" / "load.md"

from benchmarks._results import machine, write_section  # noqa: E402

CASES = [
    ("tet", "historical"),
    ("yotr", "historical"),
    ("fitl", "short"),
    ("fitl", "full"),
    ("row", "year-in-i-corps"),
]

LOAD = """
import json, time, wargames
c = time.process_time(); wargames.load({game!r}, {scenario!r}, 0); first = time.process_time() - c
print(json.dumps({{"first_ms": 1000 * first}}))
"""
MEMORY = """
import json, resource, sys, tracemalloc, wargames
if {trace}:
    tracemalloc.start()
g = wargames.load({game!r}, {scenario!r}, 0)
g.play()
peak = tracemalloc.get_traced_memory()[1] if {trace} else 0
print(json.dumps({{"maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3, "traced_mb": peak / 1e6}}))
"""


def _run(checkout: Path, code: str, env: dict[str, str]) -> dict:
    full = {**os.environ, **env, "PYTHONPATH": str(checkout)}
    if not full["PYTHONPYCACHEPREFIX"]:
        del full["PYTHONPYCACHEPREFIX"]
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=full, cwd=checkout
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure(checkout: Path, game: str, scenario: str, runs: int, pycache: Path, data_cache: Path) -> dict:
    code = LOAD.format(game=game, scenario=scenario)
    no_pyc = {"PYTHONDONTWRITEBYTECODE": "1", "PYTHONPYCACHEPREFIX": "", "WARGAMES_CACHE": str(data_cache)}
    pyc = {
        "PYTHONDONTWRITEBYTECODE": "",
        "PYTHONPYCACHEPREFIX": str(pycache / "on"),
        "WARGAMES_CACHE": str(data_cache),
    }
    _run(checkout, code, pyc)  # writes the bytecode and the data cache
    row: dict = {"game": game, "scenario": scenario}
    row["no_pyc_ms"] = statistics.median(_run(checkout, code, no_pyc)["first_ms"] for _ in range(runs))
    row["pyc_ms"] = statistics.median(_run(checkout, code, pyc)["first_ms"] for _ in range(runs))
    cold = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as empty:
            cold.append(_run(checkout, code, {**pyc, "WARGAMES_CACHE": empty})["first_ms"])
    row["cold_ms"] = statistics.median(cold)
    row["maxrss_mb"] = _run(checkout, MEMORY.format(game=game, scenario=scenario, trace=False), pyc)[
        "maxrss_mb"
    ]
    traced = _run(checkout, MEMORY.format(game=game, scenario=scenario, trace=True), pyc)
    row["maxrss_traced_mb"], row["traced_mb"] = traced["maxrss_mb"], traced["traced_mb"]
    return row


def table(rows: list[dict]) -> str:
    lines = [
        "| game | scenario | first load() ms, no bytecode cache | first load() ms, bytecode cached | "
        "first load() ms, cold data cache | max RSS MB | max RSS MB with tracemalloc | tracemalloc peak MB |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['game']} | {r['scenario']} | {r['no_pyc_ms']:.0f} | {r['pyc_ms']:.0f} | "
            f"{r['cold_ms']:.0f} | {r['maxrss_mb']:.0f} | {r['maxrss_traced_mb']:.0f} | "
            f"{r['traced_mb']:.0f} |"
        )
    return "\n".join(lines)


def write(
    label: str, checkout: Path, rows: list[dict], runs: int, loads: tuple[float, float], out: Path
) -> None:
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=checkout, capture_output=True, text=True
    ).stdout.strip()
    stamp = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    body = (
        f"## {label}\n\n{stamp}, commit {commit}, median of {runs} fresh interpreters. Machine: {machine()}; "
        f"load average {loads[0]:.1f} before, {loads[1]:.1f} after.\n\n{table(rows)}\n"
    )
    head = (
        "# First load() and peak memory (issue #21)\n\nMade by `python benchmarks/bench_load.py [--checkout DIR] "
        "--label LABEL` (see its docstring for what each column measures). Targets: first `load()` <= 150 ms, "
        "peak memory of one game <= 150 MB.\n"
    )
    write_section(out, head, label, body)


def main(argv: list[str] | None = None) -> list[dict]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkout", type=Path, default=ROOT, help="the checkout whose wargames is measured")
    ap.add_argument("--games", nargs="*", help="only these games")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--label", default="current")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args(argv)
    checkout = args.checkout.resolve()
    cases = [c for c in CASES if not args.games or c[0] in args.games]
    before = os.getloadavg()[0]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for game, scenario in cases:
            try:
                r = measure(checkout, game, scenario, args.runs, Path(tmp) / "pyc", Path(tmp) / "data")
            except subprocess.CalledProcessError as err:  # e.g. a scenario the other checkout lacks
                print(f"{game} {scenario}: failed ({err.stderr.strip().splitlines()[-1:]})")
                continue
            rows.append(r)
            print(
                f"{game} {scenario}: first load {r['no_pyc_ms']:.0f} ms (no bytecode cache), {r['pyc_ms']:.0f} ms "
                f"(bytecode cached), {r['cold_ms']:.0f} ms (cold data cache); max RSS {r['maxrss_mb']:.0f} MB, "
                f"{r['maxrss_traced_mb']:.0f} MB with tracemalloc",
                flush=True,
            )
    print(table(rows))
    if not args.no_write:
        write(args.label, checkout, rows, args.runs, (before, os.getloadavg()[0]), args.out)
    return rows


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
