"""The caps on what one file may hold (characters, cells), shared by the parsers: refused with the fix."""

from __future__ import annotations

from core.errors import TooMuchContent

# The widest sheet read: Excel's own limit (columns A to XFD). A wider CSV is not a table a person made (a
# million columns in two rows is one row's text too large to search); an XLSX cannot be wider in Excel.
MAX_COLUMNS = 16_384
# The longest text one cell may hold: the csv module's own field limit, which a CSV meets first ("a field runs
# on for over 131,072 characters": a quote never closed). Excel stops at 32,767; an XLSX built by hand can hold
# megabytes in one cell, which Postgres cannot index (a row's words past 1 MB): refused at parse, in the child.
MAX_CELL_CHARS = 131_072


def too_wide(name: str, columns: int, row: int) -> TooMuchContent:
    """The error for a sheet whose row `row` has more than MAX_COLUMNS columns."""
    return TooMuchContent(
        f"{name}: row {row:,} has {columns:,} columns, over the limit of {MAX_COLUMNS:,} (Excel's own: A to XFD). "
        "Check the delimiter or the export (one record per line); if the data is genuine, transpose it so the "
        "many values run down the rows, or split it into narrower files."
    )


def cell_too_long(name: str, where: str, chars: int) -> TooMuchContent:
    """The error for a cell (`where`: "row 3, column 2" or "cell B7") holding more than MAX_CELL_CHARS characters."""
    return TooMuchContent(
        f"{name}: {where} holds {chars:,} characters, over the limit of {MAX_CELL_CHARS:,} for one cell. "
        "Split that text into smaller cells (or put it in a PDF) and upload again."
    )


def too_much_content(
    name: str, *, cells: int, chars: int, max_cells: int, max_chars: int, merged: bool = False
) -> TooMuchContent:
    """The error for a sheet past its cell or character cap (`merged`: counted with its merged ranges filled)."""
    if cells > max_cells:
        what = f"more than {max_cells:,} cells" + (
            " once its merged ranges are filled (each cell of a merged range holds its value)" if merged else ""
        )
        setting = "WORKBENCH_MAX_CELLS"
    else:
        what = f"more than {max_chars:,} characters of cell text"
        setting = "WORKBENCH_MAX_FILE_CHARS"
    return TooMuchContent(
        f"{name} holds {what}, over the limit for one file. "
        f"Split it into smaller files (or raise {setting} if the data is genuine)."
    )


def page_too_long(name: str, page: int, chars: int, max_chars: int) -> TooMuchContent:
    """The error for a PDF page whose text is past the per-page cap."""
    return TooMuchContent(
        f"{name}: page {page} holds {chars:,} characters of text, over the limit of {max_chars:,} per page "
        "(a dense page holds about 10,000; this one may be built to exhaust memory). "
        "Remove that page or print the PDF again, or raise WORKBENCH_MAX_PAGE_CHARS if it is genuine."
    )


def pdf_too_long(name: str, chars: int, max_chars: int) -> TooMuchContent:
    """The error for a PDF whose text is past the per-file cap."""
    return TooMuchContent(
        f"{name} holds over {max_chars:,} characters of text ({chars:,} read so far), over the limit for one file. "
        "Split it into smaller PDFs, or raise WORKBENCH_MAX_FILE_CHARS."
    )
