"""The teacher's view of the class (issue #32 item 4), read from the class store the apps save into.

``ClassDashboard()`` (a widget; ``notebooks/teacher/class-dashboard.ipynb`` shows it, in JupyterLab or as a Voila
page the teacher alone opens) lists who plays which side of which game and where each game stands, sets the class's
results beside the built-in players' stored Monte Carlo runs and beside what happened in history
(``data/classroom/history.csv``), and opens any student's game as a replay with its rulings (the umpire's view:
step, jump to a turn, Back).  The store is only read, except the "shared" mark a teacher sets on a game.

Students never see this page: a class server (``python -m wargames.notebook.app tet --class 30``) serves one app
and nothing else, and a student's game is keyed by an opaque token only the student's page holds (a name is only
a label).  A game the teacher marks "shared with the class" is listed in the students' apps (Games your teacher
shared) and opens there as a replay; until then no student can open it (``GameStore.open_shared``).
"""

from __future__ import annotations

import csv
import html
import time
from typing import Any

import ipywidgets as W
import pandas as pd

from ..core.registry import game_type
from ..store import GameStore, StoredGame
from .app import _apps
from .widgets import Walkthrough, _msg

#: the games with a classroom app, in their declared order (``wargames.notebook.app.APPS``)
APPS = _apps()


def history() -> pd.DataFrame:
    """What happened in history, per game and scenario, in each game's own terms (``data/classroom/history.csv``,
    our own words, every row with its source)."""
    from ..core.data import data_root

    with open(data_root() / "classroom" / "history.csv", encoding="utf-8", newline="") as f:
        return pd.DataFrame(list(csv.DictReader(f)))


def who(row: StoredGame) -> str:
    """The student as the teacher reads it: the name given, else an anonymous token's first characters."""
    if row.name:
        return row.name
    if row.student.startswith(("name:", "hub:")):
        return row.student.split(":", 1)[1]
    return f"anonymous ({row.student.removeprefix('token:')[:6]}...)"


def _ago(seconds: float) -> str:
    s = max(0, int(seconds))
    return f"{s} s ago" if s < 90 else f"{s // 60} min ago" if s < 5400 else f"{s // 3600} h ago"


def class_table(store: GameStore, app: str | None = None, now: float | None = None) -> pd.DataFrame:
    """One row per stored game: student, game, scenario, side, the student's decisions, turn, where it stands,
    the result, shared, last saved."""
    now = time.time() if now is None else now
    rows = [
        {
            "student": who(r),
            "game": game_type(r.app).title,
            "scenario": r.label or r.scenario,
            "side": r.side,
            "decisions": r.decisions,
            "turn": r.turn,
            "where": r.where,
            "result": r.result if r.over else "playing",
            "shared": "yes" if r.shared else "",
            "saved": _ago(now - r.updated),
        }
        for r in store.rows(app)
    ]
    cols = ["student", "game", "scenario", "side", "decisions", "turn", "where", "result", "shared", "saved"]
    return pd.DataFrame(rows, columns=cols)


def results_table(store: GameStore, app: str) -> pd.DataFrame:
    """The class's finished games of ``app`` (in the scenario of the stored Monte Carlo run) beside the built-in
    players' stored run (``benchmarks/results``) and history: one row per outcome, shares in percent."""
    from .compare import normalise, stored_run, stored_run_of

    run = stored_run_of(app)
    done = [r for r in store.rows(app) if r.over and r.scenario == run.scenario]
    bots = normalise(stored_run(app))["winner"].value_counts(normalize=True) * 100
    hist = history()
    hist = hist[(hist.game == app) & (hist.scenario == run.scenario)]
    truth = hist.winner.iloc[0] if len(hist) else None
    mine = pd.Series([r.winner or "none" for r in done], dtype=object).value_counts(normalize=True) * 100
    outcomes = list(dict.fromkeys([*bots.index, *mine.index, *([truth] if truth else [])]))
    rows = [
        {
            "winner": o,
            f"class ({len(done)} finished)": round(float(mine.get(o, 0.0)), 1) if done else float("nan"),
            f"built-in players ({len(stored_run(app))} games)": round(float(bots.get(o, 0.0)), 1),
            "history": "this" if o == truth else "",
        }
        for o in outcomes
    ]
    return pd.DataFrame(rows)


def open_replay(store: GameStore, student: str, app: str) -> Walkthrough:
    """A student's stored game replayed through the rules to where it stands, in the umpire's view with every
    ruling (step, jump to a turn, Back)."""
    return Walkthrough(store.open(student, app), map_height=600)


def _frame_html(frame: pd.DataFrame) -> str:
    if frame.empty:
        return _msg("No game is stored yet: the students' games appear here after their first decision.")
    return frame.to_html(index=False, escape=True, na_rep="-", border=0, classes="wg-class-table")


_STYLE = (
    "<style>.wg-class-table{border-collapse:collapse;font:13px sans-serif}"
    ".wg-class-table th,.wg-class-table td{border-bottom:1px solid #ddd;padding:3px 8px;text-align:left}"
    ".wg-class-table th{background:#f2f2f2}</style>"
)


class ClassDashboard:
    """The teacher's page: the class table, the results beside the built-in players and history, and a replay of
    any student's game (with a "share with the class" mark)."""

    def __init__(self, store: GameStore | None = None, app: str | None = None):
        self.store = store if store is not None else GameStore()
        self.app_box = W.Dropdown(
            options=[("every game", "")] + [(game_type(a).title, a) for a in APPS],
            value=app or "",
            description="Game",
            style={"description_width": "auto"},
        )
        self.refresh_button = W.Button(description="Refresh", button_style="primary", icon="refresh")
        self.table = W.HTML()
        self.results = W.HTML()
        self.pick = W.Dropdown(description="Student's game", style={"description_width": "auto"})
        self.pick.layout.width = "460px"
        self.open_button = W.Button(description="Open as a replay", icon="play")
        self.share_box = W.Checkbox(description="shared with the class", indent=False)
        self.message = W.HTML()
        self.replay = W.Box(layout=W.Layout(width="100%"))
        self.walk: Walkthrough | None = None
        self.refresh_button.on_click(lambda _b: self.refresh())
        self.app_box.observe(lambda _c: self.refresh(), names="value")
        self.open_button.on_click(lambda _b: self.open_selected())
        self.share_box.observe(self._share, names="value")
        self.pick.observe(lambda _c: self._show_shared(), names="value")
        self.widget = W.VBox(
            [
                W.HBox([self.app_box, self.refresh_button]),
                W.HTML("<h3 style='font-family:sans-serif'>The class</h3>"),
                self.table,
                W.HTML(
                    "<h3 style='font-family:sans-serif'>Results beside the built-in players and history</h3>"
                ),
                self.results,
                W.HTML("<h3 style='font-family:sans-serif'>A student's game</h3>"),
                W.HBox([self.pick, self.open_button, self.share_box]),
                self.message,
                self.replay,
            ]
        )
        self.refresh()

    def refresh(self) -> None:
        """Read the store again."""
        app = self.app_box.value or None
        self.rows = self.store.rows(app)
        self.table.value = _STYLE + _frame_html(class_table(self.store, app))
        parts = []
        for a in [app] if app else sorted({r.app for r in self.rows}):
            hist = history()
            said = hist[(hist.game == a)]
            note = (
                f"<p style='font:13px sans-serif'>In history: {html.escape(said.what_happened.iloc[0])}</p>"
                if len(said)
                else ""
            )
            parts.append(
                f"<h4 style='font-family:sans-serif'>{html.escape(game_type(a).title)}</h4>"
                + _frame_html(results_table(self.store, a))
                + note
            )
        self.results.value = _STYLE + ("".join(parts) or _msg("No game is stored yet."))
        keep = self.pick.value
        self.pick.options = [
            (f"{who(r)}: {game_type(r.app).title}, {r.side}, {r.where[:60]}", (r.student, r.app))
            for r in self.rows
        ]
        values = [v for _l, v in self.pick.options]
        if values:
            self.pick.value = keep if keep in values else values[0]
        self._show_shared()

    def _show_shared(self) -> None:
        row = next((r for r in self.rows if (r.student, r.app) == self.pick.value), None)
        self._quiet = True
        self.share_box.value = bool(row and row.shared)
        self._quiet = False

    def _share(self, change: dict[str, Any]) -> None:
        if getattr(self, "_quiet", False) or self.pick.value is None:
            return
        student, app = self.pick.value
        self.store.share(student, app, bool(change["new"]))
        self.refresh()  # the table's "shared" column follows at once
        self.message.value = _msg(
            "Shared with the class: the students' apps list it under Games your teacher shared."
            if change["new"]
            else "No longer shared: no student can open it now."
        )

    def open_selected(self) -> Walkthrough | None:
        """Open the selected student's game as a replay."""
        if self.pick.value is None:
            self.message.value = _msg("Choose a student's game first.", "#b00020")
            return None
        student, app = self.pick.value
        try:
            self.walk = open_replay(self.store, student, app)
        except Exception as err:  # a save that no longer replays: say which and why
            self.message.value = _msg(f"That game cannot be replayed: {err}", "#b00020")
            return None
        self.message.value = _msg(
            "The replay is at the decision the student saved last; step back with Jump to turn or Back, "
            "forward with the buttons (the built-in players then play the student's side too)."
        )
        self.replay.children = [self.walk.widget]
        return self.walk

    def _repr_mimebundle_(self, **kw):
        return self.widget._repr_mimebundle_(**kw)
