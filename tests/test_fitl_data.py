"""Fire in the Lake data integrity (issue #6 groundwork): 47 spaces, 143 adjacencies, the force pool, the
130-card list, and each scenario's printed victory-marker totals (rules 1.9 / 7.2) recomputed exactly from the
placed pieces.  The checks live in tools/check_fitl_data.py so they also run by hand."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_fitl_data_board_deck_and_scenario_victory_totals():
    out = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "check_fitl_data.py")], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
