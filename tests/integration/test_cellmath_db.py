"""Statement grids end to end: ingest a CSV note, ask for changes and averages, edit a cell, ask again."""

from __future__ import annotations

from decimal import Decimal

from core.ingest.edits import edit_cell
from core.qa.service import ask

NOTE = (
    b",,Years Ended December 31,,\n"
    b",2019,2018,2017\n"
    b'Net sales,"$4,120.5","$3,871.0","$3,402.2"\n'
    b'Cost of sales,"2,010.7","1,955.3","1,801.9"\n'
    b'Contribution margin,"2,109.8","1,915.7","1,600.3"\n'
)


def done(wb, question: str) -> dict:
    return next(e for e in ask(wb, question, "Notes") if e.type == "done").result


def test_percentage_change_and_average_are_exact_and_cite_the_cells(workbench) -> None:
    assert workbench.ingest_upload(NOTE, "note_4.csv", "Notes", embed=False).status == "ready"
    result = done(workbench, "What was the percentage change in contribution margin between 2018 and 2019?")
    expected = ((Decimal("2109.8") - Decimal("1915.7")) / Decimal("1915.7") * 100).quantize(Decimal("0.01"))
    assert result["values"] == [str(expected)] and not result["abstained"]
    assert [(c["ref"], c["value"]) for c in result["citations"]] == [("note_4!C5", "1,915.7"), ("note_4!B5", "2,109.8")]
    assert result["steps"][0]["kind"] == "cells"
    average = done(workbench, "What is the average net sales from 2017 to 2019?")
    assert average["values"] == [str((Decimal("4120.5") + Decimal("3871.0") + Decimal("3402.2")) / 3)]  # 3797.9


def test_an_edited_cell_changes_the_next_answer(workbench) -> None:
    workbench.ingest_upload(NOTE, "note_4.csv", "Notes", embed=False)
    before = done(workbench, "What was the change in cost of sales from 2018 to 2019?")
    assert before["values"] == ["55.4"]
    cell = next(c for c in before["citations"] if c["ref"] == "note_4!B4")
    with workbench.db.connection() as conn:
        [(sheet_id,)] = conn.execute("SELECT id FROM sheets").fetchall()
    edit_cell(workbench.db, sheet_id, cell["row_id"], cell["column"], "2,000.3")
    after = done(workbench, "What was the change in cost of sales from 2018 to 2019?")
    assert after["values"] == ["45"]
