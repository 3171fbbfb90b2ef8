"""Rumor of War: the three larger scenarios (The Tet Offensive, Eastertide, The Vietnam War campaign).

The scenario book is absent, so every scenario is a reconstruction (decisions R-SCN-21..43 of
``data/row/decisions.csv``).  These tests hold the files to the rules they rest on: every datum has a source,
every unit stands where 14.6 lets it, the turns are calendar seasons (R-SCN-29), the chart arrives on supply
sources (13.1.1), the special rules are data (effect: pinned, R-SCN-28), per-season awards never pass the zero
rule (R-SCN-41), the blocks of the rules still being built are set aside (R-SCN-22), bad files are refused naming
file and line, and each scenario plays to an end with the built-in players and with random players on both sides.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
import yaml

import wargames
from wargames.core.data import DataError
from wargames.core.registry import known_games, register
from wargames.testing import random_play

if "row" not in known_games():  # until the package is reinstalled with its entry point (pyproject.toml)
    register("row", "wargames.row.game:RowGame")

from wargames.row.hexmap import load_map  # noqa: E402
from wargames.row.scenario import load_calendar, load_scenario, may_stand, scenario_names  # noqa: E402
from wargames.row.units import load_units  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SCEN = ROOT / "data" / "row" / "scenarios"
LARGER = ("tet-offensive", "eastertide", "vietnam-war")
FIRST = {"tet-offensive": 11, "eastertide": 28, "vietnam-war": 1}
LAST = {"tet-offensive": 12, "eastertide": 29, "vietnam-war": 40}


def _write(tmp_path: Path, name: str, edit) -> Path:
    data = yaml.safe_load((SCEN / f"{name}.yaml").read_text(encoding="utf-8"))
    edit(data)
    p = tmp_path / f"{name}.yaml"
    p.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return p


# --------------------------------------------------------------------------- the files
@pytest.mark.parametrize("name", LARGER)
def test_row_13_1_larger_scenarios_are_listed_on_the_calendar(name):
    """R-SCN-02 / R-SCN-29: each scenario's turns are calendar seasons that list it."""
    assert name in scenario_names()
    sc = load_scenario(name)
    assert (sc.first_turn, sc.last_turn) == (FIRST[name], LAST[name])
    cal = load_calendar()
    assert all(name in (cal[t].scenarios or "").split(";") for t in sc.turns)
    assert sc.map_window.cols == (1, 45) and sc.map_window.rows == (1, 99)  # R-SCN-21: the whole map


@pytest.mark.parametrize("name", LARGER)
def test_row_13_1_every_entry_of_the_larger_scenarios_has_a_source(name):
    """Project rule: every row carries its source (history: external:, reconstruction: with reasoning)."""
    data = yaml.safe_load((SCEN / f"{name}.yaml").read_text(encoding="utf-8"))
    kinds = ("rules:", "external:", "reconstruction:", "decision:")
    checked = 0

    def walk(node, where: str, entry: bool, covered: bool = False) -> None:
        """``covered``: inside a block whose own ``source`` speaks for its plain lists (the air: block's aircraft
        and airfield ids, R-SCN-44)."""
        nonlocal checked
        if isinstance(node, list):
            for i, x in enumerate(node):
                walk(
                    x,
                    f"{where}[{i}]",
                    not (
                        covered
                        and isinstance(x, dict)
                        and "source" not in x
                        and set(x) <= {"id", "improved", "aircraft", "airfields"}
                    ),
                    covered,
                )
        elif isinstance(node, dict):
            if node and all(isinstance(v, dict) for v in node.values()) and "source" not in node:
                for k, v in node.items():  # a mapping of entries (theater_commanders)
                    walk(v, f"{where}.{k}", True)
                return
            if entry:
                assert str(node.get("source", "")).startswith(kinds), (name, where, node)
                checked += 1
            for k, v in node.items():  # a mapping of plain values (objective values, invasion costs) is data
                if (
                    isinstance(v, dict)
                    and set(v) <= {"Capitalist", "Communist"}
                    and all(isinstance(x, list) and all(isinstance(y, str) for y in x) for x in v.values())
                ):
                    continue  # names by side (an award's unless_missions, R-WAR-39): data of the entry
                if isinstance(v, list) or (
                    isinstance(v, dict) and not all(isinstance(x, (int, str, bool)) for x in v.values())
                ):
                    walk(v, f"{where}.{k}", isinstance(v, dict), covered or "source" in node)

    for key, block in data.items():
        walk(block, key, isinstance(block, dict))
    assert checked > 50
    assert str(data["source"]).startswith(kinds)


@pytest.mark.parametrize("name", LARGER)
def test_row_14_6_larger_scenarios_set_up_every_unit_on_a_legal_hex(name):
    """ROW-14.6 / R-SCN-16: every set-up and arrival hex is land its nationality may stand on."""
    sc, u, m = load_scenario(name), load_units(), load_map()
    for p in sc.setup:
        assert may_stand(u[p.unit], p.hex, m, tuple(sc.us_areas)) is None, p
    for r in sc.reinforcements:
        assert may_stand(u[r.unit], r.at, m, tuple(sc.us_areas)) is None, r


def test_row_13_1_every_corps_area_and_the_border_bases_are_in_play():
    """R-SCN-21: the larger scenarios put forces in all four Corps areas and the Communist in Laos/Cambodia and
    North Vietnam, so the bots must handle the whole map."""
    m = load_map()
    for name in LARGER:
        areas = {m.area(p.hex) for p in load_scenario(name).setup}
        assert {"I Corps", "II Corps", "III Corps", "IV Corps", "CMD"} <= areas, name
        assert areas & {"Laos", "Cambodia"} and areas & {"North Vietnam", "DMZ"}, name


def test_row_13_1_3_the_campaign_chart_builds_up_then_withdraws():
    """R-SCN-39: US formations arrive 1965-68 (turns 1-13) and leave 1969-73 (turns 17-32); PAVN divisions keep
    coming; no unit is withdrawn before it is in play."""
    sc, u = load_scenario("vietnam-war"), load_units()
    us_in = [r.turn for r in sc.reinforcements if u[r.unit].nationality == "US"]
    us_out = [w.turn for w in sc.withdrawals if u[w.unit].nationality == "US" and w.unit != "us_27mar"]
    assert max(us_in) <= 13 and min(us_out) >= 17 and max(us_out) <= 32
    # R-WAR-30: the one earlier departure is the 27th Marines, flown in after Tet and home in September 1968
    assert [w.turn for w in sc.withdrawals if w.unit == "us_27mar"] == [13]
    pavn_in = [r.turn for r in sc.reinforcements if u[r.unit].nationality == "PAVN"]
    assert min(pavn_in) <= 2 and max(pavn_in) >= 27
    arrival = {r.unit: r.turn for r in sc.reinforcements}
    placed = {p.unit for p in sc.setup}
    for w in sc.withdrawals:
        assert w.unit in placed or arrival[w.unit] < w.turn, w
    # R-SCN-39, R-SCN-44: the air war is in play (no fixed air_support list); the wings go home after Case-Church
    assert not sc.air_support and any(w.turn == 33 for w in sc.air.withdrawals)


def test_row_decisions_of_the_larger_scenarios_are_recorded():
    with open(ROOT / "data" / "row" / "decisions.csv", encoding="utf-8") as f:
        ids = {r["id"] for r in csv.DictReader(f)}
    assert {f"R-SCN-{n:02d}" for n in range(21, 45)} <= ids
    # each decision is applied somewhere: cited by a scenario file's sources or by the code that implements it
    cited = "".join(
        p.read_text(encoding="utf-8")
        for p in [*SCEN.glob("*.yaml"), *(ROOT / "wargames" / "row").glob("*.py")]
    )
    assert all(f"R-SCN-{n:02d}" in cited for n in range(21, 45))


# --------------------------------------------------------------------------- bad files
def test_row_13_1_loader_refuses_a_unit_on_a_sea_hex_in_the_tet_offensive(tmp_path):
    def edit(d):
        d["setup"][3]["hex"] = "4545"

    p = _write(tmp_path, "tet-offensive", edit)
    with pytest.raises(DataError) as e:
        load_scenario(path=p)
    text = str(e.value)
    assert str(p) in text and "line" in text and "setup[3].hex" in text and "all-sea" in text


def test_row_13_1_loader_refuses_an_unknown_hq_in_eastertide(tmp_path):
    def edit(d):
        d["leaders"][0]["hq"] = "arvn_xx_corps_hq"

    p = _write(tmp_path, "eastertide", edit)
    with pytest.raises(DataError) as e:
        load_scenario(path=p)
    assert str(p) in str(e.value) and "leaders[0].hq" in str(e.value) and "unknown HQ" in str(e.value)


def test_row_13_1_loader_refuses_an_unknown_key_in_the_campaign(tmp_path):
    def edit(d):
        d["setup"][0]["facing"] = "north"
        d["victory"]["awards"][0]["bonus"] = 1

    p = _write(tmp_path, "vietnam-war", edit)
    with pytest.raises(DataError) as e:
        load_scenario(path=p)
    assert str(p) in str(e.value) and "setup[0].facing" in str(e.value) and "line" in str(e.value)

    def top(d):
        d["weather"] = {"monsoon": True, "source": "reconstruction: x"}

    with pytest.raises(DataError, match="weather"):
        load_scenario(path=_write(tmp_path, "vietnam-war", top))


def test_row_r_scn_44_the_blocks_of_the_larger_scenarios_need_a_source(tmp_path):
    """R-SCN-22, R-SCN-44: the politics/trail/fleet/air blocks are read by their rules; without a source a block is
    refused, naming it."""
    sc = load_scenario("tet-offensive")
    assert sc.air is not None and sc.fleet is not None and sc.politics is not None and sc.trail is not None

    def edit(d):
        del d["politics"]["source"]

    with pytest.raises(DataError, match="politics.source"):
        load_scenario(path=_write(tmp_path, "tet-offensive", edit))


def test_row_r_scn_41_only_a_per_season_award_may_take_vps_away(tmp_path):
    def edit(d):
        d["victory"]["awards"][1]["vp"] = -2

    with pytest.raises(DataError, match="R-SCN-41"):
        load_scenario(path=_write(tmp_path, "tet-offensive", edit))

    def hexes(d):
        gap = next(a for a in d["victory"]["awards"] if a["id"] == "credibility_gap")
        gap["hexes"] = ["2284"]

    with pytest.raises(DataError, match="per-season"):
        load_scenario(path=_write(tmp_path, "vietnam-war", hexes))


# --------------------------------------------------------------------------- in play
def _bots_until(g, stop, limit: int = 20000):
    for _ in range(limit):
        if stop() or g.is_over:
            return
        g.advance("ruling")


def test_row_r_scn_29_game_turns_are_calendar_seasons():
    """R-SCN-29: the Tet Offensive's first game turn is Winter 1968 (calendar turn 11); its chart and events are
    read by season (the air war of R-SCN-44 included)."""
    g = wargames.load("row", "tet-offensive", seed=0)
    assert g.turn == 1 and g.season == 11
    _bots_until(g, lambda: any(r.rule_id == "ROW-9.5" for r in g.log))  # the HQ missions of the first season
    assert g.turn == 1 and g.season == 11
    _bots_until(g, lambda: any(r.title == "Event: tet truce" for r in g.log))
    assert all("Low Morale" in g.markers[u] for u in ("arvn_7div", "arvn_9div", "arvn_21div", "arvn_25div"))


def test_row_r_scn_28_pinned_units_are_never_activated_or_moved():
    """R-SCN-28: the 26th Marines hold Khe Sanh in Winter 1968 (khe_sanh_held): no activation option names them."""
    g = wargames.load("row", "tet-offensive", seed=2)
    assert g._surprised("us_26mar") and not g._surprised("us_9mar")
    offered = []
    while not g.is_over and g.season == 11:
        d = g.decision
        if d is not None:
            offered += [
                a
                for a in d.options
                if a.get("unit") == "us_26mar"
                and a.kind in ("activate_unit", "strategic_unit", "reserve_unit")
            ]
        g.advance("decision")
    assert not offered


def test_row_r_scn_41_the_credibility_gap_never_goes_below_zero():
    """R-SCN-41: the campaign's credibility gap (-9 VP a season after R-WAR-05) stops at 0 (no zero-rule transfer)."""
    g = wargames.load("row", "vietnam-war", seed=0)
    _bots_until(g, lambda: any(r.title == "Award: Credibility gap" for r in g.log))
    r = next(r for r in g.log if r.title == "Award: Credibility gap")
    assert -9 <= r.result["vp"] <= 0 and r.rule_id == "ROW-12.1.2"
    assert g.vp["us_military_victory"] >= 0


@pytest.mark.parametrize("name", ["tet-offensive", "eastertide"])
def test_row_12_1_short_scenarios_play_to_the_end_with_the_built_in_players(name):
    g = wargames.load("row", name, seed=0)
    g.play()
    assert g.is_over and g.result.result["winner"] in ("Capitalist", "Communist")
    assert g.season <= LAST[name]
    assert {e.get("by") for e in g.record if "act" in e} >= {"RowBot"}


def test_row_12_1_the_campaign_plays_to_an_end_with_the_built_in_players():
    g = wargames.load("row", "vietnam-war", seed=0)
    g.play()
    assert g.is_over and g.result.result["winner"] in ("Capitalist", "Communist")
    assert g.season > 1  # the war outlasts its first season (R-SCN-41, R-SCN-42)


@pytest.mark.parametrize(
    "name,seed",
    [("tet-offensive", 1), ("tet-offensive", 2), ("eastertide", 1), ("eastertide", 2), ("vietnam-war", 1)],
)
def test_row_random_play_of_the_larger_scenarios_keeps_invariants_saves_and_back(name, seed):
    """DESIGN test layer 4 on the larger scenarios: random players on both sides (a student on either side meets
    only Decisions with legal options), invariants after every decision, saves and Back round-trip."""
    g = random_play("row", seed, name)
    assert g.is_over


def test_row_3_0_a_student_may_play_either_side_of_eastertide():
    """Every choice is a Decision: with a person on one side, the game stops only at that side's decisions."""
    for side in ("Capitalist", "Communist"):
        g = wargames.load("row", "eastertide", seed=3)
        g.set_players({side: None})
        for _ in range(3):
            g.advance("end")  # the built-in player plays the other side; stops at the person's decision
            d = g.decision
            assert d is not None and d.side == side and d.options
            g.apply(d.options[0])


# --------------------------------------------------------------------------- the numbers the notebooks show
def test_row_12_1_vp_sources_add_up_to_the_tracks():
    """ROW-12.1: every change of the two victory tracks is a ruling with its cause (wargames.row.runs.vp_sources):
    the starting levels plus the changes give the final tracks; the season rows follow the calendar."""
    from wargames.row.runs import play_with_tracks, vp_sources

    g, seasons = play_with_tracks("eastertide", seed=4)
    sc = g.scenario
    gains = {"Capitalist": 0, "Communist": 0}
    for row in vp_sources(g):
        gains[row["side"]] += row["vp"]
        assert sc.first_turn <= row["season"] <= sc.last_turn
    assert sc.level("US Military Victory") + gains["Capitalist"] == g.vp["us_military_victory"]
    assert sc.level("US Public Unrest") + gains["Communist"] == g.vp["us_unrest"]
    assert [r["season"] for r in seasons] == list(range(28, g.season + 1))
    assert (seasons[-1]["us_military_victory"], seasons[-1]["us_unrest"]) == (
        g.vp["us_military_victory"],
        g.vp["us_unrest"],
    )


def test_row_13_1_chart_by_season_counts_the_chart():
    """ROW-13.1 / 13.1.3: the formations by the chart alone, season by season (set-up + arrivals - withdrawals)."""
    from wargames.row.runs import chart_by_season

    chart = chart_by_season("vietnam-war")
    assert len(chart) == 40 and chart[0]["label"] == "Summer 1965" and chart[-1]["label"] == "Spring 1975"
    us = [r["US"] for r in chart]
    top = max(
        us
    )  # the peak from Winter 1968 (season 11: the Tet reinforcements, R-WAR-30) to Spring 1969 (16), then the
    # withdrawals; none after 1973
    assert us.index(top) == 10 and us[15] == top and us[16] < top and us[-1] == 0
    assert (
        chart[0]["US"] == 11 and chart[1]["US"] == 11 + 6
    )  # Summer 1965 arrivals are counted in their season


def test_row_r_war_38_the_credibility_gap_only_while_the_americans_fight():
    """R-WAR-38: a per-season loss with ``us_units_at_least`` is taken only in an End Phase with that many American
    units on the map; the ruling says how many there were.  Summer 1965 has about ten: a gap needing 50 takes 0."""
    g = wargames.load("row", "vietnam-war", seed=0)
    awards = [
        a.model_copy(update={"us_units_at_least": 50}) if a.id == "credibility_gap" else a
        for a in g.scenario.victory.awards
    ]
    g.scenario = g.scenario.model_copy(
        update={"victory": g.scenario.victory.model_copy(update={"awards": awards})}
    )
    _bots_until(g, lambda: any(r.title == "Award: Credibility gap" for r in g.log))
    r = next(r for r in g.log if r.title == "Award: Credibility gap")
    assert r.result["vp"] == 0 and "fewer than the 50 it needs" in r.explanation


def test_row_r_war_38_only_a_per_season_award_depends_on_the_americans(tmp_path):
    def edit(d):
        hue = next(a for a in d["victory"]["awards"] if a["id"] == "hue_secure")
        hue["us_units_at_least"] = 5

    with pytest.raises(DataError, match="R-WAR-38"):
        load_scenario(path=_write(tmp_path, "vietnam-war", edit))


def test_row_r_war_39_attention_does_not_fade_in_the_season_of_an_offensive():
    """R-WAR-39: the campaign's attention_fades is not taken in an End Phase whose Communist mission is an Offensive
    or the General Uprising (the shock itself); the ruling names the mission; any other season it is taken."""
    sc = load_scenario("vietnam-war")
    fade = next(a for a in sc.victory.awards if a.id == "attention_fades")
    assert fade.unless_missions == {"Communist": ["general_uprising", "offensive"]}
    gap = next(a for a in sc.victory.awards if a.id == "credibility_gap")
    assert gap.us_units_at_least == 5
    g = wargames.load("row", "vietnam-war", seed=0)
    _bots_until(
        g, lambda: any(r.title == "Award: Credibility gap" for r in g.log)
    )  # the award before the fade
    g.vp["us_unrest"] = 8
    g.missions["Communist"] = "general_uprising"
    _bots_until(g, lambda: any(r.title == "Award: Public attention fades" for r in g.log))
    r = next(r for r in g.log if r.title == "Award: Public attention fades")
    assert r.result["vp"] == 0 and "general uprising" in r.explanation


def test_row_r_war_39_unless_missions_names_real_missions(tmp_path):
    def edit(d):
        fade = next(a for a in d["victory"]["awards"] if a["id"] == "attention_fades")
        fade["unless_missions"] = {"Communist": ["tet"]}

    with pytest.raises(DataError, match="R-WAR-39"):
        load_scenario(path=_write(tmp_path, "vietnam-war", edit))
