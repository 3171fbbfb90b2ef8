"""Notebooks are committed without outputs or widget state (an executed INLINE notebook weighs 8 MB)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(p for p in (ROOT / "notebooks").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_committed_without_outputs(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    assert "widgets" not in nb.get("metadata", {}), "widget state saved in the notebook"
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            assert not cell.get("outputs") and cell.get("execution_count") is None, "outputs saved"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_has_asserts_and_no_print_only_ui(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    code = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    assert any("assert " in c for c in code), "a notebook must check itself with assert cells"
    assert sum(c["cell_type"] == "markdown" for c in nb["cells"]) >= len(code) // 2, "explain the outputs"
