"""What a teacher reads is current (issue #31 item 4): no text says a game is still "being built", no app is
"(when present)", the teacher's path leads to the apps first, and no page asks a CDN for MathJax."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STALE = [
    re.compile(r"\bbeing built\b", re.I),
    re.compile(r"\(when present\)", re.I),
    re.compile(r"\bonce (?:they are|it is) built\b", re.I),
    re.compile(r"Error displaying widget[^.]*run the cells again", re.I),
]


def _texts() -> list[tuple[str, str]]:
    """Every text a teacher or student reads: the READMEs, the guides and the notebooks' prose cells."""
    out = [(str(p.relative_to(ROOT)), p.read_text(encoding="utf-8")) for p in [ROOT / "README.md"]]
    out += [
        (str(p.relative_to(ROOT)), p.read_text(encoding="utf-8")) for p in (ROOT / "notebooks").glob("*.md")
    ]
    for nb in sorted((ROOT / "notebooks").rglob("*.ipynb")):
        if ".ipynb_checkpoints" in nb.parts:
            continue
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        out.append((str(nb.relative_to(ROOT)), text))
    return out


@pytest.mark.parametrize("pattern", STALE, ids=[p.pattern for p in STALE])
def test_no_stale_text_for_teachers(pattern):
    hits = [
        f"{name}: ...{text[max(0, m.start() - 60) : m.end() + 20]!r}..."
        for name, text in _texts()
        for m in pattern.finditer(text)
    ]
    assert not hits, "stale text:\n" + "\n".join(hits)


def test_the_teachers_path_leads_to_the_apps_first():
    guide = (ROOT / "notebooks" / "TEACHERS.md").read_text(encoding="utf-8")
    first_lesson = guide.index("## Lesson 1")
    apps = guide.index("apps/")
    assert apps < first_lesson, "TEACHERS.md must say how to open the apps before the first lesson"
    for where in ("Binder", "laptop", "class server"):
        assert where in guide[:first_lesson], f"TEACHERS.md does not say how to open an app on a {where}"
    start = json.loads((ROOT / "notebooks" / "00-start-here.ipynb").read_text(encoding="utf-8"))["cells"]
    prose = ["".join(c["source"]) for c in start if c["cell_type"] == "markdown"]
    first_code = next(i for i, c in enumerate(start) if c["cell_type"] == "code")
    assert any("apps/" in p for p in prose[:first_code]), (
        "00-start-here must lead to the apps before any code"
    )
    for game in ("tet", "yotr", "fitl", "row"):
        assert (ROOT / "notebooks" / "apps" / f"{game}.ipynb").exists()


class _Anything:
    """A stand-in for traitlets' config object: any attribute, any assignment."""

    def __getattr__(self, name):
        value = _Anything()
        object.__setattr__(self, name, value)
        return value


def _load_server_config(repo: Path) -> _Anything:
    c = _Anything()
    code = (ROOT / "jupyter_server_config.py").read_text(encoding="utf-8")
    exec(
        compile(code, "jupyter_server_config.py", "exec"),
        {"get_config": lambda: c, "__file__": str(repo / "x.py")},
    )
    return c


def test_servers_ask_no_cdn_for_mathjax_and_trust_our_notebooks(tmp_path, monkeypatch):
    """JupyterLab's Voila pages take MathJax's settings from the server: both null means the MathJax bundled
    with Voila's page (no cdnjs request); the project's notebooks are signed when the server starts, so that
    "Render with Voila" opens without the untrusted-notebook dialog."""
    nbformat = pytest.importorskip("nbformat")
    from nbformat.sign import NotebookNotary

    for var in ("JUPYTER_PATH", "BOKEH_RESOURCES"):
        monkeypatch.setenv(var, "")
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "data").mkdir()
    (tmp_path / "notebooks").mkdir()
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(1)")])
    nbformat.write(nb, tmp_path / "notebooks" / "a.ipynb")
    notary = NotebookNotary(data_dir=str(tmp_path / "data"))
    assert not notary.check_signature(nbformat.read(tmp_path / "notebooks" / "a.ipynb", as_version=4))

    c = _load_server_config(tmp_path)
    assert c.ServerApp.tornado_settings == {"mathjax_url": None, "mathjax_config": None}
    assert notary.check_signature(nbformat.read(tmp_path / "notebooks" / "a.ipynb", as_version=4))


def test_lab_settings_save_widget_state_and_are_installed():
    """A reopened notebook shows its last maps and widgets: JupyterLab saves the widget state with the notebook
    (an override installed into the environment by tools/install.sh and binder/postBuild)."""
    override = ROOT / "share" / "jupyter" / "lab" / "settings" / "overrides.d" / "wargames.json"
    settings = json.loads(override.read_text(encoding="utf-8"))
    assert settings["@jupyter-widgets/jupyterlab-manager:plugin"]["saveState"] is True
    for script in ("tools/install.sh", "binder/postBuild"):
        assert "overrides.d/wargames.json" in (ROOT / script).read_text(encoding="utf-8"), script


def test_the_readmes_python_examples_are_formatted_as_ruff_formats_them():
    """``ruff format --check .`` (the whole tree, as a contributor runs it) also reads the Python blocks of the
    Markdown files: the README's examples are written as ruff writes them, so the check stays clean."""
    import shutil
    import subprocess
    import sys

    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    if not Path(ruff).exists():
        pytest.skip("ruff is not installed")
    docs = [str(ROOT / "README.md"), *map(str, sorted((ROOT / "notebooks").glob("*.md")))]
    done = subprocess.run([ruff, "format", "--check", *docs], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
