"""The command line (``wargames list`` / ``wargames play`` / ``wargames montecarlo``)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

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
    out = subprocess.run(
        [sys.executable, "-m", "wargames.cli", "play", "tet", "--quiet", "--seed", "1"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
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


def test_cli_montecarlo_prints_shares_and_writes_one_row_per_seed(tmp_path, capsys):
    import pandas as pd

    out = tmp_path / "mc.csv"
    assert main(["montecarlo", "fitl", "--games", "2", "--seed", "4", "--quiet", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "fitl: 2 games (seeds 4-5)" in text and "median game" in text and "rows written" in text
    rows = pd.read_csv(out)
    assert list(rows["seed"]) == [4, 5]
    same = wargames.montecarlo("fitl", 2, seed=4).drop(columns="seconds")
    assert rows.drop(columns="seconds").astype(str).equals(same.astype(str))


def test_cli_montecarlo_on_a_dask_scheduler_gives_the_same_rows(tmp_path, capsys):
    import pandas as pd

    distributed = pytest.importorskip("dask.distributed")
    out = tmp_path / "dask.csv"
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        assert (
            main(
                [
                    "montecarlo",
                    "fitl",
                    "--games",
                    "3",
                    "--seed",
                    "10",
                    "--scheduler",
                    cluster.scheduler_address,
                    "--out",
                    str(out),
                ]
            )
            == 0
        )
    captured = capsys.readouterr()
    assert "3/3 games" in captured.err  # the progress line
    here = wargames.montecarlo("fitl", 3, seed=10).drop(columns="seconds")
    assert pd.read_csv(out).drop(columns="seconds").astype(str).equals(here.astype(str))


def test_cli_montecarlo_refuses_an_unknown_scenario_without_a_traceback(capsys):
    assert main(["montecarlo", "fitl", "--games", "1", "--scenario", "nosuch", "--quiet"]) == 2
    assert capsys.readouterr().err.startswith("error: ")
