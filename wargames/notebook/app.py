"""Open a classroom app (``notebooks/apps/<game>.ipynb``) in Voila, configured for a class.

    .venv/bin/python -m wargames.notebook.app tet            # or yotr, fitl, row; then open the printed URL
    .venv/bin/python -m wargames.notebook.app fitl --port 8870 --Voila.ip=0.0.0.0   # extra args go to voila

Voila then runs from the repository root, so it reads ``voila.json`` (idle kernels culled, code hidden, no
tracebacks), with the "classroom" template (``share/jupyter/voila/templates/classroom``: Voila's lab
template without its Font Awesome CDN links) and ``BOKEH_RESOURCES=inline``: the page loads nothing from
a CDN.  ``.venv/bin/voila notebooks/apps/tet.ipynb`` from the repository root also works, with the same
culling, but Voila's own template asks a CDN for its icon font.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ("tet", "yotr", "fitl", "row")
TEMPLATE = "classroom"


def notebook_path(app: str) -> Path:
    """``notebooks/apps/<app>.ipynb`` (or ``app`` itself if it is a notebook or a folder of them)."""
    if app.endswith(".ipynb") or Path(app).is_dir():
        return Path(app).resolve()
    if app not in APPS:
        raise SystemExit(f"unknown app {app!r}: choose one of {', '.join(APPS)} (notebooks/apps/)")
    return ROOT / "notebooks" / "apps" / f"{app}.ipynb"


def voila_env(base: dict[str, str] | None = None) -> dict[str, str]:
    """The environment for the Voila server (its kernels inherit it): inline BokehJS, the classroom
    template on JUPYTER_PATH, and this checkout first on PYTHONPATH."""
    env = dict(os.environ if base is None else base)
    env.setdefault("BOKEH_RESOURCES", "inline")
    share = str(ROOT / "share" / "jupyter")
    env["JUPYTER_PATH"] = os.pathsep.join(p for p in (share, env.get("JUPYTER_PATH", "")) if p)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    return env


def voila_command(app: str, extra: Sequence[str] = ()) -> list[str]:
    """The Voila command line for an app (run it with ``cwd=ROOT`` so that ``voila.json`` is read)."""
    nb = notebook_path(app)
    try:
        rel = nb.relative_to(ROOT)
    except ValueError:
        rel = nb
    return [sys.executable, "-m", "voila", str(rel), f"--template={TEMPLATE}", "--no-browser", *extra]


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    cmd = voila_command(args[0], args[1:])
    return subprocess.call(cmd, cwd=ROOT, env=voila_env())


if __name__ == "__main__":
    raise SystemExit(main())
