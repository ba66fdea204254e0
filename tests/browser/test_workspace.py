"""The analyst's workspace in headless Chromium: state in the URL, citations that keep the room.

A second room ("Acme deal", holding the demo's sheet and memo) is where the analyst works: a citation
clicked there must never switch back to the Demo room, and reload, back and a new tab restore the view.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

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

ROOT = Path(__file__).resolve().parents[2]
ROOM = "Acme deal"


@pytest.fixture
def acme(app_workbench) -> Iterator:
    """The app's workbench, with a second room holding the demo sheet and memo (ingested once per app)."""
    for name in ("funding_rounds.csv", "portfolio_memo.pdf"):
        path = ROOT / "data" / "demo" / name
        app_workbench.ingest_upload(path.read_bytes(), name, ROOM, embed=False)
    yield app_workbench


def shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def sidebar_room(page) -> str:
    """The room the sidebar's picker shows."""
    box = page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').first
    # Streamlit draws the picked option as the value of the picker's input.
    return box.locator("input").first.input_value().strip() or box.inner_text().split("\n")[-1].strip()


def pick_room(page, name: str) -> None:
    box = page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').first
    box.click()
    page.get_by_role("option", name=name, exact=True).click()
    wait_idle(page)


def ask(page, question: str, chip_prefix: str) -> None:
    box = page.locator('[data-testid="stChatInput"] textarea')
    box.fill(question)
    box.press("Enter")
    page.locator('[data-testid="stChatMessage"] button', has_text=chip_prefix).first.wait_for(timeout=120_000)
    wait_idle(page, timeout=120)


def test_a_citation_in_another_room_keeps_the_room(page, app_url: str, acme) -> None:
    page.goto(f"{app_url}/")
    wait_idle(page)
    pick_room(page, ROOM)
    assert sidebar_room(page) == ROOM
    ask(page, CELL_QUESTION, "funding_rounds!")
    page.locator('[data-testid="stChatMessage"] button', has_text="funding_rounds!").first.click()
    page.frame_locator(f"{GRID} >> nth=-1").locator(CITED_CELL).first.wait_for(timeout=30_000)
    wait_idle(page)
    shot(page, "workspace_cell_in_acme")
    assert sidebar_room(page) == ROOM

    ask(page, PAGE_QUESTION, "portfolio_memo · p.")
    page.locator('[data-testid="stChatMessage"] button', has_text="portfolio_memo · p.").first.click()
    page.locator(HIGHLIGHTED_PAGE).first.wait_for(timeout=30_000)
    wait_idle(page)
    shot(page, "workspace_page_in_acme")
    assert sidebar_room(page) == ROOM


def latest_turn(app_db, page):
    """The last answered turn of the conversation named in the page's URL, as the store has it."""
    from core.qa.feedback import conversation_history

    conversation = int(page.url.split("conversation=")[1].split("&")[0])
    with app_db.connection() as conn:
        room_id = conn.execute("SELECT room_id FROM conversations WHERE id = %s", (conversation,)).fetchone()[0]
    return conversation_history(app_db, room_id, conversation)[-1]


def wait_embedded(app_db, timeout: float = 600.0) -> None:
    """Timings are of the steady state, not of a first start whose two cores are busy embedding the demo room
    (Acme deal is not embedded: its questions are answered by table steps and keyword search)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with app_db.connection() as conn:
            # The worker idle and the demo room's embedding job done: an earlier test's cell edit may leave one row
            # of the demo room to re-embed, which does not take the two cores.
            busy = conn.execute(
                "SELECT count(*) FROM ingest_jobs WHERE status NOT IN ('done', 'failed')"
                " OR NOT EXISTS (SELECT 1 FROM ingest_jobs j JOIN rooms r ON r.id = j.room_id"
                " WHERE r.name = 'Demo' AND j.kind = 'embed' AND j.status = 'done')"
            )
            if busy.fetchone()[0] == 0:
                return
        time.sleep(1)
    raise AssertionError("the demo room was not embedded in time")


def chip_button(page, label: str):
    """A chip under an answer (the last with that label), opening the "+N more" popover when it is folded there."""
    chip = page.locator('[data-testid="stChatMessage"] button:visible', has_text=label)
    if chip.count() == 0:
        page.locator('[data-testid="stChatMessage"] button:visible', has_text="more").last.click()
        chip = page.locator('[data-testid="stPopoverBody"] button:visible', has_text=label)
    return chip.last


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def test_a_cell_chip_highlights_the_cell_beside_the_chat(page, app_url: str, acme, app_db) -> None:
    """Five chip clicks, each to a cell of another row of the grid kept mounted beside the chat (the 0.8 s aim's
    median printed)."""
    page.goto(f"{app_url}/?room={ROOM.replace(' ', '+')}")
    wait_idle(page)
    assert sidebar_room(page) == ROOM
    ask(page, CELL_QUESTION, "funding_rounds!")
    turn = latest_turn(app_db, page)
    wait_embedded(app_db)
    rows: dict[int, str] = {}
    for citation in turn.citations[:8]:  # the chips shown without opening the "+N more" popover
        rows.setdefault(citation.row_id, citation.ref.rsplit("!", 1)[1])
    order = list(rows.items())[:3]
    assert len(order) == 3
    grid = page.frame_locator(GRID)
    chip_button(page, order[0][1]).click()  # the first click mounts the grid: not timed
    grid.locator(f'.ag-row[row-id="{order[0][0]}"] {CITED_CELL}').first.wait_for(timeout=60_000)
    wait_idle(page)
    timings = []
    for row_id, ref in [order[1], order[2], order[0], order[1], order[2]]:
        chip = chip_button(page, ref)
        started = time.perf_counter()
        chip.click()
        cited = grid.locator(f'.ag-row[row-id="{row_id}"] {CITED_CELL}').first
        cited.wait_for(state="visible", timeout=60_000)
        timings.append(time.perf_counter() - started)
        # The chat stays; the URL names the cell once the click's rerun has run (the page lit the cell before).
        page.wait_for_url(lambda url, row_id=row_id: f"row={row_id}" in url, timeout=60_000)
        assert "/sheet" not in page.url
        wait_idle(page)
        assert grid.locator(CITED_CELL).count() == 1
    median = statistics.median(timings)
    print(f"\nchip -> highlighted cell beside the chat: median {median:.2f} s over 5 clicks "
          f"({', '.join(f'{t:.2f}' for t in timings)}); {load()}")  # fmt: skip
    shot(page, "workspace_chat_split_cell")
    assert sidebar_room(page) == ROOM
    assert page.locator('[data-testid="stException"]').count() == 0
    # The 0.8 s aim is judged on the printed median (BENCHMARKS.md, with the load average); the test fails only
    # on a grid rebuilt per click, as before issue 11 (2.6-3.3 s on a quiet machine), whatever the CI load.
    assert median <= 2.5


def test_the_first_chip_click_lights_its_cell_in_a_busy_browser(page, app_url: str, acme, app_db) -> None:
    """The first chip click mounts the grid beside the chat, in a browser slowed as a loaded machine slows it (its CPU
    throttled six times through the DevTools protocol): the cited cell, in a row far down the sheet and a column off
    the narrow grid's first screen, is scrolled to and painted. (On one CI run the first click's cell was never
    drawn; the jump now waits longer for the grid and scrolls again until the cell is drawn. That run's timing is not
    reproduced here at will: this is the slow first mount it happened on.)"""
    page.goto(f"{app_url}/?room={ROOM.replace(' ', '+')}")
    wait_idle(page)
    ask(page, CELL_QUESTION, "funding_rounds!")
    turn = latest_turn(app_db, page)
    # The chip of the row furthest down: out of the grid's first screenful, shown only if the jump scrolls to it.
    far = max((c for c in turn.citations[:8] if c.row_id is not None), key=lambda c: int(c.ref.rsplit("!", 1)[1][1:]))
    assert int(far.ref.rsplit("!", 1)[1][1:]) > 40
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 6})
    try:
        chip_button(page, far.ref.rsplit("!", 1)[1]).click()
        page.frame_locator(GRID).locator(f'.ag-row[row-id="{far.row_id}"] {CITED_CELL}').first.wait_for(timeout=120_000)
    finally:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    assert page.locator('[data-testid="stException"]').count() == 0


def test_a_cell_chip_lights_its_cell_in_the_page_before_the_server_hears_the_click(
    page, app_url: str, acme, app_db
) -> None:
    """views/_shared/chip_jump.py: the page paints, scrolls to and flashes a chip's cell in the grid beside the chat
    at the click. Every message from the page to the server is held back from the click on, so the server never
    reruns: the cell is lit all the same, in the chip's row, and the URL does not yet name it."""
    held = {"on": False}

    def relay(ws) -> None:  # type: ignore[no-untyped-def]
        server = ws.connect_to_server()
        ws.on_message(lambda message: None if held["on"] else server.send(message))

    page.route_web_socket("**/_stcore/stream", relay)
    page.goto(f"{app_url}/?room={ROOM.replace(' ', '+')}")
    wait_idle(page)
    ask(page, CELL_QUESTION, "funding_rounds!")
    turn = latest_turn(app_db, page)
    citation = next(c for c in turn.citations[:8] if c.row_id is not None and c.sheet == "funding_rounds")
    ref = citation.ref.rsplit("!", 1)[1]
    grid = page.frame_locator(GRID)
    grid.locator(".ag-row").first.wait_for(timeout=60_000)  # the cited sheet's grid, mounted with the answer
    assert grid.locator(CITED_CELL).count() == 0
    held["on"] = True
    chip_button(page, ref).click()
    grid.locator(f'.ag-row[row-id="{citation.row_id}"] {CITED_CELL}').first.wait_for(state="visible", timeout=10_000)
    assert grid.locator(CITED_CELL).count() == 1
    number = "".join(ch for ch in ref if ch.isdigit())
    assert (
        grid.locator(f'.ag-pinned-left-cols-container .ag-row[row-id="{citation.row_id}"] [col-id="row_number"]')
        .inner_text()
        .strip()
        == number
    )
    assert f"row={citation.row_id}" not in page.url  # the server has not run the click: the page lit the cell


def test_a_page_chip_shows_the_highlighted_page_beside_the_chat(page, app_url: str, acme, app_db) -> None:
    """Five chip clicks, each from another page of the PDF back to the cited one (the 0.8 s aim's median printed)."""
    page.goto(f"{app_url}/?room={ROOM.replace(' ', '+')}")
    wait_idle(page)
    ask(page, PAGE_QUESTION, "portfolio_memo · p.")
    turn = latest_turn(app_db, page)
    wait_embedded(app_db)
    cited = next(c for c in turn.citations if c.kind == "page")
    label = f"portfolio_memo · p. {cited.page}"
    highlighted = page.locator(f'img[alt="portfolio_memo.pdf, page {cited.page} with the cited passage highlighted"]')
    chip_button(page, label).click()
    highlighted.first.wait_for(timeout=60_000)
    wait_idle(page)
    timings = []
    for _ in range(5):
        # Another page first (the pane's ◀/▶), so each click really has to bring the cited page back.
        other = cited.page + 1 if cited.page < 7 else cited.page - 1
        page.get_by_role("button", name="Next page" if other > cited.page else "Previous page").click()
        page.locator(f'img[alt="portfolio_memo.pdf, page {other}"]').first.wait_for()
        highlighted.first.wait_for(state="detached")  # the cited page has really left the pane
        wait_idle(page)
        chip = chip_button(page, label)
        started = time.perf_counter()
        chip.click()
        highlighted.first.wait_for(state="visible", timeout=60_000)
        timings.append(time.perf_counter() - started)
        wait_idle(page)
    median = statistics.median(timings)
    print(f"\nchip -> highlighted page beside the chat: median {median:.2f} s over 5 clicks "
          f"({', '.join(f'{t:.2f}' for t in timings)}); {load()}")  # fmt: skip
    shot(page, "workspace_chat_split_page")
    assert sidebar_room(page) == ROOM and "/documents" not in page.url
    # Issue 11 asks for 0.8 s; measured 0.86 s at a load average of 1.6 (BENCHMARKS.md): not met yet. The printed
    # median is the figure; the test fails only on a page switch per click (2.6 s and more before issue 11).
    assert median <= 2.5


def test_reload_new_tab_and_back_restore_the_view(page, app_url: str, acme, app_db) -> None:
    page.goto(f"{app_url}/?room={ROOM.replace(' ', '+')}")
    wait_idle(page)
    ask(page, CELL_QUESTION, "funding_rounds!")
    turn = latest_turn(app_db, page)
    first = turn.citations[0]
    chip_button(page, first.ref.rsplit("!", 1)[1]).click()
    cell = f'.ag-row[row-id="{first.row_id}"] {CITED_CELL}'
    page.frame_locator(GRID).locator(cell).first.wait_for()
    wait_idle(page)
    url = page.url
    assert "conversation=" in url and "room=Acme+deal" in url and f"row={first.row_id}" in url

    page.reload()
    page.frame_locator(GRID).locator(cell).first.wait_for()
    wait_idle(page)
    assert sidebar_room(page) == ROOM and page.locator('[data-testid="stChatMessage"]').count() == 2

    tab = page.context.new_page()
    tab.goto(url)
    tab.frame_locator(GRID).locator(cell).first.wait_for()
    wait_idle(tab)
    assert sidebar_room(tab) == ROOM and tab.locator('[data-testid="stChatMessage"]').count() == 2
    tab.close()

    # A page chip, then back: the cell is on screen again.
    ask(page, PAGE_QUESTION, "portfolio_memo · p.")
    chip_button(page, "portfolio_memo · p.").click()
    page.locator(HIGHLIGHTED_PAGE).first.wait_for()
    wait_idle(page)
    page.go_back()
    page.frame_locator(GRID).locator(cell).first.wait_for()
    wait_idle(page)
    assert sidebar_room(page) == ROOM


def test_a_link_into_another_visible_room_switches_and_says_so(page, app_url: str, acme, app_db) -> None:
    page.goto(f"{app_url}/?room={ROOM.replace(' ', '+')}")
    wait_idle(page)
    ask(page, PAGE_QUESTION, "portfolio_memo · p.")
    conversation = page.url.split("conversation=")[1].split("&")[0]
    # A new tab opens in the Demo room; the link names only the conversation, which was asked in Acme deal.
    tab = page.context.new_page()
    tab.goto(f"{app_url}/?conversation={conversation}")
    tab.get_by_text(f"Switched to the data room '{ROOM}': conversation {conversation} was asked there").wait_for()
    # the notice is drawn before the conversation's turns: on a loaded machine the run was still drawing them
    tab.locator('[data-testid="stChatMessage"]').nth(1).wait_for(timeout=60_000)
    wait_idle(tab)
    assert sidebar_room(tab) == ROOM and tab.locator('[data-testid="stChatMessage"]').count() == 2
    assert "room=Acme+deal" in tab.url
    shot(tab, "workspace_link_switched_room")
    tab.close()

    page.goto(f"{app_url}/?room=Nowhere")
    page.get_by_text("There is no data room 'Nowhere' that you can see").first.wait_for()
    wait_idle(page)
    assert sidebar_room(page) == "Demo"
    shot(page, "workspace_unknown_room")


def test_a_search_hit_opens_beside_the_hits_with_its_words_marked(page, app_url: str, acme) -> None:
    page.goto(f"{app_url}/search?room={ROOM.replace(' ', '+')}")
    wait_idle(page)
    box = page.get_by_label("Search this data room")
    box.fill("CEO Harvestquay")
    box.press("Enter")
    page.get_by_text("Matches: ").first.wait_for()
    wait_idle(page)
    assert page.locator("strong", has_text="Harvestquay").count() > 0  # the matched words in bold
    page.locator('[data-testid="stMainBlockContainer"]').get_by_role("button", name="Open", exact=True).first.click()
    page.locator(f'img[alt$="with the cited passage highlighted"], {GRID}').first.wait_for()
    wait_idle(page)
    assert sidebar_room(page) == ROOM and "/search" in page.url and "doc=" in page.url
    shot(page, "workspace_search_open")


def test_the_sheet_page_has_the_chat_beside_its_grid(page, app_url: str, acme, app_db) -> None:
    page.goto(f"{app_url}/sheet?room={ROOM.replace(' ', '+')}")
    wait_idle(page)
    page.frame_locator(GRID).locator(".ag-row").first.wait_for()
    ask(page, CELL_QUESTION, "funding_rounds!")
    turn = latest_turn(app_db, page)
    row_id = turn.citations[0].row_id
    chip_button(page, turn.citations[0].ref.rsplit("!", 1)[1]).click()
    page.frame_locator(GRID).locator(f'.ag-row[row-id="{row_id}"] {CITED_CELL}').first.wait_for()
    wait_idle(page)
    assert "/sheet" in page.url and sidebar_room(page) == ROOM
    shot(page, "workspace_sheet_split")


def _yellow(png: bytes):
    """The pixels of a rendered page that the highlight tints (yellow: red and green high, blue low)."""
    import io

    import numpy as np
    from PIL import Image

    rgb = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.int16)
    return (rgb[:, :, 0] > 200) & (rgb[:, :, 1] > 200) & (rgb[:, :, 2] < 170)


def test_a_page_chip_lights_the_quoted_lines_and_paging_follows_in_the_url(page, app_url: str, acme, app_db) -> None:
    """The cited passage's lines that the answer quotes are highlighted, not the whole passage; ◀/▶ in the pane
    write the page to the URL, and a reload shows the page paged to."""
    import json

    page.goto(f"{app_url}/?room={ROOM.replace(' ', '+')}")
    wait_idle(page)
    ask(page, PAGE_QUESTION, "portfolio_memo · p.")
    turn = latest_turn(app_db, page)
    cited = next(c for c in turn.citations if c.kind == "page")
    chip_button(page, f"portfolio_memo · p. {cited.page}").click()
    image = page.locator(f'img[alt="portfolio_memo.pdf, page {cited.page} with the cited passage highlighted"]')
    image.first.wait_for()
    wait_idle(page)
    assert f"page={cited.page}" in page.url and f"chunk={cited.chunk_index}" in page.url
    page.get_by_text("Highlighted: the ").first.wait_for()
    shot(page, "workspace_quoted_lines")

    with app_db.connection() as conn:
        content, boxes = conn.execute(
            "SELECT content, boxes FROM chunks WHERE document_id = %s AND chunk_index = %s",
            (cited.document_id, cited.chunk_index),
        ).fetchone()
    boxes = json.loads(boxes) if isinstance(boxes, str) else boxes
    lines = [line for line in content.split("\n") if line.strip()]
    assert len(lines) == len(boxes) and len(lines) > 4
    src = image.first.get_attribute("src")
    png = page.request.get(src if src.startswith("http") else f"{app_url}{src}").body()
    yellow = _yellow(png)
    scale = yellow.shape[1] / 612  # the memo's pages are US Letter, 612 points wide

    def lit(line: int) -> float:
        x0, y0, x1, y1 = (round(v * scale) for v in boxes[line])
        return float(yellow[y0 + 2 : y1 - 2, x0:x1].mean())

    ceo = next(i for i, line in enumerate(lines) if "Nikhil Yarborough" in line)
    metrics = next(i for i, line in enumerate(lines) if line.startswith("Key metrics"))
    assert lit(ceo) > 0.3  # the line the answer quotes is tinted...
    assert lit(metrics) == 0.0  # ...the passage's other lines are not
    assert sum(lit(i) > 0.3 for i in range(len(lines))) < len(lines) / 2

    # Paging in the pane: the URL follows each page (two quick clicks turn two pages), a reload shows the page paged to.
    assert cited.page >= 3
    previous = page.get_by_role("button", name="Previous page")
    previous.click()
    previous.click()
    two_back = cited.page - 2
    page.locator(f'img[alt="portfolio_memo.pdf, page {two_back}"]').first.wait_for()
    wait_idle(page)
    page.wait_for_url(f"**page={two_back}&**", timeout=5_000)
    page.get_by_role("button", name="Next page").click()
    away = cited.page - 1
    page.locator(f'img[alt="portfolio_memo.pdf, page {away}"]').first.wait_for()
    wait_idle(page)
    page.wait_for_url(f"**page={away}&**", timeout=5_000)
    page.reload()
    page.locator(f'img[alt="portfolio_memo.pdf, page {away}"]').first.wait_for()
    wait_idle(page)
    assert f"page={away}&" in page.url and "conversation=" in page.url and sidebar_room(page) == ROOM
    # Back to the cited page: its quoted lines lit again.
    page.get_by_role("button", name="Next page").click()
    image.first.wait_for()
    wait_idle(page)
    page.wait_for_url(f"**page={cited.page}&**", timeout=5_000)


def _settles(check: Callable[[], bool], timeout: float = 15.0) -> bool:
    """Whether `check` holds within `timeout` seconds, tried every 0.2 s."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)
    return True


def test_show_all_cited_rows_filters_the_grid_to_them(page, app_url: str, acme, app_db) -> None:
    page.goto(f"{app_url}/?room={ROOM.replace(' ', '+')}")
    wait_idle(page)
    ask(page, CELL_QUESTION, "funding_rounds!")
    turn = latest_turn(app_db, page)
    rows = {c.row_id for c in turn.citations if c.kind == "cell"}
    cells = {(c.row_id, c.column) for c in turn.citations if c.kind == "cell"}
    assert len(rows) > 1
    page.get_by_role("button", name=f"Show all {len(rows)} cited rows").click()
    page.get_by_text(f"Showing the {len(rows)} cited rows of").first.wait_for()
    grid = page.frame_locator(GRID)
    grid.locator(CITED_CELL).first.wait_for()
    wait_idle(page)

    def shown() -> list[int]:
        """The grid's row ids in one read of the page (AG Grid redraws its rows while it settles: rows read one by
        one may be gone by the next read)."""
        ids = grid.locator(".ag-center-cols-container .ag-row").evaluate_all(
            "rows => rows.map(row => row.getAttribute('row-id'))"
        )
        return sorted(int(i) for i in ids)

    assert _settles(lambda: shown() == sorted(rows)), shown()
    # Every row has its cited cells painted (AG Grid draws only the columns in view: some cited cells are off it).
    assert _settles(lambda: all(grid.locator(f'.ag-row[row-id="{r}"] {CITED_CELL}').count() >= 1 for r in rows))
    assert 1 <= grid.locator(CITED_CELL).count() <= len(cells)
    assert "all=" in page.url and sidebar_room(page) == ROOM
    shot(page, "workspace_show_all_cited_rows")


def test_the_new_room_popover_closes_after_create(page, app_url: str) -> None:
    """Created, the new room is the sidebar's and the popover is out of the way of the controls under it."""
    room = f"Closing {int(time.time())}"
    page.goto(f"{app_url}/documents")
    wait_idle(page)
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.get_by_text("New data room").click()
    body = page.locator('[data-testid="stPopoverBody"]')
    body.get_by_label("Name").fill(room)
    body.get_by_label("Name").press("Enter")
    body.get_by_role("button", name="Create").click()
    sidebar.get_by_text("Documents (0)").wait_for()
    wait_idle(page)
    body.wait_for(state="hidden", timeout=5_000)  # no Escape, no click elsewhere
    assert room in sidebar.locator('[data-testid="stSelectbox"]').inner_html()
