"""Play widgets: names instead of ids in the action list (issue #19 item 3), the grouped rulings panel with its
details toggle (item 4), and the Rumor of War play widget and map (issue #15 item 4)."""

from __future__ import annotations

import statistics

import pytest

import wargames

pytest.importorskip("bokeh")
pytest.importorskip("ipywidgets")

from wargames.core.actions import Action  # noqa: E402
from wargames.notebook import PlayGame, RulingPanel  # noqa: E402
from wargames.notebook.rowmap import RowMapView, row_unit_chips  # noqa: E402


# ------------------------------------------------------------------------------------------- names, not ids
def test_tet_display_label_names_the_areas_of_a_move():
    g = wargames.load("tet", seed=1)
    a = Action.make("move", "NVA 1st Div (18): S4 -> 21 (one step)", ("S4", "21"), unit="x", to="21")
    assert g.display_label(a) == (
        "NVA 1st Div (18): Plei Trap-Chu Pong (Base Area 702) -> Kontum (21) (one step)"
    )


def test_display_label_leaves_a_name_already_there_and_other_numbers_alone():
    g = wargames.load("tet", seed=1)
    a = Action.make("fight", "Fight the battle in Kontum (21), 21 steps", ("21",))
    assert g.display_label(a) == a.label  # the label names Kontum (21) already
    b = Action.make("move", "x: S4 -> 210", ("S4",))
    assert g.display_label(b) == "x: Plei Trap-Chu Pong (Base Area 702) -> 210"  # 210 is not the id 21


def test_fitl_and_row_display_names():
    f = wargames.load("fitl", seed=1)
    assert f.display_name("pleiku_darlac") == "Pleiku-Darlac"
    r = wargames.load("row", seed=1)
    assert r.display_name("arvn_2div") == r.rows["arvn_2div"].name
    assert r.display_name("2244") == "Khe Sanh Combat Base / Lang Vei (2244)"
    assert r.display_name("2143") == "2143"  # a hex without a town keeps its number (drawn on the map)
    a = Action.make(
        "activate", "Activate ARVN division arvn_2div (0 MP from the HQ)", ("3854",), unit="arvn_2div"
    )
    assert "arvn_2div" not in r.display_label(a) and r.rows["arvn_2div"].name in r.display_label(a)


def test_map_click_message_names_the_area():
    pg = PlayGame("fitl", side="VC", seed=1)
    ch = pg.walk.chooser
    ch.filter_area("pleiku_darlac")
    assert "pleiku_darlac" not in ch.prompt.value and "Pleiku-Darlac" in ch.prompt.value


# ------------------------------------------------------------------------------------------- rulings panel
def test_panel_groups_every_ruling_since_my_decision_with_a_details_toggle():
    pg = PlayGame("row", side="Capitalist", seed=1)
    w = pg.walk
    panel = w.rulings
    assert isinstance(panel, RulingPanel) and panel.details.value is False
    w.chooser.apply(w.game.legal_actions()[-1])
    text = panel.html.value
    since = w._since_my_decision()
    assert f"Since your last decision: {len(w.game.log) - since} ruling(s)" in text
    assert (
        text.count("<details open") >= 2
    )  # one group per turn, phase and side, every one open (a heading folds it)
    assert "Communist Player Turn" in text
    every = [r.seq for r in w.game.log[since:]]
    assert len(panel.shown) == len(every)  # every ruling since, not the newest six
    assert "ROW-" not in text  # plain cards: no rule ids ...
    panel.details.value = True
    assert "ROW-" in panel.html.value  # ... until the student asks for the details


# ------------------------------------------------------------------------------------------- Rumor of War
@pytest.fixture(scope="module")
def rowplay():
    return PlayGame("row", side="Capitalist", seed=1)


def test_row_play_widget_opens_on_the_students_first_decision(rowplay):
    g = rowplay.game
    assert g.decision is not None and g.decision.side == "Capitalist" and g.player_for("Capitalist") is None
    assert isinstance(rowplay.walk.map, RowMapView)
    assert "Capitalist" in rowplay.side_box.options and "Communist" in rowplay.side_box.options


def test_row_chips_count_every_piece_on_the_map_in_the_window():
    g = wargames.load("row", seed=1)
    chips = row_unit_chips(g, None)["chips"]
    total = sum(2 if t == "HQ2" else 1 if t == "HQ" else int(t) for t in chips["text"])
    assert total == len(g.pos)
    assert all(g.window.contains(h) for h in chips["hex"])
    assert "HQ" in chips["text"]


def test_row_spent_units_get_pale_chips_and_markers_a_red_border():
    g = wargames.load("row", seed=1)
    alone = [u for u in g.pos if list(g.pos.values()).count(g.pos[u]) == 1]
    uid = next(u for u in alone if g.rows[u].kind == "unit")
    g.fresh[uid] = False
    g.markers[uid] = ["OOC"]
    chips = row_unit_chips(g, None)["chips"]
    i = chips["hex"].index(g.pos[uid])
    assert chips["text"][i] == "1" and "spent" in chips["tip"][i] and "OOC" in chips["tip"][i]
    assert chips["text_color"][i] != "white" and chips["line_color"][i] == "#e00000"


def test_row_map_click_filters_the_actions_to_that_hex_twice_in_a_row():
    pg = PlayGame("row", side="Communist", seed=2)
    g, w = pg.game, pg.walk
    for _ in range(40):  # the student's sub-choices until one names hexes
        if any(a.places for a in g.legal_actions()):
            break
        w.chooser.apply(g.default_player("Communist").choose(g, g.decision))
    hexes = w.map.sources["options"].data["hex"]
    assert hexes, "the pending decision's hexes are ringed on the map"
    tiles = w.map.sources["hexes"]
    for _ in range(2):
        tiles.selected.indices = [tiles.data["hex"].index(hexes[0])]
        assert w.chooser.actions and all(hexes[0] in a.places for a in w.chooser.actions)
        w.chooser.filter_area(None)
        tiles.selected.indices = []


def test_row_map_update_after_a_decision_is_fast(rowplay):
    m = rowplay.walk.map
    for _ in range(10):
        m.update()
    assert statistics.median(m.update_times) < 0.05  # issue #15: <= 50 ms in the kernel


def test_row_back_returns_to_the_students_previous_decision():
    pg = PlayGame("row", side="Capitalist", seed=3)
    g, w = pg.game, pg.walk
    before = (g.position, g.digest(), g.decision.prompt)
    w.chooser.apply(g.legal_actions()[0])
    assert g.position != before[0]
    w.stepper.back.click()
    assert (g.position, g.digest(), g.decision.prompt) == before
    assert "It is your decision again" in w.stepper.message.value


# ------------------------------------------------------------------------------------------- the advisor
def test_advisor_completes_a_run_of_sub_choices_with_reasons_and_back_takes_it_back_whole():
    pg = PlayGame("tet", side="Allied", seed=1)
    g, w = pg.game, pg.walk
    while g.decision.rule_id != "TET-P2-8":  # to the first fire group: add units one by one
        w.advise()
    before = (g.position, g.digest())
    n = len(g.record)
    w.advise()
    run = g.record[n:]
    mine = [e for e in run if e.get("side") == "Allied"]
    assert len(mine) >= 2, "a fire group is several additions, made in one press"
    assert all(e["by"] == "advisor" and e["why"] for e in mine)
    assert "made" in w.chooser.message.value and html_text(mine[0]["why"]) in w.chooser.message.value
    assert g.decision is None or g.decision.rule_id != "TET-P2-8" or g.decision.side != "Allied"
    w.stepper.back.click()
    assert (g.position, g.digest()) == before
    assert "advisor" in w.stepper.message.value


def test_advisor_is_off_when_the_game_is_not_waiting_for_the_student():
    pg = PlayGame("row", side="Capitalist", seed=1)
    assert not pg.walk.advisor.disabled
    pg.game.set_players({"Capitalist": pg.game.default_player("Capitalist")})
    pg.walk.play_to_my_turn()
    assert pg.game.is_over and pg.walk.advisor.disabled


def test_the_selected_choice_is_shown_in_full_under_the_list():
    pg = PlayGame("fitl", side="VC", seed=1)
    ch = pg.walk.chooser
    ch.choose(len(ch.actions) - 1)
    assert ch.label(ch.actions[-1]) in html_unescape(ch.full.value)


def html_text(s: str) -> str:
    import html

    return html.escape(s)


def html_unescape(s: str) -> str:
    import html

    return html.unescape(s)


def test_row_prompts_and_plain_rulings_name_units_not_ids():
    pg = PlayGame("row", side="Capitalist", seed=1)
    w, g = pg.walk, pg.game
    w.chooser.apply_selected()
    assert "vc_" not in w.rulings.html.value  # plain cards: "802nd Battalion", not "vc_802"
    assert (
        g.display_text("Activate a unit with arvn_2div_hq (0 of 4)")
        == f"Activate a unit with {g.rows['arvn_2div_hq'].name} (0 of 4)"
    )
    assert (
        g.display_text("drawn from the ME_HASTY mug") == "drawn from the Meeting Engagement/Hasty mug"
    )  # the mug's table id in words (issue #31)


def test_the_last_decision_says_the_game_is_over_instead_of_a_stale_applied_line():
    pg = PlayGame("row", side="Capitalist", seed=1)
    g, w = pg.game, pg.walk
    bot = g.default_player("Capitalist")
    while not g.is_over:
        w.chooser.apply(bot.choose(g, g.decision))
    assert "The game is over" in w.chooser.message.value and "Applied" not in w.chooser.message.value
    assert g.result.title in w.chooser.message.value
