"""Open a classroom app (``notebooks/apps/<game>.ipynb``) in Voila, configured for a class.

    .venv/bin/python -m wargames.notebook.app tet            # or yotr, fitl, row; then open the printed URL
    .venv/bin/python -m wargames.notebook.app fitl --port 8870 --Voila.ip=0.0.0.0   # extra args go to voila
    .venv/bin/python -m wargames.notebook.app tet --class 30 --Voila.ip=0.0.0.0    # a class server (issue #32)

``--class N`` starts a class server: Voila's preheated kernel pool holds N kernels that have already imported
the package, loaded the rules data and built the app's new game, each waiting for a student's request, so a
student's page shows the first decision at once (a returning student's stored game is replayed into it).  The
pool is refilled ``--refill`` seconds (default 300) after a kernel is taken, so the refills do not compete with
the students' first decisions.  Every game is saved after each decision in ``wargames-class.sqlite`` in the
directory the command runs in (``$WARGAMES_STORE_DIR``, or any database by ``$WARGAMES_STORE_URL``).

Voila then runs from the repository root, so it reads ``voila.json`` (idle kernels culled, code hidden, no
tracebacks), with the "classroom" template (``share/jupyter/voila/templates/classroom``: Voila's lab
template without its Font Awesome CDN links); the server (``wargames.notebook.voilaserver``: Voila plus one
route) serves BokehJS from the installed package as static files, so the page loads nothing from a CDN and does
not carry BokehJS inline.  ``.venv/bin/voila notebooks/apps/tet.ipynb`` from the repository root also works, with the same
culling, but Voila's own template asks a CDN for its icon font.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _apps() -> tuple[str, ...]:
    """The games with a classroom app (``notebooks/apps/<game>.ipynb``), in their declared order
    (``data/<game>/notebook.yaml``, issue #29 item 4)."""
    from ..core.presentation import ordered_games

    return ordered_games(p.stem for p in (ROOT / "notebooks" / "apps").glob("*.ipynb"))


APPS = _apps()
TEMPLATE = "classroom"
#: Voila with BokehJS served as cacheable static files (``wargames/notebook/voilaserver.py``).
SERVER = "wargames.notebook.voilaserver"


def notebook_path(app: str) -> Path:
    """``notebooks/apps/<app>.ipynb`` (or ``app`` itself if it is a notebook or a folder of them)."""
    if app.endswith(".ipynb") or Path(app).is_dir():
        return Path(app).resolve()
    if app not in APPS:
        raise SystemExit(f"unknown app {app!r}: choose one of {', '.join(APPS)} (notebooks/apps/)")
    return ROOT / "notebooks" / "apps" / f"{app}.ipynb"


def voila_env(base: dict[str, str] | None = None) -> dict[str, str]:
    """The environment for the Voila server (its kernels inherit it): inline BokehJS, the classroom
    template on JUPYTER_PATH, this checkout first on PYTHONPATH, and the class store next to the server (the
    directory the command runs in, unless ``$WARGAMES_STORE_DIR`` or ``$WARGAMES_STORE_URL`` says otherwise)."""
    env = dict(os.environ if base is None else base)
    env.setdefault("BOKEH_RESOURCES", "inline")
    env.setdefault("WARGAMES_STORE_DIR", os.getcwd())
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
    return [sys.executable, "-m", SERVER, str(rel), f"--template={TEMPLATE}", "--no-browser", *extra]


def class_args(students: int, refill: float = 300.0) -> list[str]:
    """Voila's options for a class of ``students``: a preheated pool of that many kernels, refilled ``refill``
    seconds after a kernel is taken."""
    if students < 1:
        raise SystemExit(f"--class {students}: give the number of students (1 or more)")
    return [
        "--preheat_kernel=True",
        f"--pool_size={students}",
        f"--VoilaKernelManager.fill_delay={refill}",
        # the kernels talk to the server over Unix sockets named after each kernel, not TCP ports: a pool of 30
        # kernels started at once on TCP lost one in two runs of 30 (a port handed to two kernels in the same
        # instant: 'Address already in use', five restarts on the same port, and its student got an error page)
        "--KernelManager.transport=ipc",
    ]


def _take(args: list[str], flag: str) -> str | None:
    """Remove ``flag N`` or ``flag=N`` from ``args`` and return N (None if absent)."""
    for i, a in enumerate(args):
        if a == flag and i + 1 < len(args):
            value = args[i + 1]
            del args[i : i + 2]
            return value
        if a.startswith(flag + "="):
            del args[i]
            return a.split("=", 1)[1]
    return None


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    students, refill = _take(args, "--class"), _take(args, "--refill")
    extra = args[1:]
    if students is not None:
        extra = class_args(int(students), float(refill) if refill is not None else 300.0) + extra
    cmd = voila_command(args[0], extra)
    return subprocess.call(cmd, cwd=ROOT, env=voila_env())


if __name__ == "__main__":
    raise SystemExit(main())
