"""What a side may see and read of a game: its view, its decisions, its log as a table, names for ids, and
the game's text and notebook representations."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from .actions import Action
from .errors import EngineError
from .rulings import Ruling, rulings_html

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


@dataclass
class View:
    """What one side may see: the game's public state with hidden facts masked, and its log."""

    side: str | None
    state: dict[str, Any]
    log: list[Ruling]


class Reports:
    """The part of :class:`~wargames.core.engine.Game` that shows the game to a side (issue #19, #30 item 4)."""

    # ------------------------------------------------------------------ views and reports
    def view(self, side: str | None = None) -> View:
        """What ``side`` may see (None: the umpire's view of everything)."""
        if side is not None and side not in self.sides and side not in self.factions:
            raise EngineError(
                f"unknown side {side!r}; this game's sides are {list(self.sides)}"
                + (f" and its factions {list(self.factions)}" if self.factions else "")
            )
        team = self.visibility_side(side)
        return View(side, self.public_state(side), [r.for_side(team) for r in self.log])

    def visibility_side(self, side: str | None) -> str | None:
        """The side whose knowledge ``side`` shares (games where several players form one side override it)."""
        return side

    #: Whether a side may read the reasons of another side's built-in player (issue #19).  False (the default)
    #: in a game with hidden information, where a bot's reasons tell what the other side may not see (its
    #: face-down units, its feints); a game where everything is open (Fire in the Lake) sets it True.
    open_reasons: ClassVar[bool] = False

    def reason_shown(self, decided_for: str, why: str, side: str | None) -> str | None:
        """A built-in player's reason for a decision of ``decided_for`` as ``side`` may read it, with names for ids
        (``display_text``); None when it is hidden from ``side`` (another side's reason in a game with hidden
        information).  ``side`` None is the umpire, who reads everything.  The stored reason is unchanged."""
        if (
            side is not None
            and not self.open_reasons
            and self.visibility_side(side) != self.visibility_side(decided_for)
        ):
            return None
        return self.display_text(why, side) if why else why

    def decisions(self, side: str | None = None) -> list[dict[str, Any]]:
        """Every decision so far: side, who decided (a bot's class or "person"), the action in words (``action``:
        the game's name for that kind of decision in ``data/<game>/decision_kinds.csv``, else the kind read as
        words, ``change_commander`` -> "Change commander"), its ``kind`` as the engine names it, and, for bots, why.

        ``side`` given: as that side may read them (issue #19): parameters by ``display_name`` (and the ids a value
        holds written out by ``display_text``, issue #31 item 3: ``vc_guerrillas`` -> "VC Guerrillas"), the reason through
        ``reason_shown``; a decision whose reason is hidden from ``side`` shows only its side, who and kind of
        action (no parameters, no reason), so nothing it names can give a hidden counter away."""
        out = []
        words: dict[str, str] = {}
        for e in self.record:
            if "act" in e:
                act = Action.from_json(e["act"])
                if act.kind not in words:
                    words[act.kind] = self.action_words(act.kind)
                row = {
                    "ruling": e["at"][0],
                    "side": e.get("side", ""),
                    "by": e.get("by", ""),
                    "action": words[act.kind],
                    "kind": act.kind,
                    "params": dict(act.params),
                    "why": e.get("why", ""),
                }
                if side is not None:
                    why = self.reason_shown(row["side"], row["why"], side)
                    shown = (
                        {}
                        if why is None
                        else {
                            k: self.display_text(self.display_name(v, side), side)
                            if isinstance(v, str)
                            else v
                            for k, v in row["params"].items()
                        }
                    )
                    row.update(params=shown, why=why or "")
                out.append(row)
        return out

    def action_words(self, kind: str) -> str:
        """A kind of action as a student reads it in a decisions table: the game's name for that kind of decision
        (``decision_kinds.csv``: Year of the Rat's ``deploy`` -> "Setting up units"), else the kind read as words
        with a capital (``change_commander`` -> "Change commander")."""
        from .data import DataError
        from .lesson import kind_name

        try:
            name = kind_name(str(getattr(self, "game_id", "")), kind)
        except (OSError, ValueError, DataError):  # no decision_kinds.csv (a toy game of the tests): as words
            name = kind.replace("_", " ")
        return name[:1].upper() + name[1:]

    def log_frame(self, side: str | None = None) -> pd.DataFrame:
        """The log as a table.  ``side`` given: each ruling as that side may read it (``Ruling.for_side``), its
        title and explanation with names for ids (``display_text``)."""
        import pandas as pd

        if side is not None and side not in self.sides and side not in self.factions:
            raise EngineError(f"unknown side {side!r}; this game's sides are {list(self.sides)}")
        # a faction reads as its side (Tet's NVA as the Communist side): issue #30 item 4
        team = self.visibility_side(side)
        log = self.log if side is None else [r.for_side(team) for r in self.log]
        text = (lambda t: t) if side is None else (lambda t: self.display_text(str(t), side))
        rows = [
            {
                "seq": r.seq,
                "turn": r.turn,
                "phase": r.phase,
                "step": r.step,
                "rule": r.rule_id,
                "title": text(r.title),
                "dice": " ".join(str(d.value) + ("*" if d.forced else "") for d in r.dice),
                "table": f"{r.lookup.table} {r.lookup.row}/{r.lookup.column}={r.lookup.cell}"
                if r.lookup
                else "",
                "result": r.result,
                "explanation": text(r.explanation),
            }
            for r in log
        ]
        return pd.DataFrame(
            rows,
            columns=[
                "seq",
                "turn",
                "phase",
                "step",
                "rule",
                "title",
                "dice",
                "table",
                "result",
                "explanation",
            ],
        )

    def display_name(self, key: str, side: str | None = None) -> str:
        """The name a student reads for an id (an area, hex, space or unit), e.g. Tet's ``"21"`` ->
        ``"Quang Tin (21)"``, as ``side`` may see it (None: the umpire, who sees everything; a game with hidden
        counters names one the viewer may not see neutrally).  The engine and the records keep ids; only what is
        shown uses names.  Default: the id itself; games override it."""
        return key

    def display_text(self, text: str, side: str | None = None) -> str:
        """A prompt, a ruling's text or a bot's reason as ``side`` reads it: ids the game can name replaced by names
        (``display_name``).  Default: unchanged (games whose texts carry raw ids override it)."""
        return text

    def display_label(self, action: Action, side: str | None = None) -> str:
        """``action``'s label as ``side`` reads it: ``display_text`` of the label, then the ids of its places and
        parameters replaced by ``display_name`` (each id once, as a whole word; an id whose name the label already
        holds is left alone)."""
        import re

        label = self.display_text(action.label or action.kind, side)
        keys = {str(p) for p in action.places} | {v for _, v in action.params if isinstance(v, str)}
        names = {}
        for k in keys:
            try:
                n = self.display_name(k, side)
            except (KeyError, LookupError, AttributeError, ValueError):
                continue
            if n and n != k and n not in label:
                names[k] = n
        if not names:
            return label
        pattern = re.compile(
            r"(?<![\w])("
            + "|".join(re.escape(k) for k in sorted(names, key=len, reverse=True))
            + r")(?![\w])"
        )
        return pattern.sub(lambda m: names[m.group(1)], label)

    def where(self) -> str:
        phase = f"phase {self.phase.number} ({self.phase.name})" if self.phase else "-"
        step = f", step {self.step.name}" if self.step else ""
        return f"{self.sequence.turn_name} {self.turn}, {phase}{step}"

    def __repr__(self) -> str:
        status = "over" if self.is_over else (repr(self._pending) if self._pending else "between rulings")
        return f"<{type(self).__name__} {self.scenario_id} seed={self.seed}: {self.where()}; {status}>"

    def _repr_html_(self) -> str:
        import html

        scores = "".join(
            f"<td><b>{html.escape(str(k))}</b> {html.escape(str(v))}</td>" for k, v in self.scores().items()
        )
        dec = (
            (
                f"<b>{html.escape(self._pending.side)}</b> to decide: "
                f"{html.escape(self.display_text(self._pending.prompt))} "
                f"({len(self._pending.options)} legal actions, {self._pending.rule_id})"
            )
            if self._pending
            else ("<b>Game over.</b> " + html.escape(self._result.explanation) if self._result else "")
        )
        return (
            f"<div style='font-family:sans-serif'><h4 style='margin:2px 0'>{html.escape(self.title)} "
            f"&mdash; {html.escape(self.scenario_id)}, seed {self.seed}</h4>"
            f"<div>{html.escape(self.where())}</div><table><tr>{scores}</tr></table><div>{dec}</div>"
            f"<div>{rulings_html(self.log[-3:])}</div></div>"
        )
