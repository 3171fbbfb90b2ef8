"""The Year of the Rat hex map in Bokeh: terrain hexes, roads, trails, rivers and borders by hexside,
towns and Supply Centers, and the counters as the viewing side may see them.

A theatre map and three close-ups of the 1972 battles (Quang Tri and Hue, Kontum, An Loc and Saigon)
share the same sources.  Counters are drawn as small chips per hex and side: a nationality colour with the
number of counters; Communist counters hidden from the Allies are grey ``?`` chips (YOTR-MOV-M).
"""

from __future__ import annotations

import math
from typing import Any

from bokeh.core.properties import field
from bokeh.layouts import column, row
from bokeh.models import ColumnDataSource, Div, HoverTool, Range1d, TapTool
from bokeh.plotting import figure

from .bokehmap import InteractiveMap

TERRAIN = {"clear": "#e9e6cf", "rough": "#c7a77a", "swamp": "#9ccbb8", "sea": "#cfe2ee"}
FOREIGN = {"clear": "#dcdcd4", "rough": "#c2bcb0", "swamp": "#b8cfc6", "sea": "#cfe2ee"}
NATION = {"NVA": "#c0392b", "NLF": "#111111", "USA": "#1e6b2e", "ARVN": "#1f4fbf", "ROK": "#7b3fa0"}
HIDDEN = "#6b6b6b"
SIDE_LINE = {"road": ("#222222", 2.2, "solid"), "trail": ("#8b5a2b", 2.0, "dashed"),
             "river": ("#3b7fbf", 2.2, "solid"), "border": ("#c0392b", 1.6, "dashed"), "dmz": ("#e0a000", 3.0, "solid")}
CLOSEUPS = (  # (title, places framed, half width in hex columns, half height in hex rows)
    ("Quang Tri and Hue", ("quang_tri_city", "hue"), 11, 8),
    ("Kontum", ("kontum",), 11, 8),
    ("An Loc and Saigon", ("an_loc", "saigon_1"), 11, 9),
)
SQ3 = math.sqrt(3)


def _xy(hid: str) -> tuple[float, float]:
    c, r = int(hid[:2]), int(hid[2:])
    return 1.5 * c, -SQ3 * (r + 0.5 * (c & 1))


def static_layers(data) -> dict[str, Any]:
    """Plain columns for the hexes, hexside features, towns and Supply Centers."""
    from wargames.maps.hexgrid import HexGrid

    hexes: dict[str, list] = {"hex": [], "q": [], "r": [], "colour": [], "tip": []}
    for hid, h in sorted(data.hexes.items()):
        q, r = HexGrid.axial(hid)
        hexes["hex"].append(hid)
        hexes["q"].append(q)
        hexes["r"].append(r)
        palette = TERRAIN if h.country == "SVN" else FOREIGN
        hexes["colour"].append(palette[h.terrain])
        region = data.regions[h.region].name if h.region in data.regions else "-"
        hexes["tip"].append(f"hex {hid}: {h.terrain}, {h.country}, Region {region}")
    sides: dict[str, list] = {"xs": [], "ys": [], "colour": [], "width": [], "dash": []}
    for (a, b), feats in sorted(data.sides.items()):
        (xa, ya), (xb, yb) = _xy(a), _xy(b)
        for f in sorted(feats):
            if f not in SIDE_LINE or (f == "river" and "bridge" in feats and False):
                continue
            colour, width, dash = SIDE_LINE[f]
            if f in ("road", "trail"):  # centre to centre: the route crosses the hexside
                xs, ys = [xa, xb], [ya, yb]
            else:  # along the shared edge
                mx, my = (xa + xb) / 2, (ya + yb) / 2
                dx, dy = xb - xa, yb - ya
                n = math.hypot(dx, dy)
                px, py = -dy / n * 0.5, dx / n * 0.5
                xs, ys = [mx - px, mx + px], [my - py, my + py]
            sides["xs"].append(xs)
            sides["ys"].append(ys)
            sides["colour"].append(colour)
            sides["width"].append(width)
            sides["dash"].append(dash)
    places: dict[str, list] = {"id": [], "x": [], "y": [], "name": [], "kind": [], "tip": [], "size": []}
    for p in data.places.values():
        if p.kind not in ("town", "base", "supply_center", "foreign_town"):
            continue
        x, y = _xy(p.hex)
        places["id"].append(p.hex)
        places["x"].append(x)
        places["y"].append(y)
        places["name"].append(p.name)
        places["kind"].append(p.kind)
        vp = f", VP {p.vp_communist}/{p.vp_allied}" if p.vp_communist is not None else ""
        quota = f", supply quota {p.quota}" if p.quota else ""
        strength = f", intrinsic strength {p.intrinsic_strength}" if p.intrinsic_strength is not None else ""
        places["tip"].append(f"{p.name} ({p.kind.replace('_', ' ')}, hex {p.hex}{strength}{vp}{quota})")
        places["size"].append(10 + 3 * (p.intrinsic_strength or 0))
    xs = [1.5 * h.col for h in data.hexes.values()]
    ys = [_xy(h)[1] for h in data.hexes]
    return {"hexes": hexes, "sides": sides, "places": places,
            "extent": {"x": (min(xs) - 1, max(xs) + 1), "y": (min(ys) - 1, max(ys) + 1)}}


def dynamic_layers(game, side: str | None) -> dict[str, Any]:
    """Counter chips per hex and nationality as ``side`` sees them (None: the umpire)."""
    state = game.public_state(side)
    stacks: dict[tuple[str, str], list[dict]] = {}
    for u in state["units"]:
        key = u.get("nationality", "?") if u["face_up"] else "?"
        stacks.setdefault((u["hex"], key), []).append(u)
    chips: dict[str, list] = {"hex": [], "x": [], "y": [], "colour": [], "text": [], "tip": []}
    per_hex: dict[str, int] = {}
    for (hid, nat), units in sorted(stacks.items()):
        k = per_hex[hid] = per_hex.get(hid, 0) + 1
        x, y = _xy(hid)
        chips["hex"].append(hid)
        chips["x"].append(x - 0.45 + 0.55 * ((k - 1) % 2))
        chips["y"].append(y + 0.35 - 0.6 * ((k - 1) // 2))
        chips["colour"].append(NATION.get(nat, HIDDEN))
        chips["text"].append(f"?{len(units)}" if nat == "?" else str(len(units)))
        if nat == "?":
            chips["tip"].append(f"hex {hid}: {len(units)} face-down Communist counter(s)")
        else:
            chips["tip"].append(f"hex {hid}: " + ", ".join(
                f"{u['id']} {u.get('type', '')} {u.get('values') or ''}{' ' + ''.join(u['markers']) if u['markers'] else ''}"
                for u in units))
    return {"chips": chips, "vp": state.get("vp"), "turn": state.get("turn")}


class YotrMapView(InteractiveMap):
    """The hex map of a Year of the Rat game as ``side`` sees it (None: the umpire)."""

    TAP_PRIORITY = {"chips": 0, "places": 1, "hexes": 2}
    PLACE_COLUMN = {"chips": "hex", "places": "id", "hexes": "hex"}
    DYNAMIC_LAYERS = ("chips",)

    def __init__(self, game, side: str | None = None, *, height: int = 820, insets: bool = True):
        self.game = game
        self.side = side
        self._init_state()
        static = static_layers(game.data)
        self.static = static
        dyn = self._dynamic()
        self.dynamic = dyn
        self.sources = {n: ColumnDataSource(dict(static[n]), name=n) for n in ("hexes", "sides", "places")}
        self.sources["chips"] = ColumnDataSource(dict(dyn["chips"]), name="chips")
        ex = static["extent"]
        w = int(height * (ex["x"][1] - ex["x"][0]) / (ex["y"][1] - ex["y"][0]))
        self.figure = self._figure("Year of the Rat: South Vietnam, 1972 (10 km hexes)", ex["x"], ex["y"], w, height,
                                   small=True)
        self.insets = []
        if insets:
            for title, framed, hw, hh in CLOSEUPS:
                pts = [_xy(game.data.places[p].hex) for p in framed if p in game.data.places]
                if not pts:
                    continue
                cx, cy = sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts)
                xr = (cx - 1.5 * hw, cx + 1.5 * hw)
                yr = (cy - SQ3 * hh, cy + SQ3 * hh)
                ih = height // 3 - 30
                iw = int(ih * (xr[1] - xr[0]) / (yr[1] - yr[0]))
                tag = f"i{len(self.insets)}"
                self._place_labels(tag, xr, yr, iw, ih)
                self.insets.append(self._figure(f"Close-up: {title}", xr, yr, iw, ih, small=False, tag=tag))
        self.legend = Div(text=self._legend(), width=w + 40)
        top = row(self.figure, column(*self.insets)) if self.insets else self.figure
        self.layout = column(top, self.legend)
        self._connect()

    def _place_labels(self, tag: str, xr, yr, w: int, h: int) -> None:
        """Put each town's name beside it where it overlaps no name already placed in this close-up (a greedy
        choice among right, left, below and above, in screen pixels), so crowded fronts stay readable."""
        src = self.sources["places"]
        xs, ys, names = src.data["x"], src.data["y"], src.data["name"]
        sx, sy = w / (xr[1] - xr[0]), h / (yr[1] - yr[0])
        char_w, line_h, gap = 6.5, 13, 9
        boxes: list[tuple[float, float, float, float]] = []
        # counters sit on their hex: keep names off the neighbouring chips too
        for x, y in zip(xs, ys, strict=True):
            px, py = (x - xr[0]) * sx, (yr[1] - y) * sy
            boxes.append((px - 8, py - 8, px + 8, py + 8))
        ox, oy, align = [], [], []
        order = sorted(range(len(names)), key=lambda i: (-ys[i], xs[i]))
        placed: dict[int, tuple[float, float, str]] = {}
        for i in order:
            px, py = (xs[i] - xr[0]) * sx, (yr[1] - ys[i]) * sy
            tw = char_w * len(names[i])
            options = [(gap, -line_h / 2, "left"), (-gap, -line_h / 2, "right"), (0, gap, "center"),
                       (0, -gap - line_h, "center")]
            best, best_cost = options[0], None
            for dx, dy, al in options:
                x0 = px + dx - (tw if al == "right" else tw / 2 if al == "center" else 0)
                box = (x0, py + dy, x0 + tw, py + dy + line_h)
                cost = sum(max(0, min(box[2], b[2]) - max(box[0], b[0])) * max(0, min(box[3], b[3]) - max(box[1], b[1]))
                           for b in boxes)
                if best_cost is None or cost < best_cost:
                    best, best_cost, best_box = (dx, dy, al), cost, box
            boxes.append(best_box)
            placed[i] = best
        for i in range(len(names)):
            dx, dy, al = placed[i]
            ox.append(dx)
            oy.append(dy)
            align.append(al)
        src.data.update({f"lx_{tag}": ox, f"ly_{tag}": oy, f"la_{tag}": align})

    def _figure(self, title, xr, yr, w, h, *, small: bool, tag: str = ""):
        s = self.sources
        f = figure(title=title, width=w, height=h, x_range=Range1d(*xr), y_range=Range1d(*yr), match_aspect=True,
                   tools="pan,wheel_zoom,reset,save", active_scroll="wheel_zoom", toolbar_location="above",
                   background_fill_color=TERRAIN["sea"])
        f.axis.visible = False
        f.grid.visible = False
        f.toolbar.logo = None
        hexes = f.hex_tile(q="q", r="r", size=1, orientation="flattop", source=s["hexes"], fill_color="colour",
                           line_color="white" if not small else None, line_width=0.5)
        f.multi_line("xs", "ys", source=s["sides"], line_color="colour", line_width="width", line_dash="dash")
        places = f.scatter("x", "y", source=s["places"], marker="circle", size="size" if not small else 7,
                           fill_color="white", line_color="black", line_width=2)
        chips = f.scatter("x", "y", source=s["chips"], marker="square", size=9 if small else 16, fill_color="colour",
                          line_color="white")
        if not small:
            f.text("x", "y", text="text", source=s["chips"], text_font_size="9px", text_color="white",
                   text_align="center", text_baseline="middle", text_font_style="bold")
            # names last, on a light background, beside the town where they overlap nothing (_place_labels)
            f.text("x", "y", text="name", source=s["places"], text_font_size="10px", text_font_style="bold",
                   x_offset=field(f"lx_{tag}") if tag else 0, y_offset=field(f"ly_{tag}") if tag else -9,
                   text_align=field(f"la_{tag}") if tag else "center", text_baseline="top",
                   background_fill_color="white", background_fill_alpha=0.75, padding=1)
        f.add_tools(HoverTool(renderers=[chips, places, hexes], tooltips=[("", "@tip")]))
        f.add_tools(TapTool(renderers=[chips, places, hexes]))
        return f

    def _legend(self) -> str:
        chip = ('<span style="display:inline-block;padding:0 4px;margin:0 3px;color:white;background:{c};'
                'font:bold 11px sans-serif">{t}</span>')
        parts = [chip.format(c=c, t=n) for n, c in NATION.items()] + [chip.format(c=HIDDEN, t="? face down")]
        terr = "".join(f'<span style="display:inline-block;width:12px;height:10px;background:{c};border:1px solid #999;'
                       f'margin:0 3px 0 8px"></span>{t}' for t, c in TERRAIN.items() if t != "sea")
        lines = "".join(f'<span style="display:inline-block;width:22px;border-top:3px {d} {c};margin:0 4px 3px 8px">'
                        f"</span>{n}" for n, (c, _w, d) in SIDE_LINE.items())
        return ('<div style="font:12px sans-serif;line-height:1.8"><b>Counters</b> (one chip per nationality and hex, '
                "number = counters): " + "".join(parts) + "<br><b>Terrain</b>: " + terr
                + " (Laos, Cambodia, North Vietnam greyed)<br><b>Hexsides</b>: " + lines
                + "<br>&#9675; town, base or Supply Center (bigger = stronger); hover for VP and strength</div>")

    def _dynamic(self) -> dict[str, Any]:
        return dynamic_layers(self.game, self.side)
