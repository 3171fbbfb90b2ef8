"""Vietnam: Rumor of War, the data of the air war and the navy (ROW-10.0, ROW-11.0): the Air Display as tables and
the scenario blocks that put aircraft, airfields, SAMs, aces and the 7th Fleet into a scenario.

Tables (``data/row/air/``, every row with its ``source``):

* ``aircraft_types.csv``: the mission values of each plane type (digest 4.Z.4, a labelled reconstruction: the
  published Air Display is absent); 0 means the type cannot fly that mission (10.3: a value of 1 is needed);
* ``aircraft.csv``: the aircraft counters (wings, regiments) with their type and service (10.3.6: aces fly with
  their own service);
* ``airfields.csv`` and ``locations.csv``: the airfields and what their location allows (10.1, decision R-AIR-02);
* ``mission_boxes.csv``: the mission boxes of the Air Display, with the value each uses and whether a
  restricted box exists (10.2, 10.3.7);
* ``repair.csv``: the repair roll of each side (10.2, digest 4.9);
* ``aces.csv``: the aces of 2.3 with reconstructed values (10.3.6).

The scenario keys (``air:`` and ``fleet:``) are documented for scenario writers in the module docstring of
``wargames.row.air`` and in ``/work/wt/notes/row-air-schema.md``.  This module imports nothing of the game, so
``scenario.py`` can use its models.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..core.data import DataError, Row, game_dir, read_csv

R = TypeVar("R", bound=Row)

AIR_DIR = "air"
MissionKind = Literal["strategic", "tactical"]
VALUE_COLUMNS = (
    "a2a",
    "infrastructure",
    "airfield",
    "sam",
    "aew",
    "interdiction",
    "ground_support",
    "recon",
    "hcm_strike",
    "special_ops",
)


class AircraftType(Row):
    """One plane type of the Air Display (digest 4.Z.4): its mission values (D10 targets) and Station number."""

    type: str
    name: str
    side: Literal["Capitalist", "Communist"]
    a2a: int = Field(ge=0, le=10)
    infrastructure: int = Field(ge=0, le=10)
    airfield: int = Field(ge=0, le=10)
    sam: int = Field(ge=0, le=10)
    aew: int = Field(ge=0, le=10)
    interdiction: int = Field(ge=0, le=10)
    ground_support: int = Field(ge=0, le=10)
    recon: int = Field(ge=0, le=10)
    hcm_strike: int = Field(ge=0, le=10)
    special_ops: int = Field(ge=0, le=10)
    station: int = Field(ge=1, le=10)
    downtown: Literal["yes", "no"]

    def value(self, column: str) -> int:
        if column not in VALUE_COLUMNS:
            raise KeyError(f"no mission value {column!r}; values are {', '.join(VALUE_COLUMNS)}")
        return int(getattr(self, column))


class AircraftCounter(Row):
    """One aircraft counter (a wing or regiment) and the plane type whose values it uses (2.3)."""

    id: str
    name: str
    type: str
    side: Literal["Capitalist", "Communist"]
    service: Literal["USAF", "Navy", "USMC", "VNAF", "VPAF", "PRC"]


class AirfieldRow(Row):
    """One airfield counter: whose, and where (its location decides the missions it supports, 10.1)."""

    id: str
    name: str
    side: Literal["Capitalist", "Communist"]
    location: str
    place: str | None = None


class LocationRow(Row):
    """What an airfield location allows (decision R-AIR-02): strategic missions, tactical missions, and whether
    the US may strike its airfields (10.3.3.1)."""

    location: str
    side: Literal["Capitalist", "Communist"]
    strategic: Literal["yes", "no"]
    tactical: Literal["yes", "no"]
    strikable: Literal["yes", "no"]


class MissionBox(Row):
    """A mission box of the Air Display (10.2): the value its aircraft use, who may use it, restriction rules."""

    box: str
    name: str
    kind: MissionKind
    value: str
    sides: str
    restricted_box: Literal["yes", "no"]
    always_unrestricted: Literal["yes", "no"]
    rule: str

    def for_side(self, side: str) -> bool:
        return side in self.sides.split(";")


class RepairRow(Row):
    side: Literal["Capitalist", "Communist"]
    repair_if_d10_at_most: int = Field(ge=1, le=10)


class AceRow(Row):
    """An ace of 2.3 with its (reconstructed) value added to air-to-air (10.3.6)."""

    id: str
    name: str
    side: Literal["Capitalist", "Communist"]
    service: Literal["USAF", "Navy", "USMC", "VNAF", "VPAF", "PRC"]
    value: int = Field(ge=1, le=3)


def _keyed(path: Path, rows: list[R], key: str) -> dict[str, R]:
    """``rows`` by their ``key`` column; a repeated key is a DataError naming the file and line (issue #30 item
    11: a duplicated aircraft id would otherwise silently replace the first counter)."""
    out: dict[str, R] = {}
    for line, r in enumerate(rows, start=2):
        k = getattr(r, key)
        if k in out:
            raise DataError(path, f"duplicate {key} {k!r}", row=line, column=key)
        out[k] = r
    return out


@cache
def aircraft_types() -> dict[str, AircraftType]:
    path = game_dir("row") / AIR_DIR / "aircraft_types.csv"
    return _keyed(path, read_csv(path, AircraftType), "type")


@cache
def aircraft_counters() -> dict[str, AircraftCounter]:
    path = game_dir("row") / AIR_DIR / "aircraft.csv"
    rows = read_csv(path, AircraftCounter)
    types = aircraft_types()
    for line, r in enumerate(rows, start=2):
        if r.type not in types:
            raise DataError(
                path,
                f"{r.id}: unknown aircraft type {r.type!r} (known: {', '.join(types)})",
                row=line,
                column="type",
            )
    return _keyed(path, rows, "id")


@cache
def locations() -> dict[str, LocationRow]:
    path = game_dir("row") / AIR_DIR / "locations.csv"
    return _keyed(path, read_csv(path, LocationRow), "location")


@cache
def airfields() -> dict[str, AirfieldRow]:
    path = game_dir("row") / AIR_DIR / "airfields.csv"
    rows = read_csv(path, AirfieldRow)
    for line, r in enumerate(rows, start=2):
        if r.location not in locations():
            raise DataError(path, f"{r.id}: unknown location {r.location!r}", row=line, column="location")
    return _keyed(path, rows, "id")


@cache
def mission_boxes() -> dict[str, MissionBox]:
    path = game_dir("row") / AIR_DIR / "mission_boxes.csv"
    return _keyed(path, read_csv(path, MissionBox), "box")


@cache
def repair_table() -> dict[str, int]:
    return {
        r.side: r.repair_if_d10_at_most for r in read_csv(game_dir("row") / AIR_DIR / "repair.csv", RepairRow)
    }


@cache
def aces() -> dict[str, AceRow]:
    path = game_dir("row") / AIR_DIR / "aces.csv"
    return _keyed(path, read_csv(path, AceRow), "id")


# ------------------------------------------------------------------------------------------ scenario blocks
class _Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class AircraftPlacement(_Entry):
    """An aircraft counter on the Air Display at set-up: Available or Damaged, full or reduced (10.2)."""

    id: str
    box: Literal["available", "damaged"] = "available"
    reduced: bool = False


class AirfieldPlacement(_Entry):
    id: str
    improved: bool = False
    damaged: bool = False


class AceArrival(_Entry):
    """ROW-10.3.6: an ace the chart brings in a season (the season his victories made him one), with its source."""

    id: str
    turn: int = Field(ge=1)
    source: str = ""


class AirArrival(_Entry):
    """What the reinforcement chart brings to the Air Display on a turn (A3): aircraft, airfields, SAMs, ARMs, and
    (``replace_losses``) new aircraft for the Capitalist's lost and reduced counters."""

    turn: int = Field(ge=1)
    aircraft: list[str] = []
    airfields: list[str] = []
    sams: int = Field(default=0, ge=0, le=9)
    arms: int = Field(default=0, ge=0, le=9)
    #: ROW-10.1 / 10.2 (decision R-WAR-30): the chart makes good the Capitalist's air losses this season: every US
    #: and allied aircraft counter still in the theatre that was eliminated or reduced returns at full strength
    replace_losses: bool = False
    source: str


class AirWithdrawal(_Entry):
    turn: int = Field(ge=1)
    aircraft: list[str]
    source: str


class AirBlock(_Entry):
    """The ``air:`` block of a scenario (ROW-10.0).  Ids are checked against ``data/row/air/``; an unknown
    aircraft or airfield id is refused with the id named."""

    source: str
    aircraft: list[AircraftPlacement] = []
    airfields: list[AirfieldPlacement] = []
    sams: int = Field(default=0, ge=0, le=9)
    arms: int = Field(default=0, ge=0, le=9)
    aces: list[AceArrival] = []
    arrivals: list[AirArrival] = []
    withdrawals: list[AirWithdrawal] = []
    restricted_only: list[Literal["infrastructure", "downtown"]] = []
    free_unrestricted: int = Field(default=0, ge=0, le=9)
    monsoon: bool = True

    @model_validator(mode="after")
    def _known_ids(self) -> AirBlock:
        known_a, known_f, known_ace = aircraft_counters(), airfields(), aces()
        seen: set[str] = set()
        for a in [p.id for p in self.aircraft] + [x for r in self.arrivals for x in r.aircraft]:
            if a not in known_a:
                raise ValueError(f"ROW-10.1: unknown aircraft {a!r} (data/row/air/aircraft.csv)")
            if a in seen:
                raise ValueError(f"ROW-10.1: aircraft {a!r} is placed twice")
            seen.add(a)
        for w in self.withdrawals:
            for a in w.aircraft:
                if a not in seen:
                    raise ValueError(f"ROW-10.1: withdrawal of {a!r}, which the scenario never brings in")
        fields: set[str] = set()
        for f in [p.id for p in self.airfields] + [x for r in self.arrivals for x in r.airfields]:
            if f not in known_f:
                raise ValueError(f"ROW-10.1: unknown airfield {f!r} (data/row/air/airfields.csv)")
            if f in fields:
                raise ValueError(f"ROW-10.1: airfield {f!r} is placed twice")
            fields.add(f)
        for ace in self.aces:
            if ace.id not in known_ace:
                raise ValueError(f"ROW-10.3.6: unknown ace {ace.id!r} (data/row/air/aces.csv)")
        return self


class FleetBlock(_Entry):
    """The ``fleet:`` block (ROW-11.1): the 7th Fleet's station box at the start."""

    station: Literal["Yankee", "Dixie"] = "Yankee"
    source: str
