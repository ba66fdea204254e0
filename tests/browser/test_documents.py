"""The PDF viewer in a real browser: a deep link shows the page with the cited passage highlighted; paging works."""

from __future__ import annotations

import io
import time

import numpy as np
import pytest
from PIL import Image

from core.retrieval.viewer import find_passage
from tests.browser.conftest import wait_idle

pytestmark = pytest.mark.browser

IMAGE = '[data-testid="stImage"] img'


def _shown_png(page, app_url: str) -> np.ndarray:
    src = page.locator(IMAGE).first.get_attribute("src")
    body = page.request.get(src if src.startswith("http") else f"{app_url}{src}").body()
    return np.asarray(Image.open(io.BytesIO(body)).convert("RGB"), dtype=np.int16)


def _yellow(pixels: np.ndarray) -> np.ndarray:
    red, green, blue = pixels[..., 0], pixels[..., 1], pixels[..., 2]
    return (red > 200) & (green > 200) & (blue < 150)


def test_deep_link_shows_the_highlighted_passage_and_pages(page, app_url: str, app_workbench) -> None:
    memo = next(d for d in app_workbench.documents("Demo") if d.title == "portfolio_memo.pdf")
    with app_workbench.db.connection() as conn:
        chunk = conn.execute(
            "SELECT chunk_index FROM chunks WHERE document_id = %s AND page_number = 4 ORDER BY chunk_index LIMIT 1",
            (memo.id,),
        ).fetchone()[0]
    passage = find_passage(app_workbench.db, memo.id, chunk)
    assert passage is not None and passage.page == 4

    started = time.perf_counter()
    page.goto(f"{app_url}/documents?doc={memo.id}&page=4&chunk={chunk}")
    page.wait_for_selector(f'{IMAGE}[alt="portfolio_memo.pdf, page 4 with the cited passage highlighted"]')
    seconds = time.perf_counter() - started
    print(f"\ndeep link to highlighted page image: {seconds:.2f} s")
    wait_idle(page)
    assert page.locator('[data-testid="stException"]').count() == 0
    assert page.get_by_text("Cited passage").count() == 1
    assert page.get_by_text("Highlighted in yellow on page 4.").count() == 1

    # The image really carries the highlight, inside the passage's boxes and nowhere else.
    pixels = _shown_png(page, app_url)
    scale = pixels.shape[1] / 612
    inside = np.zeros(pixels.shape[:2], dtype=bool)
    near = np.zeros(pixels.shape[:2], dtype=bool)
    for x0, y0, x1, y1 in passage.boxes:
        inside[int(y0 * scale) : int(y1 * scale), int(x0 * scale) : int(x1 * scale)] = True
        near[int((y0 - 4) * scale) : int((y1 + 4) * scale), int((x0 - 4) * scale) : int((x1 + 4) * scale)] = True
    yellow = _yellow(pixels)
    assert yellow[inside].mean() > 0.5
    assert not yellow[~near].any()

    link = page.get_by_role("link", name="Open in new tab ↗")
    assert link.get_attribute("target") == "_blank"
    assert link.get_attribute("href") == f"?room=Demo&doc={memo.id}&page=4&chunk={chunk}"  # the room too

    started = time.perf_counter()
    page.get_by_role("button", name="Next ▶").click()
    page.wait_for_selector(f'{IMAGE}[alt="portfolio_memo.pdf, page 5"]')
    print(f"next page click to image: {time.perf_counter() - started:.2f} s")
    wait_idle(page)
    assert "/documents?" in page.url and _query(page) == {"room": "Demo", "doc": str(memo.id), "page": "5",
                                                          "chunk": str(chunk)}  # fmt: skip
    assert not _yellow(_shown_png(page, app_url)).any()
    assert page.get_by_text("The passage is on page 4; this is page 5.").count() == 1

    page.get_by_role("button", name="◀ Previous").click()
    page.wait_for_selector(f'{IMAGE}[alt="portfolio_memo.pdf, page 4 with the cited passage highlighted"]')
    wait_idle(page)
    assert _query(page)["page"] == "4" and _query(page)["chunk"] == str(chunk)
    # The same deep link again, now that the app is warm.
    started = time.perf_counter()
    page.goto(f"{app_url}/documents?doc={memo.id}&page=4&chunk={chunk}")
    page.wait_for_selector(f'{IMAGE}[alt="portfolio_memo.pdf, page 4 with the cited passage highlighted"]')
    print(f"deep link again (warm app): {time.perf_counter() - started:.2f} s")
    wait_idle(page)
    page.screenshot(path=str(_screens() / "documents_deep_link_page4.png"))


def test_the_new_tab_link_opens_the_same_view(page, app_url: str, app_workbench) -> None:
    memo = next(d for d in app_workbench.documents("Demo") if d.title == "portfolio_memo.pdf")
    page.goto(f"{app_url}/documents?doc={memo.id}&chunk=2")
    page.wait_for_selector(f"{IMAGE}[alt$='with the cited passage highlighted']")
    wait_idle(page)
    href = page.get_by_role("link", name="Open in new tab ↗").get_attribute("href")
    with page.context.expect_page() as opened:
        page.get_by_role("link", name="Open in new tab ↗").click()
    tab = opened.value
    tab.wait_for_selector(f"{IMAGE}[alt$='with the cited passage highlighted']")
    wait_idle(tab)
    assert tab.url.endswith(f"/documents{href}")
    assert tab.locator(IMAGE).get_attribute("alt") == page.locator(IMAGE).get_attribute("alt")
    tab.close()


def _query(page) -> dict[str, str]:
    """The page URL's query parameters (their order is Streamlit's)."""
    from urllib.parse import parse_qsl, urlsplit

    return dict(parse_qsl(urlsplit(page.url).query))


def _screens():
    from tests.browser.conftest import SCREENSHOTS

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
