"""How the engine charges the state's changes to rulings (issue #13, :mod:`wargames.core.journal`), and the one
generic transition check (:mod:`wargames.core.transitions`).

When the walker logs a ruling, the net changes journalled since the previous ruling are added to its ``changes``
(after the hand-written ones, without repeating what they state).  Changes still in the journal when the game
comes to rest, or at a checkpoint, were made with no ruling: they are kept aside for the random-play check.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from .journal import Tracked, journalled
from .rulings import Ruling
from .transitions import transition_problems

if TYPE_CHECKING:  # pragma: no cover
    from .state import StateDecl


class ChargedChanges:
    """The part of :class:`~wargames.core.engine.Game` that adds journalled changes to rulings and checks
    transitions."""

    declared_state: StateDecl | None

    def transition_problems(self, before: dict[str, Any], rulings: list[Ruling]) -> list[str]:
        """Changes between ``before`` (a ``state_dict()``) and now that no ruling in ``rulings`` accounts for:
        the one generic check of :mod:`wargames.core.transitions`, read with the game's :attr:`explained`
        declarations (games do not override it).  The random-play tests call it after every decision, so units
        move, hidden facts are revealed and tracks move only through rulings.  Fields the journal records need no
        diff (their changes are in the rulings by construction, :mod:`wargames.core.journal`); changes the journal
        holds that no ruling took are problems."""
        n0 = rulings[0].seq - 1 if rulings else len(self.log)
        return self.journal_declaration_problems() + transition_problems(
            self.explained,
            before,
            self.state_dict(),
            rulings,
            journalled=self.journalled_fields(),
            unexplained=[e for n, e in self._unexplained if n >= n0] + self._journal.peek(),
        )

    def _with_journal(self, r: Ruling) -> Ruling:
        """``r`` with the changes journalled since the last ruling added to its ``changes`` (those its
        hand-written changes do not already state)."""
        entries = self._journal.take()
        extra = tuple(e for e in entries if not _stated(e, r.changes))
        if not extra:
            return r
        return dataclasses.replace(
            r, changes=r.changes + extra, secret_changes=self.facts().hidden_information
        )

    def _set_aside(self) -> None:
        """The game comes to rest with changes no ruling took: keep them for the checks (never silently lost)."""
        self._unexplained.extend((len(self.log), e) for e in self._journal.take())

    def unexplained_changes(self) -> list[tuple[int, dict[str, Any]]]:
        """The journalled changes made with no ruling after them before the game came to rest (at a decision or
        the end): (number of rulings logged then, the change).  Empty in a correct game; checked by random play."""
        return list(self._unexplained)

    def journalled_fields(self) -> set[str]:
        """The state fields whose changes the journal records: those the game's declared state names journalled
        (:mod:`wargames.core.state`), and inside a plain state object its journalled containers (``board.tracks``);
        the rulings list their changes by construction.  A game with no declaration (a toy game of the tests): its
        journalled containers, dicts of them, and :class:`Tracked` attributes."""
        decl = self.declared_state
        out = set()
        for name, value in vars(self).items():
            if decl is None and _all_journalled(value):
                out.add(name)
            elif hasattr(value, "__dict__") and not isinstance(value, (dict, list, set, type)):
                out.update(f"{name}.{sub}" for sub, v in vars(value).items() if _all_journalled(v))
        if decl is not None:
            return out | decl.journalled()
        out.update(
            name for cls in type(self).__mro__ for name, v in vars(cls).items() if isinstance(v, Tracked)
        )
        return out

    def journal_declaration_problems(self) -> list[str]:
        """Where the declared state and the state disagree on what is journalled: a field declared journalled that
        is not kept in a journalled container (or a :class:`Tracked` attribute), or a field kept in one and not
        declared journalled.  Empty in a correct game (the transition check reports it)."""
        decl = self.declared_state
        if decl is None:
            return []
        tracked = {n for cls in type(self).__mro__ for n, v in vars(cls).items() if isinstance(v, Tracked)}
        actual = {n for n in decl.names if n in tracked or _all_journalled(self.__dict__.get(n))}
        declared = decl.journalled()
        out = [
            f"state field {n!r} is declared journalled but is not kept in a journalled container"
            for n in sorted(declared - actual)
        ]
        out += [
            f"state field {n!r} is kept in a journalled container but not declared journalled"
            for n in sorted(actual - declared)
        ]
        return out


def _all_journalled(value: Any) -> bool:
    """A journalled container, or a plain dict of them (e.g. the pieces of every space)."""
    return journalled(value) or (
        type(value) is dict and bool(value) and all(journalled(v) for v in value.values())
    )


def _stated(entry: dict[str, Any], changes: tuple[dict[str, Any], ...]) -> bool:
    """Whether a hand-written change already states the journalled ``entry``: it names the same key and says
    where it went (``to``), or the same flag or attribute."""
    it = iter(entry)
    next(it)  # "field"
    key_name = next(it)
    key = entry[key_name]
    flag = entry["field"]
    for c in changes:
        if c.get(key_name, _NO) != key:
            continue
        if "attr" in entry:
            if entry["attr"] in c:
                return True
        elif ("to" in entry and "to" in c) or flag in c:
            return True
    return False


_NO = object()
