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
    counters = min(walk.map.TAP_PRIORITY, key=walk.map.TAP_PRIORITY.get)  # the pieces' layer
    for fig in walk.map.layout.select({"type": Plot}):
        outline = [r for r in fig.renderers if r.name in ("highlight_areas", "highlight_points")]
        assert len(outline) == 2 and all(r.level == "overlay" for r in outline)
        overlays = [r for r in fig.renderers if r.level == "overlay"]
        first = min(
            (
                i
                for i, r in enumerate(overlays)
                if getattr(r, "data_source", None) is walk.map.sources[counters]
            ),
            default=len(overlays),
        )
        at = overlays.index(outline[0])
        assert overlays[at : at + 2] == outline and at + 2 <= first, "an outline drawn over the counters"


def test_map_overlay_layers_are_clipped_to_the_frame_in_the_browser(walk):
    """The layers on the overlay canvas (pieces, outlines) are clipped to the map's frame like the others: a script
    run when the browser's document is ready marks them so (Bokeh clips only annotations there; a counter panned
    to the edge was drawn over the map's title)."""
    from wargames.notebook.bokehmap import CLIP_JS

    ready = walk.map.doc.callbacks.js_event_callbacks.get("document_ready", [])
    clipped = {id(cb.args["fig"]) for cb in ready if cb.code == CLIP_JS}
    assert clipped == {id(fig) for fig in walk.map.layout.select({"type": Plot})}


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


# ------------------------------------------------------------------ Apply: one message, one paint, no needless pan
def _apply_events(walk):
    """The document events and the ``PATCH-DOC`` messages (as lists of events) of one Apply of the top choice."""
    view = walk.map
    events, sent = [], []
    view.doc.on_change(events.append)
    original = view.widget.send_events
    view.widget.send_events = lambda evs: (sent.append(list(evs)), original(evs))
    try:
        walk.chooser.apply_selected()
    finally:
        view.widget.send_events = original
        view.doc.remove_on_change(events.append)
    return events, sent


def _app_walk(game_id: str):
    """The play widget as the classroom app makes it (``notebooks/apps/<game>.ipynb``), on to the first decision
    of the student's that concerns places: the decision the latency bench measures (its secret deals the same
    cards, ``benchmarks/bench_app_latency.py``)."""
    import gc

    from wargames.notebook.play import PlayGame

    play = PlayGame(game_id, side=default_side(game_id), seed=1, lesson=True, secret="bench-app-latency")
    gc.unfreeze()  # PlayGame freezes what is alive for a class's kernel; not wanted in a test worker
    walk = play.walk
    for _ in range(6):
        if any(a.places for a in walk.game.legal_actions()):
            break
        walk.chooser.apply_selected()
    return walk


def test_apply_sends_the_maps_changes_as_one_patch_message():
    """Issue #31 item 5: every change an Apply makes to the map reaches the browser as ONE ``PATCH-DOC`` message
    (jupyter_bokeh sent one per changed source, which the browser could apply and paint in separate frames: Fire
    in the Lake's board was painted twice per Apply)."""
    walk = _app_walk("fitl")
    events, sent = _apply_events(walk)
    assert len(events) >= 2, "this Apply should change the pieces and the Provinces' hover texts"
    assert len(sent) == 1 and len(sent[0]) == len(events)


def test_fitl_apply_repaints_the_pieces_not_the_board():
    """Issue #31 item 5: a Fire in the Lake Apply that shifts no Support and no Control changes only layers on the
    overlay canvas (pieces, their counts, Control chips, markers) and the hover texts, which travel in a source no
    glyph draws (``tips``) and are copied in the browser into the spaces' ``tip`` columns without a repaint; the
    Provinces' source keeps them current in Python too (a whole re-send of the map carries them)."""
    walk = _app_walk("fitl")
    walk_events = _apply_events(walk)[0]
    view = walk.map
    drawn = {}
    for r in view.figure.renderers:
        if isinstance(r, GlyphRenderer):
            drawn.setdefault(r.data_source.name, set()).add(r.level)
    changed = {getattr(getattr(e, "model", None), "name", None) for e in walk_events} - {None}
    assert "tips" in changed and "tips" not in drawn
    assert "provinces" not in changed and "cities" not in changed
    assert all(drawn[n] == {"overlay"} for n in changed - {"tips"}), changed
    tips = view.tips.data
    prov = view.sources["provinces"].data
    for layer, row, tip in zip(tips["layer"], tips["row"], tips["tip"], strict=True):
        assert view.sources[layer].data["tip"][row] == tip
    at = dict(zip(view.dynamic["provinces"]["id"], view.dynamic["provinces"]["tip"], strict=True))
    assert list(prov["tip"]) == [at[i] for i in prov["id"]]


def test_row_apply_changes_only_the_overlay_layers_and_keeps_the_view():
    """Issue #31 item 5: in Rumor of War an Apply whose next decision's hexes are in sight changes only layers
    drawn on the overlay canvas (counters, hex markers, the decision's hexes, the activation under way, the place
    names that move clear of the counters) and no range: the browser repaints that canvas, not the hexes, their numbers and the lines (some 20,000 canvas calls
    when the map panned)."""
    walk = _app_walk("row")
    view = walk.map
    level = {}
    for r in view.figure.renderers:
        source = getattr(r, "data_source", None) or getattr(
            r, "source", None
        )  # a glyph's, the names' (LabelSet)
        if source is not None:
            level.setdefault(source.name, set()).add(r.level)
    # the first Apply whose next decision lies in sight (one that must pan is checked by the test below); the
    # bots' play before the student's decisions decides which that is
    for _ in range(8):
        events, sent = _apply_events(walk)
        if not any(type(getattr(e, "model", None)).__name__ == "Range1d" for e in events):
            break
    else:
        raise AssertionError("every Apply of eight moved the view")
    assert sent, "the Apply changed nothing on the map"
    changed = {getattr(getattr(e, "model", None), "name", None) for e in events}
    assert changed <= {n for n, lv in level.items() if lv == {"overlay"}}, changed
    assert "options" in changed  # the next decision's hexes (the counters too, when one moved)


def test_row_map_pans_only_when_the_decisions_hexes_are_out_of_sight():
    """Issue #31 item 5: ``RowMapView.follow`` moves the view for a new decision only when its hexes are not all in
    sight (a pan repaints the whole map); when they are out of sight it brings them in."""
    view = _app_walk("row").map
    xr, yr = view.figure.x_range, view.figure.y_range
    here = (xr.start, xr.end, yr.start, yr.end)
    view._followed = None  # as at a new decision
    assert view.follow() is None and (xr.start, xr.end, yr.start, yr.end) == here
    x0, x1, y0, y1 = view.bounds
    w, h = xr.end - xr.start, yr.end - yr.start
    far = (x1 - w, x1, y0, y0 + h) if xr.start - x0 < x1 - xr.end else (x0, x0 + w, y1 - h, y1)
    xr.start, xr.end, yr.start, yr.end = far  # the student panned away
    hexes = view.dynamic["options"]["hex"] or view.dynamic["active"]["hex"]
    view._followed = None
    moved = view.follow()
    assert moved is not None and (xr.start, xr.end, yr.start, yr.end) == moved
    from wargames.maps.hexgrid import hex_centre
    from wargames.row.hexmap import RADIUS_MI

    for h_id in hexes:
        cx, cy = hex_centre(h_id, RADIUS_MI)
        assert xr.start <= cx <= xr.end and yr.start <= cy <= yr.end, h_id
