"""Rulings: the unit of explanation.

Every thing the engine decides (a move, a die roll read on a table, a score change) is recorded as a
:class:`Ruling` value.  Tests assert on rulings, notebooks render them, the command line prints them.
The explanation is generated from the same numbers the engine used, never written separately.
"""

from __future__ import annotations

import html
from dataclasses import asdict, dataclass, field
from typing import Any


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


@dataclass(frozen=True, slots=True)
class Ruling:
    """One explained application of one rule.

    ``rule_id`` is the stable id of the rule (e.g. ``TET-P5-2``), ``rule_ref`` where it is in the
    rules text (e.g. ``summary line 51``).  ``inputs`` are the numbers that went in, ``dice`` the rolls,
    ``lookup`` the table cell if one was read, ``result`` a short machine-readable outcome and
    ``changes`` the state changes it caused.  ``public`` is the explanation shown to a side that may
    not see hidden units (``hidden_from``), ``public_title`` the title it sees (the real title may
    name a hidden unit, so every ruling that does sets a neutral one for the side that may not see it).
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

    # -- renderings -------------------------------------------------------------------------------
    @property
    def reconstructed(self) -> bool:
        return bool(self.lookup and self.lookup.reconstructed)

    def for_side(self, side: str | None) -> Ruling:
        """The ruling as ``side`` may read it (hidden facts replaced by the public wording)."""
        if side is None or side not in self.hidden_from:
            return self
        return Ruling(
            rule_id=self.rule_id, title=self.public_title or self.title, explanation=self.public or "(hidden)",
            result=None, rule_ref=self.rule_ref, side=self.side, places=self.places,
            seq=self.seq, turn=self.turn, phase=self.phase, step=self.step,
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


def _cell(x: Any) -> str:
    return html.escape(str(x))


def ruling_html(r: Ruling) -> str:
    """One ruling as an HTML card: rule id, title, explanation, inputs, dice and table cell."""
    bits = [
        '<div class="wg-ruling" style="border-left:4px solid #8a6d3b;padding:4px 8px;margin:4px 0;'
        'background:#fbf8f1;font-family:sans-serif;font-size:13px">',
        f'<div><b style="color:#5a3e1b">{_cell(r.rule_id)}</b> &middot; <b>{_cell(r.title)}</b>'
        f' <span style="color:#888">#{r.seq}, turn {r.turn}, {_cell(r.phase)}</span></div>',
        f"<div>{_cell(r.explanation)}</div>",
    ]
    facts = []
    if r.inputs:
        facts.append("inputs: " + ", ".join(f"{_cell(k)}={_cell(v)}" for k, v in r.inputs.items()))
    if r.dice:
        facts.append("dice: " + ", ".join(_cell(d) for d in r.dice))
    if r.lookup:
        facts.append("table: " + _cell(r.lookup))
    if facts:
        facts_html = "<br>".join(facts)
        bits.append(f'<div style="color:#555;font-size:12px">{facts_html}</div>')
    bits.append("</div>")
    return "".join(bits)


def rulings_html(rulings: list[Ruling] | tuple[Ruling, ...]) -> str:
    return "".join(ruling_html(r) for r in rulings) or "<i>No rulings yet.</i>"
