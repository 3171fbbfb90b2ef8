"""Fire in the Lake: the 130 cards as a table, and one Event played on its own (issue #7, notebook 06).

* :func:`deck_rows`: every card with its period, kind, faction order, both Event texts (our summaries, FITL-5.2),
  its lasting kind (Capability FITL-5.3, Momentum FITL-5.4, Pivotal FITL-5.1.4, Coup FITL-2.4) and a one-sentence
  history in our own words (``data/fitl/card_history.csv``, each with the reference it rests on).
* :class:`EventRun`: one Event executed from a scenario's set-up, decision by decision, by a person (``choose``)
  or by the Non-players (``auto``, FITL-8.4); the board before and after, and every ruling.  A what-if plays both
  sides of a card from the same position (:func:`what_if`).
* :func:`cards_about` and :func:`event_effect`: the cards about a word, and one Event's effect on the board and
  the victory markers (the comparison notebook, ``notebooks/four-models.ipynb``; moved from the shared
  ``wargames.notebook.compare``, which names no game, issue #29 item 4).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

from ..core import Action, IllegalAction, Ruling
from ..core.actions import Decision
from ..core.data import game_dir
from .data import COIN
from .game import FitlGame

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

HISTORY_FILE = "card_history.csv"


@cache
def load_history() -> dict[int, dict[str, str]]:
    """``data/fitl/card_history.csv``: number -> {title, year, history, reference} (our own sentences)."""
    path = game_dir("fitl") / HISTORY_FILE
    with path.open(newline="", encoding="utf-8") as fh:
        return {int(r["number"]): r for r in csv.DictReader(fh)}


def lasting_kind(entry: dict[str, Any] | None, kind: str) -> str:
    """What kind of card it is to a student: Event, Capability (5.3), Momentum (5.4), Pivotal (5.1.4), Coup (2.4)."""
    if kind in ("coup", "pivotal"):
        return {"coup": "Coup (RVN leader)", "pivotal": "Pivotal Event"}[kind]
    steps = str(entry or {})
    if "'do': 'capability'" in steps:
        return "Capability"
    if "'do': 'momentum'" in steps:
        return "Momentum"
    return "Event"


def deck_rows(game: FitlGame | None = None) -> list[dict[str, Any]]:
    """Every card, numbered 1-130: the table a class browses by year."""
    game = game or FitlGame.unstarted("short", 0)
    hist = load_history()
    rows = []
    for n in range(1, 131):
        card = game.data.cards[n]
        entry = game.event_entry(n) or {}
        h = hist.get(n, {})
        rows.append(
            {
                "number": n,
                "title": card.title,
                "period": card.period or "none",
                "kind": lasting_kind(entry, card.kind),
                "faction order": " ".join(card.order),
                "history": h.get("history", ""),
                "year": h.get("year", ""),
                "unshaded": (entry.get("unshaded") or {}).get("text", ""),
                "shaded": (entry.get("shaded") or {}).get("text", ""),
                "reference": h.get("reference", ""),
            }
        )
    return rows


def executing_faction(game: FitlGame, card: int, side: str) -> str:
    """Who plays a side in a what-if: the first COIN faction on the card for the unshaded text, the first
    insurgent for the shaded one (the defaults of FITL-8.4.2)."""
    order = game.data.cards[card].order
    want_coin = side != "shaded"
    return next((f for f in order if (f in COIN) == want_coin), order[0])


class EventRun:
    """One Event, executed by ``faction`` from the set-up of ``scenario`` (``edit(game)`` may change the position
    first): a stepper over the Event's decisions (FITL-5.1)."""

    def __init__(
        self,
        card: int,
        side: str,
        faction: str | None = None,
        *,
        scenario: str = "medium",
        seed: int = 0,
        edit: Callable[[FitlGame], None] | None = None,
    ):
        self.game = FitlGame.unstarted(scenario, seed)
        if edit is not None:
            edit(self.game)
        self.card, self.side = card, side
        self.faction = faction or executing_faction(self.game, card, side)
        self.game.card = card
        self.before = self.game.board.to_dict()
        self.before_tracks = dict(self.game.board.tracks)
        self.rulings: list[Ruling] = []
        self.reasons: list[dict[str, str]] = []
        self.decision: Decision | None = None
        self._flow = self.game.play_event(card, self.faction, side, pivotal_ok=True)
        self._resume(None)

    @property
    def done(self) -> bool:
        return self._flow is None

    def _resume(self, value: Action | None) -> list[Ruling]:
        new: list[Ruling] = []
        while self._flow is not None:
            try:
                item = self._flow.send(value)
            except StopIteration:
                self._flow, self.decision = None, None
                break
            value = None
            if isinstance(item, Decision):
                self.decision = item
                break
            self.rulings.append(item)
            new.append(item)
        return new

    def options(self) -> list[str]:
        """The labels of the legal choices now (empty when the Event is over)."""
        return [a.label for a in self.decision.options] if self.decision else []

    def choose(self, kind: str | None = None, **params: Any) -> list[Ruling]:
        """A person's choice: the first legal option of ``kind`` whose fields match ``params`` (an Action may be
        given as ``kind``).  An illegal choice raises IllegalAction naming the rule, and nothing changes."""
        if self.decision is None:
            raise IllegalAction(
                "FITL-5.1", f"Card {self.card}: the Event is over; there is nothing to choose"
            )
        if isinstance(kind, Action):
            act = self.decision.find(kind)
            if act is None:
                raise self.decision.reject(kind)
        else:
            act = next(
                (
                    a
                    for a in self.decision.options
                    if (kind is None or a.kind == kind) and all(a.get(k) == v for k, v in params.items())
                ),
                None,
            )
            if act is None:
                raise self.decision.reject(Action.make(kind or "?", **params))
        return self._resume(act)

    def auto(self) -> list[Ruling]:
        """Let the Non-player of each deciding faction answer every remaining question (FITL-8.4); their reasons
        are kept in ``reasons``."""
        from .nonplayer import NonPlayer

        new: list[Ruling] = []
        while self.decision is not None:
            d = self.decision
            bot = NonPlayer(d.side)
            act = bot.choose(self.game, d)
            self.reasons.append(
                {"faction": d.side, "question": d.prompt, "choice": act.label, "why": bot.last_reason}
            )
            new += self._resume(act)
        return new

    def changes(self) -> list[dict[str, Any]]:
        """Every space, box and track that the Event changed."""
        from .analysis import board_changes

        names = {s: sp.name for s, sp in self.game.data.spaces.items()}
        rows = board_changes(self.before, self.game.board.to_dict(), names)
        b0, b1 = self.before, self.game.board.to_dict()
        for what in ("terror", "sabotage"):
            m0 = b0[what] if isinstance(b0[what], dict) else {s: 1 for s in b0[what]}
            m1 = b1[what] if isinstance(b1[what], dict) else {s: 1 for s in b1[what]}
            for s in sorted(set(m0) | set(m1)):
                if m0.get(s, 0) != m1.get(s, 0):
                    rows.append(
                        {
                            "space": names.get(s, s),
                            "change": f"{what} marker {m0.get(s, 0)} -> {m1.get(s, 0)}",
                        }
                    )
        for t, old in self.before_tracks.items():
            new = self.game.board.tracks[t]
            if new != old:
                rows.append({"space": "track", "change": f"{t} {old} -> {new}"})
        return rows


def what_if(
    card: int, *, scenario: str = "medium", seed: int = 0, edit: Callable[[FitlGame], None] | None = None
) -> dict[str, EventRun]:
    """Both sides of ``card`` (those it has) from the same position, each played to its end by the Non-players."""
    out: dict[str, EventRun] = {}
    entry = FitlGame.unstarted(scenario, seed).event_entry(card) or {}
    for side in ("unshaded", "shaded"):
        if side in entry:
            run = EventRun(card, side, scenario=scenario, seed=seed, edit=edit)
            run.auto()
            out[side] = run
    return out


# ---------------------------------------------------------------- for the comparison notebook (four-models)
def cards_about(word: str) -> pd.DataFrame:
    """The cards whose history (``data/fitl/card_history.csv``, our own sentences) names ``word``."""
    import pandas as pd

    deck = pd.DataFrame(deck_rows())
    hit = deck[
        deck["history"].str.contains(rf"\b{re.escape(word)}", case=False, regex=True)
        | deck["title"].str.contains(rf"\b{re.escape(word)}", case=False, regex=True)
    ]
    return hit[["number", "title", "year", "kind", "history"]].reset_index(drop=True)


def event_effect(card: int, faction: str, scenario: str = "medium", seed: int = 0) -> dict[str, Any]:
    """One Event played by ``faction`` from ``scenario``'s set-up, every question answered by the
    Non-players (FITL-8.4): the run, its changes (``pieces``: the spaces whose pieces or support changed; ``terror``:
    how many spaces got a Terror marker, FITL-3.3.4), and the four victory markers before and after
    (FITL-7.2)."""
    import pandas as pd

    from .victory import THRESHOLDS

    before = _markers(scenario, seed)
    run = EventRun(card, "unshaded", faction, scenario=scenario, seed=seed)
    run.auto()
    after = run.game.board.victory()
    markers = pd.DataFrame({"threshold": THRESHOLDS, "before": before, "after": after})
    markers["change"] = markers["after"] - markers["before"]
    changes = pd.DataFrame(run.changes()).fillna("")
    for col in ("pieces", "change"):
        if col not in changes:
            changes[col] = ""
    pieces = changes[changes["pieces"] != ""].drop(columns="change").reset_index(drop=True)
    terror = int(changes["change"].str.startswith("terror").sum())
    return {
        "run": run,
        "changes": changes,
        "pieces": pieces,
        "terror": terror,
        "markers": markers.rename_axis("faction"),
    }


def _markers(scenario: str, seed: int) -> dict[str, int]:
    return FitlGame.unstarted(scenario, seed).board.victory()
