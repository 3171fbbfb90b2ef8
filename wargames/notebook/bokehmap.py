"""What every game's Bokeh map shares: patched updates that reach the browser, clicks on places, highlights.

Rules that keep the browser in step (``research/stack-probe.md``):

* pitfall 5: every update is one burst inside ``doc.hold("combine")`` / ``doc.unhold()``, and reaches the browser
  as ONE ``PATCH-DOC`` message (:class:`BurstModel`, :meth:`InteractiveMap.burst`): jupyter_bokeh sends each
  event of a burst as a message of its own, which the browser may apply in separate animation frames, painting
  the map once per message (Fire in the Lake's board was painted twice per Apply, issue #31 item 5);
* pitfall 4: changes made while a notebook cell runs (not from a click) are re-sent as a whole bundle
  with ``BokehModel.update_from_model`` once the cell has finished, so Voila (which runs every cell
  before the page connects) shows the final state;
* pitfall 6: sources get ``{column: list}`` dicts, never DataFrames.

Clicks (issue #19 item 3, issue #31 item 5): in the browser a click *inspects* the glyphs under it (the tap
tools' ``behavior="inspect"``), which repaints nothing, and a small script sends the most specific hit (layer and
row) to Python as one change of a tiny source, ``taps``; Python reports the place.  A click that *selected* the
glyph instead made the browser repaint the whole map twice (once for the selection, once for Python clearing
it): up to 60,000 canvas calls on the Tet map for one click.  Setting a layer's ``selected.indices`` from Python
(what the tests do) still picks the place, and Python clears the selection at once, so a second click on the
same place is a new selection.  The place picked is shown by :meth:`InteractiveMap.highlight` (a crimson
outline layer at Bokeh's "overlay" level, which the browser paints on a canvas of its own: outlining a place
repaints only that layer, never the map under it).  No scroll tool is active: the mouse wheel scrolls the page
until the student picks the wheel-zoom tool in the toolbar.
"""

from __future__ import annotations

import json
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, ClassVar

from bokeh.document import Document
from bokeh.models import ColumnDataSource, CustomJS, GlyphRenderer, Plot, TapTool
from bokeh.protocol import Protocol
from jupyter_bokeh import BokehModel

from .kit import in_cell_execution, on_cell_finished

TAP_WINDOW = 0.4  # seconds within which simultaneous hits of one click are merged
PICK = "#c2185b"  # crimson: the outline of the place a click picked (orange is the latest ruling)

#: a tap tool's callback in the browser (``behavior="inspect"``): it runs once for each clickable layer the click
#: hit; the hit of the most specific layer (lowest rank) is sent to Python once, as ``taps.data``, with a counter
#: so that a second click on the same glyph is a change too.  The callbacks run after the tool has inspected every
#: layer, so the hit is read from each renderer's own inspection (a source's ``inspected`` is the last renderer's:
#: a city's name drawn from the cities' source would hide the hit on the city's circle)
TAP_JS = """
const k = srcs.indexOf(cb_data.source);
if (k < 0) return;
let hit = [];
const mine = Array.isArray(cb_obj.renderers) ? cb_obj.renderers : [];
for (const r of mine) {
  if (r.data_source !== cb_data.source) continue;
  const sel = cb_data.source.selection_manager.inspectors.get(r);
  if (sel != null && sel.indices.length > 0) { hit = sel.indices; break; }
}
if (mine.length == 0) hit = cb_data.source.inspected.indices;
if (hit.length == 0) return;
const best = taps.__wg_best;
if (best == null) {
  taps.__wg_best = [ranks[k], k, hit[0]];
  setTimeout(() => {
    const [_r, j, i] = taps.__wg_best;
    taps.__wg_best = null;
    taps.data = {layer: [names[j]], index: [i], n: [(taps.data.n[0] || 0) + 1]};
  }, 0);
} else if (ranks[k] < best[0]) {
  taps.__wg_best = [ranks[k], k, hit[0]];
}
"""


#: on the document's "ready" event in the browser: every layer of ``fig`` drawn on the overlay canvas is clipped to
#: the frame, as the layers on the primary canvas are (Bokeh clips only annotations there): the pieces and outlines
#: that the maps put on that canvas never spill over the toolbar or the margins when the student pans or zooms
CLIP_JS = """
for (const view of Bokeh.index.query((v) => v.model === fig)) {
  for (const r of view.computed_renderer_views) {
    if (r.model.level == "overlay" && r.model.type == "GlyphRenderer") {
      Object.defineProperty(r, "needs_clip", {get: () => true, configurable: true});
    }
  }
  view.request_paint();
}
"""


class BurstModel(BokehModel):
    """jupyter_bokeh's widget, but the document events of a burst (:meth:`InteractiveMap.burst`) go to the browser
    as one ``PATCH-DOC`` message, which BokehJS applies at once and paints once; outside a burst, one message per
    event as jupyter_bokeh sends them."""

    _burst: list | None = None

    def _document_patched(self, event) -> None:
        if event.setter is self:
            return
        if self._burst is not None:
            self._burst.append(event)
            return
        self.send_events([event])

    def send_events(self, events: list) -> None:
        """Send ``events`` (of this widget's document) as one ``PATCH-DOC`` message, in jupyter_bokeh's framing
        (header, metadata, content, then each buffer's reference and bytes)."""
        if not events:
            return
        msg = Protocol().create("PATCH-DOC", events)
        self.send({"msg": "patch", "payload": msg.header_json})
        self.send({"msg": "patch", "payload": msg.metadata_json})
        self.send({"msg": "patch", "payload": msg.content_json})
        for buffer in msg.buffers:
            self.send({"msg": "patch", "payload": json.dumps(buffer.ref)})
            self.send({"msg": "patch"}, [buffer.to_bytes()])


class InteractiveMap:
    """Base of the map views.  Subclasses build ``self.sources``, ``self.layout`` and call ``_connect()``.

    ``TAP_PRIORITY``: clickable layers, most specific first (a click on a piece beats the space under it);
    ``PLACE_COLUMN``: the column naming the place in each clickable layer (default ``id``)."""

    TAP_PRIORITY: ClassVar[dict[str, int]] = {}
    PLACE_COLUMN: ClassVar[dict[str, str]] = {}
    DYNAMIC_LAYERS: ClassVar[tuple[str, ...]] = ()

    sources: dict[str, ColumnDataSource]
    layout: Any

    def _init_state(self) -> None:
        self._listeners: list[Callable[[str], Any]] = []
        self._last_tap: tuple[float, int] = (0.0, 99)
        self._seen: dict[str, tuple[int, ...]] = {}
        self._dirty = False
        self.picked: str | None = None
        self.highlighted: list[str] = []
        self.update_times: list[float] = []
        self._bursts = 0
        self.sources_hl = {
            "hl_areas": ColumnDataSource({"id": [], "xs": [], "ys": []}, name="hl_areas"),
            "hl_points": ColumnDataSource({"id": [], "x": [], "y": [], "size": []}, name="hl_points"),
        }

    def _add_highlight(self, fig, *, width: float = 4.0) -> None:
        """Draw the highlight layers (see :meth:`highlight`) on ``fig``: call once per figure, last.  They are at the
        "overlay" level: the browser paints them on the figure's overlay canvas, so a click's outline repaints
        that canvas only (issue #31 item 5)."""
        areas = fig.multi_polygons(
            "xs",
            "ys",
            source=self.sources_hl["hl_areas"],
            fill_color=PICK,
            fill_alpha=0.12,
            line_color=PICK,
            line_width=width,
            name="highlight_areas",
            level="overlay",
        )
        points = fig.scatter(
            "x",
            "y",
            size="size",
            source=self.sources_hl["hl_points"],
            fill_color=None,
            line_color=PICK,
            line_width=width,
            name="highlight_points",
            level="overlay",
        )
        overlays = [r for r in fig.renderers if r.level == "overlay" and r not in (areas, points)]
        if overlays:  # under the layers already on the overlay canvas (counters): an outline never hides them
            rest = [r for r in fig.renderers if r not in (areas, points)]
            at = rest.index(overlays[0])
            fig.renderers = [*rest[:at], areas, points, *rest[at:]]

    def _place_shape(self, place: str) -> tuple[str, Any] | None:
        """Where ``place`` is drawn: ("area", (xs, ys)) as multi-polygon lists, ("point", (x, y, size)), or None."""
        return None

    def highlight(self, places) -> None:
        """Outline ``places`` (ids) in crimson on every figure (empty: clear).  One patch of two small sources."""
        places = [p for p in (places or ()) if p is not None]
        areas: dict[str, list] = {"id": [], "xs": [], "ys": []}
        points: dict[str, list] = {"id": [], "x": [], "y": [], "size": []}
        for p in places:
            shape = self._place_shape(p)
            if shape is None:
                continue
            kind, geo = shape
            if kind == "area":
                areas["id"].append(p)
                areas["xs"].append(geo[0])
                areas["ys"].append(geo[1])
            else:
                points["id"].append(p)
                points["x"].append(geo[0])
                points["y"].append(geo[1])
                points["size"].append(geo[2])
        self.highlighted = places
        with self.burst():
            for name, new in (("hl_areas", areas), ("hl_points", points)):
                src = self.sources_hl[name]
                if dict(src.data) != new:
                    src.data = new
        if in_cell_execution():
            self._dirty = True

    def _connect(self) -> None:
        """Wire clicks, wrap the layout in a notebook widget, and re-send it after each cell."""
        for name in self.TAP_PRIORITY:
            self.sources[name].selected.on_change("indices", self._selection_callback(name))
        names = list(self.TAP_PRIORITY)
        self.taps = ColumnDataSource({"layer": [], "index": [], "n": []}, name="taps")
        self.taps.on_change("data", lambda _a, _o, new: self._on_tap_data(new))
        tap_js = CustomJS(
            args={
                "taps": self.taps,
                "srcs": [self.sources[n] for n in names],
                "names": names,
                "ranks": [self.TAP_PRIORITY[n] for n in names],
            },
            code=TAP_JS,
        )
        for tool in self.layout.select({"type": TapTool}):
            tool.behavior = "inspect"  # a click repaints nothing; the script above reports it
            tool.callback = tap_js
        for r in self.layout.select({"type": GlyphRenderer}):
            r.nonselection_glyph = None  # a click must never fade the rest of the map
            r.selection_glyph = None
        for fig in self.layout.select({"type": Plot}):
            fig.toolbar.active_scroll = None  # the wheel scrolls the page until the student picks wheel zoom
        if self.layout.document is None:
            Document().add_root(self.layout)
        for fig in self.layout.select({"type": Plot}):
            self.layout.document.js_on_event("document_ready", CustomJS(args={"fig": fig}, code=CLIP_JS))
        self.widget = BurstModel(self.layout)
        self.doc = self.layout.document
        ref = weakref.ref(self)
        on_cell_finished(lambda: (m := ref()) is not None and m._flush())

    # ------------------------------------------------------------------ updates
    @contextmanager
    def burst(self) -> Iterator[None]:
        """Every change of the map made inside is one update of the browser's map: held in the document
        (``hold("combine")``, pitfall 5) and sent as one ``PATCH-DOC`` message (:class:`BurstModel`), so the browser
        paints the map once.  Bursts nest: the outermost sends."""
        doc, widget = getattr(self, "doc", None), getattr(self, "widget", None)
        self._bursts = getattr(self, "_bursts", 0) + 1
        outer = self._bursts == 1
        if outer and doc is not None:
            doc.hold("combine")
            if isinstance(widget, BurstModel):
                widget._burst = []
        try:
            yield
        finally:
            self._bursts -= 1
            if outer and doc is not None:
                try:
                    doc.unhold()
                finally:
                    if isinstance(widget, BurstModel):
                        events, widget._burst = widget._burst or [], None
                        widget.send_events(events)

    def _dynamic(self) -> dict[str, Any]:  # pragma: no cover - abstract
        raise NotImplementedError

    def _after_update(self, dyn: dict[str, Any]) -> None:
        """Hook for parts of the view that are not data sources (e.g. a side panel)."""

    def update(self) -> dict[str, Any]:
        """Re-read the game and patch the dynamic sources (the figures are never rebuilt)."""
        t0 = time.perf_counter()
        dyn = self._dynamic()
        self.dynamic = dyn
        with self.burst():
            for n in self.DYNAMIC_LAYERS:
                src = self.sources[n]
                new = dict(dyn[n])
                if dict(src.data) != new:
                    src.data = new
                if n in self.TAP_PRIORITY and src.selected.indices:
                    self._seen[n] = ()
                    src.selected.indices = []
            self._after_update(dyn)
        if in_cell_execution():
            self._dirty = True
        self.update_times.append(time.perf_counter() - t0)
        return dyn

    def _flush(self) -> None:
        """After a notebook cell changed the map: re-send the whole bundle (pitfall 4, Voila)."""
        if self._dirty:
            self._dirty = False
            self.widget.update_from_model(self.layout)

    def resync(self) -> None:
        """Re-send the whole map to the browser now (what the end-of-cell hook does automatically)."""
        self._dirty = True
        self._flush()

    # ------------------------------------------------------------------ clicks
    def on_pick(self, callback: Callable[[str], Any]) -> None:
        """Call ``callback(place_id)`` when the user clicks a place (or a piece standing in it)."""
        self._listeners.append(callback)

    def _selection_callback(self, name: str):
        def cb(attr, old, new):
            self._on_select(name, list(new))

        return cb

    def _on_select(self, name: str, indices: list[int]) -> None:
        key = tuple(indices)
        if not indices or self._seen.get(name) == key:
            self._seen[name] = key
            return
        self._seen[name] = key
        data = self.sources[name].data
        col = self.PLACE_COLUMN.get(name, "id")
        i = indices[0]
        if i >= len(data[col]):
            return
        self._hit(data[col][i], self.TAP_PRIORITY[name], name)

    def _on_tap_data(self, new: dict[str, Any]) -> None:
        """A click in the browser (``TAP_JS``): the most specific layer it hit and the row, as a place."""
        layer, index = list(new.get("layer") or ()), list(new.get("index") or ())
        if not layer or layer[0] not in self.TAP_PRIORITY or not index:
            return
        data = self.sources[layer[0]].data
        col = self.PLACE_COLUMN.get(layer[0], "id")
        i = int(index[0])
        if 0 <= i < len(data[col]):
            self._hit(data[col][i], self.TAP_PRIORITY[layer[0]], layer[0])

    def _hit(self, place: str, rank: int, name: str | None = None) -> None:
        """One click reached ``place`` in a layer of priority ``rank``: pick it unless the same click also hit
        something more specific on top (or already picked this place)."""
        now = time.monotonic()
        last_t, last_rank = self._last_tap
        if now - last_t < TAP_WINDOW and (rank > last_rank or (rank < last_rank and place == self.picked)):
            if name is not None:
                self._clear_selection(name)
            return
        self._last_tap = (now, rank)
        for other in self.TAP_PRIORITY:  # this one too: the next click on the same place must change it again
            self._clear_selection(other)
        self.pick(place)

    def _clear_selection(self, name: str) -> None:
        sel = self.sources[name].selected
        if sel.indices:
            self._seen[name] = ()
            sel.indices = []

    def pick(self, place: str) -> None:
        """Report ``place`` to the listeners and outline it, as a click on the map would."""
        self.picked = place
        self.highlight([place])
        for cb in list(self._listeners):
            cb(place)

    def _repr_mimebundle_(self, **kw):
        return self.widget._repr_mimebundle_(**kw)
