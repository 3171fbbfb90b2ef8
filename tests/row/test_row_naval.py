"""Rumor of War: naval power (ROW-11.x, ``wargames.row.naval``) on the lesson variant "A Year in I Corps under
Rolling Thunder": the 7th Fleet's station is a Capitalist decision each season (11.1), its bombardment reaches only
combats near its own sea zone (11.2, R-NAV-02), and Navy aircraft fly from the carriers (11.4, test_row_air)."""

from __future__ import annotations

from fractions import Fraction

import wargames
from wargames.core import Action
from wargames.row.bots import RowBot
from wargames.row.scenario import load_scenario, scenario_names
from wargames.row.units import load_units
from wargames.testing import refused

from .test_row_air import SCEN, fresh, pick, run

DA_NANG, CAM_RANH = "3448", "4176"  # I Corps (north of the Station line) and II Corps coast (south of it)


def test_row_11_1_the_fleet_station_is_a_capitalist_decision():
    """Decision R-NAV-01."""
    g = fresh()
    assert g.airwar["station"] == "Yankee"
    _, rs = run(g, g.fleet_move(), pick(station="Dixie"))
    assert rs[-1].rule_id == "ROW-11.1" and rs[-1].result == {"station": "Dixie", "from": "Yankee"}
    assert g.airwar["station"] == "Dixie"


def test_row_11_1_bad_station_is_refused_and_the_game_unchanged():
    g = fresh()
    for _ in range(3000):
        d = g.decision
        if d.rule_id == "ROW-11.1":
            break
        g.apply(d.options[-1])
    assert {a["station"] for a in g.decision.options} == {"Yankee", "Dixie"}
    refused(g, Action.make("fleet_station", station="Tonkin"))


def test_row_11_2_bombardment_reaches_only_the_fleets_own_zone():
    """Decision R-NAV-02: 2 hexes from an all-sea hex of the station's zone."""
    g = fresh()
    g.airwar["station"] = "Yankee"
    assert g.fleet_reaches(DA_NANG) and not g.fleet_reaches(CAM_RANH)
    g.airwar["station"] = "Dixie"
    assert g.fleet_reaches(CAM_RANH) and not g.fleet_reaches(DA_NANG)


def test_row_11_2_without_a_fleet_block_nothing_changes():
    g = wargames.load("row", "year-in-i-corps", seed=0)
    assert not g.fleet_on() and "station" not in g.airwar


def test_row_11_1_bot_keeps_the_fleet_where_the_enemy_is_and_says_why():
    g = fresh()
    bot = RowBot("Capitalist")
    for _ in range(3000):
        d = g.decision
        if d.rule_id == "ROW-11.1":
            break
        g.apply(d.options[-1])
    a = bot.choose(g, g.decision)
    # every Communist unit of A Year in I Corps stands north of the Station line
    assert a["station"] == "Yankee" and "Communist units" in bot.last_reason


def test_row_11_0_the_fleet_moves_in_a_whole_game():
    g = wargames.load("row", SCEN, seed=2)
    g.play()
    moves = [r for r in g.log if r.rule_id == "ROW-11.1" and r.title == "Fleet redeployment"]
    assert len(moves) == 4 and all(r.result["station"] in ("Yankee", "Dixie") for r in moves)


def test_row_11_3_1_amphibious_landings_are_the_14_1_3_move_whatever_the_station():
    """Decision R-NAV-03: the fleet's station does not change the Marine landing options of 14.1.3."""
    g = fresh()
    g.place("us_1_1mar", "3448")
    g.airwar["station"] = "Yankee"
    yankee = g._landings("us_1_1mar")
    g.airwar["station"] = "Dixie"
    assert yankee and g._landings("us_1_1mar") == yankee
    for a in yankee:  # 14.1.3: a third of an MP a hex
        hexes = int(a.label.rsplit("(", 1)[1].split(" ")[0])
        assert Fraction(a["mp"]) == Fraction(hexes, 3)


def test_row_11_5_no_scenario_holds_a_riverine_unit_yet():
    """Decision R-NAV-04: riverine movement is not modelled because no scenario has such a unit; this fails as
    soon as one does, so the rule gets written with it."""
    units = load_units()
    for name in scenario_names():
        sc = load_scenario(name)
        ids = [p.unit for p in sc.setup] + [r.unit for r in sc.reinforcements]
        assert not [u for u in ids if units[u].has("riverine")], name


def test_row_11_4_navy_ground_support_counts_only_on_the_fleets_side_of_the_station_line():
    from .test_row_air import clear_boxes, put

    g = fresh()
    clear_boxes(g)
    put(g, "cvw_21", "ground_support", airfield="carriers")  # ground support 4 -1 monsoon = 3
    put(g, "usmc_1maw", "ground_support", airfield="da_nang")  # 5 -1 = 4
    g.pools["US Air"] = 7
    assert g.fleet_zone(DA_NANG) == "Yankee" and g.fleet_zone(CAM_RANH) == "Dixie"
    assert g.air_pools(DA_NANG)["US Air"] == 7
    g.airwar["station"] = "Dixie"
    assert g.air_pools(DA_NANG)["US Air"] == 4 and g.pools["US Air"] == 7
    assert not g.navy_may_fly_at("cvw_21", DA_NANG) and g.navy_may_fly_at("usmc_1maw", DA_NANG)
