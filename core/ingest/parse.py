"""The parse stage: a file's bytes -> parsed pages or sheets, in memory, nothing stored.

The sandbox's child process runs `parse_file` (core/ingest/sandbox.py); the pipeline stores what it returns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from core.cells import col_index
from core.config import Settings
from core.errors import EmptyFile, FileTooLarge, UnsupportedFile
from core.ingest import pdf, sheets
from core.ingest.pdf_tables import Box, PdfTable
from core.ingest.sheets.parsed import ParsedSheet
from core.ingest.sheets.table import build_table

# The file types the workbench reads: suffix -> (parser, mime type). Folders are searched for these and the
# upload box offers them (in this order).
FILE_TYPES: dict[str, tuple[str, str]] = {
    ".pdf": ("pdf", "application/pdf"),
    ".csv": ("csv", "text/csv"),
    ".tsv": ("csv", "text/tab-separated-values"),
    ".xlsx": ("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
    ".xlsm": ("xlsx", "application/vnd.ms-excel.sheet.macroEnabled.12"),
}
SUPPORTED_SUFFIXES = tuple(FILE_TYPES)
# A .txt file named on purpose is read as CSV (exports often are), but not picked out of a folder or offered.
TEXT_AS_CSV = {".txt": ("csv", "text/csv")}


@dataclass(frozen=True)
class TableSheet:
    """A table found in a PDF page, as a sheet of that PDF: the page it is on and each stored cell's box."""

    sheet: ParsedSheet
    page: int
    boxes: tuple[tuple[Box | None, ...], ...]  # one per data row, one box per column of the sheet


@dataclass(frozen=True)
class Parsed:
    """A file parsed: a PDF (with its tables as sheets) or a workbook's sheets."""

    kind: str
    mime_type: str
    pdf: pdf.ParsedPdf | None = None
    sheets: tuple[ParsedSheet, ...] = ()
    tables: tuple[TableSheet, ...] = ()  # a PDF's tables


# Words of a table's heading kept in its sheet name ("p47 Consolidated Statement of Income").
_TABLE_NAME_WORDS = 6


def table_sheets(tables: Sequence[PdfTable]) -> tuple[TableSheet, ...]:
    """PDF tables as sheets (header, title lines and blank rows read as in a spreadsheet), named by page and heading."""
    out: list[TableSheet] = []
    names: set[str] = set()
    for table in tables:
        found = build_table("", table.records, range(1, len(table.records) + 1))
        if found is None or not found.rows or len(found.columns) < 2:
            continue
        title = " — ".join(t for t in (table.title, found.title) if t) or None
        words = (title or "").split(" — ")[0].split()  # the heading, not the unit line under it
        base = " ".join([f"p{table.page_number}", *words[:_TABLE_NAME_WORDS]]) + (
            "…" if len(words) > _TABLE_NAME_WORDS else ""
        )
        name, n = base, 1
        while name in names:
            n += 1
            name = f"{base} ({n})"
        names.add(name)
        positions = [col_index(column.letter) for column in found.columns]
        boxes = tuple(
            tuple(table.boxes[number - 1][j] if j < len(table.boxes[number - 1]) else None for j in positions)
            for number in found.row_numbers
        )
        out.append(TableSheet(replace(found, name=name, title=title), table.page_number, boxes))
    return tuple(out)


def detect(data: bytes, filename: str) -> tuple[str, str]:
    """(format, mime type) from the name and the first bytes; UnsupportedFile otherwise."""
    suffix = Path(filename).suffix.lower()
    if data[:5] == b"%PDF-":
        return FILE_TYPES[".pdf"]
    found = FILE_TYPES.get(suffix) or TEXT_AS_CSV.get(suffix)
    if found is not None:
        return found
    if suffix == ".xls":
        raise UnsupportedFile(
            f"{filename} is a legacy .xls workbook. Open it in Excel or LibreOffice, save it as .xlsx and upload that."
        )
    raise UnsupportedFile(
        f"{filename}: the workbench reads PDF, CSV and XLSX files, not {suffix or 'files without an extension'}. "
        "Export it to one of those and upload again."
    )


def check_size(filename: str, size: int, settings: Settings) -> None:
    if size > settings.max_file_bytes:
        raise FileTooLarge(
            f"{filename} is {size / 1e6:.1f} MB, over the {settings.max_file_mb:g} MB limit. "
            "Split it, or raise WORKBENCH_MAX_FILE_MB."
        )


def parse_file(data: bytes, filename: str, settings: Settings) -> Parsed:
    """Parse a file's bytes in this process (the sandbox's child runs it; tests call it directly)."""
    if not data:
        raise EmptyFile(f"{filename} is empty (0 bytes). Check the file and upload it again.")
    check_size(filename, len(data), settings)
    fmt, mime = detect(data, filename)
    if fmt == "pdf":
        parsed = pdf.parse_pdf(
            data,
            chunk_chars=settings.chunk_chars,
            overlap_chars=settings.chunk_overlap,
            max_pages=settings.max_pdf_pages,
            name=filename,
            max_page_chars=settings.max_page_chars,
            max_chars=settings.max_file_chars,
        )
        return Parsed("pdf", mime, pdf=parsed, tables=table_sheets(parsed.tables))
    if fmt == "xlsx":
        found = sheets.parse_xlsx(data, name=filename, max_cells=settings.max_cells, max_chars=settings.max_file_chars)
    else:
        # The sheet is named after the file, as Excel names a CSV's only sheet when it opens it.
        found = [
            sheets.parse_csv(data, Path(filename).stem, max_cells=settings.max_cells, max_chars=settings.max_file_chars)
        ]
    if not found or all(not s.rows for s in found):
        raise EmptyFile(f"{filename} has no data rows. Check that the file has a header and rows.")
    return Parsed("sheet", mime, sheets=tuple(found))
