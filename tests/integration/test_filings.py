"""Filings know what they are (issue 24): company, form and period read at ingestion, listed, corrected by editors,
and questions scoped to the period asked. Invented companies throughout."""

from __future__ import annotations

import json
import uuid
from datetime import date
from pathlib import Path

import psycopg
import pytest
from click.testing import CliRunner

from core.cli import cli
from core.config import get_settings
from core.errors import BadInput
from core.rooms.access import AccessDenied, set_member
from core.workbench import Workbench
from tests.factories import make_pdf

RETAIL_COVER = (
    "UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nFORM 10-K\n"
    "ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934\n"
    "For the fiscal year ended January 28, 2023\nHARTWELL OUTFITTERS, INC.\n"
    "(Exact name of registrant as specified in its charter)\n"
    "References to fiscal 2022 ended January 28, 2023 are to the 52 weeks then ended."
)


def ten_k(company: str, year: int, body: str) -> bytes:
    """A two-page 10-K: the cover, then `body`."""
    cover = (
        f"FORM 10-K\nANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d)\nFor the fiscal year ended December 31, {year}\n"
        f"{company}\n(Exact name of registrant as specified in its charter)"
    )
    return make_pdf([cover, body])


@pytest.fixture
def run(settings, db, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", settings.database_url)
    monkeypatch.setenv("WORKBENCH_HOME", str(settings.home))
    get_settings.cache_clear()

    def invoke(*args: str) -> tuple[int, str]:
        result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
        return result.exit_code, result.stdout

    yield invoke
    get_settings.cache_clear()


def test_ingest_reads_the_cover_and_documents_lists_it(run, tmp_path: Path) -> None:
    path = tmp_path / "hartwell-annual.pdf"
    path.write_bytes(make_pdf([RETAIL_COVER, "Net sales rose."]))
    code, out = run("ingest", str(path), "--room", "R", "--json", "--wait", "--no-embed")
    assert code == 0
    result = json.loads(out)
    assert (result["company"], result["form"], result["fiscal_year"], result["fiscal_quarter"]) == (
        "HARTWELL OUTFITTERS, INC.",
        "10-K",
        2022,
        None,
    )
    assert result["period"] == "FY2022" and result["period_end"] == "2023-01-28"
    assert result["fiscal_convention"] == "fiscal 2022 ended January 28, 2023"
    # the same bytes again: the stored reading, not a new one
    _, again = run("ingest", str(path), "--room", "R", "--json", "--wait", "--no-embed")
    assert json.loads(again)["duplicate"] and json.loads(again)["period"] == "FY2022"
    code, out = run("documents", "--room", "R", "--json")
    (listed,) = json.loads(out)
    assert code == 0 and listed["form"] == "10-K" and listed["period"] == "FY2022"
    code, out = run("documents", "--room", "R")
    assert "HARTWELL OUTFITTERS, INC. · 10-K · FY2022 (ended 2023-01-28)" in out


def test_an_editor_corrects_the_period_and_a_viewer_cannot(run, workbench: Workbench, tmp_path: Path) -> None:
    result = workbench.ingest_upload(ten_k("Kestrel Mills Inc.", 2021, "Revenue grew."), "k.pdf", "R", embed=False)
    doc = result.document_id
    assert doc is not None and result.period == "FY2021"
    code, out = run("documents", "--room", "R", "--edit", str(doc), "--set-period", "Q3 FY2022", "--set-form", "10-q")
    assert code == 0 and "10-Q · Q3 FY2022" in out
    (listed,) = workbench.documents("R")
    assert (listed.form, listed.fiscal_year, listed.fiscal_quarter, listed.company) == (
        "10-Q",
        2022,
        3,
        "Kestrel Mills Inc.",
    )
    edited = workbench.edit_document("R", doc, company="", period_end="2022-09-30")
    assert edited.company is None and edited.period_end == date(2022, 9, 30) and edited.period == "Q3 FY2022"
    with pytest.raises(BadInput, match="not a form"):
        workbench.edit_document("R", doc, form="proxy")
    with pytest.raises(BadInput, match="not a period"):
        workbench.edit_document("R", doc, period="next spring")

    viewer = str(uuid.uuid4())
    with psycopg.connect(workbench.db.conninfo, autocommit=True) as conn:
        conn.execute("INSERT INTO users (id, display_name) VALUES (%s, %s)", (viewer, "Vera"))
    set_member(workbench.db, workbench.room("R").id, viewer, "viewer")
    with pytest.raises(AccessDenied):
        workbench.as_user(viewer).edit_document("R", doc, period="FY2020")
    assert workbench.documents("R")[0].period == "Q3 FY2022"


YEARS = {
    2021: "Net sales increased 4% in fiscal 2021, primarily due to higher demand for garden tools.",
    2022: "Net sales increased 7% in fiscal 2022, primarily due to new store openings in the north.",
    2023: "Net sales increased 2% in fiscal 2023, primarily due to higher prices on power tools.",
}


@pytest.fixture
def filings_room(workbench: Workbench) -> dict[int, int]:
    """A room of three annual filings of one invented company: fiscal year -> document id."""
    ids = {}
    for year, sentence in YEARS.items():
        body = f"Management's discussion and analysis. {sentence} Gross margin was stable."
        result = workbench.ingest_upload(
            ten_k("Kestrel Mills Inc.", year, body), f"kestrel-{year}.pdf", "K", embed=False
        )
        assert result.document_id is not None and result.period == f"FY{year}"
        ids[year] = result.document_id
    return ids


def answer(workbench: Workbench, question: str, **scope) -> dict:
    done = [e for e in workbench.ask(question, "K", **scope) if e.type == "done"]
    assert done and done[0].result is not None
    return done[0].result


def test_a_question_of_one_fiscal_year_answers_from_that_filing_alone(workbench, filings_room) -> None:
    result = answer(workbench, "What drove the increase in net sales in FY2022?")
    assert not result["abstained"], result["answer"]
    assert "new store openings" in result["answer"]
    assert "garden tools" not in result["answer"] and "power tools" not in result["answer"]
    assert {c["document_id"] for c in result["citations"]} == {filings_room[2022]}
    steps = [s for s in result["steps"] if s["kind"] == "search"]
    assert steps and all(s["document_ids"] == [filings_room[2022]] for s in steps)


def test_without_a_period_the_latest_filing_answers_and_says_so(workbench, filings_room) -> None:
    result = answer(workbench, "What drove the increase in net sales?")
    assert not result["abstained"], result["answer"]
    assert "FY2023 (latest)" in result["answer"] and "power tools" in result["answer"]
    assert {c["document_id"] for c in result["citations"]} == {filings_room[2023]}


def test_a_period_the_room_lacks_abstains_naming_the_periods_it_holds(workbench, filings_room) -> None:
    result = answer(workbench, "What drove the increase in net sales in fiscal 2017?")
    assert result["abstained"] and result["citations"] == []
    assert "Its filings cover FY2021, FY2022, FY2023, not FY2017." in result["answer"]


def test_search_and_ask_take_document_and_period_filters(run, workbench, filings_room) -> None:
    code, out = run("search", "net sales increased", "--room", "K", "--period", "FY2021", "--json")
    hits = json.loads(out)
    assert code == 0 and hits and {h["document_id"] for h in hits} == {filings_room[2021]}
    assert {h["period"] for h in hits} == {"FY2021"}
    code, out = run("search", "net sales increased", "--room", "K", "--doc", str(filings_room[2023]), "--json")
    assert {h["document_id"] for h in json.loads(out)} == {filings_room[2023]}
    code, out = run("ask", "What drove the increase in net sales?", "--room", "K", "--period", "FY2021", "--json")
    result = json.loads(out)
    assert code == 0 and "garden tools" in result["answer"]
    assert {c["document_id"] for c in result["citations"]} == {filings_room[2021]}


def test_a_retailers_balance_sheet_columns_are_named_by_fiscal_year(workbench: Workbench) -> None:
    """A 10-K whose "fiscal 2022 ended January 28, 2023" heads its balance sheet "January 28, 2023" and "January
    29, 2022": stored as "Fiscal 2022" and "Fiscal 2021", so a question's fiscal 2022 reads the fiscal year's
    column, not the prior year's (whose date is in 2022)."""
    from bench.filing_rooms import build

    companies, _ = build(5)
    retailer = next(c for c in companies if c.retail)
    name = next(n for n in retailer.files if "10K" in n)
    year = retailer.file_years[name]
    result = workbench.ingest_upload(retailer.files[name], name, "R", embed=False)
    assert result.status == "ready" and result.fiscal_year == year
    with workbench.db.connection() as conn:
        names = {
            row[0]
            for row in conn.execute(
                "SELECT c.name FROM sheet_columns c JOIN sheets s ON s.id = c.sheet_id WHERE s.document_id = %s",
                (result.document_id,),
            ).fetchall()
        }
    assert {f"Fiscal {year}", f"Fiscal {year - 1}"} <= names
    assert not any(n.startswith(("January", "February")) for n in names)
