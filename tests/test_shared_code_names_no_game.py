"""Issue #29 item 4: shared code names no game.  The core, the maps, the notebook kit and the testing helpers ask a
game for its declared facts (``GameType``, ``victory_facts``, ``data/<game>/notebook.yaml``) instead of branching on
its id or importing its package.  A game's own notebook modules (their names start with its id: ``tetmap.py``,
``fitlboard.py``, ``yotrcharts.py``) draw that game and may name it; docstrings may name games in examples."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from wargames.core.registry import known_games

ROOT = Path(__file__).resolve().parents[1] / "wargames"
GAMES = frozenset(known_games()) | {"tet", "yotr", "fitl", "row"}
#: the only shared file that may name games outside its docstrings: the registry, which finds them
ALLOWED = {"core/registry.py"}


def shared_files() -> list[Path]:
    files = [
        *ROOT.glob("core/*.py"),
        *ROOT.glob("maps/*.py"),
        *ROOT.glob("notebook/*.py"),
        ROOT / "testing.py",
    ]
    own = tuple(GAMES)
    return sorted(
        p
        for p in files
        if str(p.relative_to(ROOT)) not in ALLOWED
        and not (p.parent.name == "notebook" and p.name.startswith(own))
    )


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        kinds = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
        if isinstance(node, kinds) and node.body and isinstance(node.body[0], ast.Expr):
            out.add(id(node.body[0].value))
    return out


def game_names(path: Path) -> list[str]:
    """Every string constant (not a docstring) that is a game id, and every import of a game package, in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value in GAMES and id(node) not in docs:
            found.append(f"line {node.lineno}: the string {node.value!r}")
        elif isinstance(node, ast.ImportFrom) and node.module:
            parts = node.module.split(".")
            package = (
                parts[0] if node.level else (parts[1] if parts[0] == "wargames" and len(parts) > 1 else "")
            )
            if package in GAMES:
                found.append(f"line {node.lineno}: imports {node.module}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "wargames" and len(parts) > 1 and parts[1] in GAMES:
                    found.append(f"line {node.lineno}: imports {alias.name}")
    return found


@pytest.mark.parametrize("path", shared_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_issue_29_4_shared_code_names_no_game(path: Path):
    assert game_names(path) == []


def test_issue_29_4_the_check_finds_a_game_id(tmp_path: Path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        '"""Docs may say load("tet")."""\nfrom ..fitl.data import FACTIONS\nif game == "row":\n    pass\n'
    )
    assert game_names(bad) == ["line 2: imports fitl.data", "line 3: the string 'row'"]
