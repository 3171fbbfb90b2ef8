"""Charts of whole games and many games, drawn with Bokeh (issue #14: charts live in the notebook kit; the
game packages compute the numbers, never draw them).

Year of the Rat: the victory-point track over the Level of Victory bands, many games' tracks, the levels
reached, the final VP.  Fire in the Lake: the four margins card by card, and winners and margins of many
games.  One colour per faction, the same in every picture of a game.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pandas as pd

from ..fitl.data import FACTIONS
from ..yotr.analysis import level_bands
from .palette import palette

# Year of the Rat: one colour per band of the Level of Victory Table, Allied blue to Communist red
LEVEL_COLOURS = ("#1565c0", "#64b5f6", "#bdbdbd", "#ef9a9a", "#e53935", "#8e0000")
# Fire in the Lake: one colour per faction, the board's (the game's one palette, ``palette.py``)
FACTION_COLOURS: dict[str, str] = {f: c for f, c in palette("fitl").items() if f in FACTIONS}


# ---------------------------------------------------------------------------------- Year of the Rat
def vp_figure(frame: pd.DataFrame, game, *, title: str = "Communist victory points, end of each Game-Turn"):
    """A Bokeh line of ``vp_by_turn`` over the coloured bands of the Level of Victory Table."""
    from bokeh.models import BoxAnnotation, Label
    from bokeh.plotting import figure

    top = max(45, int(frame["vp"].max()) + 5)
    p = figure(
        width=760,
        height=380,
        title=title,
        x_axis_label="Game-Turn",
        y_axis_label="victory points",
        toolbar_location=None,
        x_range=(-0.3, 13.5),
        y_range=(0, top),
    )
    for (_, band), colour in zip(level_bands(game).iterrows(), LEVEL_COLOURS, strict=True):
        low, high = band["low"] - (0 if band["low"] == 0 else 0.5), min(band["high"] + 0.5, top)
        p.add_layout(BoxAnnotation(bottom=low, top=high, fill_color=colour, fill_alpha=0.35))
        p.add_layout(
            Label(
                x=13.45,
                y=(low + high) / 2,
                text=band["level"],
                text_font_size="10px",
                text_align="right",
                text_baseline="middle",
                text_color="#333",
            )
        )
    p.line(frame["turn"], frame["vp"], line_width=3, color="#b71c1c")
    p.scatter(frame["turn"], frame["vp"], size=8, color="#b71c1c")
    p.xaxis.ticker = list(range(0, 14))
    return p


def tracks_figure(games: pd.DataFrame, game, title: str):
    """Every game's VP track (columns ``t1``..``t13`` of :func:`play_games`) as a thin line, the median thick,
    over the bands of the Level of Victory Table (YOTR-VIC-LEVELS)."""
    cols = [f"t{k}" for k in range(1, 14)]
    median = pd.DataFrame({"turn": list(range(0, 14)), "vp": [0] + [float(games[c].median()) for c in cols]})
    p = vp_figure(median, game, title=title)
    for _, g in games.iterrows():
        p.line(list(range(0, 14)), [0] + [int(g[c]) for c in cols], color="#555", alpha=0.35, line_width=1)
    return p


def level_figure(counts: pd.DataFrame, title: str):
    """A Bokeh bar chart of :func:`level_counts`, coloured like the bands of :func:`vp_figure`."""
    from bokeh.plotting import figure

    labels = [lv.replace(" Victory", "").replace("Communist", "Comm.") for lv in counts["level"]]
    p = figure(
        x_range=labels, width=760, height=300, title=title, y_axis_label="games", toolbar_location=None
    )
    p.vbar(x=labels, top=list(counts["games"]), width=0.7, color=list(LEVEL_COLOURS))
    p.y_range.start = 0
    return p


def vp_histogram(vps: Iterable[int], title: str):
    """A Bokeh histogram of final victory points, one bar per VP value."""
    from bokeh.plotting import figure

    s = pd.Series(list(vps)).value_counts().sort_index()
    p = figure(
        width=760,
        height=280,
        title=title,
        x_axis_label="final Communist VP",
        y_axis_label="games",
        toolbar_location=None,
    )
    p.vbar(x=list(s.index), top=list(s.values), width=0.8, color="#b71c1c")
    p.y_range.start = 0
    return p


# ---------------------------------------------------------------------------------- Fire in the Lake
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
#: one colour per winner across the four models (blue: the American side and its allies, red/green: the
#: Communist side, gold: the ARVN of Fire in the Lake, grey: no winner)
WINNER_COLOURS: dict[str, str] = {
    "Allied": "#1565c0",
    "Capitalist": "#1565c0",
    "US": FACTION_COLOURS["US"],
    "ARVN": FACTION_COLOURS["ARVN"],
    "Communist": "#c62828",
    "NVA": FACTION_COLOURS["NVA"],
    "VC": FACTION_COLOURS["VC"],
    "none": "#9e9e9e",
}


def winner_shares_figure(shares: pd.DataFrame, *, title: str = "Who wins, share of games (%)"):
    """One horizontal bar per model (rows of :func:`wargames.notebook.compare.winner_shares`), split by winner."""
    from bokeh.models import ColumnDataSource, HoverTool, Legend
    from bokeh.plotting import figure

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
        winners, y="model", height=0.6, source=src, color=[WINNER_COLOURS.get(w, "#777") for w in winners]
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
