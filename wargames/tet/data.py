"""Tet Offensive 1968: the data tables (``data/tet/``), their schemas, and the map built from them.

Almost all of the map and order of battle is a reconstruction (the community summary gives counts, not
positions); every row says so in its ``source``.  See ``data/tet/decisions.csv`` for the reasoning.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from typing import Literal, get_args

from pydantic import Field

from ..core.data import (
    DataError,
    Row,
    RuleRow,
    by_id,
    cached_build,
    cached_csv,
    game_dir,
    read_csv,
    read_geojson,
    read_rules_index,
)
from ..maps import Area, AreaMap

Faction = Literal["NVA", "VC", "USA", "SVN"]
Corps = Literal["I", "II", "III", "IV"]


class AreaRow(Row):
    id: str
    name: str
    kind: Literal["province", "city", "sanctuary", "box"]
    country: Literal["SVN", "LAO", "KHM", "NVN", "OFF"]
    corps: Corps | None = None
    terrain: Literal["lowland", "highland", "marsh"] | None = None
    coastal: bool = False
    province: str | None = None
    pv: int | None = Field(default=None, ge=1, le=8)
    airbase: bool = False
    on_road: bool = False
    mekong: bool = False
    on_trail: bool = False
    lat: float | None = Field(default=None, ge=5, le=25)
    lon: float | None = Field(default=None, ge=98, le=112)


class EdgeRow(Row):
    a: str
    b: str
    kind: Literal["province", "border", "sanctuary", "trail", "road"]
    route: str | None = None
    crosses_corps: bool = False


class UnitRow(Row):
    id: str
    name: str
    faction: Faction
    nation: str
    type: Literal[
        "infantry",
        "mech_cav",
        "riverine",
        "battleship",
        "heli",
        "tac_air",
        "arc_light",
        "recce",
        "airborne",
        "marine",
        "ranger",
        "mike_force",
        "ruff_puff",
        "division",
        "regiment",
        "main_force",
        "local_force",
        "sapper",
    ]
    size: Literal["large", "small"] | None = None
    sector: Literal["I", "II", "III", "IV", "T"] | None = None
    cf: int = Field(ge=0, le=30)
    defense: int | None = Field(default=None, ge=0)
    df: int | None = Field(default=None, ge=0, le=6)
    start: str
    white_letters: bool = False
    confidence: Literal["high", "med", "low"] | None = None
    notes: str | None = None


class CrtRow(Row):
    die: int = Field(ge=1, le=6)
    c12: Literal["OR", "H", "M"] = Field(alias="1:2")
    c11: Literal["OR", "H", "M"] = Field(alias="1:1")
    c21: Literal["OR", "H", "M"] = Field(alias="2:1")
    c31: Literal["OR", "H", "M"] = Field(alias="3:1")
    c41: Literal["OR", "H", "M"] = Field(alias="4:1")
    c51: Literal["OR", "H", "M"] = Field(alias="5:1")


class FactionRow(Row):
    faction: Faction
    side: Literal["Communist", "Allied"]
    colour: str
    demoralization_level: int = Field(gt=0)
    start_score: int


COMMUNIST = ("NVA", "VC")
ALLIED = ("USA", "SVN")
SIDE_OF = {"NVA": "Communist", "VC": "Communist", "USA": "Allied", "SVN": "Allied"}
AIR_TYPES = frozenset({"heli", "tac_air", "arc_light"})
NOT_GROUND = AIR_TYPES | {"battleship", "recce"}
RECCE_COUNTRY = {"Vietnam": "SVN", "Laos": "LAO", "Cambodia": "KHM"}


@dataclass(frozen=True)
class TetData:
    """Everything static about the game: the map, the units, the CRT, the factions, the rules index."""

    map: AreaMap
    areas: dict[str, AreaRow]
    units: dict[str, UnitRow]
    crt: tuple[CrtRow, ...]
    factions: dict[str, FactionRow]
    rules: dict[str, RuleRow]
    corps_crossings: frozenset[frozenset[str]]
    cities_of: dict[str, tuple[str, ...]]

    @cached_property
    def corps(self) -> dict[str, str | None]:
        """Each area's Corps (a city: its province's, TET-UNIT-3), built once: the Allied movement rules ask it
        tens of thousands of times a game."""
        return {
            a.id: self.areas[a.province].corps if a.kind == "city" else a.corps for a in self.areas.values()
        }

    @cached_property
    def counter_names(self) -> dict[str, str]:
        """Each unit face up: faction, name and factors, e.g. "NVA 2nd Division (6[4])", built once."""
        out = {}
        for uid, u in self.units.items():
            name = u.name if u.name.startswith(u.faction) else f"{u.faction} {u.name}"
            if name.rstrip().endswith(")") and f"({u.cf}" in name:
                out[uid] = name  # names that already carry their factors, e.g. "VC III Corps unit 20 (2(1))"
            else:
                out[uid] = f"{name} ({u.cf})" if u.defense is None else f"{name} ({u.cf}[{u.defense}])"
        return out

    def recce_country(self, unit_id: str) -> str:
        """Which country a Recce may search (TET-P5-4): from its name (Vietnam, Laos or Cambodia)."""
        name = self.units[unit_id].name
        for word, country in RECCE_COUNTRY.items():
            if word in name:
                return country
        raise DataError(game_dir("tet") / "units.csv", f"recce {unit_id} names no country", column="name")


def _check_references(areas: dict[str, AreaRow], edges: list[EdgeRow], units: dict[str, UnitRow]) -> None:
    base = game_dir("tet")
    for i, e in enumerate(edges, start=2):
        for end in (e.a, e.b):
            if end not in areas:
                raise DataError(base / "edges.csv", f"unknown area {end!r}", row=i, column="a/b")
    for a in areas.values():
        if a.kind == "city" and (a.province not in areas or areas[a.province].kind != "province"):
            raise DataError(
                base / "areas.csv",
                f"city {a.id} must name its province (got {a.province!r})",
                column="province",
            )
    for u in units.values():
        if u.start not in areas and u.start != "random_city":
            raise DataError(
                base / "units.csv", f"unit {u.id} starts in unknown area {u.start!r}", column="start"
            )


def _check_counts(areas: dict[str, AreaRow], units: dict[str, UnitRow], crt: tuple[CrtRow, ...]) -> None:
    """The totals the summary states; a data edit that breaks one is refused, naming the rule."""
    base = game_dir("tet")
    kinds = [a.kind for a in areas.values()]
    prov = [a for a in areas.values() if a.kind == "province"]
    cities = [a for a in areas.values() if a.kind == "city"]
    checks = [
        (
            "TET-MAP-2",
            "areas.csv",
            len(prov) == 30 and sum(a.country == "SVN" for a in prov) == 23,
            "30 provinces, 23 of them in South Vietnam",
        ),
        (
            "TET-MAP-3",
            "areas.csv",
            len(cities) == 41
            and sum(a.airbase for a in cities) == 10
            and areas.get("saigon") is not None
            and areas["saigon"].pv == 8,
            "41 cities, 10 with airbases, Saigon political value 8",
        ),
        ("TET-MAP-4", "areas.csv", kinds.count("sanctuary") == 10, "9 sanctuaries plus North Vietnam"),
        (
            "TET-MAP-1",
            "areas.csv",
            len(prov)
            + len(cities)
            + kinds.count("sanctuary")
            + sum(a.id.startswith("offmap_box") for a in areas.values())
            == 83,
            "83 areas (decision A-05: with North Vietnam and the 2 off-map air boxes)",
        ),
        (
            "TET-MAP-5",
            "areas.csv",
            all(a.corps == ("I", "II", "III", "IV")[int(a.id[0]) - 1] for a in prov if a.country == "SVN"),
            "a Vietnamese province's first digit is its Corps",
        ),
        (
            "TET-MAP-9",
            "areas.csv",
            {a.id for a in prov if a.mekong} == {"42", "43"},
            "the Mekong in 42 and 43",
        ),
        (
            "TET-UNIT-1",
            "units.csv",
            sum(u.faction == "NVA" for u in units.values()) == 22
            and sum(u.faction == "VC" for u in units.values()) == 56
            and sum(u.type == "ruff_puff" for u in units.values()) == 40,
            "22 NVA, 56 VC and 40 Ruff Puff counters",
        ),
        (
            "TET-UNIT-2",
            "units.csv",
            all(u.defense is not None for u in units.values() if u.type == "sapper"),
            "sappers carry a bracketed defense factor",
        ),
        (
            "TET-COMP-4",
            "crt.csv",
            sorted(r.die for r in crt) == [1, 2, 3, 4, 5, 6],
            "one CRT row per die face",
        ),
    ]
    for rule, name, ok, what in checks:
        if not ok:
            raise DataError(base / name, f"breaks {rule}: the summary requires {what}")


@cache
def load_data() -> TetData:
    """Read and cross-check every table of ``data/tet`` once per process.  The checked tables and the area map are
    cached (``core.data.cached_build``, keyed by the bytes of ``data/tet/*.csv`` and ``areas.geojson`` and by this
    package's code), so a first ``load()`` builds no validator (issue #21)."""
    base = game_dir("tet")
    return cached_build(
        [*sorted(base.glob("*.csv")), base / "areas.geojson"], "tet-data", __name__, _build_data
    )


def _build_data() -> TetData:
    base = game_dir("tet")
    areas = by_id("tet", "areas.csv", AreaRow)
    edges = list(cached_csv("tet", "edges.csv", EdgeRow))
    units = by_id("tet", "units.csv", UnitRow)
    _check_references(areas, edges, units)
    crt = tuple(read_csv(base / "crt.csv", CrtRow))
    _check_counts(areas, units, crt)

    shapes: dict[str, dict] = {}
    geo = base / "areas.geojson"
    if geo.exists():
        for feat in read_geojson(geo)["features"]:
            props = feat["properties"]
            key = props["id"] if props.get("kind") != "label" else f"label:{props['id']}"
            shapes[key] = feat["geometry"]
    map_areas = [Area(a.id, a.name, a.kind, a.lat, a.lon, a.model_dump()) for a in areas.values()]
    map_edges = [
        (e.a, e.b, "land" if e.kind in ("province", "border", "sanctuary") else e.kind) for e in edges
    ]
    cities_of: dict[str, list[str]] = {}
    for a in areas.values():
        if a.kind == "city":
            map_edges.append((a.id, a.province, "city"))
            cities_of.setdefault(a.province, []).append(a.id)
    amap = AreaMap(map_areas, map_edges, shapes)
    crossings = frozenset(frozenset((e.a, e.b)) for e in edges if e.crosses_corps and e.kind != "road")
    rules = read_rules_index(base / "rules_index.csv", "TET")
    factions: dict[str, FactionRow] = {}
    for line, f in enumerate(read_csv(base / "factions.csv", FactionRow), start=2):
        if f.faction in factions:
            raise DataError(
                base / "factions.csv", f"faction {f.faction} listed twice", row=line, column="faction"
            )
        factions[f.faction] = f
    missing = [f for f in get_args(Faction) if f not in factions]
    if missing:  # issue #30 item 14: a cut file is a clear error, not a KeyError later
        raise DataError(
            base / "factions.csv", f"the four factions (TET-COMP-5) need a row each; missing {missing}"
        )
    return TetData(
        amap, areas, units, crt, factions, rules, crossings, {k: tuple(v) for k, v in cities_of.items()}
    )
