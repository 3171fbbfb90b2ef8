"""The benchmarks run (with few games, one notebook) so they cannot rot; their figures go in closing notes, not asserts."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load(name):
    """The benchmark script ``benchmarks/<name>.py`` as a module."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.slow
def test_benchmarks_core_runs(capsys):
    mod = _load("bench_core")
    out = mod.main(["--games", "1", "--full-games", "1"])  # one game of each kind shows it runs
    assert out["tet.apply_median_ms"] > 0 and out["import_wargames_ms"] > 0
    assert "import_wargames_ms" in capsys.readouterr().out


@pytest.mark.slow
def test_benchmarks_montecarlo_runs_for_every_game(tmp_path):
    import wargames

    mod = _load("montecarlo")
    for game_id in wargames.games():
        out = mod.main([game_id, "--games", "1", "--workers", "1", "--out", str(tmp_path / f"{game_id}.csv")])
        assert out["games"] == 1 and (tmp_path / f"{game_id}.csv").read_text().count("\n") == 2


@pytest.mark.slow
def test_benchmarks_back_and_montecarlo_scaling_run(capsys, tmp_path):
    rows = _load("bench_back").measure("fitl", "short", 1, 2)
    assert len(rows) == 3 and all(r["undo median ms"] >= 0 for r in rows)
    out = tmp_path / "scaling.md"
    scaling = _load("bench_montecarlo").main(["--game", "fitl", "--games", "4", "--out", str(out)])
    assert [r["way"] for r in scaling][-1].startswith(
        "Dask"
    ) and "same rows every way: True" in capsys.readouterr().out
    written = out.read_text()
    assert written.startswith("## fitl: 4 games, ") and "Load average (1/5/15 min) before: " in written
    assert "cores, Python " in written and written.count("| Dask LocalCluster, 2 workers | 2 |") == 1


@pytest.mark.slow
def test_bench_speed_runs(capsys):
    mod = _load("bench_speed")
    rows = mod.main(["--seeds", "1", "--apply-seeds", "1", "--games", "tet", "--no-write"])
    assert [r["game"] for r in rows] == ["tet"]
    row = rows[0]
    assert row["cpu_median"] > 0 and row["first_ms"] > 0 and row["tracemalloc_mb"] > 0 and row["apply_ms"] > 0
    assert "| tet | historical |" in capsys.readouterr().out


@pytest.mark.slow
def test_bench_load_measures_first_load_and_memory(tmp_path, capsys):
    out = tmp_path / "load.md"
    rows = _load("bench_load").main(["--games", "tet", "--runs", "1", "--out", str(out), "--label", "smoke"])
    assert [r["game"] for r in rows] == ["tet"]
    assert (
        rows[0]["no_pyc_ms"] > 0
        and rows[0]["cold_ms"] > 0
        and rows[0]["maxrss_traced_mb"] > rows[0]["traced_mb"]
    )
    assert out.read_text().count("## smoke\n") == 1 and "| tet | historical |" in capsys.readouterr().out


@pytest.mark.slow
def test_bench_notebooks_times_a_notebook(tmp_path):
    out = tmp_path / "notebooks.md"
    rows = _load("bench_notebooks").main([str(ROOT / "notebooks" / "00-start-here.ipynb"), "--out", str(out)])
    assert (
        len(rows) == 1
        and not rows[0]["error"]
        and rows[0]["cpu_s"] > 0
        and rows[0]["wall_s"] >= rows[0]["cpu_s"] / 2
    )
    assert "| notebooks/00-start-here.ipynb |" in out.read_text()


def test_fitl_nva_reasons_names_the_rally_conditions():
    """benchmarks/fitl_nva_reasons.py (issue #28 item 15): the reasons are shortened to the 8.6.4 conditions."""
    mod = _load("fitl_nva_reasons")
    assert mod.reason("NVA 8.6.4: Rally because the roll 9 exceeds the 6 NVA Guerrillas Available") == (
        "2d6 exceeds the NVA Guerrillas Available"
    )
    assert (
        mod.reason("NVA 8.6.4: Rally because the Trail is at 1 (NVA 8.6.2: no Event)")
        == "the Trail is 0 or 1"
    )
    assert mod.reason("NVA 8.6.5: March (no other Operation's condition applies)") == "March"


@pytest.mark.slow
def test_benchmarks_analyse_runs_and_reports_cpu_and_targets(capsys):
    """Issue #33 item 4: the analysis board benchmark runs (one game, few replays, in this process)."""
    mod = _load("bench_analyse")
    lines = mod.main(["fitl", "--rollouts", "1", "--workers", "1", "--horizon", "turn"])
    assert lines[0]["candidates"] == 8 and lines[0]["cpu_s"] >= 0 and lines[0]["target_s"] == 30.0
    assert "fitl  turn" in capsys.readouterr().out


@pytest.mark.slow
def test_benchmarks_lesson_runs(capsys):
    mod = _load("bench_lesson")
    out = mod.main(["--games", "fitl", "--seeds", "3"])
    assert out["fitl"]["lesson"] <= out["fitl"]["apply"] + 1
    assert "| fitl | 8 |" in capsys.readouterr().out
