"""The Tet map as plain data: what to draw, where, in which colour (no Bokeh here).

``static_layers(game)`` returns the layers that never change (land, countries, borders, provinces,
sanctuaries, Corps boundaries, the Highway, the Ho Chi Minh Trail, cities, off-map boxes);
``dynamic_layers(game, side)`` the layers that change with play (unit markers, insurrection markers,
the areas the latest ruling concerns).  Every layer is a ``{column: list}`` dict, ready to become a
Bokeh ``ColumnDataSource`` in ``wargames.notebook`` and easy to test without Bokeh.

Conventions
* Coordinates are longitude (x) and latitude (y) in degrees.  Polygons use Bokeh's ``multi_polygons``
  nesting: ``xs[i]`` is a list of polygons, each a list of rings (outer ring first, then holes).
* Units are drawn as "chits", one per faction per area (``VC 3``), grouped as ``side`` may see them: a
  side never learns the name, faction or strength of an enemy unit that is face down (it is drawn as a
  grey ``? n`` chit), exactly as ``game.view(side)`` masks it.  ``side=None`` is the umpire's view.
* Chit positions are an anchor in degrees plus an offset in screen pixels (``dx``, ``dy``; y grows
  downwards), so stacks stay legible at every zoom level.
* Areas without a polygon in ``data/tet/areas.geojson`` (or when that file is missing) are drawn as
  circles around their position: ``static_layers(game)["geometry"]`` says which was used.
"""

from __future__ import annotations

import html
import math
from collections import defaultdict
from typing import Any

from ..core.data import game_dir, read_geojson

# ---------------------------------------------------------------------------------------------- styling
FACTION_COLOURS = {"NVA": "#c0392b", "VC": "#111111", "USA": "#1e6b2e", "SVN": "#1f4fbf"}
RUFF_PUFF = "#7f9fe0"      # the SVN militia: a lighter blue
HIDDEN = "#6b6b6b"         # a face-down enemy unit: grey with "?"
TERRAIN_FILL = {"lowland": "#bcd99a", "highland": "#c9a97c", "marsh": "#93c9b9"}
FOREIGN_FILL = {"lowland": "#d8d8d2", "highland": "#cdcbc5", "marsh": "#d8d8d2", None: "#d3d3cd"}
COUNTRY_FILL = {"NVN": "#e7e0d2", "SVN": "#f4f1e6", "LAO": "#e2e2dc", "KHM": "#e2e2dc", "THA": "#efeee9"}
SANCTUARY = "#c81e1e"
CORPS_LINE = "#f2c200"
TRAIL = "#8b5a2b"
FOCUS = "#ff7f0e"
SEA = "#cfe2ee"

# The whole theatre (main map) and the two close-ups a class needs to read (lon, lat ranges).
EXTENT = {"x": (104.0, 110.0), "y": (8.35, 17.65)}
INSETS = (
    {"id": "hue", "title": "I Corps close-up: the DMZ, Khe Sanh and Hue", "x": (106.3, 108.0), "y": (15.95, 17.35)},
    {"id": "saigon", "title": "III/IV Corps close-up: Saigon and the upper delta", "x": (105.85, 107.45),
     "y": (10.1, 11.42)},
)
# Off-map holding boxes, drawn in the empty South China Sea (centre lon, lat; they hold chits).
BOX_PLACES = {
    "offmap_box_1": (108.45, 10.05), "offmap_box_2": (109.45, 10.05), "recce_pool": (108.45, 9.35),
    "casualties": (109.45, 9.35), "eliminated": (108.95, 8.7),
    "offshore_11": (107.95, 17.05), "offshore_12": (108.75, 16.3), "offshore_13": (109.2, 15.45),
}
BOX_SIZE = (0.9, 0.55)                           # degrees (w, h) of a sea box
CORPS_LABELS = {"I": (108.85, 16.75), "II": (109.6, 13.6), "III": (107.75, 10.95), "IV": (105.35, 8.95)}

CHIT_PITCH = 15        # px between chit rows
FACTION_ORDER = {"NVA": 0, "VC": 1, "NVA/VC": 2, "USA": 3, "SVN": 4, "RP": 5, "Allied": 6}

_STATIC_CACHE: dict[tuple, dict[str, Any]] = {}


# ---------------------------------------------------------------------------------------------- geometry helpers
def _circle(lon: float, lat: float, r: float, n: int = 28) -> list[list[list[float]]]:
    """One polygon (a list with one ring) approximating a circle of radius r degrees."""
    xs = [round(lon + r * math.cos(2 * math.pi * k / n), 4) for k in range(n)]
    ys = [round(lat + r * math.sin(2 * math.pi * k / n), 4) for k in range(n)]
    return [xs, ys]


def _rect(cx: float, cy: float, w: float, h: float) -> tuple[list[float], list[float]]:
    return [cx - w / 2, cx + w / 2, cx + w / 2, cx - w / 2], [cy - h / 2, cy - h / 2, cy + h / 2, cy + h / 2]


def _geom_to_multi(geom: dict[str, Any]) -> tuple[list, list]:
    """GeoJSON Polygon/MultiPolygon -> Bokeh multi_polygons (xs, ys) for one row."""
    if geom["type"] == "Polygon":
        polys = [geom["coordinates"]]
    elif geom["type"] == "MultiPolygon":
        polys = geom["coordinates"]
    else:
        raise ValueError(f"expected a Polygon or MultiPolygon, got {geom['type']}")
    xs = [[[p[0] for p in ring] for ring in poly] for poly in polys]
    ys = [[[p[1] for p in ring] for ring in poly] for poly in polys]
    return xs, ys


def _lines(geom: dict[str, Any]) -> list[tuple[list[float], list[float]]]:
    if geom["type"] == "LineString":
        parts = [geom["coordinates"]]
    elif geom["type"] == "MultiLineString":
        parts = geom["coordinates"]
    else:
        return []
    return [([p[0] for p in part], [p[1] for p in part]) for part in parts]


def _bbox_hits(xs: list, ys: list, box: tuple[float, float, float, float]) -> bool:
    flat_x = [x for poly in xs for ring in poly for x in ring]
    flat_y = [y for poly in ys for ring in poly for y in ring]
    return not (max(flat_x) < box[0] or min(flat_x) > box[2] or max(flat_y) < box[1] or min(flat_y) > box[3])


def _corps_boundaries(rings: dict[str, list[list[tuple[float, float]]]], corps: dict[str, str]) -> tuple[list, list]:
    """Edges shared by two SVN areas of different Corps (polygons from one tessellation share vertices)."""
    owner: dict[tuple, set[str]] = defaultdict(set)
    for aid, area_rings in rings.items():
        for ring in area_rings:
            for p, q in zip(ring, ring[1:], strict=False):
                a = (round(p[0], 3), round(p[1], 3))
                b = (round(q[0], 3), round(q[1], 3))
                if a != b:
                    owner[(a, b) if a <= b else (b, a)].add(corps[aid])
    xs, ys = [], []
    for (a, b), owners in owner.items():
        if len(owners) > 1:
            xs.append([a[0], b[0]])
            ys.append([a[1], b[1]])
    return _join_segments(xs, ys)


def _join_segments(xs: list, ys: list) -> tuple[list, list]:
    """Chain 2-point segments sharing end points into longer polylines (fewer glyphs, nicer joins)."""
    segs = [((x[0], y[0]), (x[1], y[1])) for x, y in zip(xs, ys, strict=True)]
    ends: dict[tuple, list[int]] = defaultdict(list)
    for i, (a, b) in enumerate(segs):
        ends[a].append(i)
        ends[b].append(i)
    used = [False] * len(segs)
    out_x, out_y = [], []
    for i in range(len(segs)):
        if used[i]:
            continue
        used[i] = True
        line = list(segs[i])
        for forward in (True, False):
            while True:
                tip = line[-1] if forward else line[0]
                nxt = next((j for j in ends[tip] if not used[j]), None)
                if nxt is None:
                    break
                used[nxt] = True
                a, b = segs[nxt]
                other = b if a == tip else a
                if forward:
                    line.append(other)
                else:
                    line.insert(0, other)
        out_x.append([p[0] for p in line])
        out_y.append([p[1] for p in line])
    return out_x, out_y


def _esc(x: Any) -> str:
    return html.escape(str(x))


# ---------------------------------------------------------------------------------------------- static layers
def _area_shapes(game) -> tuple[dict[str, dict], dict[str, tuple[float, float]], str]:
    """Polygons and label points of the areas: from the game's AreaMap shapes, else areas.geojson, else none."""
    shapes = dict(getattr(game.data.map, "shapes", {}) or {})
    path = game_dir("tet") / "areas.geojson"
    if not shapes and path.exists():
        for feat in read_geojson(path)["features"]:
            props = feat["properties"]
            key = props["id"] if props.get("kind") != "label" else f"label:{props['id']}"
            shapes[key] = feat["geometry"]
    labels = {k[6:]: tuple(g["coordinates"][:2]) for k, g in shapes.items()
              if k.startswith("label:") and g.get("type") == "Point"}
    polys = {k: g for k, g in shapes.items() if not k.startswith("label:") and g.get("type") in ("Polygon", "MultiPolygon")}
    return polys, labels, ("areas.geojson" if polys else "circles (data/tet/areas.geojson not available)")


def _geo_layer(name: str) -> dict[str, Any] | None:
    path = game_dir("tet").parent / "geo" / f"{name}.geojson"
    if not path.exists():
        return None
    return read_geojson(path)


def static_layers(game) -> dict[str, Any]:
    """Everything on the map that never changes during play, as plain lists (cached per data and files)."""
    path = game_dir("tet") / "areas.geojson"
    key = (id(game.data), path.stat().st_mtime if path.exists() else None)
    if key not in _STATIC_CACHE:
        _STATIC_CACHE.clear()
        _STATIC_CACHE[key] = _build_static(game)
    return _STATIC_CACHE[key]


def _build_static(game) -> dict[str, Any]:
    d = game.data
    view_box = (EXTENT["x"][0] - 1, EXTENT["y"][0] - 1, EXTENT["x"][1] + 1, EXTENT["y"][1] + 1)
    out: dict[str, Any] = {"extent": dict(EXTENT), "insets": [dict(i) for i in INSETS]}

    # -- land, countries, borders, rivers (real geography, data/geo)
    land = {"xs": [], "ys": []}
    if (g := _geo_layer("land")) is not None:
        for feat in g["features"]:
            xs, ys = _geom_to_multi(feat["geometry"])
            if _bbox_hits(xs, ys, view_box):
                land["xs"].append(xs)
                land["ys"].append(ys)
    out["land"] = land
    countries = {"id": [], "name": [], "fill": [], "xs": [], "ys": []}
    if (g := _geo_layer("countries")) is not None:
        for feat in g["features"]:
            xs, ys = _geom_to_multi(feat["geometry"])
            if not _bbox_hits(xs, ys, view_box):
                continue
            cid = feat["properties"].get("id", "")
            countries["id"].append(cid)
            countries["name"].append(feat["properties"].get("name", cid))
            countries["fill"].append(COUNTRY_FILL.get(cid, "#efeee9"))
            countries["xs"].append(xs)
            countries["ys"].append(ys)
    out["countries"] = countries
    borders = {"xs": [], "ys": [], "kind": [], "name": []}
    if (g := _geo_layer("borders")) is not None:
        for feat in g["features"]:
            for xs, ys in _lines(feat["geometry"]):
                borders["xs"].append(xs)
                borders["ys"].append(ys)
                borders["kind"].append(feat["properties"].get("kind", "international"))
                borders["name"].append(feat["properties"].get("name", ""))
    out["borders"] = borders
    rivers = {"xs": [], "ys": [], "name": []}
    if (g := _geo_layer("rivers")) is not None:
        for feat in g["features"]:
            for xs, ys in _lines(feat["geometry"]):
                rivers["xs"].append(xs)
                rivers["ys"].append(ys)
                rivers["name"].append(feat["properties"].get("name", ""))
    out["rivers"] = rivers

    # -- provinces and sanctuaries
    polys, label_pts, geometry = _area_shapes(game)
    out["geometry"] = geometry
    provinces = {k: [] for k in ("id", "name", "kind", "country", "corps", "terrain", "fill", "hatch", "xs", "ys",
                                 "lx", "ly", "label", "tip")}
    sanctuaries = {k: [] for k in ("id", "name", "country", "corps", "xs", "ys", "lx", "ly", "label", "tip")}
    anchors: dict[str, tuple[float, float]] = {}
    rings: dict[str, list] = {}
    for a in d.areas.values():
        if a.kind not in ("province", "sanctuary") or a.lat is None:
            continue
        lx, ly = label_pts.get(a.id, (a.lon, a.lat))
        anchors[a.id] = (lx, ly)
        if a.id in polys:
            xs, ys = _geom_to_multi(polys[a.id])
            if a.kind == "province" and a.country == "SVN":
                rings[a.id] = [list(zip(rx, ry, strict=True)) for px, py in zip(xs, ys, strict=True)
                               for rx, ry in zip(px, py, strict=True)]
        else:
            r = 0.2 if a.kind == "province" else 0.13
            ring = _circle(a.lon, a.lat, r)
            xs, ys = [[ring[0]]], [[ring[1]]]
        corps = f"{a.corps} Corps" if a.corps else "-"
        where = {"SVN": "South Vietnam", "LAO": "Laos", "KHM": "Cambodia", "NVN": "North Vietnam"}[a.country]
        if a.kind == "province":
            tip = (f"<b>{_esc(a.name)}</b> (province {_esc(a.id)})<br>{where}, {corps}<br>"
                   f"terrain: {_esc(a.terrain or '-')}{', coastal' if a.coastal else ''}"
                   f"{', on the Mekong' if a.mekong else ''}")
            cities = d.cities_of.get(a.id, ())
            if cities:
                tip += "<br>cities: " + ", ".join(_esc(d.areas[c].name) for c in cities)
            provinces["id"].append(a.id)
            provinces["name"].append(a.name)
            provinces["kind"].append(a.kind)
            provinces["country"].append(a.country)
            provinces["corps"].append(corps)
            provinces["terrain"].append(a.terrain or "")
            fill = TERRAIN_FILL.get(a.terrain, "#cccccc") if a.country == "SVN" else FOREIGN_FILL[a.terrain]
            provinces["fill"].append(fill)
            provinces["hatch"].append("horizontal_wave" if a.terrain == "marsh" and a.country == "SVN" else " ")
            provinces["xs"].append(xs)
            provinces["ys"].append(ys)
            provinces["lx"].append(lx)
            provinces["ly"].append(ly)
            provinces["label"].append(a.id)
            provinces["tip"].append(tip)
        else:
            tip = (f"<b>{_esc(a.name)}</b> (sanctuary {_esc(a.id)})<br>{where}{', ' + corps if a.corps else ''}"
                   f"{'<br>on the Ho Chi Minh Trail' if a.on_trail else ''}")
            sanctuaries["id"].append(a.id)
            sanctuaries["name"].append(a.name)
            sanctuaries["country"].append(a.country)
            sanctuaries["corps"].append(corps)
            sanctuaries["xs"].append(xs)
            sanctuaries["ys"].append(ys)
            sanctuaries["lx"].append(lx)
            sanctuaries["ly"].append(ly)
            sanctuaries["label"].append(a.id)
            sanctuaries["tip"].append(tip)
    out["provinces"] = provinces
    out["sanctuaries"] = sanctuaries

    # -- Corps boundaries (only derivable from real polygons) and Corps names
    cx, cy = _corps_boundaries(rings, {a: d.areas[a].corps for a in rings}) if rings else ([], [])
    out["corps_lines"] = {"xs": cx, "ys": cy}
    out["corps_labels"] = {"x": [p[0] for p in CORPS_LABELS.values()], "y": [p[1] for p in CORPS_LABELS.values()],
                           "text": [f"{c} CORPS" for c in CORPS_LABELS]}

    # -- cities
    cities = {k: [] for k in ("id", "name", "x", "y", "pv", "size", "airbase", "province", "corps", "label",
                              "pv_text", "tip")}
    for a in d.areas.values():
        if a.kind != "city":
            continue
        anchors[a.id] = (a.lon, a.lat)
        size = 9 + 2 * (a.pv or 1)
        cities["id"].append(a.id)
        cities["name"].append(a.name)
        cities["x"].append(a.lon)
        cities["y"].append(a.lat)
        cities["pv"].append(a.pv)
        cities["size"].append(size)
        cities["airbase"].append(bool(a.airbase))
        cities["province"].append(a.province)
        cities["corps"].append(f"{a.corps} Corps" if a.corps else "-")
        cities["label"].append(a.name)
        cities["pv_text"].append(str(a.pv))
        cities["tip"].append(f"<b>{_esc(a.name)}</b> (city, political value {a.pv})<br>in province "
                             f"{_esc(a.province)}, {a.corps} Corps{'<br>airbase' if a.airbase else ''}"
                             f"{'<br>on the Highway' if a.on_road else ''}")
    out["cities"] = cities
    ab = [i for i, flag in enumerate(cities["airbase"]) if flag]
    out["airbases"] = {"id": [cities["id"][i] for i in ab], "x": [cities["x"][i] for i in ab],
                       "y": [cities["y"][i] for i in ab], "size": [cities["size"][i] for i in ab],
                       "tip": [cities["tip"][i] for i in ab]}

    # -- the Highway (roads between cities) and the Ho Chi Minh Trail (between sanctuaries)
    roads = {"xs": [], "ys": [], "route": [], "a": [], "b": []}
    trail = {"xs": [], "ys": [], "a": [], "b": []}
    for a, b, kind in d.map.edges:
        if kind == "road":
            layer = roads
        elif kind == "trail":
            layer = trail
        else:
            continue
        pa, pb = anchors.get(a), anchors.get(b)
        if pa is None or pb is None:
            continue
        layer["xs"].append([pa[0], pb[0]])
        layer["ys"].append([pa[1], pb[1]])
        layer["a"].append(a)
        layer["b"].append(b)
        if layer is roads:
            roads["route"].append(next((e.route or "" for e in _edge_rows() if {e.a, e.b} == {a, b}), ""))
    out["roads"] = roads
    out["trail"] = trail

    # -- off-map boxes drawn at sea
    boxes = {k: [] for k in ("id", "name", "x", "y", "w", "h", "tx", "ty", "tip")}
    for aid, (x, y) in BOX_PLACES.items():
        if aid not in d.areas:
            continue
        a = d.areas[aid]
        w, h = BOX_SIZE if not aid.startswith("offshore") else (0.62, 0.32)
        anchors[aid] = (x, y)
        boxes["id"].append(aid)
        boxes["name"].append(a.name)
        boxes["x"].append(x)
        boxes["y"].append(y)
        boxes["w"].append(w)
        boxes["h"].append(h)
        boxes["tx"].append(x - w / 2 + 0.03)
        boxes["ty"].append(y + h / 2 - 0.03)
        short = a.name.replace("Battleship station off province", "Battleship station, off").replace("Box", "").strip()
        boxes["name"][-1] = short
        boxes["tip"].append(f"<b>{_esc(a.name)}</b><br>an off-map holding box (drawn at sea)")
    out["boxes"] = boxes
    out["anchors"] = {k: list(v) for k, v in anchors.items()}
    return out


def _edge_rows():
    from ..core.data import cached_csv
    from .data import EdgeRow

    return cached_csv("tet", "edges.csv", EdgeRow)


# ---------------------------------------------------------------------------------------------- dynamic layers
def _chit_offsets(kind: str, n: int, city_size: float = 0.0) -> list[tuple[float, float, str]]:
    """Pixel offsets (dx, dy, text anchor) of n chits around an area's anchor point.

    Cities: one column to the right of the circle, centred on it.  Provinces, sanctuaries and boxes: two
    columns below the label, meeting at the anchor.
    """
    out = []
    if kind == "city":
        top = -(n - 1) * CHIT_PITCH / 2
        for k in range(n):
            out.append((city_size / 2 + 3, top + k * CHIT_PITCH, "center_left"))
        return out
    first = 14 if kind != "box" else 4
    for k in range(n):
        row, col = divmod(k, 2)
        dy = first + row * CHIT_PITCH
        if n % 2 == 1 and k == n - 1:
            out.append((0, dy, "center"))
        else:
            out.append((-2, dy, "center_right") if col == 0 else (2, dy, "center_left"))
    return out


def dynamic_layers(game, side: str | None = None) -> dict[str, Any]:
    """Unit chits, insurrection markers and the focus of the latest ruling, as ``side`` may see them."""
    static = static_layers(game)
    anchors = static["anchors"]
    d = game.data
    view = game.view(side)
    city_size = dict(zip(static["cities"]["id"], static["cities"]["size"], strict=True))

    groups: dict[tuple[str, str, bool], list[dict[str, Any]]] = defaultdict(list)
    for u in view.state["units"]:
        area = u["area"]
        faction = u["faction"]
        masked = u["id"].startswith("hidden@")
        if not masked and u.get("type") == "ruff_puff":
            faction = "RP"
        elif masked and faction == "Allied":
            faction = "RP"
        groups[(area, faction, masked or not u["face_up"])].append(u)

    by_area: dict[str, list[tuple[str, bool]]] = defaultdict(list)
    for area, faction, down in groups:
        by_area[area].append((faction, down))
    cols = ("area", "x", "y", "dx", "dy", "anchor", "text", "fill", "text_color", "line_color", "count",
            "hidden", "faction", "tip")
    chits: dict[str, list] = {c: [] for c in cols}
    unplaced = []
    for area, keys in sorted(by_area.items()):
        if area not in anchors:
            unplaced.append(area)
            continue
        keys.sort(key=lambda k: (FACTION_ORDER.get(k[0], 9), k[1]))
        kind = d.areas[area].kind
        offsets = _chit_offsets(kind, len(keys), city_size.get(area, 0.0))
        for (faction, down), (dx, dy, anchor) in zip(keys, offsets, strict=True):
            units = groups[(area, faction, down)]
            masked = any(u["id"].startswith("hidden@") for u in units)
            n = len(units)
            if masked:
                text = f"RP ?{'' if n == 1 else ' ' + str(n)}" if faction == "RP" else f"? {n}"
                fill, tcol, line = ("#dbe5fb", RUFF_PUFF, RUFF_PUFF) if faction == "RP" else (HIDDEN, "white", "black")
                what = "face-down Ruff Puff (strength unknown)" if faction == "RP" else "face-down NVA/VC unit(s)"
                tip = f"<b>{n} {what}</b><br>in {_esc(game.area_name(area))}<br>hidden from the {_esc(side)} side"
            else:
                colour = RUFF_PUFF if faction == "RP" else FACTION_COLOURS.get(faction, "#444444")
                if down:
                    text = f"{faction}? {n}"
                    fill, tcol, line = "#e6e6e6", colour, colour
                else:
                    text = f"{faction} {n}"
                    fill, tcol, line = colour, "white", "white"
                lines = []
                for u in sorted(units, key=lambda u: (-u.get("cf", 0), u["name"])):
                    kind_txt = str(u.get("type", "")).replace("_", " ")
                    lines.append(f"{_esc(u['name'])} &middot; CF {u.get('cf', '?')} &middot; {_esc(kind_txt)}")
                state = "face down (hidden from the enemy)" if down else "face up"
                name = "Ruff Puff" if faction == "RP" else faction
                tip = (f"<b>{name}: {n} unit{'s' if n > 1 else ''}, {state}</b><br>in {_esc(game.area_name(area))}"
                       "<br>" + "<br>".join(lines))
            x, y = anchors[area]
            chits["area"].append(area)
            chits["x"].append(x)
            chits["y"].append(y)
            chits["dx"].append(dx)
            chits["dy"].append(dy)
            chits["anchor"].append(anchor)
            chits["text"].append(text)
            chits["fill"].append(fill)
            chits["text_color"].append(tcol)
            chits["line_color"].append(line)
            chits["count"].append(n)
            chits["hidden"].append(bool(masked or down))
            chits["faction"].append(faction)
            chits["tip"].append(tip)

    # -- insurrection markers (public: markers are on the map for both sides)
    ins = {"id": [], "x": [], "y": [], "size": [], "tip": []}
    for city in sorted(view.state["insurrection"]):
        x, y = anchors[city]
        ins["id"].append(city)
        ins["x"].append(x)
        ins["y"].append(y)
        ins["size"].append(city_size.get(city, 12) + 16)
        ins["tip"].append(f"<b>Insurrection in {_esc(d.areas[city].name)}</b><br>the city has risen for the VC")

    # -- the areas the latest ruling concerns
    latest = view.log[-1] if view.log else None
    places = [p for p in (latest.places if latest else ()) if p in anchors]
    focus_areas = {"id": [], "xs": [], "ys": []}
    focus_points = {"id": [], "x": [], "y": [], "size": []}
    shapes = {"provinces": static["provinces"], "sanctuaries": static["sanctuaries"]}
    for p in places:
        kind = d.areas[p].kind
        if kind == "city":
            x, y = anchors[p]
            focus_points["id"].append(p)
            focus_points["x"].append(x)
            focus_points["y"].append(y)
            focus_points["size"].append(city_size.get(p, 12) + 10)
            continue
        if kind == "box":
            bi = static["boxes"]["id"].index(p)
            bx, by = _rect(static["boxes"]["x"][bi], static["boxes"]["y"][bi], static["boxes"]["w"][bi],
                           static["boxes"]["h"][bi])
            xs, ys = [[bx]], [[by]]
        else:
            layer = shapes["provinces" if kind == "province" else "sanctuaries"]
            i = layer["id"].index(p)
            xs, ys = layer["xs"][i], layer["ys"][i]
        focus_areas["id"].append(p)
        focus_areas["xs"].append(xs)
        focus_areas["ys"].append(ys)

    on_map = sum(1 for u in view.state["units"])
    return {
        "side": side,
        "units": chits,
        "insurrection": ins,
        "focus_areas": focus_areas,
        "focus_points": focus_points,
        "latest": None if latest is None else {"seq": latest.seq, "rule_id": latest.rule_id, "title": latest.title,
                                               "places": list(latest.places)},
        "units_drawn": sum(chits["count"]),
        "units_placed": on_map,
        "unplaced_areas": unplaced,
    }
