"""Where things go on the Tet Offensive 1968 map (issue #14): the views (the whole theatre and its insets, each
with its extent and frame) and the placement of labels and counter blocks so that no two overlap each other or a
place's name.  The layers are built in :mod:`wargames.notebook.tetmap`."""

from __future__ import annotations

from typing import Any

import numpy as np

# The views a MapView draws: the whole theatre, and two close-ups a class needs to read (lon/lat ranges,
# frame size in pixels).  Chit positions are optimised for these scales; "short" chits show counts only.
VIEWS = (
    {
        "id": "main",
        "title": "Tet Offensive 1968: the theatre (lon/lat degrees)",
        "x": (104.0, 110.0),
        "y": (8.35, 17.65),
        "height": 720,
        "short": True,
        "font": 9,
    },
    {
        "id": "hue",
        "title": "Close-up, I Corps: the DMZ, Khe Sanh, Hue and Da Nang",
        "x": (106.35, 108.55),
        "y": (15.75, 17.25),
        "width": 440,
        "short": False,
        "font": 10,
    },
    {
        "id": "saigon",
        "title": "Close-up, III/IV Corps: Saigon and the Mekong delta",
        "x": (105.6, 107.4),
        "y": (9.92, 11.47),
        "width": 440,
        "short": False,
        "font": 10,
    },
)


EXTENT = {"x": VIEWS[0]["x"], "y": VIEWS[0]["y"]}


def view_frame(view: dict[str, Any]) -> tuple[int, int, float]:
    """(frame width, frame height, pixels per degree) of a view: equal scale on both axes."""
    dx = view["x"][1] - view["x"][0]
    dy = view["y"][1] - view["y"][0]
    if "height" in view:
        scale = view["height"] / dy
    else:
        scale = view["width"] / dx
    return int(round(dx * scale)), int(round(dy * scale)), scale


# ---------------------------------------------------------------------------------------------- chit placement
Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in screen pixels (y down)


def _text_box(text: str, font: float) -> tuple[float, float]:
    """Estimated (width, height) in pixels of a bold chit label with its padding."""
    return len(text) * font * 0.66 + 8, font + 5


def _block(widths: list[float], pitch: float) -> tuple[list[tuple[float, float]], float, float]:
    """Arrange chits (their widths) as one column, or two columns from four chits on.

    Returns each chit's (left, centre y) inside the block, and the block's width and height.
    """
    n = len(widths)
    cols = 1 if n <= 3 else 2
    rows = -(-n // cols)
    col_w = [max(widths[c * rows : (c + 1) * rows], default=0) for c in range(cols)]
    pos = []
    for k in range(n):
        c, r = divmod(k, rows)
        pos.append((sum(col_w[:c]) + 2 * c, (r + 0.5) * pitch))
    return pos, sum(col_w) + 2 * (cols - 1), rows * pitch


def _candidates(kind: str, r: float, w: float, h: float) -> list[tuple[float, float]]:
    """Top-left corners of a block around an anchor at (0, 0), in order of preference."""
    right, left = (r, -h / 2), (-r - w, -h / 2)
    below, above = (-w / 2, r), (-w / 2, -r - h)
    d = r * 0.75
    diag = [(d, d), (d, -d - h), (-d - w, d), (-d - w, -d - h)]
    near = [right, left] + diag + [below, above] if kind == "city" else [below, above, right, left] + diag
    far = [(x * 1.8 if x > 0 else x - r * 0.8, y * 1.8 if y > 0 else y - r * 0.8) for x, y in near]
    farther = [(x * 2.8 if x > 0 else x - r * 1.8, y * 2.8 if y > 0 else y - r * 1.8) for x, y in near]
    shifted = [(x, y + dy) for x, y in near + far for dy in (-h, h)]  # half a row up or down: crowded corners
    return near + far + farther + shifted


NAME_SPOTS = (  # (text anchor, dx, dy) as multiples of the circle radius r (+ pixels), in order of preference
    ("bottom_center", 0, -1),
    ("center_left", 1, 0),
    ("center_right", -1, 0),
    ("top_center", 0, 1),
    ("bottom_left", 0.6, -0.6),
    ("bottom_right", -0.6, -0.6),
    ("top_left", 0.6, 0.6),
    ("top_right", -0.6, 0.6),
)
NAME_SPOTS += tuple((a, 2 * fx, 2 * fy) for a, fx, fy in NAME_SPOTS)  # crowded: a circle's width further off


def _anchored_box(anchor: str, x: float, y: float, w: float, h: float) -> Box:
    """The box of a w x h text drawn at (x, y) with a Bokeh text anchor."""
    vert, _, horiz = anchor.partition("_")
    if anchor == "center":
        vert, horiz = "center", "center"
    x0 = x - w / 2 if horiz == "center" else (x if horiz == "left" else x - w)
    y0 = y - h / 2 if vert == "center" else (y if vert == "top" else y - h)
    return (x0, y0, x0 + w, y0 + h)


def _static_obstacles(view: dict[str, Any], static: dict[str, Any]) -> list[Box]:
    """City circles, city names (placed here, greedily, per view), area and Corps labels, in view pixels.

    Writes the chosen name offsets into the cities layer as ``name_dx_<view>``, ``name_dy_<view>``,
    ``name_anchor_<view>``.
    """
    fw, fh, scale = view_frame(view)
    x0, y1 = view["x"][0], view["y"][1]
    short = bool(view.get("short"))
    font = 9 if short else 11
    cities = static["cities"]
    n = len(cities["id"])
    pts = [((cities["x"][i] - x0) * scale, (y1 - cities["y"][i]) * scale) for i in range(n)]
    circles = [
        (x - s / 2, y - s / 2, x + s / 2, y + s / 2) for (x, y), s in zip(pts, cities["size"], strict=True)
    ]
    soft: list[Box] = []
    lfont = 10 if short else 12
    for layer in ("provinces", "sanctuaries"):
        st = static[layer]
        inside = []
        for i in range(len(st["id"])):
            lx, ly = (st["lx"][i] - x0) * scale, (y1 - st["ly"][i]) * scale
            half_w = len(str(st["label"][i])) * lfont * 0.34 + 2
            box = (lx - half_w - 2, ly - lfont / 2 - 3, lx + half_w + 2, ly + lfont / 2 + 3)
            soft.append(box)
            inside.append("y" if box[0] >= 0 and box[1] >= 0 and box[2] <= fw and box[3] <= fh else "n")
        st[f"in_{view['id']}"] = inside  # a label cut by the frame is not drawn in this view
    if short:
        cl = static["corps_labels"]
        for x, y, text, anchor in zip(cl["x"], cl["y"], cl["text"], cl["anchor"], strict=True):
            w = len(text) * 13 * 0.7
            soft.append(_anchored_box(anchor, (x - x0) * scale, (y1 - y) * scale, w, 16))
    names: list[Box] = []
    dxs, dys, anchors = [0.0] * n, [0.0] * n, ["bottom_center"] * n
    shown = ["n"] * n
    order = sorted(range(n), key=lambda i: (-(cities["pv"][i] or 0), cities["id"][i]))
    for i in order:
        text = cities["label_main"][i] if short else cities["label"][i]
        r = cities["size"][i] / 2 + 1
        x, y = pts[i]
        best = None
        for k, (anchor, fx, fy) in enumerate(NAME_SPOTS):
            dx, dy = fx * r + (1 if fx > 0 else -1 if fx < 0 else 0), fy * r
            box = _anchored_box(anchor, x + dx, y + dy, len(text) * font * 0.6 + 4, font + 3)
            score = (
                3 * k
                + 10 * sum(_area(box, o) for o in circles + names)
                + 0.6 * sum(_area(box, o) for o in soft)
            )
            score += (
                (max(0, -box[0]) + max(0, box[2] - fw) + max(0, -box[1]) + max(0, box[3] - fh))
                * (font + 3)
                * 4
            )
            if best is None or score < best[0]:
                best = (score, dx, dy, anchor, box)
        _, dxs[i], dys[i], anchors[i], box = best
        if text:
            names.append(box)
        whole = box[0] >= 0 and box[1] >= 0 and box[2] <= fw and box[3] <= fh
        shown[i] = "y" if text and whole else "n"
    cities[f"name_dx_{view['id']}"] = [round(v, 1) for v in dxs]
    cities[f"name_dy_{view['id']}"] = [round(v, 1) for v in dys]
    cities[f"name_anchor_{view['id']}"] = anchors
    cities[f"in_{view['id']}"] = shown  # a name cut by the frame is not drawn in this view
    if short:  # theatre map: an area label under a city or its name is left out (the close-ups show it)
        k = 0
        for layer in ("provinces", "sanctuaries"):
            st = static[layer]
            flags = st[f"in_{view['id']}"]
            for i in range(len(st["id"])):
                if flags[i] == "y" and any(_area(soft[k], o) > 4 for o in circles + names):
                    flags[i] = "n"
                k += 1
    margin = 80

    def near(boxes: list[Box]) -> list[Box]:
        return [
            b
            for b in boxes
            if b[2] > -margin and b[0] < fw + margin and b[3] > -margin and b[1] < fh + margin
        ]

    hard = near(circles + names)  # a chit must not cover these (issue #19: "5?" lay on "Saigon")
    static.setdefault("hard_obstacles", {})[view["id"]] = len(hard)
    return hard + near(soft)


def _area(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _place(
    view: dict[str, Any],
    static: dict[str, Any],
    blocks: dict[str, list[str]],
    kinds: dict[str, str],
    order: list[str],
) -> tuple[dict[str, list[tuple[float, float]]], dict[str, tuple[float, ...]]]:
    """Greedy placement of each area's chit block in one view: pixel offsets (dx, dy) per chit.

    Also returns each block's rectangle relative to its anchor (x0, y0, x1, y1, anchor radius).

    Obstacles are the city circles, city names and area labels; each block goes to the first candidate
    spot (right of a city, below a province label, ...) that overlaps least with what is already placed.
    """
    _, _, scale = view_frame(view)
    x0, y1 = view["x"][0], view["y"][1]
    fw, fh, _ = view_frame(view)
    font = view["font"]
    pitch = font + 6

    def px(lon: float, lat: float) -> tuple[float, float]:
        return (lon - x0) * scale, (y1 - lat) * scale

    placed = static["obstacles"][view["id"]]
    cities = static["cities"]
    boxes = {bid: i for i, bid in enumerate(static["boxes"]["id"])}
    city_size = dict(zip(cities["id"], cities["size"], strict=True))
    anchors = static["anchors"]
    margin = 80
    obstacles = np.array(placed or [(0.0, 0.0, 0.0, 0.0)], dtype=float)
    extra: list[Box] = []
    out: dict[str, list[tuple[float, float]]] = {}
    rects: dict[str, tuple[float, ...]] = {}
    for area in order:
        texts = blocks[area]
        widths = [_text_box(t, font)[0] for t in texts]
        pos, w, h = _block(widths, pitch)
        ax, ay = px(*anchors[area])
        kind = kinds[area]
        r = city_size[area] / 2 + 3 if kind == "city" else 13  # an area label is about 12 px high
        if kind == "box":
            bi = boxes[area]
            bx = (static["boxes"]["x"][bi] - static["boxes"]["w"][bi] / 2 - x0) * scale + 4
            by = (y1 - static["boxes"]["y"][bi] - static["boxes"]["h"][bi] / 2) * scale + font + 6
            corner = (bx - ax, by - ay)
        elif not (-margin < ax < fw + margin and -margin < ay < fh + margin):
            corner = _candidates(kind, r, w, h)[0]  # off this view: any spot will do
        else:
            cand = np.array(_candidates(kind, r, w, h), dtype=float)
            c = np.column_stack([ax + cand[:, 0], ay + cand[:, 1], ax + cand[:, 0] + w, ay + cand[:, 1] + h])
            obs = np.vstack([obstacles, np.array(extra, dtype=float)]) if extra else obstacles
            ow = np.minimum(c[:, None, 2], obs[None, :, 2]) - np.maximum(c[:, None, 0], obs[None, :, 0])
            oh = np.minimum(c[:, None, 3], obs[None, :, 3]) - np.maximum(c[:, None, 1], obs[None, :, 1])
            hit = np.clip(ow, 0, None) * np.clip(oh, 0, None)
            # a chit on another chit, a city or a city's name hides it: ten times worse than on an area label
            weight = np.ones(obs.shape[0])
            weight[: static.get("hard_obstacles", {}).get(view["id"], 0)] = 10.0
            weight[len(obstacles) :] = 20.0
            score = (hit * weight[None, :]).sum(axis=1) + 0.5 * np.arange(len(c))
            off = (
                np.clip(-c[:, 0], 0, None)
                + np.clip(c[:, 2] - fw, 0, None)
                + np.clip(-c[:, 1], 0, None)
                + np.clip(c[:, 3] - fh, 0, None)
            )
            score += off * h * 2
            corner = tuple(cand[int(np.argmin(score))])
        extra.append((ax + corner[0], ay + corner[1], ax + corner[0] + w, ay + corner[1] + h))
        out[area] = [(float(corner[0] + lx), float(corner[1] + cy)) for lx, cy in pos]
        rects[area] = (float(corner[0]), float(corner[1]), float(corner[0] + w), float(corner[1] + h), r)
    return out, rects
