"""Real-browser tests of the classroom apps (``notebooks/apps/``) in Voila, as ``wargames.notebook.app``
starts it: with the repository's ``voila.json`` (kernel culling), the "classroom" template and inline
BokehJS.  Debian's Chromium via Playwright; skipped when either is missing.  Screenshots: $ARTIFACTS.

* each app opens on the student's first decision, with the map drawn and no request leaving the machine;
* New game (another side and seed) and Apply change what the panels show;
* a page closed without a goodbye (no ``beforeunload``) leaves an idle kernel that the culler shuts down.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

from .playdrive import drive_play_widget, replica, wait, where
from .test_ui import ART, CHROMIUM, _free_port, _serve, _stop, sync_api

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian chromium not installed"),
]
pytest.importorskip("voila")

from wargames.notebook.app import APPS, ROOT, voila_command, voila_env  # noqa: E402

LOCAL = ("http://127.0.0.1", "data:", "blob:", "about:")
APP_SECRET = "browser-tests"


def _start(target: str, log_name: str, extra: list[str] = (), env: dict[str, str] | None = None):
    ART.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    cmd = voila_command(target, [f"--port={port}", "--Voila.ip=127.0.0.1", *extra])
    log = open(ART / log_name, "w")  # noqa: SIM115 - closed by the caller's _finish
    # the apps deal hidden draws from a secret (notebook.play.play_secret): fixed here so the replica deals the same
    env = {**voila_env({**os.environ, **(env or {})}), "WARGAMES_PLAY_SECRET": APP_SECRET}
    proc = _serve(cmd, f"http://127.0.0.1:{port}/voila/static/", ROOT, log, env=env)
    return proc, port, log


def _finish(proc, log) -> None:
    _stop(proc)
    log.close()


#: the culler's clock for the apps server: an open page is never idle this long while a test drives it, and
#: the last test of this file waits for the kernels of the pages closed without a goodbye to go
CULL_IDLE, CULL_EVERY = 40, 3


@pytest.fixture(scope="module")
def apps_server(tmp_path_factory):
    """One Voila server for the folder of apps (pages at /voila/render/<app>.ipynb): voila.json's settings with
    the culler's clock shortened (the command line beats the file), the class store in a temporary folder and
    the apps' heartbeat pausing after 5 s without a decision (else a page's kernel is never idle before 15
    minutes, ``wargames.notebook.classroom``).  Yields (port, server process)."""
    env = {"WARGAMES_STORE_DIR": str(tmp_path_factory.mktemp("store")), "WARGAMES_BEAT_PAUSE": "5"}
    proc, port, log = _start(
        "notebooks/apps",
        "voila_apps.log",
        [
            f"--MappingKernelManager.cull_idle_timeout={CULL_IDLE}",
            f"--MappingKernelManager.cull_interval={CULL_EVERY}",
        ],
        env,
    )
    yield port, proc
    _finish(proc, log)


def _open(browser, url: str):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    outside: list[str] = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(LOCAL) else None)
    page.goto(url, timeout=180000)
    page.locator("button.jupyter-button:has-text('New game')").first.wait_for(timeout=180000)
    page.locator("canvas").first.wait_for(state="attached", timeout=60000)
    return page, outside


def _where(page) -> str:
    return where(page)


@pytest.mark.parametrize("app", APPS)
def test_app_first_decision_map_clicks_twice_apply_and_back(apps_server, browser, app):
    """Issue #19 for each app: it opens on the student's first decision with the map drawn, the code hidden and
    nothing asked of a CDN; the panel lists every ruling since the student's last decision; Apply changes the
    map, the panel and the decision; a click on a place filters the list to it, twice in a row (click, Show all,
    click); Apply of a filtered choice, then Back twice, returns to each of the student's previous decisions.
    The page closes without a goodbye: the last test sees its kernel culled."""
    port, _server = apps_server
    play = replica(app, lesson=True, secret=APP_SECRET)  # as the app calls it
    page, outside = _open(browser, f"http://127.0.0.1:{port}/voila/render/{app}.ipynb")
    try:
        assert not page.locator("pre:has-text('PlayGame(')").count(), "the app shows its code"
        drive_play_widget(page, page.locator("body"), play, f"app_{app}")
        assert outside == [], f"requests leaving the machine (CDN?): {outside}"
    finally:
        page.close()  # like a lost network or a killed tab: no beforeunload, so no shutdown request


def test_new_game_then_apply_changes_the_panels(apps_server, browser):
    page, _ = _open(browser, f"http://127.0.0.1:{apps_server[0]}/voila/render/tet.ipynb")
    try:
        status = page.locator(".widget-html-content", has_text="You play").first
        sync_api.expect(status).to_contain_text("You play Allied")
        page.locator(".widget-dropdown", has_text="Your side").locator("select").select_option("Communist")
        seed = page.locator(".widget-inline-hbox", has_text="Seed").locator("input").first
        seed.fill("4")
        seed.press("Enter")
        page.locator("button.jupyter-button:has-text('New game')").first.click()
        sync_api.expect(status).to_contain_text("You play Communist", timeout=60000)
        sync_api.expect(status).to_contain_text("seed 4")
        sync_api.expect(
            page.locator(".widget-html-content", has_text="Communist to decide (a person)").first
        ).to_be_visible(timeout=30000)
        page.screenshot(path=str(ART / "app_tet_new_game.png"))
        panel = page.locator(".widget-html-content", has_text="newest first (scroll").first
        sync_api.expect(panel).to_contain_text("Since the start of the game")
        # the new game's panel, not the old one's (Allied, combat): it opens on the Communist movement phase
        sync_api.expect(panel).to_contain_text("Turn 1: phase 1", timeout=30000)
        sync_api.expect(
            page.locator(".widget-html-content", has_text=re.compile(r"^Communist: ")).first
        ).to_be_visible(timeout=30000)
        before = panel.inner_text()
        where_before = _where(page)
        page.locator("button.jupyter-button:has-text('Apply')").first.click()
        sync_api.expect(page.locator(".widget-html-content", has_text="Applied:").first).to_be_visible(
            timeout=60000
        )
        deadline = time.time() + 30
        while panel.inner_text() == before and time.time() < deadline:
            time.sleep(0.3)
        assert panel.inner_text() != before, "Apply: the rulings panel did not change"
        assert re.search(r"Since your last decision: \d+ ruling", panel.inner_text())
        back = page.locator("button.jupyter-button:has-text('Back')").first
        sync_api.expect(back).to_be_enabled(timeout=30000)
        page.screenshot(path=str(ART / "app_tet_applied.png"))
        back.click()
        sync_api.expect(
            page.locator(".widget-html-content", has_text="It is your decision again").first
        ).to_be_visible(timeout=60000)
        assert _where(page) == where_before
        deadline = time.time() + 30  # the panels follow the stepper's message (the map is redrawn first)
        while panel.inner_text() != before and time.time() < deadline:
            time.sleep(0.3)
        assert panel.inner_text() == before, "Back: the rulings panel does not show the position before Apply"
        page.screenshot(path=str(ART / "app_tet_back.png"))
    finally:
        page.close(run_before_unload=True)


#: counts the page's 2D canvas calls and, once ``__wgHook()`` has run, the repaints of each map's primary canvas
#: (the board or hexes under the pieces) and of its overlay canvas
PAINT_COUNTER = """
(() => {
  window.__draws = 0; window.__primary = 0; window.__overlays = 0;
  for (const proto of [window.CanvasRenderingContext2D, window.OffscreenCanvasRenderingContext2D]) {
    if (!proto) continue;
    for (const n of ["fill", "stroke", "fillRect", "strokeRect", "fillText", "strokeText", "drawImage", "beginPath",
                     "moveTo", "lineTo", "arc", "rect", "closePath", "clip", "setLineDash", "measureText"]) {
      const f = proto.prototype[n];
      if (f) proto.prototype[n] = function (...a) { window.__draws++; return f.apply(this, a); };
    }
  }
  window.__wgHook = () => {
    const views = Array.from(Bokeh.index.query(v => v.model.type == "Figure" && v.frame != null));
    for (const v of views) {
      if (v.__wgHooked) continue;
      v.__wgHooked = true;
      const primary = v._paint_primary.bind(v), overlays = v._paint_overlays.bind(v);
      v._paint_primary = (ctx) => { window.__primary++; return primary(ctx); };
      v._paint_overlays = (ctx) => { window.__overlays++; return overlays(ctx); };
    }
    return views.length;
  };
})();
"""


def _under_the_pieces(view) -> tuple:
    """What the map draws on its primary canvas (every layer not on the overlay canvas, hover texts aside, and the
    ranges), from the replica's map: if an Apply leaves it as it was, the browser must not repaint that canvas."""
    from bokeh.models import GlyphRenderer

    fig = view.figure
    layers = {
        r.data_source.name: {k: list(v) for k, v in r.data_source.data.items() if k != "tip"}
        for r in fig.renderers
        if isinstance(r, GlyphRenderer) and r.level != "overlay"
    }
    return layers, (fig.x_range.start, fig.x_range.end, fig.y_range.start, fig.y_range.end)


@pytest.mark.parametrize("app", ["fitl", "row"])
def test_app_apply_repaints_the_pieces_not_the_map_under_them(apps_server, browser, app):
    """Issue #31 item 5: in Fire in the Lake and Rumor of War an Apply (the top choice of the first decision that
    concerns places, as ``benchmarks/bench_app_latency.py`` measures it) repaints only the map's overlay canvas
    (pieces, counts, markers, the decision's hexes), once; the board or the hexes with their numbers and lines
    under it are not repainted (they were, twice on FitL's board; on Rumor of War's whole map when it panned to the
    next decision already in sight): about 8,000 and 10,000 canvas calls before, under 2,500 now.  An Apply that
    shifts Support or Control on FitL's board repaints the board, once."""
    port, _server = apps_server
    play = replica(app, lesson=True, secret=APP_SECRET)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.add_init_script(PAINT_COUNTER)
    try:
        page.goto(f"http://127.0.0.1:{port}/voila/render/{app}.ipynb", timeout=180000)
        page.locator(
            ".widget-html-content", has_text=f"{play.side_box.value} to decide (a person)"
        ).first.wait_for(timeout=180000)
        apply = page.locator("button.jupyter-button:has-text('Apply')").first
        for _ in range(6):  # on to a decision of places, in step with the replica
            if any(a.places for a in play.game.legal_actions()):
                break
            here = where(page.locator("body"))
            apply.click()
            play.walk.chooser.apply_selected()
            page.wait_for_function("(w) => !document.body.innerText.includes(w)", arg=here, timeout=60000)
        page.wait_for_function("() => typeof Bokeh != 'undefined' && window.__wgHook() > 0", timeout=120000)
        quiet = "() => new Promise(r => { let n = -1; const t = () => n == window.__draws ? r() : (n = window.__draws, setTimeout(t, 600)); t(); })"
        page.evaluate(quiet)
        page.evaluate("window.__draws = 0; window.__primary = 0; window.__overlays = 0")
        before = _under_the_pieces(play.walk.map)
        apply.click()
        play.walk.chooser.apply_selected()
        page.locator(".widget-html-content", has_text="Applied:").first.wait_for(timeout=60000)
        page.evaluate(quiet)
        primary, overlays, draws = page.evaluate("[window.__primary, window.__overlays, window.__draws]")
        page.screenshot(path=str(ART / f"app_{app}_apply_paints.png"))
        if (
            _under_the_pieces(play.walk.map) != before
        ):  # Support or Control shifted (FitL): one repaint of the board
            assert primary == 1, f"an Apply repainted the board {primary} times ({draws} canvas calls)"
        else:
            assert primary == 0, f"an Apply repainted the map under the pieces ({draws} canvas calls)"
            assert draws < 2500, draws
        assert overlays == 1, overlays
    finally:
        page.close(run_before_unload=True)


def _kernels(server_pid: int) -> list[int]:
    """The kernel processes started by the server (children running ipykernel)."""
    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            cmd = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, IndexError, ValueError):
            continue
        if ppid == server_pid and "ipykernel" in cmd:
            out.append(int(d.name))
    return out


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to see the kernel processes")
def test_no_kernel_is_left_after_the_pages_close(apps_server):
    """Last in this file: the pages the tests above closed without a goodbye (one per app) left idle kernels,
    which the culler shuts down (voila.json's culling, clock shortened by the fixture)."""
    _port, server = apps_server
    assert wait(lambda: not _kernels(server.pid), CULL_IDLE + 4 * CULL_EVERY + 20), (
        f"kernels left after their pages closed: {_kernels(server.pid)}"
    )
    text = (ART / "voila_apps.log").read_text()
    assert (
        f"Culling kernels with idle durations > {CULL_IDLE} seconds at {CULL_EVERY} second intervals" in text
    )
    assert "Culling kernels even with connected clients" in text  # cull_connected, from voila.json
    assert len(re.findall(r"Culling '\w+' kernel", text)) >= len(APPS)
