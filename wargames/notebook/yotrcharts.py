"""Year of the Rat's charts, drawn with Bokeh (issue #14: charts live in the notebook kit; the game package
computes the numbers): the victory-point track over the Level of Victory bands, many games' tracks, the levels
reached, the final VP.  The game's own notebook module (shared charts are in :mod:`wargames.notebook.charts`).
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from ..yotr.analysis import level_bands

# one colour per band of the Level of Victory Table, Allied blue to Communist red
LEVEL_COLOURS = ("#1565c0", "#64b5f6", "#bdbdbd", "#ef9a9a", "#e53935", "#8e0000")


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
