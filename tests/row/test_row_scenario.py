"""Rumor of War: "A Year in I Corps", the calendar and the sequence of play as data (``wargames.row.scenario``).

The scenario book is absent, so the scenario is a reconstruction (decisions R-SCN-01..20); these tests hold it to
the rules it must obey: set-up inside the operational areas of 14.6 on land hexes of the window, reinforcements
on friendly supply sources (13.1.1), VC only by recruitment (13.1.2), created units never set up (14.1.1), the
turn track of four seasons a year (3.0) and the sequence of play of 3.0.  Bad files are refused naming file,
YAML line and entry.
"""

from __future__ import annotations

import copy
from collections import Counter
from pathlib import Path

import pytest
import yaml

import wargames
from wargames.core.data import DataError, data_root
from wargames.row.hexmap import load_map
from wargames.row.scenario import (
    load_calendar,
    load_row_sequence,
    load_scenario,
    may_stand,
    scenario_names,
    turn_label,
)
from wargames.row.units import load_units

ROW = data_root() / "row"
SCEN = ROW / "scenarios" / "year-in-i-corps.yaml"


@pytest.fixture(scope="module")
def sc():
    return load_scenario("year-in-i-corps")


@pytest.fixture(scope="module")
def u():
    return load_units()


@pytest.fixture(scope="module")
def m():
    return load_map()


def _data() -> dict:
    return yaml.safe_load(SCEN.read_text(encoding="utf-8"))


def _refused(tmp_path: Path, data: dict, match: str) -> DataError:
    p = tmp_path / "year-in-i-corps.yaml"
    p.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    with pytest.raises(DataError, match=match) as ei:
        load_scenario(path=p)
    err = ei.value
    assert err.path == str(p.resolve()) and "year-in-i-corps.yaml" in str(err)
    assert isinstance(err.row, int) and err.row > 1, str(err)
    return err


# --------------------------------------------------------------------------- counts (R-SCN-01, R-SCN-18)
def test_row_13_1_scenario_is_listed_and_classroom_sized(sc, u):
    assert "year-in-i-corps" in scenario_names()
    start = Counter((u[p.unit].side, u[p.unit].kind) for p in sc.setup)
    assert start == {
        ("Capitalist", "unit"): 20,
        ("Capitalist", "hq"): 5,
        ("Communist", "unit"): 15,
        ("Communist", "hq"): 4,
    }
    arriving = Counter((u[r.unit].side, u[r.unit].kind) for r in sc.reinforcements)
    assert arriving == {
        ("Capitalist", "unit"): 3,
        ("Capitalist", "hq"): 1,
        ("Communist", "unit"): 4,
        ("Communist", "hq"): 2,
    }
    assert len(sc.vc_cup.units) == 11
    assert all(n < 60 for n in start.values())  # tens of units per side, not hundreds
    assert sc.turns == [1, 2, 3, 4] and "Classroom-sized" in sc.classroom_note


def test_row_13_1_every_datum_has_a_source(sc):
    items = (
        sc.levels
        + sc.air_support
        + sc.supply_sources
        + sc.attachments
        + sc.setup
        + sc.leaders
        + sc.reinforcements
        + sc.level_changes
        + sc.events
        + sc.special_rules
        + sc.victory.awards
    )
    assert items and all(
        i.source.startswith(("rules:", "external:", "reconstruction:", "decision:")) for i in items
    )


def test_row_13_1_order_of_battle_is_the_history(sc, u):
    """R-SCN-18: III MAF's Marines and the ARVN I Corps against MR-5's VC, the 325th's 18th Regiment on the trail."""
    on = {p.unit: p.hex for p in sc.setup}
    for uid in (
        "us_iii_maf",
        "us_3mar",
        "us_4mar",
        "us_9mar",
        "us_7mar",
        "arvn_1div",
        "arvn_2div",
        "arvn_i_corps_hq",
        "vc_1rgt",
        "pavn_18rgt",
        "vc_mr5_hq",
    ):
        assert uid in on, uid
    assert on["us_iii_maf"] == on["arvn_i_corps_hq"] == load_map().place_hex("da_nang")
    assert on["arvn_1div"] == load_map().place_hex("hue") and on["arvn_2div"] == load_map().place_hex(
        "quang_ngai"
    )
    assert {r.unit for r in sc.reinforcements if r.turn == 4} >= {
        "us_5mar",
        "pavn_90rgt",
        "pavn_803rgt",
        "pavn_812rgt",
    }
    assert u["pavn_18rgt"].division == "325"


# --------------------------------------------------------------------------- set-up legality (14.6, R-SCN-16)
def test_row_14_6_every_unit_starts_on_a_legal_land_hex_in_the_window(sc, u, m):
    sides: dict[str, set[str]] = {}
    for p in sc.setup:
        h = m.hex(p.hex)
        assert h.kind != "sea", p
        assert sc.map_window.contains(p.hex), p
        assert may_stand(u[p.unit], p.hex, m) is None, p
        sides.setdefault(p.hex, set()).add(u[p.unit].side)
        if u[p.unit].nationality in ("US", "ARVN"):
            assert h.area in ("I Corps", "DMZ"), p  # 14.6.1 (assigned to I Corps), 14.6.2
    assert all(len(s) == 1 for s in sides.values())  # no hex holds both sides


def test_row_13_1_every_unit_starts_within_hex_reach_of_an_hq_that_may_activate_it(sc, u, m):
    """4.5, 9.1: an HQ activates units of its nationalities within 10 MP, so at least within 10 hexes
    (Special Forces never move and need no activation, 14.1.5)."""
    hqs = [p for p in sc.setup if u[p.unit].kind == "hq"]
    for p in sc.setup:
        x = u[p.unit]
        if x.kind != "unit" or x.has("special_forces"):
            continue
        assert any(
            x.nationality in u[h.unit].activates_nations and m.distance(p.hex, h.hex) <= 10 for h in hqs
        ), p


def test_row_14_6_may_stand_applies_each_nationality_s_areas(u, m):
    laos, dmz, sea = m.place_hex("tchepone"), m.place_hex("vinh_linh"), "3751"
    assert "14.6.1" in may_stand(u["us_3mar"], laos, m)
    assert may_stand(u["us_3mar"], dmz, m) is None  # 14.6.4: the DMZ is I Corps for the Capitalist
    assert "14.6.2" in may_stand(u["arvn_1div"], laos, m)
    assert may_stand(u["pavn_18rgt"], laos, m) is None  # a trail hex (14.6.3)
    assert "all-sea" in may_stand(u["vc_r20"], sea, m)
    assert "14.6.3" in may_stand(u["vc_r20"], m.place_hex("savannakhet"), m)


def test_row_13_1_starlite_is_the_first_combat(sc, m):
    """Operation Starlite: the 1st VC Regiment on the Van Tuong peninsula, one hex from the Marines at Chu Lai."""
    on = {p.unit: p.hex for p in sc.setup}
    assert on["vc_1rgt"] == m.place_hex("van_tuong_peninsula")
    assert on["us_7mar"] == on["us_4mar"] == m.place_hex("chu_lai")
    assert on["vc_1rgt"] in m.neighbours(on["us_4mar"])
    rule = next(s for s in sc.special_rules if s.id == "starlite_surprise")
    assert rule.turns == [1] and rule.units == ["vc_1rgt"]  # R-SCN-13
    assert turn_label(sc.first_turn) == "Summer 1965"


def test_row_14_2_2_leaders_sit_on_friendly_hqs(sc, u):
    on_map = {p.unit for p in sc.setup}
    for lp in sc.leaders:
        assert lp.hq in on_map and u[lp.hq].kind == "hq" and u[lp.hq].side == u[lp.leader].side
    assert sc.theater_commanders["Capitalist"].leader == "westmoreland"
    assert sc.theater_commanders["Communist"].leader == "vo_nguyen_giap"


def test_row_14_3_tunnels_and_objective_pool_at_the_start(sc, u, m):
    """14.3: Hidden Tunnels set up by the scenario, in hexes without Capitalist units; 12.1.3: objectives 1/2/3."""
    capitalist = {p.hex for p in sc.setup if u[p.unit].side == "Capitalist"}
    assert [t.hex for t in sc.tunnels] == ["3450", "3856"] and all(t.state == "Hidden" for t in sc.tunnels)
    assert all(t.hex not in capitalist and m.hex(t.hex).country == "SVN" for t in sc.tunnels)
    assert sc.objective_pool.values == {1: 4, 2: 3, 3: 2}


def test_row_14_3_loader_refuses_a_tunnel_under_capitalist_units(tmp_path):
    data = _data()
    data["tunnels"][0]["hex"] = "3448"  # Da Nang
    assert _refused(tmp_path, data, "holds Capitalist units").column == "tunnels[0].hex"


# --------------------------------------------------------------------------- reinforcements (13.1.1, R-SCN-10)
def test_row_13_1_1_reinforcements_arrive_on_friendly_supply_sources(sc, u, m):
    extra = {s.hex for s in sc.supply_sources}
    status = sc.level("Ho Chi Minh Trail Status")
    for r in sc.reinforcements:
        assert r.turn in sc.turns
        kinds = {p.supply for p in m.places_at(r.at)}
        if u[r.unit].side == "Capitalist":
            assert "capitalist" in kinds or r.at in extra, r
            assert m.area(r.at) in ("I Corps",)
        else:
            term = next((p.terminus for p in m.places_at(r.at) if p.terminus), None)
            assert "pavn" in kinds or (term is not None and term <= status), r
        assert u[r.unit].nationality != "VC"  # 13.1.2: VC only by recruitment
        assert not u[r.unit].has("created")
    used = [p.unit for p in sc.setup] + [r.unit for r in sc.reinforcements] + sc.vc_cup.units
    assert len(used) == len(set(used))


def test_row_13_1_2_vc_cup_holds_only_unplaced_vc_units(sc, u):
    placed = {p.unit for p in sc.setup}
    assert all(u[x].nationality == "VC" and x not in placed for x in sc.vc_cup.units)
    assert any(u[x].unit_type == "cadre" for x in sc.vc_cup.units)
    award = next(a for a in sc.victory.awards if a.id == "empty_vc_cup")
    assert award.side == "Communist" and award.vp == 1  # R-SCN-19, 1 after R-WAR-45


def test_row_13_1_levels_and_chart_changes(sc):
    """Public example (digest 7): Capitalist Infrastructure 8, Supply 1, Helicopter Available 4, Used 1."""
    assert sc.level("Capitalist Infrastructure") == 8 and sc.level("Capitalist Supply") == 1
    assert sc.level("Helicopter Available") == 4 and sc.level("Helicopter Used") == 1
    assert sc.level("Ho Chi Minh Trail Status") == 4
    assert {t.turn: t.value for t in sc.air_support} == {1: 4, 2: 6, 3: 6, 4: 7}  # R-SCN-08
    assert all(lc.turn in sc.turns for lc in sc.level_changes)
    ev = {e.id: e for e in sc.events}
    assert ev["lam_takes_i_corps"].hq == "arvn_i_corps_hq" and ev["struggle_movement"].marker == "Low Morale"
    assert sc.has_rule("air_war_not_in_play") and sc.has_rule("navy_not_in_play")
    assert [r.unit for r in sc.arriving(2, "Communist")] == ["pavn_2div_hq", "pavn_21rgt"]


# --------------------------------------------------------------------------- the calendar (R-SCN-02)
def test_row_3_0_calendar_has_four_seasons_a_year():
    cal = load_calendar()
    assert len(cal) == 40
    assert (cal[1].season, cal[1].year) == ("Summer", 1965) and (cal[40].season, cal[40].year) == (
        "Spring",
        1975,
    )
    assert [turn_label(t) for t in (1, 2, 3, 4)] == ["Summer 1965", "Fall 1965", "Winter 1966", "Spring 1966"]
    assert all((c.monsoon == "yes") == (c.season == "Summer") for c in cal.values())  # 10.3.9
    elections = [t for t, c in cal.items() if "election" in (c.fixed_events or "")]
    assert [turn_label(t) for t in elections] == ["Fall 1968", "Fall 1972"]  # 14.5


def test_row_3_0_calendar_refuses_a_gap(tmp_path):
    text = (ROW / "calendar.csv").read_text(encoding="utf-8").splitlines()
    del text[3]  # drop turn 3
    p = tmp_path / "calendar.csv"
    p.write_text("\n".join(text) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match="out of order") as ei:
        load_calendar(p)
    assert ei.value.row == 4 and ei.value.column == "turn"


# --------------------------------------------------------------------------- the sequence of play (R-SCN-17)
def test_row_3_0_sequence_has_every_step_of_the_rule():
    seq = load_row_sequence()
    assert [p.number for p in seq.phases] == ["A", "B", "B3a", "B3b", "C"]
    steps = {p.number: [s.id for s in p.steps] for p in seq.phases}
    assert steps["A"] == [
        "a1",
        "a1b",
        "a2a",
        "a2b",
        "a2c",
        "a2d",
        "a3",
        "a4",
        "a5",
        "a6a",
        "a6b",
        "a6c",
        "a6d",
        "a6e",
        "a6f",
        "a7",
    ]
    assert steps["B"] == ["b1", "b2a_cap", "b2b_cap", "b2c_cap", "b2a_com", "b2b_com", "b2c_com", "b2d"]
    assert steps["C"] == ["c_a", "c_b", "c_c", "c_d", "c_e", "c_f"]
    assert steps["B3a"] == [
        "flip_capitalist",
        "ooc_capitalist",
        "strategic_move",
        "activations",
        "mission_effects",
    ]
    for pn in ("B3a", "B3b"):
        act = next(st for p in seq.phases if p.number == pn for st in p.steps if st.id == "activations")
        text = act.summary
        # R-GAME-01: the eight steps of one activation (9.2) are one alternating step, in the order of the rule
        assert (
            text.index("HQ activated")
            < text.index("units activated")
            < text.index("initial movement")
            < text.index("reserve move")
            < text.index("early exploitation")
            < text.index("combats")
            < text.index("HQ movement")
            < text.index("stacking check")
        )
        assert act.alternate is not None and [r.id for r in act.reactions] == ["reserve"]
    assert steps["B3b"][-3:] == ["fire_bases", "tunnels", "mission_effects"]


def test_row_3_0_sequence_marks_the_steps_not_in_this_scenario():
    seq = load_row_sequence()
    out = [(p.number, s.id) for p in seq.phases for s in p.steps if "Not in this scenario" in s.summary]
    assert out == [
        ("A", "a1b"),
        ("A", "a3"),
        ("A", "a4"),
        ("A", "a5"),
        ("A", "a6a"),
        ("A", "a6b"),
        ("A", "a6c"),
        ("A", "a6d"),
        ("A", "a6e"),
        ("A", "a6f"),
        ("B", "b1"),
        ("C", "c_c"),
        ("C", "c_d"),
    ]
    # the game runs them and says so in a ruling (no `when`: a skipped step would leave no ruling)
    assert not [s for p in seq.phases for s in p.steps if s.when in ("air_war_in_play", "fleet_in_play")]


def test_row_3_0_sequence_reaction_window_and_activation_loop_are_documented():
    seq = load_row_sequence()
    b3 = {p.number: p for p in seq.phases if p.number in ("B3a", "B3b")}
    assert (
        b3["B3a"].actor == "Communist" and b3["B3b"].actor == "Capitalist"
    )  # the Communist turn comes first
    for p in b3.values():
        act = next(s for s in p.steps if s.id == "activations")
        assert act.alternate.sides == [p.actor] and act.alternate.until.startswith(p.actor.lower())
        rm = act.reactions[0]
        assert rm.who == "other" and "REACTION WINDOW" in rm.summary and rm.rule == "ROW-4.7"
    text = (ROW / "sequence.yaml").read_text(encoding="utf-8")
    assert "REACTION WINDOW" in text and "REPEAT" in text and "do NOT alternate" in text


def test_row_3_0_sequence_loader_refuses_a_bad_reserve_actor_and_predicate(tmp_path):
    data = yaml.safe_load((ROW / "sequence.yaml").read_text(encoding="utf-8"))
    bad = copy.deepcopy(data)
    b3a = next(p for p in bad["phases"] if p["id"] == "communist_turn")
    next(s for s in b3a["steps"] if s["id"] == "activations")["reactions"][0]["who"] = "Communist"
    p = tmp_path / "sequence.yaml"
    p.write_text(yaml.safe_dump(bad, sort_keys=False), encoding="utf-8")
    with pytest.raises(DataError, match="4.7") as ei:
        load_row_sequence(p)
    assert ei.value.column == "communist_turn.activations.reserve.who"
    bad = copy.deepcopy(data)
    bad["phases"][0]["steps"][0]["when"] = "always"
    p.write_text(yaml.safe_dump(bad, sort_keys=False), encoding="utf-8")
    with pytest.raises(DataError, match="unknown predicate"):
        load_row_sequence(p)


# --------------------------------------------------------------------------- refused scenario files
def _setup_index(data: dict, uid: str) -> int:
    return next(i for i, p in enumerate(data["setup"]) if p["unit"] == uid)


def test_row_13_1_loader_refuses_a_unit_on_a_sea_hex(tmp_path):
    data = _data()
    i = _setup_index(data, "us_7mar")
    data["setup"][i]["hex"] = "3751"
    err = _refused(tmp_path, data, "all-sea")
    assert err.column == f"setup[{i}].hex"


def test_row_13_1_loader_refuses_an_unknown_hex(tmp_path):
    data = _data()
    data["setup"][0]["hex"] = "9999"
    err = _refused(tmp_path, data, "not a hex of the map")
    assert err.column == "setup[0].hex"


def test_row_13_1_loader_refuses_an_unknown_hq(tmp_path):
    data = _data()
    data["leaders"][0]["hq"] = "arvn_99div_hq"
    err = _refused(tmp_path, data, "unknown HQ")
    assert err.column == "leaders[0].hq"
    data = _data()
    k = next(i for i, e in enumerate(data["events"]) if e["kind"] == "leader")
    data["events"][k]["hq"] = "nowhere_hq"
    assert _refused(tmp_path, data, "unknown HQ").column == f"events[{k}].hq"


def test_row_13_1_loader_refuses_an_award_the_control_rule_makes_impossible(tmp_path, m):
    """Glossary (control): hexes in or next to a Capitalist supply source are always Capitalist (Da Nang, Hue)."""
    data = _data()
    aw = next(a for a in data["victory"]["awards"] if a["id"] == "cities_held")
    aw["hexes"].append(m.place_hex("hue"))
    _refused(tmp_path, data, "always controls it")


def test_row_13_1_loader_refuses_a_text_event_with_an_effect(tmp_path):
    data = _data()
    k = next(i for i, e in enumerate(data["events"]) if e["kind"] == "text")
    data["events"][k]["units"] = ["arvn_1div"]
    assert _refused(tmp_path, data, "no game effect").column == f"events[{k}].kind"


def test_row_13_1_loader_refuses_a_leader_on_an_enemy_hq(tmp_path):
    data = _data()
    data["leaders"][0]["hq"] = "vc_mr5_hq"
    _refused(tmp_path, data, "friendly HQ")


def test_row_13_1_loader_refuses_an_unknown_unit_and_a_unit_twice(tmp_path):
    data = _data()
    data["setup"][1]["unit"] = "us_99mar"
    assert _refused(tmp_path, data, "unknown counter").column == "setup[1].unit"
    data = _data()
    data["setup"].append(dict(data["setup"][2]))
    _refused(tmp_path, data, "already set up")


def test_row_13_1_loader_refuses_us_units_outside_their_area(tmp_path, m):
    data = _data()
    i = _setup_index(data, "us_9mar")
    data["setup"][i]["hex"] = m.place_hex("tchepone")
    _refused(tmp_path, data, "14.6.1")


def test_row_13_1_us_areas_come_from_the_scenario(tmp_path, m):
    """14.6.1: with II Corps assigned instead of I Corps the Marines' start hexes become illegal."""
    data = _data()
    data["us_areas"] = ["II Corps"]
    _refused(tmp_path, data, "14.6.1")


def test_row_13_1_loader_refuses_a_created_battalion_at_set_up(tmp_path):
    data = _data()
    data["setup"].append({"unit": "us_2_4mar", "hex": "3752", "source": "reconstruction: test"})
    _refused(tmp_path, data, "14.1.1")


def test_row_13_1_loader_refuses_a_hex_outside_the_window(tmp_path, m):
    data = _data()
    i = _setup_index(data, "arvn_11rgr")
    data["setup"][i]["hex"] = m.place_hex("kontum")
    _refused(tmp_path, data, "outside the scenario's map window")


def test_row_13_1_1_loader_refuses_reinforcements_off_a_supply_source(tmp_path):
    data = _data()
    i = next(i for i, r in enumerate(data["reinforcements"]) if r["unit"] == "us_5mar")
    data["reinforcements"][i]["at"] = "3449"  # Hoi An: a town, not a supply source
    err = _refused(tmp_path, data, "supply source")
    assert err.column == f"reinforcements[{i}].at"


def test_row_13_1_1_loader_refuses_vc_reinforcements(tmp_path):
    data = _data()
    data["vc_cup"]["units"].remove("vc_lf_01")
    data["reinforcements"].append(
        {"turn": 2, "unit": "vc_lf_01", "at": "2549", "source": "reconstruction: test"}
    )
    _refused(tmp_path, data, "recruitment")


def test_row_13_1_1_loader_refuses_an_inactive_terminus(tmp_path):
    data = _data()
    lv = next(x for x in data["levels"] if x["track"] == "Ho Chi Minh Trail Status")
    lv["value"] = 2  # termini 1-2 only: Chavane (terminus 3) is not a supply source
    _refused(tmp_path, data, "supply source")


def test_row_13_1_loader_refuses_bad_turns_tracks_and_rules(tmp_path):
    data = _data()
    data["reinforcements"][0]["turn"] = 9
    _refused(tmp_path, data, "not a turn of this scenario")
    data = _data()
    data["levels"][0]["track"] = "Morale"
    err = _refused(tmp_path, data, "Input should be")
    assert err.column == "levels[0].track"
    data = _data()
    data["special_rules"][0]["rules"].append("ROW-99.9")
    _refused(tmp_path, data, "unknown rule id")
    data = _data()
    data["air_support"].pop()
    _refused(tmp_path, data, "one value per turn")


def test_row_13_1_loader_refuses_an_unknown_scenario_and_a_missing_source(tmp_path):
    with pytest.raises(DataError, match="known: .*year-in-i-corps"):
        load_scenario("tet-1968")
    data = _data()
    data["setup"][0]["source"] = "we think so"
    assert _refused(tmp_path, data, "must start with").column == "setup[0].source"


def test_row_12_1_every_scenario_award_has_the_name_a_student_reads(tmp_path):
    """ROW-12.1 / 12.1.2: a scenario's VP award is read by its ``name`` (rulings, the Details inputs, the VP tables
    of ``runs.vp_sources``), its ``id`` staying the data's key; an award without a name is refused."""
    import dataclasses
    import types

    import wargames
    from wargames.row.runs import vp_sources

    for sid in scenario_names():
        for aw in load_scenario(sid).victory.awards:
            assert aw.name and "_" not in aw.name and aw.name != aw.id, (sid, aw.id)
    g = wargames.load("row", "vietnam-war", seed=0)
    assert g.display_text("scenario award attention_fades") == "scenario award Public attention fades"
    r = dataclasses.replace(
        g.log[0],
        turn=1,
        title="Victory points",
        inputs={"amount": -1, "why": "scenario award attention_fades"},
        result={"side": "Communist", "before": 5, "after": 4},
    )
    rows = vp_sources(types.SimpleNamespace(scenario=g.scenario, log=[r]))
    assert [row["cause"] for row in rows] == ["Public attention fades"]
    data = _data()
    del data["victory"]["awards"][0]["name"]
    _refused(tmp_path, data, "name")


def test_row_r_war_46_the_quang_ngai_lowlands_score_a_vp_a_hex_the_capitalist_controls_rule_12_1():
    """R-WAR-46: A Year in I Corps's lowland award is 1 VP for each of its four hexes the Capitalist controls at
    the End Phase (it was 1 VP only with all four free of Communist units, which never scored in 200 games); a
    played game's awards say how many of the four he held."""
    sc = load_scenario("year-in-i-corps")
    award = next(a for a in sc.victory.awards if a.id == "lowlands_cleared")
    assert (award.side, award.per, award.controlled_by, len(award.hexes)) == (
        "Capitalist",
        "hex",
        "Capitalist",
        4,
    )
    g = wargames.load("row", "year-in-i-corps", 0)
    g.play()
    got = [
        r.result["vp"]
        for r in g.log
        if isinstance(r.result, dict) and r.result.get("award") == "lowlands_cleared"
    ]
    assert len(got) == 4 and all(0 <= v <= 4 for v in got) and sum(got) > 0
