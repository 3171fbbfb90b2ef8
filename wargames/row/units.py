"""Rumor of War counters as data: units, HQs and leaders (``data/row/units.csv``; ROW-2.3, ROW-9.1, ROW-14.2).

The counter sheets are not in our source (rules 2.3 shows only the layout and the leader names), so the table
holds the counters our reconstructed scenarios use, plus the whole leader roster of 2.3 (decision R-SCN-03):

* **units** (ROW-2.3): divisions, brigades, regiments, battalions and cadres.  Ground units print **no combat
  or movement factors** in this system: combat comes from dice, support levels and the unit's **size class**
  (glossary, 5.3.4; checked against ``data/row/tables/size_classes.csv``), and every unit moves 5 MP (4.5);
  Special Forces never move (14.1.5).  A starting quality marker (Elite/Poor, Guards/Penal, 6.2h) is the only
  "value" a unit carries, and it is a reconstruction where given.
* **HQs** (ROW-9.1): move 10 MP (4.5), activate up to 4 units (4.5, 9.1) within 10 MP, of the nationalities
  listed in ``activates`` (9.1; ARVN HQs decision R-SCN-05).
* **leaders** (ROW-14.2): theater commanders (effects in 14.2.1, no value), ground commanders and aces (a
  value; not in the text, reconstruction).

Traits: ``marine`` (US Marines: amphibious moves, 14.1.3), ``special_forces`` (14.1.5), ``riverine`` (14.1.4),
``airmobile`` (helicopter cost 1, 14.1.2.1), ``created`` (a battalion or ARVN regiment that exists only inside
an activation, 14.1.1; never set up), ``independent`` (a regiment that is a counter of its own, decision R-SCN-06).

Bad rows raise :class:`~wargames.core.data.DataError` naming file, line and column.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator

from ..core.data import DataError, Row, cached_build, game_dir, read_csv
from .tables import tables

CAPITALIST_NATIONS = ("US", "ARVN", "ROK", "Thai", "Aus", "Cmb", "Laos")
COMMUNIST_NATIONS = ("PAVN", "VC", "PRC", "PL", "KhR")
NATION_SIDE = {**{n: "Capitalist" for n in CAPITALIST_NATIONS}, **{n: "Communist" for n in COMMUNIST_NATIONS}}
UNIT_TYPES = ("division", "brigade", "regiment", "battalion", "cadre")
LEADER_TYPES = ("theater_commander", "ground_leader", "ace")
TRAITS = ("marine", "special_forces", "riverine", "airmobile", "created", "independent")
QUALITY = {"Capitalist": ("Elite", "Poor"), "Communist": ("Guards", "Penal")}  # rules 6.2h
UNIT_MP = 5  # rules 4.5
HQ_MP = 10  # rules 4.5
ACTIVATION_LIMIT = 4  # rules 4.5, 9.1 (a theater commander could change it: no listed one does)
COMMAND_RANGE_MP = 10  # rules 4.5, 9.2

UNITS_FILE = "units.csv"


def _split(v: str | None) -> tuple[str, ...]:
    return tuple(s.strip() for s in v.split(";") if s.strip()) if v else ()


class UnitRow(Row):
    """One counter of ``data/row/units.csv`` (ROW-2.3): a unit, an HQ or a leader."""

    id: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    side: Literal["Capitalist", "Communist"]
    nationality: Literal["US", "ARVN", "ROK", "Thai", "Aus", "Cmb", "Laos", "PAVN", "VC", "PRC", "PL", "KhR"]
    kind: Literal["unit", "hq", "leader"]
    unit_type: Literal[
        "division",
        "brigade",
        "regiment",
        "battalion",
        "cadre",
        "hq",
        "theater_commander",
        "ground_leader",
        "ace",
    ]
    size_class: Literal["A", "B", "C"] | None = None
    division: str | None = None
    parent: str | None = None
    movement: int | None = Field(default=None, ge=0, le=10)
    quality: Literal["Elite", "Poor", "Guards", "Penal"] | None = None
    traits: str | None = None
    activates: str | None = None
    activation_limit: int | None = Field(default=None, ge=1)
    command_range: int | None = Field(default=None, ge=1)
    leader_value: int | None = Field(default=None, ge=-3, le=3)
    entry: str | None = None
    note: str | None = None

    @field_validator("traits")
    @classmethod
    def _traits(cls, v: str | None) -> str | None:
        bad = [t for t in _split(v) if t not in TRAITS]
        if bad:
            raise ValueError(f"unknown trait(s) {bad}; traits are {', '.join(TRAITS)}")
        return v

    # -- derived facts
    @property
    def trait_set(self) -> frozenset[str]:
        return frozenset(_split(self.traits))

    def has(self, trait: str) -> bool:
        return trait in self.trait_set

    @property
    def activates_nations(self) -> tuple[str, ...]:
        """ROW-9.1: the nationalities this HQ may activate."""
        return _split(self.activates)

    @property
    def is_unit(self) -> bool:
        """Glossary: an HQ is not a unit; leaders are markers."""
        return self.kind == "unit"

    @property
    def helicopter_cost(self) -> int | None:
        """ROW-14.1.2.1: helicopter points to fly this unit (airmobile 1, other US battalion 2, ARVN regiment 3)."""
        if self.kind != "unit":
            return None
        if self.has("airmobile"):
            return 1
        if self.nationality == "US" and self.unit_type == "battalion" and not self.has("special_forces"):
            return 2
        if self.nationality == "ARVN" and self.unit_type == "regiment" and self.has("created"):
            return 3
        return None

    @property
    def stacks_freely(self) -> bool:
        """ROW-4.2: US battalions (Army, Marine, Special Forces, Riverine) do not count for stacking."""
        return self.nationality == "US" and self.unit_type == "battalion"


@cache
def load_units(path: Path | None = None) -> dict[str, UnitRow]:
    """Read and cross-check ``data/row/units.csv`` (ROW-2.3); a bad row is a DataError naming line and column.
    The checked counters are cached whole with the size classes they are checked against (``core.data.cached_build``,
    issue #21)."""
    p = Path(path) if path is not None else game_dir("row") / UNITS_FILE
    classes = game_dir("row") / "tables" / "size_classes.csv"
    return cached_build([p, classes], "row-units", __name__, lambda: _checked_units(p))


def _checked_units(p: Path) -> dict[str, UnitRow]:
    rows = read_csv(p, UnitRow)
    out: dict[str, UnitRow] = {}
    sizes = tables().size_classes
    for line, u in enumerate(rows, start=2):

        def bad(msg: str, column: str, _line: int = line) -> DataError:
            return DataError(p, msg, row=_line, column=column)

        if u.id in out:
            raise bad(f"duplicate id {u.id!r}", "id")
        if NATION_SIDE[u.nationality] != u.side:
            raise bad(
                f"{u.nationality} counters belong to the {NATION_SIDE[u.nationality]} side (rules 2.3)",
                "side",
            )
        if u.kind == "unit":
            if u.unit_type not in UNIT_TYPES:
                raise bad(f"a unit's type must be one of {', '.join(UNIT_TYPES)}", "unit_type")
            want = sizes.get((u.nationality, u.unit_type))
            if want is None:
                raise bad(
                    f"no size class for a {u.nationality} {u.unit_type} in tables/size_classes.csv (5.3.4)",
                    "unit_type",
                )
            if u.size_class != want:
                raise bad(
                    f"a {u.nationality} {u.unit_type} is size class {want} (5.3.4, size_classes.csv), "
                    f"not {u.size_class}",
                    "size_class",
                )
            mp = 0 if u.has("special_forces") else UNIT_MP
            if u.movement != mp:
                raise bad(f"movement must be {mp} (rules {'14.1.5' if mp == 0 else '4.5'})", "movement")
            if u.quality is not None and u.quality not in QUALITY[u.side]:
                raise bad(f"{u.side} quality markers are {' and '.join(QUALITY[u.side])} (6.2h)", "quality")
            if u.has("marine") and u.nationality != "US":
                raise bad("only US units are Marines here (14.1.3)", "traits")
            if u.has("special_forces") and not (u.nationality == "US" and u.unit_type == "battalion"):
                raise bad("Special Forces are US battalions (14.1.5)", "traits")
            if u.activates or u.activation_limit or u.command_range or u.leader_value is not None:
                raise bad("only HQs activate and only leaders have a value", "activates")
        elif u.kind == "hq":
            if u.unit_type != "hq":
                raise bad("an HQ's unit_type is 'hq'", "unit_type")
            if u.movement != HQ_MP:
                raise bad(f"HQs move {HQ_MP} MP (4.5)", "movement")
            nations = u.activates_nations
            if not nations:
                raise bad("an HQ must list the nationalities it activates (9.1)", "activates")
            for n in nations:
                if NATION_SIDE.get(n) != u.side:
                    raise bad(f"{n!r} is not a {u.side} nationality (9.1)", "activates")
            if u.activation_limit != ACTIVATION_LIMIT:
                raise bad(f"an HQ activates up to {ACTIVATION_LIMIT} units (4.5, 9.1)", "activation_limit")
            if u.command_range != COMMAND_RANGE_MP:
                raise bad(f"an HQ's command range is {COMMAND_RANGE_MP} MP (4.5)", "command_range")
            if u.size_class or u.quality or u.parent or u.traits:
                raise bad(
                    "an HQ is not a unit: no size class, quality, parent or traits (glossary)", "size_class"
                )
        else:  # leader
            if u.unit_type not in LEADER_TYPES:
                raise bad(f"a leader's type must be one of {', '.join(LEADER_TYPES)}", "unit_type")
            if u.unit_type == "theater_commander" and u.leader_value is not None:
                raise bad("theater commanders have effects (14.2.1), not a value", "leader_value")
            if u.unit_type != "theater_commander" and u.leader_value is None:
                raise bad("ground commanders and aces need a value (14.2.2, 14.2.3)", "leader_value")
            if u.movement is not None or u.size_class or u.activates:
                raise bad("a leader is a marker: no movement, size or activation", "movement")
        out[u.id] = u

    # cross-row checks: parents (14.1.1) and divisions (9.4)
    for line, u in enumerate(rows, start=2):
        if u.has("created"):
            par = out.get(u.parent or "")
            if par is None:
                raise DataError(
                    p, f"created unit {u.id} needs the id of its parent (14.1.1)", row=line, column="parent"
                )
            ok = (
                u.nationality == "US"
                and u.unit_type == "battalion"
                and par.nationality == "US"
                and par.unit_type in ("regiment", "brigade", "cadre")
            ) or (
                u.nationality == "ARVN"
                and u.unit_type == "regiment"
                and par.nationality == "ARVN"
                and par.unit_type == "division"
            )
            if not ok:
                raise DataError(
                    p,
                    f"a {par.nationality} {par.unit_type} cannot create a {u.nationality} "
                    f"{u.unit_type} (14.1.1: US cadre/regiment/brigade -> battalion; ARVN division "
                    "-> regiment)",
                    row=line,
                    column="parent",
                )
        elif u.parent:
            raise DataError(
                p, "only created units (trait 'created') have a parent", row=line, column="parent"
            )
        if (
            u.division
            and u.nationality == "US"
            and not any(
                c.division == u.division and c.unit_type == "cadre" and c.nationality == "US"
                for c in out.values()
            )
        ):
            raise DataError(
                p, f"US division {u.division!r} has no cadre counter (9.4)", row=line, column="division"
            )
    return out


def units_of(side: str, kind: str = "unit") -> list[UnitRow]:
    """The counters of one side and kind, in file order."""
    return [u for u in load_units().values() if u.side == side and u.kind == kind]
