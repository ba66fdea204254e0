"""A sheet as a parser reads it: one table, its header and data rows with their positions in the original file, and
the model of its structure (core.sheetmodel). The CSV and XLSX readers and the PDF table finder make them; the
pipeline stores them."""

from __future__ import annotations

from dataclasses import dataclass

from core.cells import Column
from core.sheetmodel import TableModel


@dataclass(frozen=True)
class ParsedSheet:
    """One table: a header row and the data rows under it, with their positions in the original file."""

    name: str  # XLSX sheet title; for a CSV the name the caller gave (e.g. the file stem)
    columns: tuple[Column, ...]
    rows: tuple[tuple[str | None, ...], ...]  # cell text as stored; None for an empty cell
    row_numbers: tuple[int, ...]  # 1-based row number in the original file of each data row
    header_row: int  # 1-based row number of the header row
    title: str | None = None  # title/note lines found above the header ("Fatal accidents by year, 1999-2012")
    # Formula cells with no value saved by Excel, as (A1 ref, "=formula"); their cells are empty.
    uncalculated: tuple[tuple[str, str], ...] = ()
    # Something the user should check although the sheet was read (a CSV that mixes encodings).
    warning: str | None = None
    # How the table was read (core.sheetmodel.TableModel): header paths, row paths and roles, units, periods.
    model: TableModel | None = None
    # The workbook tab the table stands on when it is one of several tables of that tab (its cells are cited there:
    # "Dashboard!H7"); None when the table is the tab's only one, named by it.
    tab: str | None = None
