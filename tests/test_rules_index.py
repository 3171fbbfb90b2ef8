"""The rules index keeps itself honest (issue #3, deliverable 3).

* every rule id the code or the sequence of play cites is listed in the game's ``rules_index.csv``;
* every row marked ``tested`` or ``implemented`` has a test named for it (``TET-P1-4`` -> ``test_tet_p1_4_...``, ``FITL-3.2.1`` -> ``test_fitl_3_2_1_...``)
  in the test file the row names;
* every row's code module exists and mentions the rule id.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GAMES = sorted(p.parent.name for p in (ROOT / "data").glob("*/rules_index.csv"))
PREFIX = {"tet": "TET", "yotr": "YOTR", "fitl": "FITL", "row": "ROW"}


def _index(game):
    with (ROOT / "data" / game / "rules_index.csv").open(newline="", encoding="utf-8") as fh:
        return {r["rule_id"]: r for r in csv.DictReader(fh)}


def _test_names():
    names = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        names |= set(re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M))
    return names


def _norm(rule_id):
    return rule_id.lower().replace("-", "_").replace(".", "_")


@pytest.mark.parametrize("game", GAMES)
def test_rules_index_lists_every_rule_the_code_cites(game):
    index = _index(game)
    pattern = re.compile(rf"\b{PREFIX[game]}-[A-Z0-9][A-Z0-9.]*(?:-[A-Z0-9]+)*\b")
    sources = list((ROOT / "wargames").rglob("*.py")) + list((ROOT / "data" / game).glob("*.yaml"))
    missing = {}
    for path in sources:
        for rule in pattern.findall(path.read_text(encoding="utf-8")):
            if rule not in index:
                missing.setdefault(rule, path.name)
    assert not missing, f"rule ids cited but not in data/{game}/rules_index.csv: {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_rules_index_implemented_rows_have_tests(game):
    names = _test_names()
    bad = []
    for rule, row in _index(game).items():
        if row["status"] not in ("tested", "implemented"):
            continue
        key = f"test_{_norm(rule)}_"
        if not any(n.startswith(key) for n in names):
            bad.append(f"{rule}: no test named {key}...")
        # the tests column: one test file, or several separated by ";" (a rule tested in more than one place)
        tests = row["tests"]
        files = [ROOT / t.split("::")[0] for t in filter(None, (tests or "").split(";"))]
        if not files or not all(f.exists() for f in files):
            bad.append(f"{rule}: tests column {tests!r} names no test file")
        elif not any(key in f.read_text(encoding="utf-8") for f in files):
            bad.append(f"{rule}: {tests} holds no {key}... test")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("game", GAMES)
def test_rules_index_code_column_points_at_code_citing_the_rule(game):
    bad = []
    for rule, row in _index(game).items():
        for path in filter(None, (row["code"] or "").split(";")):
            p = ROOT / path.strip()
            if not p.exists():
                bad.append(f"{rule}: code {path} does not exist")
            elif rule not in p.read_text(encoding="utf-8"):
                bad.append(f"{rule}: {path} never mentions {rule}")
        if row["status"] in ("tested", "implemented") and not row["code"]:
            bad.append(f"{rule}: marked {row['status']} but names no code")
    assert not bad, "\n".join(bad)
