"""Rumor of War theatre map (``data/row/map/``, ``wargames.row.hexmap``): data integrity and the loader.

The map is a reconstruction (decisions R-MAP-01 to R-MAP-17 in ``data/row/decisions.csv``); these tests hold
it to the facts the rules text and the digest state: the nine operational areas (14.6), the DMZ on the Ben
Hai (14.6.4), the trail from Vinh and Dong Hoi to its end with six termini (14.7), the Free Deployment Zone
east of the trail (14.6.3), War Zones C and D and the Iron Triangle (13.1.2, 14.4.2), and the places of
digest 5.4 in their countries and Corps.
"""

from __future__ import annotations

import csv
import re
import shutil
import subprocess
import sys
from collections import deque
from fractions import Fraction
from pathlib import Path

import pytest

from wargames.core.data import DataError, DecisionRow, data_root, read_csv, read_geojson
from wargames.maps.hexgrid import hexside
from wargames.row import hexmap
from wargames.row.hexmap import OPERATIONAL_AREAS, load_map

MAP_DIR = data_root() / "row" / "map"
PAIR = {"NVN", "SVN", "LAO", "KHM", "CHN", "THA"}


@pytest.fixture(scope="module")
def m():
    return load_map()


# --------------------------------------------------------------------------- grid and hexes (R-MAP-01, 02)
def test_row_map_grid_has_about_4500_hexes_of_four_digits(m):
    assert 4000 <= len(m.hexes) <= 4700
    assert all(re.fullmatch(r"\d{4}", h) for h in m.hexes)
    assert len(m.hexes) == hexmap.COLS * hexmap.ROWS  # a full rectangle, no holes
    land = [h for h, r in m.hexes.items() if r.kind != "sea"]
    assert 0.4 <= len(land) / len(m.hexes) <= 0.75  # digest 5.3: about 45% land


def test_row_map_adjacency_is_hexgrid_adjacency(m):
    g = hexmap.grid()
    for h in list(m.hexes)[::37]:
        assert sorted(m.neighbours(h)) == sorted(g.neighbours(h))
    assert m.distance("0101", "0104") == 3


def test_row_map_hex_numbers_match_positions(m):
    for pid in ("hanoi", "hue", "da_nang", "saigon", "can_tho", "pakse", "phnom_penh"):
        p = m.place(pid)
        assert p.hex == hexmap.hex_at(p.lon, p.lat)
        lon, lat = hexmap.hex_lonlat(p.hex)
        assert abs(lon - p.lon) < 0.1 and abs(lat - p.lat) < 0.1  # within one hex of the real place


def test_row_map_coastal_hexes_touch_all_sea(m):
    for h, r in m.hexes.items():
        sea_next = any(m.is_sea(n) for n in m.neighbours(h))
        if r.kind == "coastal":
            assert sea_next
        elif r.kind == "land":
            assert not sea_next
    assert m.is_coastal(m.place_hex("da_nang")) and m.is_coastal(m.place_hex("vung_tau"))
    assert not m.is_coastal(m.place_hex("pleiku"))


def test_row_map_terrain_classes_all_present(m):
    counts = {t: len(m.hexes_where(terrain=t)) for t in hexmap.TERRAINS}
    assert all(n >= 50 for n in counts.values()), counts
    assert counts["mountain"] > counts["swamp"]
    assert set(hexmap.TERRAINS) <= set(m.tec)  # every terrain has its TEC row


# --------------------------------------------------------------------------- places (digest 5.4, R-MAP-16)
def test_row_map_every_digest_place_on_a_land_hex_of_its_country(m):
    on_map = [p for p in m.places.values() if p.hex]
    assert len(m.places) >= 138 and len(on_map) >= 130
    for p in on_map:
        row = m.hex(p.hex)
        if p.kind == "box":
            continue
        assert row.kind != "sea", p.name
        if p.country in PAIR:
            assert row.country == p.country, (p.name, p.hex, row.country)
        else:  # on a border: either side of it
            assert row.country in PAIR


def test_row_map_south_vietnamese_places_in_their_corps(m):
    for p in m.places.values():
        if p.hex and p.country == "SVN" and p.kind != "site":
            got = m.area(p.hex)
            assert got == p.area or (got == "DMZ" and p.area == "I Corps"), (p.name, got, p.area)


def test_row_map_the_great_cities_where_they_belong(m):
    assert m.area(m.place_hex("saigon")) == "CMD"
    assert m.area(m.place_hex("hue")) == "I Corps" and m.settlement(m.place_hex("hue")) == "city"
    assert m.area(m.place_hex("da_nang")) == "I Corps"
    assert m.area(m.place_hex("hanoi")) == "North Vietnam" and m.country(m.place_hex("hanoi")) == "NVN"
    assert m.area(m.place_hex("pleiku")) == "II Corps" and m.area(m.place_hex("bien_hoa")) == "III Corps"
    assert m.area(m.place_hex("can_tho")) == "IV Corps"
    assert (
        m.hex(m.place_hex("hue")).lat > m.hex(m.place_hex("da_nang")).lat > m.hex(m.place_hex("saigon")).lat
    )


def test_row_map_recruit_draws_follow_rule_13_1_2(m):
    for p in m.places.values():
        want = {"city": 2, "town": 1}.get(p.kind, 0) if p.country == "SVN" else 0
        assert p.recruit_draws == want, p.name


def test_row_map_off_map_places_have_no_hex(m):
    for pid in ("vientiane", "luang_prabang", "nanning", "kampong_som", "yankee_station", "dixie_station"):
        assert m.place(pid).hex is None
    with pytest.raises(KeyError, match="off the map"):
        m.place_hex("vientiane")


# --------------------------------------------------------------------------- areas (14.6, R-MAP-06/07/17)
def test_row_map_nine_operational_areas_and_rough_sizes(m):
    sizes = {a: len(m.hexes_where(area=a)) for a in OPERATIONAL_AREAS}
    assert all(n > 0 for n in sizes.values()), sizes
    # about the real areas (I Corps ~28,000 km2 = 125 hexes of 86.6 sq mi; II Corps ~82,000 km2)
    assert 90 <= sizes["I Corps"] <= 170 and 280 <= sizes["II Corps"] <= 450
    assert sizes["I Corps"] < sizes["III Corps"] + sizes["IV Corps"]
    for r in m.hexes.values():
        if r.area in ("I Corps", "II Corps", "III Corps", "IV Corps", "CMD"):
            assert r.country == "SVN"
        if r.area == "Laos":
            assert r.country == "LAO"
    assert {a.id for a in m.areas.values() if a.kind == "operational_area"} == {
        a.lower().replace(" ", "_") for a in OPERATIONAL_AREAS
    }


def test_row_map_dmz_on_the_17th_parallel_from_laos_to_the_sea_rule_14_6_4(m):
    dmz = sorted(m.hexes_where(area="DMZ"), key=lambda h: m.hex(h).col)
    assert 4 <= len(dmz) <= 9
    for h in dmz:
        assert 16.9 <= m.hex(h).lat <= 17.2 and m.country(h) in ("NVN", "SVN")
    for a, b in zip(dmz, dmz[1:], strict=False):
        assert b in m.neighbours(a)  # one unbroken row
    assert m.is_coastal(dmz[-1]) or any(m.is_sea(n) for n in m.neighbours(dmz[-1]))
    assert any(m.country(n) == "LAO" for n in m.neighbours(dmz[0]))
    assert all(
        m.area(n) in ("DMZ", "North Vietnam", "I Corps", "Laos", "sea") for h in dmz for n in m.neighbours(h)
    )
    assert m.in_dmz(dmz[0]) and not m.in_dmz(m.place_hex("hue"))


def test_row_map_war_zones_and_iron_triangle_rules_13_1_2_and_14_4_2(m):
    for z, pid in (
        ("War Zone C", "war_zone_c"),
        ("War Zone D", "war_zone_d"),
        ("Iron Triangle", "iron_triangle"),
    ):
        hexes = m.hexes_where(zone=z)
        assert hexes and m.zone(m.place_hex(pid)) == z
        assert all(m.area(h) == "III Corps" for h in hexes)
    assert m.zone(m.place_hex("tay_ninh")) is None or m.zone(m.place_hex("tay_ninh")) == "War Zone C"
    assert m.zone(m.place_hex("saigon")) is None


# --------------------------------------------------------------------------- trail and FDZ (14.7, 14.6.3)
def test_row_map_trail_runs_from_vinh_and_dong_hoi_to_its_end_rule_14_7(m):
    trail = set(m.hexes_where(trail=True))
    assert m.place_hex("vinh") in trail and m.place_hex("dong_hoi") in trail
    assert not any(m.country(h) == "SVN" for h in trail)
    end = m.terminus(6)
    assert m.place("mimot").text_hex == "0970" and m.place_hex("mimot") == end
    for start in ("vinh", "dong_hoi"):  # connected along trail hexsides
        seen, todo = {m.place_hex(start)}, deque([m.place_hex(start)])
        while todo:
            h = todo.popleft()
            for n in m.trail_neighbours(h):
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        assert end in seen


def test_row_map_six_termini_numbered_from_the_north_rule_14_7_1(m):
    hexes = [m.terminus(n) for n in range(1, 7)]
    assert len(set(hexes)) == 6 and all(m.is_trail(h) for h in hexes)
    lats = [m.hex(h).lat for h in hexes]
    assert lats == sorted(lats, reverse=True)
    assert all(m.country(h) in ("LAO", "KHM") for h in hexes)


def test_row_map_free_deployment_zone_between_trail_and_south_rule_14_6_3(m):
    fdz = m.hexes_where(fdz=True)
    assert 20 <= len(fdz) <= 200
    for h in fdz:
        r = m.hex(h)
        assert r.country in ("LAO", "KHM") and not r.trail
        row = [m.hexes[f"{c:02d}{r.row:02d}"] for c in range(1, hexmap.COLS + 1)]
        assert any(x.trail for x in row[: r.col - 1]), h  # the trail is west of it in its row
        assert any(x.country in ("SVN", "NVN") for x in row[r.col :]), h  # Vietnam is east of it


# --------------------------------------------------------------------------- roads, rivers, bridges
def test_row_map_roads_connected_hex_to_hex(m):
    assert {"ql1_north", "ql1_south", "ql1_coast", "ql4", "ql9", "ql13", "ql14", "ql19"} <= set(m.roads)
    for r in m.roads.values():
        chain = r.hexes.split()
        assert len(chain) >= 2
        for a, b in zip(chain, chain[1:], strict=False):
            assert b in m.neighbours(a) and m.side_has(a, b, r.kind)
        for wp in r.waypoints.split(";"):
            if wp in m.places:
                assert m.place_hex(wp) in chain, (r.id, wp)


def test_row_map_road_network_joins_hanoi_hue_saigon_and_the_delta(m):
    start = m.place_hex("hanoi")
    seen, todo = {start}, deque([start])
    while todo:
        h = todo.popleft()
        for n in m.road_neighbours(h):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    for pid in (
        "hue",
        "da_nang",
        "qui_nhon",
        "pleiku",
        "saigon",
        "can_tho",
        "khe_sanh_combat_base",
        "phnom_penh",
    ):
        assert m.place_hex(pid) in seen, pid
    assert m.has_road(m.place_hex("saigon")) and not m.has_road(m.place_hex("plain_of_reeds"))


def test_row_map_rivers_and_bridges(m):
    names = {m.side_name(a, b, "river") for (a, b), f in m.sides.items() if "river" in f}
    assert {"Mekong", "Bassac", "Red River", "Ben Hai", "Perfume (Huong)"} <= names
    bridges = [s for s, f in m.sides.items() if "bridge" in f]
    assert bridges
    for s, f in m.sides.items():
        assert ("bridge" in f) == ("road" in f and "river" in f), s
    # the Ben Hai runs along the DMZ row
    ben_hai = [s for s, f in m.sides.items() if "river" in f and m.side_name(*s, "river") == "Ben Hai"]
    assert ben_hai and all(m.in_dmz(a) or m.in_dmz(b) for a, b in ben_hai)


def test_row_map_river_towns_keep_their_bank_r_map_14(m):
    for rid in ("laos13", "laos12", "laos23"):  # Lao roads on the Lao bank: no Mekong crossing
        chain = m.roads[rid].hexes.split()
        assert not any(
            m.side_name(a, b, "river") == "Mekong" for a, b in zip(chain, chain[1:], strict=False)
        ), rid
        assert all(m.country(h) == "LAO" for h in chain[:-1]), rid  # Route 12 ends at the Mu Gia Pass
    for (a, b), f in m.sides.items():  # where Laos meets Thailand, the Mekong is the border
        if {m.country(a), m.country(b)} == {"LAO", "THA"} and min(m.hex(a).lat, m.hex(b).lat) > 15.4:
            assert "river" in f and m.side_name(a, b, "river") == "Mekong"
    # the Dragon's Jaw: QL1 crosses the Ma on a bridge at Thanh Hoa
    ma = [s for s, f in m.sides.items() if "bridge" in f and m.side_name(*s, "river") == "Ma"]
    assert ma and m.place_hex("ham_rong_bridge") in {h for s in ma for h in s}


def test_row_map_border_hexsides_between_countries(m):
    for (a, b), f in m.sides.items():
        if "border" in f:
            assert m.country(a) != m.country(b)
    for x in m.hexes_where(country="LAO"):
        for y in m.neighbours(x):
            if m.country(y) == "SVN":
                assert m.side_has(x, y, "border") and m.side_name(x, y, "border") == "LAO/SVN"


# --------------------------------------------------------------------------- supply, stations (14.4, 11.2)
def test_row_map_supply_sources_per_nationality_rule_14_4(m):
    expect = {
        "capitalist": "SVN",
        "pavn": "NVN",
        "laotian": "LAO",
        "cambodian": "KHM",
        "khmer_rouge": "KHM",
        "pathet_lao": "LAO",
    }
    for nat, country in expect.items():
        hexes = m.supply_sources(nat)
        assert hexes, nat
        assert all(m.country(h) == country for h in hexes), nat
    assert m.place_hex("saigon") in m.supply_sources("capitalist")
    assert len(m.supply_sources("prc")) == 2
    assert all(m.hex(h).lat > 21.5 for h in m.supply_sources("prc"))  # the north edge


def test_row_map_station_line_splits_yankee_and_dixie_rule_11_2(m):
    for r in m.hexes.values():
        if r.kind == "land":
            assert r.station is None
        else:
            assert r.station == ("Yankee" if r.lat >= 14.5 else "Dixie")
    assert m.station(m.place_hex("da_nang")) == "Yankee" and m.station(m.place_hex("vung_tau")) == "Dixie"


# --------------------------------------------------------------------------- terrain (R-MAP-04/05, TEC)
def test_row_map_terrain_where_geography_says(m):
    assert m.terrain(m.place_hex("can_tho")) == "cultivated"
    assert m.terrain(m.place_hex("nam_dinh")) == "cultivated"  # Red River Delta
    assert (
        m.terrain(m.place_hex("plain_of_reeds")) == "swamp"
        and m.terrain(m.place_hex("u_minh_forest")) == "swamp"
    )
    assert m.terrain(m.place_hex("a_luoi")) == "mountain" and m.terrain(m.place_hex("kham_duc")) == "mountain"
    assert m.terrain(m.place_hex("pleiku")) == "clear"  # the plateau (digest 5.3)
    assert m.terrain(m.place_hex("paksong")) == "clear"  # Bolovens
    inland = [m.terrain(h) for h in m.hexes_where(area="I Corps") if m.terrain(h) != "cultivated"]
    assert inland.count("mountain") > inland.count("jungle")  # the Annamites fill inland I Corps
    ii = [m.terrain(h) for h in m.hexes_where(area="II Corps")]
    assert ii.count("mountain") + ii.count("jungle") > ii.count("clear") + ii.count("cultivated")
    iv = [m.terrain(h) for h in m.hexes_where(area="IV Corps")]
    assert iv.count("cultivated") + iv.count("swamp") >= 0.95 * len(iv)  # the delta


def test_row_map_corrections_file_applied(m):
    rows = list(csv.DictReader((MAP_DIR / "terrain_corrections.csv").open(encoding="utf-8")))
    assert len(rows) >= 3
    for r in rows:
        assert r["reason"].strip() and r["source"].startswith(("reconstruction:", "external:", "decision:"))
        assert m.terrain(r["hex"]) == r["terrain"]
        assert "corrected" in m.hex(r["hex"]).source
    assert m.terrain(m.place_hex("nui_ba_den")) == "mountain"


def test_row_map_tec_reconstruction_rows(m):
    assert m.tec_mp("mountain", "Capitalist") == 3 and m.tec_mp("mountain", "Communist") == 2
    assert m.tec_mp("cultivated", "Capitalist") == Fraction(2) and m.tec_mp("sea", "Communist") is None
    for t in m.tec.values():
        assert t.source.startswith(("reconstruction:", "decision:"))  # the chart is absent: ours, labelled


# --------------------------------------------------------------------------- sources and decisions
def test_row_map_every_row_sourced_and_every_decision_recorded():
    cited = set()
    for path in sorted(MAP_DIR.glob("*.csv")):
        with path.open(encoding="utf-8", newline="") as fh:
            for line, row in enumerate(csv.DictReader(fh), start=2):
                assert row["source"].startswith(("rules:", "external:", "reconstruction:", "decision:")), (
                    path,
                    line,
                )
                cited |= set(re.findall(r"R-MAP-\d\d", row["source"]))
    decisions = {d.id for d in read_csv(data_root() / "row" / "decisions.csv", DecisionRow)}
    ids = sorted(d for d in decisions if d.startswith("R-MAP-"))
    assert len(ids) >= 15
    assert cited <= decisions  # every decision a map row cites exists
    assert set(ids) <= cited | {"R-MAP-01", "R-MAP-16", "R-MAP-17"}  # grid, place kinds, outside areas: code


def test_row_map_features_geojson_matches_the_tables(m):
    feats = read_geojson(MAP_DIR / "features.geojson")["features"]
    layers = {}
    for f in feats:
        layers.setdefault(f["properties"]["layer"], []).append(f)
    assert len(layers["place"]) == sum(1 for p in m.places.values() if p.hex)
    assert len(layers["road"]) + len(layers["trail"]) == len(m.roads)
    assert {f["properties"]["name"] for f in layers["river"]} == {
        m.side_name(a, b, "river") for (a, b), f in m.sides.items() if "river" in f
    }


def test_row_map_data_up_to_date_with_its_build_script():
    """tools/build_row_map.py --check rebuilds the map in memory and compares it with the committed files."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, str(root / "tools" / "build_row_map.py"), "--check"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_row_map_classroom_window_is_about_24_by_27(m):
    win = [h for h, r in m.hexes.items() if 106.0 <= r.lon <= 109.0 and 14.3 <= r.lat <= 18.2]
    assert 500 <= len(win) <= 800
    assert {m.place_hex(p) for p in ("hue", "da_nang", "khe_sanh_combat_base", "tchepone")} <= set(win)


# --------------------------------------------------------------------------- the loader refuses bad rows
@pytest.fixture
def bad_map(tmp_path, monkeypatch):
    """A copy of data/row in a temporary data root; edit one of its files, then load it (uncached)."""
    shutil.copytree(data_root() / "row", tmp_path / "row")
    (tmp_path / "tet").mkdir()
    monkeypatch.setenv("WARGAMES_DATA", str(tmp_path))

    def edit(name: str, line: int, column: str, value: str) -> Path:
        path = tmp_path / "row" / "map" / name
        with path.open(encoding="utf-8", newline="") as fh:
            rows = list(csv.reader(fh))
        rows[line - 1][rows[0].index(column)] = value
        with path.open("w", encoding="utf-8", newline="") as fh:
            csv.writer(fh, lineterminator="\n").writerows(rows)
        return path

    return edit


def _load():
    return hexmap.load_map.__wrapped__()


def test_row_map_loader_names_file_row_column_of_a_bad_terrain(bad_map):
    bad_map("hexes.csv", 5, "terrain", "lava")
    with pytest.raises(DataError, match=r"hexes\.csv, line 5, column 'terrain'"):
        _load()


def test_row_map_loader_refuses_unsourced_row(bad_map):
    bad_map("places.csv", 3, "source", "my guess")
    with pytest.raises(DataError, match=r"places\.csv, line 3, column 'source'"):
        _load()


def test_row_map_loader_refuses_hexside_of_non_adjacent_hexes(bad_map):
    bad_map("hexsides.csv", 2, "b", "0101")
    with pytest.raises(DataError, match=r"hexsides\.csv, line 2, column 'b'.*not adjacent"):
        _load()


def test_row_map_loader_refuses_place_on_unknown_hex(bad_map):
    bad_map("places.csv", 2, "hex", "9999")
    with pytest.raises(DataError, match=r"places\.csv, line 2, column 'hex'.*not on the map"):
        _load()


def test_row_map_loader_refuses_stale_correction(bad_map):
    path = bad_map("terrain_corrections.csv", 2, "terrain", "swamp")
    with pytest.raises(DataError, match=r"terrain_corrections\.csv, line 2, column 'terrain'"):
        _load()
    assert path.exists()


def test_row_map_loader_refuses_broken_road_chain(bad_map):
    bad_map("roads.csv", 2, "hexes", "0101 0505")
    with pytest.raises(DataError, match=r"roads\.csv, line 2, column 'hexes'.*not adjacent"):
        _load()


def test_row_map_loader_refuses_sea_hex_with_land_terrain(bad_map):
    rows = list(csv.DictReader((MAP_DIR / "hexes.csv").open(encoding="utf-8")))
    line = next(i for i, r in enumerate(rows, start=2) if r["kind"] == "sea")
    bad_map("hexes.csv", line, "terrain", "jungle")
    with pytest.raises(DataError, match=rf"hexes\.csv, line {line}, column 'kind'"):
        _load()


def test_row_map_unknown_hex_query_names_the_map(m):
    with pytest.raises(KeyError, match="not a hex of the Rumor of War map"):
        m.terrain("9999")
    with pytest.raises(ValueError, match="not adjacent"):
        m.side_features("0101", "0505")
    assert hexside("0102", "0101") == ("0101", "0102")
