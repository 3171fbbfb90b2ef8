"""Driving a play widget (``PlayGame``) in a real browser, as a student would (issue #19), for the Voila apps
(``test_apps.py``) and the play notebooks in JupyterLab (``test_play_notebooks.py``).

A replica of the widget's game runs in the test process (same game, scenario, side and seed, so the same
decisions): it names the place to click (one the pending decision concerns, drawn on the map), the data point
inside it and the line the action list must then show.  The click lands where BokehJS's own scales put that data
point on the figure that shows it largest, so no test knows a map's pixel layout.
"""

from __future__ import annotations

import html
import re
import time
from collections import Counter
from pathlib import Path

from .test_ui import ART, _changed, _pixels, sync_api

#: the screen point of data point (x, y) on the Bokeh figure inside element ``el`` that shows it largest
_SCREEN_POINT = """(el, [x, y]) => {
  const within = (node) => {  // across Bokeh's shadow roots
    for (; node != null; node = node.parentNode || node.host) if (node === el) return true;
    return false;
  };
  let best = null;
  for (const v of Bokeh.index.query(v => v.frame != null && v.model.type == "Figure")) {
    if (!within(v.canvas_view.el)) continue;
    const xr = v.model.x_range, yr = v.model.y_range;
    if (x < Math.min(xr.start, xr.end) || x > Math.max(xr.start, xr.end)) continue;
    if (y < Math.min(yr.start, yr.end) || y > Math.max(yr.start, yr.end)) continue;
    const scale = Math.abs(v.frame.x_scale.compute(x + 1) - v.frame.x_scale.compute(x));
    if (best == null || scale > best[1]) best = [v, scale];
  }
  if (best == null) return null;
  const v = best[0];
  v.canvas_view.el.scrollIntoView({block: "center"});
  const r = v.canvas_view.el.getBoundingClientRect();
  return [r.left + v.frame.x_scale.compute(x), r.top + v.frame.y_scale.compute(y)];
}"""


def replica(game_id: str, **kw):
    """The widget's game in this process: ``PlayGame(game_id, **kw)`` as the notebook or app calls it."""
    import gc

    from wargames.core.presentation import default_side
    from wargames.notebook.play import PlayGame

    kw.setdefault("side", default_side(game_id))
    kw.setdefault("seed", 1)
    play = PlayGame(game_id, **kw)
    gc.unfreeze()  # PlayGame freezes what is alive for a class's kernel; not wanted in a test worker
    return play


def _inside(xs: list[float], ys: list[float], x: float, y: float) -> bool:
    """Point in polygon (even-odd rule)."""
    hit = False
    for i in range(len(xs)):
        x1, y1, x2, y2 = xs[i - 1], ys[i - 1], xs[i], ys[i]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def _point_of(shape) -> tuple[float, float] | None:
    """A data point inside a place's drawn shape (``InteractiveMap._place_shape``): a point's centre, or the point
    of a grid over the area's outer ring nearest its vertex mean that lies inside it."""
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


def map_target(play) -> tuple[str, tuple[float, float], str]:
    """A place of the replica's pending decision to click: one that some but not all legal actions concern, drawn
    on the map; with the data point to click and the line the chooser then shows ("Showing the 3 that concern
    Hue (map click)")."""
    walk = play.walk
    acts = walk.game.legal_actions()
    if walk.game.game_id == "row":  # the Rumor of War map has no highlight shape for a hex: its centre
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
        line = html.unescape(
            re.search(r"Showing the \d+ that concern [^<]*", walk.chooser.prompt.value).group(0)
        )
        walk.chooser.filter_area(None)
        return place, point, line
    raise AssertionError(f"no place of the pending decision is drawn on the map: {sorted(counts)}")


def click_data_point(scope, point: tuple[float, float]) -> None:
    """Click data point ``point`` on the map inside ``scope`` (a locator)."""
    assert scope.evaluate(_SCREEN_POINT, list(point)) is not None, f"no figure shows the data point {point}"
    time.sleep(0.3)  # the scroll settles
    scope.page.mouse.click(*scope.evaluate(_SCREEN_POINT, list(point)))


def where(scope) -> str:
    """The stepper's line: turn, phase and who is to decide what."""
    return scope.locator(".widget-html-content", has_text="to decide").first.inner_text()


def panel_lists_every_ruling_since(panel) -> int:
    """The rulings panel says how many rulings came since the student's last decision and shows a card for each
    (plain cards, under the panel's limit of 400); read until the two agree (the panel follows the stepper)."""

    def counts() -> tuple[int, int]:
        m = re.search(r"Since (?:your last decision|the start of the game): (\d+) ruling", panel.inner_text())
        assert m, panel.inner_text()[:300]
        return min(int(m.group(1)), 400), panel.locator(".wg-ruling").count()

    assert wait(lambda: len(set(counts())) == 1, 15), (
        f"the panel does not show every ruling since: {counts()}"
    )
    return counts()[0]


def drawn(png) -> int:
    """Pixels that are neither white nor near-white: a drawn map has many."""
    return int((_pixels(png).min(axis=-1) < 200).sum())


def map_shot(scope, path: Path) -> Path:
    """A screenshot of the largest canvas inside ``scope`` (the map)."""
    canvases = scope.locator("canvas")
    sizes = [(c.bounding_box() or {"width": 0, "height": 0}) for c in canvases.all()]
    i = max(range(len(sizes)), key=lambda k: sizes[k]["width"] * sizes[k]["height"])
    canvases.nth(i).scroll_into_view_if_needed()
    canvases.nth(i).screenshot(path=str(path))
    return path


def wait(cond, timeout: float = 30) -> bool:
    deadline = time.time() + timeout
    while not cond():
        if time.time() > deadline:
            return False
        time.sleep(0.3)
    return True


def pick_as_replica(scope, play) -> None:
    """Lesson mode (``PlayGame(lesson=True)``): select, in the page's action list and the replica's, what the
    Advisor would choose (the top choice may lead the game far on, the student's routine decisions being
    delegated: a Fire in the Lake Event can end a short game); otherwise leave the top choice selected."""
    panel = getattr(play, "panel", None)
    if panel is None:
        return
    g = play.game
    act = panel.lesson.advisor.choose(g, g.decision)
    i = next(k for k, a in enumerate(play.walk.chooser.actions) if a == act)
    play.walk.chooser.choose(i)
    scope.locator(".widget-select select").first.select_option(index=i)
    sync_api.expect(scope.locator(".widget-html-content", has_text="Selected:").first).to_contain_text(
        play.walk.chooser.label(act)[:60], timeout=30000
    )


def drive_play_widget(page, scope, play, tag: str) -> None:
    """The play widget inside ``scope`` as a student uses it (issue #19): it waits for the student's first
    decision, the map drawn; the panel lists every ruling since the student's last decision; Apply (the top
    choice) changes the decision and the panel; a click on a place filters the list to it twice in a row (click,
    Show all, click; the replica's first decision that concerns places, after more top choices if need be); Apply
    of the filtered choice changes the map; Back twice returns to each previous decision.
    ``play`` is the replica (``replica``); it follows the first Apply.  Screenshots: ``$ARTIFACTS/<tag>_*.png``."""
    assert page.locator(".jupyter-widgets-error-widget").count() == 0, "a widget view failed"
    side = play.side_box.value
    first = scope.locator(".widget-html-content", has_text=f"{side} to decide (a person)").first
    sync_api.expect(first).to_be_visible(timeout=60000)
    where_0 = where(scope)
    apply = scope.locator("button.jupyter-button:has-text('Apply')").first
    back = scope.locator("button.jupyter-button:has-text('Back')").first
    # lesson-sized play: the Advisor has already made the student's routine decisions, which Back can take back
    delegated = any(e.get("by") == "advisor" for e in play.game.record)
    assert apply.is_enabled() and back.is_disabled() != delegated
    assert scope.locator("button.jupyter-button:has-text('Step')").first.is_disabled()
    panel = scope.locator(".widget-html-content", has_text="newest first (scroll").first
    sync_api.expect(panel).to_contain_text(
        "Since your last decision" if delegated else "Since the start of the game"
    )
    panel_lists_every_ruling_since(panel)
    before = panel.inner_text()
    shot0 = ART / f"{tag}_map_0.png"
    assert wait(lambda: drawn(map_shot(scope, shot0)) > 20000, 20), "the map is not drawn"
    first.scroll_into_view_if_needed()
    page.screenshot(path=str(ART / f"{tag}_page.png"))

    pick_as_replica(scope, play)
    apply.click()  # the top choice (lesson mode: the Advisor's), as the replica's
    play.walk.chooser.apply_selected()
    sync_api.expect(scope.locator(".widget-html-content", has_text="Applied:").first).to_be_visible(
        timeout=60000
    )
    assert wait(lambda: where(scope) != where_0 and panel.inner_text() != before), "Apply: nothing changed"
    wheres = [where_0, where(scope)]
    assert re.search(r"Since your last decision: \d+ ruling", panel.inner_text()), "Apply: panel unchanged"
    panel_lists_every_ruling_since(panel)
    while (
        not any(a.places for a in play.game.legal_actions()) and len(wheres) < 6
    ):  # on to a decision of places
        pick_as_replica(scope, play)
        apply.click()
        play.walk.chooser.apply_selected()
        assert wait(lambda: where(scope) != wheres[-1]), "Apply: the decision did not change"
        wheres.append(where(scope))

    _place, point, line = map_target(play)
    prompt = scope.locator(".widget-html-content", has_text=re.compile(rf"^{side}: ")).first
    show_all = scope.locator("button.jupyter-button:has-text('Show all')").first
    for k in range(2):  # the same place twice in a row: it filters each time
        click_data_point(scope, point)
        sync_api.expect(prompt).to_contain_text(line, timeout=30000)
        page.screenshot(path=str(ART / f"{tag}_click_{k}.png"))
        show_all.click()
        sync_api.expect(prompt).not_to_contain_text("Showing the", timeout=30000)
    click_data_point(scope, point)
    sync_api.expect(prompt).to_contain_text(line, timeout=30000)
    panel_before = panel.inner_text()
    apply.click()  # a choice concerning the place clicked
    sync_api.expect(scope.locator(".widget-html-content", has_text="Applied:").first).to_be_visible(
        timeout=60000
    )
    # the decision changes; in lesson mode the next one may read the same (the next space of an Operation, the
    # details of this one left to the Advisor), but the rulings since the student's decision do change
    assert wait(lambda: where(scope) != wheres[-1] or panel.inner_text() != panel_before), (
        "Apply of the filtered choice: the decision did not change"
    )
    # the map after the two choices (a Fire in the Lake Event changes it only with its first sub-choice)
    assert wait(lambda: _changed(shot0, map_shot(scope, ART / f"{tag}_map_2.png")) > 80, 20), (
        "Apply: the map did not change"
    )

    for want in (wheres[-1], wheres[-2]):
        back.click()
        sync_api.expect(
            scope.locator(".widget-html-content", has_text="It is your decision again").first
        ).to_be_visible(timeout=60000)
        assert wait(lambda w=want: where(scope) == w), (
            "Back did not return to the student's previous decision"
        )
    panel_lists_every_ruling_since(panel)
    page.screenshot(path=str(ART / f"{tag}_back.png"))
