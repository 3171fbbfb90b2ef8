"""What a student reads names places and units, never ids, and never gives away what their side may not see
(issue #19 items 1-2): Year of the Rat action labels and prompts by unit names (decision D-69), a face-down
Communist counter as "a Communist unit" to the Allies; the bots' reasons (stored unchanged) shown through the
game's display function for the student's side, another side's reasons hidden in games with hidden information."""

from __future__ import annotations

import re

import pytest

import wargames
from wargames.yotr.game import HIDDEN_UNIT


def _ids_pattern(ids) -> re.Pattern[str]:
    """Raw ids as whole words (not inside "hidden@..." map ids, not an id in brackets after its name)."""
    alt = "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True))
    return re.compile(rf"(?<![\w@(])({alt})(?![\w)])")


def _text_ids(g) -> list[str]:
    """The ids of a game that a text must not show raw: counters, units, spaces, lettered areas."""
    if g.game_id == "yotr":
        return list(g.forces)
    if g.game_id == "tet":
        return [a for a, row in g.data.areas.items() if not a.isdigit() and row.kind != "box"] + list(
            g.data.units
        )
    if g.game_id == "fitl":
        return list(g.data.spaces)
    return list(g.rows)


def _bots_play(g, decisions: int, check) -> None:
    """Both sides' built-in players make ``decisions`` decisions; ``check(decision)`` runs before each, and the
    reason is recorded as the engine records a bot's."""
    g.set_players({s: None for s in g.sides})
    bots = {s: g.default_player(s) for s in g.sides}
    g.advance("end")
    for _ in range(decisions):
        if g.is_over:
            break
        d = g.decision
        check(d)
        bot = bots[d.side]
        act = bot.choose(g, d)
        g.apply(act, by=type(bot).__name__, why=str(getattr(bot, "last_reason", "") or ""))
        g.advance("end")


# ------------------------------------------------------------------------------ Year of the Rat: unit names
def test_yotr_every_counter_of_every_order_of_battle_has_a_unique_name_from_the_data():
    g = wargames.load("yotr", seed=1)
    names = [u.name for u in g.data.oob.values()] + [v.name for v in g.data.ob_variants if v.change == "add"]
    assert all(names) and len(names) == len(set(names))
    assert g.data.oob["arvn_qt_4"].name == "ARVN 4th Quang Tri"
    assert g.display_name("arvn_qt_4", "Allied") == "ARVN 4th Quang Tri (1-6)"


def test_yotr_a_face_down_counter_is_a_communist_unit_to_the_allies_and_named_to_its_owner():
    g = wargames.load("yotr", seed=1)
    g.advance("decision")
    assert g.hidden_from("dummy_1", "Allied") and not g.hidden_from("dummy_1", "Communist")
    assert g.display_name("dummy_1", "Allied") == HIDDEN_UNIT == "a Communist unit"
    assert g.display_name("dummy_1", "Communist") == g.display_name("dummy_1") == "NVA dummy 1"
    why = "units are moved one by one in order; next is dummy_1"  # a Communist bot's stored reason
    assert g.display_text(why, "Allied") == "units are moved one by one in order; next is a Communist unit"
    assert (
        g.display_text("NVA 5-6 (nva_3) retreats", "Allied") == "NVA 5-6 retreats"
    )  # the face a ruling showed
    assert g.display_text("NVA 5-6 (nva_3) retreats", "Communist") == "NVA 3rd (5-6) retreats"
    assert g.display_text("dummy dummy_2 is removed", "Allied") == "a Communist unit is removed"
    assert (
        g.display_text("hidden@3609#1 stays", "Allied") == "hidden@3609#1 stays"
    )  # map ids are not counter ids


@pytest.mark.parametrize("scenario", ["historical", "standard"])
def test_yotr_labels_prompts_and_rulings_show_no_raw_id_and_never_a_hidden_counter(scenario):
    g = wargames.load("yotr", scenario=scenario, seed=1)
    raw = _ids_pattern(g.forces)
    seen = {"Allied": 0, "Communist": 0}

    def check(d) -> None:
        shown = [g.display_text(d.prompt, d.side)] + [g.display_label(a, d.side) for a in g.legal_actions()]
        for text in shown:
            assert not raw.search(text), f"{d.side} reads a raw id: {text}"
        seen[d.side] += len(shown)
        if d.side == "Allied":
            hidden = [g.forces[u].name for u in g.forces if g.hidden_from(u, "Allied")]
            for text in shown:
                assert "dummy" not in text.lower() and not any(n in text for n in hidden), text

    _bots_play(g, 700 if scenario == "historical" else 250, check)
    assert seen["Allied"] > 100 and seen["Communist"] > 100
    for side in g.sides:  # every ruling as a side reads it in the panel
        for r in g.log:
            r = r.for_side(side)
            for text in (g.display_text(r.title, side), g.display_text(r.explanation, side)):
                assert not raw.search(text), f"{side} reads a raw id in a ruling: {text}"
                assert side == "Communist" or not re.search(r"\bNVA dummy \d", text), text


# ------------------------------------------------------------------------------ the bots' reasons, each game
SEATS = [("tet", "Allied"), ("yotr", "Allied"), ("fitl", "VC"), ("row", "Capitalist")]


@pytest.mark.parametrize(("game_id", "student"), SEATS)
def test_reasons_a_student_reads_name_things_and_hide_what_the_other_side_hides(game_id, student):
    g = wargames.load(game_id, seed=1)
    assert g.open_reasons == (game_id == "fitl")  # the one game without counters hidden from a side
    raw = _ids_pattern(_text_ids(g))
    _bots_play(g, 150, lambda d: None)
    rows = g.decisions(student)
    assert [(r["side"], r["by"], r["action"]) for r in rows] == [
        (r["side"], r["by"], r["action"]) for r in g.decisions()
    ]
    mine = [r for r in rows if r["side"] == student and r["why"]]
    others = [r for r in rows if g.visibility_side(r["side"]) != g.visibility_side(student)]
    assert mine and others
    for r in rows:
        assert not raw.search(r["why"]), f"a reason with an id: {r['why']}"
        assert not any(isinstance(v, str) and raw.fullmatch(v) for v in r["params"].values()), r
    if g.open_reasons:  # Fire in the Lake: every faction reads the Non-players' reasons
        assert all(r["why"] for r in others)
    else:  # the other side's reasons and parameters would tell what it hides (its face-down units, its feints)
        assert all(r["why"] == "" and r["params"] == {} for r in others)
        assert any(e["why"] for e in g.decisions() if e["side"] != student)
    frame = g.log_frame(student)
    assert not any(raw.search(t) for t in frame["title"]) and len(frame) == len(g.log)


def test_tet_partners_read_each_others_reasons_in_the_four_player_game():
    g = wargames.load("tet", seed=1, players=4)
    assert (
        g.reason_shown("NVA", "retreat to S8, where most friends are", "VC")
        == f"retreat to {g.area_name('S8')}, where most friends are"
    )
    assert g.reason_shown("NVA", "retreat to S8", "USA") is None
    assert g.reason_shown("NVA", "retreat to S8", None) == f"retreat to {g.area_name('S8')}"  # the umpire


@pytest.mark.parametrize(("game_id", "student"), SEATS)
def test_the_panel_shows_the_reasons_the_student_may_read_with_names(game_id, student):
    pytest.importorskip("ipywidgets")
    pytest.importorskip("bokeh")
    from wargames.notebook import PlayGame

    play = PlayGame(game_id, side=student, seed=1, insets=False)
    g, walk = play.game, play.walk
    raw = _ids_pattern(_text_ids(g))
    cards: list[str] = []
    for _ in range(12):
        if not walk.chooser.enabled:
            break
        walk.chooser.apply_selected()
        cards += re.findall(r'class="wg-reason"[^>]*>(.*?)</div>', walk.rulings.html.value)
    for card in cards:
        side = card.split(" (")[0]
        assert g.open_reasons or g.visibility_side(side) == g.visibility_side(student), card
        assert not raw.search(card), card
    if g.open_reasons:
        assert cards, "Fire in the Lake: the Non-players' reasons appear in the panel"
    walk.advise()  # the advisor's reasons (the student's own side) with names
    assert not raw.search(walk.chooser.message.value)


def test_yotr_limited_strategic_intelligence_names_no_communist_counter_to_the_allies():
    """D-64: the Communist OB stays hidden from the Allies, and a variant counter's name says its OB, so a counter
    face up to them reads by its face only."""
    g = wargames.load("yotr", scenario="ob-options", seed=1, lsi=True)
    while len(g.lsi_numbers) < 2:
        g.advance("ruling")
    g.face_up.add("nva_1")  # as a battle reveals it
    assert g.display_name("nva_1", "Allied") == "NVA 6-6"
    assert g.display_name("nva_1", "Communist") == "NVA 1st (6-6)"
