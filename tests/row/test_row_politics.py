"""Rumor of War politics (wargames.row.politics): Chinese intervention (12.2), US elections (14.5), theater
commanders and their changes (14.2.1), invasions (14.6.1); decisions R-POL-nn and R-LDR-nn.

The pure rulings are tested directly; the game procedures run inside a game of A Year in I Corps given the
optional ``politics`` block through the ``extras`` game option (a what-if), and random play with the blocks on
keeps the invariants."""

from __future__ import annotations

from pathlib import Path

import pytest

import wargames
from wargames.core import Action, IllegalAction
from wargames.core.data import DataError
from wargames.core.dice import Dice
from wargames.core.registry import known_games, register
from wargames.core.rulings import Ruling
from wargames.testing import unstarted

if "row" not in known_games():
    register("row", "wargames.row.game:RowGame")

from tests.row.specials_play import random_play_with  # noqa: E402
from wargames.row import politics as P  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SRC = {"source": "reconstruction: test what-if"}
POLITICS = {
    "china": {"in_play": True, **SRC},
    "commander_changes": True,
    "may_invade": ["LAO"],
    "invasion_unrest": {"LAO": 2},
    "party": "Democrats",
    "elections": True,
    **SRC,
}


def dice(*values: int) -> Dice:
    d = Dice(0)
    d.force(values)
    return d


def drive(game, gen, pick=lambda d: d.options[0]):
    """Run one game procedure (a generator) to its end: rulings collected, decisions answered by ``pick``."""
    out, send = [], None
    while True:
        try:
            item = gen.send(send)
        except StopIteration:
            return out
        if isinstance(item, Ruling):
            game.log.append(item)
            out.append(item)
            send = None
        else:
            send = pick(item)


def game_with(extras: dict | None = None, seed: int = 1):
    g = unstarted("row", "year-in-i-corps", seed, {"extras": extras or {"politics": POLITICS}})
    g.turn = 1
    return g


# ------------------------------------------------------------------------------------------ 12.2
def test_row_12_2_no_capitalist_unit_outside_no_roll():
    r = P.china_check(dice(1), 0, 0)
    assert r.result == {"roll": False, "intervened": False} and not r.dice


@pytest.mark.parametrize(
    "roll,in_nvn,in_laos,yes",
    [
        (1, 1, 0, True),
        (2, 1, 0, True),
        (3, 1, 0, False),
        (1, 0, 2, True),
        (2, 0, 2, False),
        (10, 3, 3, False),
    ],
)
def test_row_12_2_thresholds_north_vietnam_1_2_laos_1(roll, in_nvn, in_laos, yes):
    r = P.china_check(dice(roll), in_nvn, in_laos)
    assert r.result == {"roll": True, "intervened": yes} and r.dice[0].value == roll
    assert r.lookup["needed"] == ([1, 2] if in_nvn else [1])


def test_row_12_2_no_second_roll_once_china_is_in_and_bad_counts_refused():
    assert P.china_check(dice(1), 2, 0, already=True).result == {"roll": False, "intervened": True}
    with pytest.raises(IllegalAction, match="ROW-12.2"):
        P.china_check(dice(1), -1, 0)


def test_row_12_2_intervention_in_the_game_r_pol_01_02():
    g = game_with()
    drive(g, g.setup_levels())
    drive(g, g.setup_capitalist())
    g.vp["us_unrest"], g.vp["unrest_floor"] = 12, 10
    g.place("us_3mar", "2138")  # Dong Hoi, North Vietnam
    infra = g.pools["Communist Infrastructure"]
    g.dice.force([2])
    rs = drive(g, g.chinese_intervention_check())
    assert rs[0].result == {"roll": True, "intervened": True}
    assert g.china_in() and g.commander_id("Communist") == "ye_jianying"
    assert g.pools["Communist Infrastructure"] == min(19, infra + 10)
    assert g.vp["us_unrest"] == 2  # -10 passes the breakpoint 10 (12.2)
    # every VP award doubled, 3 replacement points a turn, forced free Offensive (R-POL-02)
    assert g._vp_value("casualties") == 2
    rep = g.pools["Communist Replacements"]
    drive(g, g.china_replacements())
    assert g.pools["Communist Replacements"] == rep + 3
    sup = g.pools["Capitalist Supply"]
    drive(g, g.declare_missions())
    assert (
        g.missions == {"Capitalist": "offensive", "Communist": "offensive"}
        and g.pools["Capitalist Supply"] == sup
    )


def test_row_12_2_scenario_without_politics_keeps_the_moot_check():
    g = unstarted("row", "year-in-i-corps", 1)
    g.turn = 1
    assert g.pol == {} and "pol" not in g.state_dict()
    rs = drive(g, g.chinese_intervention_check())
    assert rs[0].result == {"roll": False}


# ------------------------------------------------------------------------------------------ 14.5
@pytest.mark.parametrize(
    "year,mv,unrest,winner",
    [
        (1968, 8, 7, "Democrats"),
        (1968, 7, 7, "Republicans"),
        (1972, 3, 9, "Republicans"),
        (1972, 9, 9, "Republicans"),
        (1972, 10, 9, "Democrats"),
    ],
)
def test_row_14_5_election_winner_ties_to_the_republicans_r_pol_03(year, mv, unrest, winner):
    assert P.election(year, mv, unrest).result == {"winner": winner}


def test_row_14_5_no_election_outside_1968_and_1972():
    with pytest.raises(IllegalAction, match="ROW-14.5"):
        P.election(1970, 1, 1)


def test_row_14_5_a_republican_win_in_the_game():
    g = game_with()
    for proc in (g.setup_levels(), g.setup_capitalist(), g.setup_communist()):
        drive(g, proc)
    g.turn = 14  # Fall 1968 on the calendar
    g.vp.update(us_unrest=12, unrest_floor=10, us_military_victory=4, secret_ops=3, secret_ops_allowed=False)
    assert g.election_turn()
    rs = drive(g, g.us_election())
    assert rs[0].result == {"winner": "Republicans"} and g.pol["party"] == "Republicans"
    assert g.vp["secret_ops"] == 0 and g.vp["secret_ops_allowed"] and g.pol["free_unrestricted"] == 3
    assert sum("Low Morale" in m for m in g.markers.values()) == 3
    assert g.vp["us_unrest"] == 10  # -3 stops at the breakpoint 10 (12.1.2, R-POL-03)


# ------------------------------------------------------------------------------------------ 14.2.1
def test_row_14_2_1_abrams_needs_unrest_10_and_lowers_it_by_up_to_10():
    assert P.commander_change_options("westmoreland", 9, 1968) == []
    opts = P.commander_change_options("westmoreland", 12, 1968)
    assert [a["reduce"] for a in opts if a.kind == "change_commander"] == list(range(10, -1, -1))
    assert opts[-1].kind == "keep_commander"


def test_row_14_2_1_weyand_needs_15_not_in_1974_75_and_is_never_replaced():
    assert P.commander_change_options("abrams", 14, 1972) == []
    assert P.commander_change_options("abrams", 15, 1972)[0]["reduce"] == 5
    assert P.commander_change_options("abrams", 20, 1974) == []
    assert P.commander_change_options("weyand", 30, 1973) == []
    with pytest.raises(IllegalAction, match="Weyand may not be replaced"):
        P.check_commander_change(
            "weyand", Action.make("change_commander", "x", leader="abrams", reduce=0), 30, 1973
        )
    with pytest.raises(IllegalAction, match="ROW-14.2.1"):
        P.check_commander_change(
            "westmoreland", Action.make("change_commander", "x", leader="abrams", reduce=11), 12, 1968
        )


def test_row_14_2_1_the_change_in_the_game_r_ldr_01():
    g = game_with({"politics": {**POLITICS, "may_invade": []}})
    drive(g, g.setup_levels())
    g.vp.update(us_unrest=13, unrest_floor=10)
    rs = drive(g, g.political_decisions())  # the first option: the largest reduction
    assert g.commander_id("Capitalist") == "abrams" and g.commander("Capitalist") == "Abrams"
    assert g.vp["us_unrest"] == 10  # 13 - 10 stops at the breakpoint 10
    assert any(r.rule_id == "ROW-14.2.1" and r.result == {"leader": "abrams", "reduce": 10} for r in rs)
    assert g._vp_value("casualties") == 2  # Abrams: a Casualty VP counts 2 (14.2.1)


def test_row_14_2_1_an_replaces_giap_in_spring_1974_r_ldr_02():
    g = game_with()
    for proc in (g.setup_levels(), g.setup_capitalist()):
        drive(g, proc)
    g.turn = P.AN_TURN
    tank = g.pools["PAVN Tank"]
    drive(
        g,
        g.political_decisions(),
        pick=lambda d: d.options[-1] if d.rule_id == "ROW-14.6.1" else d.options[0],
    )
    assert g.commander_id("Communist") == "nguyen_huu_an" and g.pools["PAVN Tank"] == min(19, tank + 10)
    assert sum("Poor" in g.markers[u] for u in g.pos if g.rows[u].nationality == "ARVN") == 2


# ------------------------------------------------------------------------------------------ 14.6.1
def test_row_14_6_1_invasion_lets_us_units_into_laos_and_costs_the_scenarios_unrest_r_pol_04():
    g = game_with({"politics": {**POLITICS, "commander_changes": False}})
    drive(g, g.setup_levels())
    assert "LAO" not in g.situation().invaded
    drive(g, g.political_decisions())
    assert g.pol["invaded"] == ["LAO"] and "LAO" in g.situation().invaded and g.vp["us_unrest"] == 2


def test_row_extras_bad_block_refused_naming_the_option():
    with pytest.raises(DataError, match="options.extras"):
        unstarted("row", "year-in-i-corps", 1, {"extras": {"politics": {"party": "Whigs", **SRC}}})
    with pytest.raises(DataError, match="PRC counter"):
        unstarted(
            "row",
            "year-in-i-corps",
            1,
            {"extras": {"politics": {"china": {"prc_units": ["us_3mar"], **SRC}, **SRC}}},
        )
    with pytest.raises(DataError, match="extras"):
        unstarted("row", "year-in-i-corps", 1, {"extras": {"weather": {}}})


def test_row_politics_whole_game_with_the_block_is_deterministic_and_explained():
    g = wargames.load("row", seed=3, extras={"politics": POLITICS})
    g.play()
    again = wargames.load("row", seed=3, extras={"politics": POLITICS})
    again.play()
    assert g.is_over and again.digest() == g.digest() and g.pol["party"] == "Democrats"
    assert g.pol["invaded"] == []  # the bot never invades (bots.py, politics.bot_choice)


@pytest.mark.parametrize("seed", [1, 2])
def test_row_politics_random_play_keeps_the_invariants(seed):
    g = random_play_with(seed, {"politics": POLITICS})
    assert g.is_over and "pol" in g.state_dict()


def test_row_14_2_1_a_chart_event_changes_the_commander_without_unrest_r_ldr_03(tmp_path):
    g = game_with()
    g.vp["us_unrest"] = 12
    text = g.chart_commander("abrams")
    assert g.commander("Capitalist") == "Abrams" and g.vp["us_unrest"] == 12 and "R-LDR-03" in text
    # the scenario file: a commander event needs the politics block and names a theater commander
    from wargames.row.scenario import load_scenario

    base = (ROOT / "data/row/scenarios/year-in-i-corps.yaml").read_text(encoding="utf-8")
    ev = (
        '\n  - {turn: 3, id: abrams, kind: commander, leader: abrams, summary: "Abrams takes MACV.", '
        'source: "reconstruction: test"}\n'
    )
    bad = base.replace(
        "\nevents:                  # chart events (R-SCN-15); kind text: history for the narration, "
        "no game effect\n",
        "\nevents:\n" + ev.lstrip("\n"),
    )
    assert bad != base
    p = tmp_path / "year-in-i-corps.yaml"
    p.write_text(bad, encoding="utf-8")
    with pytest.raises(DataError, match="politics block"):
        load_scenario("year-in-i-corps", p)
    p.write_text(
        bad.replace("leader: abrams,", "leader: hoang_xuan_lam,")
        + "\npolitics: {source: 'reconstruction: t'}\n",
        encoding="utf-8",
    )
    with pytest.raises(DataError, match="one theater commander"):
        load_scenario("year-in-i-corps", p)
    p.write_text(
        bad + "\npolitics: {commander_changes: true, source: 'reconstruction: t'}\n", encoding="utf-8"
    )
    assert any(e.kind == "commander" for e in load_scenario("year-in-i-corps", p).events)


# ------------------------------------------------------------------------------------------ 14.2.1 combat effects
def test_row_14_2_1_giap_and_an_planning_relief():
    from wargames.row.leaders import planning_relief

    assert (
        planning_relief("vo_nguyen_giap", "VC")
        == {"artillery": 1}
        == planning_relief("vo_nguyen_giap", "PAVN")
    )
    assert (
        planning_relief("nguyen_huu_an", "PAVN") == {"tank": 1}
        and planning_relief("nguyen_huu_an", "VC") == {}
    )
    assert planning_relief("ye_jianying", "PAVN") == {} and planning_relief("westmoreland", "ARVN") == {}


def test_row_14_2_1_westmoreland_denies_arvn_support_without_a_us_unit_near_r_ldr_04():
    from wargames.row.leaders import westmoreland_arvn

    r = westmoreland_arvn("westmoreland", ["ARVN"], us_near=False)
    assert r is not None and r.rule_id == "ROW-14.2.1"
    assert westmoreland_arvn("westmoreland", ["ARVN"], us_near=True) is None
    assert westmoreland_arvn("abrams", ["ARVN"], us_near=False) is None
    assert westmoreland_arvn("westmoreland", ["ARVN", "US"], us_near=False) is None


def test_row_14_2_1_ye_jianying_two_chits_general_uprising_three_r_ldr_05():
    from wargames.row.leaders import chits_to_draw

    assert chits_to_draw("Communist", "offensive", "ye_jianying") == 2
    assert chits_to_draw("Communist", "general_uprising", "ye_jianying") == 3
    assert chits_to_draw("Communist", "general_uprising", "vo_nguyen_giap") == 3
    assert chits_to_draw("Communist", "infiltrate", "vo_nguyen_giap") == 1
    assert chits_to_draw("Capitalist", "offensive", "ye_jianying") == 1


def test_row_12_2_e14_summer_1965_no_capitalist_unit_outside_no_roll_and_supply_reset():
    """Digest example E14 (16.0 public excerpt): Summer 1965, no Capitalist unit in North Vietnam or Laos: A1 makes
    no Chinese roll; A2a sets Supply to the Infrastructure 8 and Helicopter Used to Available 4."""
    g = wargames.load("row", seed=1, extras={"politics": POLITICS})
    g.play()
    a1 = next(r for r in g.log if r.step == "a1")
    assert a1.result == {"roll": False, "intervened": False}
    a2a = next(r for r in g.log if r.step == "a2a")
    assert a2a.result["Capitalist Supply"] == 8 and a2a.result["Helicopter Used"] == 4


def test_row_14_6_1_an_invasion_the_scenario_does_not_allow_is_refused_and_the_game_unchanged():
    from wargames.testing import refused

    g = wargames.load("row", seed=1, extras={"politics": POLITICS})
    g.set_players({s: None for s in g.sides})
    while g.decision is None or g.decision.rule_id != "ROW-14.6.1":
        g.apply(g.legal_actions()[-1]) if g.decision is not None else g.advance("decision")
    refused(g, Action.make("invade", "Invade North Vietnam", country="NVN"))
    g.apply(next(a for a in g.legal_actions() if a.kind == "invade"))
    assert g.pol["invaded"] == ["LAO"]


def test_row_12_2_prc_units_enter_on_the_north_edge_sources_or_wait_r_pol_01():
    prc = {
        "politics": {
            **POLITICS,
            "china": {"in_play": True, "prc_units": ["prc_1aaa_div", "prc_2eng_div"], **SRC},
        }
    }
    g = game_with(prc)
    drive(g, g.setup_levels())
    assert g.box["prc_1aaa_div"] == "china"
    g.window_land = frozenset(g.window_land | {"2207"})  # a what-if window reaching the PRC source at 2207
    g.place("us_3mar", "2138")
    g.dice.force([1])
    rs = drive(g, g.chinese_intervention_check())
    assert g.pos["prc_1aaa_div"] == "2207" and g.fresh["prc_1aaa_div"]
    assert g.pos["prc_2eng_div"] == "2207"  # all PRC units enter; several may share a source hex
    g2 = game_with(prc)  # in A Year in I Corps' own window no PRC source is in play: they wait
    drive(g2, g2.setup_levels())
    g2.place("us_3mar", "2138")
    g2.dice.force([1])
    rs2 = drive(g2, g2.chinese_intervention_check())
    assert g2.box["prc_1aaa_div"] == "china" and any(r.title == "PRC unit waits" for r in rs2)
    assert any(r.title == "PRC unit enters" for r in rs)


def test_row_14_5_a_politics_block_without_elections_holds_none():
    g = game_with({"politics": {**POLITICS, "elections": False}})
    drive(g, g.setup_levels())
    g.turn = 14
    rs = drive(g, g.us_election())
    assert rs[0].result == {"election": False} and g.pol["party"] == "Democrats"


def test_row_12_2_a_scenario_keeping_china_out_never_rolls_r_pol_05():
    g = game_with({"politics": {"invaded": ["LAO"], **SRC}})
    drive(g, g.setup_levels())
    drive(g, g.setup_capitalist())
    g.place("us_9mar", "2446")  # Laos
    rs = drive(g, g.chinese_intervention_check())
    assert rs[0].result == {"roll": False, "intervened": False} and "R-POL-05" in rs[0].explanation
