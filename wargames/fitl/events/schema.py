"""Fire in the Lake: the schema of the Event vocabulary (FITL-5.0-CARDS; issue #14 item 5).

Every key a card entry of ``data/fitl/events/cards-*.yaml`` may use, verb by verb, with the keys of the space
filters (``where``), the conditions (``if``, ``choose`` options) and the card-level fields.  The interpreter of
:mod:`.vocabulary` reads a step's keys with ``step.get``: without this schema a misspelt key (``wehre``,
``upto`` as ``up_to``) would silently be ignored and the step would match every space.  :func:`check_card`
runs when the cards are loaded and refuses an unknown verb or key with a DataError naming the file, the card
and the key.  The lists are the keys the interpreter reads (a test checks each one appears in its code).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ...core.data import DataError

#: the keys the repeated "choose pieces" loop reads (place, remove, flip, tunnel): ``verbs_pieces._pick_loop``
PICK = frozenset({"by", "n", "upto", "where", "each", "each_count", "in_spaces", "max_per_space", "var"})

#: verb -> the keys its step may have (besides ``do``)
STEP_KEYS: dict[str, frozenset[str]] = {
    "place": PICK | {"pieces", "from", "state", "rule"},
    "remove": PICK | {"pieces", "to", "us_to", "rule"},
    "flip": PICK | {"pieces", "to", "rule"},
    "tunnel": PICK,
    "move": frozenset({"by", "pieces", "n", "upto", "from_where", "to_where", "adjacent", "var", "rule"}),
    "box": frozenset({"by", "pieces", "n", "from", "to", "var", "rule"}),
    "track": frozenset({"track", "delta", "times", "set", "half", "rule"}),
    "support": frozenset({"by", "n", "where", "shift", "set", "upto", "rule"}),
    "terror": frozenset({"by", "n", "where", "remove"}),
    "sabotage": frozenset({"by", "n", "where", "remove"}),
    "count": frozenset({"var", "box", "track", "pieces", "where", "spaces", "leader_box", "per"}),
    "roll": frozenset({"var"}),
    "set": frozenset({"var", "value"}),
    "select": frozenset({"by", "var", "where", "n", "upto", "optional", "prompt", "rule"}),
    "foreach": frozenset({"var", "as", "steps"}),
    "eligible": frozenset({"factions", "eligible"}),
    "free_op": frozenset(
        {
            "faction",
            "ops",
            "limited",
            "note",
            "where",
            "var",
            "with_sa",
            "origins",
            "cubes_as_us",
            "max_spaces",
            "in_place",
            "nva_only",
            "no_tunnels",
            "march_pieces",
        }
    ),
    # ``note`` on a free Special Activity is a reader's note (the ruling names the Activity and its spaces)
    "free_sa": frozenset({"faction", "sa", "where", "max_spaces", "strike_any", "no_degrade", "note"}),
    "capability": frozenset({"side"}),
    "momentum": frozenset(),
    "cancel": frozenset({"capability", "momentum", "side"}),
    "note": frozenset({"flag", "value", "rule", "title", "text"}),
    "choose": frozenset({"by", "prompt", "options", "rule"}),
    "if": frozenset({"cond", "then", "else"}),
    "hook": frozenset({"name", "by", "to", "faction", "factions", "n", "cost", "max_levels", "where"}),
}
#: step keys holding a space filter
FILTER_KEYS = ("where", "from_where", "to_where", "origins")
#: step keys holding nested step lists
NESTED_STEPS = ("then", "else", "steps")

#: the space filter keys of ``vocabulary.ev_match``
WHERE_KEYS = frozenset(
    {
        "spaces",
        "not_spaces",
        "var_spaces",
        "not_var_spaces",
        "kind",
        "country",
        "south",
        "outside_south",
        "terrain",
        "pop_min",
        "econ_min",
        "coastal",
        "support",
        "support_min",
        "support_max",
        "control",
        "has",
        "at_most",
        "lacks",
        "adjacent_to_var",
        "more",
        "any",
        "near",
        "adjacent_to",
        "terror",
        "sabotaged",
        "not",
    }
)
#: the piece tests inside a filter: ``has`` / ``at_most`` / ``lacks`` entries
PIECE_TEST_KEYS = {
    "has": frozenset({"pieces", "min"}),
    "at_most": frozenset({"pieces", "max"}),
    "lacks": frozenset({"pieces"}),
}

#: condition -> the keys of its value when it is a mapping (``verbs_play.ev_cond``); one condition per mapping
COND_KEYS: dict[str, frozenset[str] | None] = {
    "not": None,
    "all": None,
    "any": None,
    "capability": None,
    "momentum": None,
    "faction": None,
    "played": None,
    "flag": None,
    "track": frozenset({"name", "min", "max"}),
    "box": frozenset({"box", "pieces", "min"}),
    "pieces": frozenset({"where", "pieces", "min", "max"}),
    "support": frozenset({"space", "min", "max"}),
}

CARD_KEYS = frozenset(
    {
        "number",
        "title",
        "status",
        "source",
        "nonplayer",
        "unshaded",
        "shaded",
        "rulings",
        "owner",
        "precondition",
        "leader",
        "pending",
    }
)
SIDE_KEYS = frozenset({"text", "steps", "modifies"})
OPTION_KEYS = frozenset({"label", "steps", "cond"})
LEADER_KEYS = frozenset({"lasting", "immediate"})
PRECONDITION_KEYS = frozenset({"leader_box_min", "test", "threshold", "threshold_with_flag", "flag"})


class _Checker:
    """Walks one card entry; the first unknown verb or key is a DataError naming file, card and key."""

    def __init__(self, path: Path | str, row: Mapping[str, Any]):
        self.path = path
        self.card = f"card {row.get('number')} {row.get('title', '')}".rstrip()

    def fail(self, where: str, message: str, column: str | None = None) -> DataError:
        return DataError(self.path, f"{self.card}, {where}: {message}", column=column)

    def keys(self, value: Any, allowed: Iterable[str], where: str, column: str) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.fail(where, f"expected a mapping, got {value!r}", column)
        allowed = set(allowed)
        for key in value:
            if key not in allowed:
                raise self.fail(where, f"unknown key {key!r} (known: {', '.join(sorted(allowed))})", column)
        return value

    def steps(self, steps: Any, where: str) -> None:
        if steps is None:
            return
        if not isinstance(steps, list):
            raise self.fail(where, f"steps must be a list, got {steps!r}", "steps")
        for i, step in enumerate(steps, start=1):
            self.step(step, f"{where} step {i}")

    def step(self, step: Any, where: str) -> None:
        if not isinstance(step, Mapping) or "do" not in step:
            raise self.fail(where, f"a step is a mapping with 'do:', got {step!r}", "do")
        do = step["do"]
        if do not in STEP_KEYS:
            raise self.fail(where, f"unknown verb {do!r} (known: {', '.join(sorted(STEP_KEYS))})", "do")
        self.keys(step, STEP_KEYS[do] | {"do"}, f"{where} ({do})", do)
        for key in FILTER_KEYS:
            if key in step:
                self.where(step[key], f"{where} ({do}) {key}")
        if "cond" in step:
            self.cond(step["cond"], f"{where} ({do}) cond")
        for key in NESTED_STEPS:
            if key in step:
                self.steps(step[key], f"{where} ({do}) {key}")
        if do == "choose":
            for j, option in enumerate(step.get("options") or [], start=1):
                self.keys(option, OPTION_KEYS, f"{where} (choose) option {j}", "options")
                if "cond" in option:
                    self.cond(option["cond"], f"{where} (choose) option {j} cond")
                self.steps(option.get("steps"), f"{where} (choose) option {j}")
        if do == "hook":
            from . import hooks

            if not callable(getattr(hooks, str(step.get("name")), None)):
                raise self.fail(
                    where, f"no hook named {step.get('name')!r} in wargames/fitl/events/hooks.py", "name"
                )

    def where(self, w: Any, where: str) -> None:
        self.keys(w, WHERE_KEYS, where, "where")
        for key, allowed in PIECE_TEST_KEYS.items():
            tests = w.get(key, [])
            for test in tests if isinstance(tests, list) else [tests]:
                self.keys(test, allowed, f"{where} {key}", "where")
        for sub in w.get("any", []):
            self.where(sub, f"{where} any")
        if "not" in w:
            self.where(w["not"], f"{where} not")

    def cond(self, c: Any, where: str) -> None:
        self.keys(c, COND_KEYS, where, "cond")
        if len(c) != 1:
            raise self.fail(where, f"a condition names exactly one test, got {sorted(c)}", "cond")
        ((key, value),) = c.items()
        if key == "not":
            self.cond(value, f"{where} not")
        elif key in ("all", "any"):
            for sub in value:
                self.cond(sub, f"{where} {key}")
        elif COND_KEYS[key] is not None:
            self.keys(value, COND_KEYS[key] or (), f"{where} {key}", "cond")
            if key == "pieces" and "where" in value:
                self.where(value["where"], f"{where} pieces where")


def check_card(path: Path | str, row: Mapping[str, Any]) -> None:
    """FITL-5.0-CARDS: one card entry against the vocabulary's schema (DataError on an unknown verb or key)."""
    ck = _Checker(path, row)
    ck.keys(row, CARD_KEYS, "entry", "card")
    for side in ("unshaded", "shaded"):
        if row.get(side) is not None:
            body = ck.keys(row[side], SIDE_KEYS, side, side)
            ck.steps(body.get("steps"), side)
    if row.get("leader") is not None:
        ck.steps(ck.keys(row["leader"], LEADER_KEYS, "leader", "leader").get("immediate"), "leader")
    if row.get("precondition") is not None:
        ck.keys(row["precondition"], PRECONDITION_KEYS, "precondition", "precondition")


def check_where(label: str, where: Mapping[str, Any]) -> None:
    """A space filter built at play time (a hook's): an unknown key is a ValueError naming the card."""
    unknown = [k for k in where if k not in WHERE_KEYS]
    if unknown:
        raise ValueError(
            f"{label}: unknown space filter key {unknown[0]!r} (known: {', '.join(sorted(WHERE_KEYS))})"
        )
