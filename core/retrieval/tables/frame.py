"""A stored sheet loaded for math (SheetFrame): typed columns parsed from the cell texts, fast and exactly
as core.ingest.sheets.typed_value does, with derived arrays cached per column; and its columns by name."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import pandas as pd

from core.cells import Column, Dtype, parse_date, parse_measure, parse_number
from core.errors import UnknownColumn
from core.retrieval.tables.values import _norm_text
from core.sheetmodel import TableModel


@dataclass(frozen=True, eq=False)
class SheetFrame:
    """A stored sheet loaded for math: typed columns, the texts as stored, and cell addresses."""

    sheet_id: int
    document_id: int
    title: str
    sheet: str
    columns: tuple[Column, ...]
    # One typed column per sheet column (float for number/currency/percent, datetime64[s] for date,
    # object str for text; None/NaN/NaT when empty or unparsed), then row_id and row_number.
    # Code here reads columns by position, so a sheet column named "row_id" cannot shadow them.
    frame: pd.DataFrame
    raw: pd.DataFrame  # same shape: the cell texts exactly as stored (None for an empty cell)
    page: int | None = None  # a table read from a PDF: the page it is on (its cells are cited on that page)
    caption: str | None = None  # the sheet's own title (lines above its header: "(in millions)"), if any
    model: TableModel | None = None  # how the table was read at ingestion (core.sheetmodel): units of rows, roles
    tab: str | None = None  # the workbook tab its cells stand on, when it is one of the tab's several tables
    # Derived arrays (normalised text, number views, sort keys) built on first use and kept: a
    # frozen dataclass may still fill a dict, and one op on a 100k-row sheet should pay them once.
    _views: dict[tuple[str, int], Any] = field(default_factory=dict, init=False, repr=False)

    @classmethod
    def from_rows(
        cls,
        columns: Sequence[Column],
        rows: Sequence[Sequence[str | None]],
        *,
        row_numbers: Sequence[int] | None = None,
        row_ids: Sequence[int] | None = None,
        sheet: str = "Sheet1",
        sheet_id: int = 0,
        document_id: int = 0,
        title: str = "",
        page: int | None = None,
        caption: str | None = None,
        model: TableModel | None = None,
        tab: str | None = None,
    ) -> SheetFrame:
        """Build a SheetFrame from cell texts (row numbers default to 2.., row ids to 1..)."""
        n = len(rows)
        numbers = np.asarray(row_numbers if row_numbers is not None else range(2, n + 2), dtype=np.int64)
        ids = np.asarray(row_ids if row_ids is not None else range(1, n + 1), dtype=np.int64)
        if len(numbers) != n or len(ids) != n:
            raise ValueError("row_numbers and row_ids must have one entry per row")
        width = len(columns)
        # Rows are stored one value per column; pad or cut defensively so the transpose is exact.
        if set(map(len, rows)) - {width}:
            rows = [r if len(r) == width else (list(r) + [None] * width)[:width] for r in rows]
        by_column = list(zip(*rows, strict=True)) if n else [() for _ in columns]
        raw_cols: dict[int, pd.Series] = {}
        typed_cols: dict[int, pd.Series] = {}
        for col, texts in zip(columns, by_column, strict=True):
            raw = np.array(texts, dtype=object) if n else np.empty(0, dtype=object)
            raw_cols[col.position] = pd.Series(raw, dtype=object, copy=False)
            typed = _typed_array(raw, col.dtype)
            # dtype=object: pandas 3 would otherwise turn text into its own string dtype.
            typed_cols[col.position] = pd.Series(typed, dtype=object if typed.dtype == object else None, copy=False)
        labels = [c.name for c in columns] + ["row_id", "row_number"]
        raw_frame = _frame(list(raw_cols.values()), ids, numbers, labels)
        typed_frame = _frame(list(typed_cols.values()), ids, numbers, labels)
        return cls(
            sheet_id, document_id, title, sheet, tuple(columns), typed_frame, raw_frame, page, caption, model, tab
        )

    @property
    def ref_tab(self) -> str:
        """The tab its cells' addresses name."""
        return self.tab or self.sheet

    @property
    def n_rows(self) -> int:
        """Number of data rows."""
        return len(self.frame)

    # -- derived views (cached) ----------------------------------------------------------------

    def view(self, name: str, pos: int, build: Callable[[], Any]) -> Any:
        """The derived array `name` of column `pos` (-1: of the rows), built by `build` once and kept."""
        key = (name, pos)
        found = self._views.get(key)
        if found is None:
            found = build()
            self._views[key] = found
        return found

    def texts(self, pos: int) -> np.ndarray:
        """Cell texts as stored (object array, None for empty)."""
        return self.view("raw", pos, lambda: self.raw.iloc[:, pos].to_numpy(dtype=object))

    def typed(self, pos: int) -> np.ndarray:
        """Typed values of column `pos` (float, datetime64 or text; NaN/NaT/None when empty or unparsed)."""
        return self.view("typed", pos, lambda: self.frame.iloc[:, pos].to_numpy())

    def row_ids(self) -> np.ndarray:
        """The stored row id of each row (what a cell citation names)."""
        return self.view("row_ids", -1, lambda: self.frame.iloc[:, len(self.columns)].to_numpy(np.int64))

    def row_numbers(self) -> np.ndarray:
        """Each row's row number in the original file (the 12 of Funding!E12)."""
        return self.view("row_numbers", -1, lambda: self.frame.iloc[:, len(self.columns) + 1].to_numpy(np.int64))

    def normalised(self, pos: int) -> np.ndarray:
        """Texts trimmed, inner whitespace collapsed and casefolded (None for blank): text equality."""
        return self.view("norm", pos, lambda: _normalise(self.texts(pos)))

    def blank(self, pos: int) -> np.ndarray:
        """Whether each cell of column `pos` is empty or whitespace."""
        return self.view("blank", pos, lambda: np.equal(self.normalised(pos), None))  # type: ignore[call-overload]  # numpy stubs: None is a valid operand

    def numbers(self, pos: int) -> np.ndarray:
        """Float per cell as parse_number reads it (NaN when empty or not a number), any dtype."""
        col = self.columns[pos]
        if col.dtype in ("number", "currency", "percent"):
            return self.typed(pos)
        return self.view("numbers", pos, lambda: _parse_measures(self.texts(pos)))

    def days(self, pos: int) -> np.ndarray:
        """Days since 1970-01-01 per cell as parse_date reads it (NaN when not a date), any dtype."""

        def build() -> np.ndarray:
            dates = self.typed(pos) if self.columns[pos].dtype == "date" else _parse_dates(self.texts(pos))
            return _days_of(dates)

        return self.view("days", pos, build)

    def mostly_numbers(self, pos: int) -> bool:
        """Whether a text column's non-empty cells are mostly numbers (then it sorts as numbers)."""

        def build() -> bool:
            filled = int((~self.blank(pos)).sum())
            return filled > 0 and int((~np.isnan(self.numbers(pos))).sum()) * 2 > filled

        return self.view("mostly_numbers", pos, build)

    def order(self, pos: int) -> tuple[Literal["number", "date", "text"], np.ndarray]:
        """A float sort key per cell (NaN when the cell cannot be ordered) and what it orders."""
        col = self.columns[pos]
        if col.dtype in ("number", "currency", "percent"):
            return "number", self.typed(pos)
        if col.dtype == "date":
            return "date", self.days(pos)
        if self.mostly_numbers(pos):
            return "number", self.numbers(pos)
        return "text", self.view("text_rank", pos, lambda: _text_ranks(self.normalised(pos)))

    def keys(self, pos: int) -> np.ndarray:
        """Identity of each cell's value for grouping and distinct: the typed value, else its normalised text."""

        def build() -> np.ndarray:
            col = self.columns[pos]
            keys = self.normalised(pos).copy()
            if col.dtype in ("number", "currency", "percent", "date"):
                typed = self.numbers(pos) if col.dtype != "date" else self.days(pos)
                ok = ~np.isnan(typed)
                keys[ok] = typed[ok]
            return keys

        return self.view("keys", pos, build)


def _frame(series: list[pd.Series], ids: np.ndarray, numbers: np.ndarray, labels: list[str]) -> pd.DataFrame:
    data = {i: s for i, s in enumerate(series)}
    data[len(series)] = pd.Series(ids, copy=False)
    data[len(series) + 1] = pd.Series(numbers, copy=False)
    frame = pd.DataFrame(data, copy=False)
    frame.columns = labels  # set afterwards: labels may repeat ("row_id" as a sheet column)
    return frame


_NUM_BODY = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
# The start of a line that is NOT one parse_number reads as float(digits without "$", "," and "%"),
# sign kept.  Searching for it scans the whole column in C without building a match per cell.
_NOT_PLAIN_NUMBER = re.compile(rf"^(?!(?:(?:-?\$?|\$-){_NUM_BODY}|-?{_NUM_BODY}%)$)", re.MULTILINE | re.ASCII)
_NUMBER_NOISE = str.maketrans("", "", "$,%")
_NOT_ISO_DAY = re.compile(r"^(?!(?!0000)\d{4}-\d{2}-\d{2}$)", re.MULTILINE | re.ASCII)
# An empty or whitespace-only line between two others: some cell is blank though not None.  (Starting
# with a literal newline lets the scan skip ahead; `^\s*$` with MULTILINE was 10x slower.)
_BLANK_INNER_LINE = re.compile(r"\n[^\S\n]*\n")


@dataclass(frozen=True)
class _Filled:
    """The non-blank cells of a column (typed_value treats empty and whitespace-only text as empty)."""

    mask: np.ndarray  # bool per cell
    values: list[str]  # their texts, in order
    joined: str | None  # the texts joined by newlines when none holds a line break, for whole-column regexes


def _filled(texts: np.ndarray) -> _Filled:
    present = np.not_equal(texts, None)  # type: ignore[call-overload]  # numpy stubs: None is a valid operand
    values: list[str] = texts[present].tolist()
    joined = "\n".join(values)
    one_line_each = values and joined.count("\n") == len(values) - 1
    if one_line_each and values[0].strip() and values[-1].strip() and not _BLANK_INNER_LINE.search(joined):
        return _Filled(present, values, joined)  # the common case: blanks are None, one line each
    keep = np.fromiter((not t.isspace() and t != "" for t in values), dtype=bool, count=len(values))
    present[present] = keep
    values = [t for t, k in zip(values, keep, strict=True) if k]
    joined = "\n".join(values)
    return _Filled(present, values, joined if joined.count("\n") == len(values) - 1 else None)


def _parse_numbers(texts: np.ndarray) -> np.ndarray:
    """parse_number of every cell as floats (NaN for empty or not a number)."""
    out = np.full(len(texts), np.nan)
    cells = _filled(texts)
    if not cells.values:
        return out
    # Most columns hold plain numbers, "$1,234.50" or "15%": one regex scan proves that, and float() of
    # the cleaned text is then exactly what parse_number returns (both read the same decimal digits).
    if cells.joined is not None and not _NOT_PLAIN_NUMBER.search(cells.joined):
        cleaned = cells.joined.translate(_NUMBER_NOISE).split("\n")
        out[cells.mask] = np.fromiter(map(float, cleaned), float, len(cleaned))
        return out
    parsed = {t: parse_number(t) for t in set(cells.values)}
    out[cells.mask] = [np.nan if (v := parsed[t]) is None else v for t in cells.values]
    return out


def _parse_measures(texts: np.ndarray) -> np.ndarray:
    """The numbers of a text column: plain numbers, and measures written with their unit ("88 m", "3 acts")."""
    out = _parse_numbers(texts)
    missing = np.flatnonzero(np.isnan(out))
    if len(missing):
        measures = {t: parse_measure(t) for t in {texts[i] for i in missing if texts[i] is not None}}
        for i in missing:
            if texts[i] is not None and (found := measures[texts[i]]) is not None:
                out[i] = found[0]
    return out


_ORDINAL_UNIT = re.compile(r"|st|nd|rd|th", re.IGNORECASE)


def _shared_unit(sheet: SheetFrame, col: Column, rows: np.ndarray) -> str:
    """ " m" when every cell of these rows is a measure in metres ("436 m", "380 m"): a difference keeps the unit."""
    if col.dtype != "text":
        return ""
    units = {measure_unit(sheet.texts(col.position)[r]) for r in rows}
    shared = units.pop() if len(units) == 1 else ""
    return "" if _ORDINAL_UNIT.fullmatch(shared) else f" {shared}"


def measure_unit(text: str | None) -> str:
    """The unit a cell's measure is written with ("88 m" -> "m"), "" for a plain number or no measure."""
    found = parse_measure(text) if text else None
    return found[1] if found is not None else ""


def _parse_dates(texts: np.ndarray) -> np.ndarray:
    """parse_date of every cell as datetime64[s] (NaT for empty or not a date)."""
    out = np.full(len(texts), np.datetime64("NaT"), dtype="datetime64[s]")
    cells = _filled(texts)
    if not cells.values:
        return out
    if cells.joined is not None and not _NOT_ISO_DAY.search(cells.joined):
        try:
            out[cells.mask] = np.array(cells.values, dtype="datetime64[D]")
            return out
        except ValueError:  # an impossible day such as 2021-02-30: parse_date says None, so go slow
            pass
    parsed = {t: parse_date(t) for t in set(cells.values)}
    out[cells.mask] = [
        np.datetime64("NaT") if (d := parsed[t]) is None else np.datetime64(d, "D") for t in cells.values
    ]
    return out


def _typed_array(raw: np.ndarray, dtype: Dtype) -> np.ndarray:
    """The typed column of a sheet column (see SheetFrame.frame)."""
    if dtype in ("number", "currency", "percent"):
        return _parse_numbers(raw)
    if dtype == "date":
        return _parse_dates(raw)
    cells = _filled(raw)
    if len(cells.values) == int(np.not_equal(raw, None).sum()):  # type: ignore[call-overload]  # numpy stubs: None is a valid operand
        return raw  # no whitespace-only cells: the texts themselves (shared, never mutated)
    typed = np.full(len(raw), None, dtype=object)
    typed[cells.mask] = cells.values
    return typed


def _normalise(raw: np.ndarray) -> np.ndarray:
    """Trimmed, whitespace-collapsed, casefolded texts; None for blank. Per distinct text, not per cell."""
    codes, uniques = pd.factorize(raw, use_na_sentinel=True)
    norm = [" ".join(t.split()).casefold() or None for t in uniques]
    table = np.array([*norm, None], dtype=object)  # codes of -1 (None) pick the trailing None
    return table[codes]


def _days_of(dates: np.ndarray) -> np.ndarray:
    days = dates.astype("datetime64[D]").astype(np.int64).astype(float)
    days[np.isnat(dates)] = np.nan
    return days


def _text_ranks(norm: np.ndarray) -> np.ndarray:
    """Alphabetical rank (casefolded) of each text as a float, NaN for blank."""
    out = np.full(len(norm), np.nan)
    filled = ~np.equal(norm, None)  # type: ignore[call-overload]  # numpy stubs: None is a valid operand
    if filled.any():
        codes, _ = pd.factorize(norm[filled], sort=True)
        out[filled] = codes
    return out


def resolve_column(sheet: SheetFrame, name: str) -> Column:
    """The column called `name` (case and spacing ignored) or with that A1 letter; else UnknownColumn."""
    wanted = _norm_text(name)
    for col in sheet.columns:
        if _norm_text(col.name) == wanted:
            return col
    for col in sheet.columns:  # names win over letters: a column may be called "A"
        if col.letter == wanted.upper():
            return col
    listed = ", ".join(f"{c.name} ({c.letter})" for c in sheet.columns) or "none"
    raise UnknownColumn(f"No column {name!r} in sheet {sheet.sheet!r}. Its columns are: {listed}.")
