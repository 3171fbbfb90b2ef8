"""The standing fuzz in CI (issue #30 item 14): a bounded slice of ``tools/fuzz.py`` (games with Back, save-reopen-
continue and branches; corrupted data files expecting a clear error naming the file).  The long run's figures are
in ``benchmarks/results/fuzz.md``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import fuzz  # noqa: E402


@pytest.mark.slow
def test_fuzz_games_keep_their_invariants_through_back_reopen_and_branches():
    figs = fuzz.fuzz_games(seconds=10, first_seed=101, max_decisions=60, min_games=4)
    assert figs.games >= 4 and figs.decisions > 100  # every game at least once
    assert not figs.failures, figs.failures[:3]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game_id", "rel", "how"),
    [
        ("tet", "tet/units.csv", "not-utf8"),
        ("tet", "tet/factions.csv", "half"),
        ("yotr", "yotr/crt.csv", "half"),
        ("fitl", "fitl/pieces.csv", "empty"),
        ("row", "row/units.csv", "dup-row"),
    ],
)
def test_a_corrupted_data_file_gives_a_clear_error_naming_it(game_id, rel, how):
    got = fuzz.corrupt_one(game_id, Path(rel), how)
    assert got["kind"] == "clear", got
