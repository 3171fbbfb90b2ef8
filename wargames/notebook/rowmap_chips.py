"""The unit chips of the Rumor of War map (issue #14): one chip per unit or stack on a hex, coloured by nation,
at most a few a hex with the rest counted, and the index of places by hex for the chips' tooltips.  The map and
its view are in :mod:`wargames.notebook.rowmap`."""

from __future__ import annotations

from typing import Any

from ..maps.hexgrid import hex_centre, hex_corners
from ..row.hexmap import RADIUS_MI

# ---------------------------------------------------------------------------------------------- the play map
#: counter colours per nationality (Capitalist greens and blues, Communist reds and black)
NATION = {
    "US": "#1e6b2e",
    "ARVN": "#1f4fbf",
    "ROK": "#7b3fa0",
    "Thai": "#7b3fa0",
    "Aus": "#7b3fa0",
    "Cmb": "#5d6d7e",
    "Laos": "#5d6d7e",
    "PAVN": "#c0392b",
    "VC": "#111111",
    "PRC": "#8e1b1b",
    "PL": "#8e1b1b",
    "KhR": "#8e1b1b",
}


MAX_CHIPS = 4  # chips per hex (2 x 2); a fifth kind of counter is folded into the last chip


def _pale(colour: str, k: float = 0.62) -> str:
    """``colour`` mixed with white (a spent unit's chip, its counter flipped)."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#{:02x}{:02x}{:02x}".format(*(round(c + (255 - c) * k) for c in (r, g, b)))


def row_unit_chips(game, side: str | None) -> dict[str, dict[str, list[Any]]]:
    """The counters on the map as ``side`` sees them (``game.map_layers(side)``: its pieces and markers), drawn as
    chips: per hex one chip per nationality for its HQs ("HQ"), its fresh units (their number, solid) and its
    spent units (their number, pale) (ROW-9.3 fresh and spent); a red border marks a stack with a marker on it
    (OOC, Routed, a random event).  Hex markers (objectives, fire bases, landing zones, tunnels, bunkers) are
    badges at the top of the hex.  Rings mark the hexes of the activation in progress (``active``) and of the
    pending decision's choices (``options``)."""
    layers = game.map_layers(side)
    suffix, hexes = _place_index(layers)
    sx, sy = (
        (-3.0, 3.0),
        (-0.5, 3.6),
    )  # chip offsets in grid miles (two columns, two rows under the hex number)
    groups: dict[str, dict[tuple[str, str], list[dict[str, Any]]]] = {}
    pc = layers["pieces"]
    for hid, faction, facts in zip(pc["place"], pc["faction"], pc["facts"], strict=True):
        g = groups.setdefault(hid, {})
        for f in facts:
            status = "HQ" if f["kind"] == "hq" else ("fresh" if f["fresh"] else "spent")
            g.setdefault((f["nationality"], status), []).append({**f, "side": faction})
    order = {"HQ": 0, "fresh": 1, "spent": 2}
    chips: dict[str, list[Any]] = {
        k: [] for k in ("hex", "x", "y", "text", "fill", "text_color", "line_color", "tip")
    }
    for hid, g in groups.items():
        cx, cy = hex_centre(hid, RADIUS_MI)  # y up (north up on the page)
        keys = sorted(g, key=lambda k: (g[k][0]["side"] != (side or g[k][0]["side"]), order[k[1]], k[0]))
        if len(keys) > MAX_CHIPS:  # fold the rest into the last chip
            keys = keys[: MAX_CHIPS - 1] + [("+", "more")]
            g = {
                **g,
                ("+", "more"): [
                    u for k in sorted(g, key=lambda k: (order[k[1]], k[0]))[MAX_CHIPS - 1 :] for u in g[k]
                ],
            }
        for i, (nat, status) in enumerate(keys):
            units = g[(nat, status)]
            colour = NATION.get(nat, "#5d6d7e")
            chips["hex"].append(hid)
            chips["x"].append(cx + sx[i % 2])
            chips["y"].append(cy - sy[i // 2])
            if status == "HQ":
                text = "HQ" if len(units) == 1 else f"HQ{len(units)}"
            else:
                text = str(len(units))
            chips["text"].append(text)
            chips["fill"].append(_pale(colour) if status == "spent" else colour)
            chips["text_color"].append(colour if status == "spent" else "white")
            chips["line_color"].append("#e00000" if any(u["markers"] for u in units) else "white")
            lines = []
            for u in sorted(units, key=lambda u: u["id"]):
                what = "HQ" if u["kind"] == "hq" else u["type"]
                state = "" if u["kind"] == "hq" else (" fresh" if u["fresh"] else " spent")
                extra = f" [{', '.join(u['markers'])}]" if u["markers"] else ""
                lines.append(
                    f"{html_escape(u['name'])} ({u['nationality']} {what}{state}){html_escape(extra)}"
                )
            chips["tip"].append(f"<b>hex {hid}{suffix.get(hid, '')}</b><br>" + "<br>".join(lines))
    badges: dict[str, list[Any]] = {k: [] for k in ("hex", "x", "y", "text", "fill", "tip")}

    def badge(hid: str, text: str, fill: str, tip: str) -> None:
        cx, cy = hex_centre(hid, RADIUS_MI)
        k = badges["hex"].count(hid)
        badges["hex"].append(hid)
        badges["x"].append(cx + (3.6 if k % 2 == 0 else -3.6))
        badges["y"].append(cy + 2.6)
        badges["text"].append(text)
        badges["fill"].append(fill)
        badges["tip"].append(f"<b>hex {hid}{suffix.get(hid, '')}</b><br>{tip}")

    active = set()
    mk = layers["markers"]
    for hid, kind, facts in zip(mk["place"], mk["kind"], mk["facts"], strict=True):
        rule = facts.get("rule", "")
        if kind == "objective":
            value = facts.get("value")
            badge(
                hid,
                f"\u2605{value if value is not None else '?'}",
                "#f2c200",
                f"Objective marker ({'value ' + str(value) if value is not None else 'value hidden'}, {rule})",
            )
        elif kind == "fire base":
            badge(
                hid,
                "FB",
                "#9ad0ff" if facts["type"] == "Fire Base" else "#ff9a9a",
                f"{facts['type']} ({rule})",
            )
        elif kind == "landing zone":
            badge(hid, "LZ", "#9ad0ff", f"Landing Zone ({rule})")
        elif kind == "tunnel":
            badge(hid, "T", "#d7c19a", f"Tunnel ({facts['state']}, {rule})")
        elif kind == "works":
            badge(hid, "B", "#d7c19a", f"{facts['type']} ({rule})")
        elif kind == "activation":
            active.add(hid)

    def rings(hexes) -> dict[str, list[Any]]:
        out: dict[str, list[Any]] = {"hex": [], "xs": [], "ys": []}
        for hid in sorted(hexes):
            cx, cy = hex_corners(hid, RADIUS_MI)
            out["hex"].append(hid)
            out["xs"].append(cx + cx[:1])
            out["ys"].append(cy + cy[:1])
        return out

    d = game.decision
    options = set()
    if d is not None and (side is None or d.side == side):
        options = {p for a in d.options for p in a.places if p in hexes}
    own = sorted({h for h, f in zip(pc["place"], pc["faction"], strict=True) if f == side and h in hexes})
    return {"chips": chips, "badges": badges, "active": rings(active), "options": rings(options), "own": own}


def html_escape(s: str) -> str:
    import html

    return html.escape(s)


_PLACE_INDEX: dict[int, tuple[Any, dict[str, str], frozenset[str]]] = {}


def _place_index(layers: dict[str, Any]) -> tuple[dict[str, str], frozenset[str]]:
    """From the map layers' places: per hex the " (names)" of its cities, towns and bases (for the tips), and
    the ids of every hex (cached while the layers' places are the same value)."""
    pl = layers["places"]
    got = _PLACE_INDEX.get(id(pl))
    if got is None or got[0] is not pl:
        names = {
            pid: " / ".join(p["name"] for p in (f or {}).get("places", ()))
            for pid, f in zip(pl["id"], pl["facts"], strict=True)
        }
        hexes = frozenset(pid for pid, shape in zip(pl["id"], pl["shape"], strict=True) if shape == "hex")
        got = (pl, {pid: f" ({html_escape(n)})" for pid, n in names.items() if n}, hexes)
        _PLACE_INDEX.clear()
        _PLACE_INDEX[id(pl)] = got
    return got[1], got[2]
