"""Reinforcements, withdrawals and replacements (13.1.1, 13.1.3, 13.2; wargames.row.reinforce and game.py):
a blocked US reinforcement is diverted to a friendly coastal city of its Corps area, other nationalities wait
(R-REI-01, R-GAME-09); the chart's withdrawals leave the game from wherever they are (13.1.3)."""

from __future__ import annotations

from wargames.core.registry import known_games, register

if "row" not in known_games():
    register("row", "wargames.row.game:RowGame")

from tests.row.test_row_politics import drive, game_with  # noqa: E402
from wargames.row.scenario import Withdrawal  # noqa: E402


def _game():
    g = game_with()
    for proc in (g.setup_levels(), g.setup_capitalist(), g.setup_communist(), g.setup_vc_cup()):
        drive(g, proc)
    return g


def test_row_13_1_1_a_us_reinforcement_whose_source_is_held_enters_a_coastal_city_of_its_corps():
    g = _game()
    g.turn = 3  # us_1mar arrives at Da Nang (3448)
    g.place("vc_r20", "3448")
    seen = []

    def pick(d):
        seen.append(d)
        return d.options[0]

    rs = drive(g, g._reinforce("Capitalist"), pick)
    d = next(x for x in seen if x.rule_id == "ROW-13.1.1")
    for a in d.options:
        h = a["hex"]
        assert g.map.settlement(h) == "city" and g.map.is_coastal(h) and g.map.area(h) == "I Corps"
    assert g.pos["us_1mar"] == d.options[0]["hex"] != "3448"
    assert any(r.title == "Reinforcement diverted" for r in rs)


def test_row_13_1_1_other_nationalities_wait_r_game_09():
    g = _game()
    g.turn = 4  # the 324B Division arrives at Vinh (1430); no PRC source in the window
    g.place("us_3mar", "1430")
    rs = drive(g, g._reinforce("Communist"))
    assert g.box["pavn_90rgt"] == "reinforcements" and "pavn_90rgt" in rs[-1].result["waiting"]


def test_row_13_1_3_withdrawals_leave_from_the_map_or_a_box():
    g = _game()
    src = "reconstruction: test"
    g.scenario = g.scenario.model_copy(
        update={
            "withdrawals": [
                Withdrawal(turn=1, unit="us_3mar", source=src),
                Withdrawal(turn=1, unit="us_5mar", source=src),
                Withdrawal(turn=2, unit="us_9mar", source=src),
            ]
        }
    )
    g.turn = 1
    rs = drive(g, g.withdrawals_step())
    assert g.box["us_3mar"] == "withdrawn" and g.box["us_5mar"] == "withdrawn" and "us_9mar" in g.pos
    assert rs[0].result == {"withdrawn": ["us_3mar", "us_5mar"]} and rs[0].rule_id == "ROW-13.1.3"
    assert drive(g, g.withdrawals_step()) == []  # nothing twice
    drive(g, g._reinforce("Capitalist"))
    assert g.box["us_5mar"] == "withdrawn"  # a withdrawn reinforcement never arrives
