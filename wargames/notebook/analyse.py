"""The analysis board in a notebook (issue #33 item 2): the chart of a :func:`wargames.analyse` table and the
"Analyse" panel of the play widgets.

* :func:`analysis_figure`: each candidate's outcomes as a Bokeh chart: left, the deciding side's win share with its
  95% interval; right, every replay's margin as a dot and the mean with its 95% interval; the best choice drawn in
  gold and marked with a star.  Plain ``{column: list}`` sources (stack-probe pitfall 6).
* :class:`AnalysisBoard`: rollouts and horizon, an Analyse button (the analysis runs in a background thread, so the
  page stays live and Cancel works), a progress bar, the chart, one sentence per candidate and a pick list: a
  click on a candidate's bar, or the list, selects it; "Play this choice" hands it to ``on_pick``.
"""

from __future__ import annotations

import html
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as W

from ..core.actions import WargamesError
from ..core.analysis import AnalysisCancelled, Candidate, analyse, as_candidates, horizon_words

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

BEST = "#c9a227"  # gold: the best choice
OTHER = "#3b6e9e"  # blue: the other choices
DOT = "#6b6b6b"
LABEL_CHARS = 46
STAR = "\u2605 "


def short(name: str, n: int = LABEL_CHARS) -> str:
    """A candidate's name cut to fit the chart's axis (the sentences below the chart give it in full)."""
    return name if len(name) <= n else name[: n - 1].rstrip() + "\u2026"


def chart_labels(frame: pd.DataFrame) -> list[str]:
    """The chart's row labels: numbered (two long names may cut alike), the best starred."""
    return [
        f"{STAR if b else ''}{k + 1}. {short(str(c))}"
        for k, (c, b) in enumerate(zip(frame["candidate"], frame["best"], strict=True))
    ]


def analysis_figure(frame: pd.DataFrame, *, width: int = 960, row_height: int = 34):
    """The candidates' outcomes (see the module docstring); returns a Bokeh layout whose left figure is
    ``layout.children[0]`` (its bars are clickable, ``name="share"``)."""
    from bokeh.layouts import row
    from bokeh.models import ColumnDataSource, HoverTool, Range1d, TapTool
    from bokeh.plotting import figure

    side = frame.attrs.get("side", "")
    labels = chart_labels(frame)
    order = labels[::-1]  # first candidate at the top
    n = len(labels)
    height = 90 + row_height * n
    win = frame[f"win_{side}"] if f"win_{side}" in frame else frame["draw"] * 0
    lo = frame[f"win_{side}_lo"] if f"win_{side}_lo" in frame else win
    hi = frame[f"win_{side}_hi"] if f"win_{side}_hi" in frame else win
    colours = [BEST if b else OTHER for b in frame["best"]]
    share = ColumnDataSource(
        {
            "y": labels,
            "name": [str(c) for c in frame["candidate"]],
            "win": [100 * float(x) for x in win],
            "lo": [100 * float(x) for x in lo],
            "hi": [100 * float(x) for x in hi],
            "colour": colours,
            "sentence": list(frame["sentence"]),
            "text": [f"{100 * float(w):.0f}%" for w in win],
            "text_x": [min(100 * float(h) + 2, 88) for h in hi],
        }
    )
    left = figure(
        y_range=order,
        x_range=Range1d(0, 100),
        width=int(width * 0.56),
        height=height,
        title=f"{side} {'wins' if frame.attrs.get('horizon') == 'end' else 'ahead'}, % of replays",
        toolbar_location=None,
        tools="",
    )
    bars = left.hbar(
        y="y", right="win", height=0.6, source=share, fill_color="colour", line_color=None, name="share"
    )
    left.segment(x0="lo", x1="hi", y0="y", y1="y", source=share, line_color="black", line_width=2)
    left.scatter(x="lo", y="y", source=share, marker="dash", size=12, angle=1.5708, color="black")
    left.scatter(x="hi", y="y", source=share, marker="dash", size=12, angle=1.5708, color="black")
    left.text(
        x="text_x",
        y="y",
        text="text",
        source=share,
        text_font_size="12px",
        text_baseline="middle",
        color="#333",
    )
    left.add_tools(TapTool(renderers=[bars]), HoverTool(renderers=[bars], tooltips="@sentence"))
    ended = frame.attrs.get("horizon") == "end"
    left.xaxis.axis_label = (
        "% of replays won" if ended else "% of replays ahead at the horizon"
    ) + " (95% interval)"
    left.yaxis.major_label_text_font_size = "12px"
    left.title.text_font_size = "13px"

    margins = frame.attrs.get("margins", {})
    xs, ys = [], []
    for label, name in zip(labels, frame["candidate"], strict=True):
        values = margins.get(name, [])
        for k, v in enumerate(values):
            xs.append(float(v))
            ys.append((label, -0.25 + 0.5 * ((k * 0.618) % 1.0)))  # a fixed jitter: the same chart every time
    dots = ColumnDataSource({"x": xs, "y": ys})
    means = ColumnDataSource(
        {
            "y": labels,
            "mean": [float(x) for x in frame["margin_mean"]],
            "lo": [float(x) for x in frame["margin_lo"]],
            "hi": [float(x) for x in frame["margin_hi"]],
            "colour": colours,
        }
    )
    right = figure(
        y_range=left.y_range,
        width=width - int(width * 0.56),
        height=height,
        title=str(frame.attrs.get("number", "margin")),
        toolbar_location=None,
        tools="",
    )
    right.scatter(x="x", y="y", source=dots, size=5, color=DOT, alpha=0.35)
    right.segment(x0="lo", x1="hi", y0="y", y1="y", source=means, line_color="black", line_width=3)
    right.scatter(x="mean", y="y", source=means, size=12, fill_color="colour", line_color="black")
    right.yaxis.visible = False
    right.xaxis.axis_label = f"{side} margin: a dot a replay, the bar the mean (95% interval)"
    right.title.text_font_size = "13px"
    return row(left, right)


class AnalysisBoard:
    """The "Analyse" panel for ``game``'s pending decision (see the module docstring).

    ``on_pick(candidate)`` is called with the :class:`~wargames.core.analysis.Candidate` the student chooses to
    play; ``workers`` > 1 runs the replays in local processes."""

    HORIZONS = (
        ("to the end of this turn", "turn"),
        ("to the end of this phase", "phase"),
        ("to the end", "end"),
    )

    def __init__(
        self,
        game,
        *,
        rollouts: int = 20,
        horizon: str = "turn",
        top: int = 8,
        workers: int = 1,
        seed: int = 0,
        on_pick: Callable[[Candidate], Any] | None = None,
        width: int = 960,
    ):
        self.game = game
        self.top, self.workers, self.seed, self.width = top, workers, seed, width
        self.on_pick = on_pick
        self.frame: pd.DataFrame | None = None
        self.candidates: list[Candidate] = []
        self._thread: threading.Thread | None = None
        self._position = game
        self._cancel = threading.Event()
        style = {"description_width": "auto"}
        turn = (game.sequence.turn_name or "turn").lower()
        self.rollouts = W.BoundedIntText(
            value=rollouts,
            min=1,
            max=2000,
            description="Replays each",
            style=style,
            layout=W.Layout(width="160px"),
        )
        self.horizon = W.Dropdown(
            options=[(label.replace("turn", turn), h) for label, h in self.HORIZONS],
            value=horizon,
            description="Play",
            style=style,
            layout=W.Layout(width="260px"),
        )
        self.run_button = W.Button(
            description="Analyse", icon="line-chart", button_style="info", layout=W.Layout(width="auto")
        )
        self.cancel_button = W.Button(
            description="Cancel", icon="stop", layout=W.Layout(width="auto"), disabled=True
        )
        self.run_button.on_click(lambda _b: self.start())
        self.cancel_button.on_click(lambda _b: self.cancel())
        self.bar = W.IntProgress(value=0, min=0, max=1, layout=W.Layout(width="220px", visibility="hidden"))
        self.status = W.HTML()
        self.chart = W.Box(layout=W.Layout(width="100%"))
        self.sentences = W.HTML()
        self.pick = W.Dropdown(options=[], description="Choice", style=style, layout=W.Layout(width="520px"))
        self.play_button = W.Button(
            description="Play this choice",
            icon="check",
            button_style="success",
            layout=W.Layout(width="auto"),
        )
        self.play_button.on_click(lambda _b: self.play_pick())
        self.pick_bar = W.HBox([self.pick, self.play_button], layout=W.Layout(display="none"))
        controls = W.HBox(
            [self.rollouts, self.horizon, self.run_button, self.cancel_button, self.bar],
            layout=W.Layout(flex_flow="row wrap", align_items="center"),
        )
        self.widget = W.VBox(
            [controls, self.status, self.chart, self.sentences, self.pick_bar],
            layout=W.Layout(border="1px solid #9db7d0", padding="4px", margin="6px 0"),
        )
        self.status.value = self._intro()

    def _intro(self) -> str:
        d = self.game.decision
        if d is None:
            return _note("Nothing to analyse: no decision is pending.")
        return _note(
            f"What if? Each choice for <b>{html.escape(d.side)}</b> is played many times by the built-in players "
            "from this position (the replays know every hidden counter; the bots are only a model of how people "
            "play). Up to "
            f"{self.top} choices are compared; press Analyse."
        )

    # ------------------------------------------------------------------ running
    def start(self, wait: bool = False) -> None:
        """Run the analysis in a background thread (``wait``: in this thread, e.g. in a test)."""
        if self._thread is not None and self._thread.is_alive():
            return
        g = self.game
        if g.decision is None or g.is_over:
            self.status.value = _note("Nothing to analyse: no decision is pending.", "#b00020")
            return
        try:
            self.candidates = as_candidates(g, None, self.top)
        except WargamesError as err:
            self.status.value = _note(f"Cannot analyse: {err}", "#b00020")
            return
        self._cancel.clear()
        # the position copied here, in the kernel's own thread: a click on the game while the replays run in the
        # background cannot change what they start from
        self._position = g.branch()
        total = len(self.candidates) * int(self.rollouts.value)
        self.bar.max, self.bar.value, self.bar.bar_style = total, 0, ""
        self.bar.layout.visibility = "visible"
        self.run_button.disabled, self.cancel_button.disabled = True, False
        self.status.value = _note(
            f"Playing {len(self.candidates)} choices \u00d7 {self.rollouts.value} replays "
            f"{horizon_words(self.horizon.value, g)}\u2026"
        )
        if wait:
            self._run()
        else:
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()

    def _run(self) -> None:
        try:
            frame = analyse(
                self._position,
                self.candidates,
                rollouts=int(self.rollouts.value),
                horizon=self.horizon.value,
                seed=self.seed,
                workers=self.workers,
                progress=self._progress,
                cancel=self._cancel,
            )
        except AnalysisCancelled as err:
            self.status.value = _note(f"Stopped: {err}. Nothing was changed.", "#8a5a00")
        except WargamesError as err:
            self.status.value = _note(f"The analysis stopped: {err}", "#b00020")
        else:
            self.show(frame)
        finally:
            self.run_button.disabled, self.cancel_button.disabled = False, True
            self.bar.layout.visibility = "hidden"

    def _progress(self, done: int, total: int) -> None:
        self.bar.max, self.bar.value = max(1, total), done

    def cancel(self) -> None:
        """Stop the running analysis between replays."""
        self._cancel.set()

    def wait(self, timeout: float | None = None) -> None:
        """Wait for a running analysis to finish (tests, scripts)."""
        if self._thread is not None:
            self._thread.join(timeout)

    # ------------------------------------------------------------------ showing and picking
    def show(self, frame: pd.DataFrame) -> None:
        """The chart, the sentences (best first) and the pick list for an analysis table."""
        from jupyter_bokeh import BokehModel

        self.frame = frame
        layout = analysis_figure(frame, width=self.width)
        left = layout.children[0]
        source = left.select_one({"name": "share"}).data_source
        source.selected.on_change("indices", lambda _a, _o, new: self._tapped(new))
        self.chart.children = [BokehModel(layout)]
        side = frame.attrs.get("side", "")
        n = frame.attrs.get("rollouts", 0)
        rows = "".join(
            f"<li style='margin:2px 0;{'font-weight:bold' if b else ''}'>{STAR if b else ''}{k + 1}. "
            f"{html.escape(s)}</li>"
            for k, (b, s) in enumerate(zip(frame["best"], frame["sentence"], strict=True))
        )
        self.sentences.value = (
            '<div style="font:13px sans-serif">'
            f"<ol style='list-style:none;margin:4px 0;padding:0'>{rows}</ol>"
            f"<div style='color:#555'>{n} replays per choice, the same dice for every choice, played by the "
            f"built-in players {html.escape(horizon_words(frame.attrs.get('horizon', 'end'), self.game))}. "
            f"The interval is where the {html.escape(side)} win share would most likely fall with many more "
            "replays; the model knows every hidden counter and plays like the bots, not like people.</div></div>"
        )
        self.pick.options = [(f"{k + 1}. {c}", k) for k, c in enumerate(frame["candidate"])]
        self.pick.value = int(frame.index[frame["best"]][0])
        self.pick_bar.layout.display = "flex" if self.on_pick is not None else "none"
        best = frame.loc[frame["best"], "candidate"].iloc[0]
        self.status.value = _note(
            f"Done. The best of these choices by this model: <b>{html.escape(str(best))}</b>."
        )

    def _tapped(self, indices: list[int]) -> None:
        if indices:
            self.pick.value = int(indices[0])

    def play_pick(self) -> Candidate | None:
        """Hand the chosen candidate to ``on_pick`` (if it is still legal here)."""
        if self.frame is None or self.pick.value is None:
            return None
        cand = self.candidates[int(self.pick.value)]
        if self.on_pick is not None:
            self.on_pick(cand)
        self.pick_bar.layout.display = "none"
        return cand

    def _repr_mimebundle_(self, **kw):
        return self.widget._repr_mimebundle_(**kw)


def _note(text: str, colour: str = "#1e4f7a") -> str:
    return f'<div style="font:13px sans-serif;color:{colour};margin:2px 0">{text}</div>'


def show_analysis(game, **kw: Any) -> AnalysisBoard:
    """An analysis board for ``game`` already run (in this cell): for lesson notebooks."""
    board = AnalysisBoard(game, **kw)
    board.start(wait=True)
    return board
