"""Real-browser tests of each game's play notebook (``notebooks/<game>/04-play-*.ipynb``) in JupyterLab, in
Debian's Chromium via Playwright (issue #19; issue #15 item 4): after Run All the play widget waits for the
student's first decision (the cells below play their own games), and it works as in the apps
(``playdrive.drive_play_widget``: every ruling since in the panel, Apply, a map click that filters twice in a row,
Back).  Screenshots go to $ARTIFACTS.  Skipped when playwright or chromium is missing."""

from __future__ import annotations

import os
import shutil

import pytest

from .playdrive import drive_play_widget, replica
from .test_ui import (
    ART,
    CHROMIUM,
    ROOT,
    _free_port,
    _lab_command,
    _lab_run_all,
    _lab_settings,
    _serve,
    _stop,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian chromium not installed"),
]

#: each game's play notebook and its widget's call (``PlayGame(game, **kw)``, the notebook's first code cell)
NOTEBOOKS = {
    "tet": ("tet/04-play-a-side.ipynb", {"side": "Allied", "seed": 11}),
    "yotr": ("yotr/04-play-a-side.ipynb", {"side": "Allied", "seed": 2}),
    "fitl": ("fitl/04-play-a-faction.ipynb", {"scenario": "short", "side": "VC", "seed": 15}),
    "row": ("row/04-play-a-side.ipynb", {"side": "Capitalist", "seed": 2}),
}


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """One JupyterLab server for the four notebooks (each in its game's folder, the glossary beside them, as in
    ``notebooks/``).  Yields its port."""
    work = tmp_path_factory.mktemp("nb")
    for path, _call in NOTEBOOKS.values():
        (work / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / "notebooks" / path, work / path)
    shutil.copy(ROOT / "notebooks" / "GLOSSARY.md", work / "GLOSSARY.md")
    _lab_settings(work)
    ART.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    env = dict(
        os.environ,
        BOKEH_RESOURCES="inline",
        PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p),
    )
    with open(ART / "jupyterlab_play.log", "w") as log:
        proc = _serve(_lab_command(work, port), f"http://127.0.0.1:{port}/api/status", work, log, env=env)
        yield port
        _stop(proc)


def _shut_kernels(page, port: int) -> None:
    """Shut down the server's kernels (a closed Lab tab leaves its kernel running), as the page would: with its
    XSRF cookie."""
    base = f"http://127.0.0.1:{port}/api/kernels"
    xsrf = {c["name"]: c["value"] for c in page.context.cookies()}.get("_xsrf", "")
    for k in page.request.get(base).json():
        page.request.delete(f"{base}/{k['id']}", headers={"X-XSRFToken": xsrf})


@pytest.mark.parametrize("game", list(NOTEBOOKS))
def test_jupyterlab_play_notebook_after_run_all(lab, browser, game):
    path, call = NOTEBOOKS[game]
    play = replica(game, **call)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        _lab_run_all(page, lab, path, timeout=400000)
        # the first play widget of the notebook (later cells may show others)
        out = page.locator(".jp-OutputArea-output:has(button.jupyter-button:has-text('New game'))").first
        out.scroll_into_view_if_needed()
        drive_play_widget(page, out, play, f"lab_{game}")
    except Exception:
        page.screenshot(path=str(ART / f"lab_{game}_FAILED_page.png"))
        raise
    finally:
        _shut_kernels(page, lab)
        page.close()
