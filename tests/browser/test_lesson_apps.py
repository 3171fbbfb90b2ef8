"""Lesson-sized play in the four classroom apps (issue #31 item 1), in Debian's Chromium via Playwright, at a
1366x768 laptop screen and a 1920x1080 classroom screen: the Advisor's plan appears as a list of orders, an
order unticked is not given, Confirm plan moves the game on and Back takes the whole plan back; unticking the
pending kind of decision in "Who decides what" lets the Advisor make it at once.  A replica of the app's game
(``playdrive.replica``) says what each step must show.  Screenshots: ``$ARTIFACTS/lesson_<app>_<size>_*.png``.
"""

from __future__ import annotations

import os
import re

import pytest

from .playdrive import replica, wait
from .test_apps import APP_SECRET, _finish, _start
from .test_ui import ART, CHROMIUM, sync_api

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian chromium not installed"),
]
pytest.importorskip("voila")

from wargames.core.lesson import kind_name  # noqa: E402
from wargames.notebook.app import APPS  # noqa: E402

SIZES = {"1366": {"width": 1366, "height": 768}, "1920": {"width": 1920, "height": 1080}}


@pytest.fixture(scope="module")
def lesson_server():
    proc, port, log = _start("notebooks/apps", "voila_lesson.log")
    yield port
    _finish(proc, log)


def where(page) -> str:
    """The stepper's line (turn, phase, who decides), also once the game is over."""
    line = page.locator(".widget-html-content", has_text=re.compile(r"to decide|the game is over")).first
    return line.inner_text(timeout=30000)


def _button(page, text: str):
    return page.locator(".wg-lesson button.jupyter-button", has_text=text).first


def _plan_and_confirm(page, play, tag: str) -> None:
    """Advisor's plan: as many orders as the replica's; untick the second; Confirm plan; Back."""
    before = where(page)
    _button(page, "Advisor's plan").click()
    plan = play.panel.show_plan()
    boxes = page.locator(".wg-plan .wg-order input[type=checkbox]")
    assert wait(lambda: boxes.count() == len(plan.orders), 60), (boxes.count(), len(plan.orders))
    first = page.locator(".wg-plan .wg-order").first
    sync_api.expect(first).to_contain_text(plan.orders[0].label[:40])
    if len(plan.orders) >= 2:
        boxes.nth(1).uncheck()
        play.panel.drop(1)
        assert wait(lambda: not boxes.nth(1).is_checked(), 10)
    page.screenshot(path=str(ART / f"{tag}_plan.png"))
    _button(page, "Confirm plan").click()
    play.panel.confirm()
    sync_api.expect(
        page.locator(".wg-lesson .widget-html-content", has_text="of the plan given").first
    ).to_be_visible(timeout=90000)
    assert wait(lambda: where(page) != before, 60), "Confirm plan: the decision did not change"
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    page.screenshot(path=str(ART / f"{tag}_confirmed.png"))
    page.locator("button.jupyter-button:has-text('Back')").first.click()
    play.walk.stepper.back.click()
    sync_api.expect(
        page.locator(".widget-html-content", has_text="It is your decision again").first
    ).to_be_visible(timeout=90000)
    assert wait(lambda: where(page) == before, 60), "Back did not take the whole plan back"


def _delegate(page, play, app: str, size: str) -> None:
    """Untick the pending kind of decision in "Who decides what" (open): the Advisor makes it at once and the
    stepper's line moves on; the replica does the same."""
    kind = play.game.decision.kind
    box = page.locator(".wg-who .widget-checkbox", has_text=kind_name(app, kind)).first
    if not box.is_visible():
        page.locator(".wg-who .jupyter-widget-Collapse-header, .wg-who .p-Collapse-header").first.click()
    sync_api.expect(box).to_be_visible(timeout=30000)
    before = where(page)
    box.locator("input").uncheck()
    play.panel.boxes[kind].value = False
    assert wait(lambda: where(page) != before, 90), f"the Advisor did not take {kind} at {size}"
    assert play.game.is_over or play.game.decision.kind != kind
    sync_api.expect(
        page.locator(".wg-lesson .widget-html-content", has_text="decision(s) made").first
    ).to_be_visible(timeout=30000)
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    page.screenshot(path=str(ART / f"lesson_{app}_{size}_delegated.png"))


@pytest.mark.parametrize("app", APPS)
def test_lesson_plan_and_delegation_in_the_app_at_two_screen_sizes(lesson_server, browser, app):
    play = replica(
        app, lesson=True, secret=APP_SECRET
    )  # as the app deals (test_apps._start fixes the secret)
    page = browser.new_page(viewport=SIZES["1366"])
    try:
        page.goto(f"http://127.0.0.1:{lesson_server}/voila/render/{app}.ipynb", timeout=180000)
        page.locator(".wg-lesson").first.wait_for(timeout=180000)
        page.locator("canvas").first.wait_for(state="attached", timeout=60000)
        assert page.locator(".jupyter-widgets-error-widget").count() == 0
        _plan_and_confirm(page, play, f"lesson_{app}_1366")

        page.set_viewport_size(SIZES["1920"])
        kind = play.game.decision.kind
        page.locator(".wg-who .jupyter-widget-Collapse-header, .wg-who .p-Collapse-header").first.click()
        box = page.locator(".wg-who .widget-checkbox", has_text=kind_name(app, kind)).first
        sync_api.expect(box).to_be_visible(timeout=30000)
        before = where(page)
        box.locator("input").uncheck()
        play.panel.boxes[kind].value = False
        sync_api.expect(
            page.locator(".wg-lesson .widget-html-content", has_text="decision(s) made").first
        ).to_be_visible(timeout=90000)
        assert wait(lambda: where(page) != before, 60), "the Advisor did not take the kind left to it"
        assert play.game.is_over or play.game.decision.kind != kind
        page.screenshot(path=str(ART / f"lesson_{app}_1920_delegated.png"))
        assert play.panel.lesson.waiting, (
            "after the Advisor's decisions the game does not wait for the student"
        )
        _plan_and_confirm(page, play, f"lesson_{app}_1920")

        page.set_viewport_size(SIZES["1366"])  # issue #31 "Done when": the delegation at the laptop size too
        _delegate(page, play, app, "1366")
    finally:
        page.close(run_before_unload=True)


def test_row_app_map_beside_the_action_list_following_the_decision(lesson_server, browser):
    """Issue #31 item 2: on a laptop and a classroom screen the Rumor of War map stands beside the action list
    (not under it), nothing is cut at the right edge, and the hexes of the pending decision are in sight."""
    play = replica("row", lesson=True)
    page = browser.new_page(viewport=SIZES["1366"])
    try:
        page.goto(f"http://127.0.0.1:{lesson_server}/voila/render/row.ipynb", timeout=180000)
        page.locator(".wg-lesson").first.wait_for(timeout=180000)
        page.locator("canvas").first.wait_for(state="attached", timeout=60000)
        for size in ("1366", "1920"):
            page.set_viewport_size(SIZES[size])
            page.wait_for_timeout(1500)
            canvas = max(
                (c.bounding_box() for c in page.locator("canvas").all()),
                key=lambda b: (b or {"width": 0})["width"],
            )
            select = page.locator(".widget-select select").first.bounding_box()
            assert canvas["x"] + canvas["width"] <= select["x"], (size, canvas, select)
            assert (
                canvas["y"] < select["y"] + select["height"] and select["y"] < canvas["y"] + canvas["height"]
            )
            assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
            page.locator(".widget-select select").first.scroll_into_view_if_needed()
            page.screenshot(path=str(ART / f"row_app_beside_{size}.png"))
        view = play.walk.map
        hexes = view.dynamic["options"]["hex"] or view.dynamic.get("own", [])
        assert hexes
        ranges = page.evaluate(
            """() => { for (const v of Bokeh.index.query(v => v.model.type == "Figure" && v.frame != null)) {
                         const m = v.model; return [m.x_range.start, m.x_range.end, m.y_range.start, m.y_range.end]; }
                       return null; }"""
        )
        xr, yr = view.figure.x_range, view.figure.y_range
        assert ranges == pytest.approx([xr.start, xr.end, yr.start, yr.end], abs=0.5), (
            "the map is not where the kernel put it"
        )
    finally:
        page.close(run_before_unload=True)
