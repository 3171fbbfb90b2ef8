"""Rulings: the unit of explanation.

Every thing the engine decides (a move, a die roll read on a table, a score change) is recorded as a
:class:`Ruling` value.  Tests assert on rulings, notebooks render them, the command line prints them.
The explanation is generated from the same numbers the engine used, never written separately.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from .data import rule_ref as _rule_ref


@dataclass(frozen=True, slots=True)
class Roll:
    """One die roll: its value, the die size, what it was for, and whether it was forced (what-if)."""

    value: int
    sides: int = 6
    purpose: str = ""
    forced: bool = False

    def __str__(self) -> str:
        tag = " (forced)" if self.forced else ""
        return f"d{self.sides}={self.value}{tag}"


@dataclass(frozen=True, slots=True)
class Lookup:
    """A table cell read by a ruling.  ``reconstructed`` says the table is ours, not the publisher's."""

    table: str
    row: str
    column: str
    cell: str
    reconstructed: bool = False
    source: str = ""

    def __str__(self) -> str:
        note = f" - reconstructed, see {self.source}" if self.reconstructed else ""
        return f"{self.table} row {self.row}, column {self.column} -> {self.cell}{note}"


#: how :meth:`Ruling.of` makes each container field a plain value of the ruling
_PLAIN: dict[str, Callable[[Any], Any]] = {
    "inputs": lambda v: dict(v or {}),
    "dice": tuple,
    "changes": lambda cs: tuple(dict(c) for c in cs),
    "hidden_from": tuple,
    "places": tuple,
}


@dataclass(frozen=True, slots=True)
class Ruling:
    """One explained application of one rule.

    ``rule_id`` is the stable id of the rule (e.g. ``TET-P5-2``), ``rule_ref`` where it is in the
    rules text (e.g. ``summary line 51``).  ``inputs`` are the numbers that went in, ``dice`` the rolls,
    ``lookup`` the table cell if one was read, ``result`` a short machine-readable outcome and
    ``changes`` the state changes it caused.  ``public`` is the explanation shown to a side that may
    not see hidden units (``hidden_from``), ``public_title`` the title it sees (the real title may
    name a hidden unit, so every ruling that does sets a neutral one for the side that may not see it).
    ``secret_changes``: the engine added journalled changes (``{"field": ...}``, :mod:`.journal`) in a game
    with hidden information; they may name hidden units, so in a ruling hidden from no side (a public one) only
    the umpire reads them (``for_side``); a ruling hidden from some sides is read in full by the others.
    """

    rule_id: str
    title: str
    explanation: str
    result: Any = None
    inputs: dict[str, Any] = field(default_factory=dict)
    dice: tuple[Roll, ...] = ()
    lookup: Lookup | None = None
    changes: tuple[dict[str, Any], ...] = ()
    rule_ref: str = ""
    side: str = ""
    hidden_from: tuple[str, ...] = ()
    public: str = ""
    public_title: str = ""
    places: tuple[str, ...] = ()
    seq: int = 0
    turn: int = 0
    phase: str = ""
    step: str = ""
    secret_changes: bool = False

    @classmethod
    def of(cls, rule_id: str, title: str, explanation: str, **fields: Any) -> Ruling:
        """A ruling from plain arguments: ``inputs`` and every change copied into a dict, the rolls, changes, hidden
        sides and places made tuples (any iterable may be given); the other fields as given (``result``,
        ``lookup``, ``rule_ref``, ``side``, ``seq`` ...).  The one way :meth:`Game.ruling
        <wargames.core.engine.Game.ruling>` and a game's own ruling helpers build a ruling."""
        for name, make in _PLAIN.items():
            if name in fields:
                fields[name] = make(fields[name])
        return cls(rule_id=rule_id, title=title, explanation=explanation, **fields)

    # -- renderings -------------------------------------------------------------------------------
    @property
    def reconstructed(self) -> bool:
        return bool(self.lookup and self.lookup.reconstructed)

    def for_side(self, side: str | None) -> Ruling:
        """The ruling as ``side`` may read it (hidden facts replaced by the public wording)."""
        if side is None:
            return self
        if side not in self.hidden_from:
            if (
                not self.secret_changes or self.hidden_from
            ):  # a side the ruling hides nothing from reads it all
                return self
            return replace(
                self, changes=tuple(c for c in self.changes if "field" not in c), secret_changes=False
            )
        return Ruling(
            rule_id=self.rule_id,
            title=self.public_title or self.title,
            explanation=self.public or "(hidden)",
            result=None,
            rule_ref=self.rule_ref,
            side=self.side,
            places=self.places,
            seq=self.seq,
            turn=self.turn,
            phase=self.phase,
            step=self.step,
        )

    def header(self) -> str:
        where = f"T{self.turn} {self.phase}" if self.phase else f"T{self.turn}"
        return f"#{self.seq} [{self.rule_id}] {self.title} ({where})"

    def to_text(self) -> str:
        lines = [self.header(), f"  {self.explanation}"]
        if self.dice:
            lines.append("  dice: " + ", ".join(str(d) for d in self.dice))
        if self.lookup:
            lines.append(f"  table: {self.lookup}")
        return "\n".join(lines)

    __str__ = to_text

    def _repr_html_(self) -> str:
        return rulings_html([self])

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["dice"] = [asdict(r) for r in self.dice]
        d["changes"] = list(self.changes)
        return d


def indexed_ruling(
    game: str, rule_id: str, title: str, explanation: str, result: Any = None, **fields: Any
) -> Ruling:
    """A ruling made outside a game's steps (by a rules function that has no game at hand), its ``rule_ref`` read
    from ``game``'s rules index (:func:`wargames.core.data.rule_ref`); ``fields``: the other fields, as given."""
    return Ruling(
        rule_id=rule_id,
        title=title,
        explanation=explanation,
        result=result,
        rule_ref=_rule_ref(game, rule_id),
        **fields,
    )


def _cell(x: Any) -> str:
    return html.escape(str(x))


def change_text(change: Mapping[str, Any]) -> str:
    """One entry of a ruling's ``changes`` in a line: ``loc: unit vc_3, 11 → 12``, ``face_up: unit vc_3 → True``
    (the field first when the journal names it, then the keys, then the move ``from → to``)."""
    c = dict(change)
    field_name = c.pop("field", None)
    has_from, has_to = "from" in c, "to" in c
    frm, to = c.pop("from", None), c.pop("to", None)
    removed = c.pop("removed", False)
    flag = c.pop(field_name) if field_name and field_name in c else None  # a flag: set or cleared
    parts = [f"{k} {v}" for k, v in c.items()]
    if flag is not None:
        parts[-1:] = [f"{parts[-1] if parts else ''} → {flag}".strip()]
    if has_from or has_to or removed:
        move = f"{frm if has_from else ''} → {to if has_to else 'removed'}".strip()
        parts.append(move)
    line = ", ".join(parts)
    return f"{field_name}: {line}" if field_name else line


def _plain_value(value: Any) -> Any:
    """A value of a change as a person writes it: a list or set as its items joined by commas (``Ammo Out, OOC``,
    not ``['Ammo Out', 'OOC']``), a mapping as ``key value`` pairs, an empty one as "none"; anything else as it is."""
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_plain_value(v)}" for k, v in value.items()) or "none"
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=str) if isinstance(value, (set, frozenset)) else value
        return ", ".join(str(_plain_value(v)) for v in items) or "none"
    return value


def change_line(change: Mapping[str, Any], text: Callable[[str], str] = str) -> str:
    """One entry of a ruling's ``changes`` as a student reads it on a ruling card (issue #31 item 3): ``change_text``
    (its lists and mappings written out, ``_plain_value``) through ``text`` (the game's ``display_text``: names for
    the ids it holds as values, ``chu_lai`` -> Chu Lai),
    then the change's own field names that are still there as words (``face_up`` -> "face up", ``to_box`` -> "to
    box": the names of the record's fields, not ids of the game's things)."""
    line = text(change_text({k: _plain_value(v) for k, v in change.items()}))
    keys = [str(k) for k in change if "_" in str(k)]
    field_name = change.get("field")
    if isinstance(field_name, str) and "_" in field_name:
        keys.append(field_name)
    if not keys:
        return line
    pattern = re.compile(
        r"(?<![\w])("
        + "|".join(re.escape(k) for k in sorted(set(keys), key=len, reverse=True))
        + r")(?![\w])"
    )
    return pattern.sub(lambda m: m.group(1).replace("_", " "), line)


CHANGES_SHOWN = 40  # a set-up ruling places every unit: the rest are counted, not listed


def changes_html(r: Ruling, text: Callable[[str], str] = str) -> str:
    """A ruling's ``changes``, folded (an HTML ``<details>``: the summary says how many), each through ``text``
    (the game's ``display_text``: names for ids); empty when it changed nothing."""
    if not r.changes:
        return ""
    lines = [html.escape(change_line(c, text)) for c in r.changes[:CHANGES_SHOWN]]
    if len(r.changes) > CHANGES_SHOWN:
        lines.append(f"... and {len(r.changes) - CHANGES_SHOWN} more")
    n = len(r.changes)
    return (
        f'<details style="color:#555;font-size:12px"><summary>{n} change{"s" if n != 1 else ""}</summary>'
        + "<br>".join(lines)
        + "</details>"
    )


#: a snake_case word left in an input's value once the game's names are in (not part of a path or a file name)
_SNAKE_VALUE = re.compile(r"(?<![\w/.@-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b(?!\.\w)")


def input_text(value: Any, text: Callable[[str], str] = str) -> str:
    """One input of a ruling as the "Details" card shows it: a list or mapping written out (``_plain_value``), then
    through ``text`` (the game's ``display_text``: a unit, place, leader, aircraft or marker by its name), and a
    value that is a kind of thing rather than a thing (``meeting_engagement``, ``loss_point``) read as words
    ("meeting engagement"); a data file's path (``data/row/tables/snafu_cup.csv``) stays as it is."""
    return _SNAKE_VALUE.sub(lambda m: m.group(0).replace("_", " "), text(str(_plain_value(value))))


def ruling_html(r: Ruling, text: Callable[[str], str] = str) -> str:
    """One ruling as an HTML card: rule id, title, explanation, inputs, dice and table cell, and its changes
    folded.  ``text`` (the game's ``display_text``) puts names for the ids in the title, the explanation, the
    changes and the inputs' values (``why=OOC arvn_rf_quang_tri`` reads "why=OOC Regional Forces, Quang Tri"; the
    inputs' own names stay, as the rule names them)."""
    bits = [
        '<div class="wg-ruling" style="border-left:4px solid #8a6d3b;padding:4px 8px;margin:4px 0;'
        'background:#fbf8f1;font-family:sans-serif;font-size:13px">',
        f'<div><b style="color:#5a3e1b">{_cell(r.rule_id)}</b> &middot; <b>{_cell(text(str(r.title)))}</b>'
        f' <span style="color:#888">#{r.seq}, turn {r.turn}, {_cell(r.phase)}</span></div>',
        f"<div>{_cell(text(str(r.explanation)))}</div>",
    ]
    facts = []
    if r.inputs:
        facts.append(
            "inputs: " + ", ".join(f"{_cell(k)}={_cell(input_text(v, text))}" for k, v in r.inputs.items())
        )
    if r.dice:
        facts.append("dice: " + ", ".join(_cell(d) for d in r.dice))
    if r.lookup:
        facts.append("table: " + _cell(input_text(r.lookup, text)))  # its cell read as words too
    if facts:
        facts_html = "<br>".join(facts)
        bits.append(f'<div style="color:#555;font-size:12px">{facts_html}</div>')
    bits.append(changes_html(r, text))
    bits.append("</div>")
    return "".join(bits)


def rulings_html(
    rulings: list[Ruling] | tuple[Ruling, ...],
    text: Callable[[str], str] = str,
    *,
    game: Any = None,
    side: str | None = None,
) -> str:
    """Every ruling of ``rulings`` as a card (``ruling_html``).  ``game`` given (and no ``text``): each text read
    through the game's ``display_text`` as ``side`` reads it, so a student reads names, not ids (issue #31 item 3:
    "NVA 7th Division deployed", not "nva_7 deployed")."""
    if game is not None and text is str and hasattr(game, "display_text"):
        text = lambda t: game.display_text(str(t), side)  # noqa: E731
    return "".join(ruling_html(r, text) for r in rulings) or "<i>No rulings yet.</i>"
