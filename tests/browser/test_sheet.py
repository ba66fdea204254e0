"""The Sheet page in headless Chromium: a cited cell is scrolled to and highlighted, edits persist, bad values revert."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from urllib.parse import urlencode

import pytest

from tests.browser.conftest import wait_idle

pytestmark = pytest.mark.browser

GRID = 'iframe[title="st_aggrid.AgGrid.agGrid"]'
CITED = ".ag-cell.sheet-cited"


@pytest.fixture
def app_db(pg_server, app_url: str, page) -> Iterator:
    """A Database on the running app's database (app_url's fixture names it browser_<pid>), demo room loaded."""
    from core.db import Database

    page.goto(f"{app_url}/sheet")  # the app loads the demo room on its first page view
    wait_idle(page)
    database = Database(pg_server.get_uri(database=f"browser_{os.getpid()}"), max_size=2, run_migrations=False)
    yield database
    database.close()


def demo_cell(db, row_index: int, column: str) -> dict:
    """The demo CSV's cell at a data row position and column: ids, sheet, A1 address and stored text."""
    with db.connection() as conn:
        row = conn.execute(
            "SELECT s.id, s.document_id, s.name, r.id, r.row_number, c.letter, c.position, r.values ->> c.position"
            " FROM sheets s JOIN documents d ON d.id = s.document_id"
            " JOIN sheet_rows r ON r.sheet_id = s.id JOIN sheet_columns c ON c.sheet_id = s.id AND c.name = %s"
            " WHERE d.title = 'funding_rounds.csv' AND r.row_index = %s",
            (column, row_index),
        ).fetchone()
    sheet_id, doc, sheet, row_id, number, letter, position, value = row
    return {"sheet_id": sheet_id, "doc": doc, "sheet": sheet, "row_id": row_id, "column": column,
            "position": position, "cell": f"{letter}{number}", "value": value}  # fmt: skip


def link(app_url: str, cell: dict) -> str:
    query = {
        "doc": cell["doc"],
        "sheet": cell["sheet"],
        "cell": cell["cell"],
        "row": cell["row_id"],
        "col": cell["column"],
    }
    return f"{app_url}/sheet?{urlencode(query)}"


def wait_for_cited(page, timeout: float = 30.0):
    """The highlighted cell inside the grid's iframe, once it is rendered."""
    # The last grid: while a run is in progress, the previous run's grid may still be on the page.
    cited = page.frame_locator(f"{GRID} >> nth=-1").locator(CITED)
    cited.first.wait_for(state="visible", timeout=timeout * 1000)
    return cited


def wait_for_embedding(db, timeout: float = 300.0) -> None:
    """Wait until the app's background embedding of the demo room is done (it competes for the CPU)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with db.connection() as conn:
            pending = conn.execute(
                "SELECT count(*) FROM documents WHERE status = 'ready' AND embedded_at IS NULL"
            ).fetchone()[0]
        if not pending:
            return
        time.sleep(0.5)


def test_a_cited_cell_is_scrolled_to_and_highlighted(page, app_url: str, app_db) -> None:
    cell = demo_cell(app_db, 250, "Amount Raised (USD)")  # far below the first screen of rows
    # As when an analyst clicks a citation: the app is up and has finished indexing the room.
    wait_for_embedding(app_db)
    started = time.perf_counter()
    page.goto(link(app_url, cell))
    cited = wait_for_cited(page)
    elapsed = time.perf_counter() - started
    print(f"\nnavigation to highlighted cell {cell['cell']}: {elapsed:.2f} s")
    assert cited.count() == 1 and cited.inner_text().strip() == cell["value"]
    # Really on screen: inside the grid's visible body, not merely rendered.
    body = page.frame_locator(GRID).locator(".ag-body-viewport").first.bounding_box()
    box = cited.bounding_box()
    assert body and box and body["y"] <= box["y"] and box["y"] + box["height"] <= body["y"] + body["height"]
    wait_idle(page)
    caption = page.get_by_text("Cited cell").first.inner_text()
    assert f"{cell['sheet']}!{cell['cell']}" in caption and cell["value"] in caption
    header = page.frame_locator(GRID).locator(".ag-header-cell-text", has_text="Amount Raised (USD)").first
    assert header.inner_text().startswith(cell["cell"].rstrip("0123456789") + " · ")
    assert page.locator('[data-testid="stException"]').count() == 0
    assert elapsed < 10


def edit_in_grid(page, value: str) -> None:
    """Double-click the highlighted cell, type `value`, press Enter."""
    cell = page.frame_locator(GRID).locator(CITED).first
    cell.dblclick()
    editor = page.frame_locator(GRID).locator(".ag-cell-inline-editing input, .ag-cell-editor input").first
    editor.wait_for(state="visible")
    editor.fill(value)
    editor.press("Enter")


def test_an_edit_in_the_grid_persists_after_a_reload(page, app_url: str, app_db) -> None:
    from core.ingest.edits import edit_cell

    cell = demo_cell(app_db, 40, "Lead Investor")
    new = f"{cell['value']} (edited)"
    try:
        page.goto(link(app_url, cell))
        wait_for_cited(page)
        wait_idle(page)
        edit_in_grid(page, new)
        page.get_by_text(f"Saved {cell['sheet']}!{cell['cell']}").first.wait_for(timeout=30_000)
        assert demo_cell(app_db, 40, "Lead Investor")["value"] == new

        page.reload()
        cited = wait_for_cited(page)
        assert cited.inner_text().strip() == new
    finally:
        edit_cell(app_db, cell["sheet_id"], cell["row_id"], cell["column"], cell["value"])


def test_a_value_that_does_not_fit_the_column_is_refused_and_reverted(page, app_url: str, app_db) -> None:
    cell = demo_cell(app_db, 41, "Amount Raised (USD)")
    page.goto(link(app_url, cell))
    wait_for_cited(page)
    wait_idle(page)
    edit_in_grid(page, "12x")
    error = page.locator('[data-testid="stAlert"]', has_text="is not a number").first
    error.wait_for(timeout=30_000)
    assert f"{cell['cell']} is a number column" in error.inner_text()
    wait_idle(page)
    deadline = time.monotonic() + 10
    while page.frame_locator(GRID).locator(CITED).inner_text().strip() != cell["value"] and time.monotonic() < deadline:
        time.sleep(0.2)
    assert page.frame_locator(GRID).locator(CITED).inner_text().strip() == cell["value"]
    assert demo_cell(app_db, 41, "Amount Raised (USD)")["value"] == cell["value"]


def big_csv(n_rows: int = 100_000) -> bytes:
    """A 100,000 x 20 sheet: names, categories, dates, amounts, percentages and numbers."""
    countries = ["Canada", "France", "Germany", "India", "Brazil", "Japan", "Kenya", "Chile"]
    header = ["Company", "Country", "Sector", "Round", "Date", "Amount", "Share", "Employees", "Founded", "City"]
    header += [f"Metric {i}" for i in range(1, 11)]
    lines = [",".join(header)]
    for i in range(n_rows):
        metrics = ",".join(str((i * (k + 7)) % 9973) for k in range(10))
        lines.append(
            f"Company {i:06d},{countries[i % 8]},Sector {i % 13},Round {i % 5},2020-{1 + i % 12:02d}-{1 + i % 28:02d},"
            f"{(i % 997) * 1000 + 500},{i % 100}.5%,{10 + i % 4000},{1990 + i % 30},City {i % 211},{metrics}"
        )
    return ("\n".join(lines) + "\n").encode()


@pytest.mark.slow
def test_a_100k_row_sheet_opens_at_the_cited_cell(page, app_url: str, app_db, tmp_path) -> None:
    from core.config import Settings
    from core.ingest.pipeline import ingest_bytes
    from core.rooms.store import ensure_room

    settings = Settings.from_env({"DATABASE_URL": app_db.conninfo, "WORKBENCH_HOME": str(tmp_path)})
    result = ingest_bytes(app_db, ensure_room(app_db, "Big sheet"), big_csv(), "big.csv", settings)
    assert result.status == "ready" and result.rows == 100_000
    with app_db.connection() as conn:
        sheet_name, row_id, number = conn.execute(
            "SELECT s.name, r.id, r.row_number FROM sheets s JOIN sheet_rows r ON r.sheet_id = s.id"
            " WHERE s.document_id = %s AND r.row_index = 87654",
            (result.document_id,),
        ).fetchone()
    cell = {"doc": result.document_id, "sheet": sheet_name, "cell": f"F{number}", "row_id": row_id, "column": "Amount"}

    started = time.perf_counter()
    page.goto(link(app_url, cell))  # a link without its room: the page switches to the sheet's room and says so
    cited = wait_for_cited(page, timeout=120)
    elapsed = time.perf_counter() - started
    print(f"\n100,000 x 20 sheet: link to highlighted cell F{number}: {elapsed:.2f} s")
    page.get_by_text("Switched to the data room 'Big sheet'").first.wait_for()
    assert cited.inner_text().strip() == str((87654 % 997) * 1000 + 500)
    wait_idle(page)
    # The window picker shows the window holding the cited row (as text, or as its input's value).
    shown = page.locator('[data-testid="stSelectbox"]').evaluate_all(
        "els => els.map(e => e.innerText + ' ' + Array.from(e.querySelectorAll('input')).map(i => i.value).join(' '))"
    )
    assert any("data rows 85,001–90,000 of 100,000" in text for text in shown), shown
    assert elapsed < 30
