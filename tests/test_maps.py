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
