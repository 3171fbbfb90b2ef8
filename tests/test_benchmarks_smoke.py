"""The benchmarks run (with few games) so they cannot rot; their figures go in closing notes, not asserts."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_benchmarks_core_runs(capsys):
    spec = importlib.util.spec_from_file_location("bench_core", ROOT / "benchmarks" / "bench_core.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = mod.main(["--games", "2"])
    assert out["tet.apply_median_ms"] > 0 and out["import_wargames_ms"] > 0
    assert "import_wargames_ms" in capsys.readouterr().out


@pytest.mark.slow
def test_benchmarks_montecarlo_runs_for_every_game(tmp_path):
    import wargames

    spec = importlib.util.spec_from_file_location("montecarlo", ROOT / "benchmarks" / "montecarlo.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for game_id in wargames.games():
        out = mod.main([game_id, "--games", "2", "--workers", "1", "--out", str(tmp_path / f"{game_id}.csv")])
        assert out["games"] == 2 and (tmp_path / f"{game_id}.csv").read_text().count("\n") == 3


def _load(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.slow
def test_benchmarks_back_and_montecarlo_scaling_run(capsys, tmp_path):
    rows = _load("bench_back").measure("fitl", "short", 1, 2)
    assert len(rows) == 3 and all(r["undo median ms"] >= 0 for r in rows)
    out = tmp_path / "scaling.md"
    scaling = _load("bench_montecarlo").main(["--game", "fitl", "--games", "4", "--out", str(out)])
    assert [r["way"] for r in scaling][-1].startswith("Dask") and "same rows every way: True" in capsys.readouterr().out
    written = out.read_text()
    assert written.startswith("## fitl: 4 games, ") and "Load average (1/5/15 min) before: " in written
    assert "cores, Python " in written and written.count("| Dask LocalCluster, 2 workers | 2 |") == 1


@pytest.mark.slow
def test_bench_speed_runs(capsys):
    spec = importlib.util.spec_from_file_location("bench_speed", ROOT / "benchmarks" / "bench_speed.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    rows = mod.main(["--seeds", "1", "--apply-seeds", "1", "--games", "tet", "--no-write"])
    assert [r["game"] for r in rows] == ["tet"]
    row = rows[0]
    assert row["cpu_median"] > 0 and row["first_ms"] > 0 and row["tracemalloc_mb"] > 0 and row["apply_ms"] > 0
    assert "| tet | historical |" in capsys.readouterr().out

