"""Real-browser test of the Rumor of War play notebook (``notebooks/row/04-play-a-side.ipynb``) in JupyterLab, in
Debian's Chromium via Playwright (issue #15 item 4): after Run All the play widget waits for the student's first
decision, Apply changes the map and the panel, Back returns to the student's previous decision.  Screenshots go
to $ARTIFACTS.  Skipped when playwright or chromium is missing."""

from __future__ import annotations

import os
import re
import shutil
import sys
import time

import pytest

from .test_ui import (
    ART,
    CHROMIUM,
    ROOT,
    _accept_kernel_dialog,
    _changed,
    _free_port,
    _lab_settings,
    _serve,
    _stop,
    sync_api,
)

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian chromium not installed")]
NOTEBOOK = "04-play-a-side.ipynb"


def test_jupyterlab_row_play_notebook_apply_and_back(tmp_path, browser):
    work = tmp_path / "row"
    work.mkdir()
    shutil.copy(ROOT / "notebooks" / "row" / NOTEBOOK, work / NOTEBOOK)
    shutil.copy(ROOT / "notebooks" / "GLOSSARY.md", tmp_path / "GLOSSARY.md")
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
    with open(ART / "jupyterlab_row.log", "w") as log:
        proc = _serve(cmd, f"http://127.0.0.1:{port}/api/status", work, log, env=env)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        try:
            page.goto(f"http://127.0.0.1:{port}/lab/tree/{NOTEBOOK}")
            page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").first.wait_for(timeout=90000)
            for _attempt in range(3):
                _accept_kernel_dialog(page)
                page.click("div.lm-MenuBar-itemLabel:text-is('Run')")
                page.click("li.lm-Menu-item:has-text('Run All Cells')")
                try:
                    page.locator(".jp-InputArea-prompt:has-text('[1]')").first.wait_for(timeout=20000)
                    break
                except sync_api.TimeoutError:
                    continue
            page.locator(".jp-OutputArea-output:has-text('notebook OK')").first.wait_for(timeout=240000)
            assert page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
                                ":has-text('Traceback')").count() == 0
            assert page.locator(".jupyter-widgets-error-widget").count() == 0, "a widget view failed"
            out = page.locator(".jp-OutputArea-output:has(button.jupyter-button:has-text('New game'))").first
            out.scroll_into_view_if_needed()
            where = out.locator(".widget-html-content", has_text="to decide").first
            # after Run All the widget is on the student's first decision (the cells below play their own copy)
            sync_api.expect(where).to_contain_text("Capitalist to decide (a person)", timeout=30000)
            where_0 = where.inner_text()
            panel = out.locator(".widget-html-content", has_text="newest first (scroll").first
            before = panel.inner_text()
            canvas = out.locator("canvas").first
            canvas.wait_for(state="attached", timeout=60000)
            canvas.scroll_into_view_if_needed()
            time.sleep(1.0)
            canvas.screenshot(path=str(ART / "lab_row_map_0.png"))
            out.locator("button.jupyter-button:has-text('Apply')").first.click()
            sync_api.expect(out.locator(".widget-html-content", has_text="Applied:").first).to_be_visible(timeout=60000)
            deadline = time.time() + 30
            while (panel.inner_text() == before or where.inner_text() == where_0) and time.time() < deadline:
                time.sleep(0.3)
            assert re.search(r"Since your last decision: \d+ ruling", panel.inner_text()), "Apply: panel unchanged"
            assert where.inner_text() != where_0
            deadline = time.time() + 20
            while True:
                canvas.screenshot(path=str(ART / "lab_row_map_1.png"))
                if _changed(ART / "lab_row_map_0.png", ART / "lab_row_map_1.png") > 500 or time.time() > deadline:
                    break
                time.sleep(0.5)
            assert _changed(ART / "lab_row_map_0.png", ART / "lab_row_map_1.png") > 500, "Apply: map unchanged"
            out.locator("button.jupyter-button:has-text('Back')").first.click()
            sync_api.expect(out.locator(".widget-html-content", has_text="It is your decision again").first
                            ).to_be_visible(timeout=60000)
            sync_api.expect(where).to_have_text(where_0, timeout=30000)
            page.screenshot(path=str(ART / "lab_row_back.png"))
        except Exception:
            page.screenshot(path=str(ART / "lab_row_FAILED_page.png"))
            raise
        finally:
            page.close()
            _stop(proc)
