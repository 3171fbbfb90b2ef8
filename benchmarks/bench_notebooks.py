"""Run time of every notebook, top to bottom (issue #21: each one <= 20 s, the whole suite under nbval <= 3 min).
Writes ``benchmarks/results/notebooks.md``; not a timed test.

    python benchmarks/bench_notebooks.py                         # every notebook under notebooks/
    python benchmarks/bench_notebooks.py notebooks/tet/*.ipynb   # only these
    python benchmarks/bench_notebooks.py --label after --out benchmarks/results/notebooks.md

Each notebook runs in a fresh kernel (``nbclient``, as nbval does, with this checkout first on ``PYTHONPATH``),
from its own folder.  Per notebook: the wall time of the whole run (kernel start included), the processor time
of the kernel (its user + system time, read from ``RUSAGE_CHILDREN`` once the kernel has exited, so the
machine's other work does not count) and the slowest cell (wall).  The load average before and after each
notebook is written next to it: on a shared machine the wall times grow with the load, the processor times
much less.  The kernel's start (about a second of imports) is in both figures.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))  # for benchmarks/_results.py
OUT = ROOT / "benchmarks" / "results" / "notebooks.md"

from benchmarks._results import machine, write_section  # noqa: E402

TARGET_S = 20.0
SUITE_TARGET_S = 180.0


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_one(path: Path, timeout: int = 600) -> dict:
    """Execute one notebook in a fresh kernel; its wall and kernel processor seconds and its slowest cell."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    cell_times: list[tuple[float, int]] = []
    started: dict[int, float] = {}
    client = NotebookClient(
        nb, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )

    def on_start(cell, cell_index, **_):
        started[cell_index] = time.perf_counter()

    def on_done(cell, cell_index, **_):
        if cell_index in started:
            cell_times.append((time.perf_counter() - started.pop(cell_index), cell_index))

    client.on_cell_execute = on_start
    client.on_cell_executed = on_done
    load_before = os.getloadavg()[0]
    cpu0, wall0 = _children_cpu(), time.perf_counter()
    error = ""
    try:
        client.execute()
    except Exception as err:  # noqa: BLE001 - a failing notebook is reported, the others still run
        error = f"{type(err).__name__}: {str(err).strip().splitlines()[-1] if str(err).strip() else ''}"[:160]
    wall = time.perf_counter() - wall0
    time.sleep(0.2)  # let the kernel's exit be reaped so its processor time is counted
    cpu = _children_cpu() - cpu0
    slow = max(cell_times) if cell_times else (0.0, -1)
    return {
        "notebook": str(path.relative_to(ROOT)),
        "wall_s": wall,
        "cpu_s": cpu,
        "slowest_cell_s": slow[0],
        "slowest_cell": slow[1],
        "cells": len(nb.cells),
        "load_before": load_before,
        "load_after": os.getloadavg()[0],
        "error": error,
    }


def table(rows: list[dict]) -> str:
    lines = [
        "| notebook | wall s | kernel CPU s | slowest cell (index: wall s) | load before / after | "
        f"<= {TARGET_S:.0f} s | error |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        ok = "yes" if r["cpu_s"] <= TARGET_S and not r["error"] else "NO"
        lines.append(
            f"| {r['notebook']} | {r['wall_s']:.1f} | {r['cpu_s']:.1f} | {r['slowest_cell']}: "
            f"{r['slowest_cell_s']:.1f} | {r['load_before']:.1f} / {r['load_after']:.1f} | {ok} | "
            f"{r['error']} |"
        )
    wall, cpu = sum(r["wall_s"] for r in rows), sum(r["cpu_s"] for r in rows)
    lines.append(
        f"| **all {len(rows)}** | **{wall:.0f}** | **{cpu:.0f}** | | | suite <= {SUITE_TARGET_S:.0f} s: "
        f"{'yes' if cpu <= SUITE_TARGET_S else 'NO'} (CPU) | |"
    )
    return "\n".join(lines)


def write(label: str, rows: list[dict], out: Path) -> None:
    """(Re)write the ``## label`` section of ``out``, keeping the others."""
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    stamp = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    body = (
        f"## {label}\n\n{stamp}, commit {commit}. Machine: {machine()}. Each notebook in a fresh kernel "
        f"(nbclient), one after another.\n\n{table(rows)}\n"
    )
    head = (
        "# Notebook run times (issue #21)\n\nMade by `python benchmarks/bench_notebooks.py --label LABEL`. "
        f"Targets: each notebook <= {TARGET_S:.0f} s top to bottom, the whole suite under nbval <= "
        f"{SUITE_TARGET_S / 60:.0f} min. Wall seconds include the kernel's start and the machine's other work "
        "(the load average is shown); kernel CPU seconds are the kernel process's own processor time, and "
        "the `<= 20 s` column judges them (on a shared machine the wall time measures the other agents' work "
        "more than the notebook's; on an idle machine a notebook's wall time is close to its kernel CPU time plus "
        "about a second).\n"
    )
    write_section(out, head, label, body)


def main(argv: list[str] | None = None) -> list[dict]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("notebooks", nargs="*", type=Path, help="default: every notebooks/**/*.ipynb")
    ap.add_argument("--label", default="current")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args(argv)
    os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    paths = [p.resolve() for p in args.notebooks] or sorted((ROOT / "notebooks").rglob("*.ipynb"))
    paths = [p for p in paths if ".ipynb_checkpoints" not in p.parts]
    rows = []
    for p in paths:
        r = run_one(p)
        rows.append(r)
        print(
            f"{r['notebook']}: wall {r['wall_s']:.1f} s, kernel CPU {r['cpu_s']:.1f} s, slowest cell "
            f"{r['slowest_cell']} {r['slowest_cell_s']:.1f} s, load {r['load_before']:.1f}"
            + (f"  ERROR {r['error']}" if r["error"] else ""),
            flush=True,
        )
    print(table(rows))
    if not args.no_write:
        write(args.label, rows, args.out)
    return rows


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
