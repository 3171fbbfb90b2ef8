"""The Rumor of War map as drawn (issue #15 deliverable 1): every land and sea hex of the window drawn,
roads, the Trail and rivers as lines, places named without overlapping, the DMZ marked."""

from __future__ import annotations

import pytest

from wargames.notebook.rowmap import CLASSROOM, _place_labels, row_map_figure, row_map_layers
from wargames.row.hexmap import load_map


def test_row_map_layers_cover_the_classroom_window():
    layers = row_map_layers(CLASSROOM)
    (c0, c1), (r0, r1) = CLASSROOM
    assert len(layers["hexes"]["hex"]) == (c1 - c0 + 1) * (r1 - r0 + 1)
    assert layers["road"]["xs"] and layers["trail"]["xs"] and layers["river"]["xs"] and layers["border"]["xs"]
    names = " ".join(layers["places"]["name"])
    for place in ("Hue", "Da Nang", "Quang Tri", "Khe Sanh", "Chu Lai", "Vinh"):
        assert place in names
    assert layers["hexes"]["hatch"].count("/") == sum(1 for h in load_map().hexes.values() if h.area == "DMZ")


def test_row_map_whole_theatre_has_every_hex():
    assert len(row_map_layers()["hexes"]["hex"]) == len(load_map().hexes)


@pytest.mark.parametrize("font", [9, 11])
def test_row_map_place_names_do_not_overlap(font):
    layers = row_map_layers(CLASSROOM)
    places = layers["places"]
    scale = 1100 / (max(v for xs in layers["hexes"]["xs"] for v in xs) - min(v for xs in layers["hexes"]["xs"] for v in xs))
    off = _place_labels(places, scale, font)
    boxes = []
    for x, y, name, dx, dy in zip(places["x"], places["y"], places["name"], off["dx"], off["dy"], strict=True):
        w, h = 0.62 * font * len(name) + 6, font + 4
        boxes.append((x * scale + dx, y * scale + dy, x * scale + dx + w, y * scale + dy + h))
    clashes = [(i, j) for i in range(len(boxes)) for j in range(i) if boxes[i][0] < boxes[j][2]
               and boxes[j][0] < boxes[i][2] and boxes[i][1] < boxes[j][3] and boxes[j][1] < boxes[i][3]]
    assert not clashes, [(places["name"][i], places["name"][j]) for i, j in clashes]


def test_row_map_figure_builds_for_the_window_and_the_theatre():
    fig = row_map_figure(CLASSROOM, width=900)
    assert fig.select_one({"name": "hexes"}) is not None and fig.width == 900
    assert row_map_figure(width=600).height > 600  # the theatre is taller than wide
