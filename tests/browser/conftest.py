"""The one headless Chromium of each browser-test module (Debian's chromium through Playwright)."""

from __future__ import annotations

import pytest

from .test_ui import CHROMIUM, FLAGS, sync_api


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield b
        b.close()
