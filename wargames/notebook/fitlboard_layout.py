"""Where things go on the Fire in the Lake board (issue #14): the board's geometry, the cells of each space's
pieces (columns, pitch, glyph widths, leader lines) and the placement of place names beside their spaces.  The
view and its layers are in :mod:`wargames.notebook.fitlboard`."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..maps.layers import places_by_id

_places = places_by_id  # the layers' places by id (wargames.maps.layers)


CELL_W, CELL_H = 22, 15  # pixels per piece glyph with a one-digit count, and per row of glyphs


PITCH = 0.17  # degrees between piece glyphs (before the placer moves each block clear of the names)


COLUMNS = 3  # glyphs per row under a space's name


CHIP_W = 30  # pixels kept left of every name for its Control chip (COIN / NVA)


def _place_names(
    names: dict[str, list],
    kinds: dict[str, str],
    height: int,
    extent: dict[str, tuple[float, float]],
    geo: BoardGeometry | None = None,
) -> dict[str, tuple[float, ...]]:
    """Where each space's name goes, in screen pixels from its anchor (x offset of the box's left edge, y offset
    of its bottom), so that no name covers another name, a City circle or the pieces of another space, and none
    is cut by the frame (issue #19 item 6: the delta's names overlapped).  A greedy choice among nearby spots,
    Cities and populous spaces first.  The Control chip goes in the first ``CHIP_W`` pixels of the box.  With
    ``geo``, a Province's name rather stays inside the Province (its room is its pieces' room too)."""
    EXTENT = extent  # noqa: N806 - the map layers' extent

    sc = height / (EXTENT["y"][1] - EXTENT["y"][0])
    fw = int((EXTENT["x"][1] - EXTENT["x"][0]) * sc)  # the frame is this many whole pixels wide

    def px(x: float, y: float) -> tuple[float, float]:
        return (x - EXTENT["x"][0]) * sc, (EXTENT["y"][1] - y) * sc

    obstacles: list[tuple[float, float, float, float]] = []
    circles: list[tuple[float, float, float, float]] = []  # a name on a City circle hides the City: never
    for sid, x, y in zip(names["id"], names["x"], names["y"], strict=True):
        ax, ay = px(x, y)
        if kinds[sid] == "city":
            circles.append((ax - 12, ay - 12, ax + 12, ay + 12))
            obstacles.append(
                (
                    ax + 0.2 * sc - 8,
                    ay + 0.13 * sc - 8,
                    ax + (0.2 + 2 * PITCH) * sc + 14,
                    ay + (0.13 + PITCH) * sc + 8,
                )
            )
        else:
            obstacles.append(
                (ax - PITCH * sc - 8, ay + 0.16 * sc - 8, ax + PITCH * sc + 14, ay + (0.16 + PITCH) * sc + 8)
            )

    from .labels import place

    order = sorted(
        range(len(names["id"])), key=lambda i: (kinds[names["id"][i]] != "city", -len(names["text"][i]))
    )
    shifts = [
        (0, 0),
        (0, -9),
        (0, 9),
        (-18, 0),
        (18, 0),
        (-30, -8),
        (30, -8),
        (0, -18),
        (-40, 4),
        (40, 4),
        (0, 20),
        (-24, -18),
        (24, -18),
        (-50, -6),
        (50, -6),
        (0, -28),
        (0, 30),
        (-30, 20),
        (30, 20),
        (-60, 0),
        (60, 0),
        (-40, -26),
        (40, -26),
    ]
    offsets, cands = [], []
    for i in range(len(names["id"])):
        sid = names["id"][i]
        ax, ay = px(names["x"][i], names["y"][i])
        font = 11 if kinds[sid] == "city" else 10
        w = CHIP_W + len(names["text"][i]) * font * 0.6 + 4
        h = font + 4
        left0 = 10.0 if kinds[sid] == "city" else -w / 2  # a City's name to its east, a Province's centred
        bottom0 = -4.0
        offsets.append([(left0 + dx, bottom0 + dy) for dx, dy in shifts])
        cands.append(
            [
                (ax + left0 + dx, ay + bottom0 + dy - h, ax + left0 + dx + w, ay + bottom0 + dy)
                for dx, dy in shifts
            ]
        )
    # never on a City circle or another name (then a second look at those still covering one); rather not on
    # where a space's pieces usually go; never cut by the left, right or top edge
    prefs = None
    if geo is not None:
        prefs = []
        for i, boxes in enumerate(cands):
            pref = np.arange(len(boxes)) * 5.0
            mask = geo.masks.get(names["id"][i])
            prefs.append(pref + 0.04 * mask.outside_area(np.asarray(boxes)) if mask is not None else pref)
    chosen = place(
        cands, circles, obstacles, (0, 0, fw, 1e6), order=order, step_cost=5, soft_weight=2.5, prefs=prefs
    )
    out: dict[str, tuple[float, ...]] = {}
    for i, k in enumerate(chosen):
        out[names["id"][i]] = (*offsets[i][k], *cands[i][k])
    return out


GLYPH = 7  # half the drawn size of a glyph (12 px marker + its 2 px outline)


DIGIT = 6.5  # pixels per character of a count (9 px bold)


LEADER_GAPS = np.array(
    [4.0, 8.0, 14.0, 20.0, 28.0, 36.0, 46.0, 58.0, 72.0, 90.0, 110.0]
)  # pixels, block to its space


LEADER_COST = 400  # a block outside its space, on a leader line, only when no spot inside is free


def cell_width(labels: list[str]) -> float:
    """The pitch of a block's columns: a glyph and its widest count, a pixel apart."""
    return 2 * GLYPH + 1 + DIGIT * max((len(s) for s in labels), default=0)


class BoardGeometry:
    """The board's spaces in screen pixels at one drawing height, built once per view: each Province's shape
    (rasterised, :class:`~wargames.notebook.inside.ShapeMask`), each City's circle, each LoC's anchor on its
    line, the names' boxes and the City circles (obstacles for every block)."""

    def __init__(self, layers: dict[str, Any], height: int) -> None:
        from .inside import ShapeMask, point_in_rings, rings_px

        ex = layers["extent"]
        self.extent = ex
        self.sc = sc = height / (ex["y"][1] - ex["y"][0])
        self.frame = (0.0, 0.0, float(int((ex["x"][1] - ex["x"][0]) * sc)), float(height))
        places = _places(layers)
        self.kind = {pid: p["kind"] for pid, p in places.items()}
        self.anchor = {pid: self.px(p["x"], p["y"]) for pid, p in places.items()}
        self.rings: dict[str, list] = {}
        self.masks: dict[str, ShapeMask] = {}
        for pid, p in places.items():
            if p["kind"] == "province" and p["shape"] == "polygon":
                self.rings[pid] = rings_px(p["xs"], p["ys"], self.px)
                self.masks[pid] = ShapeMask(self.rings[pid])
                if not point_in_rings(*self.anchor[pid], self.rings[pid]):  # a leader must start inside
                    corners = self.masks[pid].fits(2, 2)
                    ax, ay = self.anchor[pid]
                    k = int(np.argmin(np.hypot(corners[:, 0] - ax, corners[:, 1] - ay)))
                    self.anchor[pid] = (float(corners[k, 0] + 1), float(corners[k, 1] + 1))
        self.circles = [
            (ax - 12, ay - 12, ax + 12, ay + 12)
            for pid, (ax, ay) in self.anchor.items()
            if self.kind[pid] == "city"
        ]
        self._leader: dict[tuple[str, float, float], tuple[np.ndarray, np.ndarray]] = {}
        self.last: tuple | None = None  # the last layout (its input key, x, y, leaders and frames)
        self.names: list[tuple[float, ...]] = []
        self.name_of: dict[str, tuple[float, ...]] = {}

    def set_names(self, names_at: dict[str, tuple[float, ...]]) -> None:
        """The names' boxes (from :func:`_place_names`): obstacles for every block."""
        self.names = [tuple(v[2:]) for v in names_at.values()]
        self.name_of = {sid: tuple(v[2:]) for sid, v in names_at.items()}

    def px(self, x: float, y: float) -> tuple[float, float]:
        ex = self.extent
        return (x - ex["x"][0]) * self.sc, (ex["y"][1] - y) * self.sc

    def deg(self, x: float, y: float) -> tuple[float, float]:
        ex = self.extent
        return round(ex["x"][0] + x / self.sc, 4), round(ex["y"][1] - y / self.sc, 4)

    def inside_spots(self, sid: str, w: float, h: float, limit: int = 240) -> tuple[np.ndarray, np.ndarray]:
        """Boxes ``(k, 4)`` of size ``w`` x ``h`` inside the Province, nearest first to its spot under its name,
        and their distances (pixels)."""
        tl = self.masks[sid].fits(w, h)
        if not len(tl):
            return np.zeros((0, 4)), np.zeros(0)
        nb = self.name_of.get(sid)
        ax, ay = self.anchor[sid]
        want = ((nb[0] + nb[2]) / 2, nb[3] + 3 + h / 2) if nb else (ax, ay + 6 + h / 2)
        d = np.hypot(tl[:, 0] + w / 2 - want[0], tl[:, 1] + h / 2 - want[1])
        keep = np.argsort(d, kind="stable")[:limit]
        tl, d = tl[keep], d[keep]
        return np.column_stack([tl[:, 0], tl[:, 1], tl[:, 0] + w, tl[:, 1] + h]), d

    def leader_spots(self, sid: str, w: float, h: float) -> tuple[np.ndarray, np.ndarray]:
        """Boxes ``(k, 4)`` around the space's anchor at growing gaps (a City: clear of its circle), each meant
        to hang on a leader line from the anchor, and their costs (the gap in pixels, east first, then round; a
        Province's, plus a twentieth of the square pixels outside it)."""
        key = (sid, w, h)
        if key not in self._leader:
            ax, ay = self.anchor[sid]
            r0 = 13.0 if self.kind[sid] == "city" else 3.0  # clear of the City circle, of the leader's dot
            gap = np.repeat(LEADER_GAPS, 24)
            k = np.tile(np.arange(24), len(LEADER_GAPS))
            a = np.pi / 12 * k + np.pi / 24 * (
                np.searchsorted(LEADER_GAPS, gap) % 2
            )  # every other ring shifted
            ux, uy = np.cos(a), np.sin(a)
            with np.errstate(divide="ignore"):
                t = np.minimum(w / 2 / np.abs(ux), h / 2 / np.abs(uy))
            cx, cy = ax + (r0 + gap + t) * ux, ay + (r0 + gap + t) * uy
            boxes = np.column_stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2])
            cost = gap + 0.03 * k
            if self.names:  # a leader crossing a name reads as that name's
                cost = cost + 60 * _crosses((ax, ay), boxes, self.names)
            if sid in self.masks:  # a Province's block hugs its Province rather than stand over a neighbour
                cost = cost + 0.05 * self.masks[sid].outside_area(boxes)
            self._leader[key] = (boxes, cost)
        return self._leader[key]


def _crosses(anchor: tuple[float, float], boxes: np.ndarray, others: list) -> np.ndarray:
    """For each box (rows), whether the leader from ``anchor`` to the box's nearest point passes through one of
    ``others`` (boxes), sampled every few pixels along it."""
    if not len(others) or not len(boxes):
        return np.zeros(len(boxes), dtype=bool)
    ax, ay = anchor
    ex = np.clip(ax, boxes[:, 0], boxes[:, 2])
    ey = np.clip(ay, boxes[:, 1], boxes[:, 3])
    f = np.linspace(0.0, 1.0, 24)[None, :]
    sx, sy = ax + (ex[:, None] - ax) * f, ay + (ey[:, None] - ay) * f
    ob = np.asarray(others, dtype=float)[:, None, None, :]
    return ((sx > ob[..., 0]) & (sx < ob[..., 2]) & (sy > ob[..., 1]) & (sy < ob[..., 3])).any(axis=(0, 2))


def _layout_pieces(
    pieces: dict[str, list], geo: BoardGeometry, extra: list[tuple[float, float, float, float]] = ()
) -> dict[str, list]:
    """Move each space's pieces (a block of glyphs, three a row or as the space's shape allows) to a free spot
    INSIDE its Province, as near as may be under its name; a City's, a LoC's, or a Province's with no free spot
    inside, to a spot nearby, joined to the space by a leader line.  No block covers a name, a City circle, a
    marker (``extra``) or another block, and none leaves the frame (greedy in screen pixels with a repair
    pass, :func:`wargames.notebook.labels.place`; Provinces first, then Cities, then LoCs).  Writes the glyph
    positions back in map degrees and returns the leader lines and the frames drawn round leader blocks.
    Issue #19 item 6: Pleiku-Darlac's pieces stood over Northeast Cambodia."""
    from .labels import place

    rows_of: dict[str, list[int]] = {}
    for i, sid in enumerate(pieces["space"]):
        rows_of.setdefault(sid, []).append(i)
    rank = {"province": 0, "city": 1, "loc": 2}
    order = sorted(rows_of, key=lambda sid: (rank.get(geo.kind[sid], 3), -len(rows_of[sid])))
    cands, prefs, meta = [], [], []
    for sid in order:
        n = len(rows_of[sid])
        pitch = cell_width([pieces["label"][i] for i in rows_of[sid]])
        shapes = [min(n, COLUMNS)] + (
            [c for c in (2, 4, 1, 5) if c <= n] if n > COLUMNS else [1] if n > 1 else []
        )
        boxes, cost, info = [], [], []
        for extra_cost, cols in zip((0, 10, 16, 24, 30), shapes, strict=False):
            w, h = cols * pitch, -(-n // cols) * CELL_H
            if geo.kind[sid] == "province":
                b, d = geo.inside_spots(sid, w, h)
                boxes.append(b)
                cost.append(extra_cost + 0.6 * d)
                info += [(cols, pitch, False)] * len(b)
            b, g = geo.leader_spots(sid, w, h)
            boxes.append(b)
            cost.append((LEADER_COST if geo.kind[sid] == "province" else 0) + extra_cost + 2 * g)
            info += [(cols, pitch, True)] * len(b)
        cands.append(np.vstack(boxes))
        prefs.append(np.concatenate(cost))
        meta.append(info)
    hard = [*geo.names, *geo.circles, *extra]
    chosen = place(cands, hard, frame=geo.frame, prefs=prefs, repairs=6)
    # a leader that runs through another block reads as that block's: move the block on the leader's way, or the
    # leader's own block, to a free spot that crosses no leader, if there is one (names: priced in the spots)
    from .labels import _covered

    placed = [np.asarray(c[k]) for c, k in zip(cands, chosen, strict=True)]

    def led(j: int) -> bool:
        return bool(meta[j][chosen[j]][2])

    def samples(j: int) -> np.ndarray:  # points along block j's leader, if it has one
        if not led(j):
            return np.zeros((0, 2))
        ax, ay = geo.anchor[order[j]]
        b = placed[j]
        e = np.array([min(max(ax, b[0]), b[2]), min(max(ay, b[1]), b[3])])
        f = np.linspace(0.0, 1.0, 24)[:, None]
        return np.array([ax, ay]) + (e - np.array([ax, ay])) * f

    along = [
        samples(j) for j in range(len(placed))
    ]  # kept in step with ``placed`` (a block moved: its own redone)
    for _ in range(6):
        moved = False
        for i, (sid, c) in enumerate(zip(order, cands, strict=True)):
            others = [b for j, b in enumerate(placed) if j != i]
            pts = np.vstack([along[j] for j in range(len(placed)) if j != i])
            crossed = (
                bool(
                    (
                        (pts[:, 0] > placed[i][0])
                        & (pts[:, 0] < placed[i][2])
                        & (pts[:, 1] > placed[i][1])
                        & (pts[:, 1] < placed[i][3])
                    ).any()
                )
                if len(pts)
                else False
            )
            if not crossed and not (led(i) and _crosses(geo.anchor[sid], placed[i][None, :], others)[0]):
                continue
            ok = (
                (_covered(c, hard + others) == 0)
                & (c[:, 0] >= geo.frame[0])
                & (c[:, 1] >= geo.frame[1])
                & (c[:, 2] <= geo.frame[2])
                & (c[:, 3] <= geo.frame[3])
            )
            leader = np.array([inf[2] for inf in meta[i]])
            ok &= ~(leader & _crosses(geo.anchor[sid], c, others))
            if len(pts):
                ok &= ~(
                    (pts[None, :, 0] > c[:, None, 0])
                    & (pts[None, :, 0] < c[:, None, 2])
                    & (pts[None, :, 1] > c[:, None, 1])
                    & (pts[None, :, 1] < c[:, None, 3])
                ).any(axis=1)
            if ok.any():
                k = int(np.argmin(np.where(ok, prefs[i], np.inf)))
                moved |= k != chosen[i]
                chosen[i], placed[i] = k, c[k]
                along[i] = samples(i)
        if not moved:
            break
    leaders: dict[str, list] = {"space": [], "xs": [], "ys": [], "x": [], "y": []}
    frames: dict[str, list] = {"space": [], "x": [], "y": [], "w": [], "h": []}
    for sid, boxes, info, k in zip(order, cands, meta, chosen, strict=True):
        box = tuple(float(v) for v in boxes[k])
        cols, pitch, led = info[k]
        for j, i in enumerate(rows_of[sid]):
            cx = box[0] + (j % cols) * pitch + GLYPH
            cy = box[1] + (j // cols) * CELL_H + CELL_H / 2
            pieces["x"][i], pieces["y"][i] = geo.deg(cx, cy)
        if led:
            ax, ay = geo.anchor[sid]
            nx, ny = min(max(ax, box[0]), box[2]), min(max(ay, box[1]), box[3])
            (x0, y0), (x1, y1) = geo.deg(ax, ay), geo.deg(nx, ny)
            leaders["space"].append(sid)
            leaders["xs"].append([x0, x1])
            leaders["ys"].append([y0, y1])
            leaders["x"].append(x0)
            leaders["y"].append(y0)
            (fx, fy) = geo.deg((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
            frames["space"].append(sid)
            frames["x"].append(fx)
            frames["y"].append(fy)
            frames["w"].append(round((box[2] - box[0] + 2) / geo.sc, 4))
            frames["h"].append(round((box[3] - box[1] + 2) / geo.sc, 4))
    return {"leaders": leaders, "frames": frames}
