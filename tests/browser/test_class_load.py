"""The class load test in small (issue #32): ``benchmarks/bench_class.py`` with three students at once on a class
server (preheated pool of three), one in Chromium and two protocol clients (``benchmarks/widgetclient.py``), one
decision each, the tabs then closed.  The 30-student figures are a benchmark
(``benchmarks/results/class.md``); this checks that the load test and the class server still work together: every
student served, no shutdown refused, every student's kernel gone within seconds of the tab closing."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

from .test_ui import CHROMIUM

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian chromium not installed"),
    pytest.mark.skipif(
        not Path("/proc/self/stat").exists(), reason="needs /proc to see the kernel processes"
    ),
]
pytest.importorskip("voila")
pytest.importorskip("sqlalchemy")


def test_class_load_three_students_a_browser_and_two_protocol_clients_served_and_freed(tmp_path):
    spec = importlib.util.spec_from_file_location("bench_class", ROOT / "benchmarks" / "bench_class.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    out = tmp_path / "class.md"
    s = bench.main(
        ["--students", "3", "--browsers", "1", "--decisions", "1", "--timeout", "180", "--out", str(out)]
    )
    assert (s["served"], s["failed"], s["refused_shutdowns"]) == (3, 0, 0), s
    assert s["freed_s"] is not None and s["freed_s"] < 15, s
    assert s["browsers"] == 1 and s["first_browser"] != "-" and s["first_protocol"] != "-", s
    text = out.read_text()
    assert "| students served / failed | 3 / 0 |" in text and "time to first decision" in text
