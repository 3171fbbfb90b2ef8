"""Compact checkpoints (issue #13, instant Back): a checkpoint is one bytes blob (``core.snapshot.pack``) that
the cyclic garbage collector never walks; restoring it (``unpack``) gives a deep copy of the state that shares,
never copies, the game's static objects (``Game._shared_memo``), and copies dict and set subclasses with their
attributes without calling their own ``__setitem__``/``add``."""

from __future__ import annotations

import gc
from collections import Counter, defaultdict

import wargames
from wargames.core.snapshot import pack, unpack


class Journal:
    """A stand-in for a game-level object that must be shared by every checkpoint (registered as static)."""

    def __init__(self) -> None:
        self.writes: list[tuple] = []


class JournalledDict(dict):
    """A dict subclass with an attribute, whose own ``__setitem__`` records every write in its journal."""

    def __init__(self, journal: Journal, *args) -> None:
        dict.__init__(self, *args)
        self.journal = journal

    def __setitem__(self, key, value) -> None:
        self.journal.writes.append(("set", key, value))
        dict.__setitem__(self, key, value)


class JournalledSet(set):
    """A set subclass with attributes (a journal and a name)."""

    def __init__(self, journal: Journal, items=(), name: str = "") -> None:
        super().__init__(items)
        self.journal, self.name = journal, name

    def add(self, item) -> None:
        self.journal.writes.append(("add", item))
        super().add(item)


class SlottedDict(dict):
    """A dict subclass whose journal is a slot (no ``__dict__``), journalling its own writes."""

    __slots__ = ("journal",)
    __init__ = JournalledDict.__init__
    __setitem__ = JournalledDict.__setitem__


def test_core_snapshot_copies_a_slotted_dict_subclass_without_journalling():
    journal = Journal()
    d = SlottedDict(journal, {"hue": 2})
    out = unpack(pack({"d": d}, [journal]), [journal])["d"]
    assert type(out) is SlottedDict and out == {"hue": 2} and out is not d and out.journal is journal
    assert journal.writes == []


def test_core_snapshot_copies_containers_deeply_and_keeps_aliasing():
    inner = [1, 2]
    state = {
        "a": inner,
        "b": inner,
        "c": {"x": {3, 4}},
        "n": Counter(hue=2),
        "d": defaultdict(list, k=[5]),
        "t": (inner, "s"),
    }
    copy = unpack(pack(state, []), [])
    assert copy == state
    assert copy["a"] is not inner and copy["a"] is copy["b"] and copy["t"][0] is copy["a"]  # aliasing kept
    assert type(copy["n"]) is Counter and type(copy["d"]) is defaultdict and copy["d"].default_factory is list
    copy["c"]["x"].add(5)
    assert state["c"]["x"] == {3, 4}


def test_core_snapshot_shares_the_shared_objects_and_copies_dict_and_set_subclasses_with_attributes():
    journal = Journal()
    placement = JournalledDict(journal, {"vc_1": "hue"})
    placement.extra = {"hue": ["vc_1"]}  # a reverse index kept as an attribute
    seen = JournalledSet(journal, {"hue"}, name="seen")
    blob = pack({"placement": placement, "seen": seen, "journal": journal}, [journal])
    assert isinstance(blob, bytes) and not gc.is_tracked(blob)  # the collector never walks a checkpoint
    out = unpack(blob, [journal])
    p, s = out["placement"], out["seen"]
    assert type(p) is JournalledDict and p == {"vc_1": "hue"} and p is not placement
    assert p.extra == {"hue": ["vc_1"]} and p.extra is not placement.extra
    assert type(s) is JournalledSet and s == {"hue"} and s.name == "seen"
    assert p.journal is journal and s.journal is journal and out["journal"] is journal  # shared, never copied
    assert journal.writes == []  # restoring wrote nothing through the subclasses' own methods
    other = Journal()  # a branch: its own counterpart of the shared object
    assert unpack(blob, [other])["placement"].journal is other


def test_core_checkpoints_are_bytes_and_restore_to_the_same_digest():
    g = wargames.load("fitl", "short", seed=2)
    g.advance("turn")
    assert g._checkpoints and all(isinstance(cp.state, bytes) for cp in g._checkpoints)
    g.set_players({s: None for s in g.sides})
    g.advance("decision")
    here = g.digest()
    g.apply(g.legal_actions()[0])
    g.undo()
    assert g.digest() == here
    data = g.data
    g.rewind(1)
    assert g.data is data and g.board.data is data  # static data shared by the restored state, not copied


def test_core_static_data_is_settled_once_per_game_and_after_many_imports(monkeypatch):
    """The first load of each game in a process collects the garbage and freezes what is alive (its rules data);
    a later load only if many modules were imported since (a library imported after the first game); never when
    switched off."""
    import sys

    from wargames.core import snapshot

    calls: list[str] = []
    monkeypatch.setattr(snapshot, "_SETTLED", set())
    monkeypatch.setattr(snapshot.gc, "collect", lambda *a: calls.append("collect") or 0)
    monkeypatch.setattr(snapshot.gc, "freeze", lambda: calls.append("freeze"))
    wargames.load("tet", seed=1)
    wargames.load("tet", seed=2)
    assert calls == ["collect", "freeze"]
    monkeypatch.setattr(snapshot, "_modules_settled", len(sys.modules) - snapshot.SETTLE_AFTER_MODULES)
    wargames.load("tet", seed=3)  # as if a large library had been imported since
    assert calls == ["collect", "freeze"] * 2
    monkeypatch.setattr(snapshot, "SETTLE_STATIC_DATA", False)
    wargames.load("yotr", seed=1)
    assert calls == ["collect", "freeze"] * 2


def test_core_snapshot_keeps_a_state_pickle_cannot_write_as_a_copy():
    from wargames.core.snapshot import keep, restore

    rule = lambda n: n + 1  # noqa: E731 - a local function: pickle cannot write it
    state = {"rule": rule, "seen": [1, 2]}
    kept = keep(state, [])
    assert not isinstance(kept, bytes)
    back = restore(kept, [])
    assert back["rule"] is rule and back["seen"] == [1, 2] and back["seen"] is not state["seen"]
    assert isinstance(keep({"seen": [1, 2]}, []), bytes)


def test_core_snapshot_a_shared_object_listed_twice_is_still_found():
    """The engine's shared list names the journal twice (by id and under JOURNAL_MEMO): a repeat must not shift
    the memo indices of the new objects onto a shared one (Year of the Rat's order-of-battle rows came back as
    plain dicts after Back before this was mended)."""
    rows = [Journal() for _ in range(3)]  # any shared objects
    twice = object()
    shared = [twice, twice, *rows]
    value = {"rows": list(rows), "new": {"a": 1}, "more": [{"b": 2}, {"c": 3}]}
    back = unpack(pack(value, shared), shared)
    assert all(a is b for a, b in zip(back["rows"], rows, strict=True))
    assert back["new"] == {"a": 1} and back["more"] == [{"b": 2}, {"c": 3}]


def test_pack_with_an_object_listed_twice_among_the_shared_keeps_every_reference():
    """A checkpoint's shared objects may list one object twice (the engine's journal is named under two keys): the
    new objects of the blob must not take the slot of the last shared object (which made Back return a plain
    dict for the rules data, depending on the hash seed)."""
    journal, data = [], {"rules": 1}
    shared = [journal, journal, data]
    value = {"state": {"n": 1}, "data": data, "journal": journal}
    back = unpack(pack(value, shared), shared)
    assert back["data"] is data and back["journal"] is journal and back["state"] == {"n": 1}
    assert back["state"] is not value["state"]
