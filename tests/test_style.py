"""CI guards the style (issue #29 item 7): a complexity limit with an allow-list that can only shrink.

ruff's C901 (McCabe complexity, ``max-complexity`` in ``pyproject.toml``) is not in the lint selection, since 100-odd
older functions are over it; instead ``ci/complexity_allowlist.txt`` names those, and these tests keep the list
exact: a new function over the limit fails, and so does a listed one that is no longer over it (remove its line).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ALLOW = ROOT / "ci" / "complexity_allowlist.txt"
SCOPE = ("wargames", "tools", "benchmarks")


def _limit() -> int:
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return conf["tool"]["ruff"]["lint"]["mccabe"]["max-complexity"]


def _over_limit() -> Counter[str]:
    """Every function ruff finds over the limit, as ``path::name`` (counted: a name may repeat in a file)."""
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruff",
            "check",
            "--select",
            "C901",
            "--output-format",
            "json",
            "--exit-zero",
            *SCOPE,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found: Counter[str] = Counter()
    for e in json.loads(out):
        name = re.match(r"`([^`]+)`", e["message"])
        assert name, e["message"]
        found[f"{Path(e['filename']).resolve().relative_to(ROOT).as_posix()}::{name.group(1)}"] += 1
    return found


def _listed() -> Counter[str]:
    lines = ALLOW.read_text(encoding="utf-8").splitlines()
    return Counter(s.strip() for s in lines if s.strip() and not s.startswith("#"))


def test_style_limit_is_ten():
    assert _limit() == 10


def test_style_no_function_over_the_complexity_limit_unless_allow_listed():
    new = _over_limit() - _listed()
    assert not new, (
        f"functions over complexity {_limit()} (ruff C901) not in ci/complexity_allowlist.txt: {sorted(new)}; "
        "split them into smaller steps instead of listing them"
    )


def test_style_the_complexity_allow_list_only_shrinks():
    stale = _listed() - _over_limit()
    assert not stale, (
        f"ci/complexity_allowlist.txt lists functions no longer over complexity {_limit()} (or gone): "
        f"{sorted(stale)}; remove their lines"
    )
