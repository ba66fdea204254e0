"""Files made by the tests themselves: PDFs, CSVs and workbooks with known contents."""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
from pathlib import Path

import pymupdf
from openpyxl import Workbook

from core.models import Citation
from core.retrieval.retriever import Evidence


def make_pdf(pages: list[str], *, user_pw: str | None = None, owner_pw: str | None = None) -> bytes:
    """A Letter-size PDF with one text box per page."""
    doc = pymupdf.open()
    for text in pages:
        page = doc.new_page(width=612, height=792)
        if text:
            page.insert_textbox(pymupdf.Rect(72, 72, 540, 720), text, fontsize=11, fontname="helv")
    if user_pw is not None or owner_pw is not None:
        data = doc.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw=user_pw or "", owner_pw=owner_pw or "owner")
    else:
        data = doc.tobytes()
    doc.close()
    return data


# An income statement as filings print it: heading, unit line, a two-line period header, "$" apart from the
# figure, right-aligned columns, a section line, a label wrapped over two lines, negatives in parentheses.
STATEMENT_HEADING = "CONSOLIDATED STATEMENT OF INCOME"
STATEMENT_UNIT = "(in millions, except per share amounts)"
STATEMENT_YEARS = ("2022", "2021", "2020")
STATEMENT_ROWS: list[tuple[str, tuple[str, ...]]] = [
    ("Net Revenue", ("$ 86,392", "$ 79,474", "$ 70,372")),
    ("Cost of sales", ("40,576", "37,075", "31,797")),
    ("Gross profit", ("45,816", "42,399", "38,575")),
    ("Operating expenses:", ()),
    ("Selling, general and administrative expenses", ("34,459", "31,237", "28,453")),
    ("Impairment and other charges", ("(3,166)", "-", "(205)")),
    ("Operating Profit", ("11,512", "11,162", "10,080")),
]
STATEMENT_PROSE = (
    "Management's discussion. Net revenue grew in every division, led by beverages in Latin America. "
    "Productivity savings offset part of the cost inflation."
)


def make_statement_pdf(
    *,
    running_header: str = "Table of Contents",
    rows: list[tuple[str, tuple[str, ...]]] = STATEMENT_ROWS,
    heading: str = STATEMENT_HEADING,
    unit: str = STATEMENT_UNIT,
    prose: str = STATEMENT_PROSE,
) -> bytes:
    """A two-page filing excerpt: page 1 prose, page 2 the income statement above (or `rows` under `heading`;
    with a running header and a page number), text placed word by word as a filing's PDF places it."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_textbox(pymupdf.Rect(72, 72, 540, 300), prose, fontsize=10, fontname="helv")
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 40), running_header, fontsize=8, fontname="helv")
    page.insert_text((300, 770), "47", fontsize=8, fontname="helv")
    page.insert_text((190, 90), heading, fontsize=11, fontname="hebo")
    page.insert_text((210, 106), unit, fontsize=9, fontname="helv")
    rights = (400, 470, 540)  # the figures' right edges

    def right(text: str, edge: float, y: float, font: str = "helv") -> None:
        page.insert_text((edge - pymupdf.get_text_length(text, fontname=font, fontsize=9), y), text, fontsize=9,
                         fontname=font)  # fmt: skip

    right("Year Ended December 31,", 540, 134)
    for year, edge in zip(STATEMENT_YEARS, rights, strict=True):
        right(year, edge, 148, "hebo")
    y = 166.0
    for label, figures in rows:
        if len(label) > 40:  # wrapped over two lines, the figures on the second
            cut = label.rfind(" ", 0, 40)
            page.insert_text((72, y), label[:cut], fontsize=9, fontname="helv")
            y += 12
            label = "  " + label[cut + 1 :]
        page.insert_text((72, y), label, fontsize=9, fontname="helv")
        for figure, edge in zip(figures, rights, strict=False):
            if figure.startswith("$ "):
                page.insert_text((edge - 62, y), "$", fontsize=9, fontname="helv")
                figure = figure[2:]
            right(figure, edge, y)
        y += 15
    data = doc.tobytes()
    doc.close()
    return data


def make_image_pdf() -> bytes:
    """A PDF whose only page holds a drawing and no text (as a scan without OCR)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.draw_rect(pymupdf.Rect(100, 100, 400, 400), color=(0, 0, 0), fill=(0.5, 0.5, 0.5))
    data = doc.tobytes()
    doc.close()
    return data


def make_xlsx(sheets: dict[str, list[list[object]]]) -> bytes:
    """A workbook with the given sheets, values written from A1."""
    wb = Workbook()
    wb.remove(wb.active)
    for name, rows in sheets.items():
        ws = wb.create_sheet(name)
        for row in rows:
            ws.append(row)
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue()


FUNDING_CSV = (
    b"Company,Country,Round,Amount Raised (USD)\n"
    b"Acme Robotics,Canada,Seed,2000000\n"
    b"Borealis Bio,Canada,Series A,15000000\n"
    b"Cobalt Pay,Germany,Series B,42000000\n"
    b"Dune Analytics,France,Seed,1500000\n"
)

MEMO_PAGES = [
    "Portfolio memo. Acme Robotics builds warehouse picking arms. Its chief executive is Mara Quill.\n"
    "The company plans to double its headcount to 120 engineers by 2025.",
    "Risks. Cobalt Pay faces regulatory review of its payment licence in Germany.\n"
    "Customer churn rose to 4.2 percent per month during the pilot.",
    "Outlook. Borealis Bio expects its first clinical readout in the third quarter.",
]


# A passage and a cell citation of the shape the retriever produces (for synthesizer tests).
PAGE = Citation(
    kind="page",
    document_id=1,
    title="memo.pdf",
    page=6,
    chunk_index=3,
    start_char=0,
    end_char=90,
    quote="Harvestquay is led by chief executive Nikhil Yarborough. It plans 1,105 staff by 2025.",
)
CELL = Citation(
    kind="cell",
    document_id=2,
    title="funding.csv",
    sheet="funding",
    row_id=7,
    column="Amount",
    ref="funding!F8",
    value="12000000",
)


def table_evidence(n: int, text: str, values: list[str], citation: Citation = CELL) -> Evidence:
    """A table result as the retriever hands it to a synthesizer: `text` is its content and description."""
    return Evidence(n=n, kind="table", content=text, citations=[citation], values=values, description=text)


def csv_bytes(rows: list[list[object]]) -> bytes:
    """A CSV file of `rows` (the first is the header), quoted as any spreadsheet exports it."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue().encode()


ROOT = Path(__file__).resolve().parents[1]


def run_workbench(*args: str, env: dict[str, str], timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """`python -m core ARGS` in a child process with `env` over this one's (offline), its output captured."""
    return subprocess.run(
        [sys.executable, "-m", "core", *args],
        cwd=ROOT,
        env={**os.environ, "HF_HUB_OFFLINE": "1", **env},
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
    )


SECTIONED_LINES = {"North": {"Pumps": [10, 12, 14, 16], "Valves": [5, 6, 7, 8]}, "South": {"Pumps": [3, 4, 5, 6]}}


def make_sectioned_xlsx() -> bytes:
    """A workbook as analysts lay one out: years merged over their quarters, regions as headings with their lines
    indented under them, a subtotal per region (invented figures; the same line under two regions)."""
    from openpyxl import Workbook
    from openpyxl.styles import Alignment

    wb = Workbook()
    ws = wb.active
    ws.title = "Sales"
    ws.append(["Harbor Tools — quarterly sales"])
    ws.append(["USD thousands"])
    ws.append(["Region / Line", 2031, None, 2032, None])
    ws.merge_cells("B3:C3")
    ws.merge_cells("D3:E3")
    ws.append([None, "Q1", "Q2", "Q1", "Q2"])
    for region, lines in SECTIONED_LINES.items():
        ws.append([region])
        for line, figures in lines.items():
            ws.append([line, *figures])
            ws.cell(ws.max_row, 1).alignment = Alignment(indent=1)
        ws.append([f"Total {region}", *(sum(col) for col in zip(*lines.values(), strict=True))])
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()
