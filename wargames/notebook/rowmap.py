"""Vietnam: Rumor of War's theatre map drawn with Bokeh (issue #15 deliverable 1): terrain by hex, sea,
borders, roads, the Ho Chi Minh Trail with its termini, rivers, the DMZ, towns and cities with their names.

``row_map_figure()`` draws the whole theatre (4,455 hexes); ``row_map_figure(window=CLASSROOM)`` the
classroom window of "A Year in I Corps" (I Corps, the DMZ and the Laotian panhandle) at projector size,
with hex numbers.  The data is ``wargames.row.hexmap`` (every datum sourced in ``data/row/map/``).
"""

from __future__ import annotations

from typing import Any

from ..maps.hexgrid import hex_centre, hex_corners, hexside_segment, parse_hex
from ..row.hexmap import RADIUS_MI, load_map
from .bokehmap import InteractiveMap

TERRAIN_COLOURS = {"cultivated": "#d9e8a6", "clear": "#efe8c8", "jungle": "#5f9e5a", "mountain": "#a88a62",
                   "swamp": "#8fc7b8", "sea": "#a9cde8"}
# columns and rows of the classroom window (the scenario's map window, R-SCN rows)
CLASSROOM = ((12, 41), (28, 59))


def _in(window, col: int, row: int) -> bool:
    return window is None or (window[0][0] <= col <= window[0][1] and window[1][0] <= row <= window[1][1])


def row_map_layers(window=None) -> dict[str, dict[str, list[Any]]]:
    """Plain columns for each layer (no colours but the terrain's): hexes, roads, trail, rivers, places."""
    m = load_map()
    hexes: dict[str, list[Any]] = {"hex": [], "xs": [], "ys": [], "x": [], "y": [], "terrain": [], "colour": [],
                                   "country": [], "area": [], "hatch": []}
    for hid, h in m.hexes.items():
        if not _in(window, h.col, h.row):
            continue
        cx, cy = hex_corners(hid, RADIUS_MI)  # map coordinates, north up (wargames.maps.hexgrid)
        x, y = hex_centre(hid, RADIUS_MI)
        terrain = "sea" if h.kind == "sea" else h.terrain
        hexes["hex"].append(hid)
        hexes["xs"].append(cx)
        hexes["ys"].append(cy)
        hexes["x"].append(x)
        hexes["y"].append(y)
        hexes["terrain"].append(terrain + (" (DMZ)" if h.area == "DMZ" else ""))
        hexes["colour"].append(TERRAIN_COLOURS[terrain])
        hexes["country"].append(h.country)
        hexes["area"].append(h.area)
        hexes["hatch"].append("/" if h.area == "DMZ" else " ")
    lines: dict[str, dict[str, list[Any]]] = {f: {"xs": [], "ys": [], "name": []}
                                              for f in ("road", "trail", "river", "border", "area")}
    for hid, h in m.hexes.items():  # Corps and CMD boundaries inside South Vietnam (rule 14.6)
        if h.country != "SVN" or not _in(window, h.col, h.row):
            continue
        for other in m.adj[hid]:
            o = m.hexes[other]
            if o.country == "SVN" and o.area != h.area and other > hid:
                sx, sy = hexside_segment(hid, other, RADIUS_MI)
                lines["area"]["xs"].append(sx)
                lines["area"]["ys"].append(sy)
                lines["area"]["name"].append(f"{h.area} / {o.area}")
    for (a, b), feats in m.sides.items():
        ca, cb = parse_hex(a), parse_hex(b)
        if not (_in(window, *ca) or _in(window, *cb)):
            continue
        (xa, ya), (xb, yb) = hex_centre(a, RADIUS_MI), hex_centre(b, RADIUS_MI)
        for f in feats & {"road", "trail"}:
            lines[f]["xs"].append([xa, xb])
            lines[f]["ys"].append([ya, yb])
            lines[f]["name"].append(m.side_names.get(((a, b), f), ""))
        for f in feats & {"river", "border"}:  # drawn on the shared side of the two hexes
            sx, sy = hexside_segment(a, b, RADIUS_MI)
            lines[f]["xs"].append(sx)
            lines[f]["ys"].append(sy)
            lines[f]["name"].append(m.side_names.get(((a, b), f), ""))
    rank = {"city": 0, "town": 1, "base": 2}
    by_hex: dict[str, list[Any]] = {}
    for p in m.places.values():
        if p.hex and p.kind in rank and _in(window, *parse_hex(p.hex)):
            by_hex.setdefault(p.hex, []).append(p)
    places: dict[str, list[Any]] = {"x": [], "y": [], "name": [], "kind": [], "hex": [], "size": []}
    for hid, group in sorted(by_hex.items(), key=lambda kv: min(rank[p.kind] for p in kv[1])):
        group.sort(key=lambda p: (rank[p.kind], p.name))
        x, y = hex_centre(hid, RADIUS_MI)
        places["x"].append(x)
        places["y"].append(y)
        places["name"].append(" / ".join(p.name for p in group))  # places sharing a hex share a label
        places["kind"].append(group[0].kind)
        places["hex"].append(hid)
        places["size"].append({"city": 11, "town": 8, "base": 7}[group[0].kind])
    return {"hexes": hexes, **lines, "places": places}


def row_map_figure(window=None, *, width: int = 900, height: int | None = None, hex_numbers: bool | None = None,
                   title: str | None = None):
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
    p = figure(width=width, height=height, match_aspect=True, tools="pan,wheel_zoom,reset,save",
               active_scroll=None, title=title or ("Rumor of War: the theatre" if window is None else
                                                   "Rumor of War: I Corps, the DMZ and the Laotian panhandle"),
               x_range=(x0, x1), y_range=(min(ys), max(ys)))
    p.grid.visible = p.axis.visible = False
    p.toolbar.logo = None
    src = ColumnDataSource(hx, name="hexes")
    tiles = p.patches("xs", "ys", source=src, fill_color="colour", line_color="#ffffff",
                      line_width=0.5 if window is None else 1)
    _dmz_hatch(p, hx)
    p.add_tools(HoverTool(renderers=[tiles], tooltips=[("hex", "@hex"), ("terrain", "@terrain"),
                                                         ("area", "@area")]))
    p.multi_line("xs", "ys", source=ColumnDataSource(layers["border"]), line_color="#7b1fa2", line_width=2.5,
                 line_dash="dashed", legend_label="border")
    p.multi_line("xs", "ys", source=ColumnDataSource(layers["area"]), line_color="#263238", line_width=2,
                 line_dash="dashdot", legend_label="Corps boundary")
    p.multi_line("xs", "ys", source=ColumnDataSource(layers["river"]), line_color="#1e73be", line_width=2,
                 legend_label="river")
    p.multi_line("xs", "ys", source=ColumnDataSource(layers["road"]), line_color="#c62828", line_width=2.5,
                 legend_label="road")
    p.multi_line("xs", "ys", source=ColumnDataSource(layers["trail"]), line_color="#ef6c00", line_width=3,
                 line_dash="dotted", legend_label="Ho Chi Minh Trail")
    pl = ColumnDataSource(layers["places"])
    if window is None:  # the whole theatre: name the cities only, or the names would cover the map
        keep = [i for i, k in enumerate(layers["places"]["kind"]) if k == "city"]
        named = {k: [v[i] for i in keep] for k, v in layers["places"].items()}
    else:
        named = layers["places"]
    named_src = ColumnDataSource(named)
    p.scatter("x", "y", source=pl, size="size", marker="square", fill_color="#212121", line_color="white")
    show_numbers = (window is not None) if hex_numbers is None else hex_numbers
    if show_numbers:
        p.text("x", "y", text="hex", source=src, text_font_size="7px", text_color="#555555",
               text_align="center", text_baseline="bottom", y_offset=9)
    named_src.data.update(_place_labels(named, width / max(span_x, 1e-9), 11 if window is not None else 9))
    labels = LabelSet(x="x", y="y", text="name", source=named_src, x_offset="dx", y_offset="dy",
                      text_font_size="11px" if window is not None else "9px", text_font_style="bold",
                      background_fill_color="white", background_fill_alpha=0.7)
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
    p.patches("xs", "ys", source=src, fill_color=None, line_color=None, hatch_pattern="/", hatch_color="#b71c1c",
              hatch_alpha=0.5, hatch_scale=8)


def _place_labels(places: dict[str, list[Any]], px_per_unit: float, font_px: int,
                  gap: float = 7) -> dict[str, list[int]]:
    """Screen offsets for each place name so no two names overlap: right of the marker if free, else left,
    above or below (greedy, cities first); the box of a name is estimated from its length.  ``gap``: the
    distance from the marker (the play map puts names past the hex's edge, clear of its counters)."""
    taken: list[tuple[float, float, float, float]] = []
    dx, dy = [], []
    for x, y, name in zip(places["x"], places["y"], places["name"], strict=True):
        w, h = 0.62 * font_px * len(name) + 6, font_px + 4
        cx, cy = x * px_per_unit, y * px_per_unit
        for ox, oy in ((gap, -5), (-gap - w, -5), (-w / 2, 8), (-w / 2, -8 - h), (7, 8), (7, -18)):
            box = (cx + ox, cy + oy, cx + ox + w, cy + oy + h)
            if not any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in taken):
                break
        taken.append(box)
        dx.append(int(ox))
        dy.append(int(oy))
    return {"dx": dx, "dy": dy}


# ---------------------------------------------------------------------------------------------- the play map
#: counter colours per nationality (Capitalist greens and blues, Communist reds and black)
NATION = {"US": "#1e6b2e", "ARVN": "#1f4fbf", "ROK": "#7b3fa0", "Thai": "#7b3fa0", "Aus": "#7b3fa0",
          "Cmb": "#5d6d7e", "Laos": "#5d6d7e", "PAVN": "#c0392b", "VC": "#111111", "PRC": "#8e1b1b",
          "PL": "#8e1b1b", "KhR": "#8e1b1b"}
PICK = "#c2185b"  # the hex a click picked, and the hexes the pending decision concerns
ACTIVE = "#ff7f0e"  # the activating HQ and its units (ROW-9.2)
MAX_CHIPS = 4  # chips per hex (2 x 2); a fifth kind of counter is folded into the last chip


def _pale(colour: str, k: float = 0.62) -> str:
    """``colour`` mixed with white (a spent unit's chip, its counter flipped)."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#{:02x}{:02x}{:02x}".format(*(round(c + (255 - c) * k) for c in (r, g, b)))


def row_unit_chips(game, side: str | None) -> dict[str, dict[str, list[Any]]]:
    """The counters on the map as ``side`` sees them, drawn as chips: per hex one chip per nationality for its
    HQs ("HQ"), its fresh units (their number, solid) and its spent units (their number, pale) (ROW-9.3 fresh and
    spent); a red border marks a stack with a marker on it (OOC, Routed, a random event).  Hex markers
    (objectives, fire bases, landing zones, tunnels, bunkers) are badges at the top of the hex.  Rings mark the
    hexes of the activation in progress (``active``) and of the pending decision's choices (``options``)."""
    st = game.public_state(side)
    rows = game.rows
    sx, sy = (-3.0, 3.0), (-0.5, 3.6)  # chip offsets in grid miles (two columns, two rows under the hex number)
    groups: dict[str, dict[tuple[str, str], list[str]]] = {}
    for uid, hid in st["pos"].items():
        r = rows[uid]
        status = "HQ" if r.kind == "hq" else ("fresh" if st["fresh"].get(uid, True) else "spent")
        groups.setdefault(hid, {}).setdefault((r.nationality, status), []).append(uid)
    order = {"HQ": 0, "fresh": 1, "spent": 2}
    chips: dict[str, list[Any]] = {k: [] for k in ("hex", "x", "y", "text", "fill", "text_color", "line_color",
                                                   "tip")}
    for hid, g in groups.items():
        cx, cy = hex_centre(hid, RADIUS_MI)  # y up (north up on the page)
        keys = sorted(g, key=lambda k: (rows[g[k][0]].side != (side or rows[g[k][0]].side), order[k[1]], k[0]))
        if len(keys) > MAX_CHIPS:  # fold the rest into the last chip
            keys = keys[:MAX_CHIPS - 1] + [("+", "more")]
            g = {**g, ("+", "more"): [u for k in sorted(g, key=lambda k: (order[k[1]], k[0]))[MAX_CHIPS - 1:]
                                      for u in g[k]]}
        for i, (nat, status) in enumerate(keys):
            uids = g[(nat, status)]
            colour = NATION.get(nat, "#5d6d7e")
            chips["hex"].append(hid)
            chips["x"].append(cx + sx[i % 2])
            chips["y"].append(cy - sy[i // 2])
            if status == "HQ":
                text = "HQ" if len(uids) == 1 else f"HQ{len(uids)}"
            else:
                text = str(len(uids))
            chips["text"].append(text)
            chips["fill"].append(_pale(colour) if status == "spent" else colour)
            chips["text_color"].append(colour if status == "spent" else "white")
            marked = any(st["markers"].get(u) for u in uids)
            chips["line_color"].append("#e00000" if marked else "white")
            lines = []
            for u in sorted(uids):
                r = rows[u]
                what = "HQ" if r.kind == "hq" else r.unit_type
                state = "" if r.kind == "hq" else (" fresh" if st["fresh"].get(u, True) else " spent")
                marks = st["markers"].get(u) or []
                extra = f" [{', '.join(marks)}]" if marks else ""
                lines.append(f"{html_escape(r.name)} ({r.nationality} {what}{state}){html_escape(extra)}")
            chips["tip"].append(f"<b>hex {hid}{_place_suffix(game, hid)}</b><br>" + "<br>".join(lines))
    badges: dict[str, list[Any]] = {k: [] for k in ("hex", "x", "y", "text", "fill", "tip")}

    def badge(hid: str, text: str, fill: str, tip: str) -> None:
        cx, cy = hex_centre(hid, RADIUS_MI)
        k = badges["hex"].count(hid)
        badges["hex"].append(hid)
        badges["x"].append(cx + (3.6 if k % 2 == 0 else -3.6))
        badges["y"].append(cy + 2.6)
        badges["text"].append(text)
        badges["fill"].append(fill)
        badges["tip"].append(f"<b>hex {hid}{_place_suffix(game, hid)}</b><br>{tip}")

    for hid, o in st["objectives"].items():
        value = o.get("value")
        badge(hid, f"\u2605{value if value is not None else '?'}", "#f2c200",
              f"Objective marker ({'value ' + str(value) if value is not None else 'value hidden'}, ROW-12.1.3)")
    for hid, kind in st["fire_bases"].items():
        badge(hid, "FB", "#9ad0ff" if kind == "Fire Base" else "#ff9a9a", f"{kind} (ROW-14.1.2)")
    for hid in st["lz"]:
        badge(hid, "LZ", "#9ad0ff", "Landing Zone (ROW-14.1.2)")
    for hid, state in st["tunnels"].items():
        badge(hid, "T", "#d7c19a", f"Tunnel ({state}, ROW-14.3)")
    for hid, kind in st["works"].items():
        badge(hid, "B", "#d7c19a", f"{kind} (ROW-14.3)")
    def rings(hexes) -> dict[str, list[Any]]:
        out: dict[str, list[Any]] = {"hex": [], "xs": [], "ys": []}
        for hid in sorted(hexes):
            cx, cy = hex_corners(hid, RADIUS_MI)
            out["hex"].append(hid)
            out["xs"].append(cx + cx[:1])
            out["ys"].append(cy + cy[:1])
        return out

    act = st.get("act")
    active = {st["pos"][u] for u in ([act["hq"], *act["units"]] if act else []) if u in st["pos"]}
    d = game.decision
    options = set()
    if d is not None and (side is None or d.side == side):
        options = {p for a in d.options for p in a.places if p in game.map.hexes}
    return {"chips": chips, "badges": badges, "active": rings(active), "options": rings(options)}


def html_escape(s: str) -> str:
    import html

    return html.escape(s)


def _place_suffix(game, hid: str) -> str:
    names = [p.name for p in game.map.places_in.get(hid, ()) if p.kind in ("city", "town", "base")]
    return f" ({html_escape(' / '.join(names))})" if names else ""


class RowMapView(InteractiveMap):
    """The classroom window of a Rumor of War game (the scenario's map window) as ``side`` sees it, with its
    counters: terrain hexes with their numbers, roads, rivers, the Trail, borders, towns; unit and HQ chips per hex
    (``row_unit_chips``); clicks on a hex, a town or a chip report the hex id (the ``places`` of the actions)."""

    TAP_PRIORITY = {"chips": 0, "places": 1, "hexes": 2}

    @classmethod
    def draws(cls, game) -> bool:
        """This view draws "hex" games with a Rumor of War map (10-mile hexes, ``map.window``) and a scenario
        window."""
        m = getattr(game, "map", None)
        return (game.facts().map_kind == "hex" and hasattr(m, "places_in") and hasattr(m, "hexes")
                and hasattr(getattr(game, "scenario", None), "map_window"))
    PLACE_COLUMN = {"chips": "hex", "places": "hex", "hexes": "hex"}
    DYNAMIC_LAYERS = ("chips", "badges", "active", "options")

    def __init__(self, game, side: str | None = None, *, width: int = 1150, window=None):
        from bokeh.layouts import column
        from bokeh.models import ColumnDataSource, Div, HoverTool, LabelSet, TapTool
        from bokeh.plotting import figure

        self.game = game
        self.side = side
        self._init_state()
        w = game.window
        window = window or ((w.cols[0], w.cols[1]), (w.rows[0], w.rows[1]))
        layers = row_map_layers(window)
        self.static = layers
        dyn = self._dynamic()
        self.dynamic = dyn
        hx = layers["hexes"]
        s = {"hexes": ColumnDataSource(hx, name="hexes"), "places": ColumnDataSource(layers["places"], name="places")}
        for n in self.DYNAMIC_LAYERS:
            s[n] = ColumnDataSource(dict(dyn[n]), name=n)
        self.sources = s
        xs = [v for r in hx["xs"] for v in r]
        ys = [v for r in hx["ys"] for v in r]
        x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
        height = int(width * (y1 - y0) / (x1 - x0))
        p = figure(frame_width=width, frame_height=height, x_range=(x0, x1), y_range=(y0, y1),
                   tools="pan,wheel_zoom,box_zoom,reset,save", active_scroll=None, toolbar_location="above",
                   title=f"Rumor of War: {game.scenario.title if hasattr(game.scenario, 'title') else ''} "
                         "(10-mile hexes; click a hex to see the choices that concern it)",
                   background_fill_color=TERRAIN_COLOURS["sea"], min_border=4)
        p.grid.visible = p.axis.visible = False
        p.toolbar.logo = None
        p.title.text_font_size = "13px"
        tiles = p.patches("xs", "ys", source=s["hexes"], fill_color="colour", line_color="#ffffff", line_width=1,
                          selection_line_color=PICK, selection_line_width=4)
        _dmz_hatch(p, hx)
        for feat, colour, lw, dash in (("border", "#7b1fa2", 2.5, "dashed"), ("area", "#263238", 2, "dashdot"),
                                       ("river", "#1e73be", 2, "solid"), ("road", "#c62828", 2.5, "solid"),
                                       ("trail", "#ef6c00", 3, "dotted")):
            p.multi_line("xs", "ys", source=ColumnDataSource(layers[feat]), line_color=colour, line_width=lw,
                         line_dash=dash)
        p.text("x", "y", text="hex", source=s["hexes"], text_font_size="9px", text_color="#3a3a3a",
               text_align="center", text_baseline="bottom", y_offset=-9)
        places = p.scatter("x", "y", source=s["places"], size="size", marker="square", fill_color="#212121",
                           line_color="white", selection_line_color=PICK, selection_line_width=3)
        p.multi_line("xs", "ys", source=s["options"], line_color=PICK, line_width=2, line_dash=[4, 3])
        p.multi_line("xs", "ys", source=s["active"], line_color=ACTIVE, line_width=3.5)
        chips = p.text("x", "y", text="text", source=s["chips"], text_align="center", text_baseline="middle",
                       text_color="text_color", text_font_size="12px", text_font_style="bold",
                       background_fill_color="fill", border_line_color="line_color", border_line_width=1.5,
                       padding=[3, 1], border_radius=2)
        badges = p.text("x", "y", text="text", source=s["badges"], text_align="center", text_baseline="middle",
                        text_font_size="9px", text_font_style="bold", text_color="#222222",
                        background_fill_color="fill", border_line_color="#555555", padding=[2, 0])
        scale = width / (x1 - x0)
        s["places"].data.update(_place_labels(layers["places"], scale, 11, gap=0.9 * RADIUS_MI * scale))
        p.add_layout(LabelSet(x="x", y="y", text="name", source=s["places"], x_offset="dx", y_offset="dy",
                              text_font_size="11px", text_font_style="bold", background_fill_color="white",
                              background_fill_alpha=0.75))
        for r in p.renderers:
            r.nonselection_glyph = None  # a click picks a hex; it must not grey out the rest of the map
        for r in (chips, badges):
            r.level = "overlay"  # counters above the town names: a stack is never hidden by a label
        tip = '<div style="max-width:340px;font:12px sans-serif;line-height:1.3">@tip{safe}</div>'
        p.add_tools(HoverTool(renderers=[chips, badges], tooltips=tip),
                    HoverTool(renderers=[tiles], tooltips=[("hex", "@hex"), ("terrain", "@terrain"),
                                                           ("area", "@area")]),
                    TapTool(renderers=[chips, places, tiles], behavior="select"))
        self.figure = p
        self.legend = Div(text=self._legend(), width=width)
        self.layout = column(p, self.legend)
        self._connect()

    def _dynamic(self) -> dict[str, Any]:
        return row_unit_chips(self.game, self.side)

    @staticmethod
    def _legend() -> str:
        chip = ('<span style="display:inline-block;padding:0 4px;margin:1px 3px;border-radius:2px;'
                'font:bold 11px sans-serif;background:{bg};color:{fg};border:1.5px solid {bd}">{t}</span>')
        nat = "".join(chip.format(bg=c, fg="white", bd="white", t=n) for n, c in NATION.items()
                      if n in ("US", "ARVN", "ROK", "PAVN", "VC"))
        terr = "".join(f'<span style="display:inline-block;width:12px;height:10px;background:{c};border:1px solid '
                       f'#999;margin:0 3px 0 8px"></span>{t}' for t, c in TERRAIN_COLOURS.items() if t != "sea")
        return ('<div style="font:12px sans-serif;line-height:1.9"><b>Counters</b> (one chip per nationality and '
                "hex; hover for names): " + nat + " "
                + chip.format(bg=NATION["US"], fg="white", bd="white", t="HQ") + "headquarters, "
                + chip.format(bg=NATION["VC"], fg="white", bd="white", t="3") + "three fresh units, "
                + chip.format(bg=_pale(NATION["VC"]), fg=NATION["VC"], bd="white", t="2") + "two spent units, "
                + chip.format(bg=NATION["US"], fg="white", bd="#e00000", t="1") + "a marker on the stack "
                "(out of command, routed, random event)<br><b>Hex markers</b>: \u2605 objective (its value), FB fire "
                "base, LZ landing zone, T tunnel, B bunker. "
                f'<span style="color:{ACTIVE};font-weight:bold">Orange ring</span>: the activation under way; '
                f'<span style="color:{PICK};font-weight:bold">crimson dashes</span>: the hexes your pending '
                "decision concerns (click one to see its choices)<br><b>Terrain</b>: " + terr
                + ' &nbsp; <span style="color:#c62828">&#9473;</span> road, <span style="color:#ef6c00">&#8942;'
                '</span> Ho Chi Minh Trail, <span style="color:#1e73be">&#9473;</span> river, '
                '<span style="color:#7b1fa2">- -</span> border, &#9632; town or city</div>')
