"""The campaign's arc figures (issue #27 item 12; wargames.row.runs.arc_figures / arc_table) on hand-made arcs, so
each figure is checked against a count done by hand: ROW-3.0 (a season a turn), ROW-9.5 (the Communist's major
offensives are the Offensive and the General Uprising missions), ROW-12.1 (the victory tracks), ROW-14.7 (the
trail)."""

from __future__ import annotations

from wargames.row.runs import arc_figures, arc_table, montecarlo_rows


def _season(seed, season, label, year, unrest=0, combats=0, mission="infiltrate", trail=4, over=False):
    return {
        "seed": seed,
        "season": season,
        "label": label,
        "year": year,
        "us_military_victory": 0,
        "us_unrest": unrest,
        "capitalist_infrastructure": 5,
        "communist_infrastructure": 5,
        "capitalist_supply_paid": 3,
        "communist_supply_paid": 2,
        "trail_supply": 0,
        "trail_status": trail,
        "combats": combats,
        "units_us": 10,
        "units_capitalist": 30,
        "units_communist": 30,
        "capitalist_mission": "search_and_destroy",
        "communist_mission": mission,
        "aircraft_committed": 0,
        "strikes": 0,
        "capitalist_commander": "westmoreland",
        "communist_commander": "vo_nguyen_giap",
        "election": "",
        "china": False,
        "over": over,
    }


def _games():
    a = [
        _season(0, 10, "Fall 1967", 1967, unrest=5, combats=2),
        _season(0, 11, "Winter 1968", 1968, unrest=8, combats=0, mission="general_uprising", trail=6),
        _season(0, 27, "Winter 1972", 1972, unrest=9, combats=1, mission="offensive", trail=7),
        _season(0, 39, "Winter 1975", 1975, unrest=9, mission="offensive", over=True),
    ]
    b = [
        _season(1, 6, "Fall 1966", 1966, combats=1),
        _season(1, 7, "Winter 1967", 1967, combats=0, trail=3, over=True),
    ]
    return [
        {
            "seed": 0,
            "winner": "Communist",
            "level": "end of scenario",
            "seconds": 2.0,
            "arc": a,
            "label": "Winter 1975",
            "us_military_victory": 4,
            "us_unrest": 9,
            "turn": 39,
        },
        {
            "seed": 1,
            "winner": "Capitalist",
            "level": "31 VP",
            "seconds": 1.0,
            "arc": b,
            "label": "Winter 1967",
            "us_military_victory": 31,
            "us_unrest": 2,
            "turn": 7,
        },
    ]


def test_row_arc_figures_rule_12_1_and_9_5_counted_by_hand():
    f = arc_figures(_games())
    assert f["games"] == 2
    assert f["seasons 1965-72 with combat %"] == 60.0  # 3 of the 5 seasons of 1965-72 saw a combat
    assert f["decided before 1968 %"] == 50.0  # seed 1 ended in 1967
    assert f["games reaching Tet 1968"] == 1 and f["Unrest rises over Tet 1968 %"] == 100.0
    assert f["major offensive 1968 %"] == 100.0 and f["games reaching 1968"] == 1
    assert f["major offensive 1972 %"] == 100.0 and f["major offensive 1975 %"] == 100.0
    assert f["all three offensives % (games reaching 1975)"] == 100.0
    assert f["trail status growth to 1972 (mean)"] == 1.0  # seed 0: 4 -> 7 (+3); seed 1: 4 -> 3 (-1)
    assert f["games whose trail grew %"] == 50.0
    assert f["Capitalist wins %"] == 50.0 and f["ended at 31 VP %"] == 50.0
    assert f["worst seconds"] == 2.0


def test_row_arc_table_one_row_a_season_rule_3_0():
    t = arc_table(_games())
    assert [r["season"] for r in t] == [6, 7, 10, 11, 27, 39]
    tet = next(r for r in t if r["label"] == "Winter 1968")
    assert tet["games"] == 1 and tet["communist missions"] == "general_uprising 1"
    assert next(r for r in t if r["season"] == 7)["games ended"] == 1


def test_row_campaign_100_rows_are_the_final_runs_games_rule_12_1():
    """The stored row_campaign_100.csv is written from the final arc run: one row a game in the columns of
    row_montecarlo.py, the margins the difference of the two tracks (12.1), the season it ended."""
    rows = montecarlo_rows(_games())
    assert [r["seed"] for r in rows] == [0, 1]
    assert rows[0]["margin_Communist"] == 5 and rows[1]["margin_Capitalist"] == 29
    assert rows[1]["season"] == "Winter 1967" and rows[1]["level"] == "31 VP" and rows[0]["turn"] == 39
