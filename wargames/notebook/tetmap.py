"""The Tet theatre map's drawing layers: what to draw, where, in which colour (no Bokeh here; MapView draws them).

These layers belong to the notebook kit (issue #14 item 2): colours (the game's one palette,
``palette.py``), pixel offsets, HTML tooltips and the label placer.  Everything they show of the game comes
from ``game.map_layers(side)`` (``wargames.tet.mapdata``: ids, geometry, facts): the areas, cities, boxes,
roads, the Trail, the units and the insurrection markers; only the latest ruling (the focus) is read from
the game's log.  The real geography around the theatre (``data/geo``) is drawn from the layers' extent.

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

from ..core.data import game_dir
from ..maps.geo import background_layers
from ..maps.layers import places_by_id
from .palette import HIDDEN, palette
from .tetmap_layout import (
    EXTENT,
    VIEWS,
    _place,
    _static_obstacles,
    _text_box,
    view_frame,
)

# ---------------------------------------------------------------------------------------------- styling
_PAL = palette("tet")
FACTION_COLOURS = {f: _PAL[f] for f in ("NVA", "VC", "USA", "SVN")}
RUFF_PUFF = _PAL["RP"]  # the SVN militia: a lighter blue
TERRAIN_FILL = {"lowland": "#bcd99a", "highland": "#c9a97c", "marsh": "#93c9b9"}
FOREIGN_FILL = {"lowland": "#d8d8d2", "highland": "#cdcbc5", "marsh": "#d8d8d2", None: "#d3d3cd"}
COUNTRY_FILL = {"NVN": "#e7e0d2", "SVN": "#f4f1e6", "LAO": "#e2e2dc", "KHM": "#e2e2dc", "THA": "#efeee9"}
SANCTUARY = "#c81e1e"
CORPS_LINE = "#f2c200"
TRAIL = "#8b5a2b"
FOCUS = "#ff7f0e"
SEA = "#cfe2ee"


# Corps names, drawn in the sea (right-aligned at these points, except IV, left-aligned)
CORPS_LABELS = {"I": (109.97, 14.8), "II": (109.97, 11.75), "III": (109.97, 10.75), "IV": (104.08, 9.2)}

FACTION_ORDER = {"NVA": 0, "VC": 1, "NVA/VC": 2, "USA": 3, "SVN": 4, "RP": 5, "Allied": 6}

_STATIC_CACHE: dict[tuple, dict[str, Any]] = {}
_PLACE_CACHE: dict[tuple, dict[str, list[tuple[float, float]]]] = {}


# ---------------------------------------------------------------------------------------------- geometry helpers
def _circle(lon: float, lat: float, r: float, n: int = 28) -> list[list[list[float]]]:
    """One polygon (a list with one ring) approximating a circle of radius r degrees."""
    xs = [round(lon + r * math.cos(2 * math.pi * k / n), 4) for k in range(n)]
    ys = [round(lat + r * math.sin(2 * math.pi * k / n), 4) for k in range(n)]
    return [xs, ys]


def _rect(cx: float, cy: float, w: float, h: float) -> tuple[list[float], list[float]]:
    return [cx - w / 2, cx + w / 2, cx + w / 2, cx - w / 2], [cy - h / 2, cy - h / 2, cy + h / 2, cy + h / 2]


def _corps_boundaries(
    rings: dict[str, list[list[tuple[float, float]]]], corps: dict[str, str]
) -> tuple[list, list]:
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
_places = places_by_id  # the layers' places by id (wargames.maps.layers)


def draws(game) -> bool:
    """Whether these layers fit ``game``: its ``map_layers`` are an area map in longitude/latitude with
    provinces, sanctuaries, cities and off-map boxes, and it has a ``view(side)`` (the log of rulings)."""
    if not hasattr(game, "view") or not hasattr(game, "map_layers"):
        return False
    try:
        layers = game.map_layers(None)
    except (AttributeError, KeyError, TypeError, ValueError):
        return False
    kinds = set(layers["places"]["kind"])
    return layers.get("coords") == "lonlat" and {"province", "sanctuary", "city", "box"} <= kinds


def _fingerprint(layers: dict[str, Any]) -> str:
    """What the fixed drawing depends on, short of the outlines' coordinates (those come from files whose
    modification time is part of the cache key)."""
    pl, ln = layers["places"], layers["lines"]
    return repr(
        (
            pl["id"],
            pl["name"],
            pl["kind"],
            pl["x"],
            pl["y"],
            pl["facts"],
            layers["extent"],
            ln["kind"],
            ln["name"],
            ln.get("route"),
        )
    )


def static_layers(game) -> dict[str, Any]:
    """Everything on the map that never changes during play, as plain lists, from ``game.map_layers`` (cached
    per game data, files and layers)."""
    layers = game.map_layers(None)
    path = game_dir("tet") / "areas.geojson"
    key = (
        id(getattr(game, "data", None)),
        path.stat().st_mtime if path.exists() else None,
        _fingerprint(layers),
    )
    if key not in _STATIC_CACHE:
        _STATIC_CACHE.clear()
        _STATIC_CACHE[key] = _build_static(layers)
    return _STATIC_CACHE[key]


WHERE = {"SVN": "South Vietnam", "LAO": "Laos", "KHM": "Cambodia", "NVN": "North Vietnam"}


def _build_static(layers: dict[str, Any]) -> dict[str, Any]:
    places = _places(layers)
    view_box = (EXTENT["x"][0] - 1, EXTENT["y"][0] - 1, EXTENT["x"][1] + 1, EXTENT["y"][1] + 1)
    out: dict[str, Any] = {"extent": dict(EXTENT), "views": [dict(v) for v in VIEWS]}
    out["style"] = {
        "factions": dict(FACTION_COLOURS),
        "RP": RUFF_PUFF,
        "HIDDEN": HIDDEN,
        "SANCTUARY": SANCTUARY,
        "CORPS": CORPS_LINE,
        "TRAIL": TRAIL,
        "FOCUS": FOCUS,
        "SEA": SEA,
        "foreign": FOREIGN_FILL["highland"],
        **TERRAIN_FILL,
    }

    # -- land, countries, borders (TET-MAP-8: the red international border), rivers (real geography, data/geo)
    out.update(background_layers(view_box, COUNTRY_FILL))

    # -- provinces and sanctuaries
    areas = {pid: p for pid, p in places.items() if p["kind"] in ("province", "sanctuary")}
    surveyed = [p["facts"].get("outline") == "surveyed" for p in areas.values()]
    out["geometry"] = "areas.geojson" if any(surveyed) else "circles (data/tet/areas.geojson not available)"
    provinces = {
        k: []
        for k in (
            "id",
            "name",
            "kind",
            "country",
            "corps",
            "terrain",
            "fill",
            "hatch",
            "xs",
            "ys",
            "lx",
            "ly",
            "label",
            "tip",
        )
    }
    sanctuaries = {k: [] for k in ("id", "name", "country", "corps", "xs", "ys", "lx", "ly", "label", "tip")}
    anchors: dict[str, tuple[float, float]] = {}
    rings: dict[str, list] = {}
    corps_of: dict[str, str | None] = {}
    for aid, a in areas.items():
        f = a["facts"]
        lx, ly = a["x"], a["y"]
        anchors[aid] = (lx, ly)
        xs, ys = a["xs"], a["ys"]
        if a["kind"] == "province" and f.get("country") == "SVN" and f.get("outline") == "surveyed":
            rings[aid] = [
                list(zip(rx, ry, strict=True))
                for px, py in zip(xs, ys, strict=True)
                for rx, ry in zip(px, py, strict=True)
            ]
            corps_of[aid] = f.get("corps")
        corps = f"{f['corps']} Corps" if f.get("corps") else "-"
        where = WHERE[f["country"]]
        if a["kind"] == "province":
            tip = (
                f"<b>{_esc(a['name'])}</b> (province {_esc(aid)})<br>{where}, {corps}<br>"
                f"terrain: {_esc(f.get('terrain') or '-')}{', coastal' if f.get('coastal') else ''}"
                f"{', on the Mekong' if f.get('mekong') else ''}"
            )
            cities = f.get("cities") or ()
            if cities:
                tip += "<br>cities: " + ", ".join(_esc(places[c]["name"]) for c in cities)
            provinces["id"].append(aid)
            provinces["name"].append(a["name"])
            provinces["kind"].append(a["kind"])
            provinces["country"].append(f["country"])
            provinces["corps"].append(corps)
            provinces["terrain"].append(f.get("terrain") or "")
            terrain = f.get("terrain")
            fill = TERRAIN_FILL.get(terrain, "#cccccc") if f["country"] == "SVN" else FOREIGN_FILL[terrain]
            provinces["fill"].append(fill)
            provinces["hatch"].append(
                "horizontal_wave" if terrain == "marsh" and f["country"] == "SVN" else " "
            )
            provinces["xs"].append(xs)
            provinces["ys"].append(ys)
            provinces["lx"].append(lx)
            provinces["ly"].append(ly)
            provinces["label"].append(aid)
            provinces["tip"].append(tip)
        else:
            tip = (
                f"<b>{_esc(a['name'])}</b> (sanctuary {_esc(aid)})<br>{where}{', ' + corps if f.get('corps') else ''}"
                f"{'<br>on the Ho Chi Minh Trail' if f.get('on_trail') else ''}"
            )
            sanctuaries["id"].append(aid)
            sanctuaries["name"].append(a["name"])
            sanctuaries["country"].append(f["country"])
            sanctuaries["corps"].append(corps)
            sanctuaries["xs"].append(xs)
            sanctuaries["ys"].append(ys)
            sanctuaries["lx"].append(lx)
            sanctuaries["ly"].append(ly)
            sanctuaries["label"].append(aid)
            sanctuaries["tip"].append(tip)
    out["provinces"] = provinces
    out["sanctuaries"] = sanctuaries

    # -- Corps boundaries (only derivable from real polygons) and Corps names
    cx, cy = _corps_boundaries(rings, corps_of) if rings else ([], [])
    out["corps_lines"] = {"xs": cx, "ys": cy}
    out["corps_labels"] = {
        "x": [p[0] for p in CORPS_LABELS.values()],
        "y": [p[1] for p in CORPS_LABELS.values()],
        "text": [f"{c} CORPS" for c in CORPS_LABELS],
        "anchor": ["center_left" if c == "IV" else "center_right" for c in CORPS_LABELS],
    }

    # -- cities
    cities = {
        k: []
        for k in (
            "id",
            "name",
            "x",
            "y",
            "pv",
            "size",
            "airbase",
            "province",
            "corps",
            "label",
            "pv_text",
            "name_dy",
            "label_main",
            "tip",
        )
    }
    for cid, a in places.items():
        if a["kind"] != "city":
            continue
        f = a["facts"]
        x, y, pv = a["x"], a["y"], f.get("political_value")
        anchors[cid] = (x, y)
        size = 9 + 2 * (pv or 1)
        cities["id"].append(cid)
        cities["name"].append(a["name"])
        cities["x"].append(x)
        cities["y"].append(y)
        cities["pv"].append(pv)
        cities["size"].append(size)
        cities["airbase"].append(bool(f.get("airbase")))
        cities["province"].append(f.get("province"))
        cities["corps"].append(f"{f['corps']} Corps" if f.get("corps") else "-")
        cities["label"].append(a["name"])
        cities["pv_text"].append(str(pv))
        cities["name_dy"].append(-(size / 2 + 1))
        in_inset = any(v["x"][0] < x < v["x"][1] and v["y"][0] < y < v["y"][1] for v in VIEWS[1:])
        # on the theatre map a city inside a close-up is named only if it is a major one (the close-up names
        # it): around Saigon and in the delta the names would otherwise cover each other and the counters
        cities["label_main"].append(a["name"] if (pv or 0) >= 5 or not in_inset else "")
        cities["tip"].append(
            f"<b>{_esc(a['name'])}</b> (city, political value {pv})<br>in province "
            f"{_esc(f.get('province'))}, {f.get('corps')} Corps{'<br>airbase' if f.get('airbase') else ''}"
            f"{'<br>on the Highway' if f.get('on_road') else ''}"
        )
    out["cities"] = cities
    ab = [i for i, flag in enumerate(cities["airbase"]) if flag]
    out["airbases"] = {
        "id": [cities["id"][i] for i in ab],
        "x": [cities["x"][i] for i in ab],
        "y": [cities["y"][i] for i in ab],
        "size": [cities["size"][i] for i in ab],
        "dx": [-(cities["size"][i] / 2 + 1) for i in ab],
        "tip": [cities["tip"][i] for i in ab],
    }

    # -- the Highway (roads between cities) and the Ho Chi Minh Trail (between sanctuaries)
    roads = {"xs": [], "ys": [], "route": [], "a": [], "b": []}
    trail = {"xs": [], "ys": [], "a": [], "b": []}
    ln = layers["lines"]
    for i, kind in enumerate(ln["kind"]):
        layer = roads if kind == "highway" else trail if kind == "trail" else None
        if layer is None:
            continue
        a, b = ln["ends"][i] if "ends" in ln else (None, None)
        layer["xs"].append(list(ln["xs"][i]))
        layer["ys"].append(list(ln["ys"][i]))
        layer["a"].append(a)
        layer["b"].append(b)
        if layer is roads:
            roads["route"].append(ln["route"][i] if "route" in ln else "")
    out["roads"] = roads
    out["trail"] = trail

    # -- off-map boxes drawn at sea (their rectangles are the layers' polygons)
    boxes = {k: [] for k in ("id", "name", "x", "y", "w", "h", "tx", "ty", "tip")}
    for bid, a in places.items():
        if a["kind"] != "box":
            continue
        rx, ry = a["xs"][0][0], a["ys"][0][0]
        x, y, w, h = a["x"], a["y"], max(rx) - min(rx), max(ry) - min(ry)
        anchors[bid] = (x, y)
        boxes["id"].append(bid)
        boxes["x"].append(x)
        boxes["y"].append(y)
        boxes["w"].append(w)
        boxes["h"].append(h)
        boxes["tx"].append(x - w / 2 + 0.03)
        boxes["ty"].append(y + h / 2 - 0.03)
        short = (
            a["name"]
            .replace("Battleship station off province", "Battleship off")
            .replace("Box", "")
            .replace("Theater air box", "Air box")
            .strip()
        )  # whole inside its box (the tooltip has the full name)
        boxes["name"].append(short)
        boxes["tip"].append(f"<b>{_esc(a['name'])}</b><br>an off-map holding box (drawn at sea)")
    out["boxes"] = boxes
    out["anchors"] = {k: list(v) for k, v in anchors.items()}
    out["places"] = {
        pid: {"kind": p["kind"], "name": p["name"], "facts": p["facts"]} for pid, p in places.items()
    }
    frames = {"xs": [], "ys": [], "title": []}
    for v in VIEWS[1:]:
        bx, by = _rect(
            (v["x"][0] + v["x"][1]) / 2,
            (v["y"][0] + v["y"][1]) / 2,
            v["x"][1] - v["x"][0],
            v["y"][1] - v["y"][0],
        )
        frames["xs"].append(bx + bx[:1])
        frames["ys"].append(by + by[:1])
        frames["title"].append(v["title"])
    out["inset_frames"] = frames
    out["obstacles"] = {v["id"]: _static_obstacles(v, out) for v in out["views"]}
    return out


# ---------------------------------------------------------------------------------------------- dynamic layers
def dynamic_layers(game, side: str | None = None) -> dict[str, Any]:
    """Unit chits, Ruff Puff rings, insurrection markers and the focus of the latest ruling, as ``side`` sees them.

    ``units``: one chit per (area, faction, face up/down) with columns ``text`` (inset label, e.g. "VC 3"),
    ``short`` (main-map label: the count), ``count``, colours, ``tip`` (hover HTML) and per view
    ``dx_<view>``/``dy_<view>`` pixel offsets (text anchor ``center_left``).  ``militia``: the face-down
    Ruff Puff in each city, drawn as a ring around the city.  Nothing in a side's layers names, counts
    by faction, or gives the strength of a unit that side may not see.
    """
    static = static_layers(game)
    anchors = static["anchors"]
    places = static["places"]
    view = game.view(side)  # the log of rulings (the focus) and the count of units in play
    layers = game.map_layers(side)

    def area_name(area: str) -> str:  # a province by its name and number, as the rules name it
        p = places[area]
        return p["name"] if p["kind"] != "province" else f"{p['name']} ({area})"

    city_size = dict(zip(static["cities"]["id"], static["cities"]["size"], strict=True))

    # what ``side`` sees comes from the one map contract (game.map_layers): a piece of unknown faction carries
    # only its side; its units are shown here as "hidden@" stand-ins with no name or strength
    groups: dict[tuple[str, str, bool], list[dict[str, Any]]] = defaultdict(list)
    militia_units: dict[str, list[dict[str, Any]]] = defaultdict(list)
    pcs = layers["pieces"]
    for area, faction, down, facts in zip(
        pcs["place"], pcs["faction"], pcs["hidden"], pcs["facts"], strict=True
    ):
        masked = faction is None
        units = [{"id": "hidden@", **f} for f in facts] if masked else list(facts)
        seen_as = facts[0]["side"] if masked else faction
        is_rp = (masked and seen_as == "Allied") or faction == "RP"
        if is_rp and down and places[area]["kind"] == "city":
            militia_units[area].extend(units)
            continue
        groups[(area, "RP" if is_rp else seen_as, down)].extend(units)

    by_area: dict[str, list[tuple[str, bool]]] = defaultdict(list)
    for area, faction, down in groups:
        by_area[area].append((faction, down))
    cols = [
        "area",
        "x",
        "y",
        "text",
        "short",
        "fill",
        "text_color",
        "line_color",
        "count",
        "hidden",
        "faction",
        "tip",
    ]
    chits: dict[str, list] = {c: [] for c in cols}
    unplaced = []
    kinds: dict[str, str] = {}
    order_keys = []
    for area, keys in sorted(by_area.items()):
        if area not in anchors:
            unplaced.append(area)
            continue
        keys.sort(key=lambda k: (FACTION_ORDER.get(k[0], 9), k[1]))
        kinds[area] = places[area]["kind"]
        for faction, down in keys:
            units = groups[(area, faction, down)]
            masked = any(u["id"].startswith("hidden@") for u in units)
            n = len(units)
            if masked:
                text, short = f"? {n}", f"?{n}"
                fill, tcol, line = HIDDEN, "white", "black"
                tip = (
                    f"<b>{n} face-down NVA/VC unit{'s' if n > 1 else ''}</b><br>in {_esc(area_name(area))}"
                    f"<br>hidden from the {_esc(side)} side: which units they are is not known"
                )
            else:
                colour = RUFF_PUFF if faction == "RP" else FACTION_COLOURS.get(faction, "#444444")
                if down:
                    text, short = f"{faction}? {n}", f"{n}?"
                    fill, tcol, line = "#eeeeee", colour, colour
                else:
                    text, short = f"{faction} {n}", f"{n}"
                    fill, tcol, line = colour, "white", "white"
                lines = []
                for u in sorted(units, key=lambda u: (-u.get("cf", 0), u["name"])):
                    kind_txt = str(u.get("type", "")).replace("_", " ")
                    lines.append(
                        f"{_esc(u['name'])} &middot; CF {u.get('cf', '?')} &middot; {_esc(kind_txt)}"
                    )
                state = "face down (hidden from the enemy)" if down else "face up"
                name = "Ruff Puff" if faction == "RP" else faction
                tip = (
                    f"<b>{name}: {n} unit{'s' if n > 1 else ''}, {state}</b><br>in {_esc(area_name(area))}"
                    "<br>" + "<br>".join(lines)
                )
            x, y = anchors[area]
            for col, val in (
                ("area", area),
                ("x", x),
                ("y", y),
                ("text", text),
                ("short", short),
                ("fill", fill),
                ("text_color", tcol),
                ("line_color", line),
                ("count", n),
                ("hidden", bool(masked or down)),
                ("faction", faction),
                ("tip", tip),
            ):
                chits[col].append(val)
        order_keys.append(area)

    # -- where each chit goes, per view (cities by political value first, then areas by stack size)
    def rank(area: str) -> tuple:
        kind = kinds[area]
        return (
            kind != "city",
            -(places[area]["facts"].get("political_value") or 0),
            -len(by_area[area]),
            area,
        )

    order = sorted(order_keys, key=rank)
    leaders: dict[str, list] = {"area": list(order)}
    start: dict[str, int] = {}
    for i, area in enumerate(chits["area"]):
        start.setdefault(area, i)
    for v in static["views"]:
        key = "short" if v.get("short") else "text"
        blocks = {a: chits[key][start[a] : start[a] + len(by_area[a])] for a in order}
        memo = (v["id"], id(static), tuple((a, tuple(blocks[a])) for a in order))
        placed = _PLACE_CACHE.get(memo)
        if placed is None:
            placed = _place(v, static, blocks, kinds, order)
            if len(_PLACE_CACHE) > 64:
                _PLACE_CACHE.clear()
            _PLACE_CACHE[memo] = placed
        offsets, rects = placed
        _, _, scale = view_frame(v)
        xs, ys = [], []
        for a in order:
            ax, ay = anchors[a]
            x0, y0, x1, y1, r = rects[a]
            nx, ny = min(max(0.0, x0), x1), min(max(0.0, y0), y1)  # nearest point of the block
            dist = math.hypot(nx, ny)
            if v.get("short") or kinds[a] == "box" or dist < r + 5:
                xs.append([ax, ax])
                ys.append([ay, ay])
                continue
            sx, sy = nx * r / dist, ny * r / dist
            xs.append([round(ax + sx / scale, 5), round(ax + nx / scale, 5)])
            ys.append([round(ay - sy / scale, 5), round(ay - ny / scale, 5)])
        leaders[f"xs_{v['id']}"] = xs
        leaders[f"ys_{v['id']}"] = ys
        dx = [0.0] * len(chits["area"])
        dy = [0.0] * len(chits["area"])
        for a in order:
            for j, (ox, oy) in enumerate(offsets[a]):
                dx[start[a] + j] = round(ox, 1)
                dy[start[a] + j] = round(oy, 1)
        chits[f"dx_{v['id']}"] = dx
        chits[f"dy_{v['id']}"] = dy
        # a chit is drawn in a view only where it is whole inside the frame; the off-map boxes only on the theatre
        fw, fh, _ = view_frame(v)
        vx0, vy1 = v["x"][0], v["y"][1]
        inside = []
        for k, area in enumerate(chits["area"]):
            if kinds.get(area) == "box" and not v.get("short"):
                inside.append("n")
                continue
            ax, ay = anchors[area]
            px, py = (ax - vx0) * scale + dx[k], (vy1 - ay) * scale + dy[k]
            tw, th = _text_box(chits[key][k], v["font"])
            ok = px >= 0 and py - th / 2 >= 0 and px + tw <= fw and py + th / 2 <= fh
            inside.append("y" if ok else "n")
        chits[f"in_{v['id']}"] = inside

    # -- face-down Ruff Puffs: a ring around their city
    militia = {"area": [], "x": [], "y": [], "size": [], "count": [], "tip": []}
    for city, units in sorted(militia_units.items()):
        x, y = anchors[city]
        if side is None:
            cf = ", ".join(str(u.get("cf")) for u in units)
            what = f"strength {cf}, known only to the umpire until NVA/VC units enter the city"
        else:
            what = "strength unknown (0 to 8) until NVA/VC units enter the city"
        militia["area"].append(city)
        militia["x"].append(x)
        militia["y"].append(y)
        militia["size"].append(city_size.get(city, 12) + 7)
        militia["count"].append(len(units))
        militia["tip"].append(
            f"<b>Ruff Puff militia, face down</b><br>in {_esc(places[city]['name'])}: {what}"
        )

    # -- insurrection markers (public: markers are on the map for both sides)
    ins = {"id": [], "x": [], "y": [], "size": [], "tip": []}
    mk = layers["markers"]
    for city in sorted(p for p, k in zip(mk["place"], mk["kind"], strict=True) if k == "insurrection"):
        x, y = anchors[city]
        ins["id"].append(city)
        ins["x"].append(x)
        ins["y"].append(y)
        ins["size"].append(city_size.get(city, 12) + 18)
        ins["tip"].append(
            f"<b>Insurrection in {_esc(places[city]['name'])}</b><br>the city has risen for the VC"
        )

    # -- the areas the latest ruling concerns
    latest = view.log[-1] if view.log else None
    focus = [p for p in (latest.places if latest else ()) if p in anchors]
    focus_areas = {"id": [], "xs": [], "ys": []}
    focus_points = {"id": [], "x": [], "y": [], "size": []}
    for p in focus:
        kind = places[p]["kind"]
        if kind == "city":
            x, y = anchors[p]
            focus_points["id"].append(p)
            focus_points["x"].append(x)
            focus_points["y"].append(y)
            focus_points["size"].append(city_size.get(p, 12) + 12)
            continue
        if kind == "box":
            bi = static["boxes"]["id"].index(p)
            bx, by = _rect(
                static["boxes"]["x"][bi],
                static["boxes"]["y"][bi],
                static["boxes"]["w"][bi],
                static["boxes"]["h"][bi],
            )
            xs, ys = [[bx]], [[by]]
        else:
            layer = static["provinces" if kind == "province" else "sanctuaries"]
            i = layer["id"].index(p)
            xs, ys = layer["xs"][i], layer["ys"][i]
        focus_areas["id"].append(p)
        focus_areas["xs"].append(xs)
        focus_areas["ys"].append(ys)

    return {
        "side": side,
        "units": chits,
        "leaders": leaders,
        "militia": militia,
        "insurrection": ins,
        "focus_areas": focus_areas,
        "focus_points": focus_points,
        "latest": None
        if latest is None
        else {
            "seq": latest.seq,
            "rule_id": latest.rule_id,
            "title": latest.title,
            "places": list(latest.places),
        },
        "units_drawn": sum(chits["count"]) + sum(militia["count"]),
        "units_placed": len(view.state["units"]),
        "unplaced_areas": unplaced,
    }
