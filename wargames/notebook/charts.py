"""Charts of whole games and many games, drawn with Bokeh (issue #14: charts live in the notebook kit; the
game packages compute the numbers, never draw them).

Rumor of War's two victory tracks and its reinforcement chart, and the four models side by side.  One colour per
faction, the same in every picture of a game.  Year of the Rat's and Fire in the Lake's own charts are in their
notebook modules, :mod:`wargames.notebook.yotrcharts` and :mod:`wargames.notebook.fitlcharts` (issue #29 item 4:
shared code names no game).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..core.presentation import stored_games
from ..core.registry import game_type
from .palette import palette

# ---------------------------------------------------------------------------------- Vietnam: Rumor of War
ROW_COLOURS: dict[str, str] = {
    "US Military Victory": "#1f5fa8",
    "US Unrest": "#b22222",
    "US": "#1f5fa8",
    "ARVN": "#d4a017",
    "Allies": "#7e57c2",
    "PAVN": "#b22222",
    "VC": "#2e7d32",
}


def row_tracks_figure(
    rows: list[dict[str, Any]], *, title: str = "The two victory tracks, end of each season"
):
    """The two victory tracks of Rumor of War (ROW-12.1) season by season (rows of
    ``wargames.row.runs.play_with_tracks``), with the 31-VP line that ends the game."""
    from bokeh.models import Span
    from bokeh.plotting import figure

    labels = [r["label"] for r in rows]
    p = figure(
        x_range=labels,
        width=820,
        height=360,
        title=title,
        y_axis_label="victory points",
        toolbar_location=None,
        y_range=(0, 36),
    )
    for key in ("US Military Victory", "US Unrest"):
        col = "us_military_victory" if key == "US Military Victory" else "us_unrest"
        ys = [r[col] for r in rows]
        p.line(labels, ys, line_width=3, color=ROW_COLOURS[key], legend_label=key)
        p.scatter(labels, ys, size=7, color=ROW_COLOURS[key])
    p.add_layout(Span(location=31, dimension="width", line_color="#333", line_dash="dashed"))
    p.xaxis.major_label_orientation = 0.9
    p.legend.location = "top_left"
    return p


def row_chart_figure(chart: list[dict[str, Any]], *, title: str = "Formations in play by the chart"):
    """The reinforcement and withdrawal chart of a Rumor of War scenario (ROW-13.1, 13.1.3), as the formations
    each force has by the chart alone (rows of ``wargames.row.runs.chart_by_season``)."""
    from bokeh.plotting import figure

    labels = [r["label"] for r in chart]
    p = figure(
        x_range=labels, width=820, height=360, title=title, y_axis_label="formations", toolbar_location=None
    )
    for force in ("US", "ARVN", "Allies", "PAVN"):
        p.line(labels, [r[force] for r in chart], line_width=3, color=ROW_COLOURS[force], legend_label=force)
    p.xaxis.major_label_orientation = 0.9
    p.xaxis.major_label_text_font_size = "8px"
    p.legend.location = "top_right"
    p.y_range.start = 0
    return p


# ---------------------------------------------------------------------------------- four models side by side
#: one colour per winner across the four models (blue: the American side and its allies, red: the Communist side,
#: grey: no winner); a winner not named here (a faction of a game whose factions are its sides, as Fire in the
#: Lake's) has its colour in its own game's palette (:func:`winner_colours`)
WINNER_COLOURS: dict[str, str] = {
    "Allied": "#1565c0",
    "Capitalist": "#1565c0",
    "Communist": "#c62828",
    "none": "#9e9e9e",
}


def winner_colours() -> dict[str, str]:
    """:data:`WINNER_COLOURS`, and every other side of the compared games in its game's palette."""
    out = dict(WINNER_COLOURS)
    for g in stored_games():
        pal = palette(g)
        for side in game_type(g).sides:
            if side in pal:
                out.setdefault(side, pal[side])
    return out


def winner_shares_figure(shares: pd.DataFrame, *, title: str = "Who wins, share of games (%)"):
    """One horizontal bar per model (rows of :func:`wargames.notebook.compare.winner_shares`), split by winner."""
    from bokeh.models import ColumnDataSource, HoverTool, Legend
    from bokeh.plotting import figure

    colours = winner_colours()
    models = list(shares.index)[::-1]
    winners = [w for w in shares.columns if shares[w].sum() > 0]
    src = ColumnDataSource(
        {"model": models, **{w: [float(shares.at[m, w]) for m in models] for w in winners}}
    )
    p = figure(
        y_range=models,
        width=860,
        height=90 + 60 * len(models),
        title=title,
        x_range=(0, 100),
        x_axis_label="% of games",
        toolbar_location=None,
    )
    bars = p.hbar_stack(
        winners, y="model", height=0.6, source=src, color=[colours.get(w, "#777") for w in winners]
    )
    p.add_tools(HoverTool(tooltips=[("model", "@model"), ("winner", "$name"), ("% of games", "@$name")]))
    p.add_layout(
        Legend(items=[(w, [b]) for w, b in zip(winners, bars, strict=True)], title="winner"), "right"
    )
    return p


def spread_figure(panels: list[dict[str, Any]], *, width: int = 420, height: int = 250):
    """A grid of histograms, one per model: each panel is ``{"title", "values", "xlabel", "lines"}`` (``lines``:
    the values where the result changes, drawn dashed)."""
    from bokeh.layouts import gridplot
    from bokeh.models import Span
    from bokeh.plotting import figure

    figs = []
    for panel in panels:
        s = pd.Series(list(panel["values"])).value_counts().sort_index()
        p = figure(
            width=width,
            height=height,
            title=panel["title"],
            x_axis_label=panel["xlabel"],
            y_axis_label="games",
            toolbar_location=None,
        )
        p.vbar(
            x=[float(x) for x in s.index],
            top=[int(v) for v in s.values],
            width=0.8,
            color=panel.get("color", "#546e7a"),
        )
        for x in panel.get("lines", ()):
            p.add_layout(Span(location=x, dimension="height", line_color="#222", line_dash="dashed"))
        p.y_range.start = 0
        figs.append(p)
    return gridplot(figs, ncols=2)


def hidden_figure(totals: pd.DataFrame, *, title: str = "What each side cannot see, at the start of turn 2"):
    """Two bars per model and side (rows of :func:`wargames.notebook.compare.hidden_totals`): hidden entries of
    the state and rulings read only in their public wording."""
    from bokeh.models import ColumnDataSource, HoverTool, Legend
    from bokeh.plotting import figure
    from bokeh.transform import dodge

    kinds = [("state entries hidden", "#6d4c41"), ("rulings masked", "#90a4ae")]
    labels = [f"{m.split(' (')[0]}: {s}" for m, s in zip(totals["model"], totals["side"], strict=True)]
    p = figure(
        y_range=labels[::-1],
        width=860,
        height=80 + 34 * len(labels),
        title=title,
        x_axis_label="count",
        toolbar_location=None,
    )
    items = []
    for k, (kind, colour) in enumerate(kinds):
        counts = list(totals[kind]) if kind in totals else [0] * len(totals)
        src = ColumnDataSource({"y": labels, "v": [int(v) for v in counts], "kind": [kind] * len(labels)})
        r = p.hbar(
            y=dodge("y", 0.2 - 0.4 * k, range=p.y_range), right="v", height=0.38, source=src, color=colour
        )
        items.append((kind, [r]))
    p.add_tools(HoverTool(tooltips=[("", "@y"), ("what", "@kind"), ("count", "@v")]))
    p.add_layout(Legend(items=items), "below")
    p.x_range.start = 0
    return p


def tracks_by_turn_figure(
    frame: pd.DataFrame,
    *,
    title: str,
    levels: dict[str, float] | None = None,
    colours: dict[str, str] | None = None,
    x_label: str = "turn",
):
    """A line per score column of :func:`wargames.notebook.compare.tracks_by_turn` (the scores after each turn),
    with each track's threshold (``levels``) dashed in the same colour."""
    from bokeh.models import Legend, Span
    from bokeh.plotting import figure

    palette = ("#c62828", "#212121", "#2e7d32", "#1565c0", "#6a1b9a", "#ef6c00")
    cols = [c for c in frame.columns if c != "turn"]
    colours = colours or {}
    top = max(
        [float(frame[c].max()) for c in cols] + [float(v) for c, v in (levels or {}).items() if c in cols]
    )
    p = figure(
        width=760,
        height=360,
        title=title,
        x_axis_label=x_label,
        y_axis_label="points",
        toolbar_location=None,
        y_range=(0, top * 1.08 + 1),
    )
    items = []
    for i, c in enumerate(cols):
        colour = colours.get(c, palette[i % len(palette)])
        line = p.line(list(frame["turn"]), list(frame[c]), color=colour, line_width=3)
        p.scatter(list(frame["turn"]), list(frame[c]), color=colour, size=7)
        items.append((c, [line]))
        if levels and c in levels:
            p.add_layout(Span(location=levels[c], dimension="width", line_color=colour, line_dash="dashed"))
    p.add_layout(Legend(items=items), "right")
    p.xaxis.ticker = list(frame["turn"])
    return p
