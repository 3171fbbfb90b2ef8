"""Boxes inside shapes, in screen pixels: where a block of pieces fits inside its space (issue #19 item 6: on the
Fire in the Lake board a crowded space's pieces stood over a neighbouring space).

A shape is a list of rings (``(n, 2)`` arrays of pixel corners, y down); a point is inside by the even-odd rule,
so holes and several parts need nothing special.  :class:`ShapeMask` rasterises a shape once (a cell every
``CELL`` pixels) and answers, for a box size, every top-left corner where the box fits with a margin, with a
summed-area table; :func:`box_in_rings` is the exact check (the tests use it).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in screen pixels (y down)


def rings_px(xs: Sequence, ys: Sequence, px) -> list[np.ndarray]:
    """The rings of one multi-polygon (Bokeh ``multi_polygons`` nesting: parts, rings, points) in pixels."""
    out = []
    for part_x, part_y in zip(xs, ys, strict=True):
        for rx, ry in zip(part_x, part_y, strict=True):
            out.append(np.array([px(x, y) for x, y in zip(rx, ry, strict=True)], dtype=float))
    return out


def _crossings(px_: np.ndarray, py_: np.ndarray, rings: Sequence[np.ndarray]) -> np.ndarray:
    """Even-odd parity of points (arrays) against the rings: True where inside."""
    inside = np.zeros(np.broadcast(px_, py_).shape, dtype=bool)
    for r in rings:
        a, b = r, np.roll(r, -1, axis=0)
        for (x1, y1), (x2, y2) in zip(a, b, strict=True):
            if y1 == y2:
                continue
            spans = (py_ >= min(y1, y2)) & (py_ < max(y1, y2))
            xc = x1 + (py_ - y1) * (x2 - x1) / (y2 - y1)
            inside ^= spans & (px_ < xc)
    return inside


def point_in_rings(x: float, y: float, rings: Sequence[np.ndarray]) -> bool:
    return bool(_crossings(np.asarray(x, dtype=float), np.asarray(y, dtype=float), rings))


def segment_enters(box: Box, p: np.ndarray, q: np.ndarray) -> bool:
    """Whether segment p-q passes through the open box (Liang-Barsky clipping)."""
    t0, t1 = 0.0, 1.0
    d = q - p
    for pk, qk in (
        (-d[0], p[0] - box[0]),
        (d[0], box[2] - p[0]),
        (-d[1], p[1] - box[1]),
        (d[1], box[3] - p[1]),
    ):
        if pk == 0:
            if qk <= 0:
                return False
            continue
        t = qk / pk
        if pk < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 >= t1:
            return False
    return True


def box_in_rings(box: Box, rings: Sequence[np.ndarray]) -> bool:
    """Exactly: the box's four corners are inside the shape and no edge of the shape passes through the box."""
    corners = [(box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3])]
    if not all(point_in_rings(x, y, rings) for x, y in corners):
        return False
    for r in rings:
        for p, q in zip(r, np.roll(r, -1, axis=0), strict=True):
            if segment_enters(box, p, q):
                return False
    return True


class ShapeMask:
    """A shape rasterised at ``CELL`` pixels: where boxes of a given size fit inside it, ``MARGIN`` pixels clear
    of its edge."""

    CELL = 2.0
    MARGIN = 1.0

    def __init__(self, rings: Sequence[np.ndarray]) -> None:
        allp = np.vstack(rings)
        c = self.CELL
        self.x0, self.y0 = np.floor(allp.min(axis=0)) - c
        nx = int(np.ceil((allp[:, 0].max() - self.x0) / c)) + 2
        ny = int(np.ceil((allp[:, 1].max() - self.y0) / c)) + 2
        gx = self.x0 + (np.arange(nx) + 0.5) * c
        gy = self.y0 + (np.arange(ny) + 0.5) * c
        mask = _crossings(gx[None, :], gy[:, None], rings)
        self.sat = np.zeros((ny + 1, nx + 1), dtype=np.int32)
        self.sat[1:, 1:] = mask.cumsum(axis=0).cumsum(axis=1)
        self.shape = (ny, nx)
        self.area = float(mask.sum()) * c * c
        self._fits: dict[tuple[float, float, int], np.ndarray] = {}

    def outside_area(self, boxes: np.ndarray) -> np.ndarray:
        """For each box (rows ``x0, y0, x1, y1``), about how many square pixels of it lie outside the shape."""
        c = self.CELL
        ny, nx = self.shape
        b = np.asarray(boxes, dtype=float)
        c0 = np.clip(np.round((b[:, 0] - self.x0) / c).astype(int), 0, nx)
        c1 = np.clip(np.round((b[:, 2] - self.x0) / c).astype(int), 0, nx)
        r0 = np.clip(np.round((b[:, 1] - self.y0) / c).astype(int), 0, ny)
        r1 = np.clip(np.round((b[:, 3] - self.y0) / c).astype(int), 0, ny)
        s = self.sat
        inside = (s[r1, c1] - s[r0, c1] - s[r1, c0] + s[r0, c0]) * c * c
        return np.clip((b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1]) - inside, 0, None)

    def fits(self, w: float, h: float, step: int = 2) -> np.ndarray:
        """Top-left corners ``(k, 2)`` (pixels) of every ``w`` x ``h`` box that lies inside, on a lattice of
        ``step`` cells (cached per size)."""
        key = (w, h, step)
        if key not in self._fits:
            c, m = self.CELL, self.MARGIN
            cw, ch = (
                int(np.ceil((w + 2 * m) / c)) + 1,
                int(np.ceil((h + 2 * m) / c)) + 1,
            )  # cells the box touches
            ny, nx = self.shape
            if cw > nx or ch > ny:
                self._fits[key] = np.zeros((0, 2))
            else:
                r0 = np.arange(0, ny - ch + 1, step)
                c0 = np.arange(0, nx - cw + 1, step)
                s = self.sat
                full = (
                    s[r0[:, None] + ch, c0[None, :] + cw]
                    - s[r0[:, None], c0[None, :] + cw]
                    - s[r0[:, None] + ch, c0[None, :]]
                    + s[r0[:, None], c0[None, :]]
                ) == cw * ch
                rr, cc = np.nonzero(full)
                self._fits[key] = np.column_stack(
                    [self.x0 + c0[cc] * c + m + c / 2, self.y0 + r0[rr] * c + m + c / 2]
                )
        return self._fits[key]
