"""The Fire in the Lake board drawn in Bokeh: every piece shown, Underground hollow, updates patch, clicks pick."""

from __future__ import annotations

import pytest

pytest.importorskip("bokeh")
pytest.importorskip("jupyter_bokeh")

from wargames.fitl.data import load_scenario  # noqa: E402
from wargames.fitl.mapdata import map_layers  # noqa: E402
from wargames.fitl.state import Board  # noqa: E402
from wargames.notebook import FitlBoardView  # noqa: E402
from wargames.notebook.fitlboard import _styled, dynamic_layers, static_layers  # noqa: E402


@pytest.fixture
def board():
    return Board(load_scenario("medium"))


def test_fitl_board_draws_every_piece_on_the_map(board):
    dyn = dynamic_layers(map_layers(board))
    drawn = {}
    for space, key, n in zip(
        dyn["pieces"]["space"], dyn["pieces"]["key"], dyn["pieces"]["count"], strict=True
    ):
        drawn[(space, key)] = n
    on_map = {(s, k): n for s, c in board.pieces.items() for k, n in c.items() if n}
    assert drawn == on_map
    assert sum(drawn.values()) == 229 - sum(board.available.values()) - sum(board.out_of_play.values())


def test_fitl_board_underground_pieces_are_hollow_and_tunnels_marked(board):
    dyn = _styled(dynamic_layers(map_layers(board)))
    for key, alpha, label in zip(
        dyn["pieces"]["key"], dyn["pieces"]["alpha"], dyn["pieces"]["label"], strict=True
    ):
        assert (alpha < 1) == key.endswith(":u")
        assert label.startswith("T") == key.endswith(":t")


def test_fitl_board_static_layers_hold_all_47_spaces(board):
    s = static_layers(map_layers(board))
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
    assert ("hue", "vc_guerrillas:u") in zip(
        view.sources["pieces"].data["space"], view.sources["pieces"].data["key"], strict=True
    )
    assert "Active Opposition" in dyn["cities"]["tip"][dyn["cities"]["id"].index("hue")]
    assert "VC Resources" in view.panel.text
    i = view.sources["pieces"].data["space"].index("hue")
    view.sources["pieces"].selected.indices = [i]
    assert picked == ["hue"]


def test_fitl_one_colour_per_faction_on_the_board_its_panel_and_the_margins_chart(board):
    """Issue #14 item 2: US and VC (and every faction) have the same colour in every FitL picture."""
    from wargames.notebook.fitlcharts import FACTION_COLOURS as CHART
    from wargames.notebook.palette import palette

    pal = palette("fitl")
    dyn = _styled(dynamic_layers(map_layers(board)))
    for faction, colour in zip(dyn["pieces"]["faction"], dyn["pieces"]["colour"], strict=True):
        assert colour == pal[faction]
    assert CHART == {f: pal[f] for f in ("US", "ARVN", "NVA", "VC")}
    view = FitlBoardView(board)
    for f in ("US", "ARVN", "NVA", "VC"):
        assert pal[f] in view.panel.text


def test_fitl_board_layers_carry_no_colours(board):
    from wargames.maps.layers import check_layers

    check_layers(map_layers(board))  # no colour, pixel or HTML column or value anywhere in the layers
    s = static_layers(map_layers(board))
    for layer in ("provinces", "locs", "names"):
        assert not {"fill", "colour", "size", "align"} & set(s[layer])


def test_fitl_board_click_twice_filters_twice_and_fades_nothing(board):
    """Issue #19 item 3: a second click on the same space is reported again; no space fades on a click; the
    wheel scrolls the page (no active scroll tool); a click on a space's name picks that space."""
    view = FitlBoardView(board)
    picked = []
    view.on_pick(picked.append)
    prov = view.sources["provinces"]
    i = prov.data["id"].index("binh_tuy_binh_thuan") if "binh_tuy_binh_thuan" in prov.data["id"] else 0
    place = prov.data["id"][i]
    prov.selected.indices = [i]
    assert picked == [place] and prov.selected.indices == []  # cleared: the next click is a new selection
    prov.selected.indices = [i]
    assert picked == [place, place]
    assert view.highlighted == [place] and view.sources_hl["hl_areas"].data["id"] == [place]
    names = view.sources["names"]
    names.selected.indices = [names.data["id"].index("hue")]
    assert picked[-1] == "hue"
    from bokeh.models import GlyphRenderer

    assert all(r.nonselection_glyph is None for r in view.layout.select({"type": GlyphRenderer}))
    assert view.figure.toolbar.active_scroll is None


def test_fitl_map_layers_follow_the_one_contract():
    import wargames
    from wargames.maps.layers import check_layers

    g = wargames.load("fitl", seed=1)
    layers = check_layers(g.map_layers("VC"))
    spaces = [
        k for k in layers["places"]["kind"] if k != "town"
    ]  # the towns printed on the board are no spaces
    assert layers["kind"] == "board" and len(spaces) == 47
    assert len(layers["places"]["id"]) == 47 + len(g.board.data.towns)
    on_map = sum(n for c in g.board.pieces.values() for n in c.values())
    assert sum(layers["pieces"]["count"]) == on_map


def test_fitl_board_names_and_piece_blocks_do_not_overlap(board):
    """Issue #19 item 6: at the board's drawing size no space's name (with its Control chip) covers another name,
    and no two spaces' piece blocks cover each other (the delta was unreadable)."""
    from wargames.notebook.fitlboard_layout import CELL_H, CELL_W

    view = FitlBoardView(board, height=820)
    boxes = [tuple(v[2:]) for v in view._names_at.values()]

    def hit(a, b):
        return max(0, min(a[2], b[2]) - max(a[0], b[0])) * max(0, min(a[3], b[3]) - max(a[1], b[1]))

    assert not [(i, j) for i in range(len(boxes)) for j in range(i) if hit(boxes[i], boxes[j]) > 0]
    EXTENT = map_layers(board)["extent"]  # noqa: N806

    sc = 820 / (EXTENT["y"][1] - EXTENT["y"][0])
    pc = view.sources["pieces"].data
    blocks: dict[str, list] = {}
    for sid, x, y in zip(pc["space"], pc["x"], pc["y"], strict=True):
        px, py = (x - EXTENT["x"][0]) * sc, (EXTENT["y"][1] - y) * sc
        b = blocks.setdefault(sid, [px - 7, py - CELL_H / 2, px - 7 + CELL_W, py + CELL_H / 2])
        b[0], b[1], b[2], b[3] = (
            min(b[0], px - 7),
            min(b[1], py - CELL_H / 2),
            max(b[2], px - 7 + CELL_W),
            max(b[3], py + CELL_H / 2),
        )
    bl = list(blocks.values())
    # cells are 22 x 15 px around 12 px glyphs: a sliver of overlap between two cells never touches a glyph
    assert not [(i, j) for i in range(len(bl)) for j in range(i) if hit(bl[i], bl[j]) > 10]


def test_fitl_game_package_holds_no_colours_or_html():
    """Issue #14 item 2: the FitL map module gives facts; colours and hover HTML are the notebook kit's."""
    import re
    from pathlib import Path

    import wargames.fitl.mapdata as md

    src = Path(md.__file__).read_text(encoding="utf-8")
    assert not re.search(r"#[0-9a-fA-F]{6}\b", src) and "<b>" not in src and "<br>" not in src


def test_fitl_board_view_draws_only_what_map_layers_say():
    """Issue #14 item 2: the board view takes every space, fact and piece from ``game.map_layers(side)``: a game
    whose layers say something else is drawn saying that (a renamed space, another Support level, a piece
    moved), and an update patches the sources from the layers again."""
    import copy

    import wargames

    g = wargames.load("fitl", seed=1)
    real = g.map_layers
    edits = {"name": "Renamed Hue", "support": -2, "extra": True}

    def changed(side=None):
        layers = copy.deepcopy(real(side))
        pl = layers["places"]
        i = pl["id"].index("hue")
        pl["name"][i] = edits["name"]
        pl["facts"][i]["support"] = edits["support"]
        j = pl["id"].index("quang_tri_thua_thien")
        pl["facts"][j].update(population=2, support=edits["support"])
        if edits["extra"]:
            layers["pieces"]["place"].append("hue")
            layers["pieces"]["faction"].append("VC")
            layers["pieces"]["count"].append(5)
            layers["pieces"]["hidden"].append(False)
            layers["pieces"]["facts"].append(
                [
                    {
                        "key": "vc_bases",
                        "piece": "vc_bases",
                        "name": "VC Base",
                        "shape": "disc",
                        "state": "",
                        "count": 5,
                    }
                ]
            )
        return layers

    g.map_layers = changed
    view = FitlBoardView(g, height=600)
    names = view.sources["names"].data
    assert "Renamed Hue" in names["text"][names["id"].index("hue")]
    from wargames.notebook.fitlboard import SUPPORT_FILL

    cities = view.sources["cities"].data
    assert cities["fill"][cities["id"].index("hue")] == SUPPORT_FILL[-2]
    prov = view.sources["provinces"].data
    assert prov["fill"][prov["id"].index("quang_tri_thua_thien")] == SUPPORT_FILL[-2]
    pc = view.sources["pieces"].data
    assert ("hue", "vc_bases", 5) in zip(pc["space"], pc["key"], pc["count"], strict=True)
    src = view.sources["pieces"]
    edits.update(extra=False, support=2)
    view.update()
    assert view.sources["pieces"] is src  # patched, not replaced
    assert ("hue", "vc_bases", 5) not in zip(
        src.data["space"], src.data["key"], src.data["count"], strict=True
    )
    assert view.sources["cities"].data["fill"][cities["id"].index("hue")] == SUPPORT_FILL[2]
    assert view.sources["provinces"].data["fill"][prov["id"].index("quang_tri_thua_thien")] == SUPPORT_FILL[2]
