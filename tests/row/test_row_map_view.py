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
    scale = 1100 / (
        max(v for xs in layers["hexes"]["xs"] for v in xs)
        - min(v for xs in layers["hexes"]["xs"] for v in xs)
    )
    off = _place_labels(places, scale, font)
    boxes = []
    for x, y, name, dx, dy in zip(
        places["x"], places["y"], places["name"], off["dx"], off["dy"], strict=True
    ):
        w, h = 0.62 * font * len(name) + 6, font + 4
        boxes.append((x * scale + dx, y * scale + dy, x * scale + dx + w, y * scale + dy + h))
    clashes = [
        (i, j)
        for i in range(len(boxes))
        for j in range(i)
        if boxes[i][0] < boxes[j][2]
        and boxes[j][0] < boxes[i][2]
        and boxes[i][1] < boxes[j][3]
        and boxes[j][1] < boxes[i][3]
    ]
    assert not clashes, [(places["name"][i], places["name"][j]) for i, j in clashes]


def test_row_map_figure_builds_for_the_window_and_the_theatre():
    fig = row_map_figure(CLASSROOM, width=900)
    assert fig.select_one({"name": "hexes"}) is not None and fig.width == 900
    assert row_map_figure(width=600).height > 600  # the theatre is taller than wide


def test_row_map_layers_carry_what_the_view_draws():
    """Rumor of War's map contract (issue #14 item 2) holds the hexes' terrain, country and area, the named
    places with their gazetteer rows, every hexside line with its ends, the Corps boundaries (rule 14.6) and the
    scenario's map window (R-SCN-01), and nothing presentational."""
    import wargames
    from wargames.maps.layers import check_layers

    g = wargames.load("row", seed=1)
    layers = check_layers(g.map_layers(None))
    w = g.window
    assert layers["window"] == {"cols": tuple(w.cols), "rows": tuple(w.rows)}
    assert {"road", "trail", "river", "border", "corps"} <= set(layers["lines"]["kind"])
    corps = [n for k, n in zip(layers["lines"]["kind"], layers["lines"]["name"], strict=True) if k == "corps"]
    assert all(" / " in n for n in corps)
    i = layers["places"]["name"].index(next(n for n in layers["places"]["name"] if "Hue" in n))
    assert layers["places"]["facts"][i]["places"][0]["kind"] == "city"
    assert isinstance(layers["places"]["facts"][i]["places"][0]["row"], int)


def test_row_play_view_draws_what_the_map_layers_say():
    """The play view draws from ``game.map_layers(side)`` alone: a renamed town, a changed terrain, a moved
    window and a removed river are drawn so, and the counters are still patched in place on update."""
    import copy

    import wargames
    from wargames.notebook.rowmap import TERRAIN_COLOURS, RowMapView

    g = wargames.load("row", seed=1)
    real = g.map_layers
    hue = next(h for h, ps in g.map.places_in.items() if any(p.name == "Hue" for p in ps))

    def changed(side=None):
        layers = copy.deepcopy(real(side))
        pl = layers["places"]
        i = pl["id"].index(hue)
        pl["name"][i] = "Renamed Hue"
        pl["facts"][i]["terrain"] = "mountain"
        layers["window"] = {"cols": (20, 30), "rows": (38, 48)}
        ln = layers["lines"]
        keep = [j for j, k in enumerate(ln["kind"]) if k != "river"]
        layers["lines"] = {c: [v[j] for j in keep] for c, v in ln.items()}
        layers["markers"]["place"].append(hue)
        layers["markers"]["kind"].append("objective")
        layers["markers"]["text"].append("Objective")
        layers["markers"]["facts"].append({"value": 7, "rule": "ROW-12.1.3"})
        layers["pieces"]["facts"][0][0]["name"] = "Renamed Battalion"
        return layers

    g.map_layers = changed
    view = RowMapView(g, "Capitalist")
    hexes = view.sources["hexes"].data
    assert len(hexes["hex"]) == 11 * 11
    assert hexes["colour"][hexes["hex"].index(hue)] == TERRAIN_COLOURS["mountain"]
    assert "Renamed Hue" in view.sources["places"].data["name"]
    assert not view.static["river"]["xs"] and view.static["road"]["xs"]
    badges = view.sources["badges"].data
    assert "\u2605" + "7" in [t for h, t in zip(badges["hex"], badges["text"], strict=True) if h == hue]
    assert any("Renamed Battalion" in t for t in view.sources["chips"].data["tip"])
    chips = view.sources["chips"]
    view.update()
    assert view.sources["chips"] is chips  # patched, not replaced


def test_row_map_layers_hide_hidden_tunnels_from_the_capitalist():
    """ROW-14.3: a Hidden tunnel is a marker for the umpire and the Communist, not for the Capitalist; the
    counters are pieces per hex and side with their nationality, type and freshness (ROW-9.3)."""
    import wargames

    g = wargames.load("row", seed=1)
    hidden = {h for h, s in g.tunnels.items() if s == "Hidden"}
    assert hidden
    for side, sees in ((None, True), ("Communist", True), ("Capitalist", False)):
        layers = g.map_layers(side)
        tunnels = {
            p
            for p, k in zip(layers["markers"]["place"], layers["markers"]["kind"], strict=True)
            if k == "tunnel"
        }
        assert (hidden <= tunnels) == sees
    pc = g.map_layers(None)["pieces"]
    assert sum(pc["count"]) == len(g.pos)
    f = pc["facts"][0][0]
    assert {"id", "name", "nationality", "kind", "type", "fresh", "markers"} <= set(f)
