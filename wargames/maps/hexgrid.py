"""SPI-style hex grids: four-digit hex numbers ``CCRR``, flat-topped hexes, odd columns half a hex lower.

Neighbours and distances go through cube coordinates; hexside features (rivers, bridges, borders, roads,
trails) are keyed by the unordered pair of hexes they separate.  ``axial`` gives Bokeh ``hex_tile``
coordinates (``orientation="flattop"``).

This module is the only place with hex maths (issue #14 item 2): centres, corners, hexsides, the hex under a
point and the neighbour steps.  Map coordinates have x to the east and y to the north; a game whose own
coordinates run y to the south (Rumor of War's grid miles, ``wargames.row.hexmap``) negates y, which is exact.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

# cube direction vectors for flat-topped hexes, clockwise from north
_CUBE_DIRS = ((0, 1, -1), (1, 0, -1), (1, -1, 0), (0, -1, 1), (-1, 0, 1), (-1, 1, 0))


def hex_id(col: int, row: int) -> str:
    return f"{col:02d}{row:02d}"


def parse_hex(hid: str) -> tuple[int, int]:
    if len(hid) != 4 or not hid.isdigit():
        raise ValueError(f"hex numbers have four digits CCRR, got {hid!r}")
    return int(hid[:2]), int(hid[2:])


@lru_cache(maxsize=65536)
def _cube_of(hid: str) -> tuple[int, int, int]:
    """Cube coordinates of a hex number (memoised: distances are asked for the same hexes again and again)."""
    return _to_cube(*parse_hex(hid))


def _to_cube(col: int, row: int) -> tuple[int, int, int]:
    x = col
    z = row - (col - (col & 1)) // 2
    return x, -x - z, z


def _from_cube(x: int, y: int, z: int) -> tuple[int, int]:
    col = x
    row = z + (x - (x & 1)) // 2
    return col, row


def neighbour_steps(col: int) -> tuple[tuple[int, int], ...]:
    """The six (column, row) steps to the neighbours of a hex in column ``col``, clockwise from north (the order
    of :meth:`HexGrid.neighbours`): the odd-q offset convention, odd columns half a hex lower."""
    return _STEPS[col & 1]


def _steps(parity: int) -> tuple[tuple[int, int], ...]:
    """The six ``_CUBE_DIRS`` as (column, row) steps from a hex whose column has this parity."""
    x, y, z = _to_cube(parity, 2)
    out = []
    for dx, dy, dz in _CUBE_DIRS:
        c, r = _from_cube(x + dx, y + dy, z + dz)
        out.append((c - parity, r - 2))
    return tuple(out)


_STEPS = (_steps(0), _steps(1))


def hexside(a: str, b: str) -> tuple[str, str]:
    """The canonical key of the hexside between two adjacent hexes."""
    return (a, b) if a <= b else (b, a)


@dataclass
class HexGrid:
    """A rectangular block of hexes ``cols`` x ``rows`` (numbered from ``first``), with features.

    ``terrain`` maps hex -> terrain name; ``hex_features`` hex -> set of names (town, base...);
    ``side_features`` hexside -> set of names (river, bridge, road, trail, border).
    """

    cols: int
    rows: int
    first: int = 1
    terrain: dict[str, str] = field(default_factory=dict)
    hex_features: dict[str, set[str]] = field(default_factory=dict)
    side_features: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    size_km: float = 10.0
    # memo of within(): it depends only on the grid's shape, which never changes
    _near: dict[tuple[str, int], tuple[str, ...]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def __contains__(self, hid: str) -> bool:
        try:
            c, r = parse_hex(hid)
        except ValueError:
            return False
        return self.first <= c < self.first + self.cols and self.first <= r < self.first + self.rows

    def hexes(self) -> Iterator[str]:
        for c in range(self.first, self.first + self.cols):
            for r in range(self.first, self.first + self.rows):
                yield hex_id(c, r)

    def neighbours(self, hid: str) -> list[str]:
        """The adjacent hexes on the grid, clockwise from north (the order of ``_CUBE_DIRS``)."""
        col, row = parse_hex(hid)
        lo, c_hi, r_hi = (
            max(self.first, 0),
            min(self.first + self.cols, 100),
            min(self.first + self.rows, 100),
        )
        out = []
        for dc, dr in _STEPS[col & 1]:  # the cube directions as column/row steps, by column parity
            c, r = col + dc, row + dr
            if (
                lo <= c < c_hi and lo <= r < r_hi
            ):  # on the grid, with a four-digit number (as ``in self`` checks)
                out.append(f"{c:02d}{r:02d}")
        return out

    def distance(self, a: str, b: str) -> int:
        ax, ay, az = _cube_of(a)
        bx, by, bz = _cube_of(b)
        return max(abs(ax - bx), abs(ay - by), abs(az - bz))

    def within(self, hid: str, radius: int) -> list[str]:
        """Hexes at distance <= radius (breadth first; used for supply ranges and zones)."""
        key = (hid, radius)
        got = self._near.get(key)
        if got is None:
            got = self._near[key] = tuple(self._within(hid, radius))
        return list(got)

    def _within(self, hid: str, radius: int) -> list[str]:
        seen = {hid}
        frontier = [hid]
        for _ in range(radius):
            nxt = []
            for h in frontier:
                for n in self.neighbours(h):
                    if n not in seen:
                        seen.add(n)
                        nxt.append(n)
            frontier = nxt
        return sorted(seen)

    def side_has(self, a: str, b: str, feature: str) -> bool:
        return feature in self.side_features.get(hexside(a, b), ())

    def add_side_feature(self, a: str, b: str, feature: str) -> None:
        if b not in self.neighbours(a):
            raise ValueError(f"{a} and {b} are not adjacent, so they share no hexside")
        self.side_features.setdefault(hexside(a, b), set()).add(feature)

    @staticmethod
    def axial(hid: str) -> tuple[int, int]:
        """Bokeh ``hex_tile(orientation="flattop")`` coordinates: rows run down the page."""
        c, r = parse_hex(hid)
        return c, r - (c - (c & 1)) // 2

    @staticmethod
    def centre(hid: str, size: float = 1.0) -> tuple[float, float]:
        """Cartesian centre (x right, y up) of a hex of circumradius ``size``."""
        return offset_centre(*parse_hex(hid), size)

    def path_cost(self, path: Iterable[str], cost: dict[str, float]) -> float:
        return sum(cost[self.terrain.get(h, "clear")] for h in list(path)[1:])


def offset_centre(col: int, row: int, size: float = 1.0) -> tuple[float, float]:
    """Map coordinates (x right, y up) of the centre of the hex in column ``col`` and row ``row`` (flat-topped,
    circumradius ``size``, odd columns half a hex lower)."""
    x = 1.5 * size * col
    y = -math.sqrt(3) * size * (row + 0.5 * (col & 1))
    return x, y


def hex_at_point(x: float, y: float, size: float = 1.0) -> tuple[int, int]:
    """(column, row) of the hex whose centre is nearest to the point (x right, y up), by cube rounding: the
    inverse of :func:`offset_centre` (the column and row may lie off any given grid)."""
    down = -y  # the cube axes below run with rows, down the page
    q = (2 / 3 * x) / size
    r = (-1 / 3 * x + math.sqrt(3) / 3 * down) / size
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return rq, rr + (rq - (rq & 1)) // 2


def hex_centre(hid: str, size: float = 1.0) -> tuple[float, float]:
    """Map coordinates (x right, y up) of the centre of hex ``hid`` (flat-topped, circumradius ``size``)."""
    return HexGrid.centre(hid, size)


def hex_corners(hid: str, size: float = 1.0) -> tuple[list[float], list[float]]:
    """The six corners (xs, ys) of hex ``hid``, counter-clockwise from the east corner (rounded to 1e-6)."""
    return offset_corners(*parse_hex(hid), size)


def offset_corners(col: int, row: int, size: float = 1.0) -> tuple[list[float], list[float]]:
    """The six corners (xs, ys) of the hex in column ``col`` and row ``row`` (see :func:`hex_corners`)."""
    x, y = offset_centre(col, row, size)
    angles = [math.pi / 3 * k for k in range(6)]
    return (
        [round(x + size * math.cos(a), 6) for a in angles],
        [round(y + size * math.sin(a), 6) for a in angles],
    )


def hexside_segment(a: str, b: str, size: float = 1.0) -> tuple[list[float], list[float]]:
    """The hexside shared by adjacent hexes ``a`` and ``b`` as a segment (xs, ys): where rivers and borders run."""
    (xa, ya), (xb, yb) = HexGrid.centre(a, size), HexGrid.centre(b, size)
    mx, my = (xa + xb) / 2, (ya + yb) / 2
    dx, dy = xb - xa, yb - ya
    n = math.hypot(dx, dy)
    px, py = -dy / n * size / 2, dx / n * size / 2
    return [mx - px, mx + px], [my - py, my + py]
