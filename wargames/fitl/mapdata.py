"""Fire in the Lake board as plain map layers (no Bokeh, no colours: ``wargames.notebook.fitlboard`` draws
them with the game's one palette, ``wargames.notebook.palette``).

Static layers: real geography (``data/geo``), the 47 spaces of ``data/fitl/spaces.geojson`` (a stylised redraw
of the board on the real coastline, reconstruction: see that file's sources), cities, towns and LoCs.
Dynamic layers, from a :class:`~wargames.fitl.state.Board`: each space's Support/Opposition (FITL-1.6) and
Control (FITL-1.7), Terror and Sabotage markers (FITL-3.3.4), and the pieces as wooden-piece glyphs:
cubes (Troops, Police), discs (Bases, a "T" when Tunneled, FITL-1.4.4), cylinders (Guerrillas, Irregulars,
Rangers) drawn hollow when Underground and solid when Active (FITL-1.4.3).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ..core.data import game_dir, read_geojson
from ..maps.geo import background_layers, geom_to_multi, lines
from .data import LEVELS, load_data
from .state import Board, piece_id, piece_state

EXTENT = {"x": (102.9, 110.7), "y": (8.3, 18.3)}
SUPPORT_NAME = {v: k.replace("_", " ").title() for k, v in LEVELS.items()}
# piece key -> (shape of the wooden piece, faction, label); the order is the order on the board.  Police are
# ARVN cubes of their own colour on the physical board: the faction "Police" lets the palette say so.
GLYPHS: dict[str, tuple[str, str, str]] = {
    "us_troops": ("cube", "US", "US Troops"),
    "us_bases": ("disc", "US", "US Base"),
    "us_irregulars": ("cylinder", "US", "US Irregulars"),
    "arvn_troops": ("cube", "ARVN", "ARVN Troops"),
    "arvn_police": ("cube", "Police", "ARVN Police"),
    "arvn_rangers": ("cylinder", "ARVN", "ARVN Rangers"),
    "arvn_bases": ("disc", "ARVN", "ARVN Base"),
    "nva_troops": ("cube", "NVA", "NVA Troops"),
    "nva_guerrillas": ("cylinder", "NVA", "NVA Guerrillas"),
    "nva_bases": ("disc", "NVA", "NVA Base"),
    "vc_guerrillas": ("cylinder", "VC", "VC Guerrillas"),
    "vc_bases": ("disc", "VC", "VC Base"),
}
ORDER = list(GLYPHS)
STATE_WORD = {"u": "Underground", "a": "Active", "t": "Tunneled", "": ""}
PITCH = 0.17   # degrees between piece glyphs
COLUMNS = 3    # glyphs per row under a space's name


@cache
def _shapes() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for feat in read_geojson(game_dir("fitl") / "spaces.geojson")["features"]:
        p = feat["properties"]
        key = f"label:{p['id']}" if p.get("kind") == "label" else p["id"]
        out[key] = {"geometry": feat["geometry"], **p}
    return out


def anchors() -> dict[str, tuple[float, float]]:
    """Where each space's name and pieces go: a Province's label point, a City's point, a LoC's middle."""
    shapes = _shapes()
    out: dict[str, tuple[float, float]] = {}
    for sid, sp in load_data().spaces.items():
        if sp.kind == "province" and f"label:{sid}" in shapes:
            x, y = shapes[f"label:{sid}"]["geometry"]["coordinates"][:2]
        elif sp.kind == "loc" and sid in shapes:
            parts = lines(shapes[sid]["geometry"])
            xs, ys = max(parts, key=lambda p: len(p[0]))
            x, y = xs[len(xs) // 2], ys[len(ys) // 2]
        else:
            x, y = sp.lon, sp.lat
        out[sid] = (round(float(x), 4), round(float(y), 4))
    return out


def static_layers() -> dict[str, Any]:
    """Everything that never changes: geography, province shapes, cities, towns, LoCs, names."""
    d = load_data()
    shapes = _shapes()
    box = (EXTENT["x"][0] - 1, EXTENT["y"][0] - 1, EXTENT["x"][1] + 1, EXTENT["y"][1] + 1)
    out: dict[str, Any] = {"extent": dict(EXTENT), **background_layers(box, {})}
    prov: dict[str, list] = {"id": [], "name": [], "country": [], "xs": [], "ys": []}
    for sid, sp in d.spaces.items():
        if sp.kind == "province" and sid in shapes:
            xs, ys = geom_to_multi(shapes[sid]["geometry"])
            prov["id"].append(sid)
            prov["name"].append(sp.name)
            prov["country"].append(sp.country)
            prov["xs"].append(xs)
            prov["ys"].append(ys)
    out["provinces"] = prov
    locs: dict[str, list] = {"id": [], "name": [], "xs": [], "ys": [], "terrain": [], "econ": []}
    for sid, sp in d.spaces.items():
        if sp.kind == "loc" and sid in shapes:
            for xs, ys in lines(shapes[sid]["geometry"]):
                locs["id"].append(sid)
                locs["name"].append(sp.name)
                locs["xs"].append(xs)
                locs["ys"].append(ys)
                locs["terrain"].append(sp.terrain or "highway")
                locs["econ"].append(sp.econ)
    out["locs"] = locs
    towns = {"name": [t.name for t in d.towns.values()], "x": [t.lon for t in d.towns.values()],
             "y": [t.lat for t in d.towns.values()]}
    out["towns"] = towns
    anchor = anchors()
    names: dict[str, list] = {"id": [], "x": [], "y": [], "text": [], "kind": []}
    for sid, sp in d.spaces.items():
        if sp.kind == "loc":
            continue
        x, y = anchor[sid]
        names["id"].append(sid)
        names["x"].append(x)
        names["y"].append(y)
        pop = f" ({sp.population})" if sp.population else ""
        names["text"].append(f"{sp.name}{pop}")
        names["kind"].append(sp.kind)
    out["names"] = names
    return out


def dynamic_layers(board: Board) -> dict[str, Any]:
    """Support/Control per space and one glyph per piece kind and state, with its count.

    ``support`` is the FITL-1.6 level (2 Active Support ... -2 Active Opposition; None for a space without
    Population, which has no Support or Opposition); ``control`` is "coin", "nva" or None (FITL-1.7)."""
    d = board.data
    anchor = anchors()
    fills: dict[str, list] = {"id": [], "support": [], "country": []}
    cities: dict[str, list] = {"id": [], "x": [], "y": [], "support": [], "control": []}
    for sid, sp in d.spaces.items():
        if sp.kind == "province":
            fills["id"].append(sid)
            fills["support"].append(board.support[sid] if sp.population else None)
            fills["country"].append(sp.country)
        elif sp.kind == "city":
            cities["id"].append(sid)
            cities["x"].append(sp.lon)
            cities["y"].append(sp.lat)
            cities["support"].append(board.support[sid])
            cities["control"].append(board.control(sid))
    pieces: dict[str, list] = {"space": [], "key": [], "x": [], "y": [], "shape": [], "faction": [], "state": [],
                               "count": [], "label": []}
    control: dict[str, list] = {"id": [], "x": [], "y": [], "text": [], "control": []}
    markers: dict[str, list] = {"x": [], "y": [], "text": []}
    for sid in d.spaces:
        x0, y0 = anchor[sid]
        keys = sorted((k for k, n in board.pieces[sid].items() if n),
                      key=lambda k: (ORDER.index(piece_id(k)), piece_state(k)))
        city = d.spaces[sid].kind == "city"
        for i, key in enumerate(keys):
            shape, faction, _name = GLYPHS[piece_id(key)]
            col, rowno = i % COLUMNS, i // COLUMNS
            width = min(len(keys), COLUMNS)
            if city:  # a City's pieces stand south-east of it (often over the sea), under its name
                x = x0 + 0.2 + col * PITCH
                y = y0 - 0.13 - rowno * PITCH
            else:
                x = x0 + (col - (width - 1) / 2) * PITCH
                y = y0 - 0.16 - rowno * PITCH
            n = board.pieces[sid][key]
            st = piece_state(key)
            pieces["space"].append(sid)
            pieces["key"].append(key)
            pieces["x"].append(round(x, 4))
            pieces["y"].append(round(y, 4))
            pieces["shape"].append(shape)
            pieces["faction"].append(faction)
            pieces["state"].append(st)
            pieces["count"].append(n)
            pieces["label"].append(("T" if st == "t" else "") + (str(n) if n > 1 or st == "t" else ""))
        c = board.control(sid)
        if c and d.spaces[sid].kind != "loc":
            control["id"].append(sid)
            control["x"].append(x0)
            control["y"].append(y0)
            control["text"].append("COIN" if c == "coin" else "NVA")
            control["control"].append(c)
        extra = (["Terror" + (f" x{board.terror[sid]}" if board.terror[sid] > 1 else "")] if board.terror[sid] else []) \
            + (["Sabotage"] if sid in board.sabotage else [])
        if extra:
            markers["x"].append(x0)
            markers["y"].append(y0 + 0.25)
            markers["text"].append(" ".join(extra))
    t = board.tracks
    v = board.victory()
    tracks = {
        "Aid": t["aid"], "Patronage": t["patronage"], "Total Econ": t["econ"], "Trail": t["trail"],
        "ARVN Resources": t["arvn_resources"], "NVA Resources": t["nva_resources"], "VC Resources": t["vc_resources"],
        "US: Support + Available": v["US"], "ARVN: COIN Pop + Patronage": v["ARVN"],
        "NVA: NVA Pop + Bases": v["NVA"], "VC: Opposition + Bases": v["VC"],
    }
    boxes = {b: {GLYPHS[k][2]: n for k, n in sorted(getattr(board, b).items(), key=lambda kv: ORDER.index(kv[0])) if n}
             for b in ("available", "casualties", "out_of_play")}
    return {"provinces": fills, "cities": cities, "pieces": pieces, "control": control, "markers": markers,
            "tracks": tracks, "boxes": boxes}


def map_layers(board: Board, side: str | None = None) -> dict[str, Any]:
    """The board as semantic layers (``wargames.maps.layers``): the 47 spaces with their Support (FITL-1.6),
    Control (FITL-1.7), Terror and Sabotage (FITL-3.3.4), and the pieces per space and faction.  Pieces on the
    map are public in FitL (Underground is a state everyone sees, FITL-1.4.3), so ``side`` changes nothing."""
    from ..maps.layers import add_row, empty_layers

    d = board.data
    shapes = _shapes()
    anchor = anchors()
    out = empty_layers("fitl", "board", side, EXTENT)
    for sid, sp in d.spaces.items():
        x, y = anchor[sid]
        facts = {"population": sp.population, "country": sp.country, "terrain": sp.terrain,
                 "control": board.control(sid), "terror": board.terror[sid], "sabotage": sid in board.sabotage}
        if sp.kind != "loc":
            facts["support"] = board.support[sid] if sp.population or sp.kind == "city" else None
            facts["support_name"] = SUPPORT_NAME[board.support[sid]] if sp.population else None
        else:
            facts["econ"] = sp.econ
        if sp.kind == "province" and sid in shapes:
            xs, ys = geom_to_multi(shapes[sid]["geometry"])
            shape = "polygon"
        elif sp.kind == "loc" and sid in shapes:
            parts = lines(shapes[sid]["geometry"])
            xs, ys = [p[0] for p in parts], [p[1] for p in parts]
            shape = "line"
        else:
            xs, ys, shape = [], [], "point"
        add_row(out["places"], id=sid, name=sp.name, kind=sp.kind, shape=shape, xs=xs, ys=ys, x=x, y=y, facts=facts)
        by_faction: dict[str, list[dict[str, Any]]] = {}
        for key, n in sorted(board.pieces[sid].items(), key=lambda kv: (ORDER.index(piece_id(kv[0])), kv[0])):
            if not n:
                continue
            shape_name, faction, label = GLYPHS[piece_id(key)]
            faction = "ARVN" if faction == "Police" else faction
            by_faction.setdefault(faction, []).append({"piece": piece_id(key), "name": label, "shape": shape_name,
                                                       "state": STATE_WORD[piece_state(key)], "count": n})
        for faction, items in by_faction.items():
            add_row(out["pieces"], place=sid, faction=faction, count=sum(i["count"] for i in items), hidden=False,
                    facts=items)
        if facts["control"] and sp.kind != "loc":
            add_row(out["markers"], place=sid, kind="control", text="COIN" if facts["control"] == "coin" else "NVA")
        if board.terror[sid]:
            add_row(out["markers"], place=sid, kind="terror", text=f"Terror x{board.terror[sid]}")
        if sid in board.sabotage:
            add_row(out["markers"], place=sid, kind="sabotage", text="Sabotage")
    for sid, sp in d.spaces.items():
        if sp.kind == "loc" and sid in shapes:
            for xs, ys in lines(shapes[sid]["geometry"]):
                add_row(out["lines"], kind=sp.terrain or "highway", xs=xs, ys=ys, name=sp.name)
    return out
