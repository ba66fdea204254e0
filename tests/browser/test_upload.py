"""Uploads from the sidebar in a real browser: a new room, a CSV and a PDF queued and run by the worker beside the
app with progress, a corrupt PDF ending red with its reason on expand, and the documents listed."""

from __future__ import annotations

import time

import pytest

from tests.browser.conftest import SCREENSHOTS, wait_idle
from tests.factories import FUNDING_CSV, MEMO_PAGES, make_pdf

pytestmark = pytest.mark.browser


def test_new_room_and_uploads_from_the_sidebar(page, app_url: str) -> None:
    room = f"Uploads {int(time.time())}"
    page.goto(f"{app_url}/documents")
    wait_idle(page)
    sidebar = page.locator('[data-testid="stSidebar"]')

    sidebar.get_by_text("New data room").click()
    popover = page.locator('[data-testid="stPopoverBody"]')
    popover.get_by_label("Name").fill(room)
    popover.get_by_label("Name").press("Enter")
    popover.get_by_role("button", name="Create").click()
    sidebar.get_by_text("Documents (0)").wait_for()  # the new, empty room is the sidebar's room
    page.keyboard.press("Escape")  # close the popover
    wait_idle(page)
    assert room in sidebar.locator('[data-testid="stSelectbox"]').inner_html()

    files = [
        {"name": "funding.csv", "mimeType": "text/csv", "buffer": FUNDING_CSV},
        {"name": "memo.pdf", "mimeType": "application/pdf", "buffer": make_pdf(MEMO_PAGES)},
        {"name": "broken.pdf", "mimeType": "application/pdf", "buffer": b"%PDF-1.7\nthis is not really a PDF\n"},
    ]
    sidebar.locator('input[type="file"]').set_input_files(files)
    for item in files:
        sidebar.get_by_text(item["name"], exact=True).first.wait_for()
    ingest = sidebar.get_by_role("button", name="Ingest")
    ingest.wait_for()
    wait_idle(page)

    started = time.perf_counter()
    ingest.click()
    # Each file is queued as a job; the worker beside the app runs them and each bar ends on the file's status.
    page.wait_for_function(
        "() => { const bars = document.querySelectorAll('[data-testid=stSidebar] .wb-job');"
        " return bars.length === 3 && [...bars].every(b => ['done', 'failed'].includes(b.dataset.status)); }",
        timeout=120_000,
    )
    wait_idle(page)
    seconds = time.perf_counter() - started
    print(f"\ningest click to three final statuses (queued, run by the worker): {seconds:.2f} s")
    # The uploader cleared once the files were queued.
    assert sidebar.locator('[data-testid="stFileUploaderFile"]').count() == 0
    bars = sidebar.locator(".wb-job")
    statuses = [bars.nth(i).get_attribute("data-status") for i in range(3)]
    texts = [text.strip() for text in bars.all_inner_texts()]
    assert statuses == ["done", "done", "failed"]
    assert texts == [
        "funding.csv: ready (4 rows, 4 chunks)",
        "memo.pdf: ready (3 pages, 3 chunks)",
        "broken.pdf: failed",
    ]
    # The failed bar ends red.
    fill = bars.nth(2).locator(".wb-fill")
    assert fill.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(217, 48, 37)"

    # The room's document list shows all three, the failure counted apart: one line, its reason on expand.
    sidebar.get_by_text("Documents (2) · 1 failed").wait_for()
    assert sidebar.get_by_text("✓ funding.csv — 4 rows").count() == 1
    assert sidebar.get_by_text("✓ memo.pdf — 3 p.").count() == 1
    failed = sidebar.locator('[data-testid="stExpander"]').filter(has_text="✗ broken.pdf — failed")
    assert failed.count() == 1
    reason = "broken.pdf cannot be read as a PDF: it is damaged or not a PDF at all"
    assert not failed.get_by_text(reason).is_visible()
    failed.get_by_text("✗ broken.pdf — failed").click()
    failed.get_by_text(reason).first.wait_for()
    assert page.locator('[data-testid="stException"]').count() == 0
    page.set_viewport_size({"width": 1400, "height": 1500})  # the whole sidebar, statuses included
    page.screenshot(path=str(SCREENSHOTS / "upload_statuses.png"))

    # The Documents page (still open) now shows the new room's PDF, not the Demo room's.
    page.locator('[data-testid="stImage"] img[alt="memo.pdf, page 1"]').wait_for()
    wait_idle(page)
    assert page.locator('[data-testid="stException"]').count() == 0
