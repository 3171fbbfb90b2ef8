"""Fire in the Lake board as plain map layers (``wargames.maps.layers``; no Bokeh, no colours:
``wargames.notebook.fitlboard`` draws them with the game's one palette, ``wargames.notebook.palette``).

``map_layers(board, side)`` is the whole board: the 47 spaces of ``data/fitl/spaces.geojson`` (a stylised redraw
of the board on the real coastline, reconstruction: see that file's sources) with their kind, population,
country, terrain, Econ, Support/Opposition (FITL-1.6), Control (FITL-1.7), Terror and Sabotage (FITL-3.3.4);
the towns printed on the board (names, not spaces); the LoCs as lines; and the pieces per space and faction,
each kind of wooden piece with its shape: cubes (Troops, Police), discs (Bases, Tunneled, FITL-1.4.4),
cylinders (Guerrillas, Irregulars, Rangers) Underground or Active (FITL-1.4.3).  The real geography around it
(``data/geo``) is drawn by the kit from the layers' extent.  ``board_tracks(board)`` is what lies off the map:
the tracks, the victory markers and the force-pool boxes.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ..core.data import game_dir, read_geojson
from ..maps.geo import geom_to_multi, lines
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
    return dict(_anchors())


@cache
def _anchors() -> dict[str, tuple[float, float]]:
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


def board_tracks(board: Board) -> dict[str, Any]:
    """What the board shows off the map: the tracks (Aid, Patronage, Econ, Trail, Resources), the four victory
    markers (FITL-1.9) and the Available, Casualties and Out of Play boxes, as numbers per name."""
    t = board.tracks
    v = board.victory()
    tracks = {
        "Aid": t["aid"],
        "Patronage": t["patronage"],
        "Total Econ": t["econ"],
        "Trail": t["trail"],
        "ARVN Resources": t["arvn_resources"],
        "NVA Resources": t["nva_resources"],
        "VC Resources": t["vc_resources"],
        "US: Support + Available": v["US"],
        "ARVN: COIN Pop + Patronage": v["ARVN"],
        "NVA: NVA Pop + Bases": v["NVA"],
        "VC: Opposition + Bases": v["VC"],
    }
    boxes = {
        b: {
            GLYPHS[k][2]: n
            for k, n in sorted(getattr(board, b).items(), key=lambda kv: ORDER.index(kv[0]))
            if n
        }
        for b in ("available", "casualties", "out_of_play")
    }
    return {"tracks": tracks, "boxes": boxes}


@cache
def _geometry() -> dict[str, tuple[str, list, list]]:
    """Each space's shape on the board (built once): a Province's polygon, a LoC's polylines, a City's point."""
    shapes = _shapes()
    out: dict[str, tuple[str, list, list]] = {}
    for sid, sp in load_data().spaces.items():
        if sp.kind == "province" and sid in shapes:
            xs, ys = geom_to_multi(shapes[sid]["geometry"])
            out[sid] = ("polygon", xs, ys)
        elif sp.kind == "loc" and sid in shapes:
            parts = lines(shapes[sid]["geometry"])
            out[sid] = ("line", [p[0] for p in parts], [p[1] for p in parts])
        else:
            out[sid] = ("point", [], [])
    return out


def map_layers(board: Board, side: str | None = None) -> dict[str, Any]:
    """The board as semantic layers (``wargames.maps.layers``): the 47 spaces with their Support (FITL-1.6),
    Control (FITL-1.7), Terror and Sabotage (FITL-3.3.4), and the pieces per space and faction.  Pieces on the
    map are public in FitL (Underground is a state everyone sees, FITL-1.4.3), so ``side`` changes nothing."""
    from ..maps.layers import add_row, empty_layers

    d = board.data
    geometry = _geometry()
    anchor = _anchors()
    out = empty_layers("fitl", "board", side, EXTENT)
    for sid, sp in d.spaces.items():
        x, y = anchor[sid]
        facts = {
            "population": sp.population,
            "country": sp.country,
            "terrain": sp.terrain,
            "control": board.control(sid),
            "terror": board.terror[sid],
            "sabotage": sid in board.sabotage,
        }
        if sp.kind != "loc":
            facts["support"] = board.support[sid] if sp.population or sp.kind == "city" else None
            facts["support_name"] = SUPPORT_NAME[board.support[sid]] if sp.population else None
        else:
            facts["econ"] = sp.econ
        shape, xs, ys = geometry[sid]
        add_row(
            out["places"],
            id=sid,
            name=sp.name,
            kind=sp.kind,
            shape=shape,
            xs=xs,
            ys=ys,
            x=x,
            y=y,
            facts=facts,
        )
        by_faction: dict[str, list[dict[str, Any]]] = {}
        for key, n in sorted(board.pieces[sid].items(), key=lambda kv: (ORDER.index(piece_id(kv[0])), kv[0])):
            if not n:
                continue
            shape_name, faction, label = GLYPHS[piece_id(key)]
            faction = "ARVN" if faction == "Police" else faction
            by_faction.setdefault(faction, []).append(
                {
                    "key": key,
                    "piece": piece_id(key),
                    "name": label,
                    "shape": shape_name,
                    "state": STATE_WORD[piece_state(key)],
                    "count": n,
                }
            )
        for faction, items in by_faction.items():
            add_row(
                out["pieces"],
                place=sid,
                faction=faction,
                count=sum(i["count"] for i in items),
                hidden=False,
                facts=items,
            )
        if facts["control"] and sp.kind != "loc":
            add_row(
                out["markers"],
                place=sid,
                kind="control",
                text="COIN" if facts["control"] == "coin" else "NVA",
            )
        if board.terror[sid]:
            add_row(out["markers"], place=sid, kind="terror", text=f"Terror x{board.terror[sid]}")
        if sid in board.sabotage:
            add_row(out["markers"], place=sid, kind="sabotage", text="Sabotage")
    for tid, t in d.towns.items():  # the towns printed on the board: names only, never a space
        add_row(
            out["places"],
            id=f"town:{tid}",
            name=t.name,
            kind="town",
            shape="point",
            xs=[],
            ys=[],
            x=t.lon,
            y=t.lat,
            facts={"space": False},
        )
    for sid, sp in d.spaces.items():
        shape, xs, ys = geometry[sid]
        if sp.kind == "loc" and shape == "line":
            for part_x, part_y in zip(xs, ys, strict=True):
                add_row(out["lines"], kind=sp.terrain or "highway", xs=part_x, ys=part_y, name=sp.name)
    return out
