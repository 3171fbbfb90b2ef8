"""The one headless Chromium of each browser-test module (Debian's chromium through Playwright)."""

from __future__ import annotations

import os

import pytest

# the page's game and the test's replica of it must deal the same hidden draws (notebook.play.play_secret)
os.environ.setdefault("WARGAMES_PLAY_SECRET", "browser-tests")

from .test_ui import CHROMIUM, FLAGS, sync_api


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield b
        b.close()
