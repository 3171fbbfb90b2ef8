#!/usr/bin/env python3
"""Draw the Fire in the Lake board as a stylised map: data/fitl/spaces.geojson.

Run once by hand after tools/build_geography.py (not at package runtime).

The printed board is a schematic of South Vietnam with 47 spaces.  We redraw it
on the real coastline (data/geo/countries.geojson) in the same way as the Tet map
(tools/build_tet_areas.py, whose helpers we import):

* Provinces are Voronoi cells of seed points, per country, clipped to the land of
  that country: the 15 South Vietnamese Provinces tile South Vietnam; Central and
  Southern Laos tile Laos within BAND_KM of the South Vietnamese border; the four
  Cambodian spaces tile Cambodia within BAND_KM (plus the coast round Kampong Som,
  so that Sihanoukville holds its namesake port); North Vietnam is North Vietnam's
  land south of NVN_SOUTH_OF.  Every Province gets the point of data/fitl/spaces.csv
  as a seed plus hidden helper seeds (SEEDS, each with its reason).
* Where two Provinces that are NOT adjacent in the game would share a short piece
  of border (four Provinces round one City, e.g. Can Tho), the piece is shrunk to a
  point, so the drawing shows the game's adjacency (data/fitl/adjacency.csv).
* Cities and the LoC end towns (data/fitl/towns.csv) are Points.
* LoCs are LineStrings from end to end through real places on the road or river
  (ROUTES); the Saigon-An Loc-Ban Me Thuot LoC is a MultiLineString (Route 13 to
  An Loc and Route 14 to Ban Me Thuot part at Chon Thanh).
* Every Province also gets a ``kind: "label"`` Point (same ``id``) inside it.

The rules use data/fitl/adjacency.csv; this drawing is illustrative.  The script
ends with a report of every place where the drawing and the CSV disagree.

Usage::

    /tmp/geo-venv/bin/python tools/build_fitl_board.py [--png /tmp/geo/fitl_map.png]
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
from pathlib import Path

from shapely.geometry import LineString, MultiLineString, Point, Polygon, box
from shapely.ops import unary_union

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_tet_areas import (  # noqa: E402  (shared drawing helpers)
    KMY,
    _absorb_slivers,
    area_km2,
    check_picture,
    collapse_forbidden,
    km_buffer,
    kmx,
    label_point,
    length_km,
    load_countries,
    polygonal,
    polys,
    save_check_picture,
    voronoi_group,
    write_features,
)

ROOT = Path(__file__).resolve().parent.parent
GEO = ROOT / "data" / "geo"
FITL = ROOT / "data" / "fitl"
OUT = FITL / "spaces.geojson"

BAND_KM = 110.0  # Laos/Cambodia spaces: land within this distance of the South Vietnamese border
KAMPONG_SOM_KM = 45.0  # ... plus land within this distance of Kampong Som (Sihanoukville port)
KAMPONG_SOM = (103.52, 10.63)
NVN_SOUTH_OF = 18.2  # North Vietnam: its land south of this latitude
MIN_SHARED_KM = 1.0  # a shared border shorter than this does not count as touching
MIN_PART_KM2 = 0.5

SOURCE_PROV = (
    "reconstruction: stylised polygon = Voronoi cells of seed points (the point of "
    "data/fitl/spaces.csv plus helper seeds, see tools/build_fitl_board.py) clipped to the "
    "{country} land of data/geo/countries.geojson (GSHHG){extra}; drawn to show the adjacency "
    "of data/fitl/adjacency.csv; not the printed board's shapes nor real province borders"
)

# --------------------------------------------------------------------------- seeds
# (space, lon, lat, why).  The first seed of every Province is its spaces.csv point
# (added automatically); these are the hidden helpers.
SEEDS = [
    # ---- I Corps
    ("quang_tri_thua_thien", 107.05, 16.95, "DMZ coast at Dong Ha, so it meets North Vietnam"),
    ("quang_tri_thua_thien", 106.75, 16.55, "Khe Sanh and the Laos border (Central Laos)"),
    ("quang_nam", 107.60, 15.85, "A Shau valley down to the Laos border (Central and Southern Laos)"),
    ("quang_tin_quang_ngai", 107.75, 15.40, "Kham Duc, so it reaches the Laos border (Southern Laos)"),
    # ---- II Corps
    ("binh_dinh", 107.80, 15.05, "Dak Pek: the board's Binh Dinh reaches the Laos border north of Kontum"),
    ("binh_dinh", 109.05, 14.40, "Bong Son coast"),
    ("pleiku_darlac", 107.65, 14.50, "Dak To country and the tri-border (Southern Laos, Northeast Cambodia)"),
    ("pleiku_darlac", 107.75, 13.60, "Chu Pong massif on the Cambodian border"),
    ("phu_bon_phu_yen", 108.45, 13.45, "Cheo Reo (Phu Bon)"),
    ("phu_bon_phu_yen", 109.20, 13.10, "Tuy Hoa coast (Phu Yen)"),
    ("khanh_hoa", 109.10, 12.45, "Nha Trang coast"),
    ("binh_tuy_binh_thuan", 108.60, 11.25, "Phan Thiet and Phan Rang coast up to Cam Ranh"),
    ("binh_tuy_binh_thuan", 107.30, 10.60, "Phuoc Tuy and Vung Tau coast east of the Rung Sat"),
    # ---- III Corps
    ("quang_duc_long_khanh", 107.45, 12.25, "Quang Duc along the Cambodian border (the Fishhook)"),
    ("quang_duc_long_khanh", 107.05, 11.10, "Long Khanh and Bien Hoa, east of Saigon"),
    ("phuoc_long", 106.85, 12.00, "Bu Dop on the Cambodian border (the Fishhook)"),
    ("tay_ninh", 106.30, 11.05, "Hau Nghia, north-west of Saigon"),
    # ---- IV Corps
    ("kien_phong", 105.85, 10.80, "Kien Tuong and Long An, west of Saigon"),
    ("kien_phong", 105.25, 10.70, "Chau Doc on the Cambodian border (the Parrot's Beak)"),
    ("kien_hoa_vinh_binh", 106.60, 10.35, "Go Cong and My Tho, south of Saigon"),
    ("kien_giang_an_xuyen", 104.70, 10.30, "Ha Tien border strip to Sihanoukville"),
    ("kien_giang_an_xuyen", 105.10, 8.90, "Ca Mau point"),
    ("ba_xuyen", 105.80, 9.25, "Bac Lieu coast"),
    # ---- Laos and Cambodia
    ("central_laos", 106.40, 16.80, "Tchepone, beside the DMZ"),
    ("central_laos", 107.15, 16.10, "border west of Hue: Central Laos meets Quang Nam"),
    ("southern_laos", 107.15, 15.60, "border west of Da Nang: Southern Laos meets Quang Nam"),
    ("southern_laos", 107.20, 14.80, "Attapeu and the tri-border"),
    ("northeast_cambodia", 107.20, 13.40, "Mondulkiri along the Pleiku-Darlac border"),
    ("the_fishhook", 107.30, 12.45, "border west of Duc Lap: the Fishhook meets Pleiku-Darlac and Quang Duc"),
    ("the_fishhook", 106.10, 11.75, "Memot, up to the Tay Ninh border"),
    ("the_parrots_beak", 105.30, 11.00, "Prey Veng and Takeo toward Chau Doc"),
    ("sihanoukville", 103.60, 10.70, "Kampong Som port"),
]

# Junctions: a City or town where several Provinces meet on the board.  Their seeds sit on
# a small circle round the place (angle in degrees, 0 = east, 90 = north), so the cells
# meet in one point there and neighbours on the circle share a border.
JUNCTION_KM = 8.0
JUNCTIONS = [
    (
        "can_tho",
        [("kien_hoa_vinh_binh", 30), ("kien_phong", 110), ("kien_giang_an_xuyen", 200), ("ba_xuyen", 290)],
        "Can Tho touches four Provinces; Kien Phong/Ba Xuyen and Kien Hoa/Kien Giang are not adjacent",
    ),
    (
        "saigon",
        [
            ("binh_tuy_binh_thuan", 10),
            ("quang_duc_long_khanh", 60),
            ("tay_ninh", 130),
            ("kien_phong", 200),
            ("kien_hoa_vinh_binh", 260),
        ],
        "Saigon touches five Provinces; the Rung Sat wedge (RUNG_SAT) keeps Binh Tuy and Kien Hoa apart",
    ),
    (
        "kontum",
        [("binh_dinh", 60), ("pleiku_darlac", 200), ("phu_bon_phu_yen", 300)],
        "Kontum touches Binh Dinh, Pleiku-Darlac and Phu Bon-Phu Yen",
    ),
    (
        "ban_me_thuot",
        [("pleiku_darlac", 100), ("khanh_hoa", 340), ("quang_duc_long_khanh", 220)],
        "the town of Ban Me Thuot ends three LoCs between Pleiku-Darlac, Khanh Hoa and Quang Duc",
    ),
    (
        "da_lat",
        [("khanh_hoa", 70), ("quang_duc_long_khanh", 180), ("binh_tuy_binh_thuan", 290)],
        "the town of Da Lat ends three LoCs between Khanh Hoa, Quang Duc and Binh Tuy (rules:1.3.6 example)",
    ),
    (
        "qui_nhon",
        [("binh_dinh", 100), ("phu_bon_phu_yen", 260)],
        "Qui Nhon on the Binh Dinh / Phu Bon border",
    ),
    (
        "cam_ranh",
        [("khanh_hoa", 90), ("binh_tuy_binh_thuan", 270)],
        "Cam Ranh on the Khanh Hoa / Binh Tuy border",
    ),
    (
        "da_nang",
        [("quang_nam", 150), ("quang_tin_quang_ngai", 270)],
        "Da Nang on the Quang Nam / Quang Tin border",
    ),
    ("an_loc", [("phuoc_long", 30), ("tay_ninh", 210)], "An Loc on the Phuoc Long / Tay Ninh border"),
]
# Land left out of every Province: the Rung Sat swamp south-east of Saigon, a wedge from
# Saigon to the sea, so that Binh Tuy-Binh Thuan and Kien Hoa-Vinh Binh (not adjacent) do not touch.
RUNG_SAT = [(106.7009, 10.7769), (107.02, 10.42), (106.80, 10.30)]

# LoC routes: waypoints between the two ends (lon, lat, place).  The spaces.csv point of
# each LoC is one of them.  Ends are the cities/towns named in the LoC.
ROUTES = {
    "loc_hue_da_nang": ("hue", [(107.86, 16.29, "Phu Loc"), (108.13, 16.192, "Hai Van pass")], "da_nang"),
    "loc_da_nang_dak_to": (
        "da_nang",
        [(107.83, 15.77, "Thanh My"), (107.80, 15.44, "Kham Duc"), (107.74, 15.07, "Dak Pek")],
        "dak_to",
    ),
    "loc_da_nang_qui_nhon": (
        "da_nang",
        [
            (108.48, 15.57, "Tam Ky"),
            (108.80, 15.12, "Quang Ngai"),
            (108.96, 14.81, "Duc Pho"),
            (109.00, 14.43, "Bong Son"),
        ],
        "qui_nhon",
    ),
    "loc_kontum_dak_to": ("kontum", [(107.93, 14.52, "Dak Ha")], "dak_to"),
    "loc_kontum_qui_nhon": (
        "kontum",
        [(108.30, 14.05, "Mang Yang pass"), (108.65, 13.95, "An Khe")],
        "qui_nhon",
    ),
    "loc_kontum_ban_me_thuot": (
        "kontum",
        [(108.00, 13.98, "Pleiku"), (108.27, 12.92, "Buon Ho")],
        "ban_me_thuot",
    ),
    "loc_qui_nhon_cam_ranh": (
        "qui_nhon",
        [
            (109.22, 13.45, "Song Cau"),
            (109.30, 13.08, "Tuy Hoa"),
            (109.13, 12.49, "Ninh Hoa"),
            (109.19, 12.24, "Nha Trang"),
        ],
        "cam_ranh",
    ),
    "loc_cam_ranh_da_lat": (
        "cam_ranh",
        [(108.95, 11.60, "Thap Cham"), (108.67, 11.73, "Krong Pha pass")],
        "da_lat",
    ),
    "loc_ban_me_thuot_da_lat": ("ban_me_thuot", [(108.18, 12.41, "Lak")], "da_lat"),
    "loc_saigon_cam_ranh": (
        "saigon",
        [
            (106.95, 10.78, "Long Thanh"),
            (107.17, 10.50, "Ba Ria"),
            (107.76, 10.65, "Ham Tan"),
            (108.10, 10.93, "Phan Thiet"),
            (108.99, 11.56, "Phan Rang"),
        ],
        "cam_ranh",
    ),
    "loc_saigon_da_lat": (
        "saigon",
        [(107.35, 11.19, "Dinh Quan"), (107.81, 11.55, "Bao Loc"), (108.07, 11.58, "Di Linh")],
        "da_lat",
    ),
    "loc_saigon_can_tho": (
        "saigon",
        [(106.41, 10.53, "Tan An"), (106.36, 10.36, "My Tho"), (105.97, 10.25, "Vinh Long")],
        "can_tho",
    ),
    "loc_can_tho_chau_doc": ("can_tho", [(105.435, 10.386, "Long Xuyen")], "chau_doc"),
    "loc_can_tho_bac_lieu": (
        "can_tho",
        [(105.82, 9.81, "Phung Hiep"), (105.97, 9.60, "Soc Trang")],
        "bac_lieu",
    ),
    "loc_can_tho_long_phu": ("can_tho", [(106.07, 9.73, "Dai Ngai")], "long_phu"),
}
# Forked LoCs (MultiLineStrings): Hue-Khe Sanh is Route 1 to Dong Ha with its spur on to the
# DMZ (the LoC touches North Vietnam) and Route 9 to Khe Sanh; Saigon-An Loc-Ban Me Thuot is
# Saigon to Chon Thanh, then Route 13 to An Loc and Route 14 to Ban Me Thuot.
FORKED = {
    "loc_hue_khe_sanh": [
        (
            "hue",
            [(107.19, 16.75, "Quang Tri"), (107.10, 16.816, "Dong Ha"), (106.99, 16.80, "Cam Lo")],
            "khe_sanh",
        ),
        (None, [(107.10, 16.816, "Dong Ha"), (107.07, 16.99, "Ben Hai bridge at the DMZ")], None),
    ],
    "loc_saigon_an_loc_ban_me_thuot": [
        ("saigon", [(106.65, 10.98, "Thu Dau Mot"), (106.62, 11.42, "Chon Thanh")], "an_loc"),
        (
            None,
            [
                (106.62, 11.42, "Chon Thanh"),
                (106.90, 11.53, "Dong Xoai"),
                (107.69, 12.00, "Gia Nghia"),
                (107.62, 12.45, "Dak Mil (Duc Lap)"),
            ],
            "ban_me_thuot",
        ),
    ],
}
LOC_REACH_KM = 15.0  # a LoC should come this close to every Province it is adjacent to (ends included) ...
LOC_NEAR_KM = 5.0  # ... and not this close to any other
CITY_NEAR_KM = 25.0
END_TRIM_KM = 15.0  # ... ignoring the stretch within this distance of the Cities/towns it joins (junctions)  # a City should lie within this distance of every Province it is adjacent to

# Differences the drawing cannot avoid while keeping real positions (reported, not counted).
KNOWN = {
    (
        "loc_kontum_dak_to",
        "southern_laos",
    ): "the town of Dak To is about 30 km from the Laos border; on the board Southern Laos touches the town",
}

COLORS = {"SVN": "#f3d27a", "LAO": "#c8c8c8", "KHM": "#d0c4b0", "NVN": "#9c6b6b"}


# --------------------------------------------------------------------------- data
def load_csv(name):
    with open(FITL / name, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def load_game():
    spaces = {r["id"]: r for r in load_csv("spaces.csv")}
    towns = {r["id"]: r for r in load_csv("towns.csv")}
    adjacent = {frozenset((r["a"], r["b"])) for r in load_csv("adjacency.csv")}
    return spaces, towns, adjacent


def pt(row):
    return (float(row["lon"]), float(row["lat"]))


# --------------------------------------------------------------------------- build
def junction_seeds(spaces, towns):
    out = []
    for place, members, why in JUNCTIONS:
        lon0, lat0 = pt(spaces[place] if place in spaces else towns[place])
        for sid, ang in members:
            a = math.radians(ang)
            out.append(
                (
                    sid,
                    lon0 + JUNCTION_KM * math.cos(a) / kmx(lat0),
                    lat0 + JUNCTION_KM * math.sin(a) / KMY,
                    f"junction at {place}: {why}",
                )
            )
    return out


def build(countries, spaces, towns, adjacent):
    svn, lao, khm, nvn = countries["SVN"], countries["LAO"], countries["KHM"], countries["NVN"]
    svn = svn.difference(Polygon(RUNG_SAT))
    frame = box(100.0, 8.0, 111.0, 23.5)
    log = []
    border = svn.boundary.intersection(unary_union([lao, khm]).boundary)
    band = km_buffer(border, BAND_KM)
    port = km_buffer(Point(*KAMPONG_SOM), KAMPONG_SOM_KM, lat0=KAMPONG_SOM[1])
    seeds = {"SVN": [], "LAO": [], "KHM": []}
    for sid, r in spaces.items():
        if r["kind"] == "province" and r["country"] in seeds:
            seeds[r["country"]].append((sid, float(r["lon"]), float(r["lat"]), "spaces.csv point"))
    for sid, lon, lat, why in SEEDS + junction_seeds(spaces, towns):
        seeds[spaces[sid]["country"]].append((sid, lon, lat, why))
    groups = {
        "SVN": (svn, seeds["SVN"]),
        "LAO": (lao.intersection(band), seeds["LAO"]),
        "KHM": (khm.intersection(unary_union([band, port])), seeds["KHM"]),
    }
    areas, country_of = {}, {}
    for cc, (land, sd) in groups.items():
        cells = voronoi_group(sd, frame)
        collapse_forbidden(cells, adjacent, land, log)
        for a, cell in cells.items():
            areas[a] = polygonal(cell.intersection(land))
            country_of[a] = cc
    areas = _absorb_slivers(areas, groups, log)
    areas = {
        a: polygonal(unary_union([p for p in polys(g) if area_km2(p) >= MIN_PART_KM2]))
        for a, g in areas.items()
    }
    areas["north_vietnam"] = polygonal(nvn.intersection(box(100.0, 8.0, 111.0, NVN_SOUTH_OF)))
    country_of["north_vietnam"] = "NVN"
    return areas, country_of, log


def loc_geometry(lid, spaces, towns):
    def end(k):
        return pt(spaces[k]) if k in spaces else pt(towns[k])

    if lid in FORKED:
        parts = []
        for a, way, b in FORKED[lid]:
            coords = ([end(a)] if a else []) + [(x, y) for x, y, _ in way] + ([end(b)] if b else [])
            parts.append(coords)
        return MultiLineString(parts)
    a, way, b = ROUTES[lid]
    return LineString([end(a)] + [(x, y) for x, y, _ in way] + [end(b)])


def loc_ends(lid):
    if lid in FORKED:
        return [e for a, _, b in FORKED[lid] for e in (a, b) if e]
    return [ROUTES[lid][0], ROUTES[lid][2]]


def route_places(lid):
    if lid in FORKED:
        return [p for _, way, _ in FORKED[lid] for *_, p in way]
    return [p for *_, p in ROUTES[lid][1]]


# --------------------------------------------------------------------------- checks
def km(g1, g2):
    lat = (g1.centroid.y + g2.centroid.y) / 2 if not g1.is_empty else 14.0
    return g1.distance(g2) * (kmx(lat) + KMY) / 2


def report(areas, spaces, towns, adjacent, log):
    ids = sorted(areas)
    drawn = set()
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            if areas[a].distance(areas[b]) > 1e-4:
                continue
            shared = areas[a].boundary.intersection(areas[b].buffer(1e-6))
            if length_km(shared) > MIN_SHARED_KM:
                drawn.add(frozenset((a, b)))
    game = {p for p in adjacent if all(spaces[x]["kind"] == "province" for x in p)}
    missing = sorted(tuple(sorted(p)) for p in game - drawn)
    extra = sorted(tuple(sorted(p)) for p in drawn - game)
    print("\n".join(log))
    print(f"\nadjacency report: {len(game)} Province pairs in the game, {len(drawn)} drawn")
    print(f"  Province pairs missing from the drawing: {missing or 'none'}")
    print(f"  Province pairs drawn but not adjacent:   {extra or 'none'}")
    problems = len(missing) + len(extra)
    # cities
    for cid, r in spaces.items():
        if r["kind"] != "city":
            continue
        p = Point(*pt(r))
        inside = [a for a, g in areas.items() if g.contains(p)]
        want = {x for e in adjacent if cid in e for x in e if x != cid and spaces[x]["kind"] == "province"}
        far = {a: round(km(p, areas[a]), 1) for a in want if km(p, areas[a]) > CITY_NEAR_KM}
        near_wrong = {a: round(km(p, g), 1) for a, g in areas.items() if a not in want and km(p, g) < 1.0}
        ok = (not inside or inside[0] in want) and not far and not near_wrong
        problems += 0 if ok else 1
        if not ok:
            print(
                f"  city {cid}: inside {inside}, adjacent Provinces over {CITY_NEAR_KM:.0f} km away {far}, "
                f"non-adjacent Provinces under 1 km {near_wrong}"
            )
    # LoCs
    for lid, r in spaces.items():
        if r["kind"] != "loc":
            continue
        g = loc_geometry(lid, spaces, towns)
        ends = [Point(*pt(spaces[e] if e in spaces else towns[e])) for e in loc_ends(lid)]
        middle = g.difference(unary_union([km_buffer(e, END_TRIM_KM, lat0=e.y) for e in ends]))
        reached = {a for a, poly in areas.items() if km(g, poly) < LOC_REACH_KM}
        runs_by = {a for a, poly in areas.items() if km(middle, poly) < LOC_NEAR_KM}
        want = {x for e in adjacent if lid in e for x in e if x != lid and spaces[x]["kind"] == "province"}
        miss, extra_ = want - reached, runs_by - want
        for k in sorted(miss | extra_):
            if (lid, k) in KNOWN:
                print(f"  known: LoC {lid} / {k}: {KNOWN[(lid, k)]}")
                miss.discard(k)
                extra_.discard(k)
        if miss or extra_:
            problems += 1
            print(
                f"  LoC {lid}: misses adjacent {sorted(miss) or '-'}; runs by non-adjacent {sorted(extra_) or '-'}"
            )
        rep = Point(*pt(r))
        if km(rep, g) > 0.5:
            problems += 1
            print(f"  LoC {lid}: its spaces.csv point is {km(rep, g):.1f} km off its line")
    print(f"  {problems} problem(s)")
    return problems


# --------------------------------------------------------------------------- output
def write(areas, country_of, spaces, towns):
    feats = []
    order = [s for s in spaces if s in areas]
    for a in order:
        cc = country_of[a]
        extra = (
            ""
            if cc in ("SVN",)
            else (
                f" south of {NVN_SOUTH_OF}N"
                if cc == "NVN"
                else f", within {BAND_KM:.0f} km of the South Vietnamese border"
                + (f" or {KAMPONG_SOM_KM:.0f} km of Kampong Som" if cc == "KHM" else "")
            )
        )
        src = SOURCE_PROV.format(
            country={"SVN": "South Vietnam", "LAO": "Laos", "KHM": "Cambodia", "NVN": "North Vietnam"}[cc],
            extra=extra,
        )
        if a == "north_vietnam":
            src = (
                "reconstruction: North Vietnam's land (data/geo/countries.geojson, GSHHG) south of "
                f"{NVN_SOUTH_OF}N, so the map does not run far north; the game's North Vietnam is one Province"
            )
        feats.append(
            (areas[a], {"id": a, "kind": "province", "name": spaces[a]["name"], "country": cc, "source": src})
        )
    for cid, r in spaces.items():
        if r["kind"] == "city":
            feats.append(
                (
                    Point(*pt(r)),
                    {
                        "id": cid,
                        "kind": "city",
                        "name": r["name"],
                        "country": "SVN",
                        "source": "reconstruction: real position of the city (data/fitl/spaces.csv)",
                    },
                )
            )
    for lid, r in spaces.items():
        if r["kind"] == "loc":
            g = loc_geometry(lid, spaces, towns)
            feats.append(
                (
                    g,
                    {
                        "id": lid,
                        "kind": "loc",
                        "name": r["name"],
                        "country": "SVN",
                        "source": (
                            "reconstruction: schematic line between the Cities/towns the LoC joins, "
                            "through real places on the road or river: "
                            + ", ".join(route_places(lid))
                            + " (tools/build_fitl_board.py ROUTES)"
                        ),
                    },
                )
            )
    for tid, r in towns.items():
        feats.append(
            (
                Point(*pt(r)),
                {
                    "id": tid,
                    "kind": "town",
                    "name": r["name"],
                    "country": "SVN",
                    "source": "reconstruction: real position of the town (data/fitl/towns.csv); "
                    "towns are not spaces (rules:1.3.1)",
                },
            )
        )
    for a in order:
        feats.append(
            (
                label_point(areas[a]),
                {
                    "id": a,
                    "kind": "label",
                    "label_for": "province",
                    "source": "reconstruction: label point inside the Province "
                    "(pole of inaccessibility of its largest part)",
                },
            )
        )
    write_features(
        OUT,
        "fitl_spaces",
        "Fire in the Lake board spaces (lon/lat WGS84): Provinces (polygons), Cities and LoC end "
        "towns (points), LoCs (lines) and Province label points; built by "
        "tools/build_fitl_board.py. Illustrative: the rules use data/fitl/adjacency.csv.",
        feats,
    )


def render(path, areas, country_of, spaces, towns):
    from shapely.geometry import shape

    fig, ax = check_picture()
    for a, g in areas.items():
        col = COLORS[country_of[a]]
        if spaces[a]["country"] == "SVN":
            col = {"highland": "#d9b38c", "lowland": "#b5d99c", "jungle": "#7fbf7f"}[spaces[a]["terrain"]]
        for p in polys(g):
            ax.fill(*p.exterior.xy, facecolor=col, edgecolor="#444444", lw=0.7)
    for f in json.loads((GEO / "borders.geojson").read_text())["features"]:
        g = shape(f["geometry"])
        for ln in getattr(g, "geoms", [g]):
            ax.plot(
                *ln.xy,
                color="#b00000",
                lw=1.0,
                ls="-" if f["properties"]["kind"] == "international" else "--",
            )
    for lid, r in spaces.items():
        if r["kind"] == "loc":
            g = loc_geometry(lid, spaces, towns)
            col = {"highway": "#333333", "mekong": "#2060c0", "highway_mekong": "#7030a0"}[r["terrain"]]
            for ln in getattr(g, "geoms", [g]):
                ax.plot(*ln.xy, color=col, lw=1.0 + float(r["econ"]))
    for a, g in areas.items():
        p = label_point(g)
        ax.text(p.x, p.y, spaces[a]["name"].replace("-", "-\n"), fontsize=6, ha="center", va="center")
    for _cid, r in spaces.items():
        if r["kind"] == "city":
            x, y = pt(r)
            ax.plot(x, y, "s", ms=6, mfc="white", mec="black")
            ax.text(x + 0.06, y + 0.04, r["name"], fontsize=7, weight="bold")
    for _tid, r in towns.items():
        x, y = pt(r)
        ax.plot(x, y, "o", ms=3, mfc="black")
        ax.text(x + 0.05, y - 0.08, r["name"], fontsize=5.5, style="italic")
    save_check_picture(fig, ax, path, 102.8, "Fire in the Lake: stylised board (tools/build_fitl_board.py)")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--png", help="render a check picture here")
    args = ap.parse_args(argv)
    spaces, towns, adjacent = load_game()
    areas, country_of, log = build(load_countries(), spaces, towns, adjacent)
    write(areas, country_of, spaces, towns)
    report(areas, spaces, towns, adjacent, log)
    if args.png:
        render(args.png, areas, country_of, spaces, towns)


if __name__ == "__main__":
    main()
