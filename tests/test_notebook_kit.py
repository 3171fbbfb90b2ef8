"""The notebook kit without a browser: the map's data, the widgets' buttons, clicks and errors.

The real-browser checks (that BokehJS draws what these sources hold) are in ``tests/browser/``.
"""

from __future__ import annotations

import html
import statistics
import subprocess
import sys
import time

import pytest

import wargames

pytest.importorskip("bokeh")
pytest.importorskip("ipywidgets")
pytest.importorskip("jupyter_bokeh")

from wargames.notebook import (  # noqa: E402
    ActionChooser,
    MapView,
    PlayGame,
    RulingPanel,
    Stepper,
    Walkthrough,
    draw_hexgrid,
    tetmap,  # noqa: E402
    tetmap_layout,  # noqa: E402
)


def hidden_communists(game) -> list[str]:
    return [
        u
        for u, up in game.face_up.items()
        if not up and game.data.units[u].faction in ("NVA", "VC") and game.loc[u] is not None
    ]


# ---------------------------------------------------------------------------------------------- imports
def test_import_wargames_and_tet_stay_free_of_bokeh_and_ipywidgets():
    code = (
        "import sys, wargames, wargames.tet; wargames.load('tet', seed=1).map_layers('Allied'); "
        "bad = [m for m in ('bokeh', 'ipywidgets', 'jupyter_bokeh') if m in sys.modules]; print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


# ---------------------------------------------------------------------------------------------- map data
def test_map_static_has_every_area_and_real_geography(tet):
    s = tetmap.static_layers(tet)
    provinces = [a.id for a in tet.data.areas.values() if a.kind == "province"]
    sanctuaries = [a.id for a in tet.data.areas.values() if a.kind == "sanctuary"]
    cities = [a.id for a in tet.data.areas.values() if a.kind == "city"]
    assert sorted(s["provinces"]["id"]) == sorted(provinces)
    assert sorted(s["sanctuaries"]["id"]) == sorted(sanctuaries)
    assert sorted(s["cities"]["id"]) == sorted(cities)
    assert len(s["airbases"]["id"]) == sum(tet.data.areas[c].airbase for c in cities)
    assert len(s["trail"]["xs"]) == sum(1 for e in tet.data.map.edges if e[2] == "trail")
    assert s["land"]["xs"] and s["countries"]["id"]
    # hover facts name the area, its Corps, terrain and political value
    i = s["cities"]["id"].index("hue")
    pv = tet.data.areas["hue"].pv
    assert "Hue" in s["cities"]["tip"][i] and f"political value {pv}" in s["cities"]["tip"][i]
    j = s["provinces"]["id"].index("12")
    assert "I Corps" in s["provinces"]["tip"][j] and "lowland" in s["provinces"]["tip"][j]


def test_units_drawn_equal_units_on_the_map(tet):
    for side in (None, "Allied", "Communist"):
        dyn = tetmap.dynamic_layers(tet, side)
        on_map = sum(1 for where in tet.loc.values() if where is not None)
        assert dyn["units_drawn"] == on_map == dyn["units_placed"], side
        assert not dyn["unplaced_areas"]


def test_hidden_units_are_masked_in_the_allied_view(tet):
    hidden = hidden_communists(tet)
    assert len(hidden) > 40
    dyn = tetmap.dynamic_layers(tet, "Allied")
    blob = repr(dyn)
    for uid in hidden:
        u = tet.data.units[uid]
        assert uid not in blob
        assert f"{html.escape(u.name)} &middot;" not in blob
    masked = [t for t, f in zip(dyn["units"]["text"], dyn["units"]["faction"], strict=True) if f == "NVA/VC"]
    assert masked and all(t.startswith("? ") for t in masked)
    assert not any(f in ("NVA", "VC") for f in dyn["units"]["faction"])
    # the umpire sees them, drawn as face down
    umpire = tetmap.dynamic_layers(tet, None)
    assert any(t.startswith("VC? ") for t in umpire["units"]["text"])


def test_latest_ruling_places_are_highlighted(tet):
    tet.advance("ruling")
    while not tet.log[-1].places:
        tet.advance("ruling")
    dyn = tetmap.dynamic_layers(tet, None)
    focus = set(dyn["focus_areas"]["id"]) | set(dyn["focus_points"]["id"])
    assert focus == set(tet.log[-1].places)


# ---------------------------------------------------------------------------------------------- MapView
def test_mapview_update_patches_data_and_keeps_the_figure(tet):
    mv = MapView(tet, side="Allied")
    fig, layout, units = mv.figure, mv.layout, mv.units
    before = dict(units.data)
    tet.set_players({})
    for _ in range(6):
        tet.advance("ruling")
    mv.update()
    assert mv.figure is fig and mv.layout is layout and mv.units is units
    assert mv.figure.document is layout.document
    assert dict(units.data) != before
    total = sum(units.data["count"]) + sum(mv.sources["militia"].data["count"])
    assert total == sum(1 for where in tet.loc.values() if where is not None)
    tips = " ".join(units.data["tip"]) + " ".join(mv.sources["militia"].data["tip"])
    for uid in hidden_communists(tet):
        assert f"{html.escape(tet.data.units[uid].name)} &middot;" not in tips


def test_mapview_update_is_fast(tet):
    mv = MapView(tet, side=None)
    for _ in range(40):
        tet.advance("ruling")
        mv.update()
    median_ms = statistics.median(mv.update_times) * 1000
    print(
        f"MapView.update: median {median_ms:.1f} ms, max {max(mv.update_times) * 1000:.1f} ms "
        f"over {len(mv.update_times)} updates"
    )
    assert median_ms < 200


def test_map_tap_reports_the_area(tet):
    mv = MapView(tet)
    picks = []
    mv.on_pick(picks.append)
    prov = mv.sources["provinces"]
    prov.selected.indices = [prov.data["id"].index("33")]
    assert picks == ["33"]
    units = mv.units
    units.selected.indices = [units.data["area"].index("saigon")]
    assert picks[-1] == "saigon"


def test_map_tap_same_area_twice_filters_twice_and_labels_pick_their_area(tet):
    """Issue #19 item 3: the selection is cleared after each click, so clicking the same area again (after Show
    all or Apply) is reported again; a click on a province's number label picks that province even where the
    label lies over a sanctuary (labels beat sanctuaries and provinces); the pick is outlined, nothing fades."""
    from bokeh.models import GlyphRenderer

    w = Walkthrough(tet, human="Communist")
    mv = w.map
    prov = mv.sources["provinces"]
    i = prov.data["id"].index("33")
    prov.selected.indices = [i]
    assert w.chooser.area == "33" and prov.selected.indices == [] and mv.highlighted == ["33"]
    w.chooser.clear_button.click()
    assert w.chooser.area is None and mv.highlighted == []
    prov.selected.indices = [i]
    assert w.chooser.area == "33"
    labels = mv.sources["labels"]
    sanc = mv.sources["sanctuaries"]
    j = labels.data["id"].index("21")
    labels.selected.indices = [j]
    sanc.selected.indices = [0]  # the same click also hit a sanctuary under the label: the label wins
    assert w.chooser.area == "21"
    assert all(r.nonselection_glyph is None for r in mv.layout.select({"type": GlyphRenderer}))
    assert all(f.toolbar.active_scroll is None for f in mv.figures)


def test_tet_map_layers_follow_the_contract_and_hide_what_the_allies_may_not_see(tet):
    """Issue #14 item 2: plain semantic layers; TET-P5-1: hidden Communist units have no faction or name."""
    from wargames.maps.layers import check_layers

    allied = check_layers(tet.map_layers("Allied"))
    assert allied["kind"] == "area"
    on_map = sum(1 for where in tet.loc.values() if where is not None)
    assert sum(allied["pieces"]["count"]) == on_map
    shown = {(f.get("id"), f.get("name")) for facts in allied["pieces"]["facts"] for f in facts}
    for uid in hidden_communists(tet):
        assert (uid, tet.data.units[uid].name) not in shown and f"'{uid}'" not in repr(allied)
    assert None in allied["pieces"]["faction"] and not {"NVA", "VC"} & set(allied["pieces"]["faction"])
    umpire = tet.map_layers(None)
    assert {"NVA", "VC"} <= set(umpire["pieces"]["faction"])


# ---------------------------------------------------------------------------------------------- Stepper
def test_stepper_buttons_advance_and_undo(tet):
    st = Stepper(tet)
    seen = []
    st.on_change(seen.append)
    n0 = len(tet.log)
    d0 = tet.digest()
    st.step.click()
    assert len(tet.log) == n0 + 1 and seen and len(seen[-1]) == 1
    st.back.click()
    assert tet.digest() == d0
    st.next_phase.click()
    assert tet.phase.number == 2 and "phase 2" in st.where.value
    st.next_turn.click()
    assert tet.turn == 2
    tet.advance("decision")
    turn2 = tet.digest()  # the first decision of turn 2
    st.turn_box.value = 4
    st.go.click()
    assert tet.turn == 4 and tet.phase.number == 1
    t0 = time.perf_counter()
    st.turn_box.value = 2
    st.go.click()
    assert tet.turn == 2 and tet.digest() == turn2
    assert time.perf_counter() - t0 < 5, "jumping back must not undo one decision at a time"
    st.play.click()
    assert tet.is_over and st.step.disabled


def test_stepper_back_at_the_start_shows_a_message(tet):
    st = Stepper(tet)
    st._run(st._undo)  # the button is disabled; the callback still must not raise
    assert "Cannot do that" in st.message.value


# ---------------------------------------------------------------------------------------------- ActionChooser
def test_action_chooser_applies_the_chosen_action(tet):
    ch = ActionChooser(tet, side="Communist")
    assert ch.enabled and not ch.apply_button.disabled
    label = next(a.label for a in ch.actions if a.kind == "move")
    n0 = len(tet.log)
    ch.choose(label)
    ch.apply_button.click()
    assert len(tet.log) > n0
    assert "Applied" in ch.message.value
    assert any(r.rule_id.startswith("TET-P1") for r in tet.log[n0:])


def test_action_chooser_shows_illegal_action_without_changing_the_game(tet):
    ch = ActionChooser(tet, side="Communist")
    d0 = tet.digest()
    ch.apply({"kind": "move", "params": {"unit": "nva_1", "to": "saigon"}})
    assert tet.digest() == d0
    assert "Illegal" in ch.message.value and "TET-P1" in ch.message.value


def test_action_chooser_is_disabled_for_the_other_side(tet):
    ch = ActionChooser(tet, side="Allied")
    assert not ch.enabled and ch.apply_button.disabled and ch.select.disabled
    d0 = tet.digest()
    ch.apply_selected()
    assert tet.digest() == d0 and "not your decision" in ch.message.value


def test_map_tap_filters_the_actions(tet):
    wt = Walkthrough(tet, human="Communist")
    everything = len(tet.legal_actions())
    prov = wt.map.sources["sanctuaries"]
    prov.selected.indices = [prov.data["id"].index("S4")]
    acts = wt.chooser.actions
    assert 0 < len(acts) < everything
    assert all("S4" in a.places for a in acts)
    assert "Plei Trap-Chu Pong (Base Area 702)" in wt.chooser.prompt.value  # the name, not the id "S4"
    wt.chooser.clear_button.click()
    assert len(wt.chooser.actions) == everything


# ---------------------------------------------------------------------------------------------- panels
def test_ruling_panel_shows_newest_first_and_masks(tet):
    panel = RulingPanel(tet, side="Allied", count=3)
    assert panel.shown[0].seq == tet.log[-1].seq
    assert html.escape(tet.log[-1].title) in panel.html.value
    # the set-up ruling names no hidden unit to the Allies
    for uid in hidden_communists(tet)[:10]:
        assert tet.data.units[uid].name not in panel.html.value


def test_walkthrough_wires_everything(tet):
    wt = Walkthrough(tet, human="Allied")
    assert tet.players["Allied"] is None
    fig = wt.map.figure
    wt.stepper.next_phase.click()
    wt.stepper.next_phase.click()
    assert wt.map.figure is fig
    assert "Scores" in wt.scores.value
    assert wt.rulings.shown[0].seq == tet.log[-1].seq
    # with the Allies played by a person, Play stops at the first Allied decision (or the end)
    wt.stepper.play.click()
    assert tet.is_over or tet.decision.side == "Allied"
    assert wt.chooser.enabled == (tet.decision is not None)


def test_walkthrough_autoplay_runs_the_bots_until_the_person_decides_again(tet):
    wt = Walkthrough(tet, human="Allied", autoplay=True)
    wt.play_to_my_turn()
    assert tet.decision.side == "Allied" and wt.chooser.enabled
    turn, n = tet.turn, len(tet.log)
    wt.chooser.choose(0)
    wt.chooser.apply_selected()
    assert len(tet.log) > n
    assert tet.is_over or tet.decision.side == "Allied"  # the Communist bot's turns were played at once
    assert tet.turn >= turn and wt.rulings.shown[0].seq == tet.log[-1].seq


def test_draw_hexgrid():
    from wargames.maps import HexGrid

    grid = HexGrid(cols=5, rows=4, terrain={"0101": "forest", "0203": "marsh"})
    p = draw_hexgrid(grid)
    src = p.select_one({"name": "hexes"})
    assert len(src.data["hex"]) == 20
    i = src.data["hex"].index("0101")
    assert src.data["terrain"][i] == "forest" and tuple((src.data["q"][i], src.data["r"][i])) == grid.axial(
        "0101"
    )


def test_mapview_build_time(tet):
    """Building a map view takes about 1 s of processor; measured as processor time, so that a loaded CI machine
    (three workers and browsers on two cores) does not fail it by waiting for a core."""
    t0 = time.process_time()
    MapView(tet)
    assert time.process_time() - t0 < 5


def test_notebook_index_lists_every_game_notebook_with_its_title():
    from wargames.notebook.kit import notebook_index, notebook_links

    rows = notebook_index()
    paths = {r["path"] for r in rows}
    assert {
        "tet/01-map-and-forces.ipynb",
        "yotr/05-the-whole-offensive.ipynb",
        "fitl/02-one-card-of-play.ipynb",
    } <= paths
    assert all(r["title"] and "#" not in r["title"] for r in rows)
    assert 'href="fitl/06-the-war-in-130-cards.ipynb"' in notebook_links().data


def test_notebook_progress_bar_fills_as_montecarlo_games_finish():
    import wargames
    from wargames.notebook import progress_bar  # the name the montecarlo docstring gives

    report = progress_bar()
    wargames.montecarlo("fitl", 2, progress=report)
    bars = [c.cell_contents for c in report.__closure__ if type(c.cell_contents).__name__ == "IntProgress"]
    assert bars and bars[0].value == 2 and bars[0].max == 2 and bars[0].bar_style == "success"


# ---------------------------------------------------------------------------------------------- play mode
def test_play_widget_owns_its_game_and_opens_on_the_first_decision():
    play = PlayGame("tet", side="Allied", seed=11)
    g = play.game
    assert g.decision.side == "Allied" and g.decision.rule_id == "TET-P2-2"
    assert not play.walk.stepper.person_decisions()
    # another game of the same scenario and seed, played on in code, leaves the widget's game alone
    other = wargames.load("tet", scenario="historical", seed=11)
    Walkthrough(other, human="Allied", autoplay=True).play_to_my_turn()
    assert other.digest() == g.digest()
    other.play({"Allied": other.default_player("Allied")})
    assert other.is_over and not g.is_over and g.decision.side == "Allied"
    assert "You play <b>Allied</b>" in play.status.value and play.body.children == (play.walk.widget,)


def test_play_widget_new_game_reads_scenario_side_and_seed():
    play = PlayGame("tet", side="Allied", seed=11)
    first = play.game
    play.scenario_box.value = 1  # Historical, four players: the side list changes
    assert tuple(play.side_box.options) == ("NVA", "VC", "USA", "SVN")
    play.side_box.value = "SVN"
    play.seed_box.value = 3
    play.new_button.click()
    g = play.game
    assert g is not first and g.sides == ("NVA", "VC", "USA", "SVN") and g.seed == 3
    assert g.decision.side == "SVN" and play.walk.chooser.enabled
    assert play.body.children == (play.walk.widget,) and "SVN" in play.status.value


def test_play_widget_offers_every_scenario_of_each_game():
    for game_id, scenarios in (
        ("yotr", {"historical", "standard", "ob-options"}),
        ("fitl", {"short", "medium", "full"}),
    ):
        play = PlayGame(game_id, seed=1)
        assert {v.scenario for v in play.variants} == scenarios
        assert play.game.decision.side == play.side_box.value


def test_back_in_play_mode_takes_back_my_decision_and_the_replies(tet):
    wt = Walkthrough(tet, human="Allied", autoplay=True)
    wt.play_to_my_turn()
    st = wt.stepper
    assert st.back.disabled and "no decision" in st.back.tooltip
    mine = tet.digest()
    n = len(tet.log)
    wt.chooser.choose(0)
    wt.chooser.apply_selected()
    # play on until at least one built-in decision followed ours
    while tet.record[-1].get("by") == "person" and not tet.is_over:
        wt.chooser.choose(0)
        wt.chooser.apply_selected()
    assert "Applied" in wt.chooser.message.value
    second = tet.digest()
    st.back.click()  # back to our LAST decision, not to the bot's
    assert tet.decision.side == "Allied" and tet.digest() != second
    assert "Back: your decision" in st.message.value and "It is your decision again" in st.message.value
    assert "built-in decision(s) after it" in st.message.value
    assert wt.chooser.message.value == ""  # the stale "Applied: ..." line is gone
    while st.person_decisions():
        st.back.click()
    assert tet.digest() == mine and len(tet.log) == n and st.back.disabled


def test_stepper_buttons_that_cannot_act_are_disabled_with_a_reason(tet):
    wt = Walkthrough(tet, human="Allied", autoplay=True)
    wt.play_to_my_turn()
    st = wt.stepper
    for b in (st.step, st.next_phase, st.next_turn, st.play):
        assert b.disabled and "waits for your decision" in b.tooltip
    assert st.go.disabled and st.turn_box.disabled
    # watching mode: the buttons act, and their tooltips carry no reason
    watch = Stepper(wargames.load("tet", seed=7))
    assert not watch.step.disabled and watch.step.tooltip == Stepper.TIPS["step"]


def test_ruling_panel_in_play_mode_shows_everything_since_my_last_decision(tet):
    wt = Walkthrough(tet, human="Allied", autoplay=True)
    wt.play_to_my_turn()
    assert len(wt.rulings.shown) == len(tet.log) > 6  # before the first decision: everything so far
    assert "Since the start of the game" in wt.rulings.html.value
    advisor = tet.default_player("Allied")
    for _ in range(300):  # follow the built-in player's advice until a decision brings many rulings
        at = len(tet.log)
        wt.chooser.apply(advisor.choose(tet, tet.decision))
        if len(tet.log) - at > 6 or tet.is_over:
            break
    assert len(tet.log) - at > 6
    assert [r.seq for r in wt.rulings.shown] == [r.seq for r in reversed(tet.log[at:])]
    assert "Since your last decision" in wt.rulings.html.value
    assert wt.rulings.html.layout.overflow == "auto"


# ---------------------------------------------------------------------------------------------- class apps
def test_class_server_preheats_a_kernel_per_student_on_unix_sockets():
    """Issue #32 item 1: ``--class N`` is Voila's preheated pool of N kernels, refilled after ``--refill``, whose
    kernels use Unix sockets named after each kernel (TCP ports picked for 30 kernels at once could collide)."""
    import pytest

    from wargames.notebook import app

    args = app.class_args(30, refill=120)
    assert "--preheat_kernel=True" in args and "--pool_size=30" in args
    assert "--VoilaKernelManager.fill_delay=120" in args and "--KernelManager.transport=ipc" in args
    with pytest.raises(SystemExit):
        app.class_args(0)


def test_app_launcher_uses_the_repository_config_and_the_classroom_template():
    import json
    from pathlib import Path

    from wargames.notebook import app

    cmd = app.voila_command("fitl", ["--port=9999"])
    assert (
        cmd[1:4] == ["-m", app.SERVER, str(Path("notebooks/apps/fitl.ipynb"))]
        and "--template=classroom" in cmd
    )
    env = app.voila_env({"PATH": "/bin"})
    assert env["BOKEH_RESOURCES"] == "inline" and env["PYTHONPATH"].split(":")[0] == str(app.ROOT)
    template = Path(env["JUPYTER_PATH"].split(":")[0]) / "voila" / "templates" / "classroom"
    page = (template / "index.html.j2").read_text()
    body = page.split("-#}", 1)[1]  # after the provenance comment
    # our template extends Voila's page and removes its CDN stylesheet links (the browser test sees no request go out)
    assert "extends" in body and "replace(" in body and '<link rel="stylesheet" href="http' not in body
    assert json.loads((template / "conf.json").read_text())["base_template"] == "lab"
    cfg = json.loads((app.ROOT / "voila.json").read_text())
    kernels = cfg["MappingKernelManager"]
    assert (
        kernels["cull_idle_timeout"] > 0
        and kernels["cull_interval"] > 0
        and kernels["cull_connected"] is True
    )
    assert cfg["VoilaConfiguration"]["strip_sources"] is True
    for name in app.APPS:
        nb = json.loads(app.notebook_path(name).read_text())
        code = [c for c in nb["cells"] if c["cell_type"] == "code"]
        assert code and all("hide-input" in c["metadata"].get("tags", []) for c in code)
        assert "PlayGame(" in "".join(code[0]["source"]) and "print(" not in "".join(
            "".join(c["source"]) for c in code
        )
    with pytest.raises(SystemExit, match="unknown app"):
        app.notebook_path("chess")


def test_tet_views_draw_nothing_cut_by_the_frame_and_no_chits_on_each_other(tet):
    """Issue #19 item 6: every sea box lies whole inside the theatre map (the "Battleship off 13" box was cut);
    a chit, an area label or a city name is drawn in a view only where it is whole inside that view's frame;
    drawn chits do not overlap each other and city names do not overlap each other (estimated text boxes)."""
    st = tetmap.static_layers(tet)
    dyn = tetmap.dynamic_layers(tet, "Allied")
    ext = st["views"][0]
    b = st["boxes"]
    for x, y, w, h in zip(b["x"], b["y"], b["w"], b["h"], strict=True):
        assert (
            ext["x"][0] <= x - w / 2
            and x + w / 2 <= ext["x"][1]
            and ext["y"][0] <= y - h / 2 <= y + h / 2 <= ext["y"][1]
        )
        assert (
            len(b["name"][b["x"].index(x)]) * 9 * 0.56 < w * tetmap.view_frame(ext)[2]
        )  # the name fits its box
    for v in st["views"]:
        vid = v["id"]
        fw, fh, scale = tetmap.view_frame(v)
        key = "short" if v.get("short") else "text"
        u = dyn["units"]
        boxes = []
        for k, shown in enumerate(u[f"in_{vid}"]):
            if shown != "y":
                continue
            px = (u["x"][k] - v["x"][0]) * scale + u[f"dx_{vid}"][k]
            py = (v["y"][1] - u["y"][k]) * scale + u[f"dy_{vid}"][k]
            tw, th = tetmap._text_box(u[key][k], v["font"])
            assert 0 <= px and px + tw <= fw and 0 <= py - th / 2 and py + th / 2 <= fh
            boxes.append((px + 1, py - th / 2 + 1, px + tw - 1, py + th / 2 - 1))
        overlaps = [
            (i, j) for i in range(len(boxes)) for j in range(i) if tetmap_layout._area(boxes[i], boxes[j]) > 0
        ]
        assert not overlaps, (vid, overlaps[:5])
        assert {"y", "n"} >= set(st["cities"][f"in_{vid}"]) and {"y", "n"} >= set(
            st["provinces"][f"in_{vid}"]
        )


# ---------------------------------------------------------------------------------------------- four models compared
def test_compare_stored_runs_are_normalised_to_the_outcome_shape():
    from wargames.notebook import compare

    runs = compare.stored_runs()
    assert list(runs) == list(compare.MODELS)
    for g, frame in runs.items():
        assert {"seed", "winner", "rule", "turn"} <= set(frame.columns), g
        assert frame["winner"].notna().all() and frame["seed"].is_unique
    assert {"margin_US", "margin_VC"} <= set(runs["fitl"].columns)  # the older files' margins_ renamed
    assert not any(c.startswith("party_margins_") for c in runs["fitl"].columns)


def test_compare_check_stored_replays_a_seed_and_finds_a_changed_row(monkeypatch):
    from wargames.notebook import compare

    assert compare.check_stored("fitl", seeds=(0,))["same"].all()
    real = compare.stored_run
    changed = real("fitl").copy()
    changed.loc[changed.seed == 0, "score_VC"] += 1
    monkeypatch.setattr(compare, "stored_run", lambda g: changed if g == "fitl" else real(g))
    row = compare.check_stored("fitl", seeds=(0,)).iloc[0]
    assert not row["same"] and row["differ"] == "score_VC"


def test_compare_deciding_rules_and_shares_add_up():
    from wargames.notebook import compare

    runs = compare.stored_runs()
    decided = compare.deciding_rules(runs)
    for title, part in decided.groupby("model"):
        assert round(part["share %"].sum()) == 100, title
    assert (compare.winner_shares(runs).sum(axis=1).round() == 100).all()
    tracks = compare.tracks_table(runs)
    assert set(tracks[tracks.model == "Fire in the Lake"]["value"]) == {
        51,
        19,
        36,
    }  # FITL-7.2: above 50/18/35


def test_compare_deciding_number_matches_each_winner_rule():
    from wargames.notebook import compare

    runs = compare.stored_runs()
    tet = runs["tet"]
    x = compare.deciding_number("tet", tet)
    assert ((x > 0) == (tet["winner"] == "Allied")).all() and (
        (x < 0) == (tet["winner"] == "Communist")
    ).all()
    row = runs["row"]
    lead = compare.deciding_number("row", row)
    assert ((lead > 0) == (row["winner"] == "Capitalist")).all()  # ROW-12.1: a tie goes to the Communist
    assert (compare.deciding_number("fitl", runs["fitl"]) >= 0).all()
    assert compare.result_edges("yotr") == [8.5, 14.5]
    assert compare.margin_of_error(0.5, 100) == pytest.approx(0.098, abs=1e-3)


def test_compare_hidden_facts_count_what_each_view_masks():
    from wargames.notebook import compare

    yotr = compare.load_at_turn("yotr", 2)
    facts = compare.hidden_facts(yotr)
    by_side = facts.groupby("side")["count"].sum()
    assert by_side["Communist"] == 0 and by_side["Allied"] > 0  # YOTR-MOV-M: only the Allies are in the dark
    face_down = sum(1 for u in yotr.view("Allied").state["units"] if not u["face_up"])
    assert facts[(facts.side == "Allied") & (facts["state entry"] == "units")]["count"].iloc[0] == face_down
    assert compare.masked([1, 2, 3], 3) == 3 and compare.masked({"a": 1, "b": 2}, {"a": 1}) == 1


def test_compare_find_scenario_by_a_word_of_its_id_or_title(monkeypatch):
    from wargames.notebook import compare

    assert compare.find_scenario("yotr", "easter") == "historical"  # the title names the Easter Offensive
    assert compare.find_scenario("row", "year") in {
        "year-in-i-corps",
        "i-corps-air-war",
    }  # both titles say "A Year"
    assert compare.find_scenario("row", "zzz") is None
    monkeypatch.setattr(compare, "scenarios", lambda g: ["year-in-i-corps", "tet-offensive"])
    monkeypatch.setattr(compare, "scenario_title", lambda g, s: s)
    assert (
        compare.find_scenario("row", "tet") == "tet-offensive"
    )  # not "year-in-i-corps" (no word starts with tet)


def test_compare_fitl_tet_card_and_charts():
    from wargames.fitl.cards import event_effect
    from wargames.notebook import compare
    from wargames.notebook.charts import (
        hidden_figure,
        spread_figure,
        tracks_by_turn_figure,
        winner_shares_figure,
    )

    ev = event_effect(124, "VC")
    assert (
        ev["terror"] > 0
        and "change" not in ev["pieces"]
        and ev["run"].done
        and list(ev["markers"].index) == ["US", "ARVN", "NVA", "VC"]
    )
    assert (ev["markers"]["after"] - ev["markers"]["before"] == ev["markers"]["change"]).all()
    runs = compare.stored_runs()
    assert winner_shares_figure(compare.winner_shares(runs)) is not None
    assert len(spread_figure(compare.spread_panels(runs)).children) == 4
    hidden = [compare.hidden_facts(compare.load_at_turn("tet", 2))]
    assert hidden_figure(compare.hidden_totals(hidden)) is not None
    tracks = compare.tracks_by_turn(wargames.load("row", seed=0))
    assert list(tracks["turn"]) == list(range(1, len(tracks) + 1))
    assert tracks_by_turn_figure(tracks, title="t", levels={"US Unrest": 31}).y_range.end > 31


def test_compare_event_games_prefer_a_stored_run_of_that_scenario(tmp_path, monkeypatch):
    from wargames.notebook import compare

    (tmp_path / "row_200.csv").write_text("seed,winner,rule,turn\n0,Capitalist,ROW-12.1,4\n")
    (tmp_path / "row_tet-offensive_2.csv").write_text(
        "seed,winner,rule,turn\n0,Communist,ROW-12.1,3\n1,,ROW-12.1,3\n"
    )
    monkeypatch.setattr(compare, "results_dir", lambda: tmp_path)
    frame, source = compare.event_games("row", "tet-offensive")
    assert source == "the stored run benchmarks/results/row_tet-offensive_2.csv"
    assert list(frame["winner"]) == ["Communist", "none"]
    monkeypatch.setattr(compare, "event_run", lambda g, s, n: ("live", g, s, n))
    assert compare.event_games("row", "eastertide") == (
        ("live", "row", "eastertide", 3),
        "3 games played live (seeds 0-2)",
    )


def test_compare_event_table_says_each_models_result_in_words():
    import pandas as pd

    from wargames.notebook import compare

    runs = {
        "tet": pd.DataFrame({"winner": ["Allied", "Allied", "none", "Communist"]}),
        "yotr": pd.DataFrame({"winner": ["none"]}),
    }
    markers = pd.DataFrame({"change": {"US": -11, "ARVN": -4, "NVA": 0, "VC": 8}})
    t = compare.event_table("tet", runs, markers, None, None)
    assert list(t["result"]) == [
        "Allied 50%, draw 25%, Communist 25% of 4 stored games",
        "US -11, ARVN -4, NVA +0, VC +8 on the victory markers",
        "not played",
    ]
    assert t["how it appears"].iloc[2] == "(no scenario for it registered yet)"
    e = compare.event_table(
        "easter", runs, markers, "year-in-i-corps", pd.DataFrame({"winner": ["Communist"]})
    )
    assert (
        e["result"].iloc[0] == "draw 100% of 1 stored games"
        and e["result"].iloc[2] == "Communist 100% of 1 games"
    )
    with pytest.raises(KeyError):
        compare.event_table("hue", runs, markers, None, None)


def test_tet_map_draws_only_what_map_layers_say():
    """Issue #14 item 2: the Tet map's fixed layers and its counters come from ``game.map_layers(side)``: a game
    whose layers say something else (a renamed city, another terrain, an insurrection, a unit moved) is drawn
    saying that, and a MapView update patches its sources from the layers again."""
    import copy

    import wargames

    g = wargames.load("tet", seed=1)
    real = g.map_layers
    edits = {"insurrection": True}

    def changed(side=None):
        layers = copy.deepcopy(real(side))
        pl = layers["places"]
        pl["name"][pl["id"].index("hue")] = "Renamed Hue"
        i = pl["id"].index("12")
        pl["facts"][i]["terrain"] = "marsh"
        if edits["insurrection"]:
            layers["markers"]["place"].append("hue")
            layers["markers"]["kind"].append("insurrection")
            layers["markers"]["text"].append("Insurrection")
        return layers

    g.map_layers = changed
    s = tetmap.static_layers(g)
    assert (
        "Renamed Hue" in s["cities"]["name"]
        and "Renamed Hue" in s["cities"]["tip"][s["cities"]["id"].index("hue")]
    )
    j = s["provinces"]["id"].index("12")
    assert s["provinces"]["fill"][j] == tetmap.TERRAIN_FILL["marsh"] and s["provinces"]["hatch"][j] != " "
    dyn = tetmap.dynamic_layers(g, "Allied")
    assert "hue" in dyn["insurrection"]["id"]
    assert "Renamed Hue" in dyn["insurrection"]["tip"][dyn["insurrection"]["id"].index("hue")]
    view = MapView(g, "Allied")
    src = view.sources["insurrection"]
    assert "hue" in src.data["id"]
    edits["insurrection"] = False
    view.update()
    assert view.sources["insurrection"] is src and "hue" not in src.data["id"]  # patched, not replaced


@pytest.mark.parametrize("game", ["tet", "yotr", "fitl", "row"])
def test_compare_reads_each_games_declared_victory_facts(game):
    """Issue #29 item 4: every game declares its victory facts (thresholds, the deciding number and its rule, the
    edges), and the comparison reads them instead of branching on the game's id."""
    import inspect

    from wargames.core.registry import game_type, victory_facts
    from wargames.notebook import compare

    facts = victory_facts(game)
    assert facts.thresholds and facts.number_rule.startswith(game_type(game).rule_prefix)
    assert compare.thresholds(game) == {t.score: (t.meaning, t.value) for t in facts.thresholds}
    assert compare.deciding(game) == (facts.number_name, facts.number_rule)
    frame = compare.stored_runs()[game].head(5)
    assert list(compare.deciding_number(game, frame)) == [facts.number(r) for r in frame.to_dict("records")]
    src = inspect.getsource(compare)
    assert "if game ==" not in src and 'game == "' not in src


# ------------------------------------------------------------------------------------------- pictures
def test_issue31_item4_a_widget_has_a_hidden_picture_with_its_maps_and_texts():
    """Issue #31 item 4: the picture shown if a reopened notebook cannot draw a widget: hidden until then, with the
    map's Bokeh document and the widget's texts, buttons and lists; a widget showing nothing has none."""
    import json
    import re

    import ipywidgets as W
    from bokeh.plotting import figure
    from jupyter_bokeh import BokehModel

    from wargames.notebook.pictures import picture_html

    fig = figure(title="Hue and Quang Tri")
    fig.scatter([1], [2])
    box = W.VBox(
        [
            W.HTML("<b>Turn 1</b>: the NVA moves"),
            W.HBox([W.Button(description="Next phase"), W.Checkbox(description="Details", value=True)]),
            W.Select(options=["Attack Hue", "Wait"], value="Wait"),
            BokehModel(fig),
            W.HTML("never seen", layout=W.Layout(display="none")),
        ]
    )
    pic = picture_html(box)
    assert 'class="wg-picture" style="display:none"' in pic
    assert "<b>Turn 1</b>: the NVA moves" in pic and "Next phase" in pic and "&#9745; Details" in pic
    assert '<li style="font-weight:bold">Wait</li>' in pic and "never seen" not in pic
    maps = json.loads(re.search(r'-maps">(.*?)</script>', pic, re.S).group(1).replace("<\\/", "</"))
    assert len(maps) == 1 and "Hue and Quang Tri" in json.dumps(maps[0]["docs_json"])
    assert 'data-wg-map="0"' in pic and "Error displaying widget" in pic  # the script looks for that message
    assert picture_html(W.VBox([W.HTML("")])) is None
    # the maps' own widget (one message an update, issue #31 item 5) is a map in the picture too
    from wargames.notebook.bokehmap import BurstModel

    burst = picture_html(W.VBox([BurstModel(figure(title="Da Nang"))]))
    assert burst is not None and 'data-wg-map="0"' in burst and "Da Nang" in burst


def test_issue31_item4_notebooks_get_pictures_and_voila_apps_do_not(monkeypatch):
    import os

    import ipywidgets as W
    from IPython.core.interactiveshell import InteractiveShell

    from wargames.notebook import pictures

    shell = InteractiveShell.instance()
    fmt = shell.display_formatter.ipython_display_formatter
    kept = (dict(fmt.type_printers), dict(fmt.deferred_printers))
    for key in [k for k in os.environ if k.startswith("VOILA_")]:
        monkeypatch.delenv(key)
    try:
        assert pictures.install(shell)
        assert fmt.lookup(W.Button()) is pictures._show
        monkeypatch.setenv("VOILA_BASE_URL", "/")
        assert pictures.in_voila() and not pictures.install(shell)
    finally:  # the shell is this process's: leave its display as it was
        fmt.type_printers, fmt.deferred_printers = kept


def test_issue31_item4_a_picture_is_drawn_again_after_a_cell_changes_its_widget():
    """Issue #31 item 4 (the *last* maps and widgets): after a cell, the picture of a widget whose texts or map
    changed is drawn again with the map as it is now; an unchanged widget's picture is left alone."""
    import ipywidgets as W
    from bokeh.models import ColumnDataSource
    from bokeh.plotting import figure
    from jupyter_bokeh import BokehModel

    from wargames.notebook.pictures import _Shown

    class Handle:
        def __init__(self):
            self.shown: list[str] = []

        def update(self, obj):
            self.shown.append(obj.data)

    src = ColumnDataSource({"x": [1], "y": [2], "name": ["Hue"]})
    fig = figure()
    fig.scatter("x", "y", source=src)
    text = W.HTML("Turn 1")
    box = W.VBox([text, BokehModel(fig)])
    handle = Handle()
    shown = _Shown(box, handle)
    shown.refresh()
    assert handle.shown == []
    text.value = "Turn 2"
    shown.refresh()
    assert len(handle.shown) == 1 and "Turn 2" in handle.shown[0]
    src.data = {"x": [1], "y": [2], "name": ["Quang Tri"]}  # a map change alone
    shown.refresh()
    assert len(handle.shown) == 2 and "Quang Tri" in handle.shown[1]
    shown.refresh()
    assert len(handle.shown) == 2


def test_issue31_item4_pictures_mode_first_keeps_pictures_as_first_shown(monkeypatch):
    """``$WARGAMES_PICTURES=first`` (CI's notebook runs): no picture is drawn again after a cell; a bad value is
    refused naming the variable."""
    from wargames.notebook import pictures

    class Boom:
        def refresh(self):
            raise AssertionError("refreshed")

    monkeypatch.setattr(pictures, "_SHOWN", [Boom()])
    monkeypatch.setenv("WARGAMES_PICTURES", "first")
    pictures.refresh_all()
    monkeypatch.setenv("WARGAMES_PICTURES", "sometimes")
    with pytest.raises(ValueError, match="WARGAMES_PICTURES must be last, first or off"):
        pictures.mode()
