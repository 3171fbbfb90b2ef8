"""The Vietnam War's chart against the history (issue #27 item 9, decision R-WAR-30): every formation and air unit
enters in the season it reached the theatre and leaves in the season it went home (ROW-13.1, 13.1.3, 10.1); the US
air war ends with the August 1973 bombing halt; the aces arrive in the years they scored; US air losses are made
good while US air strength in theatre grew (1966-68, the 1972 surge) and not in the drawdown between.

Seasons are game turns of the campaign: 1 = Summer 1965, 11 = Winter 1968 (Tet), 27 = Winter 1972, 33 = Summer 1973.
"""

from __future__ import annotations

import pytest

import wargames
from wargames.row.airdata import aces, aircraft_counters
from wargames.row.scenario import load_scenario


@pytest.fixture(scope="module")
def sc():
    return load_scenario("vietnam-war")


def _air_window(sc, aid: str) -> tuple[int, int]:
    """(first season, last season) an aircraft counter is in the theatre by the chart (41: never leaves)."""
    first = (
        1
        if aid in {p.id for p in sc.air.aircraft}
        else min(a.turn for a in sc.air.arrivals if aid in a.aircraft)
    )
    last = min((w.turn - 1 for w in sc.air.withdrawals if aid in w.aircraft), default=41)
    return first, last


def _ground_window(sc, uid: str) -> tuple[int, int]:
    first = (
        1 if uid in {p.unit for p in sc.setup} else min(r.turn for r in sc.reinforcements if r.unit == uid)
    )
    last = min((w.turn - 1 for w in sc.withdrawals if w.unit == uid), default=41)
    return first, last


#: (first, last) season in the theatre, from the histories named in each entry's source (Stanton, Vietnam Order of
#: Battle; Momyer, Air Power in Three Wars; Berger (ed.), The USAF in Southeast Asia 1961-1973)
AIR_DATES = {
    "sac_4133bw": (1, 32),  # Arc Light from June 1965 to the halt of August 1973
    "usaf_8tfw": (2, 32),  # Ubon, December 1965
    "usaf_14sow": (3, 24),  # Nha Trang March 1966 - September 1971
    "usaf_366tfw": (6, 29),  # Da Nang October 1966 - October 1972
    "usaf_633sow": (13, 20),  # Pleiku July 1968 - July 1970
    "usaf_355tfw": (1, 21),  # Takhli 1965 - December 1970
    "usmc_1maw": (1, 23),  # Da Nang 1965 - April 1971
    "vpaf_927fr": (27, 41),  # formed February 1972
    "sac_72sw": (28, 32),  # Bullet Shot, spring 1972
    "cvw_5": (28, 32),  # Midway, the 1972 carrier surge
    "cvw_3": (28, 32),  # Saratoga, the 1972 carrier surge
}
GROUND_DATES = {
    "us_82abn_3bde": (11, 17),  # after Tet, February 1968 - December 1969
    "us_27mar": (11, 12),  # after Tet, February - September 1968
    "us_5mech_1bde": (13, 24),  # July 1968 - August 1971
    "pavn_10div": (30, 41),  # formed 20 September 1972
}


@pytest.mark.parametrize("aid", sorted(AIR_DATES))
def test_row_10_1_air_units_in_theatre_on_their_historical_dates(sc, aid):
    assert _air_window(sc, aid) == AIR_DATES[aid]


@pytest.mark.parametrize("uid", sorted(GROUND_DATES))
def test_row_13_1_formations_arrive_and_leave_on_their_historical_dates(sc, uid):
    assert _ground_window(sc, uid) == GROUND_DATES[uid]


def test_row_10_1_the_us_air_war_ends_with_the_august_1973_bombing_halt(sc):
    """From Summer 1973 no US aircraft is left in the theatre (the VNAF stays); before it a B-52 force flies in
    every season from Summer 1965 (Arc Light)."""
    us = [a for a, r in aircraft_counters().items() if r.side == "Capitalist" and r.service != "VNAF"]
    in_play = {a: _air_window(sc, a) for a in us if a in _brought(sc)}
    assert all(last <= 32 for first, last in in_play.values()), in_play
    b52 = [a for a in in_play if aircraft_counters()[a].type == "b52"]
    assert all(any(in_play[a][0] <= t <= in_play[a][1] for a in b52) for t in range(1, 33))


def _brought(sc) -> set[str]:
    return {p.id for p in sc.air.aircraft} | {a for r in sc.air.arrivals for a in r.aircraft}


def test_row_10_1_the_1972_carrier_and_b52_surge(sc):
    def count(t: int, kind: str) -> int:
        return sum(
            1
            for a in _brought(sc)
            if aircraft_counters()[a].type == kind and _air_window(sc, a)[0] <= t <= _air_window(sc, a)[1]
        )

    assert count(28, "cvw") == count(27, "cvw") + 2 and count(28, "b52") == count(27, "b52") + 1


def test_row_10_3_6_aces_arrive_in_the_years_they_scored(sc):
    """Every ace of the Air Display is in the campaign; the 1972 aces (Cunningham and Driscoll in May, Ritchie and
    DeBellevue in August-September, Feinstein in October) arrive in 1972, Olds (Bolo) in 1967, the VPAF's in
    1966-68."""
    turn = {a.id: a.turn for a in sc.air.aces}
    assert set(turn) == set(aces())
    assert turn["ace_cunningham"] == turn["ace_driscoll"] == 28
    assert turn["ace_ritchie"] == turn["ace_debellevue"] == 29 and turn["ace_feinstein"] == 30
    assert 7 <= turn["ace_olds"] <= 10
    assert all(5 <= t <= 11 for a, t in turn.items() if aces()[a].side == "Communist")


def test_row_10_1_air_losses_made_good_in_the_build_up_and_the_1972_surge_only(sc):
    turns = sorted(a.turn for a in sc.air.arrivals if a.replace_losses)
    assert turns and all(t <= 13 or t == 28 for t in turns) and 28 in turns


def test_row_13_1_history_entries_name_a_published_history(sc):
    """Each dated entry of R-WAR-30 names its source (a published history), not just 'reconstruction'."""
    books = (
        "Stanton",
        "Momyer",
        "Berger",
        "official history",
        "PAVN's own histories",
        "formed in February 1972",
    )
    for r in sc.reinforcements:
        if r.unit in GROUND_DATES:
            assert r.source.startswith("external:") and any(b in r.source for b in books), r
    for a in AIR_DATES:
        assert any(b in aircraft_counters()[a].source for b in books), a


def test_row_10_1_replacing_air_losses_restores_eliminated_and_reduced_capitalist_aircraft():
    """ROW-10.1 / 10.2 (R-WAR-30): an eliminated Capitalist counter comes back Available at full strength, a reduced
    one is restored (a damaged one stays in the Damaged box); withdrawn and Communist counters are untouched."""
    g = wargames.load("row", "vietnam-war", 0)
    aw = g.airwar["aircraft"]
    aw["usaf_355tfw"].update(box="eliminated", reduced=True)
    aw["usaf_388tfw"].update(box="damaged", reduced=True)
    aw["cvw_16"].update(box="withdrawn")
    aw["vpaf_921fr"].update(box="eliminated", reduced=True)
    out = g._replace_air_losses()
    assert out == ["usaf_355tfw", "usaf_388tfw"]
    assert aw["usaf_355tfw"]["box"] == "available" and not aw["usaf_355tfw"]["reduced"]
    assert aw["usaf_388tfw"]["box"] == "damaged" and not aw["usaf_388tfw"]["reduced"]
    assert aw["cvw_16"]["box"] == "withdrawn" and aw["vpaf_921fr"]["box"] == "eliminated"


#: the seasons each short scenario covers (data/row/calendar.csv): Winter-Spring 1968, Spring-Summer 1972
SHORT_SCENARIOS = {"tet-offensive": (11, 12), "eastertide": (28, 29)}


@pytest.mark.parametrize("name", sorted(SHORT_SCENARIOS))
def test_row_13_1_short_scenarios_use_formations_only_in_their_real_dates(name):
    """R-WAR-37: the Tet Offensive and Eastertide field no formation or air unit outside the dates of the campaign's
    chart (R-WAR-30): not the 10th PAVN Division (formed September 1972), the 633rd SOW (July 1968) or the 14th SOW
    (gone September 1971); Eastertide's Tan Canh attacker is the 2nd Division, Que Son held by the 711th."""
    camp, short = load_scenario("vietnam-war"), load_scenario(name)
    first, last = SHORT_SCENARIOS[name]
    assert (short.first_turn, short.turns[-1]) == (first, last)
    ground = {p.unit for p in short.setup} | {r.unit for r in short.reinforcements}
    for uid, (a, b) in GROUND_DATES.items():
        if uid in ground:
            assert a <= last and b >= first, (name, uid)
    air = {p.id for p in short.air.aircraft} | {a for r in short.air.arrivals for a in r.aircraft}
    for aid in AIR_DATES:
        if aid in air:
            lo, hi = _air_window(camp, aid)
            assert lo <= last and hi >= first, (name, aid)
    assert "pavn_10div" not in ground
    if name == "eastertide":
        at = {p.unit: p.hex for p in short.setup}
        assert at["pavn_2div"] == "2765" and at["pavn_711div"] == "3350"
