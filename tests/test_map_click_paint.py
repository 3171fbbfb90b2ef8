"""Issue #31 item 5: a click on an app's map repaints only what it changes (``wargames.notebook.bokehmap``).

In the browser a click *inspects* the glyphs under it (which repaints nothing) and one small script sends the most
specific hit to Python through the map's ``taps`` source; the crimson outline of the place picked is on Bokeh's
"overlay" level, a canvas of its own, so drawing it never repaints the map under it.  Here, for each game's app
map: every tap tool is so wired, the outline layers are overlays (under any counters already on that canvas), and
the message the script sends picks the place as a click did (twice in a row too: each message carries a counter).
"""

from __future__ import annotations

import pytest

import wargames

pytest.importorskip("bokeh")

from bokeh.models import CustomJS, GlyphRenderer, Plot, TapTool  # noqa: E402

from wargames.core.presentation import default_side  # noqa: E402
from wargames.notebook.widgets import Walkthrough  # noqa: E402


@pytest.fixture(scope="module", params=["tet", "yotr", "fitl", "row"])
def walk(request):
    game = wargames.load(request.param, seed=1)
    return Walkthrough(game, human=default_side(request.param), autoplay=True)


def test_map_click_inspects_and_reports_through_the_taps_source(walk):
    view = walk.map
    tools = list(view.layout.select({"type": TapTool}))
    assert tools, "the map has no tap tool"
    for tool in tools:
        assert tool.behavior == "inspect"  # a selection would repaint the whole map in the browser
        assert isinstance(tool.callback, CustomJS) and tool.callback.args["taps"] is view.taps
        assert set(tool.callback.args["names"]) == set(view.TAP_PRIORITY)


def test_map_click_outline_is_on_the_overlay_canvas_under_the_counters(walk):
    for fig in walk.map.layout.select({"type": Plot}):
        outline = [r for r in fig.renderers if r.name in ("highlight_areas", "highlight_points")]
        assert len(outline) == 2 and all(r.level == "overlay" for r in outline)
        overlays = [r for r in fig.renderers if isinstance(r, GlyphRenderer) and r.level == "overlay"]
        assert overlays[:2] == outline, "an outline drawn over the counters on the overlay canvas"


def test_map_click_message_filters_the_actions_each_time(walk):
    view = walk.map
    layer = max(view.TAP_PRIORITY, key=view.TAP_PRIORITY.get)  # the places themselves (areas, hexes)
    place = view.sources[layer].data[view.PLACE_COLUMN.get(layer, "id")][0]
    view.taps.data = {"layer": [layer], "index": [0], "n": [1]}
    assert walk.chooser.area == place and view.highlighted == [place]
    walk.chooser.clear_button.click()
    assert walk.chooser.area is None and view.highlighted == []
    view._last_tap = (0.0, 99)  # a later click, not the same one
    view.taps.data = {"layer": [layer], "index": [0], "n": [2]}
    assert walk.chooser.area == place
    walk.chooser.clear_button.click()
    before = walk.chooser.area
    view.taps.data = {"layer": ["no such layer"], "index": [0], "n": [3]}
    view.taps.data = {"layer": [layer], "index": [10**6], "n": [4]}
    assert walk.chooser.area == before  # a stale or foreign message picks nothing


def test_fitl_board_hover_outline_and_fixed_geography_repaint_nothing_else():
    """Fire in the Lake's board: the Province under the mouse is outlined from a source that stays in the browser,
    on the overlay canvas (no hover style on the Provinces' layer, which repainted the whole board at each Province
    crossed), and the countries, rivers and borders are one picture, not thousands of segments redrawn."""
    from bokeh.models import ImageURL

    view = Walkthrough(wargames.load("fitl", seed=1), human="US").map
    by_source = {r.data_source.name: r for r in view.figure.renderers if isinstance(r, GlyphRenderer)}
    assert by_source["provinces"].hover_glyph is None
    outline = by_source["hover_outline"]
    assert outline.level == "overlay" and outline.data_source.syncable is False
    assert not {"countries", "rivers", "borders"} & set(by_source)
    pictures = [r for r in view.figure.renderers if isinstance(r.glyph, ImageURL)]
    assert len(pictures) == 1
    assert pictures[0].data_source.data["url"][0].startswith("data:image/png;base64,")
