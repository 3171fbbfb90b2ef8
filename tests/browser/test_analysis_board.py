"""The analysis board in a real browser (issue #33 item 2): in Voila, the play widget's Analyse button opens the
board; a short analysis draws the chart (best marked) and the sentences at classroom size; "Play this choice"
plays the picked candidate."""

from __future__ import annotations

import sys

import pytest

from .test_ui import ART, _free_port, _serve, _stop

pytestmark = pytest.mark.browser

CELLS = (
    "from wargames.notebook import PlayGame, setup_notebook\nsetup_notebook()",
    "play = PlayGame('fitl', scenario='short', side='NVA', seed=3)\nplay.widget",
    "print('cells done')",
)


def test_analysis_board_in_voila_draws_the_chart_and_plays_the_pick(tmp_path, browser):
    pytest.importorskip("voila")
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    nbformat.write(nb, tmp_path / "board.ipynb")
    ART.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    cmd = [
        sys.executable,
        "-m",
        "voila",
        "board.ipynb",
        "--no-browser",
        f"--port={port}",
        "--Voila.ip=127.0.0.1",
    ]
    with open(ART / "voila_analysis.log", "w") as log:
        proc = _serve(cmd, f"http://127.0.0.1:{port}/voila/static/", tmp_path, log)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        try:
            page.goto(f"http://127.0.0.1:{port}/", timeout=180000)
            page.locator(".jp-OutputArea-output:has-text('cells done')").first.wait_for(timeout=180000)
            page.get_by_role("button", name="Analyse").first.click()
            replays = page.locator(".widget-inline-hbox:has-text('Replays each') input").first
            replays.wait_for(timeout=30000)
            replays.fill("2")
            replays.press("Enter")
            page.get_by_role("button", name="Analyse").nth(1).click()
            page.get_by_text("Done. The best of these choices").first.wait_for(timeout=300000)
            board = page.locator(".widget-vbox:has-text('Replays each')").last
            board.locator("canvas").first.wait_for(state="attached", timeout=60000)
            page.wait_for_timeout(1500)
            board.scroll_into_view_if_needed()
            board.screenshot(path=str(ART / "analysis_board.png"))
            assert page.get_by_text("\u2605 ").count() >= 1  # the best choice is starred in the sentences
            page.get_by_role("button", name="Play this choice").click()
            page.get_by_text("Played from the analysis board").first.wait_for(timeout=60000)
        except Exception:
            page.screenshot(path=str(ART / "analysis_board_FAILED_page.png"), full_page=True)
            raise
        finally:
            page.close()
            _stop(proc)
