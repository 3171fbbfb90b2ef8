"""The Year of the Rat hex map in Bokeh: terrain hexes, roads, trails, rivers and borders by hexside,
towns and Supply Centers, and the counters as the viewing side may see them.

A theatre map and three close-ups of the 1972 battles (Quang Tri and Hue, Kontum, An Loc and Saigon)
share the same sources.  Counters are drawn as small chips per hex and side: a nationality colour with the
number of counters; Communist counters hidden from the Allies are grey ``?`` chips (YOTR-MOV-M).  The
counters come from ``game.map_layers(side)`` (the one map contract); hex geometry from
``wargames.maps.hexgrid``; colours from the game's one palette (``palette.py``).  The victory Regions
(YOTR-VIC-REGION) are outlined and named on every view; the close-ups show hex numbers, since moves name hexes.
"""

from __future__ import annotations

import functools
import math
from typing import Any

from bokeh.core.properties import field
from bokeh.events import Tap
from bokeh.layouts import column, row
from bokeh.models import ColumnDataSource, Div, HoverTool, Range1d, TapTool
from bokeh.plotting import figure

from ..maps.hexgrid import hex_at_point, hex_centre, hex_corners, hex_id, hexside_segment
from .bokehmap import InteractiveMap
from .labels import Grid, outside, overlap, text_size
from .palette import HIDDEN, palette
from .raster import Canvas, image_glyph

TERRAIN = {"clear": "#e9e6cf", "rough": "#c7a77a", "swamp": "#9ccbb8", "sea": "#cfe2ee"}
FOREIGN = {"clear": "#dcdcd4", "rough": "#c2bcb0", "swamp": "#b8cfc6", "sea": "#cfe2ee"}
NATION = {n: c for n, c in palette("yotr").items() if n in ("NVA", "NLF", "USA", "ARVN", "ROK")}
REGION_LINE = "#6a1b9a"
SIDE_LINE = {
    "road": ("#222222", 2.2, "solid"),
    "trail": ("#8b5a2b", 2.0, "dashed"),
    "river": ("#3b7fbf", 2.2, "solid"),
    "border": ("#c0392b", 1.6, "dashed"),
    "dmz": ("#e0a000", 3.0, "solid"),
}
CLOSEUPS = (  # (title, places framed, half width in hex columns, half height in hex rows)
    ("Quang Tri and Hue", ("quang_tri_city", "hue"), 11, 8),
    ("Kontum", ("kontum",), 11, 8),
    ("An Loc and Saigon", ("an_loc", "saigon_1"), 11, 9),
)
SQ3 = math.sqrt(3)


_xy = hex_centre  # map coordinates of a hex centre (wargames.maps.hexgrid, size 1)


@functools.cache
def _corners(hid: str) -> tuple[list[float], list[float]]:
    return hex_corners(hid)


#: the static pictures already drawn (the terrain, hexsides and Regions do not change in a game): by their view
#: and a digest of what they show
_PICTURES: dict[tuple, str] = {}


def static_picture(static: dict[str, Any], xr, yr, w: int, h: int, *, small: bool) -> str:
    """The hexes in their terrain colours (outlined in the close-ups), the hexside features and the victory
    Regions' outlines of view ``xr`` x ``yr`` (``w`` x ``h`` pixels) as one PNG ``data:`` URL
    (``wargames.notebook.raster``): drawn once, shown as one image, so a redraw costs one image, not thousands
    of hexes (issue #31 item 5)."""
    hx, sd, rg, nums = static["hexes"], static["sides"], static["regions"], static["numbers"]
    key = (
        tuple(xr),
        tuple(yr),
        w,
        h,
        small,
        hash((tuple(hx["hex"]), tuple(hx["colour"]), tuple(map(tuple, sd["xs"])), tuple(sd["colour"]))),
        hash(tuple(map(tuple, rg["xs"]))),
    )
    if key in _PICTURES:
        return _PICTURES[key]
    canvas = Canvas(xr, yr, w, h, TERRAIN["sea"])
    _paint_hexes(canvas, hx, outline=not small)
    _paint_lines(canvas, sd, rg, small)
    if not small:  # the close-ups' hex numbers (moves and rulings name hexes, issue #19 item 3)
        _paint_numbers(canvas, nums)
    _PICTURES[key] = url = canvas.png_url()
    return url


def _paint_hexes(canvas: Canvas, hx: dict[str, list], *, outline: bool) -> None:
    for hid, colour in zip(hx["hex"], hx["colour"], strict=True):
        xs, ys = _corners(hid)
        if canvas.visible(xs, ys):
            canvas.polygon(xs, ys, colour, "white" if outline else None, 0.5)


def _paint_lines(canvas: Canvas, sd: dict[str, list], rg: dict[str, list], small: bool) -> None:
    """The hexside features, then the victory Regions' outlines (dotted on the theatre map, dashed in close-ups)."""
    for xs, ys, colour, width, dash in zip(
        sd["xs"], sd["ys"], sd["colour"], sd["width"], sd["dash"], strict=True
    ):
        if canvas.visible(xs, ys):
            canvas.line(xs, ys, colour, width, dash)
    width, dash = (1.5, "dotted") if small else (2.5, "dashed")
    for xs, ys in zip(rg["xs"], rg["ys"], strict=True):
        if canvas.visible(xs, ys):
            canvas.line(xs, ys, REGION_LINE, width, dash, alpha=0.7)


def _paint_numbers(canvas: Canvas, nums: dict[str, list]) -> None:
    for text, x, y in zip(nums["hex"], nums["x"], nums["y"], strict=True):
        if text and canvas.visible([x], [y], margin=1.0):
            canvas.text(x, y, text, 7, "#666666")


@functools.cache
def _centre(hid: str) -> tuple[float, float]:
    """``_xy`` remembered (the name placement asks for the same hexes after every update)."""
    return _xy(hid)


def static_layers(layers: dict[str, Any]) -> dict[str, Any]:
    """Drawing columns for the hexes, hexside features, towns and Supply Centers, victory Regions and hex numbers,
    from the game's semantic map layers (``game.map_layers``: hexes with their terrain, country, Region and
    places; hexside lines)."""
    from wargames.maps.hexgrid import HexGrid

    pl = layers["places"]
    facts_of = dict(zip(pl["id"], pl["facts"], strict=True))
    hexes: dict[str, list] = {"hex": [], "q": [], "r": [], "colour": [], "tip": []}
    for hid in sorted(pl["id"]):
        f = facts_of[hid]
        q, r = HexGrid.axial(hid)
        hexes["hex"].append(hid)
        hexes["q"].append(q)
        hexes["r"].append(r)
        palette = TERRAIN if f["country"] == "SVN" else FOREIGN
        hexes["colour"].append(palette[f["terrain"]])
        hexes["tip"].append(f"hex {hid}: {f['terrain']}, {f['country']}, Region {f['region_name'] or '-'}")
    sides: dict[str, list] = {"xs": [], "ys": [], "colour": [], "width": [], "dash": []}
    for kind, xs, ys in zip(
        layers["lines"]["kind"], layers["lines"]["xs"], layers["lines"]["ys"], strict=True
    ):
        if kind not in SIDE_LINE:
            continue
        colour, width, dash = SIDE_LINE[kind]
        sides["xs"].append(xs)
        sides["ys"].append(ys)
        sides["colour"].append(colour)
        sides["width"].append(width)
        sides["dash"].append(dash)
    places: dict[str, list] = {
        "id": [],
        "x": [],
        "y": [],
        "name": [],
        "kind": [],
        "tip": [],
        "size": [],
        "vp": [],
    }
    for hid in pl["id"]:
        for p in facts_of[hid]["places"]:
            x, y = _xy(hid)
            places["id"].append(hid)
            places["x"].append(x)
            places["y"].append(y)
            places["name"].append(p["name"])
            places["kind"].append(p["kind"])
            vp = f", VP {p['vp_communist']}/{p['vp_allied']}" if p["vp_communist"] is not None else ""
            quota = f", supply quota {p['quota']}" if p["quota"] else ""
            strength = f", intrinsic strength {p['strength']}" if p["strength"] is not None else ""
            places["tip"].append(
                f"{p['name']} ({p['kind'].replace('_', ' ')}, hex {hid}{strength}{vp}{quota})"
            )
            places["size"].append(10 + 3 * (p["strength"] or 0))
            places["vp"].append(p["vp_communist"])
    # victory Regions (YOTR-VIC-REGION): their boundaries (hexsides between two Regions, or a Region and the rest)
    # and their names with the VP they are worth, at the hex nearest the middle of each Region
    region_of = {hid: f["region"] if f["region_name"] else None for hid, f in facts_of.items()}
    regions: dict[str, list] = {"xs": [], "ys": []}
    grid = HexGrid(cols=99, rows=99, first=0)
    for hid, reg in region_of.items():
        if reg is None:
            continue
        for n in grid.neighbours(hid):
            other = region_of.get(n, "off the map")
            if n not in region_of or (other != reg and (other is None or n > hid)):
                rx, ry = hexside_segment(hid, n)
                regions["xs"].append(rx)
                regions["ys"].append(ry)
    region_names: dict[str, list] = {"x": [], "y": [], "text": [], "id": [], "spots": []}
    seen: dict[str, tuple[str, int]] = {}
    for hid in pl["id"]:
        f = facts_of[hid]
        if f["region_name"] and f["region"] not in seen:
            seen[f["region"]] = (f["region_name"], f["region_vp"])
    for rid, (name, vp) in sorted(
        seen.items(), key=lambda kv: (-kv[1][1], kv[1][0])
    ):  # richest Region named first
        members = [hid for hid, reg in region_of.items() if reg == rid]
        pts = [_xy(m) for m in members]
        mx, my = sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts)
        spots = sorted(members, key=lambda m: (_xy(m)[0] - mx) ** 2 + (_xy(m)[1] - my) ** 2)
        bx, by = _xy(spots[0])
        region_names["x"].append(bx)
        region_names["y"].append(by)
        region_names["text"].append(f"{name} ({vp} VP)")
        region_names["id"].append(spots[0])
        region_names["spots"].append(spots)  # candidate hexes for the name, nearest the middle first
    numbers = {
        "hex": [h if facts_of[h]["terrain"] != "sea" else "" for h in hexes["hex"]],
        "x": [_xy(h)[0] for h in hexes["hex"]],
        "y": [_xy(h)[1] + SQ3 / 2 * 0.62 for h in hexes["hex"]],
    }
    return {
        "hexes": hexes,
        "sides": sides,
        "places": places,
        "regions": regions,
        "region_names": region_names,
        "numbers": numbers,
        "extent": dict(layers["extent"]),
    }


def dynamic_layers(game, side: str | None) -> dict[str, Any]:
    """Counter chips per hex and nationality as ``side`` sees them (None: the umpire), from ``game.map_layers``."""
    layers = game.map_layers(side)
    pcs = layers["pieces"]
    chips: dict[str, list] = {"hex": [], "x": [], "y": [], "colour": [], "text": [], "tip": []}
    per_hex: dict[str, int] = {}
    order = sorted(range(len(pcs["place"])), key=lambda i: (pcs["place"][i], pcs["faction"][i] or "?"))
    for i in order:
        hid, nat, n, facts = pcs["place"][i], pcs["faction"][i], pcs["count"][i], pcs["facts"][i]
        k = per_hex[hid] = per_hex.get(hid, 0) + 1
        x, y = _xy(hid)
        chips["hex"].append(hid)
        chips["x"].append(x - 0.45 + 0.55 * ((k - 1) % 2))
        chips["y"].append(y - 0.12 - 0.6 * ((k - 1) // 2))  # under the hex number, at the top of the hex
        chips["colour"].append(HIDDEN if nat is None else NATION.get(nat, HIDDEN))
        chips["text"].append(f"?{n}" if nat is None else str(n))
        if nat is None:
            chips["tip"].append(f"hex {hid}: {n} face-down Communist counter(s)")
        else:
            chips["tip"].append(
                f"hex {hid}: "
                + ", ".join(
                    f"{u['id']} {u['type']} {u['values']}{' ' + ''.join(u['markers']) if u['markers'] else ''}"
                    for u in facts
                )
            )
    state = game.public_state(side)
    return {"chips": chips, "vp": state.get("vp"), "turn": state.get("turn")}


class YotrMapView(InteractiveMap):
    """The hex map of a Year of the Rat game as ``side`` sees it (None: the umpire)."""

    TAP_PRIORITY = {"chips": 0, "places": 1, "numbers": 2, "hexes": 3}
    PLACE_COLUMN = {"chips": "hex", "places": "id", "numbers": "hex", "hexes": "hex"}
    DYNAMIC_LAYERS = ("chips",)

    @classmethod
    def draws(cls, game) -> bool:
        """This view draws "hex" games whose data has SPI hexes with terrain, Regions and places (YotR's shape)."""
        d = getattr(game, "data", None)
        return (
            game.facts().map_kind == "hex"
            and all(hasattr(d, a) for a in ("hexes", "sides", "places", "regions"))
            and hasattr(game, "map_layers")
        )

    def __init__(self, game, side: str | None = None, *, height: int = 820, insets: bool = True):
        self.game = game
        self.side = side
        self._init_state()
        static = static_layers(game.map_layers(None))
        self.static = static
        dyn = self._dynamic()
        self.dynamic = dyn
        self.sources = {
            n: ColumnDataSource(dict(static[n]), name=n)
            for n in ("hexes", "sides", "places", "regions", "region_names", "numbers")
        }
        self.sources["chips"] = ColumnDataSource(dict(dyn["chips"]), name="chips")
        self._hex_index = set(static["hexes"]["hex"])
        ex = static["extent"]
        w = int(height * (ex["x"][1] - ex["x"][0]) / (ex["y"][1] - ex["y"][0]))
        self._vps = list(static["places"]["vp"])
        self.insets = []
        self._views: list[tuple[str, tuple, tuple, int, int, bool]] = [
            ("m", ex["x"], ex["y"], w, height, True)
        ]
        self._place_labels("m", ex["x"], ex["y"], w, height, only_major=True)
        self.figure = self._figure(
            "Year of the Rat: South Vietnam, 1972 (10 km hexes; dotted: victory Regions)",
            ex["x"],
            ex["y"],
            w,
            height,
            small=True,
            tag="m",
        )
        if insets:
            for title, framed, hw, hh in CLOSEUPS:
                pts = [_xy(game.data.places[p].hex) for p in framed if p in game.data.places]
                if not pts:
                    continue
                cx, cy = sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts)
                xr = (cx - 1.5 * hw, cx + 1.5 * hw)
                yr = (cy - SQ3 * hh, cy + SQ3 * hh)
                ih = height // 2 - 40
                iw = int(ih * (xr[1] - xr[0]) / (yr[1] - yr[0]))
                tag = f"i{len(self.insets)}"
                self._views.append((tag, xr, yr, iw, ih, False))
                self._place_labels(tag, xr, yr, iw, ih)
                self.insets.append(self._figure(f"Close-up: {title}", xr, yr, iw, ih, small=False, tag=tag))
        self.legend = Div(text=self._legend(), width=max(w, 480))
        if len(self.insets) >= 3:
            top = row(self.figure, column(*self.insets[:2]))
            self.layout = column(top, row(self.insets[2], self.legend))
        else:
            top = row(self.figure, column(*self.insets)) if self.insets else self.figure
            self.layout = column(top, self.legend)
        self._connect()

    MAJOR_VP = 5  # on the theatre map only towns worth this many VP (and Supply Centers) are named

    def chip_boxes(
        self, tag: str, xr, yr, w: int, h: int, small: bool
    ) -> list[tuple[float, float, float, float]]:
        """The counter chips' squares in a view's screen pixels (8 px on the theatre map, 16 px in close-ups)."""
        sx, sy = w / (xr[1] - xr[0]), h / (yr[1] - yr[0])
        half = (8 if small else 16) / 2 + 1
        ch = self.dynamic["chips"]
        return [
            (
                (x - xr[0]) * sx - half,
                (yr[1] - y) * sy - half,
                (x - xr[0]) * sx + half,
                (yr[1] - y) * sy + half,
            )
            for x, y in zip(ch["x"], ch["y"], strict=True)
        ]

    def label_boxes(self, tag: str) -> dict[str, list[tuple[float, float, float, float]]]:
        """Screen boxes (pixels, y down) in view ``tag`` ("m", "i0", ...) of what is drawn now: the town names
        and Region names shown (from the sources' columns, at the sizes drawn) and the counter chips; with the
        view's ``frame`` (0, 0, w, h).  For the overlap tests (issue #19 item 6)."""
        _, xr, yr, w, h, small = next(v for v in self._views if v[0] == tag)
        sx, sy = w / (xr[1] - xr[0]), h / (yr[1] - yr[0])
        pl = self.sources["places"].data
        font = 9 if small else 10
        names = []
        for x, y, t, dx, dy, al in zip(
            pl["x"],
            pl["y"],
            pl[f"name_{tag}"],
            pl[f"lx_{tag}"],
            pl[f"ly_{tag}"],
            pl[f"la_{tag}"],
            strict=True,
        ):
            if t:
                tw, th = text_size(t, font)
                x0 = (x - xr[0]) * sx + dx - (tw if al == "right" else tw / 2 if al == "center" else 0)
                y0 = (yr[1] - y) * sy + dy
                names.append((x0, y0, x0 + tw, y0 + th))
        rn = self.sources["region_names"].data
        rfont = 10 if small else 12
        regions = []
        for x, y, t in zip(rn[f"x_{tag}"], rn[f"y_{tag}"], rn[f"text_{tag}"], strict=True):
            if t:
                tw, th = text_size(t, rfont)
                px, py = (x - xr[0]) * sx, (yr[1] - y) * sy
                regions.append((px - tw / 2, py - th / 2, px + tw / 2, py + th / 2))
        view = (0, 0, w, h)
        return {
            "names": names,
            "regions": regions,
            "frame": [view],
            "chips": [b for b in self.chip_boxes(tag, xr, yr, w, h, small) if overlap(b, view)],
        }

    def _after_update(self, dyn: dict[str, Any]) -> None:
        """The counters moved: place the names again, clear of them, and patch the offsets that changed."""
        before = {
            n: {k: list(v) for k, v in self.sources[n].data.items()} for n in ("places", "region_names")
        }
        new: dict[str, dict[str, list]] = {"places": {}, "region_names": {}}
        for tag, xr, yr, w, h, major in self._views:
            out = self._place_labels(tag, xr, yr, w, h, only_major=major, write=False)
            for n in new:
                new[n].update(out[n])
        for n, cols in new.items():
            patch = {
                c: [(i, v) for i, (v, old) in enumerate(zip(vals, before[n][c], strict=True)) if v != old]
                for c, vals in cols.items()
            }
            if any(patch.values()):
                self.sources[n].patch({c: p for c, p in patch.items() if p})

    def _place_labels(
        self, tag: str, xr, yr, w: int, h: int, *, only_major: bool = False, write: bool = True
    ) -> dict[str, dict[str, list]]:
        """Put each town's name beside it where it overlaps no name, Region name, town or counter chip already
        placed and stays inside the frame (a greedy choice among right, left, below and above, then a little
        further off, in screen pixels).  On the theatre map (``only_major``) only the major places are named, and
        a name that cannot be placed clear is left out.  ``write``: store the columns in the sources (else only
        return them, for a patch)."""
        src = self.sources["places"]
        view = (-60, -60, w + 60, h + 60)
        chips = [b for b in self.chip_boxes(tag, xr, yr, w, h, only_major) if overlap(b, view)]
        xs, ys, names, kinds = src.data["x"], src.data["y"], src.data["name"], src.data["kind"]
        vps = self._vps
        sx, sy = w / (xr[1] - xr[0]), h / (yr[1] - yr[0])
        font = 9 if only_major else 10
        char_w, line_h, gap = 0.6 * font + 0.4, font + 3, 7 if only_major else 13
        boxes: list[tuple[float, float, float, float]] = []
        keep = [
            i
            for i in range(len(names))
            if not only_major or kinds[i] == "supply_center" or (vps[i] or 0) >= self.MAJOR_VP
        ]
        towns: list[tuple[float, float, float, float]] = []
        for x, y in zip(xs, ys, strict=True):  # the towns themselves (and the counters standing on them)
            px, py = (x - xr[0]) * sx, (yr[1] - y) * sy
            # close-ups: the chips of a hex sit left of its centre (dynamic_layers), 16 px squares
            towns.append(
                (px - 4, py - 4, px + 4, py + 4) if only_major else (px - 16, py - 10, px + 11, py + 11)
            )
        if (
            only_major
        ):  # Region names keep clear of the major places' names (their first choice, to the right)
            for i in keep:
                px, py = (xs[i] - xr[0]) * sx, (yr[1] - ys[i]) * sy
                towns.append((px, py - line_h, px + gap + char_w * len(names[i]), py + line_h))
        rn = self.sources["region_names"].data
        # Region names first: each at the hex nearest its Region's middle where the whole name is inside the
        # frame and clear of the Region names already placed (left out if no such hex: the Region is off view)
        rfont = 10 if only_major else 12
        rchar, rline = 0.6 * rfont + 0.6, rfont + 4
        rx_, ry_, rt_ = [], [], []
        here = [b for b in towns if overlap(b, view)]
        circles = [b for b in towns[: len(xs)] if overlap(b, view)]
        # first clear of the towns and the major names; else clear of the town circles only (the names yield)
        grids = (Grid(here + chips), Grid(circles + chips), Grid(circles))
        for text, spots in zip(rn["text"], rn["spots"], strict=True):
            tw = rchar * len(text)
            chosen = None
            for avoid in grids:
                for hid in spots[:120]:
                    x, y = _centre(hid)
                    px, py = (x - xr[0]) * sx, (yr[1] - y) * sy
                    box = (px - tw / 2, py - rline / 2, px + tw / 2, py + rline / 2)
                    if box[0] < 2 or box[1] < 2 or box[2] > w - 2 or box[3] > h - 2:
                        continue
                    if avoid.near(box):
                        continue
                    chosen = (x, y, box)
                    break
                if chosen is not None:
                    break
            if chosen is None:
                rx_.append(rn["x"][len(rx_)])
                ry_.append(rn["y"][len(ry_)])
                rt_.append("")
                continue
            rx_.append(chosen[0])
            ry_.append(chosen[1])
            rt_.append(text)
            boxes.append(chosen[2])
            for g in grids:
                g.add(chosen[2])
        region_cols = {f"x_{tag}": rx_, f"y_{tag}": ry_, f"text_{tag}": rt_}
        if write:
            self.sources["region_names"].data.update(region_cols)
        taken = Grid(boxes + circles + chips)
        order = sorted(keep, key=lambda i: (-(vps[i] or 0), -ys[i], xs[i]))
        placed: dict[int, tuple[float, float, str]] = {}
        shown: dict[int, bool] = {}
        for i in order:
            px, py = (xs[i] - xr[0]) * sx, (yr[1] - ys[i]) * sy
            if not (0 <= px <= w and 0 <= py <= h):  # a town off the frame: no stray name
                placed[i], shown[i] = (gap, -line_h / 2, "left"), False
                continue
            tw = char_w * len(names[i])
            near = [
                (gap, -line_h / 2, "left"),
                (-gap, -line_h / 2, "right"),
                (0, gap, "center"),
                (0, -gap - line_h, "center"),
                (gap, gap - 2, "left"),
                (-gap, gap - 2, "right"),
                (gap, -gap - line_h + 2, "left"),
                (-gap, -gap - line_h + 2, "right"),
            ]
            options = near + [(dx * 1.8, dy * 1.6 if dy else dy, al) for dx, dy, al in near]
            best, best_cost, best_box, best_clash = options[0], None, None, 0.0
            for k, (dx, dy, al) in enumerate(options):
                x0 = px + dx - (tw if al == "right" else tw / 2 if al == "center" else 0)
                box = (x0, py + dy, x0 + tw, py + dy + line_h)
                clash = (
                    sum(overlap(box, b) for b in taken.near(box)) + outside(box, (0, 0, w, h)) * line_h * 4
                )
                cost = clash + 0.1 * k
                if best_cost is None or cost < best_cost:
                    best, best_cost, best_box, best_clash = (dx, dy, al), cost, box, clash
            inside = 0 <= px <= w and 0 <= py <= h
            # a town off the frame, or a name the frame would cut: no name; on the theatre map, none that covers
            shown[i] = inside and outside(best_box, (0, 0, w, h)) == 0 and (not only_major or best_clash < 1)
            if shown[i]:
                taken.add(best_box)
            placed[i] = best
        ox, oy, align, text = [], [], [], []
        for i in range(len(names)):
            dx, dy, al = placed.get(i, (0, 0, "left"))
            ox.append(dx)
            oy.append(dy)
            align.append(al)
            text.append(names[i] if shown.get(i) else "")
        place_cols = {f"lx_{tag}": ox, f"ly_{tag}": oy, f"la_{tag}": align, f"name_{tag}": text}
        if write:
            src.data.update(place_cols)
        return {"places": place_cols, "region_names": region_cols}

    def _figure(self, title, xr, yr, w, h, *, small: bool, tag: str = ""):
        s = self.sources
        # frame_width/height: the plotting area itself is w x h (width/height would include the title and the
        # toolbar, shrink the frame, stretch one axis and push names placed for w x h out of the frame)
        f = figure(
            title=title,
            frame_width=w,
            frame_height=h,
            x_range=Range1d(*xr),
            y_range=Range1d(*yr),
            min_border=4,
            tools="pan,wheel_zoom,box_zoom,reset,save",
            active_scroll=None,
            toolbar_location="above",
            background_fill_color=TERRAIN["sea"],
        )
        f.axis.visible = False
        f.grid.visible = False
        f.toolbar.logo = None
        # the terrain, hexsides and Regions: one picture (drawn once; the close-ups over the theatre's, which
        # shows when a student pans beyond them); a click on a bare hex arrives as a Tap event
        ex = self.static["extent"]
        if tag != "m":
            image_glyph(f, self._theatre_picture, ex["x"], ex["y"])
        picture = static_picture(self.static, xr, yr, w, h, small=small)
        if tag == "m":
            self._theatre_picture = picture
        image_glyph(f, picture, xr, yr)
        f.on_event(Tap, self._on_tap)
        places = f.scatter(
            "x",
            "y",
            source=s["places"],
            marker="circle",
            size="size" if not small else 6,
            fill_color="white",
            line_color="black",
            line_width=2 if not small else 1.5,
        )
        chips = f.scatter(
            "x",
            "y",
            source=s["chips"],
            marker="square",
            size=8 if small else 16,
            fill_color="colour",
            line_color="white",
        )
        f.text(
            f"x_{tag}",
            f"y_{tag}",
            text=f"text_{tag}",
            source=s["region_names"],
            text_font_size="10px" if small else "12px",
            text_color=REGION_LINE,
            text_font_style="bold italic",
            text_align="center",
            text_baseline="middle",
            background_fill_color="white",
            background_fill_alpha=0.6,
        )
        if not small:
            f.text(
                "x",
                "y",
                text="text",
                source=s["chips"],
                text_font_size="9px",
                text_color="white",
                text_align="center",
                text_baseline="middle",
                text_font_style="bold",
            )
        # names last, on a light background, beside the town where they overlap nothing (_place_labels)
        names = f.text(
            "x",
            "y",
            text=f"name_{tag}",
            source=s["places"],
            text_font_size="9px" if small else "10px",
            text_font_style="bold",
            x_offset=field(f"lx_{tag}"),
            y_offset=field(f"ly_{tag}"),
            text_align=field(f"la_{tag}"),
            text_baseline="top",
            background_fill_color="white",
            background_fill_alpha=0.8,
            padding=1,
        )
        self._add_highlight(f, width=3)
        f.add_tools(HoverTool(renderers=[chips, places], tooltips=[("", "@tip")]))
        f.add_tools(TapTool(renderers=[chips, names, places]))
        return f

    def _on_tap(self, event) -> None:
        """A click anywhere on a view: the hex under it, as a click on the hex itself (the terrain is a picture,
        so the hex is found from the point; a counter, town or number on top of it wins, ``_hit``)."""
        if event.x is None or event.y is None:
            return
        hid = hex_id(*hex_at_point(event.x, event.y))
        if hid in self._hex_index:
            self._hit(hid, self.TAP_PRIORITY["hexes"])

    def _place_shape(self, place: str):
        if place in self.game.data.hexes:
            xs, ys = hex_corners(place)
            return "area", ([[xs]], [[ys]])
        return None

    def _legend(self) -> str:
        chip = (
            '<span style="display:inline-block;padding:0 4px;margin:0 3px;color:white;background:{c};'
            'font:bold 11px sans-serif">{t}</span>'
        )
        parts = [chip.format(c=c, t=n) for n, c in NATION.items()] + [chip.format(c=HIDDEN, t="? face down")]
        terr = "".join(
            f'<span style="display:inline-block;width:12px;height:10px;background:{c};border:1px solid #999;'
            f'margin:0 3px 0 8px"></span>{t}'
            for t, c in TERRAIN.items()
            if t != "sea"
        )
        lines = "".join(
            f'<span style="display:inline-block;width:22px;border-top:3px {d} {c};margin:0 4px 3px 8px">'
            f"</span>{n}"
            for n, (c, _w, d) in SIDE_LINE.items()
        )
        return (
            '<div style="font:12px sans-serif;line-height:1.8"><b>Counters</b> (one chip per nationality and hex, '
            "number = counters): "
            + "".join(parts)
            + "<br><b>Terrain</b>: "
            + terr
            + " (Laos, Cambodia, North Vietnam greyed)<br><b>Hexsides</b>: "
            + lines
            + f'<br><span style="display:inline-block;width:22px;border-top:3px dashed {REGION_LINE};margin:0 4px 3px 0">'
            "</span><i>Region (VP)</i>: the victory Regions (YOTR-VIC-REGION) and what each is worth; "
            "&#9675; town, base or Supply Center (bigger = stronger); small grey numbers in the close-ups are the hex "
            "numbers that moves and rulings name; hover for VP and strength; "
            '<span style="color:#c2185b;font-weight:bold">crimson</span> = your click</div>'
        )

    def _dynamic(self) -> dict[str, Any]:
        return dynamic_layers(self.game, self.side)
