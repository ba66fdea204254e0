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
