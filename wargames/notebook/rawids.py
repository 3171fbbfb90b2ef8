"""The ids a student must never read (issue #31 item 3), shared by the id test (``tests/test_student_ids.py``) and
the notebooks' checks cells (``raw_ids``): every ``id`` of ``data/<game>/**.csv`` that has an underscore or is not
its own name, and any other snake_case token."""

from __future__ import annotations

import csv
import re
from functools import cache

from ..core.data import data_root

#: the key columns of the data files and the column naming the thing (``counter``: the SNAFU counters' printed
#: codes, ``COM-FF``, are game words with glossary entries, not ids)
KEYS = (("id", "name"), ("item", "description"), ("mission", "label"), ("box", "name"), ("type", "name"))
#: any snake_case token (``arvn_1rgr_grp``, ``face_up``) outside a data file's path
SNAKE = re.compile(r"(?<![\w/.@-])[a-z][a-z0-9]*_[a-z0-9_]+\b(?!\.\w)")


@cache
def data_ids(game_id: str) -> dict[str, str]:
    """Every id of ``data/<game_id>`` a student must never read, with the file it comes from: an id with an
    underscore, or one that is not its own name and not a plain word (``KH1``: the name is "Ratanakiri"; not a
    hex number, which a name carries in brackets)."""
    root = data_root() / game_id
    out: dict[str, str] = {}
    for path in sorted(root.rglob("*.csv")):
        with path.open(encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh):
                for key, name_col in KEYS:
                    ident = (row.get(key) or "").strip()
                    if not ident:
                        continue
                    name = (row.get(name_col) or "").strip()
                    if is_id(ident, name, key):
                        out.setdefault(ident, str(path.relative_to(root)))
                    break
    return out


def is_id(ident: str, name: str, key: str) -> bool:
    """Whether ``ident`` (in the ``key`` column, the thing called ``name``) is an id a student must not read: one
    with an underscore; one with letters and digits that is not its name (``KH1``, "Ratanakiri"); a thing's id in
    small letters where its name is a proper name holding it after its first word (``westmoreland``, "William
    Westmoreland"; not a word like ``recon`` for the Reconnaissance box or ``casualties`` for the Casualties Box).
    Never a bare number (a hex, a province: named in brackets)."""
    if ident.isdigit():
        return False
    if "_" in ident:
        return True
    if not name or ident.lower() == name.lower():
        return False
    if not ident.isalpha():
        return True
    words = name.split()
    return key == "id" and ident.islower() and ident.capitalize() in words[1:]


@cache
def id_pattern(game_id: str) -> re.Pattern[str]:
    """A pattern matching any of ``data_ids(game_id)`` as a whole word."""
    alt = "|".join(re.escape(i) for i in sorted(data_ids(game_id), key=len, reverse=True))
    return re.compile(rf"(?<![\w@/.-])({alt})(?![\w-])")


def raw_ids(game_id: str, text: str) -> list[str]:
    """The ids of ``game_id``'s data and the snake_case tokens ``text`` holds (a notebook's check that what it
    printed names things, issue #31 item 3); empty when it reads as words."""
    return [m.group(0) for pat in (id_pattern(game_id), SNAKE) for m in pat.finditer(text)]
