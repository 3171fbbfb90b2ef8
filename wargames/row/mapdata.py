"""Vietnam: Rumor of War's map as plain semantic layers (issue #14 item 2; ``wargames.maps.layers``).

Hexes are places (id = the four-digit hex number; geometry from ``wargames.maps.hexgrid`` at the map's 10-mile
hexes, y up) with their facts: terrain (sea hexes "sea"), country, area (the Corps or CMD of South Vietnam, the
DMZ, ...), zone, and the cities, towns and bases in them (``places``: id, name, kind and ``row``, the place's row
in the gazetteer ``data/row/map/places.csv``).  Lines: hexside roads, trails, rivers and borders (``name``: the
river's or road's name where the map names it; ``ends``: the two hexes), and the Corps and CMD boundaries inside
South Vietnam (kind ``corps``, rule 14.6; ``ends``: the hex of lower number first).  Units and HQs are pieces per
hex and side, hex markers and the activation under way are markers, as ``side`` may see them
(``game.public_state(side)``: ROW-14.3, ROW-13.1.2; see :func:`map_layers`).  ``window``: the
scenario's map window (special rule map_window, R-SCN-01: ``{"cols": (c0, c1), "rows": (r0, r1)}``), None for
the whole theatre.  No colours: the notebook kit draws it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..maps.hexgrid import hexside_segment
from ..maps.layers import add_hex_place, add_row, empty_layers, hexside_line
from .hexmap import RADIUS_MI, load_map

if TYPE_CHECKING:  # pragma: no cover
    from .game import RowGame

_CACHE: dict[int, tuple[Any, dict[str, Any]]] = {}
PLACE_KINDS = ("city", "town", "base")
SIDE_LINES = ("road", "trail", "river", "border")


def _static(m) -> dict[str, Any]:
    got = _CACHE.get(id(m))
    if got is not None and got[0] is m:
        return got[1]
    named: dict[str, list] = {}
    gazetteer: dict[str, int] = {}
    for i, p in enumerate(m.places.values()):
        gazetteer[p.id] = i
        if p.hex and p.kind in PLACE_KINDS:
            named.setdefault(p.hex, []).append(p)
    out = empty_layers("row", "hex", None, {"x": (0, 1), "y": (0, 1)}, coords="hexgrid")
    out["lines"]["ends"] = []
    out["window"] = None
    xs_all, ys_all = [], []
    for hid, h in sorted(m.hexes.items()):
        here = sorted(named.get(hid, []), key=lambda p: (PLACE_KINDS.index(p.kind), p.name))
        facts = {
            "terrain": "sea" if h.kind == "sea" else h.terrain,
            "country": h.country,
            "area": h.area,
            "zone": h.zone,
            "places": [{"id": p.id, "name": p.name, "kind": p.kind, "row": gazetteer[p.id]} for p in here],
        }
        name = " / ".join(p.name for p in here) or f"hex {hid}"
        _x, _y, cx, cy = add_hex_place(
            out["places"], hid, name, here[0].kind if here else "hex", facts, RADIUS_MI
        )
        xs_all += cx
        ys_all += cy
    _corps_lines(m, out["lines"])
    for (a, b), feats in m.sides.items():  # in the map's order of hexsides
        for f in (f for f in SIDE_LINES if f in feats):
            xs, ys = hexside_line(a, b, f, RADIUS_MI)
            add_row(out["lines"], kind=f, xs=xs, ys=ys, name=m.side_names.get(((a, b), f), ""), ends=(a, b))
    out["extent"] = {"x": (min(xs_all), max(xs_all)), "y": (min(ys_all), max(ys_all))}
    _CACHE.clear()
    _CACHE[id(m)] = (m, out)
    return out


def _corps_lines(m, lines: dict[str, list]) -> None:
    """The Corps and CMD boundaries inside South Vietnam (rule 14.6): a line on every hexside between two South
    Vietnamese hexes of different areas, the hex of lower number first."""
    for hid, h in sorted(m.hexes.items()):
        if h.country != "SVN":
            continue
        for other in m.adj[hid]:
            o = m.hexes[other]
            if o.country == "SVN" and o.area != h.area and other > hid:
                xs, ys = hexside_segment(hid, other, RADIUS_MI)
                add_row(lines, kind="corps", xs=xs, ys=ys, name=f"{h.area} / {o.area}", ends=(hid, other))


def theatre_layers() -> dict[str, Any]:
    """The whole theatre with no game: every hex, line and named place, no pieces (``window`` None)."""
    return _static(load_map())


def map_layers(game: RowGame, side: str | None = None) -> dict[str, Any]:
    """The theatre with the units and HQs on the map as ``side`` may see them (None: the umpire), the hex
    markers and the activation under way, and the scenario's map window (R-SCN-01).

    ``pieces``: one row per hex and side, in the order the state lists their first unit; each unit's facts are
    its id, name, nationality, kind ("hq" or "unit"), type, whether it is fresh (ROW-9.3) and its markers (OOC,
    Routed, a random event).  ``markers``: objectives (``value``, None to both players while the marker is face down,
    ROW-12.1.3), fire bases and landing zones (ROW-14.1.2), tunnels (ROW-14.3: a Hidden one only to the
    Communist and the umpire), bunkers and other works (ROW-14.3), each with its ``facts`` and ``rule``; and
    ``activation`` on the hexes of the HQ activating and its units (ROW-9.2)."""
    m = load_map()
    static = _static(m)
    out = dict(static)
    out["side"] = side
    w = game.window
    out["window"] = {"cols": (w.cols[0], w.cols[1]), "rows": (w.rows[0], w.rows[1])}
    out["pieces"] = {"place": [], "faction": [], "count": [], "hidden": [], "facts": []}
    out["markers"] = {"place": [], "kind": [], "text": [], "facts": []}
    st = game.public_state(side)
    known = m.hexes
    stacks: dict[tuple[str, str], list[str]] = {}
    for uid, hid in st["pos"].items():
        if hid in known:
            stacks.setdefault((hid, game.side_of(uid)), []).append(uid)
    fresh = st["fresh"] if isinstance(st.get("fresh"), dict) else {}
    marks = st.get("markers") or {}
    for (hid, s), uids in stacks.items():
        facts = []
        for u in uids:
            r = game.rows[u]
            facts.append(
                {
                    "id": u,
                    "name": r.name,
                    "nationality": r.nationality,
                    "kind": r.kind,
                    "type": r.unit_type,
                    "fresh": bool(fresh.get(u, True)),
                    "markers": list(marks.get(u) or ()),
                }
            )
        add_row(out["pieces"], place=hid, faction=s, count=len(uids), hidden=False, facts=facts)

    def marker(hid: str, kind: str, text: str, rule: str, **facts: Any) -> None:
        if hid in known:
            add_row(out["markers"], place=hid, kind=kind, text=text, facts={**facts, "rule": rule})

    for hid, o in st["objectives"].items():
        marker(hid, "objective", "Objective", "ROW-12.1.3", value=o.get("value"))
    for hid, kind in st["fire_bases"].items():
        marker(hid, "fire base", kind, "ROW-14.1.2", type=kind)
    for hid in st["lz"]:
        marker(hid, "landing zone", "Landing Zone", "ROW-14.1.2")
    for hid, status in st["tunnels"].items():
        marker(hid, "tunnel", f"Tunnel ({status})", "ROW-14.3", state=status)
    for hid, kind in st["works"].items():
        marker(hid, "works", kind, "ROW-14.3", type=kind)
    act = st.get("act")
    if act:
        for hid in sorted({st["pos"][u] for u in [act["hq"], *act["units"]] if u in st["pos"]}):
            marker(hid, "activation", "Activation under way", "ROW-9.2", hq=act["hq"])
    return out
