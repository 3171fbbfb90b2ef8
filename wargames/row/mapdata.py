"""Vietnam: Rumor of War's map as plain semantic layers (issue #14 item 2; ``wargames.maps.layers``).

Hexes are places (id = the four-digit hex number; geometry from ``wargames.maps.hexgrid`` at the map's 10-mile
hexes, y up), hexside roads, trails, rivers and borders are lines, units and HQs are pieces per hex and side as
``side`` may see them (``game.public_state(side)``: ROW-14.3, ROW-13.1.2).  No colours: the notebook kit draws it.
"""

from __future__ import annotations

from typing import Any

from ..maps.hexgrid import hex_centre, hex_corners, hexside_segment
from ..maps.layers import add_row, empty_layers
from .hexmap import RADIUS_MI, load_map

_CACHE: dict[int, tuple[Any, dict[str, Any]]] = {}
PLACE_KINDS = ("city", "town", "base")


def _static(m) -> dict[str, Any]:
    got = _CACHE.get(id(m))
    if got is not None and got[0] is m:
        return got[1]
    named: dict[str, list] = {}
    for p in m.places.values():
        if p.hex and p.kind in PLACE_KINDS:
            named.setdefault(p.hex, []).append(p)
    out = empty_layers("row", "hex", None, {"x": (0, 1), "y": (0, 1)}, coords="hexgrid")
    xs_all, ys_all = [], []
    for hid, h in sorted(m.hexes.items()):
        x, y = hex_centre(hid, RADIUS_MI)
        cx, cy = hex_corners(hid, RADIUS_MI)
        xs_all += cx
        ys_all += cy
        here = sorted(named.get(hid, []), key=lambda p: (PLACE_KINDS.index(p.kind), p.name))
        facts = {"terrain": "sea" if h.kind == "sea" else h.terrain, "country": h.country, "area": h.area,
                 "zone": h.zone, "places": [{"id": p.id, "name": p.name, "kind": p.kind} for p in here]}
        add_row(out["places"], id=hid, name=" / ".join(p.name for p in here) or f"hex {hid}",
                kind=here[0].kind if here else "hex", shape="hex", xs=cx, ys=cy, x=x, y=y, facts=facts)
    for (a, b), feats in sorted(m.sides.items()):
        for f in sorted(feats & {"road", "trail", "river", "border"}):
            if f in ("road", "trail"):
                (xa, ya), (xb, yb) = hex_centre(a, RADIUS_MI), hex_centre(b, RADIUS_MI)
                xs, ys = [xa, xb], [ya, yb]
            else:
                xs, ys = hexside_segment(a, b, RADIUS_MI)
            add_row(out["lines"], kind=f, xs=xs, ys=ys, name=f"{a}-{b}")
    out["extent"] = {"x": (min(xs_all), max(xs_all)), "y": (min(ys_all), max(ys_all))}
    _CACHE.clear()
    _CACHE[id(m)] = (m, out)
    return out


def map_layers(game, side: str | None = None) -> dict[str, Any]:
    """The theatre with the units and HQs on the map as ``side`` may see them (None: the umpire)."""
    static = _static(load_map())
    out = dict(static)
    out["side"] = side
    out["pieces"] = {"place": [], "faction": [], "count": [], "hidden": [], "facts": []}
    out["markers"] = {"place": [], "kind": [], "text": []}
    st = game.public_state(side)
    known = set(static["places"]["id"])
    stacks: dict[tuple[str, str], list[str]] = {}
    for uid, hid in sorted(st["pos"].items()):
        if hid in known:
            stacks.setdefault((hid, game.side_of(uid)), []).append(uid)
    for (hid, s), uids in sorted(stacks.items()):
        facts = [{"id": u, "nationality": game.rows[u].nationality, "kind": game.rows[u].kind,
                  "fresh": bool(st["fresh"].get(u, True)) if isinstance(st.get("fresh"), dict) else True} for u in uids]
        add_row(out["pieces"], place=hid, faction=s, count=len(uids), hidden=False, facts=facts)
    for hid, status in sorted((st.get("tunnels") or {}).items()):
        if hid in known:
            add_row(out["markers"], place=hid, kind="tunnel", text=f"Tunnel ({status})")
    return out
