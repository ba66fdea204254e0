"""Figures from PDF statements end to end: a table found at ingestion is a sheet of its PDF, questions about
its line items are answered from its cells exactly, and a cited cell opens its page with that line lit."""

from __future__ import annotations

from decimal import Decimal

import pymupdf
import pytest

from core.cells import parse_number
from core.errors import ReadOnlyTable
from core.qa.planner.schema import clear_schema_cache, load_schema
from core.qa.service import ask
from core.retrieval.viewer import render_page
from tests.factories import STATEMENT_ROWS, make_pdf, make_statement_pdf

ROOM = "Filings"


def done(wb, question: str) -> dict:
    return next(e for e in ask(wb, question, ROOM) if e.type == "done").result


@pytest.fixture
def filing(workbench) -> int:
    result = workbench.ingest_upload(make_statement_pdf(), "PEP_2022_10K.pdf", ROOM, embed=False)
    assert result.status == "ready" and result.pages == 2 and result.tables == 1
    assert result.size == "2 pages, 1 table"
    return result.document_id


def _figure(label: str, year: str) -> Decimal:
    figures = dict(STATEMENT_ROWS)[label]
    text = figures[("2022", "2021", "2020").index(year)]
    value = parse_number(text)
    assert value is not None
    return Decimal(repr(value))


def test_the_statement_is_stored_as_a_sheet_of_its_pdf_with_cell_boxes(workbench, filing: int) -> None:
    with workbench.db.connection() as conn:
        sheets = conn.execute(
            "SELECT id, name, page_number, title FROM sheets WHERE document_id = %s", (filing,)
        ).fetchall()
        assert len(sheets) == 1, sheets
        sheet_id, name, page, title = sheets[0]
        assert page == 2 and name.startswith("p2 ") and "STATEMENT OF INCOME" in (title or "")
        rows = conn.execute(
            "SELECT values, boxes FROM sheet_rows WHERE sheet_id = %s ORDER BY row_index", (sheet_id,)
        ).fetchall()
        chunks = conn.execute("SELECT count(*) FROM chunks WHERE row_id IS NOT NULL").fetchone()
    labels = [values[0] for values, _ in rows]
    # Line items in order; the running header and the page number are no rows of the table.
    assert "Net Revenue" in labels and "Operating Profit" in labels
    assert not any("Table of Contents" in (v or "") or v == "47" for values, _ in rows for v in values)
    wrapped = next(label for label in labels if label and label.startswith("Selling"))
    assert wrapped == "Selling, general and administrative expenses"
    for values, boxes in rows:
        assert len(boxes) == len(values)
        assert all((box is None) == (value in (None, "")) for value, box in zip(values, boxes, strict=True))
    assert chunks == (0,)  # the page's passages already hold the table's words for search


def test_a_line_item_in_a_year_is_answered_from_its_cell_and_cites_the_page(workbench, filing: int) -> None:
    result = done(workbench, "What was net revenue in 2022?")
    assert not result["abstained"], result["answer"]
    assert result["steps"][0]["kind"] == "cells"
    [value] = result["values"]
    assert Decimal(repr(parse_number(value))) == _figure("Net Revenue", "2022")
    [citation] = result["citations"]
    assert citation["kind"] == "cell" and citation["page"] == 2 and citation["document_id"] == filing
    assert "86,392" in citation["value"]


def test_percentage_change_on_a_pdf_statement_is_exact(workbench, filing: int) -> None:
    result = done(workbench, "What was the percentage change in operating profit from 2021 to 2022?")
    old, new = _figure("Operating Profit", "2021"), _figure("Operating Profit", "2022")
    assert result["values"] == [str(((new - old) / old * 100).quantize(Decimal("0.01")))]
    assert [c["page"] for c in result["citations"]] == [2, 2]
    negative = done(workbench, "What were impairment and other charges in 2020?")
    assert parse_number(negative["values"][0]) == -205


def test_a_cited_cell_opens_its_page_with_the_line_highlighted(workbench, filing: int) -> None:
    citation = done(workbench, "What was gross profit in 2021?")["citations"][0]
    lit = render_page(workbench.db, filing, cell=(citation["row_id"], citation["column"]))
    assert lit.page == 2 and lit.highlighted and lit.cell is not None
    assert lit.cell.label == "Gross profit" and lit.cell.value is not None and "42,399" in lit.cell.value
    with pymupdf.open(stream=make_statement_pdf(), filetype="pdf") as doc:
        page = doc[1]
        figure = page.search_for("42,399")[0]
        label = page.search_for("Gross profit")[0]
        elsewhere = page.search_for("45,816")[0]  # the same line, another year: not cited
    boxes = [pymupdf.Rect(box) for box in lit.cell.boxes]

    def lit_up(found: pymupdf.Rect) -> bool:
        middle = pymupdf.Point((found.x0 + found.x1) / 2, (found.y0 + found.y1) / 2)
        return any(box.contains(middle) for box in boxes)

    assert len(boxes) == 2
    assert lit_up(figure) and lit_up(label)  # the cited figure and its line item
    assert not lit_up(elsewhere)


def test_a_table_read_from_a_pdf_is_read_only(workbench, filing: int) -> None:
    citation = done(workbench, "What was gross profit in 2021?")["citations"][0]
    [sheet] = [s for s in workbench.sheets(ROOM) if s.document_id == filing]
    assert sheet.page == 2 and sheet.label.startswith("PEP_2022_10K.pdf · p2")
    with pytest.raises(ReadOnlyTable, match="page 2 of its PDF"):
        workbench.edit_cell(sheet.sheet_id, citation["row_id"], citation["column"], "1")
    assert done(workbench, "What was gross profit in 2021?")["values"] == [citation["value"]]


def test_a_pdf_without_tables_adds_no_sheet(workbench) -> None:
    result = workbench.ingest_upload(make_pdf(["Plain prose. No figures here at all."]), "memo.pdf", ROOM, embed=False)
    assert result.tables == 0 and result.size == "1 page"
    with workbench.db.connection() as conn:
        assert conn.execute("SELECT count(*) FROM sheets WHERE document_id = %s", (result.document_id,)).fetchone() == (
            0,
        )


def test_a_short_documents_only_table_carries_the_documents_prose(workbench, filing: int) -> None:
    """The planner reads the subject of a short PDF's only table from its prose (page 1 here, the table on page
    2); a document of two tables gives neither table its prose."""
    room = workbench.room(ROOM)
    [sheet] = [s for s in load_schema(workbench.db, room.id).sheets if s.document_id == filing]
    assert "Productivity savings offset" in sheet.document_text and "Productivity" not in sheet.page_text
    with workbench.db.connection() as conn:
        # a second table in the filing: the document's prose belongs to neither
        conn.execute(
            "INSERT INTO sheets (document_id, position, name, header_row, n_rows, n_cols, title, page_number) "
            "SELECT document_id, position + 1, 'p2 copy', header_row, n_rows, n_cols, title, page_number "
            "FROM sheets WHERE document_id = %s",
            (filing,),
        )
    clear_schema_cache()
    sheets = [s for s in load_schema(workbench.db, room.id).sheets if s.document_id == filing]
    assert len(sheets) == 2 and all(s.document_text == "" for s in sheets)


def test_a_long_documents_prose_is_no_context_of_its_table(workbench) -> None:
    """Past 30 pages (a filing, not a memo) the prose is about much else: the table gets none of it."""
    with pymupdf.open(stream=make_statement_pdf(), filetype="pdf") as doc:
        for n in range(29):  # 2 + 29 = 31 pages
            doc.new_page(width=612, height=792).insert_text((72, 72), f"Risk factor {n}: demand may fall.")
        data = doc.tobytes()
    result = workbench.ingest_upload(data, "LONG_10K.pdf", ROOM, embed=False)
    assert result.status == "ready" and result.pages == 31 and result.tables == 1
    [sheet] = [
        s for s in load_schema(workbench.db, workbench.room(ROOM).id).sheets if s.document_id == result.document_id
    ]
    assert sheet.page_text and sheet.document_text == ""
