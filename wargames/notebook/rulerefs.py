"""Rule references out of what a student reads (issue #31 item 3): a decision's prompt and its actions' labels say
what to decide in words; the rule ids (``FITL-3.3.1``, ``TET-P2-3``), our decision ids (``R-GAME-07``) and section
numbers (``1.5.2``) they cite sit behind the "Details" box with the rest of the rules' bookkeeping.

The references are read from the game's own data, ``data/<game>/rules_index.csv`` (rule ids and their section
numbers) and ``data/<game>/decisions.csv`` (decision ids), so a unit or marker named like an id (``R-20``,
``CAP-FUEL``, ``B-52``) is never touched.  A reference is removed with the brackets or parentheses that hold only
references, or with the comma that joins it to other words inside them; the words stay.
"""

from __future__ import annotations

import csv
import re
from functools import cache

from wargames.core.data import data_root

#: a section number cited in prose: ``3.3.1``, ``12.1.5a``
_SECTION = re.compile(r"^\d+(?:\.\d+)+[a-z]?$")
#: a section number no value looks like: with a letter (``6.1b``) or three numbers (``14.6.4``)
_LETTERED = r"\d+\.\d+(?:[a-z]|\.\d+(?:\.\d+)*[a-z]?)"


@cache
def references(game_id: str) -> frozenset[str]:
    """Every rule id, section number and decision id of ``game_id`` (empty for a game without the files)."""
    out: set[str] = set()
    root = data_root() / game_id
    for name, key in (("rules_index.csv", "rule_id"), ("decisions.csv", "id")):
        path = root / name
        if not path.exists():
            continue
        with path.open(encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh):
                ref = (row.get(key) or "").strip()
                if not ref:
                    continue
                out.add(ref)
                number = ref.split("-", 1)[1] if "-" in ref else ""
                for candidate in (number, (row.get("section") or "").strip()):
                    if _SECTION.match(candidate):
                        out.add(candidate)
    return frozenset(out)


@cache
def _patterns(game_id: str) -> tuple[re.Pattern[str], ...] | None:
    refs = references(game_id)
    if not refs:
        return None
    alts = "|".join(re.escape(r) for r in sorted(refs, key=len, reverse=True))
    # a section with a letter or a third number (``6.1b``, ``14.6.4``) is never a value, even if the index lacks it
    one = rf"(?:(?:rules?|see|decisions?|§)\s*)?(?<![\w.-])(?:{alts}|{_LETTERED})(?![\w-]|\.\d)"
    many = rf"{one}(?:\s*(?:,|;|/|&|\band\b)\s*{one})*"
    # outside brackets only an id with letters (``R-HQ-02``): a bare number there may be a value, not a section
    named = "|".join(re.escape(r) for r in sorted(refs, key=len, reverse=True) if not _SECTION.match(r))
    word = rf"(?<![\w.-])(?:{named})(?![\w-]|\.\d)"
    return (
        # a group holding only references: " (FITL-3.3.1)", " [R-SCN-08]", " (1.5.2, 3.2)"
        re.compile(rf"\s*[(\[]\s*{many}\s*[)\]]"),
        # references closing a group of other words: "(5 MP, by road, R-GAME-07)"
        re.compile(rf"\s*[,;:]\s*{many}(?=\s*[)\]])"),
        # references opening one: "(R-GAME-07: by road)"
        re.compile(rf"(?<=[(\[])\s*{many}\s*[,;:]\s*"),
        # a reference standing in the sentence: "per R-HQ-02" / "R-AIR-05: ..."
        re.compile(rf"\s*\b(?:per|under)\s+{word}|^{word}\s*[:,-]\s*|\s*[-:,;]?\s*{word}(?=\s*(?:[.;]|$))"),
    )


def without_references(text: str, game_id: str | None) -> str:
    """``text`` without the rule ids, section numbers and decision ids of ``game_id`` (unchanged if it cites none
    or the game has no rules index)."""
    pats = _patterns(game_id) if game_id else None
    if not pats or not text:
        return text
    out = text
    for p in pats:
        out = p.sub("", out)
    return re.sub(r"\s{2,}", " ", out).strip() if out != text else text
