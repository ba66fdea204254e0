"""Unit tests for core.ingest.sheets: CSV/XLSX parsing, dtype inference, number and date parsing."""

from __future__ import annotations

import csv
import datetime
import io
import random
import struct
import zipfile
from collections.abc import Callable

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.cells import cell_ref, col_letter, parse_date, parse_measure, parse_number, typed_value
from core.errors import EmptyFile, MalformedSheet
from core.ingest.sheets import parse_csv, parse_xlsx
from core.ingest.sheets.parsed import ParsedSheet
from tests.factories import make_xlsx

# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------


def names(sheet: ParsedSheet) -> list[str]:
    return [c.name for c in sheet.columns]


def letters(sheet: ParsedSheet) -> list[str]:
    return [c.letter for c in sheet.columns]


def dtypes(sheet: ParsedSheet) -> dict[str, str]:
    return {c.name: c.dtype for c in sheet.columns}


def column(sheet: ParsedSheet, name: str) -> list[str | None]:
    pos = names(sheet).index(name)
    return [row[pos] for row in sheet.rows]


def workbook_bytes(wb: openpyxl.Workbook) -> bytes:
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def rewrite_member(data: bytes, member: str, edit: Callable[[str], str]) -> bytes:
    """Return a copy of a zip with one member's text passed through ``edit``."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            content = src.read(info.filename)
            if info.filename == member:
                content = edit(content.decode("utf-8")).encode("utf-8")
            dst.writestr(info.filename, content)
    return out.getvalue()


MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def raw_xlsx(
    sheets: list[tuple[str, str]],
    shared_strings: list[str] | None = None,
    styles: str | None = None,
    workbook_pr: str = "",
    ns: str = MAIN_NS,
) -> bytes:
    """Build a minimal .xlsx by hand, to control the exact worksheet XML.

    ``sheets`` holds (title, full worksheet XML) pairs.
    """
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(
            "[Content_Types].xml",
            '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
            'content-types"><Default Extension="xml" ContentType="application/xml"/></Types>',
        )
        z.writestr(
            "_rels/.rels",
            '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/'
            '2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
            'officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>'
            "</Relationships>",
        )
        sheet_els, rels = [], []
        for i, (title, xml) in enumerate(sheets, start=1):
            sheet_els.append(f'<sheet name="{title}" sheetId="{i}" r:id="rId{i}"/>')
            rels.append(f'<Relationship Id="rId{i}" Type="{REL_NS}/worksheet" Target="worksheets/sheet{i}.xml"/>')
            z.writestr(f"xl/worksheets/sheet{i}.xml", xml)
        if shared_strings is not None:
            rels.append(f'<Relationship Id="rIdS" Type="{REL_NS}/sharedStrings" Target="sharedStrings.xml"/>')
            items = "".join(shared_strings)
            z.writestr("xl/sharedStrings.xml", f'<sst xmlns="{ns}">{items}</sst>')
        if styles is not None:
            rels.append(f'<Relationship Id="rIdT" Type="{REL_NS}/styles" Target="styles.xml"/>')
            z.writestr("xl/styles.xml", styles)
        z.writestr(
            "xl/workbook.xml",
            f'<?xml version="1.0"?><workbook xmlns="{ns}" xmlns:r="{REL_NS}">{workbook_pr}'
            f"<sheets>{''.join(sheet_els)}</sheets></workbook>",
        )
        z.writestr(
            "xl/_rels/workbook.xml.rels",
            '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/'
            f'2006/relationships">{"".join(rels)}</Relationships>',
        )
    return out.getvalue()


def sheet_xml(rows: str, extra: str = "", ns: str = MAIN_NS) -> str:
    return f'<?xml version="1.0"?><worksheet xmlns="{ns}"><sheetData>{rows}</sheetData>{extra}</worksheet>'


# ---------------------------------------------------------------------------------------------
# cell addresses
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("index", "expected"),
    [
        (0, "A"),
        (1, "B"),
        (25, "Z"),
        (26, "AA"),
        (27, "AB"),
        (51, "AZ"),
        (52, "BA"),
        (701, "ZZ"),
        (702, "AAA"),
        (16383, "XFD"),
    ],
)
def test_col_letter(index: int, expected: str) -> None:
    assert col_letter(index) == expected


def test_col_letter_rejects_negative() -> None:
    with pytest.raises(ValueError):
        col_letter(-1)


@pytest.mark.parametrize(
    ("sheet", "letter", "row", "expected"),
    [
        ("Funding", "E", 12, "Funding!E12"),
        ("Q1 Data", "B", 3, "'Q1 Data'!B3"),
        ("Bob's data", "A", 1, "'Bob''s data'!A1"),
        ("A1", "C", 2, "'A1'!C2"),  # would read as a cell address
        ("R2C3", "C", 2, "'R2C3'!C2"),  # would read as an R1C1 address
        ("2021", "A", 5, "'2021'!A5"),
        ("Sales-EU", "A", 5, "'Sales-EU'!A5"),
        ("sales_2021", "AA", 100, "sales_2021!AA100"),
        ("Zürich", "B", 2, "Zürich!B2"),
    ],
)
def test_cell_ref(sheet: str, letter: str, row: int, expected: str) -> None:
    assert cell_ref(sheet, letter, row) == expected


# ---------------------------------------------------------------------------------------------
# parse_number / parse_date / typed_value
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("12,000,000", 12e6),
        ("12000000", 12e6),
        ("-1,234.5", -1234.5),
        ("+42", 42.0),
        ("\u22125", -5.0),  # typographic minus
        ("(1,234)", -1234.0),
        ("( 1,234.50 )", -1234.5),
        (".5", 0.5),
        ("5.", 5.0),
        ("1.5e-05", 1.5e-05),
        ("1E+20", 1e20),
        ("15%", 15.0),
        ("-3.5 %", -3.5),
        ("(2%)", -2.0),
        ("€3.5", 3.5),
        ("$1,200", 1200.0),
        ("-$1,234.56", -1234.56),
        ("$-1,234.56", -1234.56),
        ("($1,234)", -1234.0),
        ("$ (1,234.00)", -1234.0),
        ("1,000 EUR", 1000.0),
        ("USD 1,000", 1000.0),
        ("5 BRL", 5.0),
        ("US$5", 5.0),
        ("£7", 7.0),
        ("3,5 €", None),  # decimal comma: not supported
        ("$1.2M", 1_200_000.0),
        ("1.1M", 1_100_000.0),  # no float noise from the multiplier
        ("450K", 450_000.0),
        ("3bn", 3e9),
        ("2.5 MM", 2_500_000.0),
        ("  7  ", 7.0),
        ("\u00a0 8", 8.0),
    ],
)
def test_parse_number(text: str, expected: float | None) -> None:
    assert parse_number(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "abc",
        "1,2",  # bad grouping
        "1,0000",
        "12,34,567",
        "1.2.3",
        "--5",
        "-(5)",
        "5-",
        "(5",
        "5)",
        "$",
        "%",
        "$5%",
        "5%%",
        "$€5",
        "nan",
        "inf",
        "Infinity",
        "1 234",
        "1'234",
        "5 apples",
        "1.2 million",
        "5m",  # lowercase m could be metres
        "0x1F",
        "12\n34",
        "2021-03-05",
    ],
)
def test_parse_number_rejects(text: str) -> None:
    assert parse_number(text) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("113.6 m", (113.6, "m")),
        ("14,505 ft\n4421 m", (14505.0, "ft")),  # the same measure in another unit on the line below
        ("7.91 m (w)", (7.91, "m")),  # a bracketed detail after the unit
        ("1,400 tons", (1400.0, "tons")),
        ("3 acts", (3.0, "acts")),
        ("2nd", (2.0, "nd")),
        ("10 km walk", (10.0, "km walk")),
        ("1 (0+0+0+1)", (1.0, "")),
        ("5 apples", (5.0, "apples")),
        ("1 420 436", (1420436.0, "")),  # digits grouped by spaces
        ("12 345 tons", (12345.0, "tons")),
        ("1:00.45", (60.45, "")),  # a race time, in seconds
        ("53:26", (3206.0, "")),
        ("2:08:11", (7691.0, "")),
    ],
)
def test_parse_measure(text: str, expected: tuple[float, str]) -> None:
    assert parse_measure(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "5–2",
        "6'3\"",
        "20th Century Fox",
        "Prologue and 3 acts",
        "b. 1962",
        "4x400 m relay",
        "abc",
        "2 3",
        "1:2",
        "",
    ],
)
def test_parse_measure_rejects_scores_and_names(text: str) -> None:
    """A measure is a number and a short unit (or a time): not a score, feet and inches or a name."""
    assert parse_measure(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "2021-03-05",
        "2021-3-5",
        "2021/03/05",
        "2021-03-05 14:30:00",
        "2021-03-05T14:30:00Z",
        "2021-03-05T14:30:00.123+02:00",
        "3/5/2021",  # US month first
        "03/05/2021 2:30 PM",
        "05.03.2021",  # dots: European day first
        "3/5/21",
        "5-Mar-2021",
        "05-Mar-21",
        "5 March 2021",
        "5th of March, 2021",
        "March 5, 2021",
        "Mar. 5th 2021",
        "Friday, March 5, 2021",
        "  2021-03-05  ",
    ],
)
def test_parse_date_wordings_of_one_day(text: str) -> None:
    assert parse_date(text) == datetime.date(2021, 3, 5)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("31/12/2021", datetime.date(2021, 12, 31)),  # day first only when unambiguous
        ("3/5/45", datetime.date(1945, 3, 5)),  # Excel's two-digit-year pivot
        ("sept 30, 2020", datetime.date(2020, 9, 30)),
        ("Mar 2021", datetime.date(2021, 3, 1)),  # a month alone: its first day
        ("March 2021", datetime.date(2021, 3, 1)),
        ("Mar-2021", datetime.date(2021, 3, 1)),
    ],
)
def test_parse_date(text: str, expected: datetime.date) -> None:
    assert parse_date(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "2019",  # a year is a number
        "20210305",
        "2021-02-30",  # no such day
        "13/13/2021",
        "2021-13-01",
        "March",
        "Q1 2021",
        "FY2021",
        "Mar-21",  # could be 21 March as well as March 2021
        "2021-03",
        "hello",
        "3/5",
        "12:30",
        "-2021-03-05",
    ],
)
def test_parse_date_rejects(text: str) -> None:
    assert parse_date(text) is None


def test_typed_value() -> None:
    assert typed_value("$1,200", "currency") == 1200.0
    assert typed_value("15%", "percent") == 15.0
    assert typed_value("(3)", "number") == -3.0
    assert typed_value("n/a", "number") is None
    assert typed_value("2021-03-05", "date") == datetime.date(2021, 3, 5)
    assert typed_value("soon", "date") is None
    assert typed_value(" padded ", "text") == " padded "
    assert typed_value(None, "number") is None
    assert typed_value("   ", "text") is None
    assert typed_value("", "text") is None


# ---------------------------------------------------------------------------------------------
# CSV: encodings
# ---------------------------------------------------------------------------------------------


def test_csv_utf8_with_bom() -> None:
    sheet = parse_csv("\ufeffCity,Amount\nZürich,3\n".encode("utf-8"), "cities")
    assert names(sheet) == ["City", "Amount"]
    assert sheet.rows == (("Zürich", "3"),)


def test_csv_utf8_without_bom() -> None:
    sheet = parse_csv("City,Note\nKöln,naïve – “quoted”\n".encode(), "cities")
    assert sheet.rows == (("Köln", "naïve – “quoted”"),)


@pytest.mark.parametrize(
    "text",
    [
        "City,Amount\nZürich,€3.5\n",  # short: charset-normalizer alone guesses cp775 here
        "Name;Stadt;Betrag\nMüller;Zürich;€ 1.234\nJosé;São Paulo;€ 12\nFrançois;Köln;€ 3\n",
        "id,desc\n1,café crème\n2,naïve résumé\n3,“quoted” – dash\n",
        "a,b\n" + "x,y\n" * 5000 + "Zürich,é\n",  # the only non-ASCII bytes are at the end
    ],
)
def test_csv_cp1252(text: str) -> None:
    sheet = parse_csv(text.encode("cp1252"), "legacy")
    expected = parse_csv(text.encode("utf-8"), "legacy")
    assert sheet == expected


def test_csv_cp1252_values_and_dtype() -> None:
    sheet = parse_csv("City,Amount\nZürich,€3.5\nGenève,€4\n".encode("cp1252"), "funding")
    assert column(sheet, "City") == ["Zürich", "Genève"]
    assert column(sheet, "Amount") == ["€3.5", "€4"]
    assert dtypes(sheet)["Amount"] == "currency"


def test_csv_latin1() -> None:
    text = "name,city\nSøren,København\nÅse,Tromsø\nFrançois,Besançon\n"
    sheet = parse_csv(text.encode("latin-1"), "nordic")
    assert column(sheet, "city") == ["København", "Tromsø", "Besançon"]


def test_csv_cyrillic_cp1251_keeps_its_code_page() -> None:
    text = "имя,город\nИван,Москва\nПётр,Санкт-Петербург\nАнна,Новосибирск\n"
    sheet = parse_csv(text.encode("cp1251"), "ru")
    assert sheet.rows[0] == ("Иван", "Москва")


def test_csv_utf16_with_bom() -> None:
    # Excel's "Unicode Text" export: UTF-16 with a BOM, tab-delimited.
    sheet = parse_csv("Name\tAmount\nZoë\t5\n".encode("utf-16"), "unicode")
    assert names(sheet) == ["Name", "Amount"]
    assert sheet.rows == (("Zoë", "5"),)


# ---------------------------------------------------------------------------------------------
# CSV: delimiters, quoting, escapes
# ---------------------------------------------------------------------------------------------


def test_csv_semicolon_with_decimal_commas() -> None:
    data = b"Name;Amount;Rate\nA;1,5;2,25\nB;2,0;3,5\nC;3,75;4\n"
    sheet = parse_csv(data, "eu")
    assert names(sheet) == ["Name", "Amount", "Rate"]
    assert sheet.rows[0] == ("A", "1,5", "2,25")


def test_csv_tab_with_commas_in_values() -> None:
    data = b"name\tdescription\tn\nAcme\tBig, red, shiny\t1\nBeta\tSmall, blue\t2\n"
    sheet = parse_csv(data, "tabs")
    assert names(sheet) == ["name", "description", "n"]
    assert column(sheet, "description") == ["Big, red, shiny", "Small, blue"]


def test_csv_pipe() -> None:
    sheet = parse_csv(b"a|b|c\n1|2|3\n4|5|6\n", "pipes")
    assert names(sheet) == ["a", "b", "c"]
    assert sheet.rows == (("1", "2", "3"), ("4", "5", "6"))


def test_csv_single_column() -> None:
    sheet = parse_csv(b"Name\nAlice\nBob\n", "one")
    assert names(sheet) == ["Name"]
    assert sheet.rows == (("Alice",), ("Bob",))


def test_csv_single_column_with_stray_delimiters() -> None:
    sheet = parse_csv(b"Address\nMain St; Apt 4\nElm St\n1 High St; rear\n", "addresses")
    assert names(sheet) == ["Address"]
    assert column(sheet, "Address") == ["Main St; Apt 4", "Elm St", "1 High St; rear"]


def test_a_header_split_by_tabs_is_not_a_title_over_rows_holding_semicolons() -> None:
    """Found by the round-trip property: read with ";" the header "c0<tab>c1" was a two-word title line and the
    rows split in two as well as with tabs; the parse that leaves no line out is the file's."""
    sheet = parse_csv(b"c0\tc1\n\t0;0\n\t0;0\n\t0;0\n", "tabs")
    assert names(sheet) == ["c0", "c1"] and column(sheet, "c1") == ["0;0", "0;0", "0;0"]


def test_csv_table_under_a_title_line_still_splits() -> None:
    data = b"Quarterly report\n" + b"".join(b"%d,x,y\n" % i for i in range(12))
    sheet = parse_csv(data, "titled")
    assert len(sheet.columns) == 3
    # A one-cell line above wider records names the table: it is the title, not the header.
    assert sheet.title == "Quarterly report" and sheet.header_row == 2


def test_title_and_note_lines_above_the_header_are_not_the_header() -> None:
    data = (
        b'"Fatal accidents by year, 1999-2012"\n\nSource: a safety board\n'
        b"Year,Fatal accidents,Passengers (m)\n1999,12,100\n2000,9,111\n"
    )
    sheet = parse_csv(data, "accidents")
    assert names(sheet) == ["Year", "Fatal accidents", "Passengers (m)"]
    assert sheet.header_row == 4 and sheet.row_numbers == (5, 6)
    assert sheet.title == "Fatal accidents by year, 1999-2012 — Source: a safety board"
    assert column(sheet, "Fatal accidents") == ["12", "9"]


def test_a_one_column_table_keeps_its_first_line_as_header() -> None:
    sheet = parse_csv(b"Address\nMain St\nElm St\n", "addresses")
    assert names(sheet) == ["Address"] and sheet.title is None and sheet.header_row == 1


def test_xlsx_merged_title_cells_above_the_header() -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Accidents"
    ws.append(["Fatal accidents by year"])
    ws.merge_cells("A1:C1")
    ws.append([])
    ws.append(["Year", "Fatal accidents", "Passengers (m)"])
    ws.append([1999, 12, 100])
    [sheet] = parse_xlsx(workbook_bytes(wb))
    assert names(sheet) == ["Year", "Fatal accidents", "Passengers (m)"]
    assert sheet.title == "Fatal accidents by year" and sheet.header_row == 3 and sheet.row_numbers == (4,)


def test_csv_ragged_header_still_finds_comma() -> None:
    sheet = parse_csv(b"a,b\n1,2,3\n4,5,6\n7,8,9\n", "ragged")
    assert names(sheet) == ["a", "b", "Column C"]


def test_csv_quoted_delimiters_and_newlines_and_row_numbers() -> None:
    data = (
        b"Project,Notes,Amount\r\n"
        b'Alpha,"line one\r\nline two, with comma",100\r\n'
        b'Beta,"say ""hi""",200\r\n'
        b'Gamma,"three\nphysical\nlines",300\r\n'
        b"Delta,plain,400\r\n"
    )
    sheet = parse_csv(data, "funding")
    assert column(sheet, "Notes") == [
        "line one\r\nline two, with comma",
        'say "hi"',
        "three\nphysical\nlines",
        "plain",
    ]
    # Rows count CSV records (as Excel numbers them), not physical lines.
    assert sheet.header_row == 1
    assert sheet.row_numbers == (2, 3, 4, 5)
    assert cell_ref(sheet.name, sheet.columns[2].letter, sheet.row_numbers[3]) == "funding!C5"


def test_csv_backslash_escaped_quotes() -> None:
    # WikiTableQuestions-style CSV: \" inside quoted fields, never "".
    data = (
        b'"Year","Title","Notes"\n'
        b'"2001","The \\"Best\\" Film","won, twice"\n'
        b'"2002","Plain","\\"quoted, with comma\\""\n'
    )
    sheet = parse_csv(data, "wtq")
    assert names(sheet) == ["Year", "Title", "Notes"]
    assert sheet.rows == (
        ("2001", 'The "Best" Film', "won, twice"),
        ("2002", "Plain", '"quoted, with comma"'),
    )


def test_csv_backslashes_in_ordinary_file_are_kept() -> None:
    data = b'path,size\n"C:\\temp\\",3\nC:\\data\\x.csv,4\n"a ""q"" \\b",5\n'
    sheet = parse_csv(data, "paths")
    assert column(sheet, "path") == ["C:\\temp\\", "C:\\data\\x.csv", 'a "q" \\b']


def test_csv_values_kept_exactly() -> None:
    sheet = parse_csv(b"a,b,c\n  padded ,,x\n", "exact")
    assert sheet.rows == (("  padded ", None, "x"),)


def test_csv_old_mac_line_endings() -> None:
    sheet = parse_csv(b"a;b\r1;2\r3;4\r", "mac")
    assert names(sheet) == ["a", "b"]
    assert sheet.rows == (("1", "2"), ("3", "4"))
    assert sheet.row_numbers == (2, 3)


# ---------------------------------------------------------------------------------------------
# CSV: shape — ragged rows, headers, blank rows
# ---------------------------------------------------------------------------------------------


def test_csv_ragged_rows() -> None:
    sheet = parse_csv(b"a,b,c\n1,2\n3,4,5,6\n7,8,9\n", "ragged")
    assert names(sheet) == ["a", "b", "c", "Column D"]
    assert letters(sheet) == ["A", "B", "C", "D"]
    assert sheet.rows == (
        ("1", "2", None, None),
        ("3", "4", "5", "6"),
        ("7", "8", "9", None),
    )


def test_csv_blank_and_duplicate_headers() -> None:
    rows = [
        ["", "", "Name", "name", "Amount", "Amount", "Column B", " Total \n  spend"],
        ["1", "2", "a", "b", "3", "4", "x", "9"],
    ]
    sheet = parse_csv(_csv_bytes(rows), "dups")
    assert names(sheet) == [
        "Column A",
        "Column B",  # a blank header keeps its letter name ...
        "Name",
        "name (2)",  # repeats are numbered, ignoring case
        "Amount",
        "Amount (2)",
        "Column B (2)",  # ... even against a real header spelling the same
        "Total spend",
    ]


def test_csv_header_whitespace_collapsed() -> None:
    sheet = parse_csv(b'"Total\n  Amount ( USD )",x\n1,2\n', "ws")
    assert names(sheet) == ["Total Amount ( USD )", "x"]


def test_csv_empty_columns_dropped_letters_kept() -> None:
    # Leading, spacer and trailing columns with no header and no data go; letters stay.
    data = b",,Name,,Amount,,\n,,a,,1,,\n,,b,,2,,\n"
    sheet = parse_csv(data, "spaced")
    assert names(sheet) == ["Name", "Amount"]
    assert letters(sheet) == ["C", "E"]


def test_csv_blank_rows_dropped_numbering_faithful() -> None:
    data = b"\n\na,b\n1,2\n\n,\n3,4\n  ,  \n\n\n"
    sheet = parse_csv(data, "blanks")
    assert sheet.header_row == 3
    assert sheet.rows == (("1", "2"), ("3", "4"))
    assert sheet.row_numbers == (4, 7)


def test_csv_header_only() -> None:
    sheet = parse_csv(b"a,b,c\n", "header")
    assert names(sheet) == ["a", "b", "c"]
    assert sheet.rows == ()
    assert sheet.row_numbers == ()
    assert all(c.dtype == "text" for c in sheet.columns)


# ---------------------------------------------------------------------------------------------
# CSV: dtype inference
# ---------------------------------------------------------------------------------------------


def test_csv_dtype_inference() -> None:
    rows = [
        ["Amount", "Price", "Share", "Start", "Year", "Name", "Zip", "Empty", "Growth"],
        ["12,000,000", "$1,200.50", "15%", "2021-03-05", "2019", "Acme", "02134", "", "1.5"],
        ["(1,234)", "$-3", "-2.5%", "2021-03-06", "2020", "Beta", "10001", "", "(2%)"],
        ["5.5", "€4", "(3%)", "2021-12-31", "2021", "Gamma", "94110", "", "$3"],
        ["-7", "USD 10", "0%", "2022-01-01", "2022", "Delta", "60601", "", "4"],
    ]
    sheet = parse_csv(_csv_bytes(rows), "types")
    assert dtypes(sheet) == {
        "Amount": "number",
        "Price": "currency",
        "Share": "percent",
        "Start": "date",
        "Year": "number",  # plain 4-digit years are numbers, not dates
        "Name": "text",
        "Zip": "text",  # zero-padded codes stay text
        "Empty": "text",
        "Growth": "number",  # a mix of number forms is still a number
    }


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (["March 5, 2021", "Apr 1, 2021", "5-Mar-2021", "3/5/2021"], "date"),
        (["Mar 2021", "Apr 2021", "May 2021"], "date"),
        (["1"] * 9 + ["n/a"], "number"),  # 90% is enough
        (["1"] * 8 + ["n/a", "?"], "text"),
        (["$5"] * 9 + ["5"], "currency"),
        (["$5"] * 5 + ["5"] * 5, "number"),
        (["5%"] * 9 + ["0.05"], "percent"),
        (["2021-03-05"] * 9 + ["TBD"], "date"),
        (["2021-03-05"] * 8 + ["TBD", "x"], "text"),
        (["0", "0.5", "10"], "number"),  # a lone 0 and 0.x are not zero-padded codes
        (["02134", "10001", "94110"], "text"),  # ZIP codes
        ([str(i) for i in range(1, 200)] + ["05"], "number"),  # one stray zero-padded value
        (["1", "   ", "2"], "number"),  # whitespace-only values do not count
        (["yes", "no"], "text"),
    ],
)
def test_csv_dtype_thresholds(values: list[str], expected: str) -> None:
    sheet = parse_csv(_csv_bytes([["id", "v"]] + [[str(i), v] for i, v in enumerate(values)]), "t")
    assert dtypes(sheet)["v"] == expected


def _csv_bytes(rows: list[list[str]], delimiter: str = ",") -> bytes:
    buf = io.StringIO()
    csv.writer(buf, delimiter=delimiter).writerows(rows)
    return buf.getvalue().encode("utf-8")


# ---------------------------------------------------------------------------------------------
# CSV: errors
# ---------------------------------------------------------------------------------------------


def test_csv_empty_file() -> None:
    with pytest.raises(EmptyFile):
        parse_csv(b"", "empty.csv")


def test_csv_only_blank_lines() -> None:
    with pytest.raises(MalformedSheet, match="no columns"):
        parse_csv(b"\n\r\n  \n,,,\n", "blank.csv")


def test_csv_binary_garbage_with_nul() -> None:
    rng = random.Random(7)
    garbage = bytes(rng.randrange(256) for _ in range(4096))
    assert b"\x00" in garbage
    with pytest.raises(MalformedSheet, match=r"funding\.csv is not a readable CSV.*Save it as UTF-8 CSV"):
        parse_csv(garbage, "funding.csv")


def test_csv_binary_garbage_without_nul() -> None:
    rng = random.Random(11)
    garbage = bytes(rng.randrange(1, 256) for _ in range(4096))
    with pytest.raises(MalformedSheet, match="control characters"):
        parse_csv(garbage, "noise.csv")


def test_csv_given_an_xlsx() -> None:
    wb = openpyxl.Workbook()
    wb.active.append(["a"])
    with pytest.raises(MalformedSheet, match=r"\.xlsx"):
        parse_csv(workbook_bytes(wb), "book.csv")


def test_csv_unclosed_quote_runs_away() -> None:
    data = b'a,b\n1,"never closed\n' + b"x" * 200_000 + b"\n"
    with pytest.raises(MalformedSheet, match=r"row 2.*quote"):
        parse_csv(data, "broken.csv")


# ---------------------------------------------------------------------------------------------
# CSV: round-trip property
# ---------------------------------------------------------------------------------------------

# Text without control characters other than tab/CR/LF (real exports have none; a file full of
# them is rejected as binary) and without surrogates (not encodable).
cell_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc"), whitelist_characters="\t\r\n"),
    max_size=12,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n_cols=st.integers(min_value=1, max_value=6),
    data=st.data(),
    delimiter=st.sampled_from([",", ";", "\t"]),
)
def test_csv_round_trip(n_cols: int, data: st.DataObject, delimiter: str) -> None:
    body = data.draw(st.lists(st.lists(cell_text, min_size=n_cols, max_size=n_cols), max_size=8))
    header = [f"c{i}" for i in range(n_cols)]
    sheet = parse_csv(_csv_bytes([header, *body], delimiter), "prop")

    # Records that are blank (every cell empty or whitespace) are dropped; numbering is kept.
    expected_rows = [
        (tuple(v or None for v in row), number) for number, row in enumerate(body, start=2) if "".join(row).strip()
    ]
    assert names(sheet) == header
    assert list(sheet.rows) == [r for r, _ in expected_rows]
    assert list(sheet.row_numbers) == [n for _, n in expected_rows]


# ---------------------------------------------------------------------------------------------
# CSV: a large mixed table (speed is measured by bench/ingest_speed.py, not here)
# ---------------------------------------------------------------------------------------------


def test_csv_large_mixed_table_types() -> None:
    rng = random.Random(3)
    rows = [[f"Col {j}" for j in range(20)]]
    for i in range(20_000):
        rows.append(
            [
                str(i),
                f"Company {i % 97}",
                f"${rng.uniform(-1e6, 1e6):,.2f}",
                str(rng.randint(0, 10**7)),
                f"{rng.random():.4f}",
                f"2021-{1 + i % 12:02d}-{1 + i % 28:02d}",
                rng.choice("NSEW"),
                f"note {rng.random()}",
                str(rng.randint(1, 100)),
                f"{rng.random():.1%}",
            ]
            * 2
        )
    data = _csv_bytes(rows)
    sheet = parse_csv(data, "big")
    assert len(sheet.rows) == 20_000
    assert [c.dtype for c in sheet.columns[:10]] == [
        "number",
        "text",
        "currency",
        "number",
        "number",
        "date",
        "text",
        "text",
        "number",
        "percent",
    ]


# ---------------------------------------------------------------------------------------------
# XLSX via openpyxl-written workbooks
# ---------------------------------------------------------------------------------------------


def test_xlsx_multiple_sheets_and_empty_sheet_skipped() -> None:
    data = make_xlsx(
        {
            "Funding": [["Project", "Amount"], ["Alpha", 12000000.0], ["Beta", 0.15]],
            "Empty": [],
            "Q1 Data": [["Region", "Sales"], ["North", 5]],
        }
    )
    sheets = parse_xlsx(data)
    assert [s.name for s in sheets] == ["Funding", "Q1 Data"]
    funding, q1_data = sheets
    assert funding.rows == (("Alpha", "12000000"), ("Beta", "0.15"))
    assert funding.row_numbers == (2, 3)
    assert dtypes(funding) == {"Project": "text", "Amount": "number"}
    assert cell_ref(q1_data.name, q1_data.columns[1].letter, q1_data.row_numbers[0]) == "'Q1 Data'!B2"


def test_xlsx_values_rendering() -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Values"
    ws.append(["Date", "When", "Time", "Flag", "Share", "Price", "Float", "Big", "Text"])
    ws.append(
        [
            datetime.date(2021, 3, 5),
            datetime.datetime(2021, 3, 5, 14, 30),
            datetime.time(9, 15),
            True,
            0.15,
            1234.5,
            0.1 + 0.2,
            12000000.0,
            "  kept as is ",
        ]
    )
    ws.append([
        datetime.date(2022, 1, 1), datetime.datetime(2022, 1, 1), datetime.time(0, 0, 1),
        False, 0.1537, 99, 1 / 3, 2.5e-7, "x",
    ])  # fmt: skip
    for row in ws.iter_rows(min_row=2):
        row[4].number_format = "0%"
        row[5].number_format = '"$"#,##0.00'
    sheet = parse_xlsx(workbook_bytes(wb))[0]
    assert sheet.rows[0] == (
        "2021-03-05",
        "2021-03-05 14:30:00",
        "09:15:00",
        "TRUE",
        "15%",
        "1234.5",
        "0.3",  # Excel's 15 digits, not 0.30000000000000004
        "12000000",
        "  kept as is ",
    )
    assert sheet.rows[1] == (
        "2022-01-01",
        "2022-01-01",
        "00:00:01",
        "FALSE",
        "15.37%",
        "99",
        "0.333333333333333",
        "2.5e-07",
        "x",
    )
    assert dtypes(sheet) == {
        "Date": "date",
        "When": "date",
        "Time": "text",
        "Flag": "text",
        "Share": "percent",
        "Price": "currency",
        "Float": "number",
        "Big": "number",
        "Text": "text",
    }
    assert typed_value(sheet.rows[1][4], "percent") == 15.37


# A total written as a formula. openpyxl never calculates, so its files hold the formula with no cached value.
TOTAL_BY_FORMULA: list[list[object]] = [["Item", "Amount"], ["a", 10], ["b", 20], ["Total", "=SUM(B2:B3)"]]


def test_xlsx_formula_without_cached_value_is_empty_and_listed() -> None:
    sheet = parse_xlsx(make_xlsx({"Calc": TOTAL_BY_FORMULA}))[0]
    # No value was ever saved: the cell is empty (never "=SUM(B2:B3)" read as text, nor 0), and the
    # sheet lists the formula so the page can say what to do.
    assert sheet.rows[-1] == ("Total", None)
    assert sheet.row_numbers[-1] == 4
    assert sheet.uncalculated == (("B4", "=SUM(B2:B3)"),)


def test_xlsx_formula_with_cached_value() -> None:
    data = make_xlsx({"Sheet": TOTAL_BY_FORMULA})
    assert "<v />" in zipfile.ZipFile(io.BytesIO(data)).read("xl/worksheets/sheet1.xml").decode()
    # Simulate Excel having saved the file: store the computed result next to the formula.
    data = rewrite_member(data, "xl/worksheets/sheet1.xml", lambda x: x.replace("<v />", "<v>30</v>"))
    sheet = parse_xlsx(data)[0]
    assert sheet.rows[-1] == ("Total", "30")
    assert dtypes(sheet)["Amount"] == "number"


def test_xlsx_merged_cells_fill_every_cell() -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Sales"
    ws.append(["Region", "Quarter", "Sales"])
    ws.append(["North", "Q1", 1])
    ws.append([None, "Q2", 2])
    ws.append([None, "Q3", 3])
    ws.append(["South", "Q1", 4])
    ws.merge_cells("A2:A4")
    ws["D1"], ws["E1"] = "Notes", "More"
    ws["D2"] = "spans two columns"
    ws.merge_cells("D2:E2")
    ws["A7"] = "merged past the data"
    ws.merge_cells("A7:H9")
    sheet = parse_xlsx(workbook_bytes(wb))[0]
    assert column(sheet, "Region") == ["North", "North", "North", "South", "merged past the data"]
    # Merged ranges are clipped to the columns and rows that hold data.
    assert names(sheet) == ["Region", "Quarter", "Sales", "Notes", "More"]
    assert sheet.row_numbers == (2, 3, 4, 5, 7)
    assert sheet.rows[0][3:] == ("spans two columns", "spans two columns")


def test_xlsx_header_starting_at_c3() -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Funding"
    ws["C3"], ws["D3"], ws["E3"] = "Project", "Year", "Amount"
    ws["C4"], ws["D4"], ws["E4"] = "Alpha", 2021, 100
    ws["C6"], ws["D6"], ws["E6"] = "Beta", 2022, 250.5  # row 5 left empty
    ws["E12"] = 7
    sheet = parse_xlsx(workbook_bytes(wb))[0]
    assert sheet.header_row == 3
    assert letters(sheet) == ["C", "D", "E"]
    assert [c.position for c in sheet.columns] == [0, 1, 2]
    assert sheet.row_numbers == (4, 6, 12)
    assert sheet.rows == (("Alpha", "2021", "100"), ("Beta", "2022", "250.5"), (None, None, "7"))
    amount = sheet.columns[2]
    assert cell_ref(sheet.name, amount.letter, sheet.row_numbers[2]) == "Funding!E12"
    assert dtypes(sheet) == {"Project": "text", "Year": "number", "Amount": "number"}


def test_xlsx_matches_openpyxl_values() -> None:
    """Differential check of the streaming reader against openpyxl's full reader."""
    rng = random.Random(5)
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Mixed"
    ws.append([f"h{j}" for j in range(8)])
    for i in range(300):
        ws.append(
            [
                i,
                rng.uniform(-1e9, 1e9),
                rng.choice(["alpha", "béta", "γ", "", None, 'x<y & z>"q"']),
                datetime.datetime(2000, 1, 1) + datetime.timedelta(minutes=rng.randrange(10**7)),
                rng.choice([True, False]),
                rng.randint(-(10**12), 10**12),
                rng.random() / 1000,
                f"row {i}",
            ]
        )
    data = workbook_bytes(wb)
    sheet = parse_xlsx(data)[0]

    from core.ingest.sheets.xlsx import _number_text, _value_text

    reference = openpyxl.load_workbook(io.BytesIO(data), data_only=True)["Mixed"]
    expected = []
    for row in reference.iter_rows(min_row=2, values_only=True):
        texts = []
        for v in row:
            if v is None or v == "":
                texts.append(None)
            elif isinstance(v, (int, float)) and not isinstance(v, bool):
                texts.append(_number_text(v))
            else:
                texts.append(_value_text(v))
        expected.append(tuple(texts))
    assert list(sheet.rows) == expected


# ---------------------------------------------------------------------------------------------
# XLSX via hand-written XML (exact control over what Excel and other generators write)
# ---------------------------------------------------------------------------------------------

STYLES = (
    f'<styleSheet xmlns="{MAIN_NS}"><numFmts count="2">'
    '<numFmt numFmtId="164" formatCode="[$€-407]\\ #,##0.00"/>'
    '<numFmt numFmtId="165" formatCode="[$-409]mmmm\\ d\\,\\ yyyy;@"/>'
    "</numFmts><cellXfs>"
    '<xf numFmtId="0"/>'  # 0 General
    '<xf numFmtId="164"/>'  # 1 euro currency
    '<xf numFmtId="165"/>'  # 2 date with a locale tag
    '<xf numFmtId="10"/>'  # 3 built-in 0.00%
    '<xf numFmtId="14"/>'  # 4 built-in date
    '<xf numFmtId="46"/>'  # 5 built-in [h]:mm:ss duration
    "</cellXfs></styleSheet>"
)


def test_xlsx_excel_style_shared_strings_styles_and_types() -> None:
    strings = [
        "<si><t>Name</t></si>",
        "<si><t>Amount</t></si>",
        '<si><r><t>Rich </t></r><r><rPr><b/></rPr><t>text</t></r><rPh sb="0" eb="1"><t>PHONETIC</t></rPh></si>',
        '<si><t xml:space="preserve">line_x000D_\nbreak &amp; _x005F_x000D_</t></si>',
        "<si><t>When</t></si>",
        "<si><t>Share</t></si>",
        "<si><t>Flag</t></si>",
        "<si><t>Err</t></si>",
        "<si><t>Took</t></si>",
    ]
    rows = (
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>4</v></c>'
        '<c r="D1" t="s"><v>5</v></c><c r="E1" t="s"><v>6</v></c><c r="F1" t="s"><v>7</v></c>'
        '<c r="G1" t="s"><v>8</v></c></row>'
        '<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2" s="1"><v>1234.5</v></c>'
        '<c r="C2" s="2"><v>44260</v></c><c r="D2" s="3"><v>0.14999999999999999</v></c>'
        '<c r="E2" t="b"><v>1</v></c><c r="F2" t="e"><v>#DIV/0!</v></c>'
        '<c r="G2" s="5"><v>1.1041666666666667</v></c></row>'
        '<row r="3"><c r="A3" t="s"><v>3</v></c><c r="B3" s="1"><v>-7</v></c>'
        '<c r="C3" s="4"><v>44261.5</v></c><c r="D3" s="3"><v>1</v></c>'
        '<c r="E3" t="b"><v>0</v></c><c r="F3" t="str"><f>A1&amp;"x"</f><v>Namex</v></c>'
        '<c r="G3" s="5"><v>0.5</v></c></row>'
    )
    data = raw_xlsx([("Data", sheet_xml(rows))], shared_strings=strings, styles=STYLES)
    sheet = parse_xlsx(data)[0]
    assert names(sheet) == ["Name", "Amount", "When", "Share", "Flag", "Err", "Took"]
    assert sheet.rows == (
        ("Rich text", "1234.5", "2021-03-05", "15%", "TRUE", "#DIV/0!", "26:30:00"),
        ("line\r\nbreak & _x000D_", "-7", "2021-03-06 12:00:00", "100%", "FALSE", "Namex", "12:00:00"),
    )
    assert dtypes(sheet)["Amount"] == "currency"
    assert dtypes(sheet)["When"] == "date"
    assert dtypes(sheet)["Share"] == "percent"


def test_xlsx_inline_strings_missing_refs_and_bad_dimension() -> None:
    # Some generators omit r= attributes and declare a wrong <dimension>; neither may lose data.
    rows = (
        '<row><c t="inlineStr"><is><t>a</t></is></c><c t="inlineStr"><is><t>b</t></is></c></row>'
        "<row><c><v>1</v></c><c><v>2</v></c></row>"
        '<row r="5"><c r="B5"><v>3</v></c></row>'
    )
    xml = (
        f'<?xml version="1.0"?><worksheet xmlns="{MAIN_NS}"><dimension ref="A1"/>'
        f"<sheetData>{rows}</sheetData></worksheet>"
    )
    sheet = parse_xlsx(raw_xlsx([("S", xml)]))[0]
    assert names(sheet) == ["a", "b"]
    assert sheet.rows == (("1", "2"), (None, "3"))
    assert sheet.row_numbers == (2, 5)


STRICT_NS = "http://purl.oclc.org/ooxml/spreadsheetml/main"
HEADER_AND_4 = '<row r="1"><c r="A1" t="inlineStr"><is><t>h</t></is></c></row><row r="2"><c r="A2"><v>4</v></c></row>'
PREFIXED_SHEET = (
    f'<?xml version="1.0"?><x:worksheet xmlns:x="{MAIN_NS}"><x:sheetData>'
    '<x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>h</x:t></x:is></x:c></x:row>'
    '<x:row r="2"><x:c r="A2"><x:v>4</x:v></x:c></x:row></x:sheetData></x:worksheet>'
)
DATE_STYLES = f'<styleSheet xmlns="{MAIN_NS}"><cellXfs><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs></styleSheet>'
DATE_IN_A2 = (
    '<row r="1"><c r="A1" t="inlineStr"><is><t>d</t></is></c></row><row r="2"><c r="A2" s="1"><v>1</v></c></row>'
)


# Workbooks spelled as some writers spell them, each a header and one value under it: the value reads the same.
@pytest.mark.parametrize(
    ("data", "value"),
    [
        pytest.param(raw_xlsx([("P", PREFIXED_SHEET)]), "4", id="prefixed namespace"),
        pytest.param(raw_xlsx([("S", sheet_xml(HEADER_AND_4, ns=STRICT_NS))], ns=STRICT_NS), "4", id="strict OOXML"),
        pytest.param(
            raw_xlsx([("D", sheet_xml(DATE_IN_A2))], styles=DATE_STYLES, workbook_pr='<workbookPr date1904="1"/>'),
            "1904-01-02",
            id="1904 date system",
        ),
    ],
)
def test_xlsx_workbook_spellings(data: bytes, value: str) -> None:
    assert parse_xlsx(data)[0].rows == ((value,),)


def test_xlsx_shared_formula_without_cache_is_translated() -> None:
    rows = (
        '<row r="1"><c r="A1" t="inlineStr"><is><t>x</t></is></c>'
        '<c r="B1" t="inlineStr"><is><t>double</t></is></c></row>'
        '<row r="2"><c r="A2"><v>1</v></c><c r="B2"><f t="shared" ref="B2:B4" si="0">A2*2</f></c></row>'
        '<row r="3"><c r="A3"><v>2</v></c><c r="B3"><f t="shared" si="0"/></c></row>'
        '<row r="4"><c r="A4"><v>3</v></c><c r="B4"><f t="shared" si="0"/><v>6</v></c></row>'
    )
    sheet = parse_xlsx(raw_xlsx([("F", sheet_xml(rows))]))[0]
    assert column(sheet, "double") == [None, None, "6"]
    assert sheet.uncalculated == (("B2", "=A2*2"), ("B3", "=A3*2"))


def test_xlsx_cached_empty_string_stays_empty() -> None:
    rows = (
        '<row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c><c r="B1" t="inlineStr"><is><t>b</t></is></c>'
        '<c r="C1" t="inlineStr"><is><t>c</t></is></c></row>'
        '<row r="2"><c r="A2"><v>1</v></c><c r="B2" t="str"><f>IF(A2&gt;5,"big","")</f><v></v></c>'
        '<c r="C2" t="str"><f>IF(A2&gt;5,"big","small")</f></c></row>'
    )
    sheet = parse_xlsx(raw_xlsx([("E", sheet_xml(rows))]))[0]
    # B2 was calculated to "" (kept empty); C2 was never calculated (empty, and listed).
    assert sheet.rows == (("1", None, None),)
    assert sheet.uncalculated == (("C2", '=IF(A2>5,"big","small")'),)


def test_xlsx_merged_header_and_whole_row_merge() -> None:
    rows = (
        '<row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c>'
        '<c r="B1" t="inlineStr"><is><t>Q1</t></is></c></row>'
        '<row r="2"><c r="A2" t="inlineStr"><is><t>a</t></is></c><c r="B2"><v>1</v></c><c r="C2"><v>2</v></c></row>'
        '<row r="3"><c r="A3" t="inlineStr"><is><t>note across the row</t></is></c></row>'
    )
    merges = '<mergeCells count="2"><mergeCell ref="B1:C1"/><mergeCell ref="A3:XFD3"/></mergeCells>'
    sheet = parse_xlsx(raw_xlsx([("M", sheet_xml(rows, merges))]))[0]
    assert names(sheet) == ["Name", "Q1", "Q1 (2)"]
    assert sheet.rows[1] == ("note across the row",) * 3


def test_xlsx_without_data_gives_no_sheets() -> None:
    data = raw_xlsx([("Blank", sheet_xml("")), ("Styled only", sheet_xml('<row r="3"><c r="B3" s="0"/></row>'))])
    assert parse_xlsx(data) == []


def test_xlsx_chartsheet_skipped() -> None:
    data = raw_xlsx([("Data", sheet_xml('<row r="1"><c r="A1"><v>1</v></c></row>'))])

    def add_chartsheet_to_workbook(xml: str) -> str:
        return xml.replace("</sheets>", '<sheet name="Chart1" sheetId="9" r:id="rIdC"/></sheets>')

    def add_chartsheet_rel(xml: str) -> str:
        rel = f'<Relationship Id="rIdC" Type="{REL_NS}/chartsheet" Target="chartsheets/sheet1.xml"/>'
        return xml.replace("</Relationships>", rel + "</Relationships>")

    data = rewrite_member(data, "xl/workbook.xml", add_chartsheet_to_workbook)
    data = rewrite_member(data, "xl/_rels/workbook.xml.rels", add_chartsheet_rel)
    assert [s.name for s in parse_xlsx(data)] == ["Data"]


# ---------------------------------------------------------------------------------------------
# XLSX errors and guards
# ---------------------------------------------------------------------------------------------


def test_xlsx_zero_bytes() -> None:
    with pytest.raises(EmptyFile):
        parse_xlsx(b"")


def test_xlsx_garbage_bytes() -> None:
    with pytest.raises(MalformedSheet, match=r"funding\.xlsx is not a valid \.xlsx workbook.*save it as \.xlsx"):
        parse_xlsx(b"this is not a zip at all" * 10, name="funding.xlsx")


def test_xlsx_old_xls_or_encrypted() -> None:
    with pytest.raises(MalformedSheet, match=r"\.xls"):
        parse_xlsx(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 512)


def test_xlsx_zip_that_is_not_a_workbook() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("hello.txt", "hi")
    with pytest.raises(MalformedSheet, match=r"not a valid .xlsx"):
        parse_xlsx(buf.getvalue())


def test_xlsx_damaged_sheet_xml() -> None:
    data = raw_xlsx([("Bad", '<worksheet xmlns="' + MAIN_NS + '"><sheetData><row><c><v>1</v></row>')])
    with pytest.raises(MalformedSheet, match="sheet 'Bad' could not be read"):
        parse_xlsx(data)


def test_xlsx_doctype_refused() -> None:
    xml = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]>' + sheet_xml("")[21:]
    with pytest.raises(MalformedSheet):
        parse_xlsx(raw_xlsx([("X", xml)]))


def test_xlsx_uncompressed_limit() -> None:
    wb = openpyxl.Workbook()
    wb.active.append(["a", "b"])
    data = workbook_bytes(wb)
    with pytest.raises(MalformedSheet, match=r"over the .* limit"):
        parse_xlsx(data, max_uncompressed_bytes=1000)


def test_xlsx_decompression_bomb_declared_size() -> None:
    """A zip whose central directory declares a 4 GB member is refused before inflating it."""
    wb = openpyxl.Workbook()
    wb.active.append(["a", "b"])
    data = bytearray(workbook_bytes(wb))
    # Patch the uncompressed-size field of every central directory entry to 0xFFFFFFFE.
    pos = data.find(b"PK\x01\x02")
    assert pos >= 0
    while pos >= 0:
        data[pos + 24 : pos + 28] = struct.pack("<I", 0xFFFFFFFE)
        pos = data.find(b"PK\x01\x02", pos + 4)
    with pytest.raises(MalformedSheet, match=r"would unpack to .* MB"):
        parse_xlsx(bytes(data), name="bomb.xlsx")


def test_a_csv_mixing_encodings_is_read_with_a_warning_and_a_clean_one_without() -> None:
    from core.ingest.sheets.csv import parse_csv

    mixed = b"Company,City\n" + "Société Générale,Zürich\n".encode() + "Crédit Agricole,Genève\n".encode("cp1252")
    sheet = parse_csv(mixed, "banks")
    assert len(sheet.rows) == 2
    assert sheet.warning and "mixes text encodings" in sheet.warning and "lines 2" in sheet.warning
    assert "Re-save the file as UTF-8" in sheet.warning
    for clean in ("Company,City\nSociété Générale,Zürich\n".encode(), "Company,City\nCrédit,Genève\n".encode("cp1252")):
        assert parse_csv(clean, "banks").warning is None


# ---------------------------------------------------------------------------------------------
# caps counted on what is stored: merged ranges filled, columns (issue 25)
# ---------------------------------------------------------------------------------------------


def _merge_bomb(rows: int) -> bytes:
    """5 KB of XML: a value in A1, one in XFD1, and A1:XFD`rows` merged (16,384 x `rows` cells once filled)."""
    data = (
        '<row r="1"><c r="A1" t="inlineStr"><is><t>x</t></is></c><c r="XFD1" t="inlineStr"><is><t>y</t></is></c></row>'
        f'<row r="{rows}"><c r="A{rows}" t="inlineStr"><is><t>z</t></is></c></row>'
    )
    merges = f'<mergeCells count="1"><mergeCell ref="A1:XFD{rows}"/></mergeCells>'
    return raw_xlsx([("M", sheet_xml(data, merges))])


def test_a_merged_range_is_counted_filled_before_it_is_filled() -> None:
    """`<mergeCell ref="A1:XFD500"/>` in a 5 KB file is 8.2 M stored cells: refused under a 3 M cap, by its cause."""
    import time

    from core.errors import TooMuchContent

    data = _merge_bomb(500)
    assert len(data) < 6_000
    started = time.perf_counter()
    with pytest.raises(TooMuchContent, match=r"more than 3,000,000 cells once its merged ranges are filled"):
        parse_xlsx(data, name="bomb.xlsx", max_cells=3_000_000)
    assert time.perf_counter() - started < 5  # counted, not filled
    # Under a cap it fits, it is filled as before.
    sheet = parse_xlsx(_merge_bomb(3), max_cells=100_000)[0]
    assert sheet.rows[0] == ("x",) * 16_384 and len(sheet.rows) == 2


def test_merged_text_counts_against_the_character_cap_too() -> None:
    from core.errors import TooMuchContent

    long = "w" * 1_000
    rows = (
        '<row r="1"><c r="A1" t="inlineStr"><is><t>h</t></is></c><c r="J1" t="inlineStr"><is><t>h2</t></is></c></row>'
    )
    rows += (
        f'<row r="2"><c r="A2" t="inlineStr"><is><t>{long}</t></is></c></row><row r="99"><c r="A99"><v>1</v></c></row>'
    )
    data = raw_xlsx([("M", sheet_xml(rows, '<mergeCells count="1"><mergeCell ref="A2:J98"/></mergeCells>'))])
    with pytest.raises(TooMuchContent, match="characters of cell text"):
        parse_xlsx(data, name="long.xlsx", max_chars=500_000)
    assert parse_xlsx(data, name="long.xlsx", max_chars=2_000_000)[0].rows[1][9] == long


def test_a_csv_wider_than_excel_is_refused_at_once_by_its_cause() -> None:
    """1 M columns x 2 rows failed after 91 s with 'cell too large to index': the width is the problem."""
    import time

    from core.errors import TooMuchContent

    data = (",".join(f"c{i}" for i in range(1_000_000)) + "\n" + ",".join("1" * 1_000_000) + "\n").encode()
    started = time.perf_counter()
    with pytest.raises(TooMuchContent, match=r"row 1 has 1,000,000 columns, over the limit of 16,384"):
        parse_csv(data, "wide", max_cells=3_000_000)
    assert time.perf_counter() - started < 30
    ok = (",".join(f"c{i}" for i in range(16_384)) + "\n" + ",".join("1" * 16_384) + "\n").encode()
    assert len(parse_csv(ok, "ok").columns) == 16_384


def test_an_xlsx_cell_past_column_xfd_is_refused() -> None:
    from core.errors import TooMuchContent

    rows = '<row r="1"><c r="A1"><v>1</v></c><c r="XFE1"><v>2</v></c></row><row r="2"><c r="A2"><v>1</v></c></row>'
    with pytest.raises(TooMuchContent, match="16,384"):
        parse_xlsx(raw_xlsx([("W", sheet_xml(rows))]), name="w.xlsx")
    headless = "<row>" + "<c><v>1</v></c>" * 16_385 + "</row>"
    with pytest.raises(TooMuchContent, match="16,384"):
        parse_xlsx(raw_xlsx([("W", sheet_xml(headless))]), name="w.xlsx")


def test_an_xlsx_cell_longer_than_a_cell_may_hold_is_refused_at_parse_naming_it() -> None:
    """One hand-built cell of megabytes was caught only when Postgres could not index its row, after the worker had
    read the parsed sheet back; it is refused at parse, with the sheet and cell named. A cell at the cap is kept."""
    from core.errors import TooMuchContent
    from core.ingest.limits import MAX_CELL_CHARS

    def book(text: str, inline: bool) -> bytes:
        cell = f'<c r="B2" t="inlineStr"><is><t>{text}</t></is></c>' if inline else '<c r="B2" t="s"><v>0</v></c>'
        head = '<row r="1"><c r="A1" t="inlineStr"><is><t>Company</t></is></c><c r="B1" t="inlineStr"><is><t>Notes</t></is></c></row>'
        rows = f'{head}<row r="2"><c r="A2" t="inlineStr"><is><t>Acme</t></is></c>{cell}</row>'
        strings = None if inline else [f"<si><t>{text}</t></si>"]
        return raw_xlsx([("Notes", sheet_xml(rows))], shared_strings=strings)

    for inline in (True, False):
        with pytest.raises(TooMuchContent, match=r"sheet 'Notes', cell B2 holds 131,073 characters, over the limit"):
            parse_xlsx(book("w" * (MAX_CELL_CHARS + 1), inline), name="notes.xlsx")
        assert parse_xlsx(book("w" * MAX_CELL_CHARS, inline), name="notes.xlsx")[0].rows[-1][1] == "w" * MAX_CELL_CHARS
