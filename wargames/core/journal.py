"""Journalled state containers: every change of the state is written down, and lands in a ruling (issue #13).

A game keeps its main state (unit and piece locations, tracks and scores, markers and flags) in the containers
of this module instead of plain ``dict``/``set``/attributes.  They behave exactly like the plain ones (a
:class:`JournalDict` *is* a ``dict``: reads, iteration, ``sorted``, ``json.dumps`` and ``state_dict()`` see
the same values, and reads stay at C speed: only the mutators are overridden), but each mutation also appends
one raw entry ``(owner, key, old, new)`` to the game's :class:`Journal`.

The engine empties the journal when it logs a ruling: the net changes since the previous ruling (a key set
twice counts once, from its first old to its last new value; a change undone before the ruling vanishes)
become part of that ruling's ``changes`` (:meth:`Journal.take`), after the changes the procedure wrote by
hand (an entry a hand-written change already states is not repeated).  So every ruling lists what it changed,
without anyone writing it.  A change still in the journal when the game comes to rest at a decision, or at
the end, was made with no ruling after it: the engine keeps it aside (``Game.unexplained_changes()``) and the
random-play check (``wargames.testing.random_play``) fails on it.  So is a change still in the journal at a
checkpoint (a phase or step boundary): the next step's ruling must not be charged with it.

Entries are JSON-friendly dicts in the vocabulary the games' hand-written ``changes`` use: ``field`` names
the state field (the game attribute, e.g. ``loc``), then the key under the container's key name and the old
and new values, e.g. ``{"field": "loc", "unit": "vc_3", "from": "saigon", "to": "hue"}``:

* :class:`JournalDict` (a location, a marker per key): ``{field, <key>: k, "from": old, "to": new}``; no
  ``from`` for a key added, ``"removed": True`` and no ``to`` for a key deleted.  With ``flag=True`` (a dict of
  booleans, e.g. face up) the value is named by the field instead: ``{field, <key>: k, <field>: new}``;
* :class:`JournalTree` (a nested record: a display of boxes, a block of optional rules): as a dict, at any depth,
  the path to a key below the top named ``in`` (``{"field": "airwar", "key": "box", "in": "aircraft f4_1",
  "from": "available", "to": "recon"}``);
* :class:`JournalTrack` (a Counter-like track store: a missing key reads 0): as a dict, an absent key counting
  as 0 (``{"field": "score", "track": "NVA", "from": 3, "to": 5}``);
* :class:`JournalCounter` (a ``collections.Counter``: pieces in a space, a box of pieces): as a track, with
  fixed items naming where it is (``{"field": "pieces", "pieces": "vc_guerrillas:u", "space": "saigon", "from": 1,
  "to": 2}``);
* :class:`JournalSet` (members: flags, markers): ``{field, <key>: member, <field>: True}`` when added, ``False``
  when removed (``{"field": "face_up", "unit": "vc_3", "face_up": True}``);
* :class:`JournalList` (a deck, a pile of cards, markers in a row): the list's contents before and after, netted
  per ruling (``{"field": "played", "list": "played", "from": [..], "to": [..]}``); a list whose order is hidden
  (``secret_order``, a face-down deck) states only the members that left or joined and its size, never its order;
* :class:`Tracked` (a descriptor for one attribute of the game or of a plain state object, e.g. a victory point
  total): ``{field, <key>: <attribute>, "from": old, "to": new}``; an object names itself too
  (:class:`JournalledObject`, e.g. ``{"field": "piece", "piece": "vc_3", "attr": "hex", ...}``); one declared
  ``told=False`` is the rules' own bookkeeping: journalled, never stated in a ruling.

Values inside a container must be immutable (numbers, strings, tuples) or journalled containers themselves:
a plain list held in a journalled dict could change unseen.

Copies: checkpoints copy the containers (``core.snapshot.fast_copy`` calls their ``_fast_copy``, which is also
their ``__deepcopy__``); a copy writes to the journal the copy memo names under :data:`JOURNAL_MEMO` (the
engine's ``_shared_memo`` names
the game's own journal, so a restored checkpoint writes to the game that restored it, even a branch sharing the
original's checkpoints), else to a copy of the journal (a plain ``deepcopy`` of a whole game).  The journal
itself is never part of the state.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from .snapshot import IMMUTABLE, fast_copy

#: the copy-memo key naming the journal that copied containers write to (see the module docstring)
JOURNAL_MEMO = "wargames.journal"


class _Absent:
    """The old value of a key that was not there (or the new value of a key deleted)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "ABSENT"

    def __deepcopy__(self, memo: dict[Any, Any]) -> _Absent:
        return self

    def __reduce__(self) -> str:
        return "ABSENT"


ABSENT = _Absent()


def _same(a: Any, b: Any) -> bool:
    return a is b or (type(a) is type(b) and a == b)


class Journal(list):
    """The changes made since the last ruling, as raw entries ``(owner, key, old, new)``; ``owner`` renders an
    entry (``owner.journal_entry(key, old, new)``).

    ``notes``: changes a procedure has written by hand for a ruling still to come (:meth:`note`), e.g. what an
    Operation has paid so far, named together in the ruling that completes it (Fire in the Lake's decision F-41):
    the procedure takes them into that ruling's ``changes`` (:meth:`take_notes`).  Unlike the entries, a ruling
    does not take them by itself; they are emptied with the entries when a checkpoint is restored or the game set
    up again (:meth:`reset`).  One journal holds both, so a game keeps no change list of its own."""

    __slots__ = ("notes",)

    def __init__(self, entries: Iterable[Any] = ()):
        super().__init__(entries)
        self.notes: list[dict[str, Any]] = []

    def note(self, change: dict[str, Any]) -> None:
        """Keep a hand-written change for a ruling still to come."""
        self.notes.append(change)

    def take_notes(self) -> list[dict[str, Any]]:
        """The notes kept so far, in the order written; the notes are emptied."""
        out, self.notes = self.notes, []
        return out

    def reset(self) -> None:
        """Empty the entries and the notes (a checkpoint restored, the game set up again)."""
        self.clear()
        self.notes = []

    def take(self) -> list[dict[str, Any]]:
        """The net changes as entry dicts, in the order first made; the journal is emptied."""
        if not self:
            return []
        net: dict[tuple[int, Any], list[Any]] = {}
        for owner, key, old, new in self:
            slot = net.get((id(owner), key))
            if slot is None:
                net[(id(owner), key)] = [owner, key, old, new]
            else:
                slot[3] = new
        self.clear()
        entries = (
            owner.journal_entry(key, old, new) for owner, key, old, new in net.values() if not _same(old, new)
        )
        return [e for e in entries if e is not None]  # None: a bookkeeping change, journalled but never told

    def peek(self) -> list[dict[str, Any]]:
        """What :meth:`take` would return, leaving the journal as it is."""
        saved = list(self)
        out = self.take()
        self.extend(saved)
        return out


def _journal_copy(journal: Journal | None, memo: dict[Any, Any]) -> Journal | None:
    if journal is None:
        return None
    target = memo.get(JOURNAL_MEMO)
    return target if target is not None else copy.deepcopy(journal, memo)


def _copy_values(items: Iterable[tuple[Any, Any]], memo: dict[Any, Any]) -> dict[Any, Any]:
    return {k: v if isinstance(v, IMMUTABLE) else fast_copy(v, memo) for k, v in items}


class JournalDict(dict):
    """A ``dict`` whose every mutation is journalled (see the module docstring).  ``field``: the state field it
    is (the game attribute); ``key``: what its keys are, in ``changes`` (``unit``, ``space``, ``track``);
    ``flag``: its values are booleans, written ``{<field>: new}`` instead of ``from``/``to``; ``quiet``: keys that
    are the rules' own bookkeeping (a note for later, not a fact a player is told): their changes are not journalled.
    """

    __slots__ = ("journal", "field", "key", "flag", "quiet")

    def __init__(
        self,
        data: Mapping[Any, Any] | Iterable[tuple[Any, Any]] = (),
        *,
        journal: Journal | None = None,
        field: str = "",
        key: str = "key",
        flag: bool = False,
        quiet: Iterable[Any] = (),
    ):
        dict.__init__(self, data)
        self.journal, self.field, self.key, self.flag, self.quiet = (
            journal,
            field,
            key,
            flag,
            frozenset(quiet),
        )

    # -- rendering and copies
    def journal_entry(self, key: Any, old: Any, new: Any) -> dict[str, Any] | None:
        out: dict[str, Any] = {"field": self.field, self.key: key}
        if self.flag:
            out[self.field] = False if new is ABSENT else new
            return out
        if old is not ABSENT:
            out["from"] = old
        if new is ABSENT:
            out["removed"] = True
        else:
            out["to"] = new
        return out

    def __deepcopy__(self, memo: dict[Any, Any]) -> JournalDict:
        cls = type(self)
        out = cls.__new__(cls)
        memo[id(self)] = out
        out.journal = _journal_copy(self.journal, memo)
        out.field, out.key, out.flag, out.quiet = self.field, self.key, self.flag, self.quiet
        dict.update(out, _copy_values(dict.items(self), memo))
        if hasattr(self, "__dict__"):  # a subclass's own attributes (e.g. a reverse index)
            out.__dict__.update({k: fast_copy(v, memo) for k, v in vars(self).items()})
        return out

    _fast_copy = __deepcopy__  # core.snapshot.fast_copy calls it directly

    def __reduce_ex__(self, protocol: Any) -> Any:  # pickle: a plain dict's items plus the settings
        state = (self.journal, self.field, self.key, self.flag, getattr(self, "__dict__", None), self.quiet)
        return (_rebuild, (type(self), state, dict(self)))

    def __copy__(self) -> dict[Any, Any]:
        return dict(self)  # a shallow copy is a plain dict (as ``dict.copy``)

    # -- mutators (reads are the dict's own)
    def __setitem__(self, key: Any, value: Any) -> None:
        j = self.journal
        if j is not None and key not in self.quiet:
            j.append((self, key, dict.get(self, key, ABSENT), value))
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: Any) -> None:
        old = dict.__getitem__(self, key)
        dict.__delitem__(self, key)
        if self.journal is not None and key not in self.quiet:
            self.journal.append((self, key, old, ABSENT))

    def pop(self, key: Any, *default: Any) -> Any:
        if key in self:
            value = dict.pop(self, key)
            if self.journal is not None and key not in self.quiet:
                self.journal.append((self, key, value, ABSENT))
            return value
        return dict.pop(self, key, *default)

    def popitem(self) -> tuple[Any, Any]:
        key, value = dict.popitem(self)
        if self.journal is not None and key not in self.quiet:
            self.journal.append((self, key, value, ABSENT))
        return key, value

    def setdefault(self, key: Any, default: Any = None) -> Any:
        if key not in self:
            self[key] = default
            return default
        return dict.__getitem__(self, key)

    def update(self, other: Any = (), /, **kw: Any) -> None:
        items = other.items() if isinstance(other, Mapping) else other
        for k, v in items:
            self[k] = v
        for k, v in kw.items():
            self[k] = v

    def __ior__(self, other: Any) -> JournalDict:
        self.update(other)
        return self

    def clear(self) -> None:
        for key in list(self):
            del self[key]


def _rebuild(cls: type, state: tuple, items: dict[Any, Any]) -> Any:
    """Unpickle a :class:`JournalDict`: its items set without being journalled."""
    out = cls.__new__(cls)
    dict.update(out, items)
    out.journal, out.field, out.key, out.flag, out.quiet = *state[:4], state[5]
    if state[4]:
        out.__dict__.update(state[4])
    return out


class JournalTrack(JournalDict):
    """A track store (Counter-like): a key not set reads 0 (without being added); every change is journalled
    ``{field, <key>: k, "from": old, "to": new}``, an absent key counting as 0."""

    __slots__ = ()

    def __missing__(self, key: Any) -> int:
        return 0

    def __setitem__(self, key: Any, value: Any) -> None:
        j = self.journal
        if j is not None:
            j.append((self, key, dict.get(self, key, 0), value))
        dict.__setitem__(self, key, value)

    def journal_entry(self, key: Any, old: Any, new: Any) -> dict[str, Any]:
        return {
            "field": self.field,
            self.key: key,
            "from": 0 if old is ABSENT else old,
            "to": 0 if new is ABSENT else new,
        }


def _plain(value: Any) -> Any:
    """A plain copy of a (nested) mapping, for a journal entry; any other value as it is."""
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value


class JournalTree(JournalDict):
    """A nested state record (a display of boxes and counters, a block of optional rules): a :class:`JournalDict`
    whose mapping values are kept as journalled trees themselves, so a change at any depth is journalled.  An
    entry names the path to the changed key: ``{field, <key>: k, "in": "<outer keys>", "from": old, "to": new}`` (no
    ``in`` at the top; ``key`` names the keys of the top level, ``"key"`` those below).  A mapping put in is
    copied into a tree (the entry states a plain copy of it; a later change of it is an entry of its own); any
    other value must be immutable or replaced whole (a list set again, never appended to in place).  ``untold``:
    keys of the top level that are the rules' own bookkeeping (e.g. what has been done this season): their changes
    are journalled but never stated in a ruling."""

    def __init__(
        self,
        data: Mapping[Any, Any] | Iterable[tuple[Any, Any]] = (),
        *,
        journal: Journal | None = None,
        field: str = "",
        key: str = "key",
        path: tuple[Any, ...] = (),
        untold: Iterable[Any] = (),
    ):
        JournalDict.__init__(self, (), journal=journal, field=field, key=key)
        self.path = tuple(path)
        self.untold = frozenset(untold)
        for k, v in data.items() if isinstance(data, Mapping) else data:
            dict.__setitem__(self, k, self._wrap(k, v))

    def _wrap(self, key: Any, value: Any) -> Any:
        if not isinstance(value, Mapping):
            return value
        return JournalTree(value, journal=self.journal, field=self.field, path=(*self.path, key))

    def journal_entry(self, key: Any, old: Any, new: Any) -> dict[str, Any] | None:
        if key in self.untold and not self.path:
            return None
        out = JournalDict.journal_entry(self, key, _plain(old), _plain(new))
        if not self.path or out is None:
            return out
        return {"field": self.field, self.key: key, "in": " ".join(str(p) for p in self.path), **out}

    def __setitem__(self, key: Any, value: Any) -> None:
        value = self._wrap(key, value)
        j = self.journal
        if j is not None and key not in self.quiet:
            j.append((self, key, _plain(dict.get(self, key, ABSENT)), _plain(value)))
        dict.__setitem__(self, key, value)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        if key not in self:
            self[key] = default
        return dict.__getitem__(self, key)  # the tree kept, not the mapping given


class _Shell:
    """Copying and pickling for the journalled containers whose members are immutable (a counter, a set, a list):
    a copy (``deepcopy``, ``core.snapshot.fast_copy``, pickle) is a fresh container of the same class holding the
    same members, put in by ``_fill`` (the built-in's own method, so nothing is journalled), with the same
    ``_settings`` and the journal the copy memo names (:data:`JOURNAL_MEMO`)."""

    __slots__ = ()
    _settings: tuple[str, ...] = ()

    def _items(self) -> Any:
        return list(self)  # type: ignore[call-overload]

    def __deepcopy__(self, memo: dict[Any, Any]) -> Any:
        cls = type(self)
        out = cls.__new__(cls)
        memo[id(self)] = out
        cls._fill(out, self._items())  # type: ignore[attr-defined]
        out.journal = _journal_copy(self.journal, memo)  # type: ignore[attr-defined]
        for name in cls._settings:
            setattr(out, name, getattr(self, name))
        return out

    _fast_copy = __deepcopy__

    def __reduce_ex__(
        self, protocol: Any
    ) -> Any:  # pickle: the members plus the settings, nothing journalled
        return (
            _rebuild_shell,
            (type(self), self._items(), (self.journal, *(getattr(self, n) for n in self._settings))),
        )  # type: ignore[attr-defined]


def _rebuild_shell(cls: Any, items: Any, state: tuple) -> Any:
    """Unpickle a :class:`_Shell` container: its members put in without being journalled."""
    out = cls.__new__(cls)
    cls._fill(out, items)
    out.journal = state[0]
    for name, value in zip(cls._settings, state[1:], strict=True):
        setattr(out, name, value)
    return out


class JournalCounter(_Shell, Counter):
    """A ``collections.Counter`` whose every change is journalled (pieces in a space, a box of pieces, markers):
    ``{field, <key>: k, **where, "from": old, "to": new}``, counts, an absent key counting as 0.  ``where``: fixed
    items naming the place the counter is (``{"space": "saigon"}`` for the pieces of one space).  Counter's
    arithmetic (``update``, ``subtract``, ``+=``, ``-=``) goes through the journalled item assignment; the
    operators that make a new counter (``+c``, ``a + b``) and ``copy()`` give a plain, unjournalled Counter."""

    __slots__ = ("journal", "field", "key", "where")

    def __init__(
        self,
        data: Any = None,
        *,
        journal: Journal | None = None,
        field: str = "",
        key: str = "key",
        where: Mapping[str, Any] | None = None,
    ):
        self.journal, self.field, self.key, self.where = None, field, key, dict(where or {})
        Counter.__init__(self)
        if data is not None:
            dict.update(self, data if isinstance(data, Mapping) else Counter(data))
        self.journal = journal

    def journal_entry(self, key: Any, old: Any, new: Any) -> dict[str, Any]:
        return {
            "field": self.field,
            self.key: key,
            **self.where,
            "from": 0 if old is ABSENT else old,
            "to": 0 if new is ABSENT else new,
        }

    _settings = ("field", "key", "where")
    _fill = dict.update  # counts are numbers

    def _items(self) -> dict[Any, Any]:
        return dict(self)

    def copy(self) -> Counter:
        return Counter(self)

    __copy__ = copy

    # -- mutators
    def __setitem__(self, key: Any, value: Any) -> None:
        j = self.journal
        if j is not None:
            j.append((self, key, dict.get(self, key, 0), value))
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: Any) -> None:
        old = dict.__getitem__(self, key)
        dict.__delitem__(self, key)
        if self.journal is not None:
            self.journal.append((self, key, old, 0))

    def pop(self, key: Any, *default: Any) -> Any:
        if key in self:
            value = dict.pop(self, key)
            if self.journal is not None:
                self.journal.append((self, key, value, 0))
            return value
        return dict.pop(self, key, *default)

    def popitem(self) -> tuple[Any, Any]:
        key, value = dict.popitem(self)
        if self.journal is not None:
            self.journal.append((self, key, value, 0))
        return key, value

    def setdefault(self, key: Any, default: Any = None) -> Any:
        if key not in self:
            self[key] = default
            return default
        return dict.__getitem__(self, key)

    def update(self, iterable: Any = None, /, **kwds: Any) -> None:  # Counter's: adds the counts
        if iterable is not None:
            if isinstance(iterable, Mapping):
                for k, n in iterable.items():
                    self[k] = self[k] + n
            else:
                for k in iterable:
                    self[k] = self[k] + 1
        for k, n in kwds.items():
            self[k] = self[k] + n

    def clear(self) -> None:
        for key in list(self):
            del self[key]


class JournalSet(_Shell, set):
    """A ``set`` whose every mutation is journalled: ``{field, <key>: member, <field>: True}`` when a member is
    added, ``False`` when it is removed."""

    __slots__ = ("journal", "field", "key")

    def __init__(
        self, data: Iterable[Any] = (), *, journal: Journal | None = None, field: str = "", key: str = "key"
    ):
        set.__init__(self, data)
        self.journal, self.field, self.key = journal, field, key

    def journal_entry(self, key: Any, old: Any, new: Any) -> dict[str, Any]:
        return {"field": self.field, self.key: key, self.field: bool(new)}

    _settings = ("field", "key")
    _fill = set.update  # members are hashable, hence immutable

    def __copy__(self) -> set[Any]:
        return set(self)

    # -- mutators
    def add(self, member: Any) -> None:
        if member not in self:
            set.add(self, member)
            if self.journal is not None:
                self.journal.append((self, member, False, True))

    def discard(self, member: Any) -> None:
        if member in self:
            set.discard(self, member)
            if self.journal is not None:
                self.journal.append((self, member, True, False))

    def remove(self, member: Any) -> None:
        set.remove(self, member)
        if self.journal is not None:
            self.journal.append((self, member, True, False))

    def pop(self) -> Any:
        member = set.pop(self)
        if self.journal is not None:
            self.journal.append((self, member, True, False))
        return member

    def clear(self) -> None:
        for member in list(self):
            self.discard(member)

    def update(self, *others: Iterable[Any]) -> None:
        for other in others:
            for member in other:
                self.add(member)

    def difference_update(self, *others: Iterable[Any]) -> None:
        for other in others:
            for member in list(other):
                self.discard(member)

    def intersection_update(self, *others: Iterable[Any]) -> None:
        keep = set(self).intersection(*others)
        for member in [m for m in self if m not in keep]:
            self.discard(member)

    def symmetric_difference_update(self, other: Iterable[Any]) -> None:
        for member in set(other):
            if member in self:
                self.discard(member)
            else:
                self.add(member)

    def assign(self, members: Iterable[Any]) -> None:
        """Make the members exactly ``members`` (each one removed and each one added journalled): a set replaced
        as a whole, in place, so the journal sees it."""
        new = set(members)
        for member in [m for m in self if m not in new]:
            self.discard(member)
        for member in sorted(new - set(self), key=repr):
            self.add(member)

    def __ior__(self, other: Any) -> JournalSet:
        self.update(other)
        return self

    def __isub__(self, other: Any) -> JournalSet:
        self.difference_update(other)
        return self

    def __iand__(self, other: Any) -> JournalSet:
        self.intersection_update(other)
        return self

    def __ixor__(self, other: Any) -> JournalSet:
        self.symmetric_difference_update(other)
        return self


class JournalList(_Shell, list):
    """A ``list`` whose every mutation is journalled (a deck, a pile of played cards, markers on a track): one raw
    entry per mutation ``(self, None, old contents, new contents)``, as tuples, so the journal nets a ruling's
    changes of the list into one entry ``{field, <key>: field, "from": [...], "to": [...]}``.  Reads (indexing,
    iteration, ``len``, ``in``) are the list's own.

    ``secret_order``: the order is hidden information (a face-down deck): the entry never states it, only which
    members left and joined the list (each sorted) and its size, ``{field, <key>: field, "left": [...],
    "joined": [...], "size": {"from": n, "to": m}}``, with ``"reordered": True`` when the same members were
    shuffled.  Values must be immutable (the copies share them)."""

    __slots__ = ("journal", "field", "key", "secret_order")

    def __init__(
        self,
        data: Iterable[Any] = (),
        *,
        journal: Journal | None = None,
        field: str = "",
        key: str = "list",
        secret_order: bool = False,
    ):
        list.__init__(self, data)
        self.journal, self.field, self.key, self.secret_order = journal, field, key, secret_order

    def journal_entry(self, key: Any, old: tuple[Any, ...], new: tuple[Any, ...]) -> dict[str, Any]:
        out: dict[str, Any] = {"field": self.field, self.key: self.field}
        if not self.secret_order:
            out["from"], out["to"] = list(old), list(new)
            return out
        gone, came = Counter(old), Counter(new)
        out["left"] = sorted((gone - came).elements(), key=repr)
        out["joined"] = sorted((came - gone).elements(), key=repr)
        out["size"] = {"from": len(old), "to": len(new)}
        if not out["left"] and not out["joined"]:
            out["reordered"] = True
        return out

    _settings = ("field", "key", "secret_order")
    _fill = list.extend  # members are immutable

    def __copy__(self) -> list[Any]:
        return list(self)

    def copy(self) -> list[Any]:
        """A plain, unjournalled copy (as ``list.copy``)."""
        return list(self)

    def _note(self, old: tuple[Any, ...]) -> None:
        if self.journal is not None:
            self.journal.append((self, None, old, tuple(self)))

    # -- mutators (each through the list's own, then journalled)
    def append(self, value: Any) -> None:
        old = tuple(self)
        list.append(self, value)
        self._note(old)

    def extend(self, values: Iterable[Any]) -> None:
        old = tuple(self)
        list.extend(self, values)
        self._note(old)

    def insert(self, index: Any, value: Any) -> None:
        old = tuple(self)
        list.insert(self, index, value)
        self._note(old)

    def pop(self, index: Any = -1) -> Any:
        old = tuple(self)
        value = list.pop(self, index)
        self._note(old)
        return value

    def remove(self, value: Any) -> None:
        old = tuple(self)
        list.remove(self, value)
        self._note(old)

    def clear(self) -> None:
        old = tuple(self)
        list.clear(self)
        self._note(old)

    def sort(self, *, key: Any = None, reverse: bool = False) -> None:
        old = tuple(self)
        list.sort(self, key=key, reverse=reverse)
        self._note(old)

    def reverse(self) -> None:
        old = tuple(self)
        list.reverse(self)
        self._note(old)

    def __setitem__(self, index: Any, value: Any) -> None:
        old = tuple(self)
        list.__setitem__(self, index, value)
        self._note(old)

    def __delitem__(self, index: Any) -> None:
        old = tuple(self)
        list.__delitem__(self, index)
        self._note(old)

    def __iadd__(self, values: Any) -> JournalList:
        self.extend(values)
        return self

    def __imul__(self, n: Any) -> JournalList:
        old = tuple(self)
        list.__imul__(self, n)
        self._note(old)
        return self


class Tracked:
    """A journalled attribute (a descriptor on the class): writes ``obj.<name> = value`` are journalled to the
    journal the object names (``obj.__dict__["_journal"]``, e.g. the game's); reads go straight to the instance
    dict (the descriptor has no ``__get__``), so they cost nothing.  ``key``: what the attribute is, in
    ``changes`` (``{field, <key>: <name>, "from": old, "to": new}``; e.g. ``Tracked("track")`` on a victory
    point total gives ``{"field": "vp", "track": "vp", ...}``).  On a :class:`JournalledObject` the entry also
    names the object.  ``told=False``: the rules' own bookkeeping (e.g. the activation in progress): every write
    is journalled (so the journal nets and sees it) but never stated in a ruling's ``changes``."""

    __slots__ = ("name", "key", "told")

    def __init__(self, key: str = "attr", *, told: bool = True):
        self.name = ""
        self.key = key
        self.told = told

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __delete__(self, obj: Any) -> None:  # a checkpoint restore removing a field made after it
        try:
            del obj.__dict__[self.name]
        except KeyError:
            raise AttributeError(self.name) from None

    def __set__(self, obj: Any, value: Any) -> None:
        d = obj.__dict__
        old = d.get(self.name, ABSENT)
        d[self.name] = value
        j = d.get("_journal")
        if j is not None:
            j.append((obj if isinstance(obj, JournalledObject) else self, self.name, old, value))

    def journal_entry(self, key: Any, old: Any, new: Any) -> dict[str, Any] | None:
        if not self.told:
            return None
        out: dict[str, Any] = {"field": self.name, self.key: key}
        if old is not ABSENT:
            out["from"] = old
        out["to"] = new
        return out


class JournalledObject:
    """A plain state object (a board, a piece) whose :class:`Tracked` attributes are journalled to the journal in
    its ``_journal`` attribute (None: not journalled).  ``journal_field``: what the object is in ``changes``
    (``piece``); :meth:`journal_id` its id there.  Copies share the journal as the containers do."""

    journal_field: str = "object"

    def journal_id(self) -> Any:
        return getattr(self, "uid", None) or getattr(self, "id", None) or type(self).__name__

    def journal_entry(self, key: Any, old: Any, new: Any) -> dict[str, Any]:
        out: dict[str, Any] = {
            "field": self.journal_field,
            self.journal_field: self.journal_id(),
            "attr": key,
        }
        if old is not ABSENT:
            out["from"] = old
        out["to"] = new
        return out

    def __deepcopy__(self, memo: dict[Any, Any]) -> Any:
        cls = type(self)
        out = cls.__new__(cls)
        memo[id(self)] = out
        d = {k: fast_copy(v, memo) for k, v in vars(self).items() if k != "_journal"}
        d["_journal"] = _journal_copy(vars(self).get("_journal"), memo)
        out.__dict__.update(d)
        return out

    _fast_copy = __deepcopy__


def journalled(value: Any) -> bool:
    """Whether ``value`` is a journalled container (its changes are proven by the journal)."""
    return isinstance(value, (JournalDict, JournalCounter, JournalSet, JournalList, JournalledObject))
