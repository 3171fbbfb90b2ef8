"""Vietnam: Rumor of War's theatre map drawn with Bokeh (issue #15 deliverable 1): terrain by hex, sea,
borders, roads, the Ho Chi Minh Trail with its termini, rivers, the DMZ, towns and cities with their names.

``row_map_figure()`` draws the whole theatre (4,455 hexes); ``row_map_figure(window=CLASSROOM)`` the
classroom window of "A Year in I Corps" (I Corps, the DMZ and the Laotian panhandle) at projector size,
with hex numbers.  The data is ``wargames.row.hexmap`` (every datum sourced in ``data/row/map/``).
"""

from __future__ import annotations

from typing import Any

from ..row.hexmap import centre_xy, corners_xy, load_map, parse_hex

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
        pts = corners_xy(h.col, h.row)
        x, y = centre_xy(h.col, h.row)
        terrain = "sea" if h.kind == "sea" else h.terrain
        hexes["hex"].append(hid)
        hexes["xs"].append([p[0] for p in pts])
        hexes["ys"].append([-p[1] for p in pts])  # y grows south in grid miles; north up on the page
        hexes["x"].append(x)
        hexes["y"].append(-y)
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
                ca, cb = (h.col, h.row), (o.col, o.row)
                shared = [q for q in corners_xy(*ca) if any(abs(q[0] - r[0]) + abs(q[1] - r[1]) < 1e-6
                                                           for r in corners_xy(*cb))]
                if len(shared) == 2:
                    lines["area"]["xs"].append([shared[0][0], shared[1][0]])
                    lines["area"]["ys"].append([-shared[0][1], -shared[1][1]])
                    lines["area"]["name"].append(f"{h.area} / {o.area}")
    for (a, b), feats in m.sides.items():
        ca, cb = parse_hex(a), parse_hex(b)
        if not (_in(window, *ca) or _in(window, *cb)):
            continue
        (xa, ya), (xb, yb) = centre_xy(*ca), centre_xy(*cb)
        for f in feats & {"road", "trail"}:
            lines[f]["xs"].append([xa, xb])
            lines[f]["ys"].append([-ya, -yb])
            lines[f]["name"].append(m.side_names.get(((a, b), f), ""))
        for f in feats & {"river", "border"}:  # drawn on the shared side of the two hexes
            shared = [p for p in corners_xy(*ca) if any(abs(p[0] - q[0]) + abs(p[1] - q[1]) < 1e-6
                                                       for q in corners_xy(*cb))]
            if len(shared) == 2:
                lines[f]["xs"].append([shared[0][0], shared[1][0]])
                lines[f]["ys"].append([-shared[0][1], -shared[1][1]])
                lines[f]["name"].append(m.side_names.get(((a, b), f), ""))
    rank = {"city": 0, "town": 1, "base": 2}
    by_hex: dict[str, list[Any]] = {}
    for p in m.places.values():
        if p.hex and p.kind in rank and _in(window, *parse_hex(p.hex)):
            by_hex.setdefault(p.hex, []).append(p)
    places: dict[str, list[Any]] = {"x": [], "y": [], "name": [], "kind": [], "hex": [], "size": []}
    for hid, group in sorted(by_hex.items(), key=lambda kv: min(rank[p.kind] for p in kv[1])):
        group.sort(key=lambda p: (rank[p.kind], p.name))
        x, y = centre_xy(*parse_hex(hid))
        places["x"].append(x)
        places["y"].append(-y)
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
                      line_width=0.5 if window is None else 1, hatch_pattern="hatch", hatch_color="#b71c1c",
                      hatch_alpha=0.5, hatch_scale=8)
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


def _place_labels(places: dict[str, list[Any]], px_per_unit: float, font_px: int) -> dict[str, list[int]]:
    """Screen offsets for each place name so no two names overlap: right of the marker if free, else left,
    above or below (greedy, cities first); the box of a name is estimated from its length."""
    taken: list[tuple[float, float, float, float]] = []
    dx, dy = [], []
    for x, y, name in zip(places["x"], places["y"], places["name"], strict=True):
        w, h = 0.62 * font_px * len(name) + 6, font_px + 4
        cx, cy = x * px_per_unit, y * px_per_unit
        for ox, oy in ((7, -5), (-7 - w, -5), (-w / 2, 8), (-w / 2, -8 - h), (7, 8), (7, -18)):
            box = (cx + ox, cy + oy, cx + ox + w, cy + oy + h)
            if not any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in taken):
                break
        taken.append(box)
        dx.append(int(ox))
        dy.append(int(oy))
    return {"dx": dx, "dy": dy}
