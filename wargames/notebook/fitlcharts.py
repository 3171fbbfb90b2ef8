"""Fire in the Lake's charts, drawn with Bokeh (issue #14: charts live in the notebook kit; the game package
computes the numbers): the four margins card by card, and winners and margins of many games, one colour per
faction, the board's.  The game's own notebook module (shared charts are in :mod:`wargames.notebook.charts`).
"""

from __future__ import annotations

from typing import Any

from ..fitl.data import FACTIONS
from .palette import palette

# one colour per faction, the board's (the game's one palette, ``palette.py``)
FACTION_COLOURS: dict[str, str] = {f: c for f, c in palette("fitl").items() if f in FACTIONS}


def margins_figure(history: list[dict[str, Any]], *, title: str = "Victory margins card by card"):
    """A Bokeh line plot of the four margins (FITL-7.3) per card of :func:`play_with_history`, with the Coup
    cards marked and the zero line (a margin above 0 passes the victory check, FITL-7.2)."""
    from bokeh.models import ColumnDataSource, HoverTool, Legend, Range1d, Span
    from bokeh.plotting import figure

    data: dict[str, list[Any]] = {k: [r[k] for r in history] for k in history[0]}
    src = ColumnDataSource(data)
    values = [r[f"margin_{f}"] for r in history for f in FACTIONS]
    fig = figure(
        width=860,
        height=380,
        title=title,
        x_axis_label="card played",
        y_axis_label="margin (marker minus threshold)",
        tools="pan,wheel_zoom,reset,save",
        y_range=Range1d(min(values) - 1, max(max(values), 0) + 1),
    )  # the zero line always shows
    fig.add_layout(Span(location=0, dimension="width", line_color="#444", line_dash="dashed"))
    for r in history:
        if r["coup"]:
            fig.add_layout(
                Span(
                    location=r["card_index"],
                    dimension="height",
                    line_color="#999",
                    line_width=2,
                    line_alpha=0.6,
                )
            )
    items = []
    for f in FACTIONS:
        line = fig.line("card_index", f"margin_{f}", source=src, color=FACTION_COLOURS[f], line_width=3)
        fig.scatter("card_index", f"margin_{f}", source=src, color=FACTION_COLOURS[f], size=5)
        fig.add_tools(
            HoverTool(
                renderers=[line],
                tooltips=[("card", "@card_index: #@card @title"), (f"{f} margin", f"@margin_{f}")],
            )
        )
        items.append((f, [line]))
    fig.add_layout(Legend(items=items, title="margin"), "right")
    return fig


def outcomes_figure(rows: list[dict[str, Any]], *, title: str = "Many games"):
    """Two Bokeh panels for :func:`run_games` rows (or rows with ``winner`` and ``margin_<faction>`` columns):
    how often each faction won (FITL-7.1), and every game's four final margins (FITL-7.3), one dot per game."""
    from bokeh.layouts import row as bokeh_row
    from bokeh.models import ColumnDataSource, HoverTool, Span
    from bokeh.plotting import figure

    n = len(rows)
    wins = [sum(1 for r in rows if r["winner"] == f) for f in FACTIONS]
    bars = figure(
        x_range=list(FACTIONS),
        width=360,
        height=330,
        title=f"{title}: winners ({n} games)",
        y_axis_label="games won",
        tools="save",
    )
    bars.vbar(x=list(FACTIONS), top=wins, width=0.7, color=[FACTION_COLOURS[f] for f in FACTIONS])
    bars.y_range.start = 0
    xs, ys, colours, seeds = [], [], [], []
    for i, r in enumerate(rows):
        for f in FACTIONS:
            xs.append((f, (i % 9 - 4) * 0.07))
            ys.append(r[f"margin_{f}"])
            colours.append(FACTION_COLOURS[f])
            seeds.append(r.get("seed", i))
    dots = figure(
        x_range=list(FACTIONS),
        width=460,
        height=330,
        title=f"{title}: final margins, one dot per game",
        y_axis_label="margin (marker minus threshold)",
        tools="save",
    )
    src = ColumnDataSource({"x": xs, "y": ys, "colour": colours, "seed": seeds})
    rend = dots.scatter("x", "y", source=src, color="colour", size=6, alpha=0.6)
    dots.add_tools(HoverTool(renderers=[rend], tooltips=[("seed", "@seed"), ("margin", "@y")]))
    dots.add_layout(Span(location=0, dimension="width", line_color="#444", line_dash="dashed"))
    return bokeh_row(bars, dots)
