"""The glossary on an app's page (issue #31 item 3): a folded "Glossary" panel under the New game bar opens in
place with the game's words, and a game word in a ruling shows its entry when pointed at."""

from __future__ import annotations

import os

import pytest

from .test_apps import _open, apps_server  # noqa: F401 - the module's Voila server fixture
from .test_ui import ART, CHROMIUM, sync_api

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian chromium not installed"),
]


def test_issue31_glossary_opens_on_the_app_page_and_a_ruling_word_shows_its_entry(apps_server, browser):  # noqa: F811
    port, _server = apps_server
    page, outside = _open(browser, f"http://127.0.0.1:{port}/voila/render/row.ipynb")
    try:
        url = page.url
        head = page.locator(".wg-glossary-panel").get_by_text("Glossary: the game's words explained")
        head.click()
        entry = page.locator(".wg-glossary li", has_text="COM-FF").first
        sync_api.expect(entry).to_be_visible(timeout=20000)
        entry.scroll_into_view_if_needed()
        page.screenshot(path=str(ART / "glossary_row_open.png"))
        # the class store may add the student's token to the address meanwhile (notebook.classroom): same page
        assert page.url.split("?")[0] == url.split("?")[0], "opening the glossary left the page"
        term = page.locator(".wg-ruling abbr.wg-term").first
        sync_api.expect(term).to_be_attached(timeout=20000)
        assert term.get_attribute("title"), "a marked word carries its glossary entry"
        term.scroll_into_view_if_needed()
        page.screenshot(path=str(ART / "glossary_row_ruling_term.png"))
        assert outside == []
    finally:
        page.close()
