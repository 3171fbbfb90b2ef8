"""Binder, checked as far as this machine can (issue #20 deliverable 4).

The fast tests check the configuration: ``binder/requirements.txt`` pins exactly what CI's tests run
(``tools/binder_requirements.py`` writes it from ``ci/constraints.txt``), the Python of ``binder/runtime.txt`` is
the one the tests run on, ``postBuild`` fails loudly, and every Binder link in the README and the front door
points at a file that exists.

The slow test (marked ``binder``; 3 minutes on this 2-core machine under a load average of 9-10, most of it the
two pip installs, so CI runs it; each step's time is printed) builds the Binder
environment the way repo2docker does, in a clean venv instead of a Docker image: first the base environment
repo2docker starts from (``ci/binder-base.txt``: its JupyterLab, Notebook, ipywidgets, Jupyter server and kernel),
then ``pip install -r binder/requirements.txt``, ``pip check``, then ``binder/postBuild`` run from a copy of the
repository with its own HOME.  In that environment it starts JupyterLab on the repository as Binder does, and
opens the README's URLs: the front door in JupyterLab and the Tet app through Voila's ``/voila/render/`` URL,
which must come back rendered (its notebook executed by a kernel of that environment) with its play widget and
without an error output.  The pip installs skip byte-compiling (``--no-compile``: the environment is thrown away,
and compiling its 800 MB cost a third of the installs' processor time).  The front-door notebook is not executed
again here: every package its kernel imports is pinned in ``binder/requirements.txt`` to the version CI's tests
run (the fast test above), and CI's nbval runs it with those versions.
Deselect it with ``-m "not binder"`` where PyPI cannot be reached.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BINDER_URL = re.compile(r"mybinder\.org/v2/gh/[^)\s\"]*?\?urlpath=(lab/tree|voila/render)/([^)\s\"&]+)")


def _binder_links() -> list[tuple[str, str, str]]:
    """(where, kind, path) of every Binder link in the README, the notebooks' Markdown and the front door."""
    sources = [ROOT / "README.md", ROOT / "notebooks" / "README.md", ROOT / "notebooks" / "TEACHERS.md"]
    sources += sorted((ROOT / "notebooks").glob("*.ipynb"))
    out = []
    for src in sources:
        text = src.read_text(encoding="utf-8")
        if src.suffix == ".ipynb":
            text = "\n".join("".join(c["source"]) for c in json.loads(text)["cells"])
        out += [(src.name, kind, path) for kind, path in BINDER_URL.findall(text)]
    return out


# ---------------------------------------------------------------------------------------------- configuration
def test_binder_requirements_pin_exactly_the_versions_the_tests_run():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import binder_requirements as gen
    finally:
        sys.path.pop(0)
    written = (ROOT / "binder" / "requirements.txt").read_text(encoding="utf-8")
    assert written == gen.render(), (
        "binder/requirements.txt is stale: run python tools/binder_requirements.py"
    )
    pins = gen.constraints()
    lines = [ln for ln in written.splitlines() if ln and not ln.startswith("#")]
    for line in lines:
        name, _, version = line.partition("==")
        assert version, f"binder/requirements.txt: {line!r} is not pinned"
        assert pins[gen.norm(name)][1] == version, (
            f"{name}: Binder {version}, tests {pins[gen.norm(name)][1]}"
        )
    named = {gen.norm(ln.partition("==")[0]) for ln in lines}
    assert {"bokeh", "jupyter-bokeh", "pandas", "pydantic", "voila", "distributed", "ipykernel"} <= named
    assert not named & {"jupyterlab", "notebook"}  # left to the base environment (research/stack-probe.md 5)


def test_binder_runtime_is_the_python_the_tests_run_on_and_postbuild_fails_loudly():
    runtime = (ROOT / "binder" / "runtime.txt").read_text(encoding="utf-8").strip()
    assert runtime == f"python-{sys.version_info.major}.{sys.version_info.minor}"
    post = ROOT / "binder" / "postBuild"
    text = post.read_text(encoding="utf-8")
    assert text.startswith("#!/bin/bash") and "set -euo pipefail" in text and os.access(post, os.X_OK)
    assert "--no-deps -e ." in text  # the dependency layer stays binder/requirements.txt's


def test_every_binder_link_points_at_a_file_that_exists():
    links = _binder_links()
    kinds = {(where, kind) for where, kind, _ in links}
    assert ("README.md", "lab/tree") in kinds and ("README.md", "voila/render") in kinds
    for where, kind, path in links:
        assert (ROOT / path).is_file(), f"{where}: Binder link {kind}/{path} names no file"
    apps = {p for _, k, p in links if k == "voila/render" and p.startswith("notebooks/apps/")}
    assert apps == {f"notebooks/apps/{p.name}" for p in (ROOT / "notebooks" / "apps").glob("*.ipynb")}, (
        "every app has a Binder link in the README, and every link an app"
    )


# ---------------------------------------------------------------------------------------------- the build
def _run(cmd: list[str], *, cwd: Path, env: dict[str, str], timeout: int) -> str:
    t = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    print(
        f"[{time.perf_counter() - t:6.1f} s] {' '.join(Path(c).name if '/' in c else c for c in cmd)[:100]}"
    )
    assert proc.returncode == 0, (
        f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    )
    return proc.stdout


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str, timeout: float = 120) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, r.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as err:
        return err.code, ""
    except OSError:  # not listening yet
        return 0, ""


@pytest.mark.slow
@pytest.mark.binder
def test_binder_environment_builds_serves_the_front_door_and_renders_an_app(tmp_path):
    venv, home, repo = tmp_path / "venv", tmp_path / "home", tmp_path / "repo"
    home.mkdir()
    shutil.copytree(
        ROOT,
        repo,
        ignore=shutil.ignore_patterns(
            ".git", ".venv", "artifacts", "__pycache__", "*.egg-info", "build", "dist", ".ipynb_checkpoints"
        ),
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON", "JUPYTER"))}
    # a fresh HOME as in the image, but pip's cache of this machine (Binder itself installs without one)
    cache = os.environ.get("PIP_CACHE_DIR") or str(
        Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pip"
    )
    env.update(
        HOME=str(home),
        PATH=f"{venv / 'bin'}{os.pathsep}/usr/bin{os.pathsep}/bin",
        PIP_CACHE_DIR=cache,
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        BOKEH_RESOURCES="inline",
    )
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--no-compile"]
    _run([sys.executable, "-m", "venv", str(venv)], cwd=repo, env=env, timeout=120)
    _run(pip + ["-r", "ci/binder-base.txt"], cwd=repo, env=env, timeout=600)  # repo2docker's base env
    _run(pip + ["-r", "binder/requirements.txt"], cwd=repo, env=env, timeout=600)  # what Binder installs
    _run([str(venv / "bin" / "python"), "-m", "pip", "check"], cwd=repo, env=env, timeout=120)
    _run(["bash", "binder/postBuild"], cwd=repo, env=env, timeout=600)  # as Binder: from the repo
    assert (home / ".jupyter" / "jupyter_server_config.py").resolve() == repo / "jupyter_server_config.py"
    versions = _run(
        [
            str(venv / "bin" / "python"),
            "-c",
            "import bokeh, pandas, voila, wargames; "
            "print(bokeh.__version__, pandas.__version__, voila.__version__, wargames.__file__)",
        ],
        cwd=tmp_path,
        env=env,
        timeout=120,
    ).split()
    pins = dict(
        ln.split("==")
        for ln in (ROOT / "binder" / "requirements.txt").read_text().splitlines()
        if "==" in ln and not ln.startswith("#")
    )
    assert versions[:3] == [pins["bokeh"], pins["pandas"], pins["voila"]]
    assert Path(versions[3]).is_relative_to(repo)  # the editable install of postBuild

    # JupyterLab on the repository, as Binder starts it, and the README's URLs
    port = _free_port()
    cmd = [
        str(venv / "bin" / "jupyter"),
        "lab",
        "--no-browser",
        f"--port={port}",
        "--ServerApp.port_retries=0",
        "--ServerApp.token=",
        "--ServerApp.password=",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.root_dir={repo}",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    with open(tmp_path / "lab.log", "w") as log:
        server = subprocess.Popen(cmd, cwd=repo, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.time() + 90
            while _get(f"{base}/api/status", timeout=2)[0] != 200:
                assert server.poll() is None and time.time() < deadline, (tmp_path / "lab.log").read_text()[
                    -3000:
                ]
                time.sleep(0.5)
            status, _ = _get(f"{base}/lab/tree/notebooks/00-start-here.ipynb")
            assert status == 200
            status, page = _get(f"{base}/voila/render/notebooks/apps/tet.ipynb")
            assert status == 200, (tmp_path / "lab.log").read_text()[-3000:]
            assert "application/vnd.jupyter.widget-view+json" in page  # the play widget was rendered
            assert '"output_type": "error"' not in page and "application/vnd.jupyter.stderr" not in page
            assert "templates/classroom" in page or "classroom/static" in page  # the repository's template
            assert "cdn.bokeh.org" not in page  # BokehJS inline (jupyter_server_config.py)
        finally:
            server.terminate()
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
