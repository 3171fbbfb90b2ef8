#!/usr/bin/env python3
"""Draw the area polygons of the Tet Offensive 1968 map: data/tet/areas.geojson.

Run once by hand after tools/build_geography.py (not at package runtime).

The original map had "stylized polygonal provinces" [tet digest 5.1].  We rebuild
that look with a Voronoi partition of seed points, done separately for each
country and clipped to the real land of that country (data/geo/countries.geojson):

* SVN provinces (11..45) tile South Vietnam's land completely.
* Laos (LA1-LA3) and Cambodia (KH1-KH4) provinces tile the part of those countries
  within BAND_KM of the South Vietnamese border, so the map is not dominated by Laos.
* Sanctuaries S1..S9 are circles (the original drew red circles); they are drawn on
  top of the provinces, not cut out of them.
* NVN is North Vietnam's land south of NVN_SOUTH_OF.
* Every area also gets a ``kind: "label"`` Point (same ``id``) placed inside it.

Every province gets its digest centroid as a seed (moved where the table says so)
plus hidden helper seeds that shape the cells; all seeds are in SEEDS below with
the reason.  Where two provinces that are NOT adjacent in the game would share a
short piece of border (four provinces around one point), the piece is shrunk to a
point, so that the drawing shows the game's adjacency.

The game's adjacency and the city positions are read from data/tet/edges.csv and
data/tet/areas.csv (the rules use the CSVs; this drawing is illustrative).  The
script ends with a report of every pair whose drawing disagrees with the CSV.

Usage::

    /tmp/geo-venv/bin/python tools/build_tet_areas.py [--png /tmp/geo/tet_map.png]
"""

from __future__ import annotations

import argparse
import csv
import json
import math
from pathlib import Path

import shapely
from shapely.affinity import scale
from shapely.geometry import MultiPoint, Point, Polygon, box, mapping, shape
from shapely.ops import polylabel, unary_union

ROOT = Path(__file__).resolve().parent.parent
GEO = ROOT / "data" / "geo"
TET = ROOT / "data" / "tet"
OUT = TET / "areas.geojson"
DIGITS = 4

BAND_KM = 100.0  # Laos/Cambodia provinces: land within this distance of the SVN border
NVN_SOUTH_OF = 18.2  # NVN area: North Vietnam's land south of this latitude
MIN_SHARED_KM = 1.0  # a shared border shorter than this does not count as "touching"
COLLAPSE_KM = 12.0
MIN_PART_KM2 = 0.5  # drop crumbs left by clipping (the land file has no islands below 3 km2)  # shared borders of non-adjacent provinces up to this long are shrunk to a point

SOURCE_PROV = (
    "reconstruction: stylised polygon = Voronoi cells of seed points (digest 5.3 centroid "
    "plus helper seeds, see tools/build_tet_areas.py) clipped to the {country} land of "
    "data/geo/countries.geojson (GSHHG){extra}; drawn to show the adjacency of "
    "data/tet/edges.csv, shapes are not real province borders"
)

# --------------------------------------------------------------------------- seeds
# (area, lon, lat, role, why).  role: "centroid" = digest 5.3 position unchanged,
# "moved" = digest centroid moved (digest value in `why`), "helper" = extra hidden seed.
SEEDS = [
    # ---- I Corps.  Q1 = 107.62E 16.05N: the four seeds marked "Q1" sit symmetrically
    # round it, so 11, 12, 15 and 14 meet in one point there (11-15 and 12-14 are not
    # adjacent in the game).  Q2 = 108.55E 14.70N does the same for 13, 23, 21 and 15.
    ("11", 107.35, 16.55, "centroid", ""),
    ("11", 107.05, 16.90, "helper", "coast at the DMZ, so 11 meets NVN (Dong Ha, Quang Tri)"),
    ("11", 107.85, 16.30, "helper", "coastal strip south-east of Hue to the Hai Van pass"),
    ("11", 107.72, 16.15, "helper", "Q1"),
    ("14", 106.95, 16.40, "centroid", ""),
    ("14", 106.70, 16.85, "helper", "Khe Sanh plateau up to the DMZ, so 14 meets NVN and LA1"),
    ("14", 107.52, 16.15, "helper", "Q1"),
    ("12", 108.15, 15.85, "centroid", ""),
    ("12", 107.72, 15.95, "helper", "Q1"),
    ("13", 108.65, 15.25, "centroid", ""),
    ("13", 108.65, 14.80, "helper", "Q2"),
    ("15", 107.90, 15.35, "centroid", ""),
    ("15", 107.52, 15.95, "helper", "Q1"),
    ("15", 107.50, 15.60, "helper", "Laos border west of Da Nang (LA2, LA3)"),
    ("15", 107.75, 14.98, "helper", "down the Laos border toward the tri-border (LA3, S3)"),
    ("15", 108.45, 14.80, "helper", "Q2"),
    # ---- II Corps
    ("21", 107.95, 14.55, "centroid", ""),
    ("21", 107.62, 14.45, "helper", "tri-border and Cambodian border (LA3, KH1)"),
    ("21", 108.45, 14.60, "helper", "Q2"),
    ("22", 108.20, 13.75, "centroid", ""),
    ("22", 107.70, 13.75, "helper", "Chu Pong massif, Cambodian border (KH1)"),
    ("22", 107.75, 13.15, "helper", "down the border so 22 meets KH2"),
    ("23", 108.90, 14.10, "centroid", ""),
    ("23", 108.65, 14.60, "helper", "Q2"),
    ("24", 109.00, 12.85, "centroid", ""),
    ("24", 109.15, 13.25, "helper", "Phu Yen coast (Tuy Hoa)"),
    ("24", 109.10, 12.20, "helper", "Khanh Hoa coast (Nha Trang)"),
    ("24", 109.10, 11.90, "helper", "Cam Ranh"),
    ("25", 107.95, 12.45, "centroid", ""),
    ("25", 107.70, 12.35, "helper", "Quang Duc along the Cambodian border (KH2, S5)"),
    ("26", 108.15, 11.70, "centroid", ""),
    ("26", 108.45, 11.95, "helper", "Dalat plateau"),
    ("26", 107.70, 11.70, "helper", "Lam Dong west to meet 31"),
    ("27", 108.55, 11.20, "centroid", ""),
    ("27", 108.95, 11.55, "helper", "Ninh Thuan coast (Phan Rang)"),
    ("27", 108.10, 10.95, "helper", "Binh Thuan coast (Phan Thiet)"),
    # ---- III Corps
    ("31", 106.85, 11.75, "centroid", ""),
    ("31", 106.60, 11.70, "helper", "Binh Long (An Loc) and the Fishhook border"),
    ("31", 107.15, 11.85, "helper", "Phuoc Long east to meet 25 and 26"),
    ("31", 106.68, 11.45, "helper", "Dau Tieng / Michelin, south to meet 33 above the 35 tongue"),
    ("32", 106.15, 11.35, "centroid", ""),
    ("33", 106.55, 11.05, "centroid", ""),
    (
        "33",
        106.65,
        10.98,
        "helper",
        "Phu Cuong; with the Saigon and Bien Hoa seeds 33/34/35 meet half-way between the three cities",
    ),
    ("33", 106.22, 11.15, "helper", "Hau Nghia up to the Parrot's Beak (KH4, S7)"),
    ("34", 106.55, 10.62, "centroid", ""),
    ("34", 106.70, 10.776, "helper", "Saigon"),
    ("34", 106.85, 10.45, "helper", "Rung Sat / Can Gio coast between 36 and 42"),
    ("34", 106.30, 10.85, "helper", "Long An up to the Parrot's Beak (KH4, S7)"),
    ("35", 107.25, 11.00, "centroid", ""),
    ("35", 106.82, 10.95, "helper", "Bien Hoa"),
    ("35", 106.70, 11.15, "helper", "Tan Uyen, north of Phu Cuong, so 35 reaches the Iron Triangle (S8)"),
    ("35", 107.65, 10.80, "helper", "Binh Tuy coast between 36 and 27"),
    ("36", 107.25, 10.55, "centroid", ""),
    ("36", 107.08, 10.40, "helper", "Vung Tau"),
    # ---- IV Corps
    ("41", 105.95, 10.75, "centroid", ""),
    ("42", 106.10, 10.25, "centroid", ""),
    ("42", 106.40, 10.30, "helper", "My Tho and Ben Tre"),
    ("42", 105.50, 10.75, "helper", "Kien Phong along the Mekong to the Cambodian border"),
    ("43", 105.55, 10.10, "centroid", ""),
    ("43", 105.10, 10.65, "helper", "Chau Doc"),
    ("43", 104.70, 10.40, "helper", "border strip to Ha Tien, so 44 does not touch Cambodia"),
    ("43", 105.95, 9.65, "helper", "Soc Trang"),
    ("44", 105.20, 9.85, "centroid", ""),
    ("44", 104.95, 9.65, "helper", "U Minh coast"),
    ("44", 103.95, 10.20, "helper", "Phu Quoc island (part of Kien Giang)"),
    ("45", 105.25, 9.20, "centroid", ""),
    # ---- Laos
    ("LA1", 106.05, 16.70, "centroid", ""),
    ("LA2", 106.55, 15.75, "centroid", ""),
    ("LA3", 106.90, 14.80, "centroid", ""),
    # ---- Cambodia
    ("KH1", 107.20, 13.80, "centroid", ""),
    ("KH2", 107.20, 12.45, "centroid", ""),
    ("KH3", 106.30, 11.90, "centroid", ""),
    ("KH4", 105.60, 11.10, "centroid", ""),
]

# Sanctuary circles: (id, lon, lat, radius_km, why).  Digest 5.5 positions, moved so
# that each circle touches exactly the provinces of edges.csv and covers no city.
SANCTUARIES = [
    (
        "S1",
        106.45,
        16.65,
        20.0,
        "moved from digest 106.22E 16.68N (Tchepone) east to the border so it touches 14",
    ),
    (
        "S2",
        107.36,
        16.14,
        20.0,
        "moved from digest 107.20E 16.20N about 18 km east-south-east to the "
        "11/12/14/15 corner so it touches 11, 14 and 15 (not 12) and still "
        "crosses into Laos",
    ),
    ("S3", 107.55, 14.70, 20.0, "digest position (the tri-border)"),
    ("S4", 107.60, 13.93, 20.0, "moved from digest 13.85N 9 km north so it touches 21 as well as 22"),
    ("S5", 107.49, 12.34, 20.0, "moved from digest 107.45E 12.30N 6 km so it touches 25 but not 31"),
    ("S6", 106.38, 11.78, 20.0, "moved from digest 106.40E 11.80N 3 km so it touches 32"),
    (
        "S7",
        106.01,
        10.99,
        20.0,
        "moved from digest 105.95E 11.05N 9 km toward the tip of the "
        "Parrot's Beak so it touches 34 and not 32",
    ),
    (
        "S8",
        106.47,
        11.10,
        18.0,
        "moved from digest 106.55E 11.12N 9 km west so it does not cover "
        "Phu Cuong; radius 18 km; 35 reaches it north of Phu Cuong",
    ),
    ("S9", 104.98, 9.40, 20.0, "digest position"),
]

CORPS_COLORS = {"I": "#e8a09a", "II": "#f3d27a", "III": "#9fcf8f", "IV": "#8fb8de"}


# --------------------------------------------------------------------------- helpers
def kmx(lat: float) -> float:
    return 111.32 * math.cos(math.radians(lat))


KMY = 110.6


def circle(lon, lat, r_km, n=64):
    return Polygon(
        [
            (
                lon + r_km / kmx(lat) * math.cos(2 * math.pi * k / n),
                lat + r_km / KMY * math.sin(2 * math.pi * k / n),
            )
            for k in range(n)
        ]
    )


def km_buffer(geom, r_km, lat0=14.0):
    """Buffer in km (equirectangular at lat0)."""
    fx = kmx(lat0)
    g = scale(geom, xfact=fx, yfact=KMY, origin=(0, 0))
    g = g.buffer(r_km, quad_segs=4)
    return scale(g, xfact=1 / fx, yfact=1 / KMY, origin=(0, 0))


def length_km(geom) -> float:
    if geom.is_empty:
        return 0.0
    lat = geom.centroid.y
    return scale(geom, xfact=kmx(lat), yfact=KMY, origin=(0, 0)).length


def polys(g):
    """Polygonal parts of a geometry as a list of Polygons."""
    if g.is_empty:
        return []
    if g.geom_type == "Polygon":
        return [g]
    if hasattr(g, "geoms"):
        return [p for q in g.geoms for p in polys(q)]
    return []


def polygonal(g):
    ps = polys(g)
    return unary_union(ps) if ps else Polygon()


def load_countries():
    fc = json.loads((GEO / "countries.geojson").read_text())
    return {f["properties"]["id"]: shape(f["geometry"]) for f in fc["features"]}


def load_csv(name):
    with open(TET / name, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


# --------------------------------------------------------------------------- partition
def voronoi_group(seeds, frame):
    """Union of Voronoi cells per area for one country's seeds, unclipped (covering frame)."""
    pts = MultiPoint([(s[1], s[2]) for s in seeds])
    cells = shapely.voronoi_polygons(pts, extend_to=frame, ordered=True)
    out = {}
    for s, cell in zip(seeds, cells.geoms, strict=True):
        out.setdefault(s[0], []).append(cell)
    return {a: unary_union(c) for a, c in out.items()}


def shared_lines(a, b):
    inter = a.boundary.intersection(b.boundary)
    return [g for g in getattr(inter, "geoms", [inter]) if g.geom_type in ("LineString",)] + [
        ln for g in getattr(inter, "geoms", [inter]) if g.geom_type == "MultiLineString" for ln in g.geoms
    ]


def collapse_forbidden(cells, adjacent, land, log):
    """Shrink short shared borders between non-adjacent areas to a single point.

    Moves the end points of the shared piece to its midpoint in every polygon that
    uses them, so the partition stays a tiling.
    """
    ids = sorted(cells)
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            if frozenset((a, b)) in adjacent:
                continue
            lines = shared_lines(cells[a], cells[b])
            if not lines or not unary_union(lines).intersects(land):
                continue  # (pieces out at sea or in another country do not matter)
            total = sum(length_km(ln) for ln in lines)
            if total > COLLAPSE_KM or total < 1e-6:
                continue
            coords = {c for ln in lines for c in ln.coords}
            m = unary_union(lines).centroid
            target = (m.x, m.y)
            for k in ids:
                cells[k] = _replace_coords(cells[k], coords, target)
            log.append(f"collapsed {a}|{b} shared border ({total:.1f} km) to a point")


def _replace_coords(geom, coords, target):
    def ring(r):
        return [target if c in coords else c for c in r.coords]

    out = []
    for p in polys(geom):
        shell = ring(p.exterior)
        holes = [ring(h) for h in p.interiors]
        out.append(Polygon(shell, holes))
    return polygonal(shapely.make_valid(unary_union([shapely.make_valid(p) for p in out])))


def build(countries):
    svn, lao, khm, nvn = countries["SVN"], countries["LAO"], countries["KHM"], countries["NVN"]
    edges = load_csv("edges.csv")
    adjacent = {
        frozenset((e["a"], e["b"])) for e in edges if e["kind"] in ("province", "border", "sanctuary")
    }
    frame = box(100.0, 8.0, 111.0, 23.5)
    log = []

    border = svn.boundary.intersection(unary_union([lao, khm]).boundary)
    band = km_buffer(border, BAND_KM)
    groups = {
        "SVN": (svn, [s for s in SEEDS if s[0][0].isdigit()]),
        "LAO": (lao.intersection(band), [s for s in SEEDS if s[0].startswith("LA")]),
        "KHM": (khm.intersection(band), [s for s in SEEDS if s[0].startswith("KH")]),
    }
    areas = {}
    country_of = {}
    for cc, (land, seeds) in groups.items():
        cells = voronoi_group(seeds, frame)
        collapse_forbidden(cells, adjacent, land, log)
        for a, cell in cells.items():
            areas[a] = polygonal(cell.intersection(land))
            country_of[a] = cc
    # small pieces cut off from a province's main body (islands excepted) go to the
    # neighbour that shares most border with them; clipping crumbs are dropped
    areas = _absorb_slivers(areas, groups, log)
    areas = {
        a: polygonal(unary_union([p for p in polys(g) if area_km2(p) >= MIN_PART_KM2]))
        for a, g in areas.items()
    }
    nvn_area = polygonal(nvn.intersection(box(100.0, 8.0, 111.0, NVN_SOUTH_OF)))
    sanct = {sid: circle(lon, lat, r) for sid, lon, lat, r, _ in SANCTUARIES}
    return areas, country_of, nvn_area, sanct, adjacent, log


def _absorb_slivers(areas, groups, log):
    """Give stray pieces of a province to a neighbour.

    A province keeps its largest piece, pieces holding one of its seeds, and pieces
    that touch no other province (islands).  Any other piece (a corner of a Voronoi
    cell cut off by an estuary or a bend of the border) goes to the neighbour that
    shares the longest border with it.
    """
    for _, (_, seeds) in groups.items():
        ids = sorted({s[0] for s in seeds})
        for a in ids:
            parts = sorted(polys(areas[a]), key=lambda p: -p.area)
            if len(parts) < 2:
                continue
            seed_pts = [Point(s[1], s[2]) for s in seeds if s[0] == a]
            keep = [parts[0]]
            for p in parts[1:]:
                shares = {b: length_km(p.boundary.intersection(areas[b].buffer(1e-7))) for b in ids if b != a}
                best = max(shares, key=shares.get) if shares else None
                if best is None or shares[best] < MIN_SHARED_KM or any(p.contains(q) for q in seed_pts):
                    keep.append(p)
                    continue
                areas[best] = polygonal(unary_union([areas[best], p]))
                log.append(f"gave a {area_km2(p):.0f} km2 piece of {a} to {best}")
            areas[a] = polygonal(unary_union(keep))
    return areas


def area_km2(g) -> float:
    lat = g.centroid.y
    return g.area * kmx(lat) * KMY


# --------------------------------------------------------------------------- checks
def touching(areas, nvn_area, sanct):
    """Pairs that touch in the drawing: shared border > MIN_SHARED_KM, or circle overlap."""
    solid = dict(areas)
    solid["NVN"] = nvn_area
    ids = sorted(solid)
    pairs = set()
    tol = 1e-6
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            if solid[a].distance(solid[b]) > 1e-4:
                continue
            shared = solid[a].boundary.intersection(solid[b].buffer(tol))
            if length_km(shared) > MIN_SHARED_KM:
                pairs.add(frozenset((a, b)))
    for s, c in sanct.items():
        for a, g in solid.items():
            if c.intersection(g).area * kmx(c.centroid.y) * KMY > 1.0:
                pairs.add(frozenset((s, a)))
    return pairs


def report(areas, nvn_area, sanct, adjacent, log):
    drawn = touching(areas, nvn_area, sanct)
    nodes = set(areas) | {"NVN"} | set(sanct)
    game = {p for p in adjacent if p <= nodes}
    missing = sorted(tuple(sorted(p)) for p in game - drawn)
    extra = sorted(tuple(sorted(p)) for p in drawn - game)
    cities = [r for r in load_csv("areas.csv") if r["kind"] == "city"]
    wrong_city = []
    covered = []
    for r in cities:
        p = Point(float(r["lon"]), float(r["lat"]))
        if not areas[r["province"]].contains(p):
            where = [a for a, g in areas.items() if g.contains(p)]
            wrong_city.append(f"{r['id']} (province {r['province']}) drawn in {where or 'no area'}")
        for s, c in sanct.items():
            if c.contains(p):
                covered.append(f"{r['id']} inside {s}")

    def kind(p):
        return "province" if all(x[0].isdigit() for x in p) else "other"

    print("\n".join(log))
    print(f"\nadjacency report ({len(game)} game pairs among drawn areas, {len(drawn)} drawn pairs)")
    svn_missing = [p for p in missing if kind(p) == "province"]
    svn_extra = [p for p in extra if kind(p) == "province"]
    print(
        f"  SVN province pairs: missing {len(svn_missing)} {svn_missing}  extra {len(svn_extra)} {svn_extra}"
    )
    print(f"  other pairs: missing {[p for p in missing if kind(p) != 'province']}")
    print(f"               extra   {[p for p in extra if kind(p) != 'province']}")
    print(f"  cities outside their province: {wrong_city or 'none'}")
    print(f"  cities under a sanctuary circle: {covered or 'none'}")
    return missing, extra, wrong_city, covered


def fit_sanctuaries(areas, nvn_area, adjacent, only=()):
    """Print, for each sanctuary, circles near its position that touch exactly its game neighbours.

    A design aid (``--fit``): the chosen centres are copied into SANCTUARIES by hand.
    """
    import numpy as np

    solid = dict(areas)
    solid["NVN"] = nvn_area
    ids = sorted(solid)
    geoms = [solid[a] for a in ids]
    shapely.prepare(geoms)
    cities = [
        (r["id"], Point(float(r["lon"]), float(r["lat"])))
        for r in load_csv("areas.csv")
        if r["kind"] == "city"
    ]
    for sid, lon0, lat0, _r0, _ in SANCTUARIES:
        if only and sid not in only:
            continue
        want = {a for a in ids if frozenset((sid, a)) in adjacent}
        best = []
        for r in (10.0, 12.0, 15.0, 18.0, 20.0, 22.0):
            for dx in np.arange(-0.5, 0.501, 0.02):
                for dy in np.arange(-0.5, 0.501, 0.02):
                    lon, lat = lon0 + dx, lat0 + dy
                    c = circle(lon, lat, r, n=32)
                    if any(c.distance(p) * KMY < 2.0 for _, p in cities):
                        continue
                    ov = shapely.area(shapely.intersection(c, geoms)) * kmx(lat) * KMY
                    near = shapely.distance(c, geoms) * KMY
                    got = {a for a, o in zip(ids, ov, strict=True) if o > 1.0}
                    bad = len(got ^ want)
                    weak = sum(1 for a, o in zip(ids, ov, strict=True) if a in want and o < 15.0)
                    close = sum(
                        1
                        for a, d, o in zip(ids, near, ov, strict=True)
                        if a not in want and o <= 1.0 and d < 3.0
                    )
                    dist = math.hypot(dx * kmx(lat0), dy * KMY)
                    cost = 100 * bad + 5 * (weak + close) + 0.5 * dist + 2.0 * abs(20.0 - r)
                    best.append((cost, round(lon, 2), round(lat, 2), r, sorted(got)))
        best.sort()
        print(sid, "wants", sorted(want), "now at", lon0, lat0)
        for b in best[:3]:
            print("   ", b)


# --------------------------------------------------------------------------- output
def _round(obj):
    if isinstance(obj, (list, tuple)):
        if obj and isinstance(obj[0], (int, float)):
            return [round(float(v), DIGITS) for v in obj]
        return [_round(v) for v in obj]
    return obj


def _geom(g):
    g = shapely.set_precision(g, 10**-DIGITS)
    m = mapping(g)
    return {"type": m["type"], "coordinates": _round(m["coordinates"])}


def label_point(g):
    main = max(polys(g), key=lambda p: p.area)
    return polylabel(main, tolerance=0.005)


def write(areas, country_of, nvn_area, sanct):
    meta = {r["id"]: r for r in load_csv("areas.csv")}
    feats = []
    order = sorted(areas, key=lambda a: (not a[0].isdigit(), a))
    for a in order:
        cc = country_of[a]
        extra = "" if cc == "SVN" else f", within {BAND_KM:.0f} km of the South Vietnamese border"
        seeds = [s for s in SEEDS if s[0] == a]
        moved = [s for s in seeds if s[3] == "moved"]
        why = f"; centroid moved: {moved[0][4]}" if moved else ""
        feats.append(
            (
                areas[a],
                {
                    "id": a,
                    "kind": "province",
                    "name": meta.get(a, {}).get("name", a),
                    "corps": meta.get(a, {}).get("corps") or None,
                    "country": cc,
                    "source": SOURCE_PROV.format(
                        country={"SVN": "South Vietnam", "LAO": "Laos", "KHM": "Cambodia"}[cc], extra=extra
                    )
                    + why,
                },
            )
        )
    for sid, lon, lat, r, why in SANCTUARIES:
        feats.append(
            (
                sanct[sid],
                {
                    "id": sid,
                    "kind": "sanctuary",
                    "name": meta.get(sid, {}).get("name", sid),
                    "corps": meta.get(sid, {}).get("corps") or None,
                    "country": meta.get(sid, {}).get("country") or None,
                    "source": (
                        f"reconstruction: red circle of radius {r:.0f} km as on the original map; "
                        f"centre {lat:.2f}N {lon:.2f}E ({why}); touches the areas it borders in "
                        "data/tet/edges.csv"
                    ),
                },
            )
        )
    feats.append(
        (
            nvn_area,
            {
                "id": "NVN",
                "kind": "nvn",
                "name": "North Vietnam",
                "corps": None,
                "country": "NVN",
                "source": (
                    f"reconstruction: North Vietnam's land (data/geo/countries.geojson, GSHHG) south "
                    f"of {NVN_SOUTH_OF}N, so the map does not run far north"
                ),
            },
        )
    )
    for g, props in list(feats):
        pt = Point(g.centroid.x, g.centroid.y) if props["kind"] == "sanctuary" else label_point(g)
        feats.append(
            (
                pt,
                {
                    "id": props["id"],
                    "kind": "label",
                    "label_for": props["kind"],
                    "source": "reconstruction: label point inside the area "
                    "(pole of inaccessibility of its largest part; circle centre "
                    "for sanctuaries)",
                },
            )
        )
    write_features(
        OUT,
        "tet_areas",
        "Tet Offensive 1968 map areas (lon/lat WGS84): provinces, sanctuaries, North "
        "Vietnam, and label points; built by tools/build_tet_areas.py. Illustrative: "
        "the rules use data/tet/edges.csv for adjacency.",
        feats,
    )


def write_features(out, name, description, feats):
    """Write (geometry, properties) pairs as a GeoJSON FeatureCollection, one feature per line."""
    lines = [
        json.dumps(
            {"type": "Feature", "properties": p, "geometry": _geom(g)},
            separators=(",", ":"),
            ensure_ascii=False,
        )
        for g, p in feats
    ]
    head = json.dumps(
        {"type": "FeatureCollection", "name": name, "description": description}, ensure_ascii=False
    )[:-1]
    text = head + ',"features":[\n' + ",\n".join(lines) + "\n]}\n"
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out.relative_to(ROOT)}  {len(feats)} features  {len(text) / 1024:.0f} KB")


# --------------------------------------------------------------------------- picture
def check_picture():
    """A check picture's figure and axes (matplotlib, no display): the sea, and the land of land.geojson."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 12), dpi=100)
    fig.subplots_adjust(0.04, 0.03, 0.99, 0.98)
    ax.set_facecolor("#dbe9f6")
    for f in json.loads((GEO / "land.geojson").read_text())["features"]:
        for p in polys(shape(f["geometry"])):
            ax.fill(*p.exterior.xy, color="#f4f1e8", lw=0)
    return fig, ax


def save_check_picture(fig, ax, path, west: float, title: str) -> None:
    """Frame a check picture on Indochina from longitude ``west`` (at the aspect of 13.5 degrees north), title it
    and write it to ``path``."""
    ax.set_xlim(west, 110.0)
    ax.set_ylim(8.4, 18.3)
    ax.set_aspect(1 / math.cos(math.radians(13.5)))
    ax.set_title(title, fontsize=10)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    print("png", path)


def render(path, areas, country_of, nvn_area, sanct, countries):
    meta = {r["id"]: r for r in load_csv("areas.csv")}
    fig, ax = check_picture()
    for a, g in areas.items():
        col = CORPS_COLORS[meta[a]["corps"]] if country_of[a] == "SVN" else "#c8c8c8"
        for p in polys(g):
            ax.fill(*p.exterior.xy, facecolor=col, edgecolor="#555555", lw=0.6)
    for p in polys(nvn_area):
        ax.fill(*p.exterior.xy, facecolor="#9c6b6b", edgecolor="#555555", lw=0.6)
    # Corps boundaries (thick)
    for corps in CORPS_COLORS:
        g = unary_union([areas[a] for a in areas if meta[a].get("corps") == corps])
        for p in polys(g):
            ax.plot(*p.exterior.xy, color="#333333", lw=1.4)
    borders = json.loads((GEO / "borders.geojson").read_text())
    for f in borders["features"]:
        g = shape(f["geometry"])
        for ln in getattr(g, "geoms", [g]):
            ax.plot(
                *ln.xy,
                color="#b00000" if f["properties"]["kind"] == "international" else "#000000",
                lw=1.2,
                ls="-" if f["properties"]["kind"] == "international" else "--",
            )
    rivers = GEO / "rivers.geojson"
    if rivers.exists():
        for f in json.loads(rivers.read_text())["features"]:
            g = shape(f["geometry"])
            for ln in getattr(g, "geoms", [g]):
                ax.plot(*ln.xy, color="#2060c0", lw=0.9)
    for s, c in sanct.items():
        ax.plot(*c.exterior.xy, color="red", lw=2)
        ax.text(
            c.centroid.x, c.centroid.y, s, color="red", fontsize=7, ha="center", va="center", weight="bold"
        )
    for a, g in areas.items():
        pt = label_point(g)
        ax.text(pt.x, pt.y, a, fontsize=8, ha="center", va="center", weight="bold")
    pt = label_point(nvn_area)
    ax.text(pt.x, pt.y, "NVN", fontsize=8, ha="center", va="center", weight="bold")
    for r in meta.values():
        if r["kind"] == "city":
            x, y = float(r["lon"]), float(r["lat"])
            ax.plot(x, y, "o", ms=3.5, mfc="black", mec="white", mew=0.5)
            if r["id"] in (
                "saigon",
                "hue",
                "da_nang",
                "can_tho",
                "qui_nhon",
                "nha_trang",
                "khe_sanh",
                "dalat",
                "pleiku",
                "ban_me_thuot",
                "kontum",
                "quang_ngai",
                "my_tho",
                "vung_tau",
                "ca_mau",
                "rach_gia",
                "an_loc",
                "tay_ninh",
                "phan_thiet",
            ):
                ax.text(x + 0.05, y + 0.03, r["name"], fontsize=6)
    save_check_picture(
        fig, ax, path, 103.3, "Tet Offensive 1968: reconstructed areas (tools/build_tet_areas.py)"
    )


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--png", help="render a check picture here")
    ap.add_argument(
        "--fit", nargs="*", metavar="SID", help="suggest sanctuary circle positions (all, or the ones named)"
    )
    args = ap.parse_args(argv)
    countries = load_countries()
    areas, country_of, nvn_area, sanct, adjacent, log = build(countries)
    write(areas, country_of, nvn_area, sanct)
    report(areas, nvn_area, sanct, adjacent, log)
    if args.fit is not None:
        fit_sanctuaries(areas, nvn_area, adjacent, args.fit)
    if args.png:
        render(args.png, areas, country_of, nvn_area, sanct, countries)


if __name__ == "__main__":
    main()
