"""The state as one declared value (issue #29 item 2).

A game declares its state once, as a :class:`StateDecl` (its class attribute ``state``): every field play
changes (:class:`StateField`: its name, how it is written in ``state_dict()``, whether it is kept in a journalled
container, how a change of it is explained), the fields computed from others (``derived``: copied by checkpoints,
not in the digest), a procedure's own flags (``scratch``: copied by checkpoints when set, not in the digest), the
caches (``cache``: never copied, emptied when a checkpoint is restored) and the static data
set at load (``static``: never copied).  From that one declaration the engine derives

* ``state_dict()`` and so the digest (:meth:`StateDecl.dump`): each field written by its ``dump``;
* the checkpoints: what :meth:`Game.state_attrs` copies is the declared fields and the derived ones, nothing else;
* the transition check: which fields the journal records (``journalled``) and how each other field's change is
  explained (``explained``, see :mod:`wargames.core.transitions`).

An attribute of the game that is none of these (a field added to ``new_state`` and not declared) is refused at the
next checkpoint with an :class:`~wargames.core.errors.EngineError` naming it: a field outside the declaration would
be outside the digest, the checkpoints and the checks at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from .transitions import HOW, Explained


def plain(value: Any) -> Any:
    """The value as it is (a number, a string, a flag, None, or plain data already canonical)."""
    return value


def by_key(value: Any) -> dict[Any, Any]:
    """A mapping with its keys in sorted order."""
    return dict(sorted(value.items()))


def members(value: Iterable[Any]) -> list[Any]:
    """A set's members in sorted order."""
    return sorted(value)


def in_order(value: Iterable[Any]) -> list[Any]:
    """A sequence as a list, in its own order (a deck, a pile, a row of markers)."""
    return list(value)


def flagged(value: Any) -> list[Any]:
    """The keys of a mapping of flags whose flag is set, sorted (e.g. the units face up)."""
    return sorted(k for k, on in value.items() if on)


@dataclass(frozen=True)
class StateField:
    """One field of a game's state: the game attribute ``name``; ``dump`` writes its value as canonical JSON-able
    data for ``state_dict()`` (and so the digest), or the game's method ``method`` does; ``omit_empty``: left out of ``state_dict()`` while empty (a
    field of optional rules, so a game without them keeps its digest); ``journalled``: kept in a journalled
    container (:mod:`wargames.core.journal`), so its changes are in the rulings by construction; ``explained``:
    how a change of it is explained when it is not journalled (a :data:`~wargames.core.transitions.HOW` word; ""
    for some ruling in the same transition), ``rule`` the rule id prefix for ``"rule"``."""

    name: str
    dump: Callable[[Any], Any] = plain
    omit_empty: bool = False
    #: the game method that writes the field instead of ``dump`` (for a field whose writing needs the game)
    method: str = ""
    journalled: bool = False
    explained: str = ""
    rule: str = ""

    def __post_init__(self) -> None:
        if self.explained and self.explained not in HOW:
            raise ValueError(
                f"state field {self.name!r}: explained must be one of {HOW}, not {self.explained!r}"
            )
        if self.explained in ("moved", "revealed", "track", "named"):
            raise ValueError(
                f"state field {self.name!r}: {self.explained!r} needs a change field; declare it in the game's "
                "explained tuple"
            )


@dataclass(frozen=True)
class StateDecl:
    """A game's whole state declaration (see the module docstring)."""

    fields: tuple[StateField, ...]
    derived: frozenset[str] = field(default_factory=frozenset)
    cache: frozenset[str] = field(default_factory=frozenset)
    static: frozenset[str] = field(default_factory=frozenset)
    #: a procedure's own flags, set while it runs and put back before it ends (e.g. "this Operation is free"):
    #: copied by checkpoints when present (a checkpoint may be taken while they are set), never in the digest
    #: (outside the procedure they are unset or false)
    scratch: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        names = [f.name for f in self.fields]
        twice = sorted({n for n in names if names.count(n) > 1})
        groups = {
            "derived": self.derived,
            "cache": self.cache,
            "static": self.static,
            "scratch": self.scratch,
        }
        for label, group in groups.items():
            twice += sorted(n for n in group if n in names)
            for other, group2 in groups.items():
                if other > label:
                    twice += sorted(group & group2)
        if twice:
            raise ValueError(f"state declaration: {twice} declared more than once")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)

    def copied(self) -> tuple[str, ...]:
        """What a checkpoint copies: the declared fields, the derived ones and the scratch flags."""
        return self.names + tuple(sorted(self.derived | self.scratch))

    def dump(self, obj: Any) -> dict[str, Any]:
        """``state_dict()`` of ``obj``: each field written by its ``dump`` (an empty ``omit_empty`` field left out)."""
        out: dict[str, Any] = {}
        for f in self.fields:
            value = getattr(obj, f.name)
            if f.omit_empty and not value:
                continue
            out[f.name] = getattr(obj, f.method)() if f.method else f.dump(value)
        return out

    def journalled(self) -> set[str]:
        """The fields declared journalled."""
        return {f.name for f in self.fields if f.journalled}

    def explained(self) -> tuple[Explained, ...]:
        """The transition check's declarations for the fields that say how they are explained."""
        return tuple(Explained(f.name, f.explained, rule=f.rule) for f in self.fields if f.explained)

    def undeclared(self, attrs: Iterable[str], engine: frozenset[str]) -> list[str]:
        """Attributes of a game that are neither engine fields nor declared (sorted)."""
        known = set(self.names) | self.derived | self.cache | self.static | self.scratch | engine
        return sorted(a for a in attrs if a not in known)
