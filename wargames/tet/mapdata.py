"""The Tet theatre as plain semantic map layers (issue #14 item 2; ``wargames.maps.layers``).

Ids, geometry in longitude/latitude and facts only: no colours, pixels or HTML (the notebook kit draws
it).  Provinces and sanctuaries are polygons (``data/tet/areas.geojson``; circles where a polygon is
missing), cities points, the off-map boxes rectangles drawn in the empty South China Sea.  Units are pieces
per area, faction and facing, as ``side`` may see them: an enemy unit face down is a piece of unknown
faction whose name and strength are not given (TET-P5-1: hidden until detected; TET-P1-3), exactly as
``game.view(side)`` masks it.  The international border (TET-MAP-8) separates the areas by their ``country``
fact; it is drawn from the real geography (``data/geo``) by the notebook kit.
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

from ..core.data import game_dir, read_geojson
from ..maps.geo import geom_to_multi
from ..maps.layers import add_row, empty_layers

EXTENT = {"x": (104.0, 110.0), "y": (8.35, 17.65)}
# Off-map holding boxes, placed in the empty South China Sea (centre lon, lat) so that they can hold pieces
BOX_PLACES = {
    "offmap_box_1": (108.45, 10.05),
    "offmap_box_2": (109.45, 10.05),
    "recce_pool": (108.45, 9.35),
    "casualties": (109.45, 9.35),
    "eliminated": (108.95, 8.7),
    "offshore_11": (108.6, 17.35),
    "offshore_12": (109.25, 16.85),
    "offshore_13": (109.3, 16.3),
}
BOX_SIZE = (0.94, 0.55)  # degrees (w, h) of a sea box
OFFSHORE_SIZE = (
    1.22,
    0.34,
)  # the battleship stations: wide enough for "Battleship off 13", inside the map's frame


def area_shapes(game) -> tuple[dict[str, dict], dict[str, tuple[float, float]], str]:
    """Polygons and label points of the areas: from the game's AreaMap shapes, else areas.geojson, else none."""
    shapes = dict(getattr(game.data.map, "shapes", {}) or {})
    path = game_dir("tet") / "areas.geojson"
    if not shapes and path.exists():
        for feat in read_geojson(path)["features"]:
            props = feat["properties"]
            key = props["id"] if props.get("kind") != "label" else f"label:{props['id']}"
            shapes[key] = feat["geometry"]
    labels = {
        k[6:]: tuple(g["coordinates"][:2])
        for k, g in shapes.items()
        if k.startswith("label:") and g.get("type") == "Point"
    }
    polys = {
        k: g
        for k, g in shapes.items()
        if not k.startswith("label:") and g.get("type") in ("Polygon", "MultiPolygon")
    }
    return polys, labels, ("areas.geojson" if polys else "circles (data/tet/areas.geojson not available)")


def box_rect(aid: str) -> tuple[float, float, float, float]:
    """(centre lon, centre lat, width, height) of an off-map box as drawn at sea."""
    x, y = BOX_PLACES[aid]
    w, h = OFFSHORE_SIZE if aid.startswith("offshore") else BOX_SIZE
    return x, y, w, h


def _circle(lon: float, lat: float, r: float, n: int = 28) -> tuple[list, list]:
    return (
        [[[round(lon + r * math.cos(2 * math.pi * k / n), 4) for k in range(n)]]],
        [[[round(lat + r * math.sin(2 * math.pi * k / n), 4) for k in range(n)]]],
    )


def _routes() -> dict[frozenset[str], str]:
    """The Highway's route names (QL 1, QL 9 ...) by the two areas a road edge joins (``data/tet/edges.csv``)."""
    from ..core.data import cached_csv
    from .data import EdgeRow

    return {frozenset((e.a, e.b)): e.route for e in cached_csv("tet", "edges.csv", EdgeRow) if e.route}


def _area_place(a, d, polys, label_pts) -> tuple[float, float, Any, Any, str, dict[str, Any]] | None:
    """Where an area of the map is drawn and what the rules say of it: a province or sanctuary as its surveyed
    outline (or a stand-in circle), a city as a point, a holding box as its rectangle; None for an area with
    no place on the map."""
    facts: dict[str, Any] = {"country": a.country, "corps": a.corps}
    if a.kind in ("province", "sanctuary") and a.lat is not None:
        x, y = label_pts.get(a.id, (a.lon, a.lat))
        xs, ys = (
            geom_to_multi(polys[a.id])
            if a.id in polys
            else _circle(a.lon, a.lat, 0.2 if a.kind == "province" else 0.13)
        )
        facts.update(
            terrain=a.terrain,
            coastal=bool(a.coastal),
            mekong=bool(a.mekong),
            on_trail=bool(getattr(a, "on_trail", False)),
            cities=list(d.cities_of.get(a.id, ())),
            outline="surveyed" if a.id in polys else "circle",
        )
        return x, y, xs, ys, "polygon", facts
    if a.kind == "city":
        facts.update(
            political_value=a.pv, airbase=bool(a.airbase), province=a.province, on_road=bool(a.on_road)
        )
        return a.lon, a.lat, [], [], "point", facts
    if a.id in BOX_PLACES:
        x, y, w, h = box_rect(a.id)
        xs = [[[x - w / 2, x + w / 2, x + w / 2, x - w / 2]]]
        ys = [[[y - h / 2, y - h / 2, y + h / 2, y + h / 2]]]
        return x, y, xs, ys, "polygon", facts
    return None


def map_layers(game, side: str | None = None) -> dict[str, Any]:
    """Areas, the Highway and the Trail, insurrection markers and the units as ``side`` sees them.

    Provinces and sanctuaries say where their outline comes from (``outline``: "surveyed", a polygon of
    ``areas.geojson``, or "circle", a stand-in round their position); lines carry the two places they join
    (``ends``) and a road its route name (``route``)."""
    d = game.data
    polys, label_pts, _ = area_shapes(game)
    out = empty_layers("tet", "area", side, EXTENT)
    anchors: dict[str, tuple[float, float]] = {}
    for a in d.areas.values():
        got = _area_place(a, d, polys, label_pts)
        if got is None:
            continue
        x, y, xs, ys, shape, facts = got
        anchors[a.id] = (x, y)
        add_row(
            out["places"], id=a.id, name=a.name, kind=a.kind, shape=shape, xs=xs, ys=ys, x=x, y=y, facts=facts
        )
    out["lines"].update(ends=[], route=[])
    routes = _routes()
    for a, b, kind in d.map.edges:
        if kind in ("road", "trail") and a in anchors and b in anchors:
            add_row(
                out["lines"],
                kind="highway" if kind == "road" else "trail",
                xs=[anchors[a][0], anchors[b][0]],
                ys=[anchors[a][1], anchors[b][1]],
                name=f"{a}-{b}",
                ends=[a, b],
                route=routes.get(frozenset((a, b)), "") if kind == "road" else "",
            )
    view = game.view(side)
    groups: dict[tuple[str, str | None, bool, str], list[dict[str, Any]]] = defaultdict(list)
    for u in view.state["units"]:
        masked = u["id"].startswith("hidden@")
        faction = None if masked else u["faction"]
        if not masked and u.get("type") == "ruff_puff":
            faction = "RP"
        # a masked unit: the viewer knows only its side ("Allied" or "NVA/VC"), not its faction, name or strength
        groups[(u["area"], faction, masked or not u["face_up"], u["faction"] if masked else "")].append(u)
    for (area, faction, down, known_side), units in sorted(
        groups.items(), key=lambda kv: (kv[0][0], kv[0][1] or "", kv[0][2], kv[0][3])
    ):
        facts = (
            [{"side": known_side} for _ in units]
            if faction is None
            else [
                {"id": u["id"], "name": u["name"], "type": u.get("type", ""), "cf": u.get("cf")}
                for u in units
            ]
        )
        add_row(out["pieces"], place=area, faction=faction, count=len(units), hidden=down, facts=facts)
    for city in sorted(view.state["insurrection"]):
        add_row(out["markers"], place=city, kind="insurrection", text="Insurrection")
    return out
