"""The Ho Chi Minh Trail (14.7, wargames.row.trail): active termini (14.7.1, digest examples E11 and E12) and
ground interdiction (14.7.2; decisions R-TRL-01, R-TRL-02)."""

from __future__ import annotations

import pytest

from wargames.core import IllegalAction
from wargames.core.registry import known_games, register

if "row" not in known_games():
    register("row", "wargames.row.game:RowGame")

from tests.row.specials_play import random_play_with  # noqa: E402
from tests.row.test_row_politics import SRC, drive, game_with  # noqa: E402
from wargames.row.trail import active_termini  # noqa: E402

TRAIL = {"trail": {"interdiction": True, "markers": 2, **SRC}, "politics": {"invaded": ["LAO"], **SRC}}


def test_row_14_7_1_e11_status_4_no_markers_termini_1_to_4():
    assert active_termini(4).result == [1, 2, 3, 4]


def test_row_14_7_1_e12_status_6_two_markers_termini_1_to_4():
    r = active_termini(6, 2)
    assert r.result == [1, 2, 3, 4] and "5, 6 are not" in r.explanation


def test_row_14_7_1_more_markers_than_status_and_bad_values():
    assert active_termini(1, 3).result == []
    with pytest.raises(IllegalAction, match="ROW-14.7.1"):
        active_termini(7)
    with pytest.raises(IllegalAction, match="ROW-14.7.1"):
        active_termini(3, -1)


def _trail_game():
    g = game_with(TRAIL)
    for proc in (g.setup_levels(), g.setup_capitalist(), g.setup_communist()):
        drive(g, proc)
    return g


def test_row_14_7_2_a_unit_whose_zoc_reaches_the_trail_places_one_marker_and_cuts_a_terminus():
    g = _trail_game()
    assert g.trail_status == 4 and g.active_terminus_numbers() == [1, 2, 3, 4]
    g.place("us_9mar", "2446")  # Laos (invaded), next to trail hexes 2346 and 2547; 2447 holds the PAVN 18th
    rs = drive(g, g.trail_step())
    assert g.trail_markers() == {"2346": "ground"}  # one marker for the one unit, the first hex offered
    assert rs[-1].result == [1, 2, 3] and g.active_terminus_numbers() == [1, 2, 3]
    assert g.map.terminus(4) not in g.tracer().termini and g.map.terminus(3) in g.tracer().termini
    # the marker stays while the unit reaches it, and a second pass places no second marker for the same unit
    drive(g, g.trail_step())
    assert g.trail_markers() == {"2346": "ground"}
    # a Communist unit on the hex removes the marker (R-TRL-02)
    g.place("pavn_18rgt", "2346")
    drive(g, g.trail_step())
    assert "2346" not in g.trail_markers()


def test_row_14_7_2_countermix_limit_and_air_markers_repaired_r_trl_02():
    g = _trail_game()
    drive(g, g.interdict_trail("1844", "air"))
    drive(g, g.interdict_trail("2549", "air"))
    assert g.active_terminus_numbers() == [1, 2]
    before = g.digest()
    with pytest.raises(IllegalAction, match="countermix"):
        drive(g, g.interdict_trail("2550", "air"))
    with pytest.raises(IllegalAction, match="not a Ho Chi Minh Trail hex"):
        drive(g, g.interdict_trail("3448", "air"))
    assert g.digest() == before
    drive(g, g.trail_step())  # the Communist repairs air damage by the next supply status step
    assert g.trail_markers() == {}


def test_row_14_7_2_without_the_block_nothing_is_placed():
    g = game_with({"politics": {"invaded": ["LAO"], **SRC}})
    for proc in (g.setup_levels(), g.setup_capitalist(), g.setup_communist()):
        drive(g, proc)
    g.place("us_9mar", "2446")
    assert drive(g, g.trail_step()) == [] and g.trail_markers() == {}


def test_row_14_7_random_play_with_the_trail_in_play():
    g = random_play_with(4, TRAIL)
    assert g.is_over


def test_row_14_7_2_the_bot_answers_the_trail_marker_by_its_own_rule_not_the_air_wars():
    """The Trail Interdicted marker decision names its kind (``trail_marker``), so the built-in player answers it
    with the trail's rule (the first trail hex in reach) and never with the air interdiction answer, whose options
    share the action kind ``interdict``."""
    from wargames.core import Decision
    from wargames.row.bots import RowBot

    g = _trail_game()
    g.place("us_9mar", "2446")
    d = next(x for x in g.trail_step() if isinstance(x, Decision))
    bot = RowBot("Capitalist", 0)
    a = bot.choose(g, d)
    assert d.kind == "trail_marker" and a.kind == "interdict" and a["hex"] == "2346"
    assert "trail hex" in bot.last_reason
