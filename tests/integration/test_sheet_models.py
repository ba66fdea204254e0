"""The sheet model stored at ingestion, shown, corrected and re-derived, and answers read through it: a workbook
with stacked merged headers and indented sections, on the embedded Postgres (invented figures)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from core.cli import cli
from core.config import get_settings
from core.errors import AccessDenied, CellNotFound, InvalidValue
from core.qa.service import ask
from core.rooms.access import set_member
from core.rooms.auth import create_account
from core.workbench import Workbench
from tests.factories import make_sectioned_xlsx


@pytest.fixture
def book(workbench):
    assert workbench.ingest_upload(make_sectioned_xlsx(), "harbor.xlsx", "Harbor", embed=False).status == "ready"
    [sheet] = workbench.sheets("Harbor")
    return workbench, sheet


def _done(wb, question: str) -> dict:
    return list(ask(wb, question, "Harbor"))[-1].result


def test_the_model_is_stored_with_the_sheet(book) -> None:
    _, sheet = book
    model = sheet.model
    assert model is not None
    assert model.header_rows == (3, 4)
    assert [c.name for c in model.columns][1:3] == ["2031 › Q1", "2031 › Q2"]
    by_row = {r.row_number: r for r in model.rows}
    assert by_row[5].role == "heading" and by_row[10].path == ("South", "Pumps")
    assert (by_row[8].role, by_row[8].checked) == ("subtotal", True)
    assert model.scale == "thousands"
    assert "header rows 3–4" in model.describe()


def test_answers_read_the_line_under_its_section_and_cite_its_cell(book) -> None:
    wb, _ = book
    done = _done(wb, "What were South pumps sales in Q2 2032?")
    assert done["values"] == ["6"] and not done["abstained"]
    assert [c["ref"] for c in done["citations"]] == ["Sales!E10"]
    # a line repeated under two sections, its section not named: no figure
    assert _done(wb, "What were pumps sales in Q2 2032?")["values"] != ["16"]


def test_a_correction_is_stored_apart_and_read_by_later_answers(book) -> None:
    wb, sheet = book
    corrected = wb.correct_sheet(sheet.sheet_id, scale="millions", roles={7: "note"})
    assert corrected.model is not None and corrected.model.scale == "millions"
    assert corrected.model.row(7).role == "note"  # type: ignore[union-attr]
    [again] = wb.sheets("Harbor")
    assert again.model is not None and "row 7 is a note" in again.model.corrected
    wb.correct_sheet(sheet.sheet_id, roles={7: ""})  # taken back
    [back] = wb.sheets("Harbor")
    assert back.model is not None and back.model.row(7).role == "data"  # type: ignore[union-attr]
    with pytest.raises(InvalidValue):
        wb.correct_sheet(sheet.sheet_id, roles={7: "footer"})
    with pytest.raises(CellNotFound):
        wb.correct_sheet(sheet.sheet_id, roles={99: "total"})


def test_an_edit_rederives_the_rows_and_keeps_the_corrections(book) -> None:
    wb, sheet = book
    wb.correct_sheet(sheet.sheet_id, fiscal_start=7)
    frame = wb.grid(sheet.sheet_id).frame
    row_id = int(frame.loc[frame["row_number"] == 8, "row_id"].iloc[0])  # "Total North"
    wb.edit_cell(sheet.sheet_id, row_id, 1, "99", embed=False)
    [edited] = wb.sheets("Harbor")
    assert edited.model is not None
    row = edited.model.row(8)
    assert row is not None and row.role == "subtotal" and not row.checked  # no longer adds up
    assert edited.model.fiscal_start == 7


def test_the_cli_prints_the_reading(book, settings, monkeypatch) -> None:
    monkeypatch.setenv("DATABASE_URL", settings.database_url)
    monkeypatch.setenv("WORKBENCH_HOME", str(settings.home))
    get_settings.cache_clear()
    try:
        shown = CliRunner().invoke(cli, ["sheets", "--room", "Harbor"], catch_exceptions=False)
        assert shown.exit_code == 0 and "header rows 3–4" in shown.stdout and "sections: North, South" in shown.stdout
        listed = json.loads(CliRunner().invoke(cli, ["sheets", "--room", "Harbor", "--json"]).stdout)
        assert listed[0]["model"]["header_rows"] == [3, 4]
        _, sheet = book
        fixed = CliRunner().invoke(
            cli, ["sheets", "--room", "Harbor", "--sheet", str(sheet.sheet_id), "--set-role", "7=note"]
        )
        assert fixed.exit_code == 0 and "row 7 is a note" in fixed.stdout
        lines = CliRunner().invoke(cli, ["sheets", "--room", "Harbor", "--sheet", str(sheet.sheet_id), "--facts"])
        found = [json.loads(line) for line in lines.stdout.splitlines()]
        south_q2 = next(f for f in found if f["ref"] == "Sales!E10")
        assert south_q2["row_path"] == ["South", "Pumps"] and south_q2["column_path"] == ["2032", "Q2"]
        assert south_q2["value"] == 6 and south_q2["unit"] == "thousands" and south_q2["period"]["kind"] == "quarter"
        assert not any(f["ref"].startswith("Sales!A") for f in found)  # labels are no facts
        refused = CliRunner().invoke(cli, ["sheets", "--room", "Harbor", "--set-scale", "millions"])
        assert refused.exit_code != 0 and "--sheet" in refused.output
    finally:
        get_settings.cache_clear()


def test_a_viewer_cannot_correct_how_a_sheet_was_read(book) -> None:
    wb, sheet = book
    account = create_account(wb.db, "viewer@example.com", "Viewer", "a long password")
    set_member(wb.db, wb.room("Harbor").id, account.id, "viewer")
    viewer = Workbench(wb.settings, db=wb.db.as_user(account.id))
    with pytest.raises(AccessDenied, match="viewer"):
        viewer.correct_sheet(sheet.sheet_id, scale="millions")
    [unchanged] = wb.sheets("Harbor")
    assert unchanged.model is not None and unchanged.model.scale == "thousands" and not unchanged.model.corrected


def test_a_question_that_reads_two_ways_is_asked_back_and_one_choice_answers(book, settings, monkeypatch) -> None:
    wb, _ = book
    # Pumps stands under North and South: no region named, no figure guessed
    done = _done(wb, "What were Pumps sales in Q1 2032?")
    assert done["values"] == [] and done["abstained"] and done["citations"] == []
    labels = [o["label"] for o in done["clarify"]]
    assert len(labels) == 2 and {label.split(" › ")[0] for label in labels} == {"North", "South"}
    assert "Which did you mean?" in done["answer"] and all(label in done["answer"] for label in labels)
    # one choice, asked as its button asks it, answers with its own cell
    south = next(o for o in done["clarify"] if o["label"].startswith("South"))
    chosen = _done(wb, south["question"])
    assert chosen["values"] == ["5"] and chosen["clarify"] == []
    assert [c["value"] for c in chosen["citations"]] == ["5"]
    # the CLI's JSON carries the choices; its text names each with the command that asks it
    monkeypatch.setenv("DATABASE_URL", settings.database_url)
    monkeypatch.setenv("WORKBENCH_HOME", str(settings.home))
    get_settings.cache_clear()
    try:
        out = CliRunner().invoke(cli, ["ask", "--room", "Harbor", "--json", "What were Pumps sales in Q1 2032?"])
        assert out.exit_code == 0, out.output
        assert len(json.loads(out.stdout)["clarify"]) == 2
        text = CliRunner().invoke(cli, ["ask", "--room", "Harbor", "What were Pumps sales in Q1 2032?"]).stdout
        assert "(1) North › Pumps" in text and "workbench ask --room Harbor 'What were Pumps sales" in text
    finally:
        get_settings.cache_clear()
