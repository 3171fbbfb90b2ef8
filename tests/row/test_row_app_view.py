"""The Rumor of War app's map beside the action list (issue #31 item 2): it follows each decision to the hexes it
concerns, its chips are larger than on the whole-window map, a clicked hex is outlined, hexes with a town are
named in prompts, and the scenario's notes are in words."""

from __future__ import annotations

import re

import wargames
from wargames.maps.hexgrid import hex_centre
from wargames.notebook.rowmap import FONTS, RowMapView
from wargames.notebook.widgets import BESIDE_VIEW, map_for
from wargames.row.hexmap import RADIUS_MI


def _in_view(view: RowMapView, hexes) -> bool:
    xr, yr = view.figure.x_range, view.figure.y_range
    for h in hexes:
        x, y = hex_centre(h, RADIUS_MI)
        if not (xr.start <= x <= xr.end and yr.start <= y <= yr.end):
            return False
    return True


def test_row_app_map_has_a_view_beside_the_list_with_larger_chips():
    g = wargames.load("row", seed=1)
    view = map_for(g, "Capitalist")
    assert isinstance(view, RowMapView) and view.view == BESIDE_VIEW
    assert view.figure.frame_width == BESIDE_VIEW[0] and view.figure.frame_height <= BESIDE_VIEW[1]
    assert view.fonts["chip"] >= 15 > FONTS["chip"], view.fonts


def test_row_app_map_follows_each_decision_to_its_hexes():
    g = wargames.load("row", seed=1)
    g.set_players({"Capitalist": None})
    view = map_for(g, "Capitalist")
    seen = 0
    for _ in range(40):
        g.advance("end")
        if g.is_over:
            break
        view.update()
        hexes = view.dynamic["options"]["hex"]
        if hexes:
            xr = view.figure.x_range
            span = xr.end - xr.start
            if span < view.bounds[1] - view.bounds[0] - 1e-6:  # zoomed in: every hex of the decision in sight
                assert _in_view(view, hexes), (g.decision.prompt, hexes)
                seen += 1
        g.apply(g.default_player("Capitalist").choose(g, g.decision))
    assert seen >= 3


def test_row_app_map_marks_the_clicked_hex():
    g = wargames.load("row", seed=1)
    view = map_for(g, "Capitalist")
    view.pick("3854")
    assert view.sources_hl["hl_areas"].data["id"] == ["3854"]
    assert view._place_shape("0101") is None  # outside the window: nothing to outline


def test_row_hexes_with_a_town_are_named_in_prompts():
    g = wargames.load("row", seed=1)
    assert g.display_text("Advance into 3854?") == "Advance into Quang Ngai (3854)?"
    assert g.display_text("stays at Quang Ngai (3854)") == "stays at Quang Ngai (3854)"
    assert g.display_text("Summer 1965") == "Summer 1965"


def test_row_scenario_notes_are_in_words_with_the_ids_behind_details():
    g = wargames.load("row", seed=1)
    g.set_players({"Capitalist": None})
    g.advance("end")  # to the Capitalist's first decision: the air steps of the strategic phase are behind
    notes = [r for r in g.log if "not in this scenario" in r.title]
    assert notes
    for r in notes:
        assert not re.search(r"R-SCN|_not_in_play|air_support", r.explanation), r.explanation
    assert any(r.inputs.get("decision") == "R-SCN-08" for r in notes)
