"""The Fire in the Lake board in Bokeh: spaces tinted by Support/Opposition, pieces as wooden-piece glyphs.

Everything on the board comes from the one map contract, ``game.map_layers(side)`` (for a bare
:class:`~wargames.fitl.state.Board`, ``wargames.fitl.mapdata.map_layers``): the spaces with their facts, the
LoCs, the towns and the pieces; this module only decides how they look and where names and pieces go.
Cubes are squares, Bases are discs (with a "T" when Tunneled), Guerrillas/Irregulars/Rangers are
hexagonal cylinders: hollow when Underground, solid when Active.  The side panel shows the tracks, the four
victory markers and the Available, Casualties and Out of Play boxes.
"""

from __future__ import annotations

import html
from typing import Any

from bokeh.layouts import row
from bokeh.models import ColumnDataSource, CustomJS, Div, GlyphRenderer, HoverTool, Range1d, TapTool
from bokeh.plotting import figure

from .bokehmap import InteractiveMap
from .fitlboard_layout import (
    CHIP_W,
    COLUMNS,
    DIGIT,
    GLYPH,
    PITCH,
    BoardGeometry,
    _layout_pieces,
    _place_names,
    _places,
)
from .palette import darker, palette, text_on
from .raster import Canvas, image_glyph

COLOURS = palette("fitl")  # the one palette of the game: the board, its panel and the margins charts
COUNTRY_FILL = {"NVN": "#e9e2d4", "SVN": "#f4f1e6", "LAO": "#e4e4de", "KHM": "#e4e4de", "THA": "#efeee9"}
SUPPORT_FILL = {2: "#5aae61", 1: "#b8e0b0", 0: "#f3f1e7", -1: "#f6c6a5", -2: "#e0795b"}
LOC_COLOUR = {"highway": "#5b4a3a", "mekong": "#3b7fbf", "highway_mekong": "#5b4a3a"}
MARKER = {"cube": "square", "disc": "circle", "cylinder": "hex"}
# Control labels: a chip in the controlling faction's colour with black or white text, legible on any space
CONTROL_FILL = {"coin": COLOURS["ARVN"], "nva": COLOURS["NVA"]}
TOOLTIP = '<div style="max-width:320px;font-size:12px;line-height:1.25">@tip{safe}</div>'
DYNAMIC = (
    "pieces",
    "control",
    "markers",
    "leaders",
    "frames",
)  # provinces and cities: their fills and outlines patched, their hover texts sent apart (_after_update)
#: the layers an Apply changes most often, drawn on the figure's overlay canvas (issue #31 item 5): repainting them
#: leaves the Provinces, LoCs and names alone (each is placed clear of names and City circles, so they look the same)
OVERLAY = ("control", "markers", "pieces")
#: in the browser, copies the hover texts that changed (``tips``: layer, row, text) into the Provinces' and Cities'
#: own ``tip`` columns in place: a hover reads them there, and no glyph is repainted (a change of a layer's source
#: repaints the whole board, and an Apply changes the hover texts of the spaces whose pieces moved)
TIPS_JS = """
const d = tips.data;
for (let k = 0; k < d.tip.length; k++) {
  const src = d.layer[k] == "cities" ? cities : provinces;
  const col = src.data.tip;
  if (col != null && d.row[k] < col.length) col[d.row[k]] = d.tip[k];
}
"""


SEA = "#cfe2ee"
_PICTURES: dict[tuple, str] = {}


def static_picture(static: dict[str, Any], xr, yr, w: int, h: int) -> str:
    """The countries (filled, outlined), the rivers and the dashed borders of the board's window ``xr`` x ``yr``
    (``w`` x ``h`` pixels)
    as one PNG ``data:`` URL (``wargames.notebook.raster``), under the Provinces, whose fills change: drawn once
    per kernel, shown as one image, so a redraw of the board costs one image instead of about 5,400 line
    segments (issue #31 item 5)."""
    co, rv, bd = static["countries"], static["rivers"], static["borders"]
    key = (
        tuple(xr),
        tuple(yr),
        w,
        h,
        hash((tuple(co["id"]), tuple(co["fill"]), len(rv["xs"]), len(bd["xs"]))),
    )
    if key in _PICTURES:
        return _PICTURES[key]
    canvas = Canvas(xr, yr, w, h, SEA)
    for xs, ys, fill in zip(co["xs"], co["ys"], co["fill"], strict=True):
        for part_x, part_y in zip(xs, ys, strict=True):
            canvas.rings(list(zip(part_x, part_y, strict=True)), fill)
    for xs, ys in zip(co["xs"], co["ys"], strict=True):
        for part_x, part_y in zip(xs, ys, strict=True):
            for ring_x, ring_y in zip(part_x, part_y, strict=True):
                canvas.line([*ring_x, ring_x[0]], [*ring_y, ring_y[0]], "#b5b0a0", 0.6)
    for xs, ys in zip(rv["xs"], rv["ys"], strict=True):
        canvas.line(xs, ys, "#7fb0d6", 1)
    for xs, ys in zip(bd["xs"], bd["ys"], strict=True):
        canvas.line(xs, ys, "#c0392b", 1.2, "dashed")
    _PICTURES[key] = url = canvas.png_url()
    return url


SUPPORT_NAME = {
    2: "Active Support",
    1: "Passive Support",
    0: "Neutral",
    -1: "Passive Opposition",
    -2: "Active Opposition",
}  # FITL-1.6, the names of the key
STATE_CODE = {"Underground": "u", "Active": "a", "Tunneled": "t", "": ""}


def static_layers(layers: dict[str, Any]) -> dict[str, Any]:
    """The drawing columns that never change, from the map layers: the real geography around the board's extent
    (``data/geo``), Province shapes, LoCs, towns and the spaces' names (with their Population)."""
    from wargames.maps.geo import background_layers

    ex = layers["extent"]
    box = (ex["x"][0] - 1, ex["y"][0] - 1, ex["x"][1] + 1, ex["y"][1] + 1)
    out: dict[str, Any] = {"extent": {"x": tuple(ex["x"]), "y": tuple(ex["y"])}, **background_layers(box, {})}
    places = _places(layers)
    prov: dict[str, list] = {"id": [], "name": [], "country": [], "xs": [], "ys": []}
    locs: dict[str, list] = {"id": [], "name": [], "xs": [], "ys": [], "terrain": [], "econ": []}
    towns: dict[str, list] = {"name": [], "x": [], "y": []}
    names: dict[str, list] = {"id": [], "x": [], "y": [], "text": [], "kind": []}
    for pid, p in places.items():
        f = p["facts"]
        if p["kind"] == "province" and p["shape"] == "polygon":
            prov["id"].append(pid)
            prov["name"].append(p["name"])
            prov["country"].append(f.get("country"))
            prov["xs"].append(p["xs"])
            prov["ys"].append(p["ys"])
        elif p["kind"] == "loc" and p["shape"] == "line":
            for xs, ys in zip(p["xs"], p["ys"], strict=True):
                locs["id"].append(pid)
                locs["name"].append(p["name"])
                locs["xs"].append(xs)
                locs["ys"].append(ys)
                locs["terrain"].append(f.get("terrain") or "highway")
                locs["econ"].append(f.get("econ", 0))
        elif p["kind"] == "town":
            towns["name"].append(p["name"])
            towns["x"].append(p["x"])
            towns["y"].append(p["y"])
        if p["kind"] in ("province", "city"):
            names["id"].append(pid)
            names["x"].append(p["x"])
            names["y"].append(p["y"])
            pop = f" ({f['population']})" if f.get("population") else ""
            names["text"].append(f"{p['name']}{pop}")
            names["kind"].append(p["kind"])
    out.update(provinces=prov, locs=locs, towns=towns, names=names)
    return out


def dynamic_layers(layers: dict[str, Any]) -> dict[str, Any]:
    """Support/Control per space and one glyph per piece kind and state, with its count, from the map layers.

    ``support`` is the FITL-1.6 level (2 Active Support ... -2 Active Opposition; None for a space without
    Population, which has no Support or Opposition); ``control`` is "coin", "nva" or None (FITL-1.7)."""
    places = _places(layers)
    fills: dict[str, list] = {"id": [], "support": [], "country": []}
    cities: dict[str, list] = {"id": [], "x": [], "y": [], "support": [], "control": []}
    for pid, p in places.items():
        f = p["facts"]
        if p["kind"] == "province":
            fills["id"].append(pid)
            fills["support"].append(f.get("support") if f.get("population") else None)
            fills["country"].append(f.get("country"))
        elif p["kind"] == "city":
            cities["id"].append(pid)
            cities["x"].append(p["x"])
            cities["y"].append(p["y"])
            cities["support"].append(f.get("support") or 0)
            cities["control"].append(f.get("control"))
    items: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    pc = layers["pieces"]
    for place, faction, facts in zip(pc["place"], pc["faction"], pc["facts"], strict=True):
        items.setdefault(place, []).extend((faction, it) for it in facts)
    pieces: dict[str, list] = {
        "space": [],
        "key": [],
        "x": [],
        "y": [],
        "shape": [],
        "faction": [],
        "state": [],
        "count": [],
        "label": [],
    }
    control: dict[str, list] = {"id": [], "x": [], "y": [], "text": [], "control": []}
    markers: dict[str, list] = {"x": [], "y": [], "text": []}
    for pid, p in places.items():
        if p["kind"] == "town":
            continue
        x0, y0 = p["x"], p["y"]
        here = items.get(pid, [])
        city = p["kind"] == "city"
        for i, (faction, it) in enumerate(here):
            col, rowno = i % COLUMNS, i // COLUMNS
            width = min(len(here), COLUMNS)
            if city:  # a City's pieces stand south-east of it (often over the sea), under its name
                x = x0 + 0.2 + col * PITCH
                y = y0 - 0.13 - rowno * PITCH
            else:
                x = x0 + (col - (width - 1) / 2) * PITCH
                y = y0 - 0.16 - rowno * PITCH
            n, st = it["count"], STATE_CODE[it["state"]]
            pieces["space"].append(pid)
            pieces["key"].append(it["key"])
            pieces["x"].append(round(x, 4))
            pieces["y"].append(round(y, 4))
            pieces["shape"].append(it["shape"])
            # Police are ARVN cubes of their own colour on the physical board
            pieces["faction"].append("Police" if it["piece"] == "arvn_police" else faction)
            pieces["state"].append(st)
            pieces["count"].append(n)
            pieces["label"].append(("T" if st == "t" else "") + (str(n) if n > 1 or st == "t" else ""))
        f = p["facts"]
        c = f.get("control")
        if c and p["kind"] != "loc":
            control["id"].append(pid)
            control["x"].append(x0)
            control["y"].append(y0)
            control["text"].append("COIN" if c == "coin" else "NVA")
            control["control"].append(c)
        terror = f.get("terror") or 0
        extra = (["Terror" + (f" x{terror}" if terror > 1 else "")] if terror else []) + (
            ["Sabotage"] if f.get("sabotage") else []
        )
        if extra:
            markers["x"].append(x0)
            markers["y"].append(y0 + 0.25)
            markers["text"].append(" ".join(extra))
    return {"provinces": fills, "cities": cities, "pieces": pieces, "control": control, "markers": markers}


def _panel_html(dyn: dict[str, Any]) -> str:

    def rows(items):
        return "".join(
            f"<tr><td>{html.escape(str(k))}</td><td style='text-align:right'><b>{v}</b></td></tr>"
            for k, v in items
        )

    tracks = dyn["tracks"]
    keys = list(tracks)
    out = [
        '<div style="font:12px sans-serif;line-height:1.35;width:250px">',
        "<b>Tracks</b><table>" + rows((k, tracks[k]) for k in keys[:7]) + "</table>",
        "<b>Victory markers</b> (FITL-1.9)<table>" + rows((k, tracks[k]) for k in keys[7:]) + "</table>",
    ]
    for box, title in (
        ("available", "Available"),
        ("casualties", "Casualties"),
        ("out_of_play", "Out of Play"),
    ):
        content = dyn["boxes"][box]
        out.append(
            f"<b>{title}</b><br>"
            + (", ".join(f"{n} {html.escape(k)}" for k, n in content.items()) or "empty")
            + "<br>"
        )
    chip = '<span style="display:inline-block;width:11px;height:11px;background:{c};border:1px solid #777;margin:0 3px 0 0"></span>{t}'
    out.append(
        "<b>Key</b><br>"
        + "<br>".join(chip.format(c=SUPPORT_FILL[v], t=SUPPORT_NAME[v]) for v in (2, 1, 0, -1, -2))
    )
    shapes = {
        "square": "&#9632; cube (Troops, Police)",
        "circle": "&#9679; disc (Base, T = Tunneled)",
        "hex": "&#11042; cylinder (Guerrillas, Irregulars, Rangers); hollow = Underground, solid = Active",
    }
    out.append("<br>" + "<br>".join(shapes.values()))
    out.append(
        "<br>"
        + " ".join(
            f'<span style="background:{c};color:{text_on(c)};font-weight:bold;padding:0 3px">{f}</span>'
            for f, c in COLOURS.items()
        )
    )
    out.append(
        "<br>Numbers by a piece count identical pieces; a COIN or NVA chip before a name = who Controls the space (FITL-1.7).</div>"
    )
    return "".join(out)


def _space_tips(layers: dict[str, Any]) -> dict[str, str]:
    """The hover text of every space, from its facts in the map layers (HTML lives in the kit)."""
    pieces: dict[str, list[dict[str, Any]]] = {}
    pc = layers["pieces"]
    for place, facts in zip(pc["place"], pc["facts"], strict=True):
        pieces.setdefault(place, []).extend(facts)
    out = {}
    for pid, p in _places(layers).items():
        if p["kind"] == "town":
            continue
        f = p["facts"]
        bits = [
            f"<b>{_esc(p['name'])}</b> ({_esc(p['kind'])}"
            + (f", {f['terrain']}" if f.get("terrain") else "")
            + (f", Pop {f['population']}" if f.get("population") else "")
            + (f", Econ {f.get('econ')}" if p["kind"] == "loc" else "")
            + ")"
        ]
        if p["kind"] != "loc" and f.get("population"):
            bits.append(f"{SUPPORT_NAME[f['support']]} (FITL-1.6)")
        bits.append(
            {"coin": "COIN Control", "nva": "NVA Control", None: "no Control"}[f.get("control")]
            + " (FITL-1.7)"
        )
        here = [
            f"{it['count']} {it['name']}" + (f" ({it['state']})" if it["state"] else "")
            for it in pieces.get(pid, [])
        ]
        bits.append(", ".join(here) if here else "no pieces")
        if f.get("terror"):
            bits.append(f"{f['terror']} Terror marker(s)")
        if f.get("sabotage"):
            bits.append("Sabotaged")
        out[pid] = "<br>".join(bits)
    return out


def _esc(x: Any) -> str:
    return html.escape(str(x))


def _styled(
    dyn: dict[str, Any],
    names_at: dict[str, tuple[float, ...]] | None = None,
    geo: BoardGeometry | None = None,
    layers: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The drawing columns of ``dynamic_layers`` with this view's colours and hover texts (from ``layers``);
    with ``geo``, the piece blocks laid out (:func:`_layout_pieces`) and their leader lines."""
    out = dict(dyn)
    tips = _space_tips(layers) if layers is not None else {}
    for layer, col in (("provinces", "id"), ("cities", "id"), ("pieces", "space")):
        out[layer] = dict(dyn[layer])
        out[layer]["tip"] = [tips.get(i, "") for i in dyn[layer][col]]
    prov = dict(out["provinces"])
    prov["fill"] = [
        SUPPORT_FILL[s] if s is not None else COUNTRY_FILL.get(c, "#eee")
        for s, c in zip(prov["support"], prov["country"], strict=True)
    ]
    out["provinces"] = prov
    cities = dict(out["cities"])
    cities["fill"] = [SUPPORT_FILL[s] for s in cities["support"]]
    cities["line"] = [CONTROL_FILL.get(c, "#555") if c else "#555" for c in cities["control"]]
    out["cities"] = cities
    pieces = {k: list(v) for k, v in out["pieces"].items()}
    out["leaders"] = {"space": [], "xs": [], "ys": [], "x": [], "y": []}
    out["frames"] = {"space": [], "x": [], "y": [], "w": [], "h": []}
    if geo is not None:
        marks = []
        for x, y, t in zip(dyn["markers"]["x"], dyn["markers"]["y"], dyn["markers"]["text"], strict=True):
            mx, my = geo.px(x, y)
            w = len(t) * 9 * 0.64
            marks.append((mx - w / 2, my - 7, mx + w / 2, my + 7))
        key = (tuple(pieces["space"]), tuple(pieces["label"]), tuple(marks))
        if geo.last is not None and geo.last[0] == key:  # the same blocks as last time: the same layout
            pieces["x"], pieces["y"] = list(geo.last[1]), list(geo.last[2])
            out.update({k: {c: list(v) for c, v in d.items()} for k, d in geo.last[3].items()})
        else:
            layout = _layout_pieces(pieces, geo, marks)
            geo.last = (key, list(pieces["x"]), list(pieces["y"]), layout)
            out.update(layout)
    pieces["marker"] = [MARKER[s] for s in pieces["shape"]]
    pieces["colour"] = [COLOURS[f] for f in pieces["faction"]]
    pieces["alpha"] = [0.12 if st == "u" else 1.0 for st in pieces["state"]]
    out["pieces"] = pieces
    control = dict(dyn["control"])
    control["fill"] = [CONTROL_FILL[c] for c in control["control"]]
    control["colour"] = [text_on(f) for f in control["fill"]]
    at = names_at or {}
    control["xoff"] = [at.get(i, (0, 0))[0] + 2 for i in control["id"]]  # in the name's box, left of the name
    control["yoff"] = [at.get(i, (0, 0))[1] - 1 for i in control["id"]]
    out["control"] = control
    return out


class FitlBoardView(InteractiveMap):
    """The board of a FitL game (``game.map_layers(side)``) or of a bare :class:`~wargames.fitl.state.Board`."""

    TAP_PRIORITY = {"pieces": 0, "cities": 1, "names": 2, "provinces": 3}
    PLACE_COLUMN = {"pieces": "space"}

    @classmethod
    def draws(cls, game) -> bool:
        """This view draws games of the "board" kind that keep a FitL-style ``board`` of spaces."""
        kind = game.facts().map_kind if hasattr(game, "facts") else ""
        return kind == "board" and hasattr(getattr(game, "board", None), "support")

    DYNAMIC_LAYERS = DYNAMIC

    def __init__(self, game_or_board, side: str | None = None, *, height: int = 900):
        self.game = game_or_board
        self.side = side
        self._init_state()
        layers = self._layers()
        EXTENT = layers["extent"]  # noqa: N806
        self._anchor = {
            pid: (x, y)
            for pid, x, y in zip(
                layers["places"]["id"], layers["places"]["x"], layers["places"]["y"], strict=True
            )
        }
        static = static_layers(layers)
        countries = dict(static["countries"])
        countries["fill"] = [COUNTRY_FILL.get(c, "#efeee9") for c in countries["id"]]
        static["countries"] = countries
        locs = dict(static["locs"])
        locs["colour"] = [LOC_COLOUR.get(t, "#5b4a3a") for t in locs["terrain"]]
        locs["width"] = [2.5 + 1.5 * e for e in locs["econ"]]
        static["locs"] = locs
        names = dict(static["names"])
        city = [k == "city" for k in names["kind"]]
        names["size"] = ["11px" if c else "10px" for c in city]
        self._height = height
        self._geo = BoardGeometry(layers, height)
        self._names_at = _place_names(
            names, dict(zip(names["id"], names["kind"], strict=True)), height, EXTENT, self._geo
        )
        self._geo.set_names(self._names_at)
        names["align"] = ["left"] * len(city)
        names["xoff"] = [self._names_at[i][0] + CHIP_W for i in names["id"]]
        names["yoff"] = [self._names_at[i][1] for i in names["id"]]
        static["names"] = names
        self.static = static
        dyn = self._dynamic(layers)
        self.dynamic = dyn
        src = {
            n: ColumnDataSource(dict(static[n]), name=n)
            for n in ("countries", "borders", "rivers", "locs", "towns", "names")
        }
        shape = dict(static["provinces"])
        fill = dict(zip(dyn["provinces"]["id"], dyn["provinces"]["fill"], strict=True))
        tip = dict(zip(dyn["provinces"]["id"], dyn["provinces"]["tip"], strict=True))
        shape["fill"] = [fill[i] for i in shape["id"]]
        shape["tip"] = [tip[i] for i in shape["id"]]
        src["provinces"] = ColumnDataSource(shape, name="provinces")
        for n in ("cities", "pieces", "control", "markers", "leaders", "frames"):
            src[n] = ColumnDataSource({k: list(v) for k, v in dyn[n].items()}, name=n)
        self.sources = src
        # the hover texts that an update changed, on their way to the layers' ``tip`` columns (TIPS_JS)
        self.tips = ColumnDataSource({"layer": [], "row": [], "tip": []}, name="tips")
        self.tips.js_on_change(
            "data",
            CustomJS(
                args={"tips": self.tips, "provinces": src["provinces"], "cities": src["cities"]}, code=TIPS_JS
            ),
        )

        dx = EXTENT["x"][1] - EXTENT["x"][0]
        dy = EXTENT["y"][1] - EXTENT["y"][0]
        width = int(height * dx / dy)
        f = figure(
            frame_width=width,
            frame_height=height,
            x_range=Range1d(*EXTENT["x"]),
            y_range=Range1d(*EXTENT["y"]),
            tools="pan,wheel_zoom,box_zoom,reset,save",
            active_scroll=None,
            match_aspect=True,
            background_fill_color=SEA,
            toolbar_location="above",
        )
        f.axis.visible = False
        f.grid.visible = False
        # the countries, rivers and borders never change: one picture (static_picture), not 5,000 line segments
        # repainted at every update (issue #31 item 5)
        image_glyph(
            f, static_picture(static, EXTENT["x"], EXTENT["y"], width, height), EXTENT["x"], EXTENT["y"]
        )
        prov = f.multi_polygons(
            "xs",
            "ys",
            source=src["provinces"],
            fill_color="fill",
            fill_alpha=0.85,
            line_color="#6d6a5f",
            line_width=1,
        )
        f.multi_line("xs", "ys", source=src["locs"], line_color="colour", line_width="width", line_alpha=0.8)
        # a block that stands outside its space (a City's, a LoC's, a crowded Province's) hangs on a leader line
        # from the space, in a white frame
        f.multi_line("xs", "ys", source=src["leaders"], line_color="#222", line_width=1.3)
        f.scatter(
            "x",
            "y",
            source=src["leaders"],
            size=5,
            marker="circle",
            fill_color="#222",
            line_color="white",
            line_width=1,
        )
        f.rect(
            "x",
            "y",
            width="w",
            height="h",
            source=src["frames"],
            fill_color="white",
            fill_alpha=0.75,
            line_color="#222",
            line_width=1,
        )
        f.scatter(
            "x", "y", source=src["towns"], size=5, marker="square", fill_color="#333", line_color="#333"
        )
        cities = f.scatter(
            "x",
            "y",
            source=src["cities"],
            size=22,
            marker="circle",
            fill_color="fill",
            line_color="line",
            line_width=3,
        )
        names = f.text(
            "x",
            "y",
            text="text",
            source=src["names"],
            text_font_size="size",
            text_align="align",
            x_offset="xoff",
            text_baseline="bottom",
            y_offset="yoff",
            text_color="#222",
            text_font_style="bold",
            background_fill_color="white",
            background_fill_alpha=0.55,
        )
        f.text(
            "x",
            "y",
            text="text",
            source=src["control"],
            text_font_size="9px",
            text_align="left",
            text_color="colour",
            text_font_style="bold",
            text_baseline="bottom",
            x_offset="xoff",
            y_offset="yoff",
            background_fill_color="fill",
            border_line_color=darker(COLOURS["ARVN"], 0.5),
            border_line_width=0.5,
            padding=[2, 0],
        )
        f.text(
            "x",
            "y",
            text="text",
            source=src["markers"],
            text_font_size="9px",
            text_align="center",
            text_color="#6a1b9a",
            text_font_style="bold italic",
        )
        pieces = f.scatter(
            "x",
            "y",
            source=src["pieces"],
            marker="marker",
            size=12,
            fill_color="colour",
            fill_alpha="alpha",
            line_color="colour",
            line_width=2,
        )
        f.text(
            "x",
            "y",
            text="label",
            source=src["pieces"],
            text_font_size="9px",
            x_offset=7,
            y_offset=2,
            text_baseline="middle",
            text_color="#111",
            text_font_style="bold",
        )
        for r in f.renderers:
            if isinstance(r, GlyphRenderer) and r.data_source.name in OVERLAY:
                r.level = "overlay"
        hover = self._hover_outline(f, prov)
        self._add_highlight(f, width=3)
        f.add_tools(HoverTool(renderers=[pieces, cities, prov], tooltips=TOOLTIP, callback=hover))
        f.add_tools(TapTool(renderers=[pieces, cities, names, prov]))
        f.tags = [self.tips]  # in the document (nothing drawn refers to it), so its changes reach the browser
        self.figure = f
        self.panel = Div(text=_panel_html(dyn), width=260)
        self.layout = row(f, self.panel)
        self._connect()

    @property
    def board(self):
        return getattr(self.game, "board", self.game)

    def _layers(self) -> dict[str, Any]:
        """The one map contract: the game's ``map_layers(side)``, or a bare board's."""
        if hasattr(self.game, "map_layers"):
            return self.game.map_layers(self.side)
        from wargames.fitl.mapdata import map_layers

        return map_layers(self.game, self.side)

    def _dynamic(self, layers: dict[str, Any] | None = None) -> dict[str, Any]:
        from wargames.fitl.mapdata import board_tracks

        layers = layers if layers is not None else self._layers()
        out = _styled(
            dynamic_layers(layers), getattr(self, "_names_at", None), getattr(self, "_geo", None), layers
        )
        out.update(board_tracks(self.board))  # the side panel: tracks and boxes, off the map
        return out

    def piece_blocks(self) -> dict[str, tuple[float, float, float, float]]:
        """Each space's block of pieces as drawn, in screen pixels (y down): the union of its glyphs (with their
        outline) and counts (for the tests and for a look at the board)."""
        geo = self._geo
        p = self.sources["pieces"].data
        out: dict[str, tuple[float, float, float, float]] = {}
        for sid, x, y, label in zip(p["space"], p["x"], p["y"], p["label"], strict=True):
            cx, cy = geo.px(x, y)
            b = (cx - GLYPH, cy - GLYPH, cx + GLYPH + DIGIT * len(str(label)), cy + GLYPH)
            o = out.get(sid, b)
            out[sid] = (min(o[0], b[0]), min(o[1], b[1]), max(o[2], b[2]), max(o[3], b[3]))
        return out

    def _place_shape(self, place: str):
        st = self.static
        if place in st["provinces"]["id"]:
            i = st["provinces"]["id"].index(place)
            return "area", (st["provinces"]["xs"][i], st["provinces"]["ys"][i])
        c = self.sources["cities"].data
        if place in c["id"]:
            i = list(c["id"]).index(place)
            return "point", (c["x"][i], c["y"][i], 30)
        if place in self._anchor:  # a LoC: a ring at its middle
            x, y = self._anchor[place]
            return "point", (x, y, 24)
        return None

    @staticmethod
    def _hover_outline(f, prov) -> CustomJS:
        """The orange outline of the Province under the mouse, on the figure's overlay canvas (issue #31 item 5):
        drawn by the hover tool's script from a source that stays in the browser (``syncable=False``), so moving the
        mouse across the board repaints that one outline, never the board (a hover style on the Provinces' own
        layer repainted every glyph of the board, some 9,000 canvas calls, at each Province crossed)."""
        src = ColumnDataSource({"xs": [], "ys": []}, name="hover_outline", syncable=False)
        f.multi_polygons(
            "xs", "ys", source=src, fill_alpha=0, line_color="#e06a00", line_width=2.5, level="overlay"
        )
        clear = "if (hov.__wg_k != -1) { hov.__wg_k = -1; hov.data = {xs: [], ys: []}; }"
        f.js_on_event("mouseleave", CustomJS(args={"hov": src}, code=clear))
        return CustomJS(
            args={"hov": src, "prov": prov, "data": prov.data_source},
            code="""
if (cb_data.renderer !== prov) return;
const hit = cb_data.index.indices;
const k = hit.length ? hit[0] : -1;
if (hov.__wg_k === k) return;
hov.__wg_k = k;
hov.data = k < 0 ? {xs: [], ys: []} : {xs: [data.data.xs[k]], ys: [data.data.ys[k]]};
""",
        )

    def _after_update(self, dyn: dict[str, Any]) -> None:
        """The Provinces' fills and the Cities' columns that changed (Support, Control: a repaint of the board); the
        hover texts that changed go through ``tips`` (no repaint, ``TIPS_JS``) and are kept in step here in place
        (a whole re-send of the map, ``resync``, carries them); the side panel."""
        changed: dict[str, list] = {"layer": [], "row": [], "tip": []}
        for layer, cols in (
            ("provinces", ("fill",)),
            ("cities", ("x", "y", "support", "control", "fill", "line")),
        ):
            src = self.sources[layer]
            new = dyn[layer]
            at = {sid: k for k, sid in enumerate(new["id"])}
            rows = [at[sid] for sid in src.data["id"]]
            patch = {c: [new[c][k] for k in rows] for c in cols}
            patch = {c: v for c, v in patch.items() if list(src.data[c]) != v}
            if patch:
                src.data.update(patch)
            tips = src.data["tip"]  # in place: no event (the browser gets the changes through ``tips``)
            for j, k in enumerate(rows):
                if tips[j] != new["tip"][k]:
                    tips[j] = new["tip"][k]
                    changed["layer"].append(layer)
                    changed["row"].append(j)
                    changed["tip"].append(new["tip"][k])
        if changed["row"]:
            self.tips.data = changed
        text = _panel_html(dyn)
        if self.panel.text != text:
            self.panel.text = text
