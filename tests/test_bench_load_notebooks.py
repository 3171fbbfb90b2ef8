"""The first-load and notebook benchmarks (issue #21) run, so they cannot rot; figures go in closing notes."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.slow
def test_bench_load_measures_first_load_and_memory(tmp_path, capsys):
    out = tmp_path / "load.md"
    rows = _load("bench_load").main(["--games", "tet", "--runs", "1", "--out", str(out), "--label", "smoke"])
    assert [r["game"] for r in rows] == ["tet"]
    assert rows[0]["no_pyc_ms"] > 0 and rows[0]["cold_ms"] > 0 and rows[0]["maxrss_traced_mb"] > rows[0]["traced_mb"]
    assert out.read_text().count("## smoke\n") == 1 and "| tet | historical |" in capsys.readouterr().out


@pytest.mark.slow
def test_bench_notebooks_times_a_notebook(tmp_path):
    out = tmp_path / "notebooks.md"
    rows = _load("bench_notebooks").main([str(ROOT / "notebooks" / "00-start-here.ipynb"), "--out", str(out)])
    assert len(rows) == 1 and not rows[0]["error"] and rows[0]["cpu_s"] > 0 and rows[0]["wall_s"] >= rows[0]["cpu_s"] / 2
    assert "| notebooks/00-start-here.ipynb |" in out.read_text()
