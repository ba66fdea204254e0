"""The chat and its evidence on a laptop's screen (1366 x 768 to 1920 x 1080), in headless Chromium: the width
shared by a toggle kept in the URL, the question box in view however long the conversation, [n] markers beside
their chips, chip tooltips clear of the answer, the cited sheet's grid mounted before its first chip is clicked.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from tests.browser.conftest import CELL_QUESTION, GRID, SCREENSHOTS, wait_idle

pytestmark = pytest.mark.browser

# An answer citing three documents, each after its own [n] (a PDF passage, a row of one sheet, a row of another).
MARKED_QUESTION = "Who is the CEO of Harvestquay and how much did Harvestquay raise?"
QUESTION_BOX = '[data-testid="stChatInput"]'  # as wide as the chat column


@pytest.fixture
def laptop(chromium, app_url: str, request: pytest.FixtureRequest) -> Iterator:
    """A tab the size of a 1366 x 768 laptop screen, on the Chat page of the demo room."""
    context = chromium.new_context(viewport={"width": 1366, "height": 768})
    tab = context.new_page()
    tab.set_default_timeout(120_000)
    tab.goto(f"{app_url}/?room=Demo")
    wait_idle(tab)
    yield tab
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(SCREENSHOTS / f"{request.node.name}.png"))
    context.close()


def ask(tab, question: str, chip: str) -> None:
    box = tab.locator('[data-testid="stChatInput"] textarea')
    box.fill(question)
    box.press("Enter")
    tab.locator('[data-testid="stChatMessage"] button', has_text=chip).first.wait_for()
    wait_idle(tab, timeout=120)


def box_of(locator) -> dict:
    found = locator.bounding_box()
    assert found is not None
    return found


def test_the_question_box_stays_in_view_and_answers_scroll_inside_the_chat(laptop) -> None:
    ask(laptop, CELL_QUESTION, "funding_rounds!")
    ask(laptop, MARKED_QUESTION, "portfolio_memo")
    question_box = box_of(laptop.locator('[data-testid="stChatInput"]'))
    assert question_box["y"] >= 0 and question_box["y"] + question_box["height"] <= 768, question_box
    # The two answers are taller than the list: it scrolls inside the chat, the page does not.
    overflow = laptop.locator('[data-testid="stChatMessage"]').first.evaluate(
        """e => { for (let a = e.parentElement; a; a = a.parentElement) {
             const y = getComputedStyle(a).overflowY;
             if ((y === 'auto' || y === 'scroll') && a.getAttribute('data-testid') !== 'stMain') {
               return a.scrollHeight - a.clientHeight; } }
           return 0; }"""
    )
    assert overflow > 0
    page_scroll = laptop.evaluate(
        "() => { const m = document.querySelector('[data-testid=stMain]'); return m ? m.scrollTop : window.scrollY; }"
    )
    assert page_scroll <= 4


def chat_width(tab, until=None) -> float:  # type: ignore[no-untyped-def]
    """The chat column's width (its question box's), once `until(width)` holds (the rerun may still be drawing)."""
    for _ in range(100):
        width = box_of(tab.locator(QUESTION_BOX))["width"]
        if until is None or until(width):
            break
        tab.wait_for_timeout(100)
    return width


def test_the_width_toggle_shares_the_width_and_the_link_keeps_it(laptop, app_url: str) -> None:
    laptop.set_viewport_size({"width": 1600, "height": 900})
    ask(laptop, CELL_QUESTION, "funding_rounds!")
    even = chat_width(laptop)
    laptop.locator("[data-testid=stButtonGroup] button", has_text="Wide evidence").click()
    laptop.wait_for_url("**split=evidence**")
    narrow = chat_width(laptop, lambda w: w < even * 0.85)
    assert narrow < even * 0.85
    laptop.reload()
    wait_idle(laptop)
    assert abs(chat_width(laptop, lambda w: abs(w - narrow) < 4) - narrow) < 4  # the link keeps the share
    laptop.locator("[data-testid=stButtonGroup] button", has_text="Wide chat").click()
    laptop.wait_for_url("**split=chat**")
    assert chat_width(laptop, lambda w: w > even * 1.15) > even * 1.15


def test_markers_stay_beside_their_chips_at_every_laptop_width(laptop) -> None:
    ask(laptop, MARKED_QUESTION, "portfolio_memo")
    message = laptop.locator('[data-testid="stChatMessage"]').last
    markers = message.locator('[data-testid="stMarkdown"]', has_text=re.compile(r"^\s*\[\d+\]\s*$"))
    assert markers.count() >= 2
    for width in range(1366, 1921, 32):
        laptop.set_viewport_size({"width": width, "height": 900})
        laptop.wait_for_timeout(150)
        for n in range(markers.count()):
            marker = markers.nth(n)
            # The chip drawn right after the marker (the next button in the answer's order).
            chip = marker.locator("xpath=following::button[1]")
            m, c = box_of(marker), box_of(chip)
            assert abs((m["y"] + m["height"] / 2) - (c["y"] + c["height"] / 2)) < 12, (width, n, m, c)
            assert c["x"] > m["x"], (width, n, m, c)


def test_a_chip_tooltip_does_not_cover_the_answer(laptop) -> None:
    ask(laptop, CELL_QUESTION, "funding_rounds!")
    message = laptop.locator('[data-testid="stChatMessage"]').last
    answer = box_of(message.locator('[data-testid="stText"]').last)
    chip = message.locator("button", has_text="funding_rounds!").first
    chip.hover()
    tip = laptop.locator('[data-testid="stTooltipContent"]').first
    tip.wait_for(state="visible")

    def clear_of_the_answer(shown: dict) -> bool:
        below_answer = shown["y"] >= answer["y"] + answer["height"]
        beside_answer = shown["x"] >= answer["x"] + answer["width"] or shown["x"] + shown["width"] <= answer["x"]
        return below_answer or beside_answer

    # The tooltip fades in and is placed by the browser: its settled place is what is read (under load, 300 ms
    # after it showed it could still be where it started).
    shown = box_of(tip)
    for _ in range(50):
        if clear_of_the_answer(shown):
            break
        laptop.wait_for_timeout(100)
        shown = box_of(tip)
    assert clear_of_the_answer(shown), (shown, answer)
    tip_on_chip = box_of(chip)
    assert shown["y"] >= tip_on_chip["y"] + tip_on_chip["height"] - 6  # under its chip


def test_the_cited_sheet_is_mounted_before_its_first_chip_is_clicked(laptop) -> None:
    ask(laptop, CELL_QUESTION, "funding_rounds!")
    assert "doc=" not in laptop.url  # nothing clicked yet
    grid = laptop.frame_locator(GRID)
    grid.locator(".ag-row").first.wait_for(timeout=60_000)
    assert laptop.get_by_text("The sheet the last answer cites").count() == 1
    laptop.locator('[data-testid="stChatMessage"] button', has_text="funding_rounds!").first.click()
    grid.locator(".ag-cell.sheet-cited").first.wait_for(timeout=60_000)
    assert laptop.locator(GRID).count() == 1  # the same grid, now painting the cited cell


def cut_texts(grid) -> list[str]:  # type: ignore[no-untyped-def]
    """The header titles and cell values the grid shows cut (an ellipsis: wider than their column)."""
    return grid.locator(".ag-root").first.evaluate(
        """root => [...root.querySelectorAll('.ag-header-cell-text, .ag-cell-value')]
             .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
             .map(e => e.textContent)"""
    )


def test_grid_columns_are_as_wide_as_their_headers_and_values(laptop) -> None:
    ask(laptop, CELL_QUESTION, "funding_rounds!")
    laptop.locator('[data-testid="stChatMessage"] button', has_text="funding_rounds!").first.click()
    grid = laptop.frame_locator(GRID)
    grid.locator(".ag-cell.sheet-cited").first.wait_for(timeout=60_000)
    cut: list[str] = []
    for _ in range(30):  # the columns are sized once the grid has drawn its rows
        cut = cut_texts(grid)
        if not cut:
            break
        laptop.wait_for_timeout(200)
    assert cut == []
    headers = grid.locator(".ag-header-cell-text").all_text_contents()
    assert len(headers) >= 3 and all(" · " in h for h in headers[1:]), headers


def page_overflow(tab) -> float:  # type: ignore[no-untyped-def]
    """How far the page itself scrolls (its main area's content past the window), in pixels."""
    return tab.evaluate(
        "() => { const m = document.querySelector('[data-testid=stMain]');"
        " return m ? m.scrollHeight - m.clientHeight : document.documentElement.scrollHeight - innerHeight; }"
    )


def test_the_sheet_page_fits_a_laptop_screen_and_the_grid_grows_on_a_taller_one(laptop, app_url: str) -> None:
    laptop.goto(f"{app_url}/sheet?room=Demo")
    wait_idle(laptop)
    grid = laptop.locator(GRID)
    laptop.frame_locator(GRID).locator(".ag-row").first.wait_for(timeout=60_000)
    assert page_overflow(laptop) <= 16
    frame = box_of(grid)
    assert frame["y"] + frame["height"] <= 768 and frame["height"] >= 300, frame
    # Every row the frame shows is drawn inside it: the grid fills its frame, no row is cut off below it.
    inner = laptop.frame_locator(GRID).locator(".ag-root-wrapper").first.bounding_box()
    assert inner is not None and abs(inner["height"] - frame["height"]) <= 4, (inner, frame)
    laptop.set_viewport_size({"width": 1920, "height": 1080})
    for _ in range(50):
        if box_of(grid)["height"] > frame["height"] + 100:
            break
        laptop.wait_for_timeout(100)
    assert box_of(grid)["height"] > frame["height"] + 100
    assert page_overflow(laptop) <= 16
