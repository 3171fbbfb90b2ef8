"""The layers of DESIGN.md ("Layers": arrows point to what a layer may import) hold in the code (issue #14, "Done
when"): ``wargames.core`` <- the games <- ``wargames.notebook`` <- notebooks.

Read with ``ast`` (nothing is imported), every ``import`` and ``from ... import`` of every module under
``wargames/``, at module level and inside functions, is checked:

* Bokeh and ipywidgets are imported only under ``wargames/notebook`` (the rules run headless);
* the base (``wargames.core``, ``wargames.maps``, the package's ``__init__`` and ``wargames.testing``) imports no
  game package, nor the notebook kit or the CLI;
* a game package imports no other game package, nor the notebook kit or the CLI;
* the CLI does not import the notebook kit.

A game package is any package directly under ``wargames/`` that is not the base or the notebook kit, so a fifth
game is checked with no edit here.  A failure names the file, the line and the import.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "wargames"
BASE = frozenset({"core", "maps", "testing", ""})  # "": wargames/__init__.py
NOTEBOOK = "notebook"
CLI = "cli"
DISPLAY = ("bokeh", "ipywidgets")  # may be imported only by the notebook kit
GAMES = frozenset(p.name for p in PKG.iterdir() if (p / "__init__.py").exists()) - BASE - {NOTEBOOK}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> list[tuple[int, str]]:
    """Every module ``path`` imports, absolute, with its line (relative imports resolved against the file's
    package; ``from pkg import name`` counts as importing ``pkg.name`` too, as ``name`` may be a module)."""
    mod = _module_name(path)
    package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            out.append((node.lineno, target))
            out += [(node.lineno, f"{target}.{a.name}") for a in node.names if a.name != "*"]
    return out


def _layer(module: str) -> str | None:
    """The part of wargames a module belongs to ("core", "row", "notebook" ...); None outside wargames."""
    parts = module.split(".")
    if parts[0] != "wargames":
        return None
    return parts[1] if len(parts) > 1 else ""


def _forbidden(owner: str, target: str) -> str | None:
    """Why ``owner`` (a part of wargames) may not import ``target`` (a module), or None."""
    top = target.split(".")[0]
    if top in DISPLAY and owner != NOTEBOOK:
        return f"{top} below wargames/notebook"
    layer = _layer(target)
    if layer is None or layer == owner:
        return None
    if layer == NOTEBOOK and owner != NOTEBOOK:
        return "the notebook kit from below it"
    if layer == CLI and owner != CLI:
        return "the CLI"
    if owner in BASE and layer in GAMES:
        return f"a game package ({layer}) from the base"
    if owner in GAMES and layer in GAMES:
        return f"another game package ({layer}) from {owner}"
    return None


def offences(root: Path = PKG) -> list[str]:
    """``file:line: imports X (why)`` for every import that breaks the layers."""
    out = []
    for path in sorted(root.rglob("*.py")):
        owner = _layer(_module_name(path))
        seen = set()
        for line, target in imports(path):
            why = _forbidden(owner, target)
            if why and (line, why) not in seen:
                seen.add((line, why))
                out.append(f"{path.relative_to(ROOT)}:{line}: imports {target} ({why})")
    return out


def test_every_module_keeps_to_its_layer():
    bad = offences()
    assert not bad, "imports across DESIGN.md's layers:\n" + "\n".join(bad)


def test_the_four_games_are_found_as_game_packages():
    assert {"tet", "yotr", "fitl", "row"} <= GAMES and not GAMES & (BASE | {NOTEBOOK})


@pytest.mark.parametrize(
    ("where", "source", "why"),
    [
        ("wargames/row/combat.py", "def f():\n    from bokeh.plotting import figure\n", "bokeh below"),
        ("wargames/core/engine.py", "from ..fitl import mapdata\n", "game package (fitl) from the base"),
        ("wargames/core/engine.py", "import wargames.tet.game\n", "game package (tet) from the base"),
        ("wargames/tet/game.py", "from ..yotr.hexmap import load\n", "another game package (yotr)"),
        ("wargames/tet/game.py", "from wargames import row\n", "another game package (row)"),
        ("wargames/maps/layers.py", "import ipywidgets as w\n", "ipywidgets below"),
        ("wargames/yotr/game.py", "from ..notebook import PlayGame\n", "the notebook kit"),
    ],
)
def test_an_import_across_the_layers_is_named_with_its_file_and_line(
    tmp_path, monkeypatch, where, source, why
):
    """The checker itself: a planted bad import (module level or inside a function) is reported by file and
    line; the same import from the notebook kit is not."""
    fake = tmp_path / where
    fake.parent.mkdir(parents=True)
    fake.write_text("import json\n" + source)
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    bad = offences(tmp_path / "wargames")
    assert len(bad) == 1 and bad[0].startswith(f"{where}:") and why in bad[0], bad
    assert bad[0].split(":")[1] in ("2", "3")
    ok = tmp_path / "wargames" / "notebook" / "view.py"
    ok.parent.mkdir(parents=True, exist_ok=True)
    ok.write_text(source)
    assert len(offences(tmp_path / "wargames")) == 1
