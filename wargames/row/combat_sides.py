"""The two sides of a Rumor of War combat (ROW-5.0 - ROW-5.1): the quality and leader markers, the ruling helper of the
combat rules, each unit as combat reads it, the attackers and defenders, and the check of who may take part.  The
steps of a combat are in :mod:`wargames.row.combat`, which also re-exports every name here."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from ..core import IllegalAction
from ..core.data import rule_ref
from ..core.rulings import Ruling
from .tables import COMBAT_TYPES, SIDES, Chit, tables

CAPITALIST, COMMUNIST = SIDES
ATTACKER, DEFENDER = "attacker", "defender"

#: the quality marker each side uses (ROW-5.4.2, ROW-6.2 case h)
QUALITY_MARKERS = {
    CAPITALIST: {"elite": "Elite", "poor": "Poor"},
    COMMUNIST: {"elite": "Guards", "poor": "Penal"},
}


ALL_QUALITY = frozenset({"Elite", "Poor", "Guards", "Penal"})


LEADER_MARKERS = frozenset({"Great Leader", "Incompetent Leader"})


def ruling(rule_id: str, title: str, explanation: str, result: Any = None, **fields: Any) -> Ruling:
    """A Ruling of this game, its ``rule_ref`` filled from the section it cites (``fields``: as
    :meth:`Ruling.of <wargames.core.rulings.Ruling.of>` takes them)."""
    return Ruling.of(rule_id, title, explanation, result=result, rule_ref=rule_ref("row", rule_id), **fields)


def other_side(side: str) -> str:
    return COMMUNIST if side == CAPITALIST else CAPITALIST


# ------------------------------------------------------------------------------------------ units
@dataclass(frozen=True)
class CombatUnit:
    """A unit as combat sees it (ROW-1.0, ROW-5.3.4): side, nationality, type, fresh/active and its markers.

    ``markers`` are marker faces (``"Elite"``, ``"Ammo Shortage"``, ``"Disrupted"``, ``"OOC"`` ...).  ``active``
    means activated by the current HQ (only active units advance, ROW-5.7).  ``name``: the unit's name
    (``units.csv``) for the prompts a student reads; no part of any combat result.
    """

    uid: str
    side: str
    nationality: str
    unit_type: str
    fresh: bool = True
    active: bool = False
    markers: frozenset[str] = field(default_factory=frozenset)
    name: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if self.side not in SIDES:
            raise ValueError(f"{self.uid}: side must be one of {SIDES}, not {self.side!r}")
        if (self.nationality, self.unit_type) not in tables().size_classes:
            raise ValueError(
                f"{self.uid}: no size class for a {self.nationality} {self.unit_type} "
                "(data/row/tables/size_classes.csv)"
            )
        object.__setattr__(self, "markers", frozenset(self.markers))

    @property
    def size_class(self) -> str:
        """ROW-5.3.4: A, B or C (``size_classes.csv``, decision R-CBT-14)."""
        return tables().size_classes[(self.nationality, self.unit_type)]

    def has(self, *markers: str) -> bool:
        return any(m in self.markers for m in markers)

    def quality(self) -> str | None:
        """``"elite"`` or ``"poor"`` if the unit carries a quality marker (ROW-6.2 case h)."""
        if self.has("Elite", "Guards"):
            return "elite"
        if self.has("Poor", "Penal"):
            return "poor"
        return None

    def with_markers(self, add: Iterable[str] = (), remove: Iterable[str] = ()) -> CombatUnit:
        return replace(self, markers=(self.markers - set(remove)) | set(add))

    def __str__(self) -> str:
        return f"{self.nationality} {self.unit_type} {self.uid}"

    def named(self) -> str:
        """The unit as a prompt names it: its name, or (a unit built without one) ``str``."""
        return self.name or str(self)


@dataclass(frozen=True)
class CombatSides:
    """The units of one combat: the declarer and its chosen supporters; the hex's defenders and theirs."""

    hex: str
    combat_type: str
    chit: Chit
    declarer: CombatUnit
    attack_supporters: tuple[CombatUnit, ...] = ()
    defenders: tuple[CombatUnit, ...] = ()
    defense_supporters: tuple[CombatUnit, ...] = ()

    @property
    def attacker_side(self) -> str:
        return self.declarer.side

    @property
    def defender_side(self) -> str:
        return other_side(self.declarer.side)

    def attackers(self) -> tuple[CombatUnit, ...]:
        return (self.declarer, *self.attack_supporters)

    def defending(self) -> tuple[CombatUnit, ...]:
        return (*self.defenders, *self.defense_supporters)

    def units(self, role: str) -> tuple[CombatUnit, ...]:
        return self.attackers() if role == ATTACKER else self.defending()

    def key_units(self, role: str) -> tuple[CombatUnit, ...]:
        """The declaring unit, or every unit in the combat hex (R-CBT-06): the units whose markers gate support."""
        return (self.declarer,) if role == ATTACKER else self.defenders

    def all_units(self) -> tuple[CombatUnit, ...]:
        return (*self.attackers(), *self.defending())


def check_participants(c: CombatSides) -> Ruling:
    """ROW-5.1 / ROW-5.3.3 / ROW-6.2: the units taking part are legal (sides, no routed attacker or supporter).

    Raises IllegalAction naming the rule; returns the ruling listing who fights.
    """
    if c.combat_type not in COMBAT_TYPES:
        raise IllegalAction("ROW-4.6", f"unknown combat type {c.combat_type!r}; types are {COMBAT_TYPES}")
    if not c.defenders:
        raise IllegalAction("ROW-5.1", f"no enemy unit defends {c.hex}: a combat needs a defending unit")
    seen: set[str] = set()
    for u in c.all_units():
        if u.uid in seen:
            raise IllegalAction("ROW-5.3.3", f"{u} is counted twice in the combat at {c.hex}")
        seen.add(u.uid)
    for u in c.attackers():
        if u.side != c.attacker_side:
            raise IllegalAction("ROW-5.3.3", f"{u} is not on the attacker's side ({c.attacker_side})")
        if u.has("Routed"):
            raise IllegalAction(
                "ROW-6.2", f"{u} is Routed: a routed unit may not attack or support (6.2 case g)"
            )
    for u in c.defending():
        if u.side != c.defender_side:
            raise IllegalAction("ROW-5.3.3", f"{u} is not on the defender's side ({c.defender_side})")
    for u in c.defense_supporters:
        if u.has("Routed"):
            raise IllegalAction("ROW-6.2", f"{u} is Routed: a routed unit may not support (6.2 case g)")
    names = ", ".join(str(u) for u in c.attack_supporters) or "no supporter"
    dnames = ", ".join(str(u) for u in c.defense_supporters) or "no supporter"
    return ruling(
        "ROW-5.1",
        f"Combat at {c.hex}",
        f"{c.declarer} attacks {c.hex} ({', '.join(str(u) for u in c.defenders)}) with {names}; "
        f"the defence is supported by {dnames}. Every unit in the hex defends (R-CBT-06).",
        {
            "attackers": [u.uid for u in c.attackers()],
            "defenders": [u.uid for u in c.defenders],
            "defense_supporters": [u.uid for u in c.defense_supporters],
        },
        inputs={"hex": c.hex, "combat_type": c.combat_type, "chit": c.chit.id},
        places=[c.hex],
    )
