"""Shared helpers (issue #14 item 4): one Monte Carlo for every game with one result shape, and advance_to."""

from __future__ import annotations

import pytest

import wargames
from wargames.core import EngineError

COMMON = ["seed", "winner", "level", "rule", "turn", "seconds"]


@pytest.mark.parametrize("game_id", ["tet", "yotr", "fitl"])
def test_core_montecarlo_one_shape_for_every_game(game_id):
    frame = wargames.montecarlo(game_id, 2, seed=5)
    assert list(frame.columns[:5]) == COMMON[:5] and "seconds" in frame.columns
    assert list(frame.seed) == [5, 6] and frame.rule.notna().all() and frame.level.notna().all()
    assert any(c.startswith("score_") for c in frame.columns)
    game = wargames.load(game_id, seed=5)
    game.play()
    row = frame.iloc[0].to_dict()
    assert {k: row[k] for k in game.outcome()} == game.outcome()


def test_core_montecarlo_same_seeds_same_rows_whatever_the_workers():
    one = wargames.montecarlo("fitl", 4, workers=1).drop(columns="seconds")
    two = wargames.montecarlo("fitl", 4, workers=2).drop(columns="seconds")
    assert one.equals(two)


def test_core_montecarlo_takes_players_and_options():
    from wargames.core import RandomPlayer

    frame = wargames.montecarlo("tet", 1, options={"players": 4},
                                players=lambda g: {s: RandomPlayer(g.seed) for s in g.sides})
    assert len(frame) == 1 and frame.turn.iloc[0] >= 1


def test_core_advance_to_a_turn_and_phase():
    g = wargames.load("tet", seed=1)
    g.advance_to(2, "p5")
    assert (g.turn, g.phase.id) == (2, "p5") and g.log[-1].step == "phase"
    g.advance_to(3)
    assert g.turn == 3 and g.phase.id == "p1"
    with pytest.raises(EngineError, match="already past"):
        g.advance_to(2, "p1")
    with pytest.raises(EngineError, match="not a phase"):
        g.advance_to(4, "p99")


def test_core_advance_to_stops_at_a_persons_decision():
    g = wargames.load("fitl", seed=1)
    g.set_players({"US": None})
    g.advance_to(10, "card")
    assert g.turn < 10 and g.decision is not None and g.decision.side == "US"


def test_core_montecarlo_on_a_dask_local_cluster_gives_the_same_rows():
    """Issue #20: the same seeds give the same rows on a Dask cluster as in this process."""
    from dask.distributed import Client, LocalCluster

    here = wargames.montecarlo("fitl", 3, seed=10).drop(columns="seconds")
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        there = wargames.montecarlo("fitl", 3, seed=10, client=client, progress=lambda done, total: None)
        by_address = wargames.montecarlo("fitl", 2, seed=10, scheduler=cluster.scheduler_address)
    assert there.drop(columns="seconds").equals(here)
    assert by_address.drop(columns="seconds").equals(here.iloc[:2])


def test_core_montecarlo_progress_callback_and_cli(capsys, tmp_path):
    from wargames.cli import main

    seen = []
    wargames.montecarlo("tet", 2, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (2, 2)
    out = tmp_path / "mc.csv"
    assert main(["montecarlo", "fitl", "--games", "2", "--quiet", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "fitl: 2 games" in text and "%" in text and out.read_text().startswith("seed,winner,level")
