"""core.ingest.pdf_tables on pages drawn here with PyMuPDF: statements, ruled grids, prose."""

from __future__ import annotations

from collections.abc import Iterator

import pymupdf
import pytest

from core.ingest.pdf import TEXT_FLAGS
from core.ingest.pdf_tables import Box, PdfTable, find_tables

FONT = pymupdf.Font("helv")  # through a TextWriter, so "—" is written as itself (insert_text would make it "·")
SIZE = 8.0
COLUMNS = (400.0, 470.0, 540.0)  # right edges of the three period columns
PROSE = (
    "Revenue grew 15% in 2022 to $98.4 billion, from $86.5 billion in 2021, as volumes rose 12% and prices 3%. "
    "Operating margin improved by 1.2 points to 24.1% on lower freight costs and the 2021 restructuring, while "
    "interest expense of $1.1 billion was flat and the tax rate fell from 21.0% to 19.5% after the settlement."
)


class Sheet:
    """A page to write on: text placed left or right-aligned, lines, then tables read back."""

    def __init__(self, width: float = 612, height: float = 792) -> None:
        self.doc = pymupdf.open()
        self.page = self.doc.new_page(width=width, height=height)
        self.writer = pymupdf.TextWriter(self.page.rect)

    def left(self, x: float, y: float, text: str, size: float = SIZE) -> None:
        self.writer.append((x, y), text, font=FONT, fontsize=size)

    def right(self, x: float, y: float, text: str) -> None:
        self.left(x - FONT.text_length(text, fontsize=SIZE), y, text)

    def centre(self, x0: float, x1: float, y: float, text: str) -> None:
        self.left((x0 + x1 - FONT.text_length(text, fontsize=SIZE)) / 2, y, text)

    def prose(self, y: float, text: str = PROSE, width: float = 490) -> float:
        """Write `text` as a paragraph wrapped at `width` from x=60; returns the y below it."""
        line = ""
        for word in text.split():
            if line and FONT.text_length(f"{line} {word}", fontsize=SIZE) > width:
                self.left(60, y, line)
                y, line = y + 11, ""
            line = f"{line} {word}".strip()
        self.left(60, y, line)
        return y + 11

    def tables(self) -> list[PdfTable]:
        self.writer.write_text(self.page)
        self.writer = pymupdf.TextWriter(self.page.rect)
        return find_tables(self.page, self.page.get_textpage(flags=TEXT_FLAGS), 7)


def figure_row(sheet: Sheet, y: float, label: str, figures: tuple[str, str, str], dollar: bool = False) -> None:
    sheet.left(60 if not label.startswith("  ") else 70, y, label.strip())
    for right, figure in zip(COLUMNS, figures, strict=True):
        sheet.right(right, y, figure)
        if dollar:
            sheet.left(right - 55, y, "$")  # a "$" of its own, at the column's left as statements print it


def income_statement(sheet: Sheet, top: float = 80) -> None:
    """An unruled income statement: title, two-line header, "$" apart, negatives, a wrapped label, a section."""
    sheet.left(60, top, "CONSOLIDATED STATEMENTS OF INCOME", size=10)
    sheet.left(60, top + 12, "(in millions, except per share amounts)")
    sheet.centre(COLUMNS[0] - 55, COLUMNS[2], top + 35, "Year Ended December 31,")  # over the three columns
    for right, year in zip(COLUMNS, ("2022", "2021", "2020"), strict=True):
        sheet.right(right, top + 47, year)
    y = top + 65
    sheet.left(60, y, "Revenues:")
    figure_row(sheet, y + 12, "  Product", ("86,392", "75,010", "60,220"), dollar=True)
    figure_row(sheet, y + 24, "  Services", ("12,000", "11,500", "(1,234)"))
    figure_row(sheet, y + 36, "Total revenues", ("98,392", "86,510", "58,986"), dollar=True)
    sheet.left(60, y + 48, "Restructuring and other charges related to the")
    figure_row(sheet, y + 60, "exit of certain businesses", ("(1,000)", "—", "(250)"))
    figure_row(sheet, y + 72, "Net income", ("5,000", "4,000", "3,000"), dollar=True)


STATEMENT = (
    ("", "", "Year Ended December 31,", ""),  # printed centred, so over the middle column
    ("", "2022", "2021", "2020"),
    ("Revenues:", "", "", ""),
    ("Product", "$ 86,392", "$ 75,010", "$ 60,220"),
    ("Services", "12,000", "11,500", "(1,234)"),
    ("Total revenues", "$ 98,392", "$ 86,510", "$ 58,986"),
    ("Restructuring and other charges related to the exit of certain businesses", "(1,000)", "—", "(250)"),
    ("Net income", "$ 5,000", "$ 4,000", "$ 3,000"),
)
STATEMENT_TITLE = "CONSOLIDATED STATEMENTS OF INCOME — (in millions, except per share amounts)"


@pytest.fixture
def sheet() -> Iterator[Sheet]:
    made = Sheet()
    yield made
    made.doc.close()


def test_unruled_statement_reads_as_its_grid(sheet: Sheet) -> None:
    # A running header and a page number just inside the margins: set apart, they are not the title or a row.
    sheet.left(60, 54, "ACME Corp — Annual Report")
    income_statement(sheet)
    sheet.prose(250, "The accompanying notes are an integral part of these consolidated financial statements.")
    sheet.centre(0, 612, 290, "47")
    tables = sheet.tables()
    assert len(tables) == 1
    table = tables[0]
    assert table.records == STATEMENT
    assert table.title == STATEMENT_TITLE
    assert table.page_number == 7
    texts = {cell for row in table.records for cell in row}
    assert not any("ACME" in t or t == "47" or "accompanying" in t for t in texts)


def inside(inner: Box, outer: Box, slack: float = 0.5) -> bool:
    return (
        inner[0] >= outer[0] - slack
        and inner[1] >= outer[1] - slack
        and inner[2] <= outer[2] + slack
        and inner[3] <= outer[3] + slack
    )


def test_cell_boxes_hold_their_words(sheet: Sheet) -> None:
    income_statement(sheet)
    table = sheet.tables()[0]
    assert len(table.boxes) == len(table.records)
    for texts, boxes in zip(table.records, table.boxes, strict=True):
        assert len(boxes) == len(texts)
        for text, box in zip(texts, boxes, strict=True):
            if not text:
                assert box is None
                continue
            assert box is not None and inside(box, table.bbox)
            for word in text.split():
                hits = [tuple(r) for r in sheet.page.search_for(word)]
                assert any(inside(hit, box) for hit in hits), (word, box, hits)
    # The "$" of Product's 2022 figure is inside that cell, and the cell ends where its figure ends.
    product_2022 = table.boxes[3][1]
    assert product_2022 is not None
    dollar = [tuple(r) for r in sheet.page.search_for("$") if inside(tuple(r), product_2022)]
    assert len(dollar) == 1
    assert product_2022[2] == pytest.approx(COLUMNS[0], abs=0.5)
    # The wrapped label's box covers both of its lines.
    label = table.boxes[6][0]
    assert label is not None
    assert label[3] - label[1] > 20


def test_ruled_grid(sheet: Sheet) -> None:
    rows = [("Segment", "2022", "2021"), ("Industrial", "1,204", "1,150"), ("Consumer", "877", "(12)")]
    rows.append(("Total", "2,081", "1,138"))
    edges_x = (60.0, 200.0, 280.0, 360.0)
    for i, row in enumerate(rows):
        y = 120 + 16 * i
        sheet.left(64, y + 11, row[0])
        for c, text in enumerate(row[1:], start=1):
            sheet.centre(edges_x[c], edges_x[c + 1], y + 11, text)
    for i in range(len(rows) + 1):
        sheet.page.draw_line((60, 120 + 16 * i), (360, 120 + 16 * i))
    for x in edges_x:
        sheet.page.draw_line((x, 120), (x, 120 + 16 * len(rows)))
    tables = sheet.tables()
    assert len(tables) == 1
    assert tables[0].records == tuple(rows)
    assert tables[0].title is None


def test_two_tables_on_one_page_top_to_bottom(sheet: Sheet) -> None:
    income_statement(sheet, top=60)
    y = sheet.prose(240)
    sheet.left(60, y + 20, "Segment assets")
    sheet.right(COLUMNS[0], y + 40, "2022")
    sheet.right(COLUMNS[1], y + 40, "2021")
    sheet.left(60, y + 52, "Industrial")
    sheet.right(COLUMNS[0], y + 52, "4,100")
    sheet.right(COLUMNS[1], y + 52, "3,900")
    sheet.left(60, y + 64, "Consumer")
    sheet.right(COLUMNS[0], y + 64, "2,200")
    sheet.right(COLUMNS[1], y + 64, "2,350")
    tables = sheet.tables()
    assert [t.title for t in tables] == [STATEMENT_TITLE, "Segment assets"]
    assert tables[0].records == STATEMENT
    assert tables[1].records == (("", "2022", "2021"), ("Industrial", "4,100", "3,900"), ("Consumer", "2,200", "2,350"))
    assert tables[0].bbox[3] < tables[1].bbox[1]


def test_prose_page_has_no_tables(sheet: Sheet) -> None:
    y = 80.0
    for _ in range(6):
        y = sheet.prose(y) + 8
    assert sheet.tables() == []


def test_table_of_contents_is_not_a_table(sheet: Sheet) -> None:
    items = [("Business", "4"), ("Risk Factors", "10"), ("Properties", "21"), ("Legal Proceedings", "22")]
    items += [("Market for Equity", "24"), ("Financial Statements", "31")]
    for i, (item, page) in enumerate(items):
        sheet.left(60, 100 + 14 * i, f"Item {i + 1}. {item}")
        sheet.right(540, 100 + 14 * i, page)
    assert sheet.tables() == []


def test_rotated_page_boxes_are_in_display_space() -> None:
    # A landscape statement shown upright on a portrait page turned by /Rotate 90, as landscape tables in
    # filings are: MuPDF reads its words sideways, the table must come out as displayed.
    landscape = Sheet(width=792, height=612)
    income_statement(landscape)
    upright = landscape.tables()[0]
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.set_rotation(90)
    page.show_pdf_page(page.mediabox, landscape.doc, 0, rotate=90)
    tables = find_tables(page, page.get_textpage(flags=TEXT_FLAGS), 1)
    assert len(tables) == 1
    assert tables[0].records == STATEMENT
    for row, expected_row in zip(tables[0].boxes, upright.boxes, strict=True):
        for box, expected in zip(row, expected_row, strict=True):
            assert (box is None) == (expected is None)
            if box is not None and expected is not None:
                assert box == pytest.approx(expected, abs=0.01)
    doc.close()
    landscape.doc.close()


def test_words_beside_figures_make_their_own_column(sheet: Sheet) -> None:
    rows = [("Name", "Age", "Position"), ("Jane Doe", "54", "Chief Executive Officer")]
    rows += [("John Roe", "61", "Chief Financial Officer"), ("Ann Poe", "47", "General Counsel")]
    rows += [("Max Moe", "39", "Treasurer")]
    for i, (name, age, position) in enumerate(rows):
        sheet.left(60, 100 + 12 * i, name)
        sheet.right(250, 100 + 12 * i, age)
        sheet.left(300, 100 + 12 * i, position)
    tables = sheet.tables()
    assert [t.records for t in tables] == [tuple(rows)]


def test_a_label_wrapped_inside_its_bracket_is_one_line_item(sheet: Sheet) -> None:
    """A label "Long-term contract assets (Note" that goes on "3)": a bracket left open joins the next line, even one
    starting with a digit."""
    for right, year in zip(COLUMNS[:2], ("2019", "2018"), strict=True):
        sheet.right(right, 80, year)
    sheet.left(60, 98, "Long-term contract assets (Note")
    figure_row(sheet, 110, "3)", ("31,407", "18,562", ""))
    figure_row(sheet, 122, "Investments in affiliates (Note 4)", ("7,815", "8,340", ""))
    records = [[cell for cell in row if cell] for row in sheet.tables()[0].records]
    assert ["Long-term contract assets (Note 3)", "31,407", "18,562"] in records
    assert ["Investments in affiliates (Note 4)", "7,815", "8,340"] in records
