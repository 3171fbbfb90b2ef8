"""The Fire in the Lake board drawn in Bokeh: every piece shown, Underground hollow, updates patch, clicks pick."""

from __future__ import annotations

import pytest

pytest.importorskip("bokeh")
pytest.importorskip("jupyter_bokeh")

from wargames.fitl.data import load_scenario  # noqa: E402
from wargames.fitl.mapdata import dynamic_layers, static_layers  # noqa: E402
from wargames.fitl.state import Board  # noqa: E402
from wargames.notebook import FitlBoardView  # noqa: E402


@pytest.fixture
def board():
    return Board(load_scenario("medium"))


def test_fitl_board_draws_every_piece_on_the_map(board):
    dyn = dynamic_layers(board)
    drawn = {}
    for space, key, n in zip(dyn["pieces"]["space"], dyn["pieces"]["key"], dyn["pieces"]["count"], strict=True):
        drawn[(space, key)] = n
    on_map = {(s, k): n for s, c in board.pieces.items() for k, n in c.items() if n}
    assert drawn == on_map
    assert sum(drawn.values()) == 229 - sum(board.available.values()) - sum(board.out_of_play.values())


def test_fitl_board_underground_pieces_are_hollow_and_tunnels_marked(board):
    dyn = dynamic_layers(board)
    for key, alpha, label in zip(dyn["pieces"]["key"], dyn["pieces"]["alpha"], dyn["pieces"]["label"], strict=True):
        assert (alpha < 1) == key.endswith(":u")
        assert label.startswith("T") == key.endswith(":t")


def test_fitl_board_static_layers_hold_all_47_spaces():
    s = static_layers()
    assert len(s["provinces"]["id"]) == 22 and len(set(s["locs"]["id"])) == 17
    assert len(s["names"]["id"]) == 30  # 22 Provinces + 8 Cities are named on the board
    assert s["countries"]["id"] and s["borders"]["xs"]


def test_fitl_board_view_updates_by_patching_and_reports_clicks(board):
    view = FitlBoardView(board)
    fig = view.figure
    picked = []
    view.on_pick(picked.append)
    board.place("hue", "vc_guerrillas", 2)
    board.support["hue"] = -2
    dyn = view.update()
    assert view.figure is fig
    assert ("hue", "vc_guerrillas:u") in zip(view.sources["pieces"].data["space"], view.sources["pieces"].data["key"],
                                              strict=True)
    assert "Active Opposition" in dyn["cities"]["tip"][dyn["cities"]["id"].index("hue")]
    assert "VC Resources" in view.panel.text
    i = view.sources["pieces"].data["space"].index("hue")
    view.sources["pieces"].selected.indices = [i]
    assert picked == ["hue"]
