"""Drawing an SPI-style hex map (``wargames.maps.HexGrid``) with Bokeh ``hex_tile``.

``hex_tile`` sends only the axial coordinates and a colour per hex, which is much lighter than six
polygon vertices per hex (``research/stack-probe.md`` section 6).
"""

from __future__ import annotations

from typing import Any

from bokeh.models import ColumnDataSource, HoverTool
from bokeh.plotting import figure

TERRAIN_COLOURS = {
    "clear": "#e8e4c9",
    "forest": "#7fa86a",
    "jungle": "#4f8a4b",
    "hills": "#c9a97c",
    "mountain": "#a07a52",
    "marsh": "#93c9b9",
    "water": "#9cc3e0",
    "rice": "#c6df9b",
    "town": "#bdbdbd",
    "city": "#9e9e9e",
}


def hexgrid_data(grid, colours: dict[str, str] | None = None, labels: bool = True) -> dict[str, list[Any]]:
    """Plain columns for ``hex_tile``: hex id, axial q/r, terrain, colour, features."""
    colours = {**TERRAIN_COLOURS, **(colours or {})}
    data: dict[str, list[Any]] = {"hex": [], "q": [], "r": [], "terrain": [], "colour": [], "features": []}
    for hid in grid.hexes():
        q, r = grid.axial(hid)
        terrain = grid.terrain.get(hid, "clear")
        data["hex"].append(hid)
        data["q"].append(q)
        data["r"].append(r)
        data["terrain"].append(terrain)
        data["colour"].append(colours.get(terrain, "#dddddd"))
        data["features"].append(", ".join(sorted(grid.hex_features.get(hid, ()))))
    return data


def draw_hexgrid(
    grid,
    *,
    size: float = 1.0,
    colours: dict[str, str] | None = None,
    labels: bool = True,
    width: int = 700,
    height: int = 600,
    title: str = "Hex map",
):
    """A Bokeh figure of ``grid``: flat-topped hexes coloured by terrain, hex numbers, hover facts.

    Returns the figure; its hex source is ``fig.select_one({"name": "hexes"})``.
    """
    from ..maps.hexgrid import hex_centre

    data = hexgrid_data(grid, colours)
    centres = [
        hex_centre(h, size) for h in data["hex"]
    ]  # where hex_tile draws each hex (the hex maths: hexgrid)
    data["x"] = [x for x, _ in centres]
    data["y"] = [y for _, y in centres]
    src = ColumnDataSource(data, name="hexes")
    p = figure(
        title=title,
        width=width,
        height=height,
        match_aspect=True,
        tools="pan,wheel_zoom,reset,tap",
        toolbar_location="above",
        background_fill_color="white",
    )
    p.grid.visible = False
    p.axis.visible = False
    p.hex_tile(
        q="q",
        r="r",
        size=size,
        orientation="flattop",
        source=src,
        fill_color="colour",
        line_color="white",
        line_width=1,
    )
    if labels:
        p.text(
            "x",
            "y",
            text="hex",
            source=src,
            text_font_size="8px",
            text_color="#444444",
            anchor="center",
            y_offset=-size * 0.0,
        )
    p.add_tools(HoverTool(tooltips=[("hex", "@hex"), ("terrain", "@terrain"), ("features", "@features")]))
    p.toolbar.logo = None
    return p
