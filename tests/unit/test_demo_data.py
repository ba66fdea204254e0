"""The committed demo data room in data/demo/ is exactly what data/generate_demo.py produces."""

from __future__ import annotations

import csv
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import openpyxl
import pymupdf
import pytest

ROOT = Path(__file__).resolve().parents[2]
GENERATOR = ROOT / "data" / "generate_demo.py"
DEMO = ROOT / "data" / "demo"

CSV_COLUMNS = ["Company", "Country", "Sector", "Round", "Date", "Amount Raised (USD)", "Lead Investor"]
ROUND_ORDER = ["Pre-seed", "Seed", "Series A", "Series B", "Series C", "Growth"]


def generate(out: Path) -> Path:
    """Run the generator into `out`."""
    subprocess.run([sys.executable, str(GENERATOR), "--out", str(out)], check=True, capture_output=True, text=True)
    return out


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The generator's output in a fresh folder."""
    return generate(tmp_path_factory.mktemp("demo"))


def read_rows(path: Path) -> list[dict[str, str]]:
    """Read the funding CSV as dicts."""
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def sheet_values(path: Path) -> dict[str, list[tuple]]:
    """All cell values of every sheet in a workbook."""
    wb = openpyxl.load_workbook(path)
    return {ws.title: [tuple(row) for row in ws.iter_rows(values_only=True)] for ws in wb.worksheets}


def pdf_pages(path: Path) -> list[str]:
    """Extracted text of every PDF page."""
    with pymupdf.open(path) as doc:
        return [page.get_text() for page in doc]


@pytest.mark.parametrize("name", ["funding_rounds.csv", "questions.md"])
def test_text_outputs_are_byte_identical(regenerated: Path, name: str) -> None:
    assert (regenerated / name).read_bytes() == (DEMO / name).read_bytes(), (
        f"data/demo/{name} differs from the generator's output: run `python data/generate_demo.py`"
    )


def test_workbook_matches_committed(regenerated: Path) -> None:
    assert sheet_values(regenerated / "funding_rounds.xlsx") == sheet_values(DEMO / "funding_rounds.xlsx")


def test_memo_matches_committed(regenerated: Path) -> None:
    assert pdf_pages(regenerated / "portfolio_memo.pdf") == pdf_pages(DEMO / "portfolio_memo.pdf")


def test_regeneration_is_byte_stable(regenerated: Path, tmp_path: Path) -> None:
    # Zip timestamps, workbook properties and PDF metadata/IDs are pinned, so two runs give the same bytes.
    # (Compared run against run rather than against data/demo/, so a newer openpyxl or PyMuPDF that
    # serialises differently does not fail the suite; the value/text tests above guard the content.)
    again = generate(tmp_path / "again")
    for name in ("funding_rounds.csv", "funding_rounds.xlsx", "portfolio_memo.pdf", "questions.md"):
        assert (again / name).read_bytes() == (regenerated / name).read_bytes(), name


def test_csv_shape_and_values() -> None:
    with (DEMO / "funding_rounds.csv").open(newline="", encoding="utf-8") as fh:
        header = next(csv.reader(fh))
    assert header == CSV_COLUMNS
    rows = read_rows(DEMO / "funding_rounds.csv")
    assert 250 <= len(rows) <= 350
    assert len({r["Company"] for r in rows}) >= 50
    assert {"Canada", "United States", "United Kingdom", "Germany", "France", "India", "Brazil", "Singapore"} <= {
        r["Country"] for r in rows
    }
    assert {r["Round"] for r in rows} == set(ROUND_ORDER)
    for r in rows:
        assert re.fullmatch(r"20(19|2[0-4])-\d\d-\d\d", r["Date"]), r
        assert re.fullmatch(r"[1-9]\d*", r["Amount Raised (USD)"]), r


def test_no_tie_for_the_largest_round() -> None:
    amounts = sorted((int(r["Amount Raised (USD)"]) for r in read_rows(DEMO / "funding_rounds.csv")), reverse=True)
    assert amounts[0] > amounts[1]


def test_rounds_progress_in_time_order() -> None:
    by_company: dict[str, list[dict[str, str]]] = defaultdict(list)
    for r in read_rows(DEMO / "funding_rounds.csv"):
        by_company[r["Company"]].append(r)
    for company, rounds in by_company.items():
        rounds.sort(key=lambda r: r["Date"])
        stages = [ROUND_ORDER.index(r["Round"]) for r in rounds]
        assert stages == sorted(stages), company


def test_workbook_portfolio_agrees_with_csv() -> None:
    totals: dict[str, int] = defaultdict(int)
    for r in read_rows(DEMO / "funding_rounds.csv"):
        totals[r["Company"]] += int(r["Amount Raised (USD)"])
    sheets = sheet_values(DEMO / "funding_rounds.xlsx")
    header, *rows = sheets["Portfolio"]
    assert list(header) == ["Company", "Country", "Sector", "Founded", "Employees", "Total Raised (USD)"]
    assert {row[0] for row in rows} == set(totals)
    for company, _country, _sector, founded, employees, total in rows:
        assert total == totals[company], company
        assert 2010 <= founded <= 2024 and employees > 0


def test_workbook_valuations_are_formatted() -> None:
    ws = openpyxl.load_workbook(DEMO / "funding_rounds.xlsx")["Valuations"]
    assert [c.value for c in ws[1]] == ["Company", "Round", "Date", "Post-money Valuation (USD)", "Ownership Sold"]
    assert ws.max_row > 10
    for row in ws.iter_rows(min_row=2):
        assert row[3].number_format == "$#,##0" and row[3].value > 0
        assert row[4].number_format == "0.0%" and 0 < row[4].value < 1


def test_memo_is_a_multi_page_document() -> None:
    with pymupdf.open(DEMO / "portfolio_memo.pdf") as doc:
        assert 6 <= doc.page_count <= 10
        assert doc.metadata["title"] == "Portfolio Review 2024 \u2014 Fictional Demo Fund"
        text = "".join(page.get_text() for page in doc)
    assert not re.search("[\ufb00-\ufb06]", text), "ligature glyphs would break text search"
    assert "Risks" in text and "CEO" in text


def test_questions_list_ten_answers() -> None:
    text = (DEMO / "questions.md").read_text(encoding="utf-8")
    assert len(re.findall(r"^\d+\. \*\*", text, flags=re.M)) == 10
    assert text.count("Source: Memo") >= 3 and text.count("Source: Sheet") >= 3
