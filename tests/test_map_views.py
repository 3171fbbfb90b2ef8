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
    assert hidden and all(
        allied["pieces"]["facts"][i] == [] and allied["pieces"]["hidden"][i] for i in hidden
    )
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


# ------------------------------------------------------------------------------ labels at the default size
# Issue #19 item 6: in every drawn view no label covers another label or a counter chip, and none is cut by
# the frame.  The boxes are computed in screen pixels from what the sources hold (offsets, texts) and the
# sizes the views draw them at (wargames.notebook.labels.text_size), so a change of placement, font or map
# size that makes labels collide fails here without a browser.
from wargames.notebook.labels import outside, overlapping  # noqa: E402


def _names(boxes, names, pairs, other_names=None):
    return [(names[i], (other_names or names)[j]) for i, j in pairs]


def test_yotr_names_cover_no_chip_no_name_and_stay_in_the_frame(yotr):
    view = map_for(yotr, "Allied")
    for tag in ("m", "i0", "i1", "i2"):
        b = view.label_boxes(tag)
        labels = b["names"] + b["regions"]
        assert not overlapping(labels), (tag, overlapping(labels))
        assert not overlapping(labels, b["chips"]), (tag, overlapping(labels, b["chips"]))
        assert all(outside(x, b["frame"][0]) == 0 for x in labels), tag


def test_yotr_names_move_clear_of_the_counters_after_play():
    game = wargames.load("yotr", seed=3)
    view = map_for(game, "Communist")
    for _ in range(40):
        if game.is_over:
            break
        game.apply(game.legal_actions()[0])
    view.update()
    for tag in ("m", "i0", "i1", "i2"):
        b = view.label_boxes(tag)
        labels = b["names"] + b["regions"]
        assert not overlapping(labels) and not overlapping(labels, b["chips"]), tag


@pytest.mark.parametrize("scenario", [None, "eastertide"])
def test_row_place_names_cover_no_chip_badge_town_or_name(scenario):
    """Rumor of War (Khe Sanh and the DMZ are the crowded hexes): names clear of every counter and town square,
    of each other, and inside the frame, at the start and after the built-in players have moved."""
    from wargames.notebook.rowmap import RowMapView

    game = wargames.load("row", seed=1, **({"scenario": scenario} if scenario else {}))
    view = map_for(game, "Capitalist")
    assert isinstance(view, RowMapView)
    for step in range(2):
        names, counters = view.name_boxes(), view.counter_boxes()
        text = view.sources["places"].data["name"]
        assert not overlapping(names), _names(names, text, overlapping(names))
        own = overlapping(names, counters)
        assert not own, [(text[i], counters[j]) for i, j in own]
        frame = (
            0,
            0,
            view._frame[3],
            view._frame[4],
        )  # the whole window at the map's scale (it pans over it)
        assert all(outside(b, frame) == 0 for b in names)
        if step == 0:
            for _ in range(60):
                if game.is_over:
                    break
                game.apply(game.legal_actions()[0])
            view.update()


def _tet_boxes(view, vid):
    """Tet (MapView): the chits and the city names drawn in view ``vid``, in its screen pixels (y down), as the
    figure draws them (chits: anchor center_left at the pixel offsets; names: their anchor and offsets)."""
    from wargames.notebook import tetmap, tetmap_layout

    v = next(v for v in view.views if v["id"] == vid)
    fw, fh, scale = tetmap.view_frame(v)
    short = bool(v.get("short"))
    font = v.get("font", 10)

    def px(x, y):
        return (x - v["x"][0]) * scale, (v["y"][1] - y) * scale

    u = view.sources["units"].data
    chips = []
    for x, y, t, dx, dy, inside in zip(
        u["x"],
        u["y"],
        u["short" if short else "text"],
        u[f"dx_{vid}"],
        u[f"dy_{vid}"],
        u[f"in_{vid}"],
        strict=True,
    ):
        if inside == "y":
            w, h = tetmap._text_box(t, font)
            sx, sy = px(x, y)
            chips.append((sx + dx, sy + dy - h / 2, sx + dx + w, sy + dy + h / 2))
    c = view.sources["cities"].data
    nfont = 9 if short else 11
    names = []
    for x, y, t, dx, dy, anchor, inside in zip(
        c["x"],
        c["y"],
        c["label_main" if short else "label"],
        c[f"name_dx_{vid}"],
        c[f"name_dy_{vid}"],
        c[f"name_anchor_{vid}"],
        c[f"in_{vid}"],
        strict=True,
    ):
        if inside == "y" and t:
            sx, sy = px(x, y)
            names.append(
                tetmap_layout._anchored_box(anchor, sx + dx, sy + dy, len(t) * nfont * 0.6 + 4, nfont + 3)
            )
    return chips, names, (0, 0, fw, fh)


@pytest.mark.parametrize("side", ["Allied", "Communist", None])
def test_tet_city_names_and_chits_do_not_overlap_in_any_view(side):
    """Tet (the theatre around Saigon and the delta, the two close-ups): no chit on a chit or a city name, no
    name on a name, all inside the frame."""
    from wargames.notebook import MapView

    game = wargames.load("tet", seed=1)
    view = map_for(game, side)
    assert isinstance(view, MapView)
    for v in view.views:
        chips, names, frame = _tet_boxes(view, v["id"])
        assert not overlapping(chips), (v["id"], overlapping(chips))
        assert not overlapping(names), (v["id"], overlapping(names))
        assert not overlapping(names, chips), (v["id"], overlapping(names, chips))
        assert all(outside(b, frame) == 0 for b in chips + names), v["id"]


@pytest.mark.parametrize("plays", [0, 30])
def test_fitl_space_names_cover_no_name_piece_or_city(plays):
    """Fire in the Lake, the short scenario of the app (the delta's names overlapped): each space's name box (its
    Control chip and its name) covers no other name, no piece and its count, no City circle, and stays inside
    the board; at the start and after 30 decisions."""
    from wargames.notebook import FitlBoardView
    from wargames.notebook.fitlboard import CHIP_W

    game = wargames.load("fitl", seed=1)
    view = map_for(game, "VC")
    assert isinstance(view, FitlBoardView)
    for _ in range(plays):
        if game.is_over:
            break
        game.apply(game.legal_actions()[0])
    if plays:
        view.update()
    f = view.figure
    sc = f.frame_height / (f.y_range.end - f.y_range.start)

    def px(x, y):
        return (x - f.x_range.start) * sc, (f.y_range.end - y) * sc

    n = view.sources["names"].data
    names = []
    for x, y, t, dx, dy, size in zip(n["x"], n["y"], n["text"], n["xoff"], n["yoff"], n["size"], strict=True):
        font = int(size.removesuffix("px"))
        ax, ay = px(x, y)
        w = len(t) * font * 0.6 + 4
        names.append((ax + dx - CHIP_W, ay + dy - font - 4, ax + dx + w, ay + dy))  # chip, then the name
    p = view.sources["pieces"].data
    pieces = []
    for x, y, label in zip(p["x"], p["y"], p["label"], strict=True):
        ax, ay = px(x, y)
        pieces.append((ax - 6, ay - 6, ax + 7 + len(str(label)) * 6, ay + 6))
    c = view.sources["cities"].data
    circles = [
        (px(x, y)[0] - 11, px(x, y)[1] - 11, px(x, y)[0] + 11, px(x, y)[1] + 11)
        for x, y in zip(c["x"], c["y"], strict=True)
    ]
    text = n["text"]
    assert not overlapping(names), [(text[i], text[j]) for i, j in overlapping(names)]
    assert not overlapping(names, pieces), [text[i] for i, _ in overlapping(names, pieces)]
    assert not overlapping(names, circles), [text[i] for i, _ in overlapping(names, circles)]
    frame = (0, 0, f.frame_width, f.frame_height)
    assert all(outside(b, frame) == 0 for b in names), [
        t for t, b in zip(text, names, strict=True) if outside(b, frame)
    ]


def _fitl_positions():
    """Positions from built-in games of the three scenarios, a few points in each; the app's crowded one (short
    scenario, seed 1, card 3: Pleiku-Darlac's pieces stood over Northeast Cambodia) among them."""
    for scenario, seed, stops in (
        ("short", 1, (3, 6, 12)),
        ("medium", 2, (2, 8, 20)),
        ("full", 3, (4, 30, 70)),
    ):
        game = wargames.load("fitl", seed=seed, scenario=scenario)
        for turn in stops:
            game.advance_to(turn)
            if game.is_over:
                break
            yield f"{scenario}/{seed}/card {turn}", game


@pytest.mark.parametrize("height", [900, 800, 620])
def test_fitl_piece_blocks_stand_in_their_own_space_clear_of_names_and_blocks(height):
    """Issue #19 item 6: every space's block of pieces lies inside its own Province, or hangs on a leader line
    whose anchor is in its space (on a City's circle, on a LoC's line, inside a Province too crowded for it);
    no block covers a name (with its Control chip), a City circle or another block, and none leaves the frame;
    at the app's and the class's sizes no leader runs through another block (at 620 px, the small board of
    fitl/06, one crowded medium position still has one that does);
    at the app's board size and a small notebook one, over positions of short, medium and full games."""
    import numpy as np

    from wargames.notebook import FitlBoardView
    from wargames.notebook.inside import box_in_rings, point_in_rings, segment_enters

    for where, game in _fitl_positions():
        view = FitlBoardView(game, "VC", height=height)
        geo = view._geo
        blocks = view.piece_blocks()
        assert blocks, where
        led = view.sources["leaders"].data
        anchors = {sid: geo.px(x, y) for sid, x, y in zip(led["space"], led["x"], led["y"], strict=True)}
        for sid, box in blocks.items():
            kind = geo.kind[sid]
            if sid not in anchors:
                assert kind == "province" and box_in_rings(box, geo.rings[sid]), (where, sid, box)
                continue
            ax, ay = anchors[sid]
            if kind == "province":
                assert point_in_rings(ax, ay, geo.rings[sid]), (where, sid)
            elif kind == "city":
                cx, cy = geo.anchor[sid]
                assert np.hypot(ax - cx, ay - cy) < 1, (where, sid)
            else:  # on the LoC's line
                p = geo.anchor[sid]
                assert np.hypot(ax - p[0], ay - p[1]) < 1, (where, sid)
            # the leader reaches the white frame drawn round the block, and the block lies in its frame
            i = led["space"].index(sid)
            ex, ey = geo.px(led["xs"][i][1], led["ys"][i][1])
            fr = view.sources["frames"].data
            j = fr["space"].index(sid)
            fx, fy = geo.px(fr["x"][j], fr["y"][j])
            hw, hh = fr["w"][j] * geo.sc / 2, fr["h"][j] * geo.sc / 2
            assert fx - hw - 1 <= ex <= fx + hw + 1 and fy - hh - 1 <= ey <= fy + hh + 1, (where, sid)
            assert fx - hw - 1 <= box[0] and box[2] <= fx + hw + 1, (where, sid)
            assert fy - hh - 1 <= box[1] and box[3] <= fy + hh + 1, (where, sid)
            ends = np.array(geo.px(led["xs"][i][0], led["ys"][i][0])), np.array((ex, ey))
            through = [o for o, b in blocks.items() if o != sid and segment_enters(b, *ends)]
            assert height < 800 or not through, (where, sid, "leader through", through)
        ids, bl = list(blocks), list(blocks.values())
        assert not overlapping(bl), (where, [(ids[i], ids[j]) for i, j in overlapping(bl)])
        names = geo.names
        assert not overlapping(bl, names), (where, [ids[i] for i, _ in overlapping(bl, names)])
        assert not overlapping(bl, geo.circles), (where, [ids[i] for i, _ in overlapping(bl, geo.circles)])
        assert all(outside(b, geo.frame) == 0 for b in bl + names), where
