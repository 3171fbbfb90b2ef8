"""The one map contract (issue #14 item 2): ``game.map_layers(side)`` returns plain semantic layers.

Every game answers with the same shape, whatever its map kind (``GameType.map_kind``: "area", "hex" or
"board"), and the notebook kit draws it by kind with the game's one palette.  The layers hold ids, geometry
in map coordinates and facts; never colours, pixels or HTML (how a map looks is the kit's business).  Hidden
information is respected: a side's layers name no piece it may not identify, and count its hidden pieces
only as the rules let it see them.

Layers (each a ``{column: list}`` dict, one row per item):

``places``  where things stand and what a click picks: ``id``, ``name``, ``kind`` (province, city, hex,
            box ...), ``shape`` ("polygon", "line", "point" or "hex"), ``xs``/``ys`` (a polygon in
            Bokeh ``multi_polygons`` nesting, a list of polylines for a line, the six corners of a hex,
            ``[]`` for a point), ``x``/``y`` (the label and piece anchor),
            ``facts`` (a dict: terrain, country, political value, Support level ... whatever the game's
            rules say about the place).
``lines``   roads, rivers, borders, trails: ``kind``, ``xs``, ``ys``, ``name``.
``pieces``  one row per place and faction as ``side`` sees them: ``place``, ``faction`` (None: a piece the
            viewer may not identify), ``count``, ``hidden`` (face down / Underground / unknown to the
            viewer), ``facts`` (a list of dicts, one per piece, with only what the viewer may know of
            it: for a piece of unknown faction at most its side).
``markers`` facts on a place that are not pieces (Control, Terror, insurrection ...): ``place``, ``kind``,
            ``text``.

A layer may carry more columns of facts than these (Tet's lines name the two places they join, ``ends``, and a
road's ``route``); the same rules hold for them.

Besides the layers: ``game`` (id), ``kind`` (the map kind), ``side``, ``extent`` (``{"x": (x0, x1), "y":
(y0, y1)}`` in map coordinates), ``coords`` (what the map coordinates are: "lonlat" or "hexgrid", the
latter being :func:`wargames.maps.hexgrid.hex_centre` with size 1).
"""

from __future__ import annotations

import re
from typing import Any

from .hexgrid import hex_centre, hex_corners, hexside_segment

KINDS = ("area", "hex", "board")
LAYERS: dict[str, tuple[str, ...]] = {
    "places": ("id", "name", "kind", "shape", "xs", "ys", "x", "y", "facts"),
    "lines": ("kind", "xs", "ys", "name"),
    "pieces": ("place", "faction", "count", "hidden", "facts"),
    "markers": ("place", "kind", "text"),
}
# presentation has no place in the contract
FORBIDDEN = ("colour", "color", "fill", "alpha", "tip", "dx", "dy", "px", "font", "size", "html", "style")
_COLOUR = re.compile(r"^#[0-9a-fA-F]{3,8}$")
_HTML = re.compile(r"<[a-zA-Z/][^>]*>")


def empty_layers(
    game: str, kind: str, side: str | None, extent: dict[str, tuple[float, float]], coords: str = "lonlat"
) -> dict[str, Any]:
    """A layers value with every layer present and empty."""
    out: dict[str, Any] = {"game": game, "kind": kind, "side": side, "extent": dict(extent), "coords": coords}
    for name, cols in LAYERS.items():
        out[name] = {c: [] for c in cols}
    return out


def add_row(layer: dict[str, list], **row: Any) -> None:
    """Append one row to a layer (every column of the layer must be given)."""
    missing = set(layer) - set(row)
    extra = set(row) - set(layer)
    if missing or extra:
        raise ValueError(f"map layer row: missing {sorted(missing)}, unknown {sorted(extra)}")
    for k, v in row.items():
        layer[k].append(v)


def add_hex_place(
    layer: dict[str, list], hid: str, name: str, kind: str, facts: dict[str, Any], size: float = 1.0
) -> tuple[float, float, list[float], list[float]]:
    """Append the hex ``hid`` to a places layer (shape "hex": its six corners from the hex grid at ``size``, its
    centre as the anchor) and return the centre and the corners, for the map's extent."""
    x, y = hex_centre(hid, size)
    cx, cy = hex_corners(hid, size)
    add_row(layer, id=hid, name=name, kind=kind, shape="hex", xs=cx, ys=cy, x=x, y=y, facts=facts)
    return x, y, cx, cy


def hexside_line(a: str, b: str, feature: str, size: float = 1.0) -> tuple[list[float], list[float]]:
    """Where a hexside feature between hexes ``a`` and ``b`` is drawn: a road or a trail from hex centre to hex
    centre (the route crosses the hexside), any other feature (river, border ...) along the side they share."""
    if feature in ("road", "trail"):
        (xa, ya), (xb, yb) = hex_centre(a, size), hex_centre(b, size)
        return [xa, xb], [ya, yb]
    return hexside_segment(a, b, size)


def places_by_id(layers: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The layers' places as one dict per place id, in their order: ``kind``, ``name``, ``shape``, ``xs``, ``ys``,
    ``x``, ``y`` and ``facts`` (a dict, never None)."""
    pl = layers["places"]
    return {
        pid: {
            "kind": pl["kind"][i],
            "name": pl["name"][i],
            "shape": pl["shape"][i],
            "xs": pl["xs"][i],
            "ys": pl["ys"][i],
            "x": pl["x"][i],
            "y": pl["y"][i],
            "facts": pl["facts"][i] or {},
        }
        for i, pid in enumerate(pl["id"])
    }


def _walk_strings(value: Any):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _walk_strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _walk_strings(v)


def check_layers(layers: dict[str, Any]) -> dict[str, Any]:
    """Raise ValueError naming the layer and column if ``layers`` breaks the contract; return it otherwise."""
    if layers.get("kind") not in KINDS:
        raise ValueError(f"map layers: kind must be one of {KINDS}, got {layers.get('kind')!r}")
    ext = layers.get("extent") or {}
    if not (len(ext.get("x", ())) == 2 and len(ext.get("y", ())) == 2):
        raise ValueError("map layers: extent needs x and y ranges")
    for name, cols in LAYERS.items():
        layer = layers.get(name)
        if not isinstance(layer, dict):
            raise ValueError(f"map layers: layer {name!r} is missing")
        lacking = [c for c in cols if c not in layer]
        if lacking:
            raise ValueError(f"map layers: layer {name!r} lacks columns {lacking}")
        bad = [c for c in layer if any(f in c.lower() for f in FORBIDDEN)]
        if bad:
            raise ValueError(
                f"map layers: layer {name!r} has presentation columns {bad} (colours, pixels, HTML "
                "belong to the notebook kit)"
            )
        lengths = {c: len(v) for c, v in layer.items()}
        if len(set(lengths.values())) > 1:
            raise ValueError(f"map layers: layer {name!r} has columns of different lengths {lengths}")
        for s in _walk_strings(layer):
            if _COLOUR.match(s) or _HTML.search(s):
                raise ValueError(f"map layers: layer {name!r} holds a colour or HTML: {s[:60]!r}")
    ids = layers["places"]["id"]
    if len(set(ids)) != len(ids):
        raise ValueError("map layers: place ids are not unique")
    known = set(ids)
    for layer in ("pieces", "markers"):
        unknown = sorted({p for p in layers[layer]["place"] if p not in known})
        if unknown:
            raise ValueError(f"map layers: {layer} stand in unknown places {unknown[:5]}")
    return layers
