"""The classroom apps at projector size (issue #19 item 6), in Debian's Chromium via Playwright: at 1024x768
the page itself scrolls (the mouse wheel, the keys and the scroll bar move the page, not a box inside it) and
every canvas (the maps) fits inside the window's width, nothing cut at its right edge.
``tools/screenshots.py`` takes the pictures a person looks at; this checks what can be measured."""

from __future__ import annotations

import os

import pytest

from .test_apps import _finish, _start
from .test_ui import ART, CHROMIUM

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian chromium not installed"),
]
pytest.importorskip("voila")

from wargames.notebook.app import APPS  # noqa: E402

PROJECTOR = {"width": 1024, "height": 768}


@pytest.fixture(scope="module")
def layout_server():
    proc, port, log = _start("notebooks/apps", "voila_layout.log")
    yield port
    _finish(proc, log)


@pytest.mark.parametrize("app", APPS)
def test_app_page_scrolls_as_a_whole_and_its_maps_fit_a_projector(layout_server, browser, app):
    page = browser.new_page(viewport=PROJECTOR)
    try:
        page.goto(f"http://127.0.0.1:{layout_server}/voila/render/{app}.ipynb", timeout=180000)
        page.locator("button.jupyter-button:has-text('New game')").first.wait_for(timeout=180000)
        page.locator("canvas").first.wait_for(state="attached", timeout=60000)
        page.wait_for_timeout(1500)
        tall, window, wide = page.evaluate(
            "[document.documentElement.scrollHeight, window.innerHeight, "
            "document.documentElement.scrollWidth]"
        )
        assert tall > window, "the page does not scroll: the content scrolls inside a box"
        assert (
            page.evaluate("getComputedStyle(document.getElementById('rendered_cells')).overflowY")
            == "visible"
        )
        assert wide <= PROJECTOR["width"], f"the page is {wide} px wide"
        page.evaluate("window.scrollTo(0, 400)")
        assert page.evaluate("window.scrollY") == 400, "window.scrollTo does not move the page"
        canvases = page.locator("canvas")
        right = []
        for i in range(canvases.count()):
            box = canvases.nth(i).bounding_box()
            if box and box["width"] > 100:
                right.append(box["x"] + box["width"])
        assert right and max(right) <= PROJECTOR["width"], f"a map reaches x = {max(right):.0f} px"
        ART.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ART / f"app_{app}_1024.png"))
    finally:
        page.close(run_before_unload=True)
