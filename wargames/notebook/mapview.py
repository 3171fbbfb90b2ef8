"""MapView: one Bokeh map of an area game, built once and updated by assigning ColumnDataSource data.

The drawing layers come from ``tetmap.py`` (built from the game's data and ``game.view(side)``, with the
game's one palette); this module only decides how they look.  Updates and clicks are shared with every map (``bokehmap.py``).
"""

from __future__ import annotations

from typing import Any

from bokeh.layouts import column, row
from bokeh.models import (
    BoxZoomTool,
    CDSView,
    ColumnDataSource,
    Div,
    GroupFilter,
    HoverTool,
    IndexFilter,
    PanTool,
    Range1d,
    ResetTool,
    SaveTool,
    TapTool,
    WheelZoomTool,
)
from bokeh.plotting import figure

from . import tetmap
from .bokehmap import InteractiveMap

TOOLTIP = '<div style="max-width:330px;font-size:12px;line-height:1.25">@tip{safe}</div>'
# a tap on a unit beats a tap on a city, which beats an area's label (its number), a box, a sanctuary and the
# province under them: a click on "21" picks province 21 even where the label overlaps a sanctuary
TAP_PRIORITY = {"units": 0, "cities": 1, "labels": 2, "boxes": 3, "sanctuaries": 4, "provinces": 5}
STATIC_LAYERS = (
    "land",
    "countries",
    "borders",
    "rivers",
    "provinces",
    "sanctuaries",
    "corps_lines",
    "corps_labels",
    "cities",
    "airbases",
    "roads",
    "trail",
    "boxes",
    "inset_frames",
)
DYNAMIC_LAYERS = ("units", "leaders", "militia", "insurrection", "focus_areas", "focus_points")


def _frame(view: dict[str, Any], scale: float = 1.0) -> tuple[int, int]:
    """Frame (width, height) in pixels of a view: the same number of pixels per degree on both axes."""
    dx = view["x"][1] - view["x"][0]
    dy = view["y"][1] - view["y"][0]
    ppd = view["height"] / dy if "height" in view else view["width"] / dx
    return int(round(dx * ppd * scale)), int(round(dy * ppd * scale))


def _legend_html(faction_colours: dict[str, str], extra: dict[str, str]) -> str:
    chip = (
        '<span style="display:inline-block;padding:0 4px;margin:1px 3px 1px 0;border-radius:2px;'
        'font:bold 11px sans-serif;{style}">{text}</span>'
    )
    parts = [
        chip.format(style=f"background:{c};color:white", text=f"{f} n") for f, c in faction_colours.items()
    ]
    parts.append(chip.format(style=f"background:{extra['RP']};color:white", text="RP n"))
    parts.append(
        chip.format(
            style=f"background:#e6e6e6;color:{faction_colours['VC']};border:1px solid "
            f"{faction_colours['VC']}",
            text="VC? n",
        )
    )
    parts.append(chip.format(style=f"background:{extra['HIDDEN']};color:white", text="? n"))
    sw = '<span style="display:inline-block;width:22px;height:0;border-top:{b};margin:0 4px 3px 8px"></span>{t}'
    box = (
        '<span style="display:inline-block;width:12px;height:10px;background:{c};border:1px solid #888;'
        'margin:0 3px 0 8px"></span>{t}'
    )
    keys = [
        box.format(c=extra["lowland"], t="lowland"),
        box.format(c=extra["highland"], t="highland"),
        box.format(c=extra["marsh"], t="marsh"),
        box.format(c=extra["foreign"], t="Laos / Cambodia"),
        sw.format(b=f"3px dashed {extra['SANCTUARY']}", t="sanctuary"),
        sw.format(b=f"4px solid {extra['CORPS']}", t="Corps boundary"),
        sw.format(b="4px dashed #111", t="Highway"),
        sw.format(b=f"4px dashed {extra['TRAIL']}", t="Ho Chi Minh Trail"),
        '<span style="margin-left:8px">&#9711; city (size and number = political value), &#9992; airbase, '
        '&#9733; insurrection, <span style="color:#e06a00;font-weight:bold">orange</span> = latest ruling, '
        '<span style="color:#c2185b;font-weight:bold">crimson</span> = your click</span>',
    ]
    return (
        '<div style="font:12px sans-serif;line-height:1.9">'
        "<b>Units</b>: one chit per faction and area, e.g. <i>VC 3</i> = three VC units (on the large map only "
        "the number, in the faction colour); <i>?</i> = face down: "
        + "".join(parts)
        + "<br><b>Map</b>: "
        + "".join(keys)
        + "</div>"
    )


class MapView(InteractiveMap):
    """The map of ``game`` as ``side`` sees it (None: the umpire sees everything).

    ``.layout`` is the Bokeh root (the whole-theatre map ``.figure`` plus the close-ups ``.insets``),
    ``.widget`` the jupyter_bokeh ``BokehModel`` to display.  ``update()`` re-reads the game and patches
    the sources; clicks on the map call the listeners registered with ``on_pick`` with an area id.
    """

    TAP_PRIORITY = TAP_PRIORITY
    PLACE_COLUMN = {"units": "area"}

    @classmethod
    def draws(cls, game) -> bool:
        """This view draws "area" games whose areas are provinces, sanctuaries, cities and sea boxes on a real
        lon/lat theatre (the Tet shape, ``tetmap.py``)."""
        from .tetmap import draws

        return game.facts().map_kind == "area" and draws(game)

    DYNAMIC_LAYERS = DYNAMIC_LAYERS

    def __init__(self, game, side: str | None = None, *, height: int = 750, insets: bool = True):
        self.game = game
        self.side = side
        self._init_state()

        static = tetmap.static_layers(game)
        self.static = static
        self.sources: dict[str, ColumnDataSource] = {
            n: ColumnDataSource(dict(static[n]), name=n) for n in STATIC_LAYERS if n in static
        }
        labels: dict[str, list] = {"id": [], "lx": [], "ly": [], "label": [], "kind": [], "tip": []}
        views_ids = [v["id"] for v in static["views"]]
        for layer in ("provinces", "sanctuaries"):
            for k in ("id", "lx", "ly", "label", "tip") + tuple(f"in_{vid}" for vid in views_ids):
                labels.setdefault(k, [])
                labels[k] += list(static[layer][k])
            labels["kind"] += [layer] * len(static[layer]["id"])
        self.sources["labels"] = ColumnDataSource(labels, name="labels")
        dyn = tetmap.dynamic_layers(game, side)
        for n in DYNAMIC_LAYERS:
            self.sources[n] = ColumnDataSource(dict(dyn[n]), name=n)
        self.units = self.sources["units"]
        self.dynamic = dyn

        views = static["views"] if insets else static["views"][:1]
        self.views = views
        scale = height / 750  # the views are laid out for a 750 px high map
        self.figures = [self._make_figure(v, *_frame(v, scale)) for v in views]
        self.figure = self.figures[0]
        self.insets = self.figures[1:]
        total_w = sum(
            max(_frame(v, scale)[0] for v in group) + 50 for group in (views[:1], views[1:]) if group
        )
        style = static.get("style", {})
        self.legend = Div(
            text=_legend_html(style["factions"], style) if style else "", width=min(total_w, 900)
        )
        top = row(self.figure, column(*self.insets)) if self.insets else self.figure
        self.layout = column(top, self.legend)
        self._connect()

    # ------------------------------------------------------------------ drawing
    def _make_figure(self, view: dict[str, Any], w: int, h: int):
        s = self.sources
        vid = view["id"]
        main = view is self.views[0]
        short = bool(view.get("short"))
        font = view.get("font", 10)
        p = figure(
            title=view["title"],
            x_range=Range1d(*view["x"]),
            y_range=Range1d(*view["y"]),
            frame_width=w,
            frame_height=h,
            match_aspect=True,
            tools="",
            toolbar_location="above" if main else None,
            background_fill_color=self.static.get("style", {}).get("SEA", "#cfe2ee"),
            border_fill_color="white",
            min_border=4,
            name=f"map_{vid}",
        )
        p.grid.visible = False
        p.title.text_font_size = "13px"
        if main:
            p.xaxis.axis_label = "longitude (degrees east)"
            p.yaxis.axis_label = "latitude (degrees north)"
            p.axis.major_label_text_font_size = "10px"
            p.axis.axis_label_text_font_size = "11px"
            p.axis.axis_label_text_font_style = "normal"
        else:
            p.axis.visible = False
        k = 1.0 if main else 1.4  # thicker lines in the close-ups

        p.multi_polygons("xs", "ys", source=s["land"], fill_color="#efebe3", line_color=None)
        p.multi_polygons(
            "xs", "ys", source=s["countries"], fill_color="fill", line_color="#b8b2a5", line_width=0.6
        )
        prov = p.multi_polygons(
            "xs",
            "ys",
            source=s["provinces"],
            fill_color="fill",
            fill_alpha=0.95,
            hatch_pattern="hatch",
            hatch_color="#3f7f76",
            hatch_alpha=0.45,
            hatch_scale=9,
            line_color="#6f6f6f",
            line_width=0.8,
        )
        p.multi_line("xs", "ys", source=s["rivers"], line_color="#4f86c6", line_width=1.6 * k)
        p.multi_line(
            "xs", "ys", source=s["borders"], line_color="#474747", line_width=1.4, line_dash="dashed"
        )
        p.multi_line(
            "xs", "ys", source=s["corps_lines"], line_color="#5a4a00", line_width=6 * k, line_alpha=0.35
        )
        p.multi_line("xs", "ys", source=s["corps_lines"], line_color="#f2c200", line_width=3.5 * k)
        sanc = p.multi_polygons(
            "xs",
            "ys",
            source=s["sanctuaries"],
            fill_color="#c81e1e",
            fill_alpha=0.10,
            line_color="#c81e1e",
            line_width=2.5,
            line_dash=[6, 3],
        )
        p.multi_line(
            "xs",
            "ys",
            source=s["trail"],
            line_color="#8b5a2b",
            line_width=4.5 * k,
            line_dash=[10, 4],
            line_alpha=0.9,
        )
        p.multi_line("xs", "ys", source=s["roads"], line_color="#111111", line_width=4 * k)
        p.multi_line("xs", "ys", source=s["roads"], line_color="white", line_width=1.8 * k, line_dash=[6, 6])

        # in view ``vid``: only what lies whole inside the frame (in_<vid> == "y"); the sea boxes only on the theatre
        def inside(name: str) -> CDSView:
            return CDSView(filter=GroupFilter(column_name=f"in_{vid}", group="y"))

        shown_boxes = CDSView() if main else CDSView(filter=IndexFilter(indices=[]))
        boxes = p.rect(
            "x",
            "y",
            "w",
            "h",
            source=s["boxes"],
            fill_color="white",
            fill_alpha=0.75,
            line_color="#6a7f90",
            line_width=1.2,
            view=shown_boxes,
        )
        box_names = p.text(
            "tx",
            "ty",
            text="name",
            source=s["boxes"],
            text_font_size="9px",
            text_color="#33475b",
            anchor="top_left",
            view=CDSView() if main else CDSView(filter=IndexFilter(indices=[])),
        )
        if main and len(self.views) > 1:
            p.multi_line(
                "xs",
                "ys",
                source=s["inset_frames"],
                line_color="#34495e",
                line_width=1.2,
                line_dash=[2, 3],
                line_alpha=0.8,
            )
        p.text(
            "x",
            "y",
            text="text",
            source=s["corps_labels"],
            text_font_size="13px" if main else "18px",
            text_color="#8a6d00",
            text_font_style="bold",
            text_alpha=0.85,
            anchor="anchor",
        )
        labels = p.text(
            "lx",
            "ly",
            text="label",
            source=s["labels"],
            text_font_size="10px" if main else "12px",
            text_color="#3d3d3d",
            text_font_style="bold italic",
            anchor="center",
            text_alpha=0.9,
            view=inside("labels"),
        )
        # the latest ruling's areas, insurrections and Ruff Puff rings go under the city circles
        p.multi_polygons(
            "xs",
            "ys",
            source=s["focus_areas"],
            fill_color="#ff7f0e",
            fill_alpha=0.18,
            line_color="#ff7f0e",
            line_width=4,
        )
        ins = p.scatter(
            "x",
            "y",
            size="size",
            marker="star",
            source=s["insurrection"],
            fill_color="#ffd400",
            line_color="#c0392b",
            line_width=1.5,
        )
        p.scatter(
            "x",
            "y",
            size="size",
            source=s["focus_points"],
            fill_color=None,
            line_color="#ff7f0e",
            line_width=4,
        )
        if not short:
            p.multi_line(
                f"xs_{vid}",
                f"ys_{vid}",
                source=s["leaders"],
                line_color="#222222",
                line_width=1.2,
                line_alpha=0.8,
            )
        militia = p.scatter(
            "x",
            "y",
            size="size",
            source=s["militia"],
            fill_color=None,
            line_color=self.static.get("style", {}).get("RP", "#7f9fe0"),
            line_width=3,
        )
        cities = p.scatter(
            "x", "y", size="size", source=s["cities"], fill_color="white", line_color="black", line_width=1.5
        )
        p.text(
            "x",
            "y",
            text="pv_text",
            source=s["cities"],
            text_font_size="9px" if main else "10px",
            text_font_style="bold",
            anchor="center",
            text_color="black",
        )
        p.text(
            "x",
            "y",
            text={"value": "\u2708"},
            source=s["airbases"],
            text_font_size="11px" if main else "13px",
            x_offset="dx",
            anchor="center_right",
            text_color="#202020",
        )
        city_names = p.text(
            "x",
            "y",
            text="label_main" if main else "label",
            source=s["cities"],
            text_font_size="9px" if main else "11px",
            x_offset=f"name_dx_{vid}",
            y_offset=f"name_dy_{vid}",
            anchor=f"name_anchor_{vid}",
            view=inside("cities"),
            text_color="#111111",
            background_fill_color="white",
            background_fill_alpha=0.6,
            padding=[1, 0],
        )
        chits = p.text(
            "x",
            "y",
            text="short" if short else "text",
            source=s["units"],
            x_offset=f"dx_{vid}",
            y_offset=f"dy_{vid}",
            anchor="center_left",
            text_color="text_color",
            text_font_size=f"{font}px",
            text_font_style="bold",
            background_fill_color="fill",
            border_line_color="line_color",
            border_line_width=1,
            padding=[3, 1],
            border_radius=2,
            view=inside("units"),
        )
        self._add_highlight(p, width=3 if main else 4)
        hover = HoverTool(
            renderers=[chits, militia, cities, ins, boxes, sanc, prov],
            tooltips=TOOLTIP,
            point_policy="follow_mouse",
        )
        tap = TapTool(
            renderers=[chits, cities, city_names, labels, boxes, box_names, sanc, prov], behavior="select"
        )
        p.add_tools(hover, tap)
        if main:
            p.add_tools(PanTool(), WheelZoomTool(), BoxZoomTool(match_aspect=True), ResetTool(), SaveTool())
            p.toolbar.logo = None
        return p

    def _place_shape(self, place: str):
        st = self.static
        for layer in ("provinces", "sanctuaries"):
            if place in st[layer]["id"]:
                i = st[layer]["id"].index(place)
                return "area", (st[layer]["xs"][i], st[layer]["ys"][i])
        if place in st["cities"]["id"]:
            i = st["cities"]["id"].index(place)
            return "point", (st["cities"]["x"][i], st["cities"]["y"][i], st["cities"]["size"][i] + 8)
        if place in st["boxes"]["id"]:
            b = st["boxes"]
            i = b["id"].index(place)
            x, y, w, h = b["x"][i], b["y"][i], b["w"][i], b["h"][i]
            return "area", (
                [[[x - w / 2, x + w / 2, x + w / 2, x - w / 2]]],
                [[[y - h / 2, y - h / 2, y + h / 2, y + h / 2]]],
            )
        return None

    # ------------------------------------------------------------------ updating
    def _dynamic(self) -> dict[str, Any]:
        return tetmap.dynamic_layers(self.game, self.side)
