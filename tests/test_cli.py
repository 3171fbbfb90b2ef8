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


def test_cli_play_side_is_a_faction_and_sees_what_its_side_sees(capsys):
    """A faction (Tet's USA) reads the rulings as its side does (issue #13: through game.view)."""
    main(["play", "tet", "--seed", "3", "--side", "USA"])
    out = capsys.readouterr().out
    assert "face-down NVA/VC unit moved" in out and "vc_i_" not in out
    game = wargames.load("tet", seed=3)
    game.play()
    secret = [r.explanation for r in game.log if "Allied" in r.hidden_from and r.public != r.explanation]
    assert secret and not any(text in out for text in secret)


def test_cli_play_refuses_an_unknown_side(capsys):
    assert main(["play", "tet", "--seed", "3", "--side", "Martians"]) == 2
    err = capsys.readouterr().err
    assert "Martians" in err and "Communist" in err and "USA" in err
