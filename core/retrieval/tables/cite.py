"""Citations of the cells a result rests on, the A1 range when they are too many, and how cells read."""

from __future__ import annotations

import calendar
import re
from collections.abc import Sequence
from datetime import date

import numpy as np

from core.cells import Column, cell_ref
from core.models import Citation
from core.retrieval.tables.frame import SheetFrame

# At most this many cells are returned as citations; beyond it `cited_range` describes them all.
MAX_CITATIONS = 50


def cite(sheet: SheetFrame, row: int, col: Column) -> Citation:
    """The citation of one cell, at row position `row` (not its id) of column `col`; its value is the stored text."""
    return Citation(
        kind="cell",
        document_id=sheet.document_id,
        title=sheet.title,
        sheet=sheet.sheet,
        row_id=int(sheet.row_ids()[row]),
        column=col.name,
        ref=cell_ref(sheet.ref_tab, col.letter, int(sheet.row_numbers()[row])),
        value=sheet.texts(col.position)[row],
        page=sheet.page,
    )


def _citations(sheet: SheetFrame, rows: np.ndarray, columns: Sequence[Column]) -> list[Citation]:
    """The non-empty cells of `columns` in `rows`, row by row, at most MAX_CITATIONS."""
    unique_cols = list({c.position: c for c in columns}.values())
    out: list[Citation] = []
    for row in rows:
        for col in unique_cols:
            if not sheet.blank(col.position)[row]:
                out.append(cite(sheet, int(row), col))
                if len(out) >= MAX_CITATIONS:
                    return out
        if len(out) >= MAX_CITATIONS:
            break
    return out


def _range_text(sheet: SheetFrame, col: Column, rows: np.ndarray, condition: str) -> str | None:
    """ "Funding!F2:F308 (48 cells where Country = Canada)" for the non-empty cells of `col` in `rows`."""
    rows = rows[~sheet.blank(col.position)[rows]]
    if len(rows) == 0:
        return None
    numbers = sheet.row_numbers()[rows]
    first, last = int(numbers.min()), int(numbers.max())
    start = cell_ref(sheet.ref_tab, col.letter, first)
    span = start if first == last else f"{start}:{col.letter}{last}"
    return f"{span} ({len(rows):,} cell{'s' if len(rows) != 1 else ''}{condition})"


def _cells_count(sheet: SheetFrame, rows: np.ndarray, columns: Sequence[Column]) -> int:
    unique = {c.position for c in columns}
    return sum(int((~sheet.blank(pos)[rows]).sum()) for pos in unique)


def _cited_range(
    sheet: SheetFrame,
    col: Column,
    cited: tuple[np.ndarray, Sequence[Column], str],
    read: tuple[np.ndarray, str],
) -> str | None:
    """The A1 range of `col` that a result rests on, when its cells are too many to cite one by one.

    `cited` is (rows, columns, condition) of the cells behind the answer: when they are over
    MAX_CITATIONS the range describes them (the citations hold the first ones).  Otherwise, when the
    computation compared more than MAX_CITATIONS cells to find the answer (a max, a top-k), the range
    describes those `read` (rows, condition).
    """
    rows, columns, condition = cited
    if _cells_count(sheet, rows, columns) > MAX_CITATIONS:
        return _range_text(sheet, col, rows, condition)
    read_rows, read_condition = read
    if _cells_count(sheet, read_rows, [col]) > MAX_CITATIONS:
        return _range_text(sheet, col, read_rows, read_condition)
    return None


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _label(sheet: SheetFrame, col: Column, row: int) -> str:
    text = sheet.texts(col.position)[row]
    if text is not None and _FIRST_OF_MONTH.fullmatch(text) and _monthly(sheet, col):
        day = date.fromisoformat(text[:10]) if _FIRST_OF_MONTH.fullmatch(text) else None
        if day is not None:
            return f"{calendar.month_abbr[day.month]} {day.year}"  # a month stored as a date cell, named as a month
    return "" if text is None else " ".join(text.split())


_FIRST_OF_MONTH = re.compile(r"\d{4}-\d\d-01(?:[ T]00:00(?::00)?)?")
_DATE = re.compile(r"\d{4}-\d\d-\d\d(?:[ T]\d\d:\d\d(?::\d\d)?)?")
_SAMPLE = 400  # dates read to tell a column of months from a column of days


def _monthly(sheet: SheetFrame, col: Column) -> bool:
    """Whether a column holds months stored as dates: of the first few hundred cells, most are dates and every date
    is a month's first day (a "Total" row below them aside)."""
    texts = [t for t in sheet.texts(col.position)[:_SAMPLE] if t]
    dates = [t for t in texts if _DATE.fullmatch(t)]
    return len(dates) >= 2 and 5 * len(dates) >= 4 * len(texts) and all(_FIRST_OF_MONTH.fullmatch(t) for t in dates)
