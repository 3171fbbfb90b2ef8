"""The class hub on localhost (issue #32 item 5): JupyterHub with ``hub/jupyterhub_config.py`` (the dummy
authenticator, configurable-http-proxy, the idle-culler service, one app server per student) and the class store in
PostgreSQL where a server can be started (else the SQLite default); three students log in in Chromium, each gets the
Tet app at their first decision, and their games land in the one store under their hub names.

Skipped when JupyterHub or configurable-http-proxy is not installed (``bash tools/install.sh test`` installs both).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from .playdrive import wait, where
from .test_ui import ART, CHROMIUM, _free_port, sync_api

ROOT = Path(__file__).resolve().parents[2]
CHP = (
    os.environ.get("WARGAMES_CHP")
    or shutil.which("configurable-http-proxy")
    or str(ROOT / "hub" / "node_modules" / ".bin" / "configurable-http-proxy")
)
pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian chromium not installed"),
    pytest.mark.skipif(not os.path.exists(CHP), reason="configurable-http-proxy (npm) not installed"),
]
pytest.importorskip("jupyterhub")
pytest.importorskip("jupyterhub_idle_culler")
pytest.importorskip("sqlalchemy")

from wargames.store import GameStore  # noqa: E402

STUDENTS = ("ana", "ben", "cam")


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    """The hub, started as ``tools/hub`` starts it (without the install step); yields (url, store URL)."""
    from ..pgserver import PgServer, available

    state = tmp_path_factory.mktemp("hub")
    with contextlib.ExitStack() as stack:
        store_url = (
            stack.enter_context(PgServer()) if not available() else f"sqlite:///{state / 'class.sqlite'}"
        )
        port = _free_port()
        env = {
            **os.environ,
            "WARGAMES_HUB_URL": f"http://127.0.0.1:{port}",
            "WARGAMES_HUB_API": f"http://127.0.0.1:{_free_port()}",
            "WARGAMES_PROXY_API": f"http://127.0.0.1:{_free_port()}",
            "WARGAMES_HUB_STATE": str(state),
            "WARGAMES_CHP": CHP,
            "WARGAMES_STORE_URL": store_url,
            "PYTHONPATH": str(ROOT),
        }
        ART.mkdir(parents=True, exist_ok=True)
        log = stack.enter_context(open(ART / "jupyterhub.log", "w"))
        cmd = [sys.executable, "-m", "jupyterhub", "-f", str(ROOT / "hub" / "jupyterhub_config.py")]
        proc = subprocess.Popen(cmd, cwd=state, env=env, stdout=log, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"

        def up() -> bool:
            if proc.poll() is not None:
                raise RuntimeError(f"the hub exited: see {ART / 'jupyterhub.log'}")
            try:
                urllib.request.urlopen(f"{url}/hub/health", timeout=2)
                return True
            except (urllib.error.URLError, OSError):
                return False

        try:
            assert wait(up, 90), "the hub did not start"
            yield url, store_url
        finally:
            _stop_culler(proc.pid)
            proc.terminate()
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()


def _stop_culler(hub_pid: int) -> None:
    """Stop the hub's idle-culler service before the hub: stopped by the hub's shutdown, it outlives the SIGINT
    and the hub waits about 30 s for it (``jupyterhub.log``), the longest part of this file.  The students'
    servers are still stopped by the hub itself."""
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            cmd = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, IndexError, ValueError):
            continue
        if ppid == hub_pid and "jupyterhub_idle_culler" in cmd:
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(d.name), signal.SIGTERM)


def test_hub_three_students_each_get_their_own_app_and_share_one_store(hub, browser):
    url, store_url = hub
    pages = []
    try:
        for name in STUDENTS:  # log in one after the other; their servers start in parallel
            ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
            page = ctx.new_page()
            page.goto(f"{url}/hub/login", timeout=60000)
            page.fill("input[name=username]", name)
            page.fill("input[name=password]", "")
            page.click("[type=submit]")
            pages.append((name, ctx, page))
        t0 = time.time()
        for name, _ctx, page in pages:
            sync_api.expect(
                page.locator(".widget-html-content", has_text="Allied to decide (a person)").first
            ).to_be_visible(timeout=240000)
            assert f"/user/{name}/voila/render/notebooks/apps/tet.ipynb" in page.url
            sync_api.expect(
                page.locator(".widget-html-content", has_text=f"under your login, {name}").first
            ).to_be_visible()
        print(f"three students at their first decision {time.time() - t0:.1f} s after the last login")
        for name, _ctx, page in pages:
            before = where(page)
            page.locator("button.jupyter-button:has-text('Apply')").first.click()
            assert wait(lambda p=page, b=before: where(p) != b, 60), f"{name}: Apply did not move the game"
        pages[0][2].screenshot(path=str(ART / "hub_student.png"))
        store = GameStore(store_url)
        try:
            assert wait(
                lambda: (  # each student's game saved after their Apply (in lesson mode the Advisor's
                    # routine decisions before it are in the record too)
                    {r.student for r in store.rows("tet") if r.decisions >= 1}
                    == {f"hub:{n}" for n in STUDENTS}
                ),
                30,
            ), {r.student: r.decisions for r in store.rows("tet")}
        finally:
            store.dispose()
        log = (ART / "jupyterhub.log").read_text()
        assert "idle-culler" in log and "Starting managed service idle-culler" in log
    finally:
        for _name, ctx, _page in pages:
            ctx.close()
