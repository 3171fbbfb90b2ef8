"""The Year of the Rat map view at projector size (issue #19 items 3 and 6) and its map contract (issue #14 item 2)."""

from __future__ import annotations

import pytest

import wargames

pytest.importorskip("bokeh")
pytest.importorskip("jupyter_bokeh")

from wargames.notebook import YotrMapView, map_for  # noqa: E402


@pytest.fixture(scope="module")
def yotr():
    return wargames.load("yotr", seed=1)


def test_yotr_layers_hide_face_down_counters_from_the_allies(yotr):
    """YOTR-MOV-M: a face-down Communist counter is a piece of unknown faction with no facts for the Allies."""
    from wargames.maps.layers import check_layers

    allied = check_layers(yotr.map_layers("Allied"))
    hidden = [i for i, f in enumerate(allied["pieces"]["faction"]) if f is None]
    assert hidden and all(allied["pieces"]["facts"][i] == [] and allied["pieces"]["hidden"][i] for i in hidden)
    umpire = yotr.map_layers(None)
    assert None not in umpire["pieces"]["faction"]
    assert sum(allied["pieces"]["count"]) == sum(umpire["pieces"]["count"])


def test_yotr_view_names_every_region_and_major_place_on_the_theatre_map_and_numbers_hexes(yotr):
    """Issue #19 item 6: the victory Regions (YOTR-VIC-REGION) are named with their VP on the theatre map, the
    major places are named, names do not overlap and stay inside the frame; item 3: the close-ups show the hex
    numbers (moves name hexes), and no name is drawn for a town outside a close-up's frame."""
    view = map_for(yotr, "Allied")
    assert isinstance(view, YotrMapView)
    rn = view.sources["region_names"].data
    assert all(rn["text_m"]) and len(rn["text_m"]) == len(yotr.data.regions)
    assert all("VP" in t for t in rn["text_m"])
    pl = view.sources["places"].data
    named = [n for n in pl["name_m"] if n]
    assert {"Saigon", "Hue", "Danang", "Kontum", "Pleiku"} <= set(named)
    numbers = view.sources["numbers"].data
    land = [h for h, hx in yotr.data.hexes.items() if hx.terrain != "sea"]
    assert set(land) <= set(numbers["hex"])
    for tag, fig in zip(("i0", "i1", "i2"), view.insets, strict=True):
        xr, yr = (fig.x_range.start, fig.x_range.end), (fig.y_range.start, fig.y_range.end)
        for x, y, name in zip(pl["x"], pl["y"], pl[f"name_{tag}"], strict=True):
            if name:
                assert xr[0] <= x <= xr[1] and yr[0] <= y <= yr[1], (tag, name)


def test_yotr_view_click_twice_and_hex_number_click(yotr):
    """Issue #19 item 3: the same hex clicked twice is reported twice; a click on a hex number picks that hex."""
    view = YotrMapView(yotr, "Allied", insets=True)
    picked = []
    view.on_pick(picked.append)
    hexes = view.sources["hexes"]
    i = hexes.data["hex"].index("4413")
    hexes.selected.indices = [i]
    hexes.selected.indices = [i]
    nums = view.sources["numbers"]
    nums.selected.indices = [nums.data["hex"].index("3909")]
    assert picked == ["4413", "4413", "3909"] and view.highlighted == ["3909"]
    assert all(f.toolbar.active_scroll is None for f in [view.figure, *view.insets])
