"""Screenshots of every notebook with a map or chart and of every classroom app, as a student sees them.

    PYTHONPATH=$PWD .venv/bin/python tools/screenshots.py OUTDIR              # everything (slow: runs them all)
    PYTHONPATH=$PWD .venv/bin/python tools/screenshots.py OUTDIR tet/01 apps/row   # only these (substrings)

One Voila server (the repository's classroom template, inline BokehJS, as ``wargames.notebook.app``) runs
each notebook once; headless Chromium (Playwright, Debian's ``chromium``) opens the page at 1400 px wide,
then shrinks the window to projector size (1024x768).  At each size it writes, into OUTDIR:

* ``<name>__<size>__page.png``: the whole page (``__top.png``: the first screen at 1024x768);
* ``<name>__<size>__out<k>.png``: each output that holds a canvas (a map, a board, a chart), as drawn.

``<name>`` is the notebook path with ``/`` turned into ``_`` (``tet_01-map-and-forces``).  Nothing here
is committed; the issue-#19 review looked at these images (see tests/test_map_views.py for the checks
that need no browser).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wargames.notebook.app import voila_command, voila_env  # noqa: E402

NOTEBOOKS = (  # every notebook that draws a map, a board or a chart, then the four apps
    "tet/01-map-and-forces",
    "tet/02-how-combat-works",
    "tet/03-the-whole-offensive",
    "tet/04-play-a-side",
    "tet/05-one-turn-phase-by-phase",
    "yotr/01-map-and-forces",
    "yotr/02-one-game-turn",
    "yotr/04-play-a-side",
    "fitl/01-the-board-and-the-factions",
    "fitl/02-one-card-of-play",
    "fitl/03-a-coup-round",
    "fitl/04-play-a-faction",
    "fitl/05-a-whole-short-game",
    "fitl/06-the-war-in-130-cards",
    "row/01-the-theatre-map",
    "row/04-play-a-side",
    "four-models",
    "apps/tet",
    "apps/yotr",
    "apps/fitl",
    "apps/row",
)
SIZES = {"1400": (1400, 900), "1024": (1024, 768)}
CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_voila(log: Path) -> tuple[subprocess.Popen, int]:
    """A Voila server on the notebooks folder (pages at /voila/render/<path>.ipynb), tracebacks shown."""
    port = _free_port()
    cmd = voila_command(
        str(ROOT / "notebooks"),
        [f"--port={port}", "--Voila.ip=127.0.0.1", "--VoilaConfiguration.show_tracebacks=True"],
    )
    out = open(log, "w")  # noqa: SIM115 - lives as long as the server
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env=voila_env())
    deadline = time.time() + 120
    while time.time() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"voila exited early, see {log}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/voila/static/", timeout=2)
            return proc, port
        except urllib.error.HTTPError:
            return proc, port
        except OSError:
            time.sleep(0.5)
    proc.terminate()
    raise SystemExit("voila did not start")


TALL = """() => Math.max(document.documentElement.scrollHeight,
    ...[...document.querySelectorAll('#rendered_cells')].map(e => e.scrollHeight))"""


def _settle(page, seconds: float = 3.0) -> None:
    """Let the widgets and BokehJS draw (canvas repaints lag behind the widget messages)."""
    try:
        page.locator("canvas").first.wait_for(state="attached", timeout=60000)
    except Exception:  # noqa: BLE001 - a notebook with no canvas (nothing drawn) is reported, not fatal
        print("   (no canvas on the page)")
    page.wait_for_timeout(seconds * 1000)


def _outputs(page):
    """The outputs that hold a canvas (maps, boards, charts); nested outputs count once (outermost)."""
    outs = page.locator(".jp-OutputArea-output").filter(has=page.locator("canvas"))
    keep = []
    for i in range(outs.count()):
        o = outs.nth(i)
        if o.locator(".jp-OutputArea-output").filter(has=page.locator("canvas")).count():
            continue  # an output holding an inner output with the canvas: shoot the inner one
        keep.append(o)
    return keep


def shoot(page, out: Path, name: str, size: str) -> list[Path]:
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    _settle(page)
    files = []
    page.evaluate("window.scrollTo(0, 0)")
    if size == "1024":
        files.append(out / f"{name}__{size}__top.png")
        page.screenshot(path=str(files[-1]))
    # Voila's lab page scrolls inside #rendered_cells, not the document: a window as tall as the content
    # shows all of it (the widths, which decide what is cut off at the frame, stay as they are)
    tall = page.evaluate(TALL)
    page.set_viewport_size({"width": width, "height": min(max(height, tall), 30000)})
    _settle(page, 2.0)
    files.append(out / f"{name}__{size}__page.png")
    page.screenshot(path=str(files[-1]), full_page=True)
    for k, o in enumerate(_outputs(page)):
        files.append(out / f"{name}__{size}__out{k}.png")
        try:
            o.scroll_into_view_if_needed(timeout=10000)
            page.wait_for_timeout(500)
            o.screenshot(path=str(files[-1]), timeout=30000)
        except Exception as exc:  # noqa: BLE001 - report and go on with the next output
            print(f"   output {k}: {exc}")
            files.pop()
    return files


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir", type=Path)
    ap.add_argument("only", nargs="*", help="substrings of notebook paths (default: all)")
    ap.add_argument("--timeout", type=float, default=900, help="seconds to run one notebook")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    args.outdir.mkdir(parents=True, exist_ok=True)
    chosen = [n for n in NOTEBOOKS if not args.only or any(s in n for s in args.only)]
    proc, port = start_voila(args.outdir / "voila.log")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # stopped: still stop the Voila server (finally)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
            for nb in chosen:
                name = nb.replace("/", "_")
                t0 = time.time()
                page = browser.new_page(viewport={"width": 1400, "height": 900})
                page.on("pageerror", lambda e, n=name: print(f"   {n}: page error {e}"))
                try:
                    page.goto(
                        f"http://127.0.0.1:{port}/voila/render/{nb}.ipynb",
                        timeout=args.timeout * 1000,
                        wait_until="load",
                    )
                    files = [f for size in SIZES for f in shoot(page, args.outdir, name, size)]
                    print(f"{nb}: {len(files)} images in {time.time() - t0:.0f} s", flush=True)
                except Exception as exc:  # noqa: BLE001 - one failed notebook must not stop the others
                    print(f"{nb}: FAILED {exc}", flush=True)
                finally:
                    page.close(run_before_unload=True)
            browser.close()
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
