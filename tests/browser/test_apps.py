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


@pytest.fixture(scope="module")
def apps_server():
    """One Voila server for the folder of apps (pages at /voila/render/<app>.ipynb)."""
    proc, port, log = _start("notebooks/apps", "voila_apps.log")
    yield port
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


@pytest.mark.parametrize("app", APPS)
def test_app_opens_on_the_students_first_decision_with_a_map(apps_server, browser, app):
    page, outside = _open(browser, f"http://127.0.0.1:{apps_server}/voila/render/{app}.ipynb")
    try:
        assert page.locator(".jupyter-widgets-error-widget").count() == 0, "a widget view failed"
        sync_api.expect(page.locator(".widget-html-content", has_text="(a person)").first).to_be_visible(timeout=30000)
        side = page.locator(".widget-dropdown", has_text="Your side").locator("select").input_value()
        assert f"{side} to decide (a person)" in _where(page)
        assert page.locator("button.jupyter-button:has-text('Apply')").first.is_enabled()
        assert page.locator("button.jupyter-button:has-text('Step')").first.is_disabled()
        assert page.locator("button.jupyter-button:has-text('Back')").first.is_disabled()
        canvas = page.locator("canvas").first
        canvas.scroll_into_view_if_needed()
        deadline = time.time() + 20
        while True:
            canvas.screenshot(path=str(ART / f"app_{app}_map.png"))
            if _drawn(ART / f"app_{app}_map.png") > 20000 or time.time() > deadline:
                break
            time.sleep(0.5)
        assert _drawn(ART / f"app_{app}_map.png") > 20000, "the map is not drawn"
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(ART / f"app_{app}_page.png"))
        assert not page.locator("pre:has-text('PlayGame(')").count(), "the app shows its code"
        assert outside == [], f"requests leaving the machine (CDN?): {outside}"
    finally:
        page.close(run_before_unload=True)


def test_new_game_then_apply_changes_the_panels(apps_server, browser):
    page, _ = _open(browser, f"http://127.0.0.1:{apps_server}/voila/render/tet.ipynb")
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
def test_idle_kernel_of_a_closed_page_is_culled(browser):
    # voila.json's settings, with the culler's clock shortened for the test (command line beats the file)
    proc, port, log = _start("tet", "voila_cull.log", ["--MappingKernelManager.cull_idle_timeout=6",
                                                       "--MappingKernelManager.cull_interval=2"])
    try:
        page, _ = _open(browser, f"http://127.0.0.1:{port}/")
        kernels = _kernels(proc.pid)
        assert len(kernels) == 1, kernels
        page.close()  # like a lost network or a killed tab: no beforeunload, so no shutdown request
        deadline = time.time() + 40
        while _kernels(proc.pid) and time.time() < deadline:
            time.sleep(0.5)
        assert _kernels(proc.pid) == [], "the idle kernel of the closed page was not culled"
        text = (ART / "voila_cull.log").read_text()
        assert "Culling kernels with idle durations > 6 seconds at 2 second intervals" in text
        assert "Culling kernels even with connected clients" in text  # cull_connected, from voila.json
        assert re.search(r"Culling '\w+' kernel", text)
    finally:
        _finish(proc, log)


def _click_row_hex(page, hid: str) -> None:
    """Click the centre of Rumor of War hex ``hid`` on the app's map (the frame sits at the canvas's bottom-left,
    4 px borders, no axes; ``RowMapView`` fixes the frame's size)."""
    import wargames
    from wargames.notebook.rowmap import RowMapView
    from wargames.row.hexmap import centre_xy, parse_hex

    f = RowMapView(wargames.load("row", seed=1)).figure
    x, y = centre_xy(*parse_hex(hid))
    sx = f.frame_width / (f.x_range.end - f.x_range.start)
    sy = f.frame_height / (f.y_range.end - f.y_range.start)
    canvases = page.locator("canvas")
    for i in range(canvases.count()):
        c = canvases.nth(i)
        box = c.bounding_box()
        if box and abs(box["width"] - (f.frame_width + 8)) < 3:
            c.scroll_into_view_if_needed()
            box = c.bounding_box()
            page.mouse.click(box["x"] + 4 + (x - f.x_range.start) * sx,
                             box["y"] + box["height"] - 4 - (-y - f.y_range.start) * sy)
            return
    raise AssertionError("no canvas of the Rumor of War map's size")


def test_row_app_apply_map_clicks_and_back(apps_server, browser):
    """Rumor of War (issue #15 item 4): the student's first decision is pending; Apply changes the map and the
    panel; a click on a hex filters the list to that hex, twice in a row; Back returns to the student's previous
    decision, twice."""
    from .test_ui import _changed

    page, outside = _open(browser, f"http://127.0.0.1:{apps_server}/voila/render/row.ipynb")
    try:
        first = page.locator(".widget-html-content", has_text="Capitalist to decide (a person)").first
        sync_api.expect(first).to_be_visible(timeout=60000)
        where_0 = _where(page)
        assert "declare the HQ mission" in where_0
        panel = page.locator(".widget-html-content", has_text="newest first (scroll").first
        sync_api.expect(panel).to_contain_text("Since the start of the game")
        before = panel.inner_text()
        canvas = page.locator("canvas").first
        canvas.scroll_into_view_if_needed()
        time.sleep(1.0)
        canvas.screenshot(path=str(ART / "app_row_map_0.png"))
        page.evaluate("window.scrollTo(0, 0)")
        page.locator("button.jupyter-button:has-text('Apply')").first.click()
        sync_api.expect(page.locator(".widget-html-content", has_text="Applied:").first).to_be_visible(timeout=60000)
        sync_api.expect(page.locator(".widget-html-content", has_text="a reserve move against this activation").first
                        ).to_be_visible(timeout=60000)
        where_1 = _where(page)
        deadline = time.time() + 30
        while panel.inner_text() == before and time.time() < deadline:
            time.sleep(0.3)
        assert re.search(r"Since your last decision: \d+ ruling", panel.inner_text()), "Apply: panel unchanged"
        assert "Communist Player Turn" in panel.inner_text()
        deadline = time.time() + 20
        while True:  # the map: the Communist activation moved counters and rings the HQs the question concerns
            canvas.screenshot(path=str(ART / "app_row_map_1.png"))
            if _changed(ART / "app_row_map_0.png", ART / "app_row_map_1.png") > 500 or time.time() > deadline:
                break
            time.sleep(0.5)
        assert _changed(ART / "app_row_map_0.png", ART / "app_row_map_1.png") > 500, "Apply: the map did not change"
        prompt = page.locator(".widget-html-content", has_text=re.compile(r"^Capitalist: ")).first
        for k in range(2):  # the same hex twice in a row: it filters each time
            _click_row_hex(page, "2945")
            time.sleep(0.5)
            page.screenshot(path=str(ART / f"app_row_click_{k}.png"))
            sync_api.expect(prompt).to_contain_text("Showing the 1 that concern Hue / Phu Bai (2945)", timeout=30000)
            page.locator("button.jupyter-button:has-text('Show all')").first.click()
            sync_api.expect(prompt).not_to_contain_text("Showing the", timeout=30000)
        _click_row_hex(page, "2945")
        sync_api.expect(prompt).to_contain_text("Showing the 1 that concern Hue / Phu Bai (2945)", timeout=30000)
        page.locator("button.jupyter-button:has-text('Apply')").first.click()
        sync_api.expect(page.locator(".widget-html-content", has_text="Reserve unit for").first
                        ).to_be_visible(timeout=60000)
        back = page.locator("button.jupyter-button:has-text('Back')").first
        for want in (where_1, where_0):
            back.click()
            sync_api.expect(page.locator(".widget-html-content", has_text="It is your decision again").first
                            ).to_be_visible(timeout=60000)
            deadline = time.time() + 30
            while _where(page) != want and time.time() < deadline:
                time.sleep(0.3)
            assert _where(page) == want, "Back did not return to the student's previous decision"
        page.screenshot(path=str(ART / "app_row_back.png"))
        assert outside == [], f"requests leaving the machine (CDN?): {outside}"
    finally:
        page.close(run_before_unload=True)
