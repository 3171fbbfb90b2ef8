"""One check, for every game, that every change of the state is explained by a ruling (issue #13).

The random-play tests (``wargames.testing.random_play``, DESIGN.md test layer 4) take ``state_dict()`` before a
decision and compare it with the state after it, given the rulings the decision led to.  The state is flattened to
leaves (``loc.vc_1``, ``score.NVA``, ``face_up.arvn_1`` for a member of a list); every leaf that changed must be
explained, in the way the game declares for it (:attr:`Game.explained`, a tuple of :class:`Explained`):

* ``moved``: a ruling's ``changes`` has ``{<field>: <key>, "to": <new value>}`` (a unit moved, a piece placed);
* ``revealed``: turning on (a member added, e.g. a unit face up) needs ``{<field>: <key>, "face_up": True}``;
* ``track``: the amounts add up: the sum of ``to - from`` of the changes ``{<field>: <key>, ...}`` is the change
  (a change naming the track with no ``from``/``to`` sets it: any new value is explained), and a track the
  rulings say moved did move;
* ``named``: some change names the key (``{<field>: <key>}``);
* ``listed``: some ruling lists changes or places;
* ``told``: the key or its old or new value is named by a ruling (places, result values, changes values);
* ``rule``: a ruling whose rule id starts with ``rule`` was made;
* ``bookkeeping``: the rules' own memory of what was done this phase (units that moved, the battles fought), not
  a fact a player must be told; changes freely.

Fields kept in journalled containers (:mod:`wargames.core.journal`) are not diffed: every change to them is in
the rulings' ``changes`` by construction, so ``moved``, ``revealed``, ``track``, ``named``, ``listed`` and ``told``
hold for them by construction; only a ``rule`` declaration still adds something (which rule may change the field),
and a journalled field one names is diffed.  Instead, a journalled change no ruling took (the game came to rest at a
decision, or ended, with it still in the journal) is a problem: the state changed and no ruling says so.  The
declarations below remain for the fields a game keeps outside the journal (bookkeeping, derived values).

A leaf no declaration matches needs at least one ruling in the transition.  Patterns are dotted paths in which
``*`` stands for one key; a pattern also matches every leaf under it (``moved`` covers the list and its members);
the first declaration that matches a leaf is used.  The check is for tests: normal play
never diffs the state.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .rulings import Ruling

HOW = ("moved", "revealed", "track", "named", "listed", "told", "rule", "bookkeeping")
_ABSENT = object()


@dataclass(frozen=True)
class Explained:
    """How a change at the state leaves matching ``pattern`` must be explained (see the module docstring).
    ``absent``: the value a leaf that is not there stands for (e.g. a counter not yet listed is on the track)."""

    pattern: str
    how: str
    field: str = ""
    rule: str = ""
    absent: Any = None

    def __post_init__(self) -> None:
        if self.how not in HOW:
            raise ValueError(f"Explained({self.pattern!r}): how must be one of {HOW}, not {self.how!r}")
        if self.how in ("moved", "revealed", "track", "named") and not self.field:
            raise ValueError(
                f"Explained({self.pattern!r}, {self.how!r}) needs the change field naming the key"
            )
        if self.how == "rule" and not self.rule:
            raise ValueError(f"Explained({self.pattern!r}, 'rule') needs the rule id prefix")

    def matches(self, path: tuple[str, ...]) -> bool:
        parts = self.pattern.split(".")
        return len(parts) <= len(path) and all(p == "*" or p == k for p, k in zip(parts, path, strict=False))


def flatten(value: Any, path: tuple[str, ...] = ()) -> dict[tuple[str, ...], Any]:
    """The leaves of a state dict: dict keys become path parts; a list of plain values is a leaf (its order) and
    each member a leaf ``path + (member,)`` holding how many times it is there; anything else is a leaf."""
    out: dict[tuple[str, ...], Any] = {}
    if isinstance(value, Mapping):
        for k, v in value.items():
            out.update(flatten(v, (*path, str(k))))
    elif isinstance(value, (list, tuple)) and all(
        isinstance(v, (str, int)) and not isinstance(v, bool) for v in value
    ):
        out[path] = json.dumps(list(value))
        for v in value:
            key = (*path, str(v))
            out[key] = out.get(key, 0) + 1
    else:
        out[path] = (
            json.dumps(value, sort_keys=True, default=str) if isinstance(value, (list, tuple)) else value
        )
    return out


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for v in value.values():
            if isinstance(v, (str, list, tuple)):
                yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            if isinstance(v, str):
                yield v


class _Rulings:
    """What a transition's rulings say, indexed for the check."""

    def __init__(self, rulings: list[Ruling]):
        self.rulings = rulings
        self.changes = [c for r in rulings for c in r.changes]
        self.listed = any(r.changes or r.places for r in rulings)
        self.told: set[str] = set()
        for r in rulings:
            self.told.update(r.places)
            self.told.update(_strings(r.result))
            for c in r.changes:
                self.told.update(
                    str(v) for v in c.values() if isinstance(v, (str, int)) and not isinstance(v, bool)
                )

    def with_key(self, field: str, key: str) -> list[dict[str, Any]]:
        return [c for c in self.changes if str(c.get(field, _ABSENT)) == key]


def _why_not(rule: Explained | None, path: tuple[str, ...], old: Any, new: Any, said: _Rulings) -> str | None:
    """None if the change of leaf ``path`` from ``old`` to ``new`` is explained, else what is missing."""
    key = path[-1] if path else ""
    how = rule.how if rule is not None else None
    if how == "bookkeeping":
        return None
    if how is None:
        return None if said.rulings else "changed with no ruling at all"
    if how == "moved":
        named = said.with_key(rule.field, key)
        if new is _ABSENT:
            return None if named else f"removed and no ruling's changes names {rule.field} {key}"
        return (
            None
            if any(c.get("to") == new for c in named)
            else f"changed to {new!r} and no ruling's changes has {{{rule.field}: {key}, to: {new!r}}}"
        )
    if how == "revealed":
        if old is not _ABSENT or new is _ABSENT:
            return None if said.rulings else "changed with no ruling at all"
        return (
            None
            if any(c.get("face_up") is True for c in said.with_key(rule.field, key))
            else f"turned on with no ruling's changes {{{rule.field}: {key}, face_up: True}}"
        )
    if how == "track":
        named = said.with_key(rule.field, key)
        if any("from" not in c or "to" not in c for c in named):
            return None  # set outright by a ruling
        delta = (0 if new is _ABSENT else new) - (0 if old is _ABSENT else old)
        account = sum(c["to"] - c["from"] for c in named)
        if not named:
            return f"moved {delta:+} and no ruling's changes names {rule.field} {key}"
        return None if account == delta else f"moved {delta:+}, rulings account for {account:+}"
    if how == "named":
        return (
            None
            if said.with_key(rule.field, key)
            else f"changed and no ruling's changes names {rule.field} {key}"
        )
    if how == "listed":
        return None if said.listed else "changed and no ruling lists changes or places"
    if how == "told":
        if (
            key in said.told
            or (isinstance(old, str) and old in said.told)
            or (isinstance(new, str) and new in said.told)
        ):
            return None
        return "changed and no ruling names it, its old or its new value"
    if how == "rule":
        return (
            None
            if any(r.rule_id.startswith(rule.rule) for r in said.rulings)
            else f"changed with no {rule.rule} ruling"
        )
    raise AssertionError(how)  # pragma: no cover - __post_init__ checks ``how``


def _journal_path(change: Mapping[str, Any]) -> str:
    """``field.key`` of a journalled change (``loc.vc_3``; an object's attribute: ``piece.vc_3.hex``)."""
    keys = [k for k in change if k != "field"]
    path = [str(change.get("field", "?"))] + ([str(change[keys[0]])] if keys else [])
    if "attr" in change:
        path.append(str(change["attr"]))
    return ".".join(path)


def transition_problems(
    explained: Iterable[Explained],
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    rulings: list[Ruling],
    *,
    journalled: Iterable[str] = (),
    unexplained: Iterable[Mapping[str, Any]] = (),
) -> list[str]:
    """The changes from ``before`` to ``after`` (two ``state_dict()``) that ``rulings`` do not explain, one line
    each (path, old and new value, what is missing).  ``journalled``: the state fields the journal records (not
    diffed; ``board.tracks`` for a field inside an object); ``unexplained``: journalled changes that no ruling took."""
    rules = list(explained)
    problems = [
        f"{_journal_path(c)} ({json.dumps(dict(c), sort_keys=True, default=str)}) changed with no ruling "
        "after it (the game came to rest with the change still in the journal)"
        for c in unexplained
    ]
    # a journalled field is diffed only where a declaration asks for a particular rule (the journal proves some
    # ruling took the change, not which one)
    skip = {
        k
        for k in journalled
        if not any(r.how == "rule" and r.pattern.split(".")[0] == k.split(".")[0] for r in rules)
    }
    top = {k for k in skip if "." not in k}
    if top:
        before = {k: v for k, v in before.items() if k not in top}
        after = {k: v for k, v in after.items() if k not in top}
    old, new = flatten(before), flatten(after)
    inner = [tuple(k.split(".")) for k in skip - top]
    if inner:
        old = {p: v for p, v in old.items() if not any(p[: len(i)] == i for i in inner)}
        new = {p: v for p, v in new.items() if not any(p[: len(i)] == i for i in inner)}
    said = _Rulings(rulings)
    matched: dict[tuple[str, ...], Explained | None] = {}
    for path in sorted(set(old) | set(new)):
        a, b = old.get(path, _ABSENT), new.get(path, _ABSENT)
        if a == b and (a is _ABSENT) == (b is _ABSENT):
            continue
        if path not in matched:
            matched[path] = next((r for r in rules if r.matches(path)), None)
        if matched[path] is not None and matched[path].absent is not None:
            a, b = (matched[path].absent if v is _ABSENT else v for v in (a, b))
            if a == b:
                continue
        why = _why_not(matched[path], path, a, b, said)
        if why:
            shown = ".".join(path)
            problems.append(
                f"{shown} ({'absent' if a is _ABSENT else a!r} -> {'absent' if b is _ABSENT else b!r}) {why}"
            )
    for rule in rules:  # a track the rulings moved must have moved
        if rule.how != "track":
            continue
        parts = rule.pattern.split(".")
        for key in {str(c[rule.field]) for c in said.changes if rule.field in c}:
            path = (*parts[:-1], key) if parts[-1] == "*" else tuple(parts)
            if path[-1] != key or path not in old or old.get(path) != new.get(path):
                continue
            named = said.with_key(rule.field, key)
            if all("from" in c and "to" in c for c in named) and sum(c["to"] - c["from"] for c in named):
                problems.append(
                    f"{'.'.join(path)} did not change, but rulings move it "
                    f"{sum(c['to'] - c['from'] for c in named):+}"
                )
    return problems
