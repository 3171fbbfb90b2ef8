"""The built-in players' strategic game (issue #27 items 10-11; wargames.row.bot_plans, decisions R-WAR-01..03):
the HQ mission each side plans by what it can pay and what the position offers (ROW-9.5), the supply it keeps
back for it (ROW-7.1, 9.3), the commander change (ROW-14.2.1), and the campaign chart's foreign aid (ROW-7.0)."""

from __future__ import annotations

import pytest

import wargames
from wargames.row.bot_plans import COSTS, commander_change, forces, keep_back, plan_mission
from wargames.row.scenario import load_scenario


@pytest.fixture(scope="module")
def tet():
    g = wargames.load("row", "tet-offensive", 0)
    g.advance("turn")
    return g


def test_row_tet_communist_launches_the_general_uprising_rule_9_5(tet):
    """The Tet scenario's Communist can pay the General Uprising (10 supply, R-WAR-03) and his bot launches it in
    the first season, saying why; the mission ruling records it."""
    ms = {r.side: r.result["mission"] for r in tet.log if r.title == "HQ mission"}
    assert ms["Communist"] == "general_uprising"
    why = [
        d["why"]
        for d in tet.decisions()
        if d["kind"] == "declare_mission" and d["params"].get("mission") == "general_uprising"
    ]
    assert why and "General Uprising" in why[0]


def test_row_general_uprising_planned_once_a_game_rule_9_5(tet):
    """Once declared, the General Uprising is never planned again (9.5: once a game)."""
    assert plan_mission(tet, "Communist", 19)[0] != "general_uprising"


def test_row_campaign_1965_no_offensive_before_the_build_up_rule_9_5():
    """Summer 1965: 9 American units, no withdrawal yet: even with 10 supply the Communist infiltrates."""
    g = wargames.load("row", "vietnam-war", 0)
    f = forces(g)
    assert f["US"] < 30
    assert plan_mission(g, "Communist", 10)[0] == "infiltrate"
    assert plan_mission(g, "Communist", 1)[0] == "evade"  # nothing else can be paid
    assert plan_mission(g, "Capitalist", 8)[0] == "search_and_destroy"  # Westmoreland: never Vietnamization


def test_row_eastertide_communist_plans_the_offensive_rule_9_5():
    """Spring 1972: two American units left against the PAVN: with 8 supply or more, an Offensive."""
    g = wargames.load("row", "eastertide", 0)
    name, why = plan_mission(g, "Communist", 12)
    assert name == "offensive" and "Americans are going" in why
    assert plan_mission(g, "Communist", 7)[0] != "offensive"  # cannot be paid
    # the Capitalist (Abrams) with fewer Americans than ARVN on the map: Vietnamization
    assert plan_mission(g, "Capitalist", 5)[0] == "vietnamization"


def test_row_bot_keeps_the_planned_missions_cost_rule_7_1():
    g = wargames.load("row", "eastertide", 0)
    assert keep_back(g, "Communist", 12) == COSTS["Communist"]["offensive"] == 8
    assert keep_back(g, "Communist", 3) == COSTS["Communist"]["infiltrate"] == 2


class _Decision:
    def __init__(self, options):
        self.options = options


def test_row_commander_change_when_the_war_looks_lost_at_home_rule_14_2_1():
    """Abrams may replace Westmoreland from US Unrest 10 (14.2.1); the bot changes only while Unrest stands above
    US Military Victory, then with the largest reduction offered."""
    from wargames.row.politics import commander_change_options

    g = wargames.load("row", "vietnam-war", 0)
    opts = _Decision(commander_change_options("westmoreland", 12, 1967))
    g.vp["us_unrest"], g.vp["us_military_victory"] = 12, 14
    a, why = commander_change(g, opts)
    assert a.kind == "keep_commander" and "looks won" in why
    g.vp["us_military_victory"] = 3
    a, why = commander_change(g, opts)
    assert a.kind == "change_commander" and a["reduce"] == 10


def test_row_campaign_foreign_aid_every_season_rule_7_0():
    """R-WAR-01: the campaign chart gives both sides Foreign Aid to their Infrastructure every season, sourced."""
    sc = load_scenario("vietnam-war")
    for track in ("Capitalist Infrastructure", "Communist Infrastructure"):
        aid = {lc.turn for lc in sc.level_changes if lc.track == track and "R-WAR-01" in lc.source}
        assert aid == set(sc.turns), track


def test_row_r_war_31_the_uprising_waits_for_the_tet_truce_rule_9_5():
    """R-WAR-31: the chart's Tet truce (Low Morale on four ARVN divisions in Winter 1968) is the season the
    Communist reads as his moment; Summer 1965 has none, so even a paid-for uprising is not planned."""
    from wargames.row.bot_plans import shaken_arvn

    tet = wargames.load("row", "tet-offensive", 0)
    assert tet.season == 11 and shaken_arvn(tet) == 4
    name, why = plan_mission(tet, "Communist", 10)
    assert name == "general_uprising" and "on leave" in why
    war = wargames.load("row", "vietnam-war", 0)
    assert shaken_arvn(war) == 0 and plan_mission(war, "Communist", 12)[0] != "general_uprising"


def test_row_r_war_31_an_offensive_in_a_shaken_season_after_the_refit_rule_9_5(monkeypatch):
    """R-WAR-31: with the uprising spent, a season that shakes the ARVN brings an Offensive once the last offensive
    is more than REFIT_SHORT seasons back, and not before."""
    from wargames.row import bot_plans

    tet = wargames.load("row", "tet-offensive", 0)
    monkeypatch.setattr(bot_plans, "past_missions", lambda g, side: [(tet.season - 5, "general_uprising")])
    name, why = plan_mission(tet, "Communist", 8)
    assert name == "offensive" and "on leave or shaken" in why
    monkeypatch.setattr(bot_plans, "past_missions", lambda g, side: [(tet.season - 2, "general_uprising")])
    assert plan_mission(tet, "Communist", 8)[0] != "offensive"


def test_row_r_war_34_the_truce_counts_its_divisions_off_the_map_too_rule_9_5():
    """R-WAR-34: the Tet truce is the Communist's moment even when some of its four ARVN divisions have been
    destroyed by Winter 1968: the chart's event is counted, not the divisions left on the map."""
    from wargames.row.bot_plans import shaken_arvn

    tet = wargames.load("row", "tet-offensive", 0)
    for u in ("arvn_7div", "arvn_9div", "arvn_21div"):
        tet.pos.pop(u, None)
    assert shaken_arvn(tet) == 4
    assert plan_mission(tet, "Communist", 10)[0] == "general_uprising"


def test_row_r_war_35_weyand_only_once_the_americans_are_gone_rule_14_2_1(monkeypatch):
    """R-WAR-35: Abrams gives way to Weyand (15+ Unrest, 14.2.1) only once fewer than FEW_US American units stand
    on the map: under Weyand their Body Count earns nothing; with Unrest above Military Victory and the
    Americans gone the bot takes the change."""
    from wargames.row import bot_plans
    from wargames.row.politics import commander_change_options

    g = wargames.load("row", "vietnam-war", 0)
    monkeypatch.setattr(type(g), "commander", lambda self, side: "Abrams")
    opts = _Decision(commander_change_options("abrams", 16, 1970))
    g.vp["us_unrest"], g.vp["us_military_victory"] = 16, 2
    monkeypatch.setattr(bot_plans, "forces", lambda game: {"US": 20})
    a, why = commander_change(g, opts)
    assert a.kind == "keep_commander" and "20 American units still fight" in why
    monkeypatch.setattr(bot_plans, "forces", lambda game: {"US": bot_plans.FEW_US - 1})
    a, why = commander_change(g, opts)
    assert a.kind == "change_commander" and a["reduce"] == 5
