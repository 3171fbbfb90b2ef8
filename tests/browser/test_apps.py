"""Real-browser tests of the classroom apps (``notebooks/apps/``) in Voila, as ``wargames.notebook.app``
starts it: with the repository's ``voila.json`` (kernel culling), the "classroom" template and inline
BokehJS.  Debian's Chromium via Playwright; skipped when either is missing.  Screenshots: $ARTIFACTS.

* each app opens on the student's first decision, with the map drawn and no request leaving the machine;
* New game (another side and seed) and Apply change what the panels show;
* a page closed without a goodbye (no ``beforeunload``) leaves an idle kernel that the culler shuts down.
"""

from __future__ import annotations

import html
import os
import re
import time
from pathlib import Path

import pytest

from .test_ui import ART, CHROMIUM, _free_port, _pixels, _serve, _stop, sync_api

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian chromium not installed")]
pytest.importorskip("voila")

from wargames.notebook.app import APPS, ROOT, voila_command, voila_env  # noqa: E402

LOCAL = ("http://127.0.0.1", "data:", "blob:", "about:")


def _start(target: str, log_name: str, extra: list[str] = ()):
    ART.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    cmd = voila_command(target, [f"--port={port}", "--Voila.ip=127.0.0.1", *extra])
    log = open(ART / log_name, "w")  # noqa: SIM115 - closed by the caller's _finish
    proc = _serve(cmd, f"http://127.0.0.1:{port}/voila/static/", ROOT, log, env=voila_env())
    return proc, port, log


def _finish(proc, log) -> None:
    _stop(proc)
    log.close()


#: the culler's clock for the apps server: an open page is never idle this long while a test drives it, and
#: the last test of this file waits for the kernels of the pages closed without a goodbye to go
CULL_IDLE, CULL_EVERY = 40, 3


@pytest.fixture(scope="module")
def apps_server():
    """One Voila server for the folder of apps (pages at /voila/render/<app>.ipynb): voila.json's settings with
    the culler's clock shortened (the command line beats the file).  Yields (port, server process)."""
    proc, port, log = _start("notebooks/apps", "voila_apps.log", [
        f"--MappingKernelManager.cull_idle_timeout={CULL_IDLE}", f"--MappingKernelManager.cull_interval={CULL_EVERY}"])
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


def _drawn(png) -> int:
    """Pixels that are neither white nor near-white: a drawn map has many."""
    a = _pixels(png)
    return int((a.min(axis=-1) < 200).sum())


def _where(page) -> str:
    return page.locator(".widget-html-content", has_text="to decide").first.inner_text()


#: Bokeh's views in the page: the screen point of data point (x, y) on the figure that shows it largest
_SCREEN_POINT = """([x, y]) => {
  let best = null;
  for (const v of Bokeh.index.query(v => v.frame != null && v.model.type == "Figure")) {
    const xr = v.model.x_range, yr = v.model.y_range;
    if (x < Math.min(xr.start, xr.end) || x > Math.max(xr.start, xr.end)) continue;
    if (y < Math.min(yr.start, yr.end) || y > Math.max(yr.start, yr.end)) continue;
    const scale = Math.abs(v.frame.x_scale.compute(x + 1) - v.frame.x_scale.compute(x));
    if (best == null || scale > best[1]) best = [v, scale];
  }
  if (best == null) return null;
  const v = best[0];
  v.el.scrollIntoView({block: "center"});
  const r = v.canvas_view.el.getBoundingClientRect();
  return [r.left + v.frame.x_scale.compute(x), r.top + v.frame.y_scale.compute(y)];
}"""


def _inside(xs: list[float], ys: list[float], x: float, y: float) -> bool:
    """Point in polygon (even-odd rule)."""
    hit = False
    for i in range(len(xs)):
        x1, y1, x2, y2 = xs[i - 1], ys[i - 1], xs[i], ys[i]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def _point_of(shape) -> tuple[float, float] | None:
    """A data point inside a place's drawn shape (``InteractiveMap._place_shape``): a point's centre, or the
    point of the area's outer ring nearest its vertex mean that lies inside it."""
    kind, geo = shape
    if kind == "point":
        return float(geo[0]), float(geo[1])
    xs, ys = geo[0][0][0], geo[1][0][0]
    cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
    if _inside(xs, ys, cx, cy):
        return cx, cy
    w, h = max(xs) - min(xs), max(ys) - min(ys)
    grid = [(min(xs) + w * i / 20, min(ys) + h * j / 20) for i in range(1, 20) for j in range(1, 20)]
    inside = [p for p in grid if _inside(xs, ys, *p)]
    return min(inside, key=lambda p: (p[0] - cx) ** 2 + (p[1] - cy) ** 2) if inside else None


def _replica(app: str):
    """The app's game in this process, as the page opens it (``PlayGame(app, side=<default>, seed=1)``, the call
    in ``notebooks/apps/<app>.ipynb``): same scenario, seed and players, so the same decisions."""
    import gc

    from wargames.notebook.play import DEFAULT_SIDE, PlayGame

    play = PlayGame(app, side=DEFAULT_SIDE[app], seed=1)
    gc.unfreeze()  # PlayGame freezes what is alive for the class's kernels; not wanted in a test worker
    return play


def _map_target(play) -> tuple[str, tuple[float, float], str]:
    """A place of the pending decision to click: one that some but not all legal actions concern, drawn on the
    map; with the data point to click and the filter line the chooser then shows ("Showing the 3 that concern
    Hue (map click)")."""
    from collections import Counter

    walk = play.walk
    acts = walk.game.legal_actions()
    if walk.game.game_id == "row":  # the Rumor of War map draws hexes without a highlight shape: the centre
        from wargames.row.hexmap import centre_xy, parse_hex

        def shape_of(hid: str):
            x, y = centre_xy(*parse_hex(hid))
            return "point", (x, -y, 0)  # the map's y axis points down
    else:
        shape_of = walk.map._place_shape
    counts = Counter(str(p) for a in acts for p in dict.fromkeys(a.places))
    for place, _n in sorted(counts.items(), key=lambda kv: (kv[1] == len(acts), kv[1], kv[0])):
        shape = shape_of(place)
        point = _point_of(shape) if shape is not None else None
        if point is None:
            continue
        walk.chooser.filter_area(place)
        line = html.unescape(re.search(r"Showing the \d+ that concern [^<]*", walk.chooser.prompt.value).group(0))
        walk.chooser.filter_area(None)
        return place, point, line
    raise AssertionError(f"no place of the pending decision is drawn on the map: {sorted(counts)}")


def _click_data_point(page, point: tuple[float, float]) -> None:
    xy = page.evaluate(_SCREEN_POINT, list(point))
    assert xy is not None, f"no figure shows the data point {point}"
    time.sleep(0.3)  # the scroll settles
    xy = page.evaluate(_SCREEN_POINT, list(point))
    page.mouse.click(*xy)


def _panel_lists_every_ruling_since(panel) -> int:
    """The rulings panel says how many rulings came since the student's last decision and shows a card for each
    (plain cards, under the panel's limit of 400)."""
    m = re.search(r"Since (?:your last decision|the start of the game): (\d+) ruling", panel.inner_text())
    assert m, panel.inner_text()[:300]
    n = int(m.group(1))
    assert panel.locator(".wg-ruling").count() == min(n, 400), "the panel does not show every ruling since"
    return n


def _map_shot(page, app: str, tag: str) -> Path:
    """A screenshot of the largest map figure."""
    path = ART / f"app_{app}_map_{tag}.png"
    canvases = page.locator("canvas")
    sizes = [(c.bounding_box() or {"width": 0, "height": 0}) for c in canvases.all()]
    i = max(range(len(sizes)), key=lambda k: sizes[k]["width"] * sizes[k]["height"])
    canvases.nth(i).scroll_into_view_if_needed()
    canvases.nth(i).screenshot(path=str(path))
    return path


def _wait(cond, timeout: float = 30) -> bool:
    deadline = time.time() + timeout
    while not cond():
        if time.time() > deadline:
            return False
        time.sleep(0.3)
    return True


@pytest.mark.parametrize("app", APPS)
def test_app_first_decision_map_clicks_twice_apply_and_back(apps_server, browser, app):
    """Issue #19 for each app: it opens on the student's first decision with the map drawn, the code hidden and
    nothing asked of a CDN; the panel lists every ruling since the student's last decision; Apply changes the
    map, the panel and the decision; a click on a place filters the list to it, twice in a row (click, Show all,
    click); Apply of a filtered choice, then Back twice, returns to each of the student's previous decisions.
    The page closes without a goodbye: the last test sees its kernel culled."""
    from .test_ui import _changed

    port, _server = apps_server
    play = _replica(app)
    page, outside = _open(browser, f"http://127.0.0.1:{port}/voila/render/{app}.ipynb")
    try:
        assert page.locator(".jupyter-widgets-error-widget").count() == 0, "a widget view failed"
        side = page.locator(".widget-dropdown", has_text="Your side").locator("select").input_value()
        first = page.locator(".widget-html-content", has_text=f"{side} to decide (a person)").first
        sync_api.expect(first).to_be_visible(timeout=60000)
        where_0 = _where(page)
        apply = page.locator("button.jupyter-button:has-text('Apply')").first
        back = page.locator("button.jupyter-button:has-text('Back')").first
        assert apply.is_enabled() and back.is_disabled()
        assert page.locator("button.jupyter-button:has-text('Step')").first.is_disabled()
        assert not page.locator("pre:has-text('PlayGame(')").count(), "the app shows its code"
        panel = page.locator(".widget-html-content", has_text="newest first (scroll").first
        sync_api.expect(panel).to_contain_text("Since the start of the game")
        _panel_lists_every_ruling_since(panel)
        before = panel.inner_text()
        assert _wait(lambda: _drawn(_map_shot(page, app, "0")) > 20000, 20), "the map is not drawn"
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(ART / f"app_{app}_page.png"))

        apply.click()  # the top choice, as the replica's
        play.walk.chooser.apply_selected()
        sync_api.expect(page.locator(".widget-html-content", has_text="Applied:").first).to_be_visible(timeout=60000)
        assert _wait(lambda: _where(page) != where_0 and panel.inner_text() != before), "Apply: nothing changed"
        where_1 = _where(page)
        assert re.search(r"Since your last decision: \d+ ruling", panel.inner_text()), "Apply: panel unchanged"
        _panel_lists_every_ruling_since(panel)

        place, point, line = _map_target(play)
        prompt = page.locator(".widget-html-content", has_text=re.compile(rf"^{side}: ")).first
        show_all = page.locator("button.jupyter-button:has-text('Show all')").first
        for k in range(2):  # the same place twice in a row: it filters each time
            _click_data_point(page, point)
            sync_api.expect(prompt).to_contain_text(line, timeout=30000)
            page.screenshot(path=str(ART / f"app_{app}_click_{k}.png"))
            show_all.click()
            sync_api.expect(prompt).not_to_contain_text("Showing the", timeout=30000)
        _click_data_point(page, point)
        sync_api.expect(prompt).to_contain_text(line, timeout=30000)
        apply.click()  # a choice concerning the place clicked
        sync_api.expect(page.locator(".widget-html-content", has_text="Applied:").first).to_be_visible(timeout=60000)
        assert _wait(lambda: _where(page) != where_1), "Apply of the filtered choice: the decision did not change"
        # the map after the two choices (a Fire in the Lake Event changes it only with its first sub-choice)
        assert _wait(lambda: _changed(ART / f"app_{app}_map_0.png", _map_shot(page, app, "2")) > 80, 20), \
            "Apply: the map did not change"

        for want in (where_1, where_0):
            back.click()
            sync_api.expect(page.locator(".widget-html-content", has_text="It is your decision again").first
                            ).to_be_visible(timeout=60000)
            assert _wait(lambda w=want: _where(page) == w), "Back did not return to the student's previous decision"
        _panel_lists_every_ruling_since(panel)
        page.screenshot(path=str(ART / f"app_{app}_back.png"))
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
        sync_api.expect(page.locator(".widget-html-content", has_text="Communist to decide (a person)").first
                        ).to_be_visible(timeout=30000)
        page.screenshot(path=str(ART / "app_tet_new_game.png"))
        panel = page.locator(".widget-html-content", has_text="newest first (scroll").first
        sync_api.expect(panel).to_contain_text("Since the start of the game")
        # the new game's panel, not the old one's (Allied, combat): it opens on the Communist movement phase
        sync_api.expect(panel).to_contain_text("Turn 1: phase 1", timeout=30000)
        sync_api.expect(page.locator(".widget-html-content", has_text=re.compile(r"^Communist: ")).first
                        ).to_be_visible(timeout=30000)
        before = panel.inner_text()
        where_before = _where(page)
        page.locator("button.jupyter-button:has-text('Apply')").first.click()
        sync_api.expect(page.locator(".widget-html-content", has_text="Applied:").first).to_be_visible(timeout=60000)
        deadline = time.time() + 30
        while panel.inner_text() == before and time.time() < deadline:
            time.sleep(0.3)
        assert panel.inner_text() != before, "Apply: the rulings panel did not change"
        assert re.search(r"Since your last decision: \d+ ruling", panel.inner_text())
        back = page.locator("button.jupyter-button:has-text('Back')").first
        sync_api.expect(back).to_be_enabled(timeout=30000)
        page.screenshot(path=str(ART / "app_tet_applied.png"))
        back.click()
        sync_api.expect(page.locator(".widget-html-content", has_text="It is your decision again").first
                        ).to_be_visible(timeout=60000)
        assert _where(page) == where_before
        deadline = time.time() + 30  # the panels follow the stepper's message (the map is redrawn first)
        while panel.inner_text() != before and time.time() < deadline:
            time.sleep(0.3)
        assert panel.inner_text() == before, "Back: the rulings panel does not show the position before Apply"
        page.screenshot(path=str(ART / "app_tet_back.png"))
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
    assert _wait(lambda: not _kernels(server.pid), CULL_IDLE + 4 * CULL_EVERY + 20), \
        f"kernels left after their pages closed: {_kernels(server.pid)}"
    text = (ART / "voila_apps.log").read_text()
    assert f"Culling kernels with idle durations > {CULL_IDLE} seconds at {CULL_EVERY} second intervals" in text
    assert "Culling kernels even with connected clients" in text  # cull_connected, from voila.json
    assert len(re.findall(r"Culling '\w+' kernel", text)) >= len(APPS)
