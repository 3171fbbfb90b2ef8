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
    assert board.control("quang_tri_thua_thien") == "nva"  # 1 NVA Base + 4 Guerrillas vs 1 ARVN Base + 2 Troops
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
    bad.write_text(bad.read_text().replace("us_troops: 3, arvn_police: 1", "us_marines: 3, arvn_police: 1", 1))
    monkeypatch.setenv("WARGAMES_DATA", str(root))
    with pytest.raises(DataError, match="us_marines"):
        load_scenario("short")
