"""The decision record: the one declared shape of its entries, and writing files so a crash loses nothing.

The authoritative record of a game is scenario + seed + options + the seats + the list of entries below; only
the engine writes it (issue #29 item 1): :meth:`Game.apply <wargames.core.engine.Game.apply>` (a decision, with who
made it, a built-in player's reason, the advisor run it belongs to and a note), :meth:`Game.force_dice` (forced
rolls) and :meth:`Game.annotate` (a note on a decision already made).  A user interface never edits the entries; it
passes what it wants kept through those calls, so everything it adds is in the save schema
(:mod:`wargames.core.saves`) and a save reopens.

:func:`write_atomic` writes a file by way of a temporary file in the same folder and a rename (issue #30 item 3):
a process killed while saving leaves the previous file whole, never a half-written or empty one.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any, TypedDict

from .actions import WargamesError


class Entry(TypedDict, total=False):
    """One entry of ``game.record``.  ``at`` is the resting point (rulings logged, decision pending) where it was
    made; exactly one of ``act`` (a decision) and ``force`` (forced die rolls) is present."""

    at: list[Any]
    act: dict[str, Any]
    force: list[int]
    #: the side (or faction) whose decision it was
    side: str
    #: who decided: "person", "advisor" or a built-in player's class name
    by: str
    #: a built-in player's (or the advisor's) reason, as it gave it
    why: str
    #: the advisor run (one press of the play widget's advisor button) the decision belongs to
    advice: int
    #: a note kept with the decision (a teacher's or a lesson's comment; never read by the rules)
    note: str


#: the keys an entry may have (the save schema declares the same: ``saves._Entry``)
ENTRY_KEYS = frozenset(Entry.__annotations__)

#: the values a seat may hold in a save: a person, the game's built-in player, the seeded random player; any other
#: player is saved by its class name and reopened as a person's seat (the record still says who made each decision)
PERSON, BUILT_IN, RANDOM = "person", "built-in", "random"


class RecordError(WargamesError):
    """A record entry of the wrong shape (a key the save schema does not declare, a missing ``at``)."""


def check_entry(entry: Mapping[str, Any], where: str) -> None:
    """Raise :class:`RecordError` if ``entry`` is not a record entry (keys, ``at``, act or force)."""
    if not isinstance(entry, Mapping):
        raise RecordError(f"{where}: a record entry must be a mapping, not {type(entry).__name__}")
    unknown = sorted(set(entry) - ENTRY_KEYS)
    if unknown:
        raise RecordError(f"{where}: unknown key(s) {unknown}; an entry has only {sorted(ENTRY_KEYS)}")
    at = entry.get("at")
    if not isinstance(at, (list, tuple)) or len(at) != 2:
        raise RecordError(f"{where}: 'at' must be [rulings logged, decision pending], not {at!r}")
    if ("act" in entry) == ("force" in entry):
        raise RecordError(f"{where}: an entry has exactly one of 'act' (a decision) or 'force' (dice)")


@contextlib.contextmanager
def atomic_open(path: str | Path, mode: str = "w", **kw: Any) -> Iterator[IO[Any]]:
    """Open a temporary file beside ``path`` for writing; when the block ends without an error it is flushed to
    disk and renamed over ``path`` in one step (``os.replace``), else removed and ``path`` left as it was."""
    target = Path(path)
    if target.is_dir():
        raise WargamesError(f"{target}: is a folder, not a file to write")
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, mode, **kw) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        with contextlib.suppress(OSError):  # keep the permissions an existing file had
            os.chmod(tmp, target.stat().st_mode & 0o777 if target.exists() else 0o644)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_atomic(path: str | Path, text: str | bytes) -> Path:
    """Write ``text`` (str as UTF-8, or bytes) to ``path`` atomically (:func:`atomic_open`); returns the path."""
    if isinstance(text, bytes):
        with atomic_open(path, "wb") as fh:
            fh.write(text)
    else:
        with atomic_open(path, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
    return Path(path)
