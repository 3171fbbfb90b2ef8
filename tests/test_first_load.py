"""The first ``load()`` of a game (issue #21): from the parsed-data cache it validates nothing and does not scan
the installed distributions."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from wargames.core.registry import GROUP, _entry_points_txt

ROOT = Path(__file__).resolve().parents[1]

CHECK = """
import sys, wargames
from pydantic import BaseModel
from pydantic._internal._mock_val_ser import MockValSer
wargames.load("tet", "historical", 0)
def subclasses(c):
    for s in c.__subclasses__():
        yield s
        yield from subclasses(s)
built = sorted(c.__qualname__ for c in subclasses(BaseModel)
               if c.__module__.startswith("wargames") and not isinstance(c.__pydantic_validator__, MockValSer))
print(built, "importlib.metadata" in sys.modules)
"""


def test_first_load_from_the_cache_builds_no_validator_and_scans_no_distribution(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "WARGAMES_CACHE": str(tmp_path / "cache")}
    first = subprocess.run([sys.executable, "-c", CHECK], env=env, capture_output=True, text=True, check=True)
    assert first.stdout.strip() != "[] False"  # an empty cache: every file validated
    again = subprocess.run([sys.executable, "-c", CHECK], env=env, capture_output=True, text=True, check=True)
    assert again.stdout.strip() == "[] False"


def test_registry_reads_the_games_section_of_entry_points_txt(tmp_path):
    path = tmp_path / "entry_points.txt"
    path.write_text(
        f"[console_scripts]\nwargames = wargames.cli:main\n\n[{GROUP}]\ntet = wargames.tet.game:TetGame\n"
        "# a comment\nrow=wargames.row.game:RowGame\n",
        encoding="utf-8",
    )
    assert _entry_points_txt(str(path)) == {
        "tet": "wargames.tet.game:TetGame",
        "row": "wargames.row.game:RowGame",
    }
    assert _entry_points_txt(str(tmp_path / "missing.txt")) == {}
