"""The Rumor of War theatre map: the grid, a validated loader of ``data/row/map/`` and its queries (ROW-2.1, 4.x, 14.x).

The printed map (three sheets, hexes 10 miles across, rules 2.1 and the introduction) is not in our
source text, so the whole map is a *reconstruction* on the grid the digest proposes (digest 5.3,
decision R-MAP-01), built by ``tools/build_row_map.py`` from real geography:

* flat-topped hexes 10 miles across the flats, numbered ``CCRR`` from ``0101`` in the north-west,
  odd columns half a hex lower (``wargames.maps.HexGrid`` with ``first=1``);
* equirectangular projection around 15 N: ``x_mi = (lon - 104.0) * 66.8``, ``y_mi = (22.85 - lat) * 69.0``
  (the digest's scale; its origin 23.0 N moved south so that 99 rows, the most four digits allow, reach Ca Mau);
* 45 columns x 99 rows = 4,455 hexes, 104.0-109.7 E by 22.85-8.6 N.

The queries the rules need: terrain (4.1 and the Terrain Effects Chart), country and operational
area (14.6), the DMZ (14.6.4), War Zones C and D and the Iron Triangle (13.1.2, 14.4.2), the Free
Deployment Zone (14.6.3), trail hexes and termini (14.7), roads (14.4.1 LoC, 5.3 road bonus),
rivers and bridges (5.4, 11.5), coastal and all-sea hexes (11.2-11.3, 14.1.3), supply sources (14.4)
and the Station line (11.2).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Literal, NamedTuple

from pydantic import Field

from ..core.data import DataError, Row, cached_build, game_dir, read_csv
from ..maps.hexdata import HexMapData
from ..maps.hexgrid import (
    HexGrid,
    hex_at_point,
    hex_id,
    hexside,
    neighbour_steps,
    offset_centre,
    offset_corners,
    parse_hex,
)

# --------------------------------------------------------------------------- the grid (decision R-MAP-01)
LON0, LAT0 = 104.0, 22.85  # centre of hex 0101's row; digest 5.3 says 23.0 N, moved so 99 rows reach Ca Mau
MI_PER_LON, MI_PER_LAT = 66.8, 69.0  # miles per degree at about 15 N
HEX_MI = 10.0  # across the flats (ROW introduction: hexes are 10 miles across)
RADIUS_MI = HEX_MI / math.sqrt(3)  # centre to corner, 5.774 mi
COL_MI = 1.5 * RADIUS_MI  # 8.660 mi between columns
COLS, ROWS = 45, 99  # four-digit hex numbers allow at most 99 rows (R-MAP-01)

Terrain = Literal["cultivated", "clear", "jungle", "mountain", "swamp", "sea"]
Country = Literal["NVN", "SVN", "LAO", "KHM", "CHN", "THA", "sea"]
Kind = Literal["land", "coastal", "sea"]
TERRAINS: tuple[str, ...] = ("cultivated", "clear", "jungle", "mountain", "swamp", "sea")
AREAS: tuple[str, ...] = (
    "North Vietnam",
    "DMZ",
    "I Corps",
    "II Corps",
    "III Corps",
    "IV Corps",
    "CMD",
    "Laos",
    "Cambodia",
    "China",
    "Thailand",
    "sea",
)
OPERATIONAL_AREAS: tuple[str, ...] = (
    "DMZ",
    "North Vietnam",
    "Laos",
    "Cambodia",
    "I Corps",
    "II Corps",
    "III Corps",
    "IV Corps",
    "CMD",
)  # the nine areas of rule 14.6


def to_xy(lon: float, lat: float) -> tuple[float, float]:
    """Grid miles of a point: x east from column 1's centre line plus one column, y south (digest 5.3)."""
    return (lon - LON0) * MI_PER_LON + COL_MI, (LAT0 - lat) * MI_PER_LAT + HEX_MI


def to_lonlat(x: float, y: float) -> tuple[float, float]:
    return LON0 + (x - COL_MI) / MI_PER_LON, LAT0 - (y - HEX_MI) / MI_PER_LAT


def centre_xy(col: int, row: int) -> tuple[float, float]:
    """Centre of hex (col, row) in grid miles, y to the south; odd columns sit half a hex lower (south).
    The maths is ``wargames.maps.hexgrid`` (y up, so y is negated, which is exact)."""
    x, y = offset_centre(col, row, RADIUS_MI)
    return x, -y


def corners_xy(col: int, row: int) -> list[tuple[float, float]]:
    """The six corners of hex (col, row) in grid miles, y to the south, clockwise on the page from the east corner
    (``hexgrid.offset_corners`` counts them counter-clockwise with y up: the same turn once y is negated)."""
    xs, ys = offset_corners(col, row, RADIUS_MI)
    pts = [(x, -y) for x, y in zip(xs, ys, strict=True)]
    return pts[:1] + pts[:0:-1]


def hex_at_xy(x: float, y: float) -> tuple[int, int]:
    """(col, row) of the hex whose centre is nearest to the point in grid miles (``hexgrid.hex_at_point``)."""
    return hex_at_point(x, -y, RADIUS_MI)


def hex_at(lon: float, lat: float) -> str | None:
    """The hex number holding a point, or None off the map."""
    c, r = hex_at_xy(*to_xy(lon, lat))
    if 1 <= c <= COLS and 1 <= r <= ROWS:
        return hex_id(c, r)
    return None


def hex_lonlat(hid: str) -> tuple[float, float]:
    return to_lonlat(*centre_xy(*parse_hex(hid)))


def adjacent(col: int, row: int) -> list[tuple[int, int]]:
    """(col, row) of the up to six hexes next to a hex, on the map only (a fast ``HexGrid.neighbours``)."""
    offs = neighbour_steps(col)
    return [(col + dc, row + dr) for dc, dr in offs if 1 <= col + dc <= COLS and 1 <= row + dr <= ROWS]


def grid() -> HexGrid:
    """An empty ``HexGrid`` of the theatre (neighbours and distances)."""
    return HexGrid(COLS, ROWS, first=1, size_km=HEX_MI * 1.609344)


# --------------------------------------------------------------------------- schemas of data/row/map/
class HexRow(Row):
    hex: str = Field(pattern=r"^\d{4}$")
    col: int = Field(ge=1, le=COLS)
    row: int = Field(ge=1, le=ROWS)
    lon: float = Field(ge=103.5, le=110.5)
    lat: float = Field(ge=8.0, le=23.5)
    kind: Kind
    land: float = Field(ge=0, le=1)
    country: Country
    area: str
    terrain: Terrain
    zone: Literal["War Zone C", "War Zone D", "Iron Triangle"] | None = None
    fdz: bool
    trail: bool
    station: Literal["Yankee", "Dixie"] | None = None


#: One hex of the loaded map: the values of its checked :class:`HexRow`, as a named tuple with the same
#: attribute names (``_asdict()`` gives them as a dict).  The map holds 4,455; a tuple comes out of the data cache
#: several times faster than a pydantic row and costs the garbage collector little (issue #21, the first load).
MapHex = NamedTuple("MapHex", [(name, f.annotation) for name, f in HexRow.model_fields.items()])


class HexsideRow(Row):
    a: str = Field(pattern=r"^\d{4}$")
    b: str = Field(pattern=r"^\d{4}$")
    feature: Literal["road", "trail", "river", "bridge", "border"]
    name: str


class PlaceRow(Row):
    id: str
    name: str
    hex: str | None = Field(default=None, pattern=r"^\d{4}$")
    lat: float
    lon: float
    country: Literal["NVN", "SVN", "LAO", "KHM", "CHN", "THA", "sea", "border"]
    area: str
    kind: Literal["city", "town", "base", "site", "box"]
    recruit_draws: int = Field(ge=0, le=2)
    supply: (
        Literal[
            "capitalist", "laotian", "cambodian", "pavn", "prc", "pathet_lao", "khmer_rouge", "hcm_terminus"
        ]
        | None
    ) = None
    terminus: int | None = Field(default=None, ge=1, le=6)
    text_hex: str | None = None
    role: str | None = None


class RoadRow(Row):
    id: str
    name: str
    kind: Literal["road", "trail"]
    waypoints: str
    hexes: str


class AreaRow(Row):
    id: str
    name: str
    kind: Literal["operational_area", "outside_area", "special_zone", "sea_zone", "line", "box"]
    rule: str
    hexes: int = Field(ge=0)
    description: str


class TecRow(Row):
    feature: str
    applies_to: Literal["hex", "hexside", "marker"]
    mp_capitalist: str
    mp_communist: str
    support_factor: str
    defender_die_mod: str
    notes: str | None = None


class CorrectionRow(Row):
    hex: str = Field(pattern=r"^\d{4}$")
    terrain: Terrain
    reason: str


# --------------------------------------------------------------------------- the loaded map
#: road neighbours per map and hex (static map data, built on first use)
_ROAD_NEIGHBOURS: dict[tuple[int, str], tuple[str, ...]] = {}


@dataclass(frozen=True)
class RowMap(HexMapData):
    """The whole reconstructed theatre, read from ``data/row/map/`` (see ``load_map``; grid, hexes, adj, sides and
    the basic queries: ``HexMapData``)."""

    hexes: dict[str, MapHex]
    side_names: dict[tuple[tuple[str, str], str], str]
    places: dict[str, PlaceRow]
    places_in: dict[str, tuple[PlaceRow, ...]]
    roads: dict[str, RoadRow]
    areas: dict[str, AreaRow]
    tec: dict[str, TecRow]
    corrections: tuple[CorrectionRow, ...]
    road_hexes: frozenset[str] = field(default_factory=frozenset)

    # -- hexes
    def hex(self, hid: str) -> MapHex:
        try:
            return self.hexes[hid]
        except KeyError:
            raise KeyError(
                f"{hid!r} is not a hex of the Rumor of War map (0101-{COLS:02d}{ROWS:02d})"
            ) from None

    def neighbours(self, hid: str) -> tuple[str, ...]:
        """The (up to six) map hexes adjacent to ``hid`` (ZoC, 4.3; movement, 4.1)."""
        self.hex(hid)
        return self.adj[hid]

    def distance(self, a: str, b: str) -> int:
        """Hexes between a and b counting b, not a (ranges: 10-hex GU activation 9.5, 2-hex bombardment 11.2)."""
        self.hex(a)
        self.hex(b)
        return self.grid.distance(a, b)

    def terrain(self, hid: str) -> str:
        """The hex's terrain class (the Terrain Effects Chart row, ``tec.csv``)."""
        return self.hex(hid).terrain

    def country(self, hid: str) -> str:
        return self.hex(hid).country

    def area(self, hid: str) -> str:
        """Operational area (14.6): North Vietnam, DMZ, I-IV Corps, CMD, Laos, Cambodia; or China, Thailand, sea."""
        return self.hex(hid).area

    def is_sea(self, hid: str) -> bool:
        return self.hex(hid).kind == "sea"

    def is_coastal(self, hid: str) -> bool:
        return self.hex(hid).kind == "coastal"

    def in_dmz(self, hid: str) -> bool:
        """Rule 14.6.4: the DMZ is North Vietnam for the Communist and I Corps for the Capitalist."""
        return self.hex(hid).area == "DMZ"

    def zone(self, hid: str) -> str | None:
        """War Zone C, War Zone D or the Iron Triangle (VC recruitment 13.1.2, VC LoC 14.4.2)."""
        return self.hex(hid).zone

    def in_fdz(self, hid: str) -> bool:
        """Rule 14.6.3: the VC/PAVN Free Deployment Zone (hexes between the trail and South Vietnam)."""
        return self.hex(hid).fdz

    def is_trail(self, hid: str) -> bool:
        """A Ho Chi Minh Trail hex (14.7)."""
        return self.hex(hid).trail

    def station(self, hid: str) -> str | None:
        """Yankee or Dixie for sea and coastal hexes, split at the Station line (11.2)."""
        return self.hex(hid).station

    # -- hexsides
    def side_features(self, a: str, b: str) -> frozenset[str]:
        if b not in self.neighbours(a):
            raise ValueError(f"{a} and {b} are not adjacent, so they share no hexside")
        return self.sides.get(hexside(a, b), frozenset())

    def side_has(self, a: str, b: str, feature: str) -> bool:
        return feature in self.side_features(a, b)

    def side_name(self, a: str, b: str, feature: str) -> str | None:
        return self.side_names.get((hexside(a, b), feature))

    def has_road(self, hid: str) -> bool:
        """Whether a road runs into this hex (LoC road hexes, 14.4.1)."""
        self.hex(hid)
        return hid in self.road_hexes

    def road_neighbours(self, hid: str) -> tuple[str, ...]:
        key = (id(self), hid)
        got = _ROAD_NEIGHBOURS.get(key)
        if got is None:
            got = _ROAD_NEIGHBOURS[key] = tuple(
                n for n in self.neighbours(hid) if "road" in self.sides.get(hexside(hid, n), ())
            )
        return got

    def trail_neighbours(self, hid: str) -> tuple[str, ...]:
        return tuple(n for n in self.neighbours(hid) if "trail" in self.sides.get(hexside(hid, n), ()))

    # -- places
    def places_at(self, hid: str) -> tuple[PlaceRow, ...]:
        self.hex(hid)
        return self.places_in.get(hid, ())

    def settlement(self, hid: str) -> str | None:
        """'city' or 'town' if the hex holds one (cities win), else None (TEC rows, 13.1.2 recruitment)."""
        kinds = {p.kind for p in self.places_at(hid)}
        return "city" if "city" in kinds else "town" if "town" in kinds else None

    def place(self, pid: str) -> PlaceRow:
        try:
            return self.places[pid]
        except KeyError:
            raise KeyError(f"no place {pid!r} in data/row/map/places.csv") from None

    def place_hex(self, pid: str) -> str:
        p = self.place(pid)
        if p.hex is None:
            raise KeyError(f"place {pid!r} is off the map ({p.role or p.kind})")
        return p.hex

    def supply_sources(self, nationality: str) -> tuple[str, ...]:
        """Hexes of the supply sources of one nationality (14.4; reconstruction R-MAP-11)."""
        return tuple(sorted({p.hex for p in self.places.values() if p.supply == nationality and p.hex}))

    def terminus(self, n: int) -> str:
        """The hex of Ho Chi Minh Trail terminus ``n`` (1-6, numbered from the north, 14.7.1)."""
        for p in self.places.values():
            if p.terminus == n and p.hex:
                return p.hex
        raise KeyError(f"no trail terminus {n}")

    def hexes_where(self, **match: object) -> list[str]:
        """Hexes whose row matches every given column value, e.g. ``hexes_where(area="I Corps")``."""
        return [h for h, r in self.hexes.items() if all(getattr(r, k) == v for k, v in match.items())]

    # -- terrain effects
    def tec_mp(self, feature: str, side: Literal["Capitalist", "Communist"]) -> Fraction | None:
        """Movement points to enter (None: prohibited), from the reconstructed TEC (digest 4.Z.1)."""
        row = self.tec[feature]
        cell = row.mp_capitalist if side == "Capitalist" else row.mp_communist
        if cell == "prohibited":
            return None
        if cell in ("as terrain", "-"):
            raise ValueError(f"the TEC gives no own movement cost for {feature} ({side}: {cell!r})")
        return Fraction(cell)


def _path(name: str) -> Path:
    return game_dir("row") / "map" / name


def _check_hex(path: Path, line: int, column: str, hid: str | None, hexes: dict[str, MapHex]) -> None:
    if hid is not None and hid not in hexes:
        raise DataError(path, f"hex {hid} is not on the map", row=line, column=column)


@cache
def load_map() -> RowMap:
    """Read and cross-check every file of ``data/row/map/`` once per process.

    A bad row raises :class:`DataError` naming the file, its line and the column; nothing is loaded.  The checked
    map is cached (``core.data.cached_build``, keyed by the bytes of every map file and this package's code), so a
    first ``load()`` does not rebuild it (issue #21).
    """
    files = [_path(name) for name in MAP_FILES]
    return cached_build(files, "row-map", __name__, _build_map)


MAP_FILES = (
    "hexes.csv",
    "hexsides.csv",
    "places.csv",
    "roads.csv",
    "areas.csv",
    "tec.csv",
    "terrain_corrections.csv",
)


def _build_map() -> RowMap:
    p_hex = _path("hexes.csv")
    hex_rows = read_csv(p_hex, HexRow)
    hexes: dict[str, MapHex] = {}
    for line, h in enumerate(hex_rows, start=2):
        if h.hex in hexes:
            raise DataError(p_hex, f"hex {h.hex} appears twice", row=line, column="hex")
        if h.hex != hex_id(h.col, h.row):
            raise DataError(
                p_hex, f"hex {h.hex} does not match col {h.col} and row {h.row}", row=line, column="hex"
            )
        if h.area not in AREAS:
            raise DataError(p_hex, f"area must be one of {', '.join(AREAS)}", row=line, column="area")
        if (h.kind == "sea") != (h.terrain == "sea") or (h.kind == "sea") != (h.country == "sea"):
            raise DataError(
                p_hex, "kind, terrain and country must all be 'sea' or none of them", row=line, column="kind"
            )
        hexes[h.hex] = MapHex(**dict(h))
    g = grid()  # distances only: terrain and hexsides are the map's own tables (not copied into the grid)
    adj = {
        h: tuple(n for n in (f"{c:02d}{r:02d}" for c, r in adjacent(row.col, row.row)) if n in hexes)
        for h, row in hexes.items()
    }

    p_side = _path("hexsides.csv")
    sides: dict[tuple[str, str], set[str]] = {}
    names: dict[tuple[tuple[str, str], str], str] = {}
    for line, s in enumerate(read_csv(p_side, HexsideRow), start=2):
        _check_hex(p_side, line, "a", s.a, hexes)
        _check_hex(p_side, line, "b", s.b, hexes)
        if s.b not in adj[s.a]:
            raise DataError(p_side, f"{s.a} and {s.b} are not adjacent", row=line, column="b")
        key = hexside(s.a, s.b)
        sides.setdefault(key, set()).add(s.feature)
        names.setdefault((key, s.feature), s.name)

    p_place = _path("places.csv")
    places: dict[str, PlaceRow] = {}
    places_in: dict[str, list[PlaceRow]] = {}
    for line, p in enumerate(read_csv(p_place, PlaceRow), start=2):
        if p.id in places:
            raise DataError(p_place, f"duplicate id {p.id!r}", row=line, column="id")
        _check_hex(p_place, line, "hex", p.hex, hexes)
        if p.hex is not None and hexes[p.hex].kind == "sea" and p.kind != "box":
            raise DataError(p_place, f"{p.name} is on the all-sea hex {p.hex}", row=line, column="hex")
        places[p.id] = p
        if p.hex is not None:
            places_in.setdefault(p.hex, []).append(p)

    p_road = _path("roads.csv")
    roads: dict[str, RoadRow] = {}
    road_hexes: set[str] = set()
    for line, r in enumerate(read_csv(p_road, RoadRow), start=2):
        if r.id in roads:
            raise DataError(p_road, f"duplicate id {r.id!r}", row=line, column="id")
        chain = r.hexes.split()
        for a, b in zip(chain, chain[1:], strict=False):
            _check_hex(p_road, line, "hexes", a, hexes)
            _check_hex(p_road, line, "hexes", b, hexes)
            if b not in adj[a]:
                raise DataError(
                    p_road, f"{r.id}: {a} and {b} are consecutive but not adjacent", row=line, column="hexes"
                )
            if r.kind not in sides.get(hexside(a, b), ()):
                raise DataError(
                    p_road,
                    f"{r.id}: hexside {a}-{b} has no {r.kind} in hexsides.csv",
                    row=line,
                    column="hexes",
                )
        if r.kind == "road":
            road_hexes.update(chain)
        roads[r.id] = r

    p_area = _path("areas.csv")
    areas: dict[str, AreaRow] = {}
    for line, a in enumerate(read_csv(p_area, AreaRow), start=2):
        if a.id in areas:
            raise DataError(p_area, f"duplicate id {a.id!r}", row=line, column="id")
        areas[a.id] = a

    p_tec = _path("tec.csv")
    tec: dict[str, TecRow] = {}
    for line, t in enumerate(read_csv(p_tec, TecRow), start=2):
        for col in ("mp_capitalist", "mp_communist"):
            cell = getattr(t, col)
            if cell not in ("prohibited", "as terrain", "-"):
                try:
                    Fraction(cell.lstrip("+"))
                except ValueError:
                    raise DataError(
                        p_tec,
                        f"expected a number, 'prohibited', 'as terrain' or '-', got {cell!r}",
                        row=line,
                        column=col,
                    ) from None
        tec[t.feature] = t
    for t in TERRAINS:
        if t not in tec:
            raise DataError(p_tec, f"no row for terrain {t!r}")

    p_corr = _path("terrain_corrections.csv")
    corrections = tuple(read_csv(p_corr, CorrectionRow))
    for line, c in enumerate(corrections, start=2):
        _check_hex(p_corr, line, "hex", c.hex, hexes)
        if hexes[c.hex].terrain != c.terrain:
            raise DataError(
                p_corr,
                f"hex {c.hex} should be {c.terrain} but hexes.csv says {hexes[c.hex].terrain} "
                "(re-run tools/build_row_map.py)",
                row=line,
                column="terrain",
            )

    return RowMap(
        grid=g,
        hexes=hexes,
        adj=adj,
        sides={k: frozenset(v) for k, v in sides.items()},
        side_names=names,
        places=places,
        places_in={k: tuple(v) for k, v in places_in.items()},
        roads=roads,
        areas=areas,
        tec=tec,
        corrections=corrections,
        road_hexes=frozenset(road_hexes),
    )
