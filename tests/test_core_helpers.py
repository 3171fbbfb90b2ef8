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

    frame = wargames.montecarlo(
        "tet", 1, options={"players": 4}, players=lambda g: {s: RandomPlayer(g.seed) for s in g.sides}
    )
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
    with (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
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


# ------------------------------------------------------------------ one rules index, one rule_ref (item 1)
@pytest.mark.parametrize(
    "game_id,rule,ref",
    [
        ("tet", "TET-COMP-2", "line 4"),
        ("yotr", "YOTR-SOP", "line 228"),
        ("fitl", "FITL-1.1", "rules 1.1, line 26"),
        ("row", "ROW-1.0", "rules 1.0, line 34"),
    ],
)
def test_core_rules_index_one_loader_and_one_rule_ref_for_every_game(game_id, rule, ref):
    from wargames.core.data import RuleRow
    from wargames.core.registry import game_class

    index = game_class(game_id).rules_index()
    assert all(type(r) is RuleRow for r in index.values()) and index[rule].ref == ref
    game = wargames.load(game_id, seed=0)
    assert game.rule_ref(rule) == ref and game.rule_ref("NO-SUCH-RULE") == ""
    assert game.ruling(rule, "t", "e").rule_ref == ref


def _index_file(tmp_path, header, *rows):
    p = tmp_path / "rules_index.csv"
    p.write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    return p


def test_core_rules_index_columns_may_be_left_out_and_are_derived(tmp_path):
    from wargames.core.data import read_rules_index

    p = _index_file(
        tmp_path,
        "rule_id,title,summary,status,decision,source",
        'X-3.2,Moves,"How units move.",not yet,D-1,"rules:3.2, L40"',
        "X-SOP,Turns,Order.,omitted,,rules:L7",
    )
    index = read_rules_index(p, "X")
    assert (
        index["X-3.2"].section == "3.2" and index["X-3.2"].line == "40" and index["X-3.2"].decisions == "D-1"
    )
    assert index["X-SOP"].section is None and index["X-SOP"].ref == "line 7"


@pytest.mark.parametrize(
    "header,row,problem",
    [
        (
            "rule_id,title,summary,status,colour,source",
            "X-1,T,S,tested,red,rules:L1",
            "unexpected ['colour']",
        ),
        ("rule_id,title,summary,source", "X-1,T,S,rules:L1", "missing ['status']"),
        ("rule_id,title,summary,status,source", "Y-1,T,S,tested,rules:L1", "must start with X-"),
        ("rule_id,title,summary,status,source", "X-1,T,S,done,rules:L1", "column 'status'"),
    ],
)
def test_core_rules_index_bad_file_is_a_clear_error(tmp_path, header, row, problem):
    from wargames.core.data import DataError, read_rules_index

    with pytest.raises(DataError, match="rules_index.csv") as err:
        read_rules_index(_index_file(tmp_path, header, row), "X")
    assert problem in str(err.value)


def test_core_rules_index_repeated_id_names_its_line(tmp_path):
    from wargames.core.data import DataError, read_rules_index

    p = _index_file(
        tmp_path, "rule_id,title,summary,status,source", "X-1,T,S,tested,rules:L1", "X-1,T,S,tested,rules:L2"
    )
    with pytest.raises(DataError, match="line 3.*duplicate rule id 'X-1'"):
        read_rules_index(p, "X")
