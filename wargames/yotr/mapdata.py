"""The Year of the Rat map as plain semantic layers (issue #14 item 2; ``wargames.maps.layers``).

Hexes are places (id = the four-digit hex number, geometry from ``wargames.maps.hexgrid``), hexside
features are lines, counters are pieces per hex and nationality as ``side`` may see them: a Communist
counter face down is a piece of unknown faction (YOTR-MOV-M).  No colours: the notebook kit draws it.
"""

from __future__ import annotations

from typing import Any

from ..maps.layers import add_hex_place, add_row, empty_layers, hexside_line

PLACE_KINDS = ("town", "base", "supply_center", "foreign_town")


_CACHE: dict[int, tuple[Any, dict[str, Any]]] = {}


def _static(data) -> dict[str, Any]:
    """Places (hexes) and lines, built once per loaded data."""
    got = _CACHE.get(id(data))
    if got is not None and got[0] is data:
        return got[1]
    _CACHE.clear()
    _CACHE[id(data)] = (data, _build(data))
    return _CACHE[id(data)][1]


def _build(data) -> dict[str, Any]:
    names: dict[str, list] = {}
    for p in data.places.values():
        if p.kind in PLACE_KINDS:
            names.setdefault(p.hex, []).append(p)
    xs_all, ys_all = [], []
    out = empty_layers("yotr", "hex", None, {"x": (0, 1), "y": (0, 1)}, coords="hexgrid")
    places = out["places"]
    for hid, h in sorted(data.hexes.items()):
        here = names.get(hid, [])
        region = data.regions[h.region] if h.region in data.regions else None
        facts = {
            "terrain": h.terrain,
            "country": h.country,
            "region": h.region,
            "region_name": region.name if region else None,
            "region_vp": region.vp if region else None,
            "places": [
                {
                    "id": p.id,
                    "name": p.name,
                    "kind": p.kind,
                    "strength": p.intrinsic_strength,
                    "vp_communist": p.vp_communist,
                    "vp_allied": p.vp_allied,
                    "quota": p.quota,
                }
                for p in here
            ],
        }
        name = " / ".join(p.name for p in here) or f"hex {hid}"
        x, y, _cx, _cy = add_hex_place(places, hid, name, here[0].kind if here else "hex", facts)
        xs_all.append(x)
        ys_all.append(y)
    for (a, b), feats in sorted(data.sides.items()):
        for f in sorted(feats):
            xs, ys = hexside_line(a, b, f)
            add_row(out["lines"], kind=f, xs=xs, ys=ys, name=f"{a}-{b}")
    out["extent"] = {"x": (min(xs_all) - 1, max(xs_all) + 1), "y": (min(ys_all) - 1, max(ys_all) + 1)}
    return out


def map_layers(game, side: str | None = None) -> dict[str, Any]:
    """The hex map with the counters as ``side`` sees them (None: the umpire)."""
    static = _static(game.data)
    out = {k: v for k, v in static.items()}
    out["side"] = side
    out["pieces"] = {"place": [], "faction": [], "count": [], "hidden": [], "facts": []}
    out["markers"] = {"place": [], "kind": [], "text": []}
    state = game.public_state(side)
    stacks: dict[tuple[str, str | None], list[dict]] = {}
    for u in state["units"]:
        key = u.get("nationality") if u["face_up"] else None
        stacks.setdefault((u["hex"], key), []).append(u)
    for (hid, nat), units in sorted(stacks.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")):
        facts = (
            []
            if nat is None
            else [
                {
                    "id": u["id"],
                    "type": u.get("type", ""),
                    "values": u.get("values") or "",
                    "markers": list(u["markers"]),
                }
                for u in units
            ]
        )
        add_row(out["pieces"], place=hid, faction=nat, count=len(units), hidden=nat is None, facts=facts)
    return out
