"""Vietnam: Rumor of War's theatre map drawn with Bokeh (issue #15 deliverable 1): terrain by hex, sea,
borders, roads, the Ho Chi Minh Trail with its termini, rivers, the DMZ, towns and cities with their names.

``row_map_figure()`` draws the whole theatre (4,455 hexes); ``row_map_figure(window=CLASSROOM)`` the
classroom window of "A Year in I Corps" (I Corps, the DMZ and the Laotian panhandle) at projector size,
with hex numbers; ``RowMapView`` a game's scenario window with its counters.  What is drawn comes from the one
map contract, Rumor of War's map layers (``game.map_layers(side)``; ``wargames.row.mapdata.theatre_layers()`` for
the theatre with no game): hexes and their facts, lines, named places, the scenario's window.  Every datum is
sourced in ``data/row/map/``; colours, sizes and labels are this module's.
"""

from __future__ import annotations

from typing import Any

from ..maps.hexgrid import hex_centre, hex_corners, parse_hex
from ..row.hexmap import RADIUS_MI
from ..row.mapdata import theatre_layers
from .bokehmap import InteractiveMap
from .labels import Box, Grid, place, text_size
from .rowmap_chips import NATION, _pale, row_unit_chips

TERRAIN_COLOURS = {
    "cultivated": "#d9e8a6",
    "clear": "#efe8c8",
    "jungle": "#5f9e5a",
    "mountain": "#a88a62",
    "swamp": "#8fc7b8",
    "sea": "#a9cde8",
}
# columns and rows of the classroom window (the scenario's map window, R-SCN rows)
CLASSROOM = ((12, 41), (28, 59))
RANK = {"city": 0, "town": 1, "base": 2}  # which places are named first (and drawn larger)
#: the drawing's line layers by the kind of the map layers' lines
LINE_LAYERS = {"road": "road", "trail": "trail", "river": "river", "border": "border", "corps": "area"}


def _in(window, col: int, row: int) -> bool:
    return window is None or (window[0][0] <= col <= window[0][1] and window[1][0] <= row <= window[1][1])


def row_map_layers(window=None, layers: dict[str, Any] | None = None) -> dict[str, dict[str, list[Any]]]:
    """The drawing columns of each layer (no colours but the terrain's): hexes, roads, trail, rivers, borders,
    Corps boundaries, places; from Rumor of War's map layers (``game.map_layers(side)``, or the whole theatre's
    ``wargames.row.mapdata.theatre_layers()`` when ``layers`` is None) clipped to ``window`` (((col_min, col_max),
    (row_min, row_max)); None: the whole theatre)."""
    if layers is None:
        layers = theatre_layers()
    pl = layers["places"]
    hexes: dict[str, list[Any]] = {
        "hex": [],
        "xs": [],
        "ys": [],
        "x": [],
        "y": [],
        "terrain": [],
        "colour": [],
        "country": [],
        "area": [],
        "hatch": [],
    }
    named: list[tuple[int, int, int]] = []  # (rank of its first place, gazetteer row, index) of named hexes
    for i, hid in enumerate(pl["id"]):
        if pl["shape"][i] != "hex" or not _in(window, *parse_hex(hid)):
            continue
        f = pl["facts"][i]
        hexes["hex"].append(hid)
        hexes["xs"].append(pl["xs"][i])
        hexes["ys"].append(pl["ys"][i])
        hexes["x"].append(pl["x"][i])
        hexes["y"].append(pl["y"][i])
        hexes["terrain"].append(f["terrain"] + (" (DMZ)" if f["area"] == "DMZ" else ""))
        hexes["colour"].append(TERRAIN_COLOURS[f["terrain"]])
        hexes["country"].append(f["country"])
        hexes["area"].append(f["area"])
        hexes["hatch"].append("/" if f["area"] == "DMZ" else " ")
        if f.get("places"):
            named.append((min(RANK[p["kind"]] for p in f["places"]), min(p["row"] for p in f["places"]), i))
    lines: dict[str, dict[str, list[Any]]] = {
        f: {"xs": [], "ys": [], "name": []} for f in LINE_LAYERS.values()
    }
    ln = layers["lines"]
    for kind, xs, ys, name, (a, b) in zip(
        ln["kind"], ln["xs"], ln["ys"], ln["name"], ln["ends"], strict=True
    ):
        # a Corps boundary belongs to its lower-numbered hex; a road, trail, river or border to either hex
        inside = _in(window, *parse_hex(a)) or (kind != "corps" and _in(window, *parse_hex(b)))
        if kind in LINE_LAYERS and inside:
            out = lines[LINE_LAYERS[kind]]
            out["xs"].append(xs)
            out["ys"].append(ys)
            out["name"].append(name)
    places: dict[str, list[Any]] = {"x": [], "y": [], "name": [], "kind": [], "hex": [], "size": []}
    for _, _, i in sorted(named):  # cities first, then towns, then bases; in the gazetteer's order
        kind = pl["facts"][i]["places"][0]["kind"]
        places["x"].append(pl["x"][i])
        places["y"].append(pl["y"][i])
        places["name"].append(pl["name"][i])  # places sharing a hex share a label
        places["kind"].append(kind)
        places["hex"].append(pl["id"][i])
        places["size"].append({"city": 11, "town": 8, "base": 7}[kind])
    return {"hexes": hexes, **lines, "places": places}


def row_map_figure(
    window=None,
    *,
    width: int = 900,
    height: int | None = None,
    hex_numbers: bool | None = None,
    title: str | None = None,
):
    """A Bokeh figure of the theatre (or of ``window``, ((col_min, col_max), (row_min, row_max)))."""
    from bokeh.models import ColumnDataSource, HoverTool, LabelSet
    from bokeh.plotting import figure

    layers = row_map_layers(window)
    hx = layers["hexes"]
    xs = [v for row in hx["xs"] for v in row]
    ys = [v for row in hx["ys"] for v in row]
    pad = 0.08 * (max(xs) - min(xs))  # room for the names of places on the east coast
    x0, x1 = min(xs), max(xs) + pad
    span_x, span_y = x1 - x0, max(ys) - min(ys)
    height = height or int(width * span_y / span_x)
    p = figure(
        width=width,
        height=height,
        match_aspect=True,
        tools="pan,wheel_zoom,reset,save",
        active_scroll=None,
        title=title
        or (
            "Rumor of War: the theatre"
            if window is None
            else "Rumor of War: I Corps, the DMZ and the Laotian panhandle"
        ),
        x_range=(x0, x1),
        y_range=(min(ys), max(ys)),
    )
    p.grid.visible = p.axis.visible = False
    p.toolbar.logo = None
    src = ColumnDataSource(hx, name="hexes")
    tiles = p.patches(
        "xs",
        "ys",
        source=src,
        fill_color="colour",
        line_color="#ffffff",
        line_width=0.5 if window is None else 1,
    )
    _dmz_hatch(p, hx)
    p.add_tools(
        HoverTool(renderers=[tiles], tooltips=[("hex", "@hex"), ("terrain", "@terrain"), ("area", "@area")])
    )
    p.multi_line(
        "xs",
        "ys",
        source=ColumnDataSource(layers["border"]),
        line_color="#7b1fa2",
        line_width=2.5,
        line_dash="dashed",
        legend_label="border",
    )
    p.multi_line(
        "xs",
        "ys",
        source=ColumnDataSource(layers["area"]),
        line_color="#263238",
        line_width=2,
        line_dash="dashdot",
        legend_label="Corps boundary",
    )
    p.multi_line(
        "xs",
        "ys",
        source=ColumnDataSource(layers["river"]),
        line_color="#1e73be",
        line_width=2,
        legend_label="river",
    )
    p.multi_line(
        "xs",
        "ys",
        source=ColumnDataSource(layers["road"]),
        line_color="#c62828",
        line_width=2.5,
        legend_label="road",
    )
    p.multi_line(
        "xs",
        "ys",
        source=ColumnDataSource(layers["trail"]),
        line_color="#ef6c00",
        line_width=3,
        line_dash="dotted",
        legend_label="Ho Chi Minh Trail",
    )
    pl = ColumnDataSource(layers["places"])
    if window is None:  # the whole theatre: name the cities only, or the names would cover the map
        keep = [i for i, k in enumerate(layers["places"]["kind"]) if k == "city"]
        named = {k: [v[i] for i in keep] for k, v in layers["places"].items()}
    else:
        named = layers["places"]
    named = {**named, "name": [_two_lines(n) for n in named["name"]]}  # long shared names on two lines
    named_src = ColumnDataSource(named)
    p.scatter("x", "y", source=pl, size="size", marker="square", fill_color="#212121", line_color="white")
    show_numbers = (window is not None) if hex_numbers is None else hex_numbers
    if show_numbers:
        p.text(
            "x",
            "y",
            text="hex",
            source=src,
            text_font_size="7px",
            text_color="#555555",
            text_align="center",
            text_baseline="bottom",
            y_offset=9,
        )
    named_src.data.update(_place_labels(named, width / max(span_x, 1e-9), 11 if window is not None else 9))
    labels = LabelSet(
        x="x",
        y="y",
        text="name",
        source=named_src,
        x_offset="dx",
        y_offset="dy",
        text_font_size="11px" if window is not None else "9px",
        text_font_style="bold",
        background_fill_color="white",
        background_fill_alpha=0.7,
    )
    p.add_layout(labels)
    legend = p.legend[0]
    p.add_layout(legend, "right")
    legend.label_text_font_size = "11px"
    return p


def _dmz_hatch(p, hx: dict[str, list[Any]]) -> None:
    """The DMZ's hatching as its own glyph over its few hexes: a hatch pattern on every one of the 4,455 hex
    patches (blank for all but the DMZ) made the theatre take 10 s to draw in Chromium instead of 1."""
    from bokeh.models import ColumnDataSource

    keep = [i for i, h in enumerate(hx["hatch"]) if h.strip()]
    src = ColumnDataSource({"xs": [hx["xs"][i] for i in keep], "ys": [hx["ys"][i] for i in keep]})
    p.patches(
        "xs",
        "ys",
        source=src,
        fill_color=None,
        line_color=None,
        hatch_pattern="/",
        hatch_color="#b71c1c",
        hatch_alpha=0.5,
        hatch_scale=8,
    )


def _place_labels(
    places: dict[str, list[Any]], px_per_unit: float, font_px: int, gap: float = 7
) -> dict[str, list[int]]:
    """Screen offsets for each place name so no two names overlap: right of the marker if free, else left,
    above or below (greedy, cities first); the box of a name is estimated from its length.  ``gap``: the
    distance from the marker (the play map puts names past the hex's edge, clear of its counters)."""
    taken: list[tuple[float, float, float, float]] = []
    dx, dy = [], []
    for x, y, name in zip(places["x"], places["y"], places["name"], strict=True):
        lines = name.split("\n")  # a two-line name grows upwards from its baseline
        w, h = 0.62 * font_px * max(len(t) for t in lines) + 6, (font_px + 4) * len(lines)
        cx, cy = x * px_per_unit, y * px_per_unit
        for ox, oy in ((gap, -5), (-gap - w, -5), (-w / 2, 8), (-w / 2, -8 - h), (7, 8), (7, -18)):
            box = (cx + ox, cy + oy, cx + ox + w, cy + oy + h)
            m = 4  # names at least this far apart, or two read as one ("Tchepone (Sepon) Lang Vei")
            if not any(
                box[0] - m < b[2] and b[0] < box[2] + m and box[1] - m < b[3] and b[1] < box[3] + m
                for b in taken
            ):
                break
        taken.append(box)
        dx.append(int(ox))
        dy.append(int(oy))
    return {"dx": dx, "dy": dy}


PICK = "#c2185b"  # the hex a click picked, and the hexes the pending decision concerns
ACTIVE = "#ff7f0e"  # the activating HQ and its units (ROW-9.2)
NAME_LINE = 1.1  # a place name's two lines, 1.1 em apart
FONTS = {
    "chip": 12,
    "badge": 9,
    "name": 11,
    "number": 9,
}  # pixels, on a map of FULL_SCALE pixels per mile or more
FULL_SCALE = 3.6  # the classroom window at 960 px; a whole-theatre window (2.4 px a mile) gets smaller fonts


def map_fonts(scale: float) -> dict[str, int]:
    """Font sizes for a play map drawn at ``scale`` pixels per mile: full size on the classroom window, smaller
    where the hexes are smaller (chips, badges and hex numbers never under 7 px, names never under 9 px), so
    that they still fit their hexes; larger in proportion where the hexes are larger (a map beside the action
    list, ``RowMapView(view=...)``)."""
    k = scale / FULL_SCALE
    if k > 1.05:
        return {n: round(f * k) for n, f in FONTS.items()}
    if k >= 0.95:
        return dict(FONTS)
    return {n: max(9 if n == "name" else 7, round(f * k)) for n, f in FONTS.items()}


def _two_lines(name: str) -> str:
    """A long shared name ("Khe Sanh Combat Base / Lang Vei") on two lines, so it spans fewer hexes."""
    if len(name) > 16 and " / " in name:
        return name.replace(" / ", " /\n", 1)
    return name


class RowMapView(InteractiveMap):
    """The classroom window of a Rumor of War game (the scenario's map window) as ``side`` sees it, with its
    counters: terrain hexes with their numbers, roads, rivers, the Trail, borders, towns; unit and HQ chips per hex
    (``row_unit_chips``); clicks on a hex, a town or a chip report the hex id (the ``places`` of the actions)."""

    TAP_PRIORITY = {"chips": 0, "places": 1, "hexes": 2}

    @classmethod
    def draws(cls, game) -> bool:
        """This view draws "hex" games whose map layers are laid out like Rumor of War's: a scenario window
        (``window``: cols and rows, R-SCN-01) and hexside lines with the two hexes they join (``ends``)."""
        if game.facts().map_kind != "hex" or not hasattr(game, "map_layers"):
            return False
        try:
            layers = game.map_layers(None)
        except (AttributeError, KeyError, TypeError, ValueError):
            return False
        w = (layers or {}).get("window")
        return isinstance(w, dict) and {"cols", "rows"} <= set(w) and "ends" in layers["lines"]

    PLACE_COLUMN = {"chips": "hex", "places": "hex", "hexes": "hex"}
    DYNAMIC_LAYERS = ("chips", "badges", "active", "options")

    #: the classroom scale of a map beside the action list (``view``): hexes and counters 25% larger than on the
    #: 960 px whole-window map, so that a chip reads from the back of a class (issue #31)
    VIEW_SCALE = 4.5

    def __init__(
        self,
        game,
        side: str | None = None,
        *,
        width: int = 960,
        window=None,
        view: tuple[int, int] | None = None,
    ):
        """``view`` (frame width and height in pixels): show part of the window at :attr:`VIEW_SCALE`, panned to
        the hexes of each new decision (:meth:`follow`), for a map beside the action list; None: the whole
        window ``width`` pixels wide."""
        from bokeh.layouts import column
        from bokeh.models import ColumnDataSource, Div, HoverTool, LabelSet, TapTool
        from bokeh.plotting import figure

        self.game = game
        self.side = side
        self._init_state()
        contract = game.map_layers(side)
        w = contract["window"]
        window = window or (tuple(w["cols"]), tuple(w["rows"]))
        layers = row_map_layers(window, contract)
        self.static = layers
        dyn = self._dynamic()
        self.dynamic = dyn
        hx = layers["hexes"]
        s = {
            "hexes": ColumnDataSource(hx, name="hexes"),
            "places": ColumnDataSource(layers["places"], name="places"),
        }
        for n in self.DYNAMIC_LAYERS:
            s[n] = ColumnDataSource(dict(dyn[n]), name=n)
        self.sources = s
        self._window_hexes = frozenset(hx["hex"])
        xs = [v for r in hx["xs"] for v in r]
        ys = [v for r in hx["ys"] for v in r]
        x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
        self.bounds = (x0, x1, y0, y1)
        self.view = view
        self._followed: Any = None
        if view is not None:
            width = round(max(view[0] / (x1 - x0), self.VIEW_SCALE) * (x1 - x0))
        height = int(width * (y1 - y0) / (x1 - x0))
        self.fonts = map_fonts(width / (x1 - x0))
        frame = (width, height) if view is None else (view[0], min(view[1], height))
        xr, yr = (x0, x1), (y0, y1)
        if view is not None:
            k = (x1 - x0) / width  # miles per pixel
            xr, yr = (x0, x0 + frame[0] * k), (y1 - frame[1] * k, y1)
        p = figure(
            frame_width=frame[0],
            frame_height=frame[1],
            x_range=xr,
            y_range=yr,
            tools="pan,wheel_zoom,box_zoom,reset,save",
            active_scroll=None,
            toolbar_location="above",
            # short enough to clear the toolbar at this width (the legend says what a click does)
            title=f"Rumor of War: {game.scenario.title if hasattr(game.scenario, 'title') else ''} "
            "(10-mile hexes)",
            background_fill_color=TERRAIN_COLOURS["sea"],
            min_border=4,
        )
        p.grid.visible = p.axis.visible = False
        p.toolbar.logo = None
        p.title.text_font_size = "13px"
        tiles = p.patches(
            "xs",
            "ys",
            source=s["hexes"],
            fill_color="colour",
            line_color="#ffffff",
            line_width=1,
            selection_line_color=PICK,
            selection_line_width=4,
        )
        _dmz_hatch(p, hx)
        for feat, colour, lw, dash in (
            ("border", "#7b1fa2", 2.5, "dashed"),
            ("area", "#263238", 2, "dashdot"),
            ("river", "#1e73be", 2, "solid"),
            ("road", "#c62828", 2.5, "solid"),
            ("trail", "#ef6c00", 3, "dotted"),
        ):
            p.multi_line(
                "xs",
                "ys",
                source=ColumnDataSource(layers[feat]),
                line_color=colour,
                line_width=lw,
                line_dash=dash,
            )
        p.text(
            "x",
            "y",
            text="hex",
            source=s["hexes"],
            text_font_size=f"{self.fonts['number']}px",
            text_color="#3a3a3a",
            text_align="center",
            text_baseline="bottom",
            y_offset=-self.fonts["number"],
        )
        places = p.scatter(
            "x",
            "y",
            source=s["places"],
            size="size",
            marker="square",
            fill_color="#212121",
            line_color="white",
            selection_line_color=PICK,
            selection_line_width=3,
        )
        options = p.multi_line(
            "xs", "ys", source=s["options"], line_color=PICK, line_width=2, line_dash=[4, 3]
        )
        active = p.multi_line("xs", "ys", source=s["active"], line_color=ACTIVE, line_width=3.5)
        chips = p.text(
            "x",
            "y",
            text="text",
            source=s["chips"],
            text_align="center",
            text_baseline="middle",
            text_color="text_color",
            text_font_size=f"{self.fonts['chip']}px",
            text_font_style="bold",
            background_fill_color="fill",
            border_line_color="line_color",
            border_line_width=1.5,
            padding=[3, 1],
            border_radius=2,
        )
        badges = p.text(
            "x",
            "y",
            text="text",
            source=s["badges"],
            text_align="center",
            text_baseline="middle",
            text_font_size=f"{self.fonts['badge']}px",
            text_font_style="bold",
            text_color="#222222",
            background_fill_color="fill",
            border_line_color="#555555",
            padding=[2, 0],
        )
        self._frame = (x0, y1, width / (x1 - x0), width, height)
        s["places"].data.update(self._name_offsets(dyn))
        names = LabelSet(
            x="x",
            y="y",
            text="label",
            source=s["places"],
            x_offset="dx",
            y_offset="dy",
            text_font_size=f"{self.fonts['name']}px",
            text_font_style="bold",
            background_fill_color="white",
            background_fill_alpha=0.8,
            text_line_height=NAME_LINE,
            level="overlay",
        )
        for r in p.renderers:
            r.nonselection_glyph = None  # a click picks a hex; it must not grey out the rest of the map
        for r in (options, active, chips, badges):
            # counters above the town names: a stack is never hidden by a label; the decision's hexes and the
            # activation under way with them: what an Apply changes is on the overlay canvas, and repainting it
            # leaves the hexes, their numbers and the lines alone (issue #31 item 5)
            r.level = "overlay"
        tip = '<div style="max-width:340px;font:12px sans-serif;line-height:1.3">@tip{safe}</div>'
        p.add_tools(
            HoverTool(renderers=[chips, badges], tooltips=tip),
            HoverTool(
                renderers=[tiles], tooltips=[("hex", "@hex"), ("terrain", "@terrain"), ("area", "@area")]
            ),
            TapTool(renderers=[chips, places, tiles], behavior="select"),
        )
        self._add_highlight(p, width=4.5)  # the hex a click picked (issue #31): a crimson outline
        # on the overlay canvas, bottom to top as before it held them: the decision's hexes and the activation, the
        # place names (clipped to the frame, as annotations are), the crimson outline of a click, the counters
        outline = [r for r in p.renderers if r.name in ("highlight_areas", "highlight_points")]
        rest = [r for r in p.renderers if r not in (options, active, *outline)]
        at = rest.index(chips)
        p.renderers = [*rest[:at], options, active, names, *outline, *rest[at:]]
        self.figure = p
        self.legend = Div(text=self._legend(), width=frame[0])
        self.layout = column(p, self.legend)
        self._connect()
        self.follow(dyn)

    def follow(self, dyn: dict[str, Any] | None = None) -> tuple[float, float, float, float] | None:
        """A map with a ``view``: at a new decision, pan (and zoom out as far as needed, up to the whole window) so
        that the hexes the decision concerns, and the activation under way, are in sight.  Returns the ranges set
        (x0, x1, y0, y1), or None when nothing moved (no view, the same decision, no hex to show, or every hex to
        show already in sight at the scale it would be shown at: a change of the ranges makes the browser repaint
        the whole map, hexes, numbers and lines, some 20,000 canvas calls, issue #31 item 5)."""
        if self.view is None:
            return None
        dyn = self.dynamic if dyn is None else dyn
        key = (self.game.position, self.game.decision.rule_id if self.game.decision is not None else None)
        if key == self._followed:
            return None
        self._followed = key
        # the decision's hexes; else the activation under way; else where the side's own forces stand
        hexes = list(dyn["options"]["hex"]) or list(dyn["active"]["hex"]) or list(dyn.get("own", ()))
        if not hexes:
            return None
        pts = [hex_centre(h, RADIUS_MI) for h in hexes]
        bx0, bx1 = min(x for x, _ in pts) - 2 * RADIUS_MI, max(x for x, _ in pts) + 2 * RADIUS_MI
        by0, by1 = min(y for _, y in pts) - 2 * RADIUS_MI, max(y for _, y in pts) + 2 * RADIUS_MI
        x0, x1, y0, y1 = self.bounds
        fw, fh = self.figure.frame_width, self.figure.frame_height
        k = max((x1 - x0) / self._frame[3], (bx1 - bx0) / fw, (by1 - by0) / fh)  # miles per pixel
        k = min(k, max((x1 - x0) / fw, (y1 - y0) / fh))  # never further out than the whole window
        xr = self.figure.x_range
        if self.in_sight((bx0, bx1, by0, by1)) and abs(abs(xr.end - xr.start) / fw - k) <= 1e-6 * k:
            return None  # in sight at the scale it would be shown at: nothing to move
        w, h = fw * k, fh * k
        cx = min(max((bx0 + bx1) / 2, x0 + w / 2), x1 - w / 2) if w < x1 - x0 else (x0 + x1) / 2
        cy = min(max((by0 + by1) / 2, y0 + h / 2), y1 - h / 2) if h < y1 - y0 else (y0 + y1) / 2
        ranges = (cx - w / 2, cx + w / 2, cy - h / 2, cy + h / 2)
        xr, yr = self.figure.x_range, self.figure.y_range
        xr.start, xr.end, yr.start, yr.end = ranges
        return ranges

    def in_sight(self, box: tuple[float, float, float, float]) -> bool:
        """Whether ``box`` (x0, x1, y0, y1 in map miles) lies inside the map's frame as it is now (the ranges the
        kernel set, or the student's pan and zoom, which the browser sends back)."""
        xr, yr = self.figure.x_range, self.figure.y_range
        lo_x, hi_x = sorted((xr.start, xr.end))
        lo_y, hi_y = sorted((yr.start, yr.end))
        return lo_x <= box[0] and box[1] <= hi_x and lo_y <= box[2] and box[3] <= hi_y

    def _dynamic(self) -> dict[str, Any]:
        return row_unit_chips(self.game, self.side)

    def _place_shape(self, place: str) -> tuple[str, Any] | None:
        """A hex of the window as an outlined area (the crimson mark of a click)."""
        if place not in self._window_hexes:
            return None
        xs, ys = hex_corners(place, RADIUS_MI)
        return "area", ([[list(xs)]], [[list(ys)]])

    # ------------------------------------------------------------------ place names clear of the counters
    def _px(self, x: float, y: float) -> tuple[float, float]:
        """Screen pixels (y down, origin at the frame's top left) of a map point (grid miles, north up)."""
        x0, y1, scale, _, _ = self._frame
        return (x - x0) * scale, (y1 - y) * scale

    def counter_boxes(self, dyn: dict[str, Any] | None = None) -> list[Box]:
        """The screen boxes of the unit chips and hex-marker badges (as drawn: bold 12 px and 9 px text with
        their padding and border) and of the town squares."""
        dyn = self.dynamic if dyn is None else dyn
        boxes = []
        for layer, font, pad in (
            ("chips", self.fonts["chip"], (4.5, 2.5)),
            ("badges", self.fonts["badge"], (3, 1)),
        ):
            d = dyn[layer]
            for x, y, t in zip(d["x"], d["y"], d["text"], strict=True):
                w, h = text_size(t, font, pad_x=pad[0], pad_y=pad[1])
                cx, cy = self._px(x, y)
                boxes.append((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2))
        pl = self.static["places"]
        for x, y, size in zip(pl["x"], pl["y"], pl["size"], strict=True):
            cx, cy = self._px(x, y)
            boxes.append((cx - size / 2 - 1, cy - size / 2 - 1, cx + size / 2 + 1, cy + size / 2 + 1))
        return boxes

    def name_boxes(self) -> list[Box]:
        """The screen boxes of the place names as drawn now (LabelSet: bottom-left at the offset, y up)."""
        d = self.sources["places"].data
        return [
            self._name_box(x, y, t, dx, dy)
            for x, y, t, dx, dy in zip(d["x"], d["y"], d["label"], d["dx"], d["dy"], strict=True)
        ]

    def _name_box(self, x: float, y: float, text: str, dx: float, dy: float) -> Box:
        lines = text.split("\n")
        font = self.fonts["name"]
        w = max(text_size(t, font)[0] for t in lines) + 2
        h = font * NAME_LINE * (len(lines) - 1) + font * 1.2
        cx, cy = self._px(x, y)
        return (cx + dx, cy - dy - h, cx + dx + w, cy - dy)

    def _name_offsets(self, dyn: dict[str, Any]) -> dict[str, list[Any]]:
        """Where each place name goes (pixel offsets for the LabelSet) so that it covers no chip, badge, town
        or other name, stays inside the frame, and covers as few hex numbers as it can: beside its town first,
        then above, below, or a little further off (``labels.place``, towns by rank: cities first)."""
        texts, cands, offsets, prefs = self._name_candidates()
        _, _, _, width, height = self._frame
        chosen = place(
            cands,
            self.counter_boxes(dyn),
            self._number_boxes(),
            (0, 0, width, height),
            prefs=prefs,
            soft_weight=0.08,
            gap=3,
        )
        return {
            "label": texts,
            "dx": [offsets[i][k][0] for i, k in enumerate(chosen)],
            "dy": [offsets[i][k][1] for i, k in enumerate(chosen)],
        }

    def _name_candidates(
        self,
    ) -> tuple[list[str], list[list[Box]], list[list[tuple[int, int]]], list[list[float]]]:
        """Each place name's text and its candidate spots: boxes, LabelSet offsets and preferences (lower is
        better: beside the town, then above or below, then diagonally, then further off); computed once."""
        if getattr(self, "_candidates", None) is None:
            self._candidates = self._make_candidates()
        return self._candidates

    def _make_candidates(self):
        pl = self.static["places"]
        _, _, scale, width, height = self._frame
        r = RADIUS_MI * scale
        texts = [_two_lines(n) for n in pl["name"]]
        cands, offsets, prefs = [], [], []
        for x, y, text in zip(pl["x"], pl["y"], texts, strict=True):
            w, h = (b := self._name_box(x, y, text, 0, 0))[2] - b[0], b[3] - b[1]
            near = []  # (dx, dy, preference): beside the town, then above or below, then diagonally
            for dx in (6, 0.5 * r, 0.9 * r, 1.3 * r, 1.7 * r):
                for shift in (0, 4, -4, 8, -8):
                    near += [
                        (dx, shift - h / 2, dx + abs(shift)),
                        (-dx - w, shift - h / 2, dx + abs(shift) + 3),
                    ]
            for dy in (7, 0.45 * r, 0.9 * r, 1.4 * r):
                near += [(-w / 2, dy, dy + 8), (-w / 2, -dy - h, dy + 8)]
            for dx in (6, 0.9 * r, 1.6 * r):
                for dy in (0.35 * r, 0.7 * r, 1.1 * r, 1.5 * r):
                    near += [
                        (dx, dy - h / 2, dx + dy + 10),
                        (dx, -dy - h / 2, dx + dy + 10),
                        (-dx - w, dy - h / 2, dx + dy + 13),
                        (-dx - w, -dy - h / 2, dx + dy + 13),
                    ]
            for dx in (2.2 * r, 3 * r):  # last resorts, in a crowded corner: further off
                for dy in (-1.5 * r, -0.75 * r, 0, 0.75 * r, 1.5 * r):
                    near += [
                        (dx, dy - h / 2, 2 * dx + abs(dy) + 20),
                        (-dx - w, dy - h / 2, 2 * dx + abs(dy) + 23),
                    ]
            for dy in (2 * r, 2.8 * r):
                near += [(-w / 2, dy, 2 * dy + 20), (-w / 2, -dy - h, 2 * dy + 20)]
            near.sort(key=lambda o: o[2])
            offsets.append([(round(dx), round(dy)) for dx, dy, _ in near])
            cx, cy = self._px(x, y)
            cands.append(
                [
                    (cx + round(dx), cy - round(dy) - h, cx + round(dx) + w, cy - round(dy))
                    for dx, dy, _ in near
                ]
            )  # as _name_box draws it
            prefs.append([pref for _, _, pref in near])
        return texts, cands, offsets, prefs

    def _number_boxes(self) -> Grid:
        """The hex numbers' screen boxes (9 px text just above each hex's centre), computed once."""
        if not hasattr(self, "_numbers"):
            numbers = []
            hx = self.static["hexes"]
            for x, y, num in zip(hx["x"], hx["y"], hx["hex"], strict=True):
                cx, cy = self._px(x, y)
                f = self.fonts["number"]
                w = text_size(num, f, bold=False)[0]
                numbers.append((cx - w / 2, cy - 2 * f - 2, cx + w / 2, cy - f))
            self._numbers = Grid(numbers)
        return self._numbers

    def _after_update(self, dyn: dict[str, Any]) -> None:
        """Move the names that the counters now cover: a patch of the offsets that changed."""
        new = self._name_offsets(dyn)
        src = self.sources["places"]
        patch = {
            c: [(i, v) for i, (v, old) in enumerate(zip(new[c], src.data[c], strict=True)) if v != old]
            for c in ("dx", "dy")
        }
        if any(patch.values()):
            src.patch({c: p for c, p in patch.items() if p})
        self.follow(dyn)

    @staticmethod
    def _legend() -> str:
        chip = (
            '<span style="display:inline-block;padding:0 4px;margin:1px 3px;border-radius:2px;'
            'font:bold 11px sans-serif;background:{bg};color:{fg};border:1.5px solid {bd}">{t}</span>'
        )
        nat = "".join(
            chip.format(bg=c, fg="white", bd="white", t=n)
            for n, c in NATION.items()
            if n in ("US", "ARVN", "ROK", "PAVN", "VC")
        )
        terr = "".join(
            f'<span style="display:inline-block;width:12px;height:10px;background:{c};border:1px solid '
            f'#999;margin:0 3px 0 8px"></span>{t}'
            for t, c in TERRAIN_COLOURS.items()
            if t != "sea"
        )
        return (
            '<div style="font:12px sans-serif;line-height:1.9"><b>Counters</b> (one chip per nationality and '
            "hex; hover for names): "
            + nat
            + " "
            + chip.format(bg=NATION["US"], fg="white", bd="white", t="HQ")
            + "headquarters, "
            + chip.format(bg=NATION["VC"], fg="white", bd="white", t="3")
            + "three fresh units, "
            + chip.format(bg=_pale(NATION["VC"]), fg=NATION["VC"], bd="white", t="2")
            + "two spent units, "
            + chip.format(bg=NATION["US"], fg="white", bd="#e00000", t="1")
            + "a marker on the stack "
            "(out of command, routed, random event)<br><b>Hex markers</b>: \u2605 objective (its value), FB fire "
            "base, LZ landing zone, T tunnel, B bunker. "
            f'<span style="color:{ACTIVE};font-weight:bold">Orange ring</span>: the activation under way; '
            f'<span style="color:{PICK};font-weight:bold">crimson dashes</span>: the hexes your pending '
            "decision concerns (click one to see its choices)<br><b>Terrain</b>: "
            + terr
            + ' &nbsp; <span style="color:#c62828">&#9473;</span> road, <span style="color:#ef6c00">&#8942;'
            '</span> Ho Chi Minh Trail, <span style="color:#1e73be">&#9473;</span> river, '
            '<span style="color:#7b1fa2">- -</span> border, &#9632; town or city</div>'
        )
