"""Click and Apply latency of the four classroom apps in Chromium (issue #31 item 5), as a student meets them.

For each app (``notebooks/apps/<game>.ipynb`` served by Voila as ``wargames.notebook.app`` serves it), in headless
Chromium: open the page at the student's first decision, go on (Apply) to a decision that concerns places, then
  * **click**: a click on a place of the pending decision until the action list shows only the choices that
    concern it ("Showing the N that concern ..."), measured in the page (``performance.now()``);
  * **apply**: Apply of the top choice until the page says "Applied:" and the map has finished redrawing (the last
    canvas draw call before 600 ms of quiet);
  * **draw calls**: canvas 2D calls (fills, strokes, paths, text, images) that one click and one Apply issue;
  * **CPU seconds** per round of the Voila server with its kernels and of the browser, and the load average (the
    machine may be shared: the CPU seconds depend less on the load than the latencies).
Each figure is the median (and worst) of ``--repeat`` rounds (click, Show all; Apply, Back).  The server deals the
apps' hidden draws from a fixed secret and the replica of the game in this process is made as the app makes it
(lesson play), so both are at the same decision; a click that does not filter the list within 60 s is an error.

    .venv/bin/python benchmarks/bench_app_latency.py [--games yotr,tet] [--repeat 5] [--write]

``--write`` puts the figures in ``benchmarks/results/app_latency.md`` under a label (``--label``).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ART = Path(os.environ.get("ARTIFACTS", ROOT / "artifacts"))
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _results import machine, write_section  # noqa: E402

#: counts every 2D canvas call and remembers when the last one happened (injected before the page loads)
COUNTER = """
(() => {
  window.__draws = 0; window.__lastDraw = 0; window.__byName = {};
  const names = ["fill", "stroke", "fillRect", "strokeRect", "fillText", "strokeText", "drawImage", "beginPath",
                 "moveTo", "lineTo", "arc", "rect", "closePath", "clip", "setLineDash", "measureText"];
  for (const proto of [window.CanvasRenderingContext2D, window.OffscreenCanvasRenderingContext2D]) {
    if (!proto) continue;
    for (const n of names) {
      const f = proto.prototype[n];
      if (!f) continue;
      proto.prototype[n] = function (...a) {
        window.__draws++; window.__byName[n] = (window.__byName[n] || 0) + 1; window.__lastDraw = performance.now();
        return f.apply(this, a);
      };
    }
  }
})();
"""

#: wait in the page for a widget text matching ``re`` and give the time it appeared
APPEARS = """([re, t0]) => new Promise((resolve) => {
  const rx = new RegExp(re);
  const seen = () => Array.from(document.querySelectorAll('.widget-html-content')).some(e => rx.test(e.textContent));
  if (seen()) { resolve(performance.now() - t0); return; }
  const obs = new MutationObserver(() => { if (seen()) { obs.disconnect(); resolve(performance.now() - t0); } });
  obs.observe(document.body, {subtree: true, childList: true, characterData: true});
  setTimeout(() => { obs.disconnect(); resolve(-1); }, 60000);
})"""

#: wait until no canvas call for ``quiet`` ms; give the time of the last call and the calls since ``mark``
QUIET = """([t0, mark, quiet]) => new Promise((resolve) => {
  const tick = () => {
    if (performance.now() - Math.max(window.__lastDraw, t0) >= quiet) {
      resolve([Math.max(window.__lastDraw - t0, 0), window.__draws - mark]);
    } else setTimeout(tick, 50);
  };
  tick();
})"""


#: the key of the apps' hidden draws for the server and the replica (as ``tests/browser/test_apps.py`` fixes it):
#: without it a page deals its deck and face-down counters from a fresh secret, the replica names a place of
#: another decision, and the click waits for a filtered list that never comes (the Tet app hung so)
SECRET = "bench-app-latency"


#: true once some drawn Bokeh figure shows data point (x, y)
_SHOWN = """([x, y]) => typeof Bokeh != "undefined" && Array.from(Bokeh.index.query(
  v => v.frame != null && v.model.type == "Figure")).some(v => {
    const xr = v.model.x_range, yr = v.model.y_range;
    return Math.min(xr.start, xr.end) <= x && x <= Math.max(xr.start, xr.end)
      && Math.min(yr.start, yr.end) <= y && y <= Math.max(yr.start, yr.end);
  })"""


def _cpu(kinds: tuple[str, ...]) -> dict[str, float]:
    """CPU seconds (user + system) so far of this process's descendants, by kind: the Voila server with its
    kernels ("voila"), the browser ("chromium")."""
    import psutil

    out = dict.fromkeys(kinds, 0.0)
    for p in psutil.Process().children(recursive=True):
        try:
            name = " ".join(p.cmdline()[:3]).lower()
            t = p.cpu_times()
        except psutil.Error:
            continue
        kind = "chromium" if "chrom" in name else "voila" if ("voila" in name or "kernel" in name) else None
        if kind in out:
            out[kind] += t.user + t.system
    return out


def _measure_app(browser, port: int, game: str, repeat: int) -> dict:
    from tests.browser.playdrive import _SCREEN_POINT, map_target, replica, where

    play = replica(game, lesson=True, secret=SECRET)  # as the app calls it (notebooks/apps/<game>.ipynb)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.add_init_script(COUNTER)
    t_open = time.perf_counter()
    page.goto(f"http://127.0.0.1:{port}/voila/render/{game}.ipynb", timeout=180000)
    side = play.side_box.value
    page.locator(".widget-html-content", has_text=f"{side} to decide (a person)").first.wait_for(
        timeout=180000
    )
    opened = time.perf_counter() - t_open
    apply = page.locator("button.jupyter-button:has-text('Apply')").first
    back = page.locator("button.jupyter-button:has-text('Back')").first
    show_all = page.locator("button.jupyter-button:has-text('Show all')").first
    body = page.locator("body")
    hops = 0
    while not any(a.places for a in play.game.legal_actions()) and hops < 6:  # on to a decision of places
        w = where(body)
        apply.click()
        play.walk.chooser.apply_selected()
        page.wait_for_function("(w) => !document.body.innerText.includes(w)", arg=w, timeout=60000)
        hops += 1
    page.wait_for_timeout(1500)
    _place, point, line = map_target(play)
    clicks, applies, draws, click_draws = [], [], [], []
    cpu0, load0 = _cpu(("voila", "chromium")), os.getloadavg()[0]
    for _ in range(repeat):
        page.wait_for_function(_SHOWN, arg=list(point), timeout=120000)  # the figure is drawn
        body.evaluate(_SCREEN_POINT, list(point))  # scrolls it into view
        page.wait_for_timeout(400)
        xy = body.evaluate(_SCREEN_POINT, list(point))
        page.evaluate(QUIET, [page.evaluate("performance.now()"), 0, 300])
        mark = page.evaluate("window.__draws")
        kinds0 = page.evaluate("({...window.__byName})")
        t0 = page.evaluate("performance.now()")
        page.mouse.click(*xy)
        clicks.append(page.evaluate(APPEARS, [re.escape(line), t0]))
        if clicks[-1] < 0:
            raise RuntimeError(f"{game}: a click on {_place} did not show {line!r} within 60 s")
        click_draws.append(page.evaluate(QUIET, [t0, mark, 300])[1])
        kinds1 = page.evaluate("({...window.__byName})")
        click_kinds = {k: v - kinds0.get(k, 0) for k, v in kinds1.items() if v != kinds0.get(k, 0)}
        show_all.click()
        page.wait_for_function(
            "() => !Array.from(document.querySelectorAll('.widget-html-content')).some(e => e.textContent.includes('Showing the'))",
            timeout=30000,
        )
        page.evaluate(QUIET, [page.evaluate("performance.now()"), 0, 600])
        mark = page.evaluate("window.__draws")
        t0 = page.evaluate("performance.now()")
        apply.click()
        applied = page.evaluate(APPEARS, ["Applied:", t0])
        last, n = page.evaluate(QUIET, [t0, mark, 600])
        applies.append(max(applied, last))
        draws.append(n)
        back.click()
        page.locator(".widget-html-content", has_text="It is your decision again").first.wait_for(
            timeout=60000
        )
        page.evaluate(QUIET, [page.evaluate("performance.now()"), 0, 600])
    cpu1, load1 = _cpu(("voila", "chromium")), os.getloadavg()[0]
    by_name = page.evaluate("window.__byName")
    ART.mkdir(parents=True, exist_ok=True)
    page.locator("canvas").first.scroll_into_view_if_needed()
    page.screenshot(path=str(ART / f"latency_{game}.png"))
    page.close(run_before_unload=True)
    return {
        "by_name": dict(sorted(by_name.items(), key=lambda kv: -kv[1])[:6]),
        "click_kinds": dict(sorted(click_kinds.items(), key=lambda kv: -kv[1])[:6]),
        "game": game,
        "open_s": opened,
        "click_ms": statistics.median(clicks),
        "click_worst_ms": max(clicks),
        "apply_ms": statistics.median(applies),
        "apply_worst_ms": max(applies),
        "draw_calls": int(statistics.median(draws)),
        "click_draws": int(statistics.median(click_draws)),
        "cpu": {k: (cpu1[k] - cpu0[k]) / repeat for k in cpu0},
        "load": (load0, load1),
        "line": line,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default="tet,yotr,fitl,row")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--label", default="latest")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    from tests.browser.test_ui import CHROMIUM, FLAGS, _free_port, _serve, _stop
    from wargames.notebook.app import voila_command, voila_env

    port = _free_port()
    cmd = voila_command("notebooks/apps", [f"--port={port}", "--Voila.ip=127.0.0.1"])
    with open("/tmp/bench_app_latency_voila.log", "w") as log:
        env = {**voila_env(), "WARGAMES_PLAY_SECRET": SECRET}
        proc = _serve(cmd, f"http://127.0.0.1:{port}/voila/static/", ROOT, log, env=env)
        rows = []
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
                for game in args.games.split(","):
                    r = _measure_app(browser, port, game, args.repeat)
                    rows.append(r)
                    print(
                        f"{game:5s} page {r['open_s']:.1f} s | click -> filtered list {r['click_ms']:.0f} ms "
                        f"(worst {r['click_worst_ms']:.0f}) | Apply -> map redrawn {r['apply_ms']:.0f} ms "
                        f"(worst {r['apply_worst_ms']:.0f}) | canvas calls per click {r['click_draws']:,}, "
                        f"per Apply {r['draw_calls']:,} | CPU s per round: kernel+server {r['cpu']['voila']:.2f}, "
                        f"browser {r['cpu']['chromium']:.2f} | load {r['load'][0]:.1f}-{r['load'][1]:.1f}",
                        flush=True,
                    )
                    print("      canvas calls since the page opened, by kind:", r["by_name"], flush=True)
                    print("      canvas calls of the last click, by kind:", r["click_kinds"], flush=True)
                browser.close()
        finally:
            _stop(proc)
    if args.write:
        body = [
            f"## {args.label}\n",
            f"Machine: {machine()}; {args.repeat} rounds per app; headless Chromium (software rendering). "
            "Load average (1 min) at the start and end of each app's rounds; CPU seconds per round (one click, "
            "Show all, one Apply, Back) of the Voila server with its kernels and of the browser.\n",
            "| app | click -> filtered list, median (worst) | Apply -> map redrawn, median (worst) "
            "| canvas calls per click | canvas calls per Apply | CPU s per round: kernel+server, browser | load |",
            "|---|---|---|---|---|---|---|",
        ]
        body += [
            f"| {r['game']} | {r['click_ms']:.0f} ms ({r['click_worst_ms']:.0f}) | {r['apply_ms']:.0f} ms "
            f"({r['apply_worst_ms']:.0f}) | {r['click_draws']:,} | {r['draw_calls']:,} | {r['cpu']['voila']:.2f}, "
            f"{r['cpu']['chromium']:.2f} | {r['load'][0]:.1f}-{r['load'][1]:.1f} |"
            for r in rows
        ]
        write_section(
            ROOT / "benchmarks" / "results" / "app_latency.md",
            "# Click and Apply latency of the classroom apps (benchmarks/bench_app_latency.py)\n",
            args.label,
            "\n".join(body) + "\n",
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
