"""The FitL board state: victory markers and Control as functions of the pieces (rules 1.4-1.9)."""

from __future__ import annotations

import csv

import pytest

from wargames.core.data import DataError, game_dir
from wargames.fitl.data import load_scenario
from wargames.fitl.state import Board


def _printed():
    with (game_dir("fitl") / "scenario_checks.csv").open(newline="", encoding="utf-8") as fh:
        return {(r["scenario"], r["faction"]): int(r["printed"]) for r in csv.DictReader(fh)}


@pytest.mark.parametrize("scenario", ["short", "medium", "full"])
def test_fitl_1_9_victory_markers_reproduce_the_printed_scenario_totals(scenario):
    board = Board(load_scenario(scenario))
    printed = _printed()
    assert board.victory() == {f: printed[(scenario, f)] for f in ("US", "ARVN", "NVA", "VC")}
    assert board.invariants() == []


def test_fitl_1_7_control_counts_pieces_of_both_sides():
    board = Board(load_scenario("short"))
    assert board.control("saigon") == "coin"
    assert (
        board.control("quang_tri_thua_thien") == "nva"
    )  # 1 NVA Base + 4 Guerrillas vs 1 ARVN Base + 2 Troops
    assert board.control("pleiku_darlac") is None  # 3 US vs 3 VC: nobody outnumbers
    board.place("pleiku_darlac", "vc_guerrillas")
    assert board.control("pleiku_darlac") is None  # 4 VC vs 3 US: VC never Control (1.7)


def test_fitl_1_4_1_pieces_are_conserved_between_map_and_boxes():
    board = Board(load_scenario("medium"))
    board.remove("saigon", "us_troops", 2, to="casualties")
    board.place("hue", "vc_guerrillas")
    board.flip("hue", "vc_guerrillas", "a")
    assert board.invariants() == []
    assert board.pieces["hue"]["vc_guerrillas:a"] == 1
    board.available["us_troops"] += 1
    assert any("us_troops" in p for p in board.invariants())


def test_fitl_1_4_3_guerrillas_set_up_underground_and_tunnels_are_kept():
    board = Board(load_scenario("short"))
    assert board.count("quang_tri_thua_thien", "NVA", "guerrillas", "u") == 4
    assert board.count("quang_tri_thua_thien", "NVA", "guerrillas", "a") == 0
    assert sum(c["vc_bases:t"] for c in board.pieces.values()) == 1


def test_fitl_1_8_tracks_clamp_to_their_printed_range():
    board = Board(load_scenario("short"))
    assert board.shift_track("aid", 100) == 75 - 15
    assert board.tracks["aid"] == 75
    assert board.shift_track("vc_resources", -50) == -10


def test_fitl_scenario_with_unknown_piece_is_refused(tmp_path, monkeypatch):
    import shutil

    root = tmp_path / "data"
    shutil.copytree(game_dir("fitl"), root / "fitl")
    bad = root / "fitl" / "scenarios" / "short.yaml"
    bad.write_text(
        bad.read_text().replace("us_troops: 3, arvn_police: 1", "us_marines: 3, arvn_police: 1", 1)
    )
    monkeypatch.setenv("WARGAMES_DATA", str(root))
    with pytest.raises(DataError, match="us_marines"):
        load_scenario("short")


# ------------------------------------------------------------------ the board and forces (rules 1.0-1.6)
def test_fitl_1_0_four_factions_each_a_side_of_the_game():
    from wargames.fitl.game import FitlGame

    assert FitlGame.sides == ("US", "ARVN", "NVA", "VC")


def test_fitl_1_2_the_force_pool_holds_229_pieces():
    from wargames.fitl.data import load_data

    pool = {k: p.count for k, p in load_data().pieces.items() if p.type != "marker"}
    assert sum(pool.values()) == 229
    assert pool["us_troops"] == 40 and pool["nva_troops"] == 40 and pool["vc_guerrillas"] == 30


def test_fitl_1_3_spaces_are_provinces_cities_and_locs():
    from collections import Counter

    from wargames.fitl.data import load_data

    kinds = Counter(s.kind for s in load_data().spaces.values())
    assert kinds == {"province": 22, "city": 8, "loc": 17}


def test_fitl_1_3_1_forty_seven_spaces_with_population_35_and_econ_15():
    from wargames.fitl.data import load_data

    spaces = load_data().spaces
    assert len(spaces) == 47
    assert sum(s.population for s in spaces.values()) == 35 and sum(s.econ for s in spaces.values()) == 15
    assert all(s.population == 0 for s in spaces.values() if s.country != "SVN")


def test_fitl_1_3_7_coastal_spaces():
    from wargames.fitl.data import load_data

    spaces = load_data().spaces
    coastal = {k for k, s in spaces.items() if s.coastal}
    assert {"hue", "da_nang", "saigon", "sihanoukville", "north_vietnam", "loc_hue_da_nang"} <= coastal
    assert not {"kontum", "an_loc", "central_laos", "pleiku_darlac"} & coastal


def test_fitl_1_4_each_faction_has_its_own_piece_types():
    from wargames.fitl.data import load_data

    types = {}
    for p in load_data().pieces.values():
        if p.faction:
            types.setdefault(p.faction, set()).add(p.type)
    assert types == {
        "US": {"troops", "bases", "irregulars"},
        "ARVN": {"troops", "police", "rangers", "bases"},
        "NVA": {"troops", "guerrillas", "bases"},
        "VC": {"guerrillas", "bases"},
    }


def test_fitl_1_5_any_faction_may_be_a_non_player():
    import wargames

    g = wargames.load("fitl", scenario="short", seed=2, non_players=["ARVN", "VC"])
    assert g.rules_opts["non_players"] == ["ARVN", "VC"]
    with pytest.raises(DataError, match="non_players"):
        wargames.load("fitl", scenario="short", seed=2, non_players=["Soviets"])


def test_fitl_1_6_2_active_levels_count_double():
    board = Board(load_scenario("short"))
    for s in board.support:
        board.support[s] = 0
    board.support["saigon"] = 2  # Pop 6, Active Support
    board.support["hue"] = 1  # Pop 2, Passive Support
    board.support["quang_nam"] = -2  # Pop 1, Active Opposition
    assert board.total_support() == 2 * 6 + 2 and board.total_opposition() == 2


@pytest.mark.parametrize("scenario, cards", [("short", 27), ("medium", 39), ("full", 78)])
def test_fitl_setup_each_scenario_builds_its_deck_and_board(scenario, cards):
    import wargames

    g = wargames.load("fitl", scenario=scenario, seed=5)
    sc = load_scenario(scenario)
    assert sc.deck["cards"] == cards
    assert g.board.invariants() == [] and g.invariants() == []


def test_fitl_scn_short_starts_with_the_printed_tracks_and_totals():
    board = Board(load_scenario("short"))
    assert board.tracks["aid"] == 15 and board.tracks["trail"] == 2 and board.tracks["arvn_resources"] == 30
    assert board.victory() == {"US": 38, "ARVN": 41, "NVA": 10, "VC": 23}


def test_fitl_scn_medium_starts_with_the_printed_tracks_and_totals():
    board = Board(load_scenario("medium"))
    assert board.tracks["aid"] == 30 and board.tracks["trail"] == 3 and board.tracks["nva_resources"] == 20
    assert board.victory() == {"US": 37, "ARVN": 44, "NVA": 8, "VC": 23}


def test_fitl_scn_full_starts_with_the_printed_tracks_and_totals():
    board = Board(load_scenario("full"))
    assert board.tracks["aid"] == 15 and board.tracks["trail"] == 1 and board.tracks["vc_resources"] == 5
    assert board.victory() == {"US": 38, "ARVN": 35, "NVA": 4, "VC": 27}


def test_fitl_2_1_options_merge_through_the_core_loader():
    """FITL-2.1: the scenario's options (a FitlOptions) overridden by the caller's via core.data.merge_options;
    an unknown option or a loosely typed one is a DataError naming the scenario file, and the game is not made."""
    import wargames
    from wargames.fitl.data import FitlOptions

    g = wargames.load("fitl", scenario="medium", seed=1, period_events=True)
    assert isinstance(g.scen.options, FitlOptions) and g.rules_opts["period_events"] is True
    assert g.rules_opts["us_policy"] == g.scen.options.us_policy
    with pytest.raises(DataError, match=r"medium\.yaml.*unknown option 'monsoon_rain'"):
        wargames.load("fitl", scenario="medium", seed=1, monsoon_rain=True)
    with pytest.raises(DataError, match=r"medium\.yaml.*period_events"):
        wargames.load("fitl", scenario="medium", seed=1, period_events="yes")
    with pytest.raises(
        DataError, match=r"no scenario 'long' for Fire in the Lake \(known: full, medium, short\)"
    ):
        wargames.load("fitl", scenario="long", seed=1)
