"""Any game's map, drawn from the one map contract (``game.map_layers(side)``, ``wargames.maps.layers``).

The view knows map KINDS, not games: "area" and "board" maps draw their places as polygons, lines or points,
"hex" maps their places as hexes; pieces are chips (one per place and faction, the number of pieces on it)
in the faction's colour from the game's one palette (``palette.py``), grey ``?`` where the viewer may not
identify them.  A new game that answers ``map_layers`` is drawn with no edit of the notebook kit.
"""

from __future__ import annotations

from typing import Any

from bokeh.models import ColumnDataSource, HoverTool, Range1d, TapTool
from bokeh.plotting import figure

from .bokehmap import InteractiveMap
from .palette import HIDDEN, colour, text_on

KIND_FILL = {"polygon": "#f1eee4", "hex": "#ece8d6"}
TERRAIN_FILL = {
    "clear": "#efe8c8",
    "lowland": "#bcd99a",
    "highland": "#c9a97c",
    "rough": "#c7a77a",
    "mountain": "#a88a62",
    "jungle": "#5f9e5a",
    "swamp": "#9ccbb8",
    "marsh": "#93c9b9",
    "sea": "#cfe2ee",
}


def _facts_text(facts: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in facts.items() if v not in (None, "", [], {}))


class LayerMapView(InteractiveMap):
    """The map of ``game`` as ``side`` sees it, from ``game.map_layers(side)``; updates patch the chips."""

    TAP_PRIORITY = {"chips": 0, "labels": 1, "points": 2, "areas": 3}
    PLACE_COLUMN = {"chips": "place"}
    DYNAMIC_LAYERS = ("chips",)

    @classmethod
    def draws(cls, game) -> bool:
        return (
            hasattr(game, "facts")
            and game.facts().map_kind in ("area", "hex", "board")
            and game.map_layers(None) is not None
        )

    def __init__(self, game, side: str | None = None, *, height: int = 600, insets: bool = True):
        self.game = game
        self.side = side
        self._init_state()
        layers = game.map_layers(side)
        self.layers = layers
        pl = layers["places"]
        areas: dict[str, list] = {"id": [], "name": [], "xs": [], "ys": [], "fill": [], "tip": []}
        points: dict[str, list] = {"id": [], "name": [], "x": [], "y": [], "tip": []}
        labels: dict[str, list] = {"id": [], "x": [], "y": [], "text": []}
        self._shapes: dict[str, tuple[str, Any]] = {}
        for i, pid in enumerate(pl["id"]):
            shape, facts = pl["shape"][i], pl["facts"][i] or {}
            tip = f"{pl['name'][i]} ({pl['kind'][i]}): {_facts_text(facts)}"
            if shape in ("polygon", "hex"):
                xs, ys = pl["xs"][i], pl["ys"][i]
                if shape == "hex":
                    xs, ys = [[xs]], [[ys]]
                areas["id"].append(pid)
                areas["name"].append(pl["name"][i])
                areas["xs"].append(xs)
                areas["ys"].append(ys)
                areas["fill"].append(TERRAIN_FILL.get(str(facts.get("terrain")), KIND_FILL[shape]))
                areas["tip"].append(tip)
                self._shapes[pid] = ("area", (xs, ys))
            else:
                points["id"].append(pid)
                points["name"].append(pl["name"][i])
                points["x"].append(pl["x"][i])
                points["y"].append(pl["y"][i])
                points["tip"].append(tip)
                self._shapes[pid] = ("point", (pl["x"][i], pl["y"][i], 22))
            if layers["kind"] != "hex" or not pl["name"][i].startswith("hex "):
                labels["id"].append(pid)
                labels["x"].append(pl["x"][i])
                labels["y"].append(pl["y"][i])
                labels["text"].append(pl["name"][i])
        ex = layers["extent"]
        dx, dy = ex["x"][1] - ex["x"][0], ex["y"][1] - ex["y"][0]
        width = max(300, int(height * dx / dy))
        self.scale = height / dy  # pixels per map unit (the frame is sized so both axes agree)
        self.frame = (width, height)
        if (
            width / self.scale > dx
        ):  # a narrow map in a wider frame: widen the x range around the map, same scale
            cx, half = (ex["x"][0] + ex["x"][1]) / 2, width / self.scale / 2
            ex = layers["extent"] = {"x": (cx - half, cx + half), "y": ex["y"]}
        # a dense map (many small places, e.g. a whole theatre of hexes): pieces as small squares, no text
        step = min(
            (
                abs(pl["x"][i] - pl["x"][0])
                for i in range(1, min(len(pl["x"]), 400))
                if pl["x"][i] != pl["x"][0]
            ),
            default=dx,
        )
        self.dense = step * self.scale < 24
        labels.update(self._declutter(labels, layers))
        self.sources = {
            "areas": ColumnDataSource(areas, name="areas"),
            "points": ColumnDataSource(points, name="points"),
            "labels": ColumnDataSource(labels, name="labels"),
            "lines": ColumnDataSource({k: list(v) for k, v in layers["lines"].items()}, name="lines"),
        }
        self.sources["chips"] = ColumnDataSource(self._chips(layers), name="chips")
        f = figure(
            frame_width=width,
            frame_height=height,
            x_range=Range1d(*ex["x"]),
            y_range=Range1d(*ex["y"]),
            match_aspect=True,
            tools="pan,wheel_zoom,box_zoom,reset,save",
            active_scroll=None,
            toolbar_location="above",
            background_fill_color="#dfeaf1",
            title=getattr(game.facts(), "title", "") + (f" (as {side} sees it)" if side else ""),
        )
        f.axis.visible = False
        f.grid.visible = False
        f.toolbar.logo = None
        a = f.multi_polygons(
            "xs", "ys", source=self.sources["areas"], fill_color="fill", line_color="#777777", line_width=1
        )
        f.multi_line(
            "xs", "ys", source=self.sources["lines"], line_color="#555555", line_width=2, line_dash="dashed"
        )
        p = f.scatter(
            "x",
            "y",
            source=self.sources["points"],
            size=14,
            fill_color="white",
            line_color="black",
            line_width=2,
        )
        lab = f.text(
            "x",
            "y",
            text="shown",
            source=self.sources["labels"],
            text_font_size=f"{self.FONT}px",
            text_font_style="bold",
            text_align="center",
            text_baseline="middle",
            x_offset="ox",
            y_offset="oy",
            background_fill_color="white",
            background_fill_alpha=0.7,
        )
        if self.dense:
            chips = f.scatter(
                "x",
                "y",
                source=self.sources["chips"],
                marker="square",
                size=8,
                fill_color="fill",
                line_color="white",
                line_width=0.5,
            )
        else:
            chips = f.text(
                "x",
                "y",
                text="text",
                source=self.sources["chips"],
                x_offset="ox",
                y_offset=8,
                text_font_size="11px",
                text_font_style="bold",
                text_color="text_colour",
                text_align="center",
                text_baseline="top",
                background_fill_color="fill",
                padding=[3, 1],
                border_radius=2,
            )
        self._add_highlight(f)
        f.add_tools(HoverTool(renderers=[a, p], tooltips=[("", "@tip")]))
        f.add_tools(HoverTool(renderers=[chips], tooltips=[("", "@text")]))
        f.add_tools(TapTool(renderers=[chips, lab, p, a]))
        self.figure = f
        self.insets = []
        self.layout = f
        self._connect()

    FONT = 11

    def _declutter(self, labels: dict[str, list], layers: dict[str, Any]) -> dict[str, list]:
        """Screen offsets for the place names, and which are shown: each name goes above, below, right or left of
        its place where it covers no name already placed and the places holding pieces, inside the frame; a name
        with no such spot is left out (hover still names every place).  Places with pieces, then cities and
        towns are named first."""
        sc, (fw, fh) = self.scale, self.frame
        ex = layers["extent"]
        occupied = set(layers["pieces"]["place"])
        where = dict(
            zip(
                layers["places"]["id"],
                zip(layers["places"]["x"], layers["places"]["y"], strict=True),
                strict=True,
            )
        )
        boxes = []
        for pid in occupied:  # the pieces' spots at the start (they move little)
            x, y = where[pid]
            px, py = (x - ex["x"][0]) * sc, (ex["y"][1] - y) * sc
            n = layers["pieces"]["place"].count(pid)
            boxes.append(
                (px - 6, py - 6, px + 2 + 8 * n, py + 6)
                if self.dense
                else (px - 50, py + 6, px + 50, py + 26)
            )
        rank = {"city": 0, "town": 1, "base": 2}
        kinds = dict(zip(layers["places"]["id"], layers["places"]["kind"], strict=True))
        order = sorted(
            range(len(labels["id"])),
            key=lambda i: (
                labels["id"][i] not in occupied,
                rank.get(kinds[labels["id"][i]], 3),
                labels["text"][i],
            ),
        )
        ox, oy, shown = [0.0] * len(order), [0.0] * len(order), [""] * len(order)
        h = self.FONT + 4
        for i in order:
            x, y = labels["x"][i], labels["y"][i]
            px, py = (x - ex["x"][0]) * sc, (ex["y"][1] - y) * sc
            w = len(labels["text"][i]) * self.FONT * 0.62 + 6
            for dx, dy in ((0, -14), (0, 14), (w / 2 + 8, 0), (-w / 2 - 8, 0), (0, -28)):
                box = (px + dx - w / 2, py + dy - h / 2, px + dx + w / 2, py + dy + h / 2)
                if box[0] < 0 or box[1] < 0 or box[2] > fw or box[3] > fh:
                    continue
                if any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in boxes):
                    continue
                boxes.append(box)
                ox[i], oy[i], shown[i] = dx, dy, labels["text"][i]
                break
        return {"ox": ox, "oy": oy, "shown": shown}

    def _chips(self, layers: dict[str, Any]) -> dict[str, list]:
        pc = layers["pieces"]
        where = dict(
            zip(
                layers["places"]["id"],
                zip(layers["places"]["x"], layers["places"]["y"], strict=True),
                strict=True,
            )
        )
        out: dict[str, list] = {
            "place": [],
            "x": [],
            "y": [],
            "ox": [],
            "text": [],
            "fill": [],
            "text_colour": [],
        }
        per_place: dict[str, int] = {}
        for place, faction, n, hidden in zip(
            pc["place"], pc["faction"], pc["count"], pc["hidden"], strict=True
        ):
            k = per_place[place] = per_place.get(place, 0) + 1
            x, y = where[place]
            fill = HIDDEN if faction is None else colour(self.game, faction)
            out["place"].append(place)
            out["y"].append(y)
            out["ox"].append(-22 + 44 * ((k - 1) % 2) if k > 0 else 0)
            if getattr(self, "dense", False):  # small squares side by side, in map units
                x += (k - 1) * 8 / self.scale
            out["x"].append(x)
            out["text"].append(f"? {n}" if faction is None else f"{faction} {n}" + ("?" if hidden else ""))
            out["fill"].append(fill)
            out["text_colour"].append(text_on(fill))
        return out

    def _dynamic(self) -> dict[str, Any]:
        layers = self.game.map_layers(self.side)
        return {"chips": self._chips(layers)}

    def _place_shape(self, place: str):
        return self._shapes.get(place)
