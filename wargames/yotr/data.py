"""Year of the Rat (SPI 1972): the data tables of ``data/yotr/``, their schemas, and the hex map built from them.

The rules text gives the charts (CRT complete, BRT rows 1-3, TEC, Supply Effects Chart, victory tables) but
no map and no reinforcement track: the map, the start hexes and the schedule are reconstructions, and every
row says so in its ``source`` (see ``data/yotr/PROVENANCE.md`` and ``decisions.csv``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, cached_property
from pathlib import Path
from typing import Literal

from pydantic import ConfigDict, Field

from ..core.data import (
    DataError,
    DecisionRow,
    Row,
    RuleRow,
    by_id,
    cached_build,
    cached_csv,
    game_dir,
    rules_index,
)
from ..maps.hexdata import HexMapData
from ..maps.hexgrid import HexGrid, hexside

Side = Literal["Communist", "Allied"]
CRT_COLUMNS = ("1-4", "1-3", "1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1", "8-1", "9-1", "10-1")
BRT_COLUMNS = ("1", "2", "3", "4", "5", "6-7", "8-9", "10")


class HexRow(Row):
    hex: str
    col: int
    row: int
    lat: float
    lon: float
    terrain: Literal["clear", "rough", "swamp", "sea"]
    country: Literal["SVN", "NVN", "LAO", "KHM"]
    region: str | None = None


class HexsideRow(Row):
    a: str
    b: str
    feature: Literal["road", "trail", "river", "bridge", "border", "dmz"]
    name: str | None = None


class PlaceRow(Row):
    id: str
    name: str
    hex: str
    kind: Literal["town", "base", "foreign_town", "supply_center", "landmark", "saigon_road"]
    intrinsic_strength: int | None = Field(default=None, ge=0, le=3)  # YOTR-TWN-G: militia 0 to 3
    vp_communist: int | None = None
    vp_allied: int | None = None
    region: str | None = None
    quota: int | None = None
    lat: float
    lon: float


class RegionRow(Row):
    id: str
    name: str
    vp: int
    hexes_rule: str


class CrtRow(Row):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    die: int = Field(ge=1, le=6)
    c14: str = Field(alias="1-4")
    c13: str = Field(alias="1-3")
    c12: str = Field(alias="1-2")
    c11: str = Field(alias="1-1")
    c21: str = Field(alias="2-1")
    c31: str = Field(alias="3-1")
    c41: str = Field(alias="4-1")
    c51: str = Field(alias="5-1")
    c61: str = Field(alias="6-1")
    c71: str = Field(alias="7-1")
    c81: str = Field(alias="8-1")
    c91: str = Field(alias="9-1")
    c101: str = Field(alias="10-1")


class BrtRow(Row):
    die: int = Field(ge=1, le=6)
    b1: str = Field(alias="1")
    b2: str = Field(alias="2")
    b3: str = Field(alias="3")
    b4: str = Field(alias="4")
    b5: str = Field(alias="5")
    b67: str = Field(alias="6-7")
    b89: str = Field(alias="8-9")
    b10: str = Field(alias="10")


#: the results the combat code resolves (combat.py: attacker eliminated / retreats 1-2, no effect, defender
#: retreats 1-2 / eliminated) and the bombardment code (bombardment.py: no effect, Pinned, Disrupted, Eliminated)
CRT_RESULTS = frozenset({"Ae", "Ar1", "Ar2", "NE", "Dr1", "Dr2", "De"})
BRT_RESULTS = frozenset({"NE", "P", "D", "E"})


def _check_table(path: Path, rows: Sequence[CrtRow | BrtRow], legal: frozenset[str], what: str) -> None:
    """Issue #30 item 10: a results table has one row for each die face 1-6 and every cell is a legal result
    (DataError naming the file, line and column)."""
    dies = [r.die for r in rows]
    if sorted(dies) != list(range(1, 7)):
        missing = sorted(set(range(1, 7)) - set(dies))
        doubled = sorted({d for d in dies if dies.count(d) > 1})
        raise DataError(
            path, f"the {what} table needs one row per die 1-6 (missing {missing}, doubled {doubled})"
        )
    for line, r in enumerate(rows, start=2):
        for name, field in type(r).model_fields.items():
            if name in ("die", "source"):
                continue
            cell = getattr(r, name)
            if cell not in legal:
                raise DataError(
                    path,
                    f"{cell!r} is not a {what} result; a cell is one of {sorted(legal)}",
                    row=line,
                    column=field.alias or name,
                )


class TecRow(Row):
    feature: str
    applies_to: str
    communist_mp: str
    allied_mp: str
    arvn_mp: str
    defense: str
    bombardment: str
    confidence: str


class SupplyEffectRow(Row):
    side: str
    unit_class: str
    supply_state: str
    attack: float | None = None
    defense: float | None = None
    movement: float | None = None
    confidence: str


class VpRow(Row):
    vp_min: int | None = None
    vp_max: int | None = None
    level: str
    winner: str | None = None


class TownVpRow(Row):
    intrinsic_strength: int
    vp_on_seizure: int
    vp_lost_on_retake: int
    vp_while_retaken: int
    confidence: str


class OobRow(Row):
    id: str
    #: the name a student reads (issue #19): our own, as the counters print no unit designation (decision D-69)
    name: str = Field(min_length=1)
    side: Side
    nationality: Literal["USA", "ROK", "ARVN", "NVA", "NLF", "AIR", "NAVAL"]
    unit_type: str
    values: str | None = None
    attack: int | None = None
    defense: int | None = None
    movement: int | None = None
    airmobile: bool = False
    ob: str
    deploy_area: str
    start_hex: str | None = None
    turn: int | None = None
    note: str | None = None

    @property
    def is_combat(self) -> bool:
        return self.unit_type not in ("dummy", "supply_real", "supply_dummy", "air_points", "naval_marker")


class ObVariantRow(Row):
    """One difference between a variant OB and the historical forces (YOTR-OB, YOTR-IFC; decision D-63):
    ``remove`` a counter of ``oob.csv`` or ``add`` a new one (initial force when ``turn`` is empty)."""

    ob: Literal["B", "C", "D", "E", "F", "H", "J", "K", "L", "M"]
    change: Literal["remove", "add"]
    id: str
    name: str | None = None  # an added counter's display name (decision D-69); empty for a removal
    side: Side | None = None
    nationality: Literal["USA", "ROK", "ARVN", "NVA", "NLF", "AIR", "NAVAL"] | None = None
    unit_type: str | None = None
    values: str | None = None
    attack: int | None = None
    defense: int | None = None
    movement: int | None = None
    airmobile: bool = False
    turn: int | None = Field(default=None, ge=1, le=13)
    note: str | None = None


def _mp(cell: str) -> Fraction | None:
    """A TEC movement cell as a number of points (None: prohibited or not applicable)."""
    cell = cell.strip()
    head = cell.split(" ")[0].lstrip("+")
    try:
        return Fraction(head)
    except ValueError:
        return None


@dataclass(frozen=True)
class YotrData(HexMapData):
    """Everything static: the hex map (``HexMapData``: grid, hexes, adj, sides), places, regions, charts, the
    order of battle and the rules index."""

    hexes: dict[str, HexRow]
    places: dict[str, PlaceRow]
    towns: dict[str, PlaceRow]  # SVN town and base hexes (D-18; YOTR-TWN-B: only these count) -> place
    town_symbols: frozenset[str]  # every hex with a town or base symbol, Svay Rieng included (YOTR-TEC-5)
    supply_centers: dict[str, PlaceRow]  # SC hex -> place
    regions: dict[str, RegionRow]
    region_towns: dict[str, tuple[str, ...]]  # region -> its scoring town hexes (D-26, D-42)
    saigon_hexes: tuple[str, ...]
    saigon_roads: tuple[str, ...]
    crt: dict[tuple[int, str], str]
    brt: dict[tuple[int, str], str]
    brt_reconstructed_rows: frozenset[int]
    tec: dict[str, TecRow]
    supply_effects: tuple[SupplyEffectRow, ...]
    vp_levels: tuple[VpRow, ...]
    town_vp: dict[int, TownVpRow]
    oob: dict[str, OobRow]
    ob_variants: tuple[ObVariantRow, ...]
    rules: dict[str, RuleRow]
    decisions: dict[str, DecisionRow]

    # ------------------------------------------------------------------ map queries (side_has: HexMapData)
    @cached_property
    def _terrain(self) -> dict[str, str]:
        return {h: r.terrain for h, r in self.hexes.items()}

    def terrain(self, h: str) -> str:
        return self._terrain[h]

    def country(self, h: str) -> str:
        return self.hexes[h].country

    def region(self, h: str) -> str | None:
        return self.hexes[h].region

    @cached_property
    def land_adj(self) -> dict[str, tuple[str, ...]]:
        """Each hex's neighbours that are not all-sea (YOTR-TEC: sea hexes are prohibited); built once."""
        return {h: tuple(n for n in ns if self.hexes[n].terrain != "sea") for h, ns in self.adj.items()}

    @cached_property
    def march_steps(self) -> dict[str, tuple[tuple[str, int], ...]]:
        """Each hex's land neighbours with the march cost of entering them, ignoring roads, rivers and zones
        (clear 1, rough or swamp 2: the terrain rows of YOTR-TEC); the bots' static distances use it."""
        return {
            h: tuple((n, 1 if self.hexes[n].terrain == "clear" else 2) for n in ns)
            for h, ns in self.land_adj.items()
        }

    def has_road_or_trail(self, h: str) -> bool:
        return any(self.side_has(h, n, "road") or self.side_has(h, n, "trail") for n in self.adj[h])

    def tec_mp(self, feature: str, who: str) -> Fraction | None:
        """TEC movement cost of ``feature`` for ``who`` (communist / allied / arvn) (YOTR-TEC)."""
        return _mp(getattr(self.tec[feature], f"{who}_mp"))

    def effect(self, side: str, unit_class: str, state: str) -> SupplyEffectRow:
        for r in self.supply_effects:
            if r.side == side and r.unit_class == unit_class and r.supply_state == state:
                return r
        raise DataError(game_dir("yotr") / "supply_effects.csv", f"no row for {side}/{unit_class}/{state}")

    def level(self, vp: int) -> VpRow:
        for r in self.vp_levels:
            if (r.vp_min is None or vp >= r.vp_min) and (r.vp_max is None or vp <= r.vp_max):
                return r
        raise DataError(game_dir("yotr") / "vp.csv", f"no level covers {vp} VP")


@cache
def load_data() -> YotrData:
    """Read and cross-check every table of ``data/yotr`` once per process.  The checked tables are cached
    (``core.data.cached_build``, keyed by the bytes of every ``data/yotr/*.csv`` and this package's code), so a
    first ``load()`` does not rebuild the map's adjacency (issue #21)."""
    return cached_build(sorted(game_dir("yotr").glob("*.csv")), "yotr-data", __name__, _build_data)


def _result_tables(base: Path) -> tuple[dict, dict, set]:
    """The Combat Results Table (YOTR-CBT-CRT) and the Bombardment Results Table (YOTR-BMB-BRT) as (die, column)
    -> result, each checked; and the BRT's dice rows that are our reconstruction."""
    crt = {}
    crt_rows = cached_csv("yotr", "crt.csv", CrtRow)
    _check_table(base / "crt.csv", crt_rows, CRT_RESULTS, "combat (YOTR-CBT-CRT)")
    for r in crt_rows:
        for col, name in zip(CRT_COLUMNS, [n for n in CrtRow.model_fields if n.startswith("c")], strict=True):
            crt[(r.die, col)] = getattr(r, name)
    brt, recon = {}, set()
    brt_rows = cached_csv("yotr", "brt.csv", BrtRow)
    _check_table(base / "brt.csv", brt_rows, BRT_RESULTS, "bombardment (YOTR-BMB-BRT)")
    for r in brt_rows:
        for col, name in zip(BRT_COLUMNS, [n for n in BrtRow.model_fields if n.startswith("b")], strict=True):
            brt[(r.die, col)] = getattr(r, name)
        if r.source.startswith("reconstruction"):
            recon.add(r.die)
    return crt, brt, recon


def _build_data() -> YotrData:
    base = game_dir("yotr")
    hex_rows = cached_csv("yotr", "hexes.csv", HexRow)
    hexes = {h.hex: h for h in hex_rows}
    cols = max(h.col for h in hex_rows) + 1
    rows = max(h.row for h in hex_rows) + 1
    grid = HexGrid(cols, rows, first=0, terrain={h.hex: h.terrain for h in hex_rows})
    adj = {h: tuple(n for n in grid.neighbours(h) if n in hexes) for h in sorted(hexes)}
    sides: dict[tuple[str, str], set[str]] = {}
    for i, s in enumerate(cached_csv("yotr", "hexsides.csv", HexsideRow), start=2):
        if s.b not in adj.get(s.a, ()):
            raise DataError(base / "hexsides.csv", f"{s.a} and {s.b} are not adjacent map hexes", row=i)
        sides.setdefault(hexside(s.a, s.b), set()).add(s.feature)
        grid.side_features.setdefault(hexside(s.a, s.b), set()).add(s.feature)
    places = by_id("yotr", "places.csv", PlaceRow)
    for p in places.values():
        if p.hex not in hexes:
            raise DataError(base / "places.csv", f"place {p.id} is on unknown hex {p.hex}", column="hex")
    towns = {p.hex: p for p in places.values() if p.kind in ("town", "base")}
    scs = {p.hex: p for p in places.values() if p.kind == "supply_center"}
    regions = by_id("yotr", "regions.csv", RegionRow)
    region_towns = {r: tuple(sorted(h for h, p in towns.items() if p.region == r)) for r in regions}
    crt, brt, recon = _result_tables(base)
    tec = {t.feature: t for t in cached_csv("yotr", "tec.csv", TecRow)}
    town_vp = {t.intrinsic_strength: t for t in cached_csv("yotr", "town_vp.csv", TownVpRow)}
    oob = by_id("yotr", "oob.csv", OobRow)
    for u in oob.values():
        if u.start_hex is not None and u.start_hex not in hexes:
            raise DataError(
                base / "oob.csv", f"{u.id} starts on unknown hex {u.start_hex}", column="start_hex"
            )
    variants = cached_csv("yotr", "ob_variants.csv", ObVariantRow)
    _check_variants(base / "ob_variants.csv", variants, oob)
    rules = rules_index("yotr", "YOTR")
    decisions = by_id("yotr", "decisions.csv", DecisionRow)
    saigon = tuple(sorted(h for h, p in towns.items() if p.region == "saigon"))
    roads = tuple(sorted(p.hex for p in places.values() if p.kind == "saigon_road"))
    return YotrData(
        grid=grid,
        hexes=hexes,
        adj=adj,
        sides={k: frozenset(v) for k, v in sides.items()},
        places=places,
        towns=towns,
        supply_centers=scs,
        town_symbols=frozenset(p.hex for p in places.values() if p.kind in ("town", "base", "foreign_town")),
        regions=regions,
        region_towns=region_towns,
        saigon_hexes=saigon,
        saigon_roads=roads,
        crt=crt,
        brt=brt,
        brt_reconstructed_rows=frozenset(recon),
        tec=tec,
        supply_effects=cached_csv("yotr", "supply_effects.csv", SupplyEffectRow),
        vp_levels=cached_csv("yotr", "vp.csv", VpRow),
        town_vp=town_vp,
        oob=oob,
        ob_variants=variants,
        rules=rules,
        decisions=decisions,
    )


def _check_variants(path, variants: tuple[ObVariantRow, ...], oob: dict[str, OobRow]) -> None:
    """Every removal names a historical counter of the OB's side; every addition is a whole new counter."""
    seen: set[tuple[str, str]] = set()
    for line, v in enumerate(variants, start=2):
        side = "Allied" if v.ob in "ABCDEF" else "Communist"
        if (v.ob, v.id) in seen:
            raise DataError(path, f"OB {v.ob} changes {v.id} twice", row=line, column="id")
        seen.add((v.ob, v.id))
        if v.change == "remove":
            if v.id not in oob or oob[v.id].side != side:
                raise DataError(
                    path,
                    f"OB {v.ob} removes {v.id}, which is not a {side} counter of oob.csv",
                    row=line,
                    column="id",
                )
            continue
        if v.id in oob:
            raise DataError(path, f"OB {v.ob} adds {v.id}, an id oob.csv already uses", row=line, column="id")
        if v.side != side or v.nationality is None or not v.unit_type or not v.name:
            raise DataError(
                path,
                f"an added {v.ob} counter needs side {side}, a name, a nationality and a unit type",
                row=line,
                column="side",
            )
