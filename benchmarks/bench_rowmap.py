"""Rumor of War map speed (issue #15 "Figures"): the classroom window's map update after a decision, in the
kernel, and the whole theatre map (4,455 hexes) rendered by headless Chromium.  Prints the figures and writes
them to ``benchmarks/results/row_map.md``; not a timed test.

    PYTHONPATH=. python benchmarks/bench_rowmap.py                 # 3 games x 60 decisions, 5 Chromium loads
    PYTHONPATH=. python benchmarks/bench_rowmap.py --decisions 20 --loads 2 --no-write

* **map update after a decision**: ``PlayGame("row", side=...)``; the student's decisions are made by the side's
  built-in player through the action chooser (``chooser.apply``, exactly what Apply does); after each one the
  Walkthrough re-reads the game and patches the map's sources (``RowMapView.update``, the figure is never
  rebuilt).  The figure is ``map.update_times``: the Python work in the kernel (the browser's redraw of the
  patched sources is not included), in wall time and in CPU time (the machine is shared: wall-time outliers are
  other jobs).  Target <= 50 ms.
* **theatre map in Chromium**: ``row_map_figure()`` saved as a standalone page with BokehJS inline (no network),
  opened in Debian's Chromium (headless, through Playwright); the time from navigation start until BokehJS has
  built the document and painted it (``Bokeh.documents[0].is_idle``, then one animation frame).  Target
  <= 3 s.  The classroom window with its hex numbers is measured the same way.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results" / "row_map.md"
CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
WAIT_JS = "() => !!(window.Bokeh && Bokeh.documents && Bokeh.documents.length && Bokeh.documents[0].is_idle)"


def map_updates(decisions: int, seeds: tuple[int, ...]) -> dict[str, float]:
    from wargames.notebook import PlayGame

    times: list[float] = []
    cpu: list[float] = []
    for i, seed in enumerate(seeds):
        side = ("Capitalist", "Communist")[i % 2]
        pg = PlayGame("row", side=side, seed=seed)
        g, w = pg.game, pg.walk
        bot = g.default_player(side)
        w.map.update_times.clear()
        plain = w.map.update

        def timed(plain=plain):
            c0 = time.process_time()
            out = plain()
            cpu.append(time.process_time() - c0)
            return out

        w.map.update = timed
        for _ in range(decisions):
            if g.is_over or g.decision is None:
                break
            w.chooser.apply(bot.choose(g, g.decision))
        times += w.map.update_times
    times.sort()
    cpu.sort()

    def p95(xs: list[float]) -> float:
        return xs[int(0.95 * (len(xs) - 1))]

    return {
        "updates": len(times),
        "median_ms": 1000 * statistics.median(times),
        "p95_ms": 1000 * p95(times),
        "max_ms": 1000 * times[-1],
        "cpu_median_ms": 1000 * statistics.median(cpu),
        "cpu_p95_ms": 1000 * p95(cpu),
        "cpu_max_ms": 1000 * cpu[-1],
    }


def chromium_loads(loads: int) -> dict[str, dict[str, float]]:
    from bokeh.io import save
    from bokeh.resources import INLINE
    from playwright.sync_api import sync_playwright

    from wargames.notebook.rowmap import CLASSROOM, row_map_figure

    out: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        for name, fig in (
            ("theatre", row_map_figure(width=900)),
            ("classroom window", row_map_figure(CLASSROOM, width=1150)),
        ):
            path = Path(tmp) / f"{name.replace(' ', '_')}.html"
            save(fig, str(path), resources=INLINE, title=name)
            times = []
            for _ in range(loads):
                page = browser.new_page(viewport={"width": 1400, "height": 1200})
                t0 = time.perf_counter()
                page.goto(path.as_uri())
                page.wait_for_function(WAIT_JS, timeout=60000, polling=20)
                page.wait_for_function("() => new Promise(r => requestAnimationFrame(() => r(true)))")
                times.append(time.perf_counter() - t0)
                page.close()
            out[name] = {
                "loads": loads,
                "median_s": statistics.median(times),
                "max_s": max(times),
                "html_MB": path.stat().st_size / 1e6,
            }
        browser.close()
    return out


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--decisions", type=int, default=60)
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--loads", type=int, default=5)
    ap.add_argument("--no-write", action="store_true")
    a = ap.parse_args(argv)
    upd = map_updates(a.decisions, tuple(a.seeds))
    print(
        f"map update after a decision: {upd['updates']} updates, wall median {upd['median_ms']:.1f} ms, "
        f"p95 {upd['p95_ms']:.1f} ms, max {upd['max_ms']:.1f} ms; CPU median {upd['cpu_median_ms']:.1f} ms, "
        f"p95 {upd['cpu_p95_ms']:.1f} ms, max {upd['cpu_max_ms']:.1f} ms (target <= 50 ms)"
    )
    loads = chromium_loads(a.loads) if a.loads and os.path.exists(CHROMIUM) else {}
    for name, r in loads.items():
        print(
            f"{name} in Chromium: median {r['median_s']:.2f} s, max {r['max_s']:.2f} s over {r['loads']} loads "
            f"({r['html_MB']:.1f} MB page; target <= 3 s for the theatre)"
        )
    if not a.no_write:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        lines = [
            "# Rumor of War map speed (issue #15 figures)",
            "",
            "Made by `PYTHONPATH=. python benchmarks/bench_rowmap.py` (see its docstring for what is timed).",
            "",
            f"Commit `{commit}`; {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"{dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC; machine shared with other jobs "
            f"(load average {load:.1f}).",
            "",
            "| figure | sample | median | p95 / max | target |",
            "|---|---|---|---|---|",
            f"| classroom window: map update after a decision (kernel, `RowMapView.update`), wall time | "
            f"{upd['updates']} decisions, seeds {' '.join(map(str, a.seeds))} | {upd['median_ms']:.1f} ms | "
            f"{upd['p95_ms']:.1f} / {upd['max_ms']:.1f} ms | <= 50 ms |",
            f"| the same, CPU time of the kernel process | same | {upd['cpu_median_ms']:.1f} ms | "
            f"{upd['cpu_p95_ms']:.1f} / {upd['cpu_max_ms']:.1f} ms | <= 50 ms |",
        ]
        for name, r in loads.items():
            target = "<= 3 s" if name == "theatre" else "-"
            lines.append(
                f"| {name} map rendered in headless Chromium ({r['html_MB']:.1f} MB page, BokehJS inline) "
                f"| {r['loads']} loads | {r['median_s']:.2f} s | - / {r['max_s']:.2f} s | {target} |"
            )
        OUT.write_text("\n".join(lines) + "\n")
        print("written", OUT.relative_to(ROOT))
    return {"update": upd, "chromium": loads}


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
