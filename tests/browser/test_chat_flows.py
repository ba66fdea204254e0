"""The Chat page in headless Chromium: ask, click a citation, see the highlighted cell or page beside the chat;
vote; export. (Chip-to-highlight timings over five clicks are in test_workspace.py.)
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import pytest

from core.qa.synth import ABSTAIN
from tests.browser.conftest import (
    CELL_QUESTION,
    CITED_CELL,
    GRID,
    HIGHLIGHTED_PAGE,
    PAGE_QUESTION,
    SCREENSHOTS,
    wait_idle,
)

pytestmark = pytest.mark.browser


def shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def open_chat(page, app_url: str) -> None:
    page.goto(f"{app_url}/")  # the default page is served at the root (/chat is "Page not found")
    wait_idle(page)


def ask(page, question: str, chip_prefix: str | None) -> None:
    """Type a question, send it, wait for the answer (and for a chip starting with `chip_prefix`)."""
    box = page.locator('[data-testid="stChatInput"] textarea')
    box.fill(question)
    box.press("Enter")
    page.get_by_text(question, exact=True).first.wait_for()
    if chip_prefix is not None:
        page.locator('[data-testid="stChatMessage"] button', has_text=chip_prefix).first.wait_for(timeout=120_000)
    wait_idle(page, timeout=120)


def latest_turn(app_db, page):
    """The last answered turn of the conversation named in the page's URL, as the store has it."""
    from core.qa.feedback import conversation_history

    conversation = int(page.url.split("conversation=")[1].split("&")[0])
    with app_db.connection() as conn:
        room_id = conn.execute("SELECT room_id FROM conversations WHERE id = %s", (conversation,)).fetchone()[0]
    return conversation_history(app_db, room_id, conversation)[-1]


def wait_embedded(app_db, timeout: float = 600.0) -> None:
    """Wait for the app's background embedding of the demo room: timings are of the steady state, not of
    a first start whose two CPU cores are busy embedding 600 chunks."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with app_db.connection() as conn:
            pending = conn.execute("SELECT count(*) FROM documents WHERE status = 'ready' AND embedded_at IS NULL")
            if pending.fetchone()[0] == 0:
                return
        time.sleep(1)
    raise AssertionError("the demo room was not embedded in time")


def click_and_time(page, chip_label: str, target, url_part: str) -> tuple[float, float]:
    """Seconds from clicking the chip to the URL naming the cited cell or page, and to `target` (a locator) visible."""
    chip = page.locator('[data-testid="stChatMessage"] button:visible', has_text=chip_label).first
    chip.scroll_into_view_if_needed()
    started = time.perf_counter()
    chip.click()
    page.wait_for_url(f"**{url_part}**", timeout=60_000)
    navigated = time.perf_counter() - started
    target.first.wait_for(state="visible", timeout=60_000)
    return navigated, time.perf_counter() - started


def test_a_cell_citation_opens_the_sheet_with_the_cell_highlighted(page, app_url: str, app_db, tmp_path: Path) -> None:
    open_chat(page, app_url)
    ask(page, CELL_QUESTION, "funding_rounds!")
    turn = latest_turn(app_db, page)
    answer = page.locator('[data-testid="stChatMessage"]').last
    assert "239,300,000" in answer.inner_text() and "[1]" in answer.inner_text()
    assert answer.locator(".katex").count() == 0  # no "$...$" read as LaTeX
    shot(page, "chat_cell_answer")
    wait_embedded(app_db)

    timings = []
    for citation in turn.citations[:3]:
        # The cited cell by its text too: the three citations share a row, and the last one's paint is still on it.
        cell = page.frame_locator(GRID).locator(
            f'.ag-row[row-id="{citation.row_id}"] {CITED_CELL}', has_text=citation.value
        )
        navigated, seconds = click_and_time(page, citation.ref, cell, f"cell={citation.ref.rsplit('!', 1)[1]}")
        print(f"citation->cell {seconds:.2f}s ({citation.ref}; URL changed after {navigated:.2f}s)")
        timings.append(seconds)
        assert "/sheet" not in page.url and f"row={citation.row_id}" in page.url  # beside the chat, on its page
        cited = page.frame_locator(GRID).locator(CITED_CELL)
        assert cited.count() == 1 and cited.inner_text().strip() == citation.value
        wait_idle(page)
        shot(page, f"chat_cell_{citation.ref.replace('!', '_')}")
        assert page.locator('[data-testid="stException"]').count() == 0
    print(f"citation->cell median over {len(timings)} clicks: {statistics.median(timings):.2f}s")
    assert statistics.median(timings) < 10

    # The analyst edits a cited cell: the answer is marked stale, and so is the cell's chip. Through the
    # workbench, as the Sheet page does, so the row is embedded again and the room stays fully embedded.
    from core.config import Settings
    from core.workbench import Workbench

    wb = Workbench(Settings.from_env({"DATABASE_URL": app_db.conninfo, "WORKBENCH_HOME": str(tmp_path)}), db=app_db)
    cited = turn.citations[0]
    with app_db.connection() as conn:
        sheet_id = conn.execute("SELECT sheet_id FROM sheet_rows WHERE id = %s", (cited.row_id,)).fetchone()[0]
    wb.edit_cell(sheet_id, cited.row_id, cited.column, "1")
    try:
        page.reload()
        wait_idle(page)
        warning = page.locator('[data-testid="stAlert"]', has_text="Stale:").first
        warning.wait_for()
        assert f"{cited.ref} changed after this answer was written" in warning.inner_text()
        shot(page, "chat_stale")
    finally:
        wb.edit_cell(sheet_id, cited.row_id, cited.column, cited.value)


def test_a_page_citation_opens_the_documents_page_with_the_passage_highlighted(page, app_url: str, app_db) -> None:
    open_chat(page, app_url)
    ask(page, PAGE_QUESTION, "portfolio_memo · p.")
    turn = latest_turn(app_db, page)
    assert "Nikhil Yarborough" in turn.answer
    cited = turn.citations[0]
    label = f"portfolio_memo · p. {cited.page}"
    shot(page, "chat_page_answer")
    wait_embedded(app_db)

    navigated, seconds = click_and_time(page, label, page.locator(HIGHLIGHTED_PAGE), f"page={cited.page}")
    print(f"citation->page {seconds:.2f}s ({label}; URL changed after {navigated:.2f}s)")
    assert "/documents" not in page.url and f"page={cited.page}" in page.url  # beside the chat, on its page
    image = page.locator(HIGHLIGHTED_PAGE).first
    assert image.get_attribute("alt").startswith(f"portfolio_memo.pdf, page {cited.page}")
    assert image.evaluate("img => img.complete && img.naturalWidth > 0")
    wait_idle(page)
    shot(page, "chat_page_beside")
    assert seconds < 10

    # A question the room cannot answer: said so, in its own style, with no chips.
    ask(page, "What is the boiling point of mercury on Mars?", None)
    last = page.locator('[data-testid="stChatMessage"]').last
    last.locator('[data-testid="stAlert"]', has_text=ABSTAIN).wait_for()
    assert last.locator("button", has_text="portfolio_memo").count() == 0
    assert last.locator("button", has_text="!").count() == 0
    shot(page, "chat_abstention")


def test_thumbs_down_with_a_comment_is_saved_and_the_memo_downloads(page, app_url: str, app_db) -> None:
    open_chat(page, app_url)
    ask(page, PAGE_QUESTION, "portfolio_memo · p.")
    turn = latest_turn(app_db, page)
    answer = page.locator('[data-testid="stChatMessage"]').last
    answer.locator('[data-testid="stFeedback"] button, [data-testid="stButtonGroup"] button').nth(1).click()
    comment = answer.get_by_placeholder("What was wrong or missing? (optional)")
    comment.wait_for()
    wait_idle(page)
    with app_db.connection() as conn:
        votes = conn.execute("SELECT helpful, comment FROM qa_feedback WHERE query_id = %s", (turn.query_id,))
        assert votes.fetchall() == [(False, None)]
    comment.fill("The memo also names a COO; say who runs operations.")
    comment.press("Enter")
    wait_idle(page)
    answer.get_by_role("button", name="Send comment").click()
    page.get_by_text("Feedback saved: not helpful — “The memo also names a COO").first.wait_for()
    with app_db.connection() as conn:
        votes = conn.execute("SELECT helpful, comment FROM qa_feedback WHERE query_id = %s", (turn.query_id,))
        assert votes.fetchall() == [(False, "The memo also names a COO; say who runs operations.")]
    shot(page, "chat_feedback")

    with page.expect_download() as download:
        answer.get_by_role("button", name="Export memo").click()
    memo = Path(download.value.path()).read_text(encoding="utf-8")
    assert download.value.suggested_filename == f"answer-{turn.query_id}.md"
    assert memo.startswith(f"# {PAGE_QUESTION}\n") and turn.answer in memo
    n = next(n for n, positions in turn.markers.items() if 0 in positions)
    assert f"**[{n}]** portfolio_memo · p. {turn.citations[0].page} (portfolio_memo.pdf, page" in memo

    # A reload keeps the conversation (it is in the URL) and the saved vote.
    page.reload()
    wait_idle(page)
    page.get_by_text("Feedback saved: not helpful").first.wait_for()
    assert page.locator('[data-testid="stChatMessage"]').count() == 2

    # "New conversation" empties the page and the URL; the picker brings the conversation back.
    conversation = page.url.split("conversation=")[1].split("&")[0]
    page.get_by_role("button", name="New conversation").click()
    page.wait_for_function("() => !location.search.includes('conversation=')")
    page.locator('[data-testid="stChatMessage"]').first.wait_for(state="detached")
    wait_idle(page)
    page.get_by_role("button", name="Recent conversations").click()
    picked = page.get_by_role("button", name=f"{PAGE_QUESTION} · Demo · 1 question")
    picked.first.wait_for()
    shot(page, "chat_recent_conversations")
    picked.first.click()
    page.wait_for_url(f"**conversation={conversation}**")
    page.get_by_text("Feedback saved: not helpful").first.wait_for()
    assert page.locator('[data-testid="stChatMessage"]').count() == 2


def test_a_question_that_reads_two_ways_offers_buttons_and_one_click_answers(page, app_url: str, app_workbench) -> None:
    from urllib.parse import quote

    from tests.factories import make_pdf, make_sectioned_xlsx

    room = "Harbor mixed"
    wb = app_workbench
    wb.room(room, create=True)
    assert wb.ingest_upload(make_sectioned_xlsx(), "harbor.xlsx", room, embed=False).status == "ready"
    memo = "Harbor Tools memo. Pumps remain the largest line; valves grew in both regions."
    assert wb.ingest_upload(make_pdf([memo]), "harbor_memo.pdf", room, embed=False).status == "ready"
    page.goto(f"{app_url}/?room={quote(room)}")
    wait_idle(page)
    ask(page, "What were Pumps sales in Q1 2032?", None)
    back = page.locator('[data-testid="stChatMessage"] button', has_text="South › Pumps (2032 › Q1)")
    back.wait_for(timeout=60_000)
    assert page.locator('[data-testid="stChatMessage"] button', has_text="North › Pumps (2032 › Q1)").count() == 1
    shot(page, "chat_question_back")
    back.click()
    # the chosen reading asked: its figure from the workbook's cell, a chip to it; no figure from the memo
    page.get_by_text("What were Pumps sales in Q1 2032 — South › Pumps?", exact=True).wait_for(timeout=60_000)
    page.locator('[data-testid="stChatMessage"] button', has_text="Sales!D10").first.wait_for(timeout=120_000)
    wait_idle(page, timeout=120)
    turns = wb.conversation_history(room, int(page.url.split("conversation=")[1].split("&")[0]))
    assert not turns[-1].abstained and " 5 " in f" {turns[-1].answer} "
    assert [c.label for c in turns[-1].citations] == ["Sales!D10"]
