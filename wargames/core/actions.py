"""Actions, decisions and the error raised by an illegal action."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any


class WargamesError(Exception):
    """Base class of every error the package raises on purpose."""


class IllegalAction(WargamesError):
    """An action the rules forbid.  ``rule_id`` names the rule it breaks; the game state is unchanged."""

    def __init__(self, rule_id: str, message: str):
        self.rule_id = rule_id
        self.message = message
        super().__init__(f"[{rule_id}] {message}")

    def __reduce__(self):  # picklable, so errors cross process pools
        return (type(self), (self.rule_id, self.message))


@dataclass(frozen=True, slots=True, init=False)
class Action:
    """A choice a side can make.  ``kind`` and ``params`` identify it; ``label`` describes it in plain words.

    Actions are plain data (JSON-able) so that the record of a game can be saved and replayed.
    ``places`` lists map places the action concerns, so a map click can pick it.
    """

    kind: str
    params: tuple[tuple[str, Any], ...] = ()
    label: str = field(default="", compare=False)
    places: tuple[str, ...] = field(default=(), compare=False)

    def __init__(
        self,
        kind: str,
        params: tuple[tuple[str, Any], ...] = (),
        label: str = "",
        places: tuple[str, ...] = (),
    ) -> None:
        # The dataclass's own __init__ of a frozen class sets each field through object.__setattr__; the slots'
        # setters do the same job in about a third of the time (games build some 100,000 Actions, issue #21).
        # The Action stays frozen: assigning a field afterwards still raises FrozenInstanceError.
        _set_kind(self, kind)
        _set_params(self, params)
        _set_label(self, label)
        _set_places(self, places)

    @classmethod
    def make(cls, kind: str, label: str = "", places: Iterable[str] = (), **params: Any) -> Action:
        """An Action with its parameters in key order (so equal choices compare and hash equal)."""
        items = tuple(params.items())
        if len(items) > 1:
            items = tuple(sorted(items))  # the keys differ, so the values are never compared
        return cls(kind, items, label or kind, places if type(places) is tuple else tuple(places))

    def get(self, key: str, default: Any = None) -> Any:
        for k, v in self.params:
            if k == key:
                return v
        return default

    def __getitem__(self, key: str) -> Any:
        for k, v in self.params:
            if k == key:
                return v
        raise KeyError(key)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "params": dict(self.params)}

    def describe(self) -> str:
        """The action in one readable line, for an action given as data without a label."""
        return f"{self.kind} " + ", ".join(f"{k}={v}" for k, v in self.params) if self.params else self.kind

    @classmethod
    def from_json(cls, data: Any) -> Action:
        if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
            raise ValueError(f"an action must be an object with a 'kind' string, got {data!r}")
        params = data.get("params", {})
        if not isinstance(params, dict):
            raise ValueError(f"an action's 'params' must be an object, got {params!r}")
        for k, v in params.items():
            if not isinstance(v, (str, int, float, bool)) and v is not None:
                raise ValueError(f"action parameter {k!r} must be a plain value, got {v!r}")
        return cls(data["kind"], tuple(sorted(params.items())))

    def __str__(self) -> str:
        return self.label or self.kind


_set_kind, _set_params, _set_label, _set_places = (
    getattr(Action, f).__set__ for f in ("kind", "params", "label", "places")
)


@dataclass(slots=True)
class Decision:
    """What the game waits for: which side decides, on what, under which rule, and the legal choices.

    ``check`` (optional) explains why an action outside ``options`` is illegal, naming the rule.
    """

    side: str
    prompt: str
    rule_id: str
    options: list[Action]
    kind: str = "choose"
    check: Callable[[Action], IllegalAction | None] | None = None
    context: dict[str, Any] = field(default_factory=dict)

    def find(self, action: Action) -> Action | None:
        """The first option equal to ``action`` (same kind and parameters), or None."""
        if (
            type(action) is Action
        ):  # Action's equality read inline (a bot's answer is checked among ~180 options)
            kind, params = action.kind, action.params
            for option in self.options:
                if option.kind == kind and option.params == params and type(option) is Action:
                    return option
            return None
        for option in self.options:
            if option == action:
                return option
        return None

    def reject(self, action: Action) -> IllegalAction:
        if self.check is not None:
            err = self.check(action)
            if err is not None:
                return err
        return IllegalAction(
            self.rule_id,
            f"{action.label or action.describe()} is not one of the {len(self.options)} legal choices "
            f"for '{self.prompt}' ({self.side}).",
        )

    def __repr__(self) -> str:
        return f"Decision({self.side}: {self.prompt} [{self.rule_id}], {len(self.options)} options)"
