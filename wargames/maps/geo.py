"""Real geography for every game's map (``data/geo``: GSHHG coastline, countries, borders, rivers).

Plain data only (no Bokeh): GeoJSON geometries turned into the column lists a Bokeh source takes.
"""

from __future__ import annotations

from typing import Any

from ..core.data import data_root, read_geojson


def geom_to_multi(geom: dict[str, Any]) -> tuple[list, list]:
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


def lines(geom: dict[str, Any]) -> list[tuple[list[float], list[float]]]:
    """GeoJSON LineString/MultiLineString -> a list of (xs, ys) parts (other geometries: none)."""
    if geom["type"] == "LineString":
        parts = [geom["coordinates"]]
    elif geom["type"] == "MultiLineString":
        parts = geom["coordinates"]
    else:
        return []
    return [([p[0] for p in part], [p[1] for p in part]) for part in parts]


def bbox_hits(xs: list, ys: list, box: tuple[float, float, float, float]) -> bool:
    """Whether multi-polygon coordinates touch the box (x0, y0, x1, y1)."""
    flat_x = [x for poly in xs for ring in poly for x in ring]
    flat_y = [y for poly in ys for ring in poly for y in ring]
    return not (max(flat_x) < box[0] or min(flat_x) > box[2] or max(flat_y) < box[1] or min(flat_y) > box[3])


def geo_layer(name: str) -> dict[str, Any] | None:
    """``data/geo/<name>.geojson`` (None when the file is absent)."""
    path = data_root() / "geo" / f"{name}.geojson"
    if not path.exists():
        return None
    return read_geojson(path)


def background_layers(
    view_box: tuple[float, float, float, float], country_fill: dict[str, str], default_fill: str = "#efeee9"
) -> dict[str, dict[str, list]]:
    """Land, countries (filled), borders and rivers inside ``view_box``, as Bokeh column dicts."""
    land: dict[str, list] = {"xs": [], "ys": []}
    if (g := geo_layer("land")) is not None:
        for feat in g["features"]:
            xs, ys = geom_to_multi(feat["geometry"])
            if bbox_hits(xs, ys, view_box):
                land["xs"].append(xs)
                land["ys"].append(ys)
    countries: dict[str, list] = {"id": [], "name": [], "fill": [], "xs": [], "ys": []}
    if (g := geo_layer("countries")) is not None:
        for feat in g["features"]:
            xs, ys = geom_to_multi(feat["geometry"])
            if not bbox_hits(xs, ys, view_box):
                continue
            cid = feat["properties"].get("id", "")
            countries["id"].append(cid)
            countries["name"].append(feat["properties"].get("name", cid))
            countries["fill"].append(country_fill.get(cid, default_fill))
            countries["xs"].append(xs)
            countries["ys"].append(ys)
    borders: dict[str, list] = {"xs": [], "ys": [], "kind": [], "name": []}
    if (g := geo_layer("borders")) is not None:
        for feat in g["features"]:
            for xs, ys in lines(feat["geometry"]):
                borders["xs"].append(xs)
                borders["ys"].append(ys)
                borders["kind"].append(feat["properties"].get("kind", "international"))
                borders["name"].append(feat["properties"].get("name", ""))
    rivers: dict[str, list] = {"xs": [], "ys": [], "name": []}
    if (g := geo_layer("rivers")) is not None:
        for feat in g["features"]:
            for xs, ys in lines(feat["geometry"]):
                rivers["xs"].append(xs)
                rivers["ys"].append(ys)
                rivers["name"].append(feat["properties"].get("name", ""))
    return {"land": land, "countries": countries, "borders": borders, "rivers": rivers}
