"""One piece-to-place index for every game (issue #29 item 2).

A :class:`Placement` is the state field that says where each piece is (Tet's units in areas, Year of the Rat's
counters in hexes, Rumor of War's pieces on hexes): a journalled ``dict`` piece -> place (every move is in a ruling
by construction, :mod:`wargames.core.journal`) that keeps its reverse index place -> pieces (:attr:`Placement.index`)
in step on every change, so a game never keeps a second index by hand.  The index is part of the placement, so
checkpoints copy and restore both together; it is derived from the places, never part of the digest.

Games differ in what their index holds, and each choice is a setting:

* ``unindexed``: places that are boxes off the map, not indexed (Year of the Rat's track and boxes);
* ``keep_empty``: a place keeps its (empty) entry when its last piece leaves (Tet: the index lists every place
  ever occupied, in the order first occupied); otherwise the entry is removed;
* ``ordered``: the pieces of a place as a sorted list (Rumor of War reads them in order); otherwise a set.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .journal import ABSENT, Journal, JournalDict


class Placement(JournalDict):
    """piece -> place, journalled, with the reverse index place -> pieces (see the module docstring)."""

    def __init__(
        self,
        data: Mapping[Any, Any] | Iterable[tuple[Any, Any]] = (),
        *,
        journal: Journal | None = None,
        field: str = "loc",
        key: str = "unit",
        unindexed: Iterable[Any] = (),
        keep_empty: bool = False,
        ordered: bool = False,
    ):
        super().__init__(data, journal=journal, field=field, key=key)
        self.unindexed = frozenset(unindexed)
        self.keep_empty = keep_empty
        self.ordered = ordered
        self.index: dict[Any, Any] = {}
        for piece, place in dict.items(self):
            self._add(piece, place)

    def pieces_at(self, place: Any) -> list[Any]:
        """The pieces at ``place``, sorted."""
        return sorted(self.index.get(place, ()))

    def _add(self, piece: Any, place: Any) -> None:
        if place in self.unindexed:
            return
        here = self.index.get(place)
        if self.ordered:
            if here is None:
                self.index[place] = [piece]
            else:
                here.append(piece)
                here.sort()
        elif here is None:
            self.index[place] = {piece}
        else:
            here.add(piece)

    def _drop(self, piece: Any, place: Any) -> None:
        here = self.index.get(place)
        if here is None:
            return
        if self.ordered:
            here.remove(piece)
        else:
            here.discard(piece)
        if not here and not self.keep_empty:
            del self.index[place]

    def __setitem__(self, piece: Any, place: Any) -> None:
        old = dict.get(self, piece, ABSENT)
        if old is not ABSENT:
            self._drop(piece, old)
        super().__setitem__(piece, place)
        self._add(piece, place)

    def __delitem__(self, piece: Any) -> None:
        old = dict.__getitem__(self, piece)
        super().__delitem__(piece)
        self._drop(piece, old)

    def pop(self, piece: Any, *default: Any) -> Any:
        if piece in self:
            old = super().pop(piece)
            self._drop(piece, old)
            return old
        return dict.pop(self, piece, *default)

    def popitem(self) -> tuple[Any, Any]:
        piece, old = super().popitem()
        self._drop(piece, old)
        return piece, old

    def index_problems(self) -> list[str]:
        """Where the reverse index disagrees with the places (empty when they agree; for the invariants)."""
        want: dict[Any, Any] = {}
        for piece, place in dict.items(self):
            if place not in self.unindexed:
                want.setdefault(place, set()).add(piece)
        have = {p: set(v) for p, v in self.index.items() if v or not self.keep_empty}
        if self.keep_empty:
            have = {p: v for p, v in have.items() if v}
        if have != want:
            return [f"the reverse index of {self.field} disagrees with the places of its {self.key}s"]
        return []
