"""wargames.maps: SPI hex grids and area maps."""

from __future__ import annotations

import pytest

from wargames.maps import Area, AreaMap, HexGrid, parse_hex
from wargames.maps.hexgrid import hexside


@pytest.fixture
def grid():
    return HexGrid(cols=10, rows=10, first=1)


def test_hexgrid_numbers_are_ccrr(grid):
    assert parse_hex("0712") == (7, 12)
    assert "0101" in grid and "1010" in grid and "1111" not in grid and "0001" not in grid
    with pytest.raises(ValueError):
        parse_hex("712")


def test_hexgrid_neighbours_even_and_odd_columns(grid):
    # odd columns sit half a hex lower (SPI): 0505's neighbours reach row 6 on the sides
    assert set(grid.neighbours("0505")) == {"0504", "0506", "0405", "0406", "0605", "0606"}
    assert set(grid.neighbours("0405")) == {"0404", "0406", "0304", "0305", "0504", "0505"}
    assert set(grid.neighbours("0101")) == {"0102", "0201", "0202"}


def test_hexgrid_neighbours_are_symmetric_and_at_distance_one(grid):
    for h in grid.hexes():
        for n in grid.neighbours(h):
            assert h in grid.neighbours(n) and grid.distance(h, n) == 1


def test_hexgrid_distance_and_range(grid):
    assert grid.distance("0101", "0101") == 0
    assert grid.distance("0101", "0104") == 3
    assert grid.distance("0101", "0401") == 3
    assert grid.distance("0205", "0805") == 6
    assert len(grid.within("0505", 1)) == 7 and len(grid.within("0505", 2)) == 19


def test_hexgrid_hexside_features(grid):
    grid.add_side_feature("0505", "0506", "river")
    assert grid.side_has("0506", "0505", "river") and not grid.side_has("0505", "0504", "river")
    assert hexside("0506", "0505") == ("0505", "0506")
    with pytest.raises(ValueError, match="not adjacent"):
        grid.add_side_feature("0505", "0508", "road")


def test_hexgrid_axial_matches_bokeh_hex_tile(grid):
    import numpy as np
    from bokeh.util.hex import axial_to_cartesian

    for h in ("0101", "0202", "0505", "0910", "0403"):
        q, r = HexGrid.axial(h)
        x, y = axial_to_cartesian(np.array([q]), np.array([r]), 1, "flattop")
        cx, cy = HexGrid.centre(h)
        assert (round(float(x[0]), 6), round(float(y[0]), 6)) == (round(cx, 6), round(cy, 6))


def _toy():
    areas = [Area(i, i.upper(), "province") for i in "abcd"] + [Area("s", "S", "sanctuary")]
    return AreaMap(areas, [("a", "b", "land"), ("b", "c", "land"), ("c", "d", "road"), ("a", "s", "trail")])


def test_areamap_typed_neighbours_and_graph():
    m = _toy()
    assert m.neighbours("b") == {"a", "c"} and m.neighbours("c", ("road",)) == {"d"}
    assert m.adjacent("a", "s", ("trail",)) and not m.adjacent("a", "s", ("land",))
    g = m.graph(("land",))
    assert g.number_of_edges() == 2 and len(m) == 5


def test_areamap_reachable_stops_where_told():
    m = _toy()
    assert m.reachable("a", ("land", "road"), lambda x: True) == {"b", "c", "d"}
    assert m.reachable("a", ("land", "road"), lambda x: "stop" if x == "c" else True) == {"b", "c"}
    assert m.reachable("a", ("land", "road"), lambda x: x != "b") == set()


def test_areamap_rejects_unknown_areas_and_duplicates():
    with pytest.raises(ValueError, match="unknown area"):
        AreaMap([Area("a", "A", "x")], [("a", "z", "land")])
    with pytest.raises(ValueError, match="twice"):
        AreaMap([Area("a", "A", "x"), Area("a", "A", "x")])


# --------------------------------------------------------------------- Rumor of War's grid on wargames.maps.hexgrid
# The formulas Rumor of War had of its own before its hex maths moved to ``wargames.maps.hexgrid`` (issue #14
# item 2), kept here verbatim as the reference: the new functions must give the SAME floats and hexes, since
# hexes found from points and neighbour orders feed the rules (map building, adjacency, golden replays).
def _old_row_centre(col: int, row: int) -> tuple[float, float]:
    from wargames.row.hexmap import COL_MI, HEX_MI

    return col * COL_MI, row * HEX_MI + (HEX_MI / 2 if col & 1 else 0.0)


def _old_row_hex_at_xy(x: float, y: float) -> tuple[int, int]:
    import math

    from wargames.row.hexmap import RADIUS_MI

    q = (2 / 3 * x) / RADIUS_MI
    r = (-1 / 3 * x + math.sqrt(3) / 3 * y) / RADIUS_MI
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return rq, rr + (rq - (rq & 1)) // 2


_OLD_EVEN_COL = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1))
_OLD_ODD_COL = ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))


def test_row_hex_centres_are_hexgrid_centres_to_the_last_bit():
    from wargames.maps.hexgrid import hex_centre
    from wargames.row import hexmap

    for c in range(1, hexmap.COLS + 1):
        for r in range(1, hexmap.ROWS + 1):
            old = _old_row_centre(c, r)
            assert hexmap.centre_xy(c, r) == old
            x, y = hex_centre(f"{c:02d}{r:02d}", hexmap.RADIUS_MI)
            assert (x, -y) == old  # the map layers' coordinates are the rules' grid miles, y up


def test_row_hex_at_point_is_the_old_cube_rounding_everywhere():
    """Every point of a fine lattice over the theatre (and its hexsides and corners, where rounding ties) finds
    the hex it found before."""
    import math

    from wargames.row import hexmap

    pts = []
    for i in range(0, 46 * 8):
        for j in range(0, 100 * 6):
            pts.append((i * hexmap.COL_MI / 8, j * hexmap.HEX_MI / 6))
    for c in range(1, hexmap.COLS + 1, 3):
        for r in range(1, hexmap.ROWS + 1, 3):
            for cx, cy in hexmap.corners_xy(c, r):
                pts.append((cx, cy))
            x, y = hexmap.centre_xy(c, r)
            pts.append((x + hexmap.RADIUS_MI * math.sqrt(3) / 2, y))
    for x, y in pts:
        assert hexmap.hex_at_xy(x, y) == _old_row_hex_at_xy(x, y), (x, y)


def test_row_adjacency_order_is_the_old_odd_q_order():
    """The neighbour order (clockwise from north) decides the order the rules try hexes in."""
    from wargames.maps.hexgrid import neighbour_steps
    from wargames.row import hexmap

    assert neighbour_steps(2) == _OLD_EVEN_COL and neighbour_steps(3) == _OLD_ODD_COL
    m = hexmap.load_map()
    for hid, row in m.hexes.items():
        offs = _OLD_ODD_COL if row.col & 1 else _OLD_EVEN_COL
        old = [
            (row.col + dc, row.row + dr)
            for dc, dr in offs
            if 1 <= row.col + dc <= hexmap.COLS and 1 <= row.row + dr <= hexmap.ROWS
        ]
        assert hexmap.adjacent(row.col, row.row) == old
        assert list(m.adj[hid]) == [f"{c:02d}{r:02d}" for c, r in old]
        assert m.grid.neighbours(hid) == list(m.adj[hid])


def test_row_hex_corners_are_within_a_millionth_of_a_mile():
    import math

    from wargames.row import hexmap

    for c in range(1, hexmap.COLS + 1, 4):
        for r in range(1, hexmap.ROWS + 1, 4):
            x, y = _old_row_centre(c, r)
            old = [
                (
                    x + hexmap.RADIUS_MI * math.cos(math.radians(a)),
                    y + hexmap.RADIUS_MI * math.sin(math.radians(a)),
                )
                for a in range(0, 360, 60)
            ]
            for (ax, ay), (bx, by) in zip(hexmap.corners_xy(c, r), old, strict=True):
                assert abs(ax - bx) < 1e-6 and abs(ay - by) < 1e-6
