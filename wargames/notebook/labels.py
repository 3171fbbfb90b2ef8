"""Label boxes in screen pixels: how big a text is drawn, where a name goes so it covers nothing, and which
boxes overlap (issue #19 item 6: no label may touch another label or a unit chip at the default size).

The maps estimate a text's box from its length and font size (Bokeh measures the text only in the browser);
the estimate is generous (bold glyphs are about 0.62 em wide on average in DejaVu Sans Bold, Chromium's sans).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in screen pixels


def text_size(
    text: str, font_px: float, *, bold: bool = True, pad_x: float = 0.0, pad_y: float = 0.0
) -> tuple[float, float]:
    """Estimated (width, height) of a one-line text with its padding (pixels)."""
    return len(text) * font_px * (0.64 if bold else 0.58) + 2 * pad_x, font_px * 1.2 + 2 * pad_y


def overlap(a: Box, b: Box) -> float:
    """The area two boxes share (0 if they only touch)."""
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def outside(box: Box, frame: Box) -> float:
    """How far (pixels, summed over the four sides) ``box`` sticks out of ``frame``."""
    return (
        max(0.0, frame[0] - box[0])
        + max(0.0, box[2] - frame[2])
        + max(0.0, frame[1] - box[1])
        + max(0.0, box[3] - frame[3])
    )


def overlapping(
    boxes: Sequence[Box], others: Sequence[Box] | None = None, *, min_area: float = 4.0
) -> list[tuple[int, int]]:
    """Pairs (i, j) of boxes sharing more than ``min_area`` square pixels: within ``boxes`` (i < j) when
    ``others`` is None, else between ``boxes[i]`` and ``others[j]``.  The boxes are estimates of a text's extent
    with its padding, so two that touch over a pixel or two (under 4 px^2) do not count."""
    pairs = []
    for i, a in enumerate(boxes):
        rest = enumerate(others) if others is not None else ((j, boxes[j]) for j in range(i + 1, len(boxes)))
        pairs += [(i, j) for j, b in rest if overlap(a, b) > min_area]
    return pairs


def place(
    candidates: Sequence[Sequence[Box]],
    hard: Iterable[Box],
    soft: Iterable[Box] | Grid = (),
    frame: Box | None = None,
    *,
    order: Sequence[int] | None = None,
    step_cost: float = 2.0,
    soft_weight: float = 1.0,
    prefs: Sequence[Sequence[float]] | None = None,
    repairs: int = 4,
    gap: float = 0.0,
) -> list[int]:
    """Greedy placement: for each label (in ``order``), the index of the candidate box that covers the least.

    ``candidates[i]``: label i's possible boxes, in order of preference (each step down costs ``step_cost``,
    or ``prefs[i][k]`` for box k when given); ``hard``: what a label must not cover (chips, markers; weight 50
    per square pixel); ``soft``: what it should rather not cover (hex numbers; ``soft_weight`` per square
    pixel); ``frame``: boxes sticking out cost 2000 per pixel.  The labels placed already are hard obstacles for
    the next ones; then, ``repairs`` times, each label still covering something hard is placed again among all
    the others (a name placed early may move aside for one placed later).  ``gap``: pixels kept between two
    labels (two names that touch read as one)."""
    import numpy as np

    base = Grid(hard)
    soft_grid = soft if isinstance(soft, Grid) else Grid(soft)  # a Grid: built once by the caller, read only
    arrays = [np.asarray(b, dtype=float) if len(b) else None for b in candidates]

    def costs(i: int, others: list[Box]):
        c = arrays[i]
        reach = (c[:, 0].min(), c[:, 1].min(), c[:, 2].max(), c[:, 3].max())
        pref = np.asarray(prefs[i], dtype=float) if prefs is not None else np.arange(len(c)) * step_cost
        clash = _covered(c, base.near(reach) + [o for o in others if overlap(reach, o) > 0])
        cost = pref + 50 * clash + soft_weight * _covered(c, soft_grid.near(reach))
        if frame is not None:
            cost += 2000 * (
                np.clip(frame[0] - c[:, 0], 0, None)
                + np.clip(c[:, 2] - frame[2], 0, None)
                + np.clip(frame[1] - c[:, 1], 0, None)
                + np.clip(c[:, 3] - frame[3], 0, None)
            )
        return cost, clash

    chosen = [0] * len(candidates)
    placed: dict[int, Box] = {}
    for i in order if order is not None else range(len(candidates)):
        if arrays[i] is None:
            continue
        cost, _ = costs(i, list(placed.values()))
        chosen[i] = int(np.argmin(cost))  # the first of equal costs: the preferred one
        placed[i] = _grown(candidates[i][chosen[i]], gap)
    for _ in range(repairs):
        moved = False
        for i in list(placed):
            box = placed[i]
            others = [b for j, b in placed.items() if j != i]
            if not any(overlap(box, o) > 0 for o in base.near(box)) and not any(
                overlap(box, o) > 0 for o in others
            ):
                continue  # clear: stays
            cost, clash = costs(i, others)
            if clash[chosen[i]] > 0:
                best = int(np.argmin(cost))
                if best != chosen[i]:
                    chosen[i], placed[i], moved = best, _grown(candidates[i][best], gap), True
        if not moved:
            break
    return chosen


def _grown(b: Box, by: float) -> Box:
    return (b[0] - by, b[1] - by, b[2] + by, b[3] + by)


def _covered(c, others: list[Box]):
    """For each candidate box (rows of ``c``), the area it shares with ``others`` in all."""
    import numpy as np

    if not others:
        return np.zeros(len(c))
    o = np.asarray(others, dtype=float)
    w = np.clip(np.minimum(c[:, None, 2], o[None, :, 2]) - np.maximum(c[:, None, 0], o[None, :, 0]), 0, None)
    h = np.clip(np.minimum(c[:, None, 3], o[None, :, 3]) - np.maximum(c[:, None, 1], o[None, :, 1]), 0, None)
    return (w * h).sum(axis=1)


class Grid:
    """Boxes bucketed by 64-pixel cells, to find quickly those that may overlap a given box."""

    CELL = 64

    def __init__(self, boxes: Iterable[Box]) -> None:
        self.cells: dict[tuple[int, int], list[Box]] = {}
        for b in boxes:
            self.add(b)

    def _keys(self, b: Box):
        c = self.CELL
        for i in range(int(b[0] // c), int(b[2] // c) + 1):
            for j in range(int(b[1] // c), int(b[3] // c) + 1):
                yield i, j

    def add(self, b: Box) -> None:
        for k in self._keys(b):
            self.cells.setdefault(k, []).append(b)

    def near(self, b: Box) -> list[Box]:
        seen: dict[Box, None] = {}
        for k in self._keys(b):
            for o in self.cells.get(k, ()):
                if o[0] < b[2] and b[0] < o[2] and o[1] < b[3] and b[1] < o[3]:
                    seen[o] = None
        return list(seen)
