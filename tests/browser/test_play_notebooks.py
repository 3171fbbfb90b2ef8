"""Real-browser tests of each game's play notebook (``notebooks/<game>/04-play-*.ipynb``) in JupyterLab, in
Debian's Chromium via Playwright (issue #19; issue #15 item 4): after Run All the play widget waits for the
student's first decision (the cells below play their own games), and it works as in the apps
(``playdrive.drive_play_widget``: every ruling since in the panel, Apply, a map click that filters twice in a row,
Back).  Screenshots go to $ARTIFACTS.  Skipped when playwright or chromium is missing."""

from __future__ import annotations

import os
import shutil
import sys

import pytest

from .playdrive import drive_play_widget, replica
from .test_ui import (
    ART,
    CHROMIUM,
    ROOT,
    _accept_kernel_dialog,
    _free_port,
    _lab_settings,
    _serve,
    _stop,
    sync_api,
)

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian chromium not installed")]

#: each game's play notebook and its widget's call (``PlayGame(game, **kw)``, the notebook's first code cell)
NOTEBOOKS = {
    "tet": ("tet/04-play-a-side.ipynb", {"side": "Allied", "seed": 11}),
    "yotr": ("yotr/04-play-a-side.ipynb", {"side": "Allied", "seed": 2}),
    "fitl": ("fitl/04-play-a-faction.ipynb", {"scenario": "short", "side": "VC", "seed": 15}),
    "row": ("row/04-play-a-side.ipynb", {"side": "Capitalist", "seed": 2}),
}


def _run_all(page, port: int, notebook: str) -> None:
    """Open ``notebook`` in JupyterLab, Run All Cells, wait for its closing checks ("notebook OK")."""
    page.goto(f"http://127.0.0.1:{port}/lab/tree/{notebook}")
    page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").first.wait_for(timeout=90000)
    for _attempt in range(3):  # a click can land before the kernel session is connected
        _accept_kernel_dialog(page)
        page.click("div.lm-MenuBar-itemLabel:text-is('Run')")
        page.click("li.lm-Menu-item:has-text('Run All Cells')")
        try:
            page.locator(".jp-InputArea-prompt:has-text('[1]')").first.wait_for(timeout=20000)
            break
        except sync_api.TimeoutError:
            continue
    page.locator(".jp-OutputArea-output:has-text('notebook OK')").first.wait_for(timeout=400000)
    assert page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
                        ":has-text('Traceback')").count() == 0


@pytest.mark.parametrize("game", list(NOTEBOOKS))
def test_jupyterlab_play_notebook_after_run_all(tmp_path, browser, game):
    path, call = NOTEBOOKS[game]
    work = tmp_path / "nb"
    (work / game).mkdir(parents=True)
    shutil.copy(ROOT / "notebooks" / path, work / path)
    shutil.copy(ROOT / "notebooks" / "GLOSSARY.md", work / "GLOSSARY.md")
    _lab_settings(work)
    ART.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}", "--ServerApp.port_retries=0",
           "--ServerApp.token=", "--ServerApp.password=", "--ServerApp.ip=127.0.0.1",
           f"--ServerApp.root_dir={work}", f"--LabApp.user_settings_dir={work / '.lab-settings'}",
           f"--LabApp.workspaces_dir={work / '.lab-ws'}"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    env = dict(os.environ, BOKEH_RESOURCES="inline",
               PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p))
    play = replica(game, **call)
    with open(ART / f"jupyterlab_{game}.log", "w") as log:
        proc = _serve(cmd, f"http://127.0.0.1:{port}/api/status", work, log, env=env)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        try:
            _run_all(page, port, path)
            # the first play widget of the notebook (later cells may show others)
            out = page.locator(".jp-OutputArea-output:has(button.jupyter-button:has-text('New game'))").first
            out.scroll_into_view_if_needed()
            drive_play_widget(page, out, play, f"lab_{game}")
        except Exception:
            page.screenshot(path=str(ART / f"lab_{game}_FAILED_page.png"))
            raise
        finally:
            page.close()
            _stop(proc)
