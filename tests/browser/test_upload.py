"""Uploads from the sidebar in a real browser: a new room, a CSV and a PDF ingested with progress, a corrupt PDF
refused with its reason, and the documents listed."""

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
    # Each file gets its own progress bar, which ends on the file's status.
    sidebar.locator('[data-testid="stProgress"]').first.wait_for()
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=stSidebar] [data-testid=stProgress]').length === 3"
        " && document.querySelector('[data-testid=stSidebar]').innerText.includes('broken.pdf: failed')"
    )
    wait_idle(page)
    seconds = time.perf_counter() - started
    print(f"\ningest click to three final statuses: {seconds:.2f} s")
    bars = [text.strip() for text in sidebar.locator('[data-testid="stProgress"]').all_inner_texts()]
    assert bars == ["funding.csv: ready", "memo.pdf: ready", "broken.pdf: failed"]
    assert sidebar.get_by_text("funding.csv: ready (4 rows, 4 chunks)").count() == 1
    assert sidebar.get_by_text("memo.pdf: ready (3 pages, 3 chunks)").count() == 1
    errors = sidebar.locator('[data-testid="stAlertContentError"]').all_inner_texts()
    assert len(errors) == 1 and "broken.pdf cannot be read as a PDF: it is damaged or not a PDF at all" in errors[0]

    # The room's document list shows all three, the failure with its reason.
    sidebar.get_by_text("Documents (3)").wait_for()
    assert sidebar.get_by_text("✓ funding.csv — 4 rows").count() == 1
    assert sidebar.get_by_text("✓ memo.pdf — 3 p.").count() == 1
    assert sidebar.get_by_text("✗ broken.pdf — broken.pdf cannot be read as a PDF").count() == 1
    assert page.locator('[data-testid="stException"]').count() == 0
    page.set_viewport_size({"width": 1400, "height": 1500})  # the whole sidebar, statuses included
    page.screenshot(path=str(SCREENSHOTS / "upload_statuses.png"))

    # The Documents page (still open) now shows the new room's PDF, not the Demo room's.
    page.locator('[data-testid="stImage"] img[alt="memo.pdf, page 1"]').wait_for()
    wait_idle(page)
    assert page.locator('[data-testid="stException"]').count() == 0
