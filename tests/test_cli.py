"""The command line (``wargames list`` / ``wargames play``)."""

from __future__ import annotations

import json
import subprocess
import sys

import wargames
from wargames.cli import main


def test_cli_list(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "tet" in out and "historical" in out


def test_cli_play_prints_rulings_and_saves(tmp_path, capsys):
    path = tmp_path / "game.json"
    assert main(["play", "tet", "--seed", "3", "--player", "Communist=random", "--save", str(path)]) == 0
    out = capsys.readouterr().out
    assert "[TET-P1-1]" in out and "[TET-AIM-3]" in out and "scores:" in out
    game = wargames.open_save(path)
    assert game.is_over and json.loads(path.read_text())["seed"] == 3


def test_cli_play_side_view_hides_units(capsys):
    main(["play", "tet", "--seed", "3", "--side", "Allied"])
    out = capsys.readouterr().out
    assert "face-down NVA/VC unit moved" in out
    assert "vc_i_" not in out


def test_cli_entry_point_runs():
    out = subprocess.run([sys.executable, "-m", "wargames.cli", "play", "tet", "--quiet", "--seed", "1"],
                         capture_output=True, text=True, check=True).stdout
    assert "TET-AIM-3" in out
