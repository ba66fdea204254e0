"""Every page opens directly by URL, with the sidebar, in a real browser."""

from __future__ import annotations

import pytest

from tests.browser.conftest import wait_idle
from views._shared.common import DEFAULT_PAGE, PAGES

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("url_path", list(PAGES))
def test_page_opens_by_url_with_the_sidebar(page, app_url: str, url_path: str) -> None:
    page.goto(f"{app_url}/" if url_path == DEFAULT_PAGE else f"{app_url}/{url_path}")
    wait_idle(page)
    assert page.locator("h1").first.inner_text().strip() == PAGES[url_path][1]
    assert page.get_by_text("Page not found").count() == 0
    sidebar = page.locator('[data-testid="stSidebar"]')
    assert sidebar.get_by_text("Data room").count() >= 1
    assert sidebar.get_by_text("Offline mode").count() == 1
    assert page.locator('[data-testid="stException"]').count() == 0
