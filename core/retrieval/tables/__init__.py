"""Exact table operations over one stored sheet: filters, aggregates, groups, top-k and distinct values.

Every number is computed by pandas/numpy over the whole sheet — never estimated — and every result
cites the cells that produced it (``Citation(kind="cell")`` with the cell's A1 address and its text
as stored).  ``load_sheet`` reads a sheet from Postgres once per process (LRU cache keyed on the sheet
and a cheap version); ``run_table_op`` is pure.  Sums, averages and medians are exact decimals: each
cell's float is turned back into the decimal it was written as (scaled integers, or ``Decimal`` when
no scale fits) before adding, so "$0.10" + "$0.20" is "0.3", not 0.30000000000000004.
"""

from __future__ import annotations

import datetime
import json
import math
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal, localcontext
from typing import Any, Literal

import numpy as np
import pandas as pd
from pydantic import BaseModel, ConfigDict, Field, model_validator

from core.cells import Column, Dtype, cell_ref, gc_paused, parse_date, parse_measure, parse_number
from core.db import Database, q
from core.errors import SheetNotFound, TableError, UnknownColumn
from core.events import on_sheet_edited
from core.models import Citation
from core.retrieval.tables.operators import OPERATORS, Operator, describe

__all__ = [
    "AGGREGATES",
    "OPERATORS",
    "Aggregate",
    "Aggregation",
    "Filter",
    "Operator",
    "SameAs",
    "SheetFrame",
    "SheetNotFound",
    "TableError",
    "TableOp",
    "TableResult",
    "UnknownColumn",
    "clear_sheet_cache",
    "invalidate_sheet",
    "load_sheet",
    "resolve_column",
    "run_table_op",
    "sheet_cache_info",
]

# At most this many cells are returned as citations; beyond it `cited_range` describes them all.
MAX_CITATIONS = 50
# Filter (and group) columns' cells are cited too when this few rows contribute: enough to check by eye.
FILTER_CELLS_MAX_ROWS = 20
# A row listing returns at most this many rows (the description says how many matched).
MAX_LISTED_ROWS = 1000
# Averages and medians are shown rounded to this many significant digits (integer digits are always kept).
SIGNIFICANT_DIGITS = 10
# Loaded sheets kept per process: a 100,000 x 20 sheet holds ~2M Python strings, so keep few.
CACHE_SIZE = 4
# Groups, rows or distinct values named in a description before "… and N more".
_DESCRIBED = 10

Op = Literal["eq", "ne", "gt", "ge", "lt", "le", "contains", "in", "between", "year"]
Func = Literal["sum", "avg", "min", "max", "count", "count_distinct", "median"]
Scalar = str | float


# ---------------------------------------------------------------------------------------------
# The operation
# ---------------------------------------------------------------------------------------------


class Filter(BaseModel):
    """One row condition: `column` `op` `value` (empty cells never match)."""

    model_config = ConfigDict(frozen=True)

    column: str
    op: Op
    value: str | float | list[str | float]

    @model_validator(mode="after")
    def _check_value(self) -> Filter:
        """The value fits the operator's arity: a [low, high] pair, a non-empty list, a year, or one value."""
        arity = OPERATORS[self.op].arity
        if arity == "pair":
            if not isinstance(self.value, list) or len(self.value) != 2:
                raise ValueError(f"'{self.op}' takes a list of two values [low, high]")
        elif arity == "list":
            if not isinstance(self.value, list) or not self.value:
                raise ValueError(f"'{self.op}' takes a non-empty list of values")
        elif isinstance(self.value, list):
            raise ValueError(f"'{self.op}' takes one value, not a list (use 'in' for several)")
        elif arity == "year" and _as_year(self.value) is None:
            raise ValueError(f"'{self.op}' takes a year such as 2021, not {self.value!r}")
        return self


class Aggregate(BaseModel):
    """A function over one column's non-empty cells (column None: count the rows)."""

    model_config = ConfigDict(frozen=True)

    func: Func
    column: str | None = None

    @model_validator(mode="after")
    def _check_column(self) -> Aggregate:
        """Only count may omit the column."""
        if self.column is None and self.func != "count":
            raise ValueError(f"'{self.func}' needs a column (only 'count' counts rows without one)")
        return self


class SameAs(BaseModel):
    """ "Which players play the same position as Ardo Kreek": rows sharing `column`'s value with the rows `row` picks.

    The rows `row` picks are the reference, not part of the answer: they are left out.
    """

    model_config = ConfigDict(frozen=True)

    column: str
    row: Filter


class TableOp(BaseModel):
    """One exact operation on one sheet."""

    model_config = ConfigDict(frozen=True)

    sheet_id: int
    filters: list[Filter] = []
    group_by: str | None = None
    aggregate: Aggregate | None = None
    sort_by: str | None = None  # a column, or "value" to sort groups by the aggregate
    descending: bool = True
    limit: int | None = Field(default=None, ge=1)  # top-k (ties at the boundary are kept)
    select: list[str] = []  # columns to return for row-listing ops (default: all)
    distinct: str | None = None  # list distinct values of a column
    # "the difference in population between Koraput and Puri": two rows looked up, the gap between their values
    difference: bool = False
    same_as: SameAs | None = None  # rows with the same value of a column as a named row (that row left out)
    from_end: bool = False  # with a limit and no sort: the last rows in sheet order ("the last game they won")
    # "Did A make more or less than B?": the two items of the one two-value "in" filter compared on the selected
    # column (on their order in the sheet when none is selected); the answer is [word if A's is greater, word if less].
    compare: list[str] | None = Field(default=None, min_length=2, max_length=2)
    # "The award given after the Kim Il Sung Prize": the row this many rows after (before, when negative) the rows
    # the filters pick, in sheet order.
    offset: int = 0
    # "Which year had at least three films?": of the groups, those whose aggregate value passes this condition
    # (its column is ignored: the condition is on the value); the groups' names answer.
    having: Filter | None = None

    @model_validator(mode="after")
    def _check_shape(self) -> TableOp:
        """Distinct values are their own operation."""
        if self.distinct is not None and (self.aggregate is not None or self.group_by is not None):
            raise ValueError("'distinct' lists values; use aggregate count_distinct to count them per group")
        return self


@dataclass(frozen=True)
class TableResult:
    """The exact answer to a TableOp, with the cells it rests on."""

    op: TableOp
    columns: list[str]  # result header
    rows: list[list[str]]  # result values as display strings
    values: list[str]  # "the answer": aggregate value(s), or the top/looked-up value(s) of the key column
    citations: list[Citation]  # contributing cells, at most MAX_CITATIONS
    cited_range: str | None  # set when the computation read more than MAX_CITATIONS cells
    n_rows_used: int
    description: str


# ---------------------------------------------------------------------------------------------
# The sheet
# ---------------------------------------------------------------------------------------------


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
        return cls(sheet_id, document_id, title, sheet, tuple(columns), typed_frame, raw_frame, page, caption)

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


# ---------------------------------------------------------------------------------------------
# Typing cell texts, fast and exactly as core.ingest.sheets.typed_value does
# ---------------------------------------------------------------------------------------------

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


# ---------------------------------------------------------------------------------------------
# Loading from Postgres (cached)
# ---------------------------------------------------------------------------------------------

_CACHE: OrderedDict[tuple[str, int], tuple[tuple[Any, ...], SheetFrame]] = OrderedDict()
_CACHE_LOCK = threading.Lock()
_LOAD_LOCKS: dict[tuple[str, int], threading.Lock] = {}
_CACHE_STATS = {"hits": 0, "misses": 0}


def sheet_cache_info() -> dict[str, int]:
    """Hits, misses and size of the per-process sheet cache."""
    with _CACHE_LOCK:
        return {**_CACHE_STATS, "size": len(_CACHE)}


def clear_sheet_cache() -> None:
    """Forget every loaded sheet."""
    with _CACHE_LOCK:
        _CACHE.clear()
        _CACHE_STATS.update(hits=0, misses=0)


@on_sheet_edited
def invalidate_sheet(db: Database, sheet_id: int) -> None:
    """Forget this process's copy of one sheet (after an edit; other processes see sheets.version change)."""
    with _CACHE_LOCK:
        _CACHE.pop((db.conninfo, sheet_id), None)


def _cached(key: tuple[str, int], version: tuple[Any, ...]) -> SheetFrame | None:
    with _CACHE_LOCK:
        entry = _CACHE.get(key)
        if entry is None or entry[0] != version:
            return None
        _CACHE.move_to_end(key)
        _CACHE_STATS["hits"] += 1
        return entry[1]


def load_sheet(db: Database, sheet_id: int) -> SheetFrame:
    """The stored sheet `sheet_id`, loaded once per process and version (SheetNotFound if absent)."""
    with db.connection() as conn, conn.cursor() as cur:
        meta = cur.execute(q("sheet_meta"), {"sheet_id": sheet_id}).fetchone()
    if meta is None:
        raise SheetNotFound(f"No sheet with id {sheet_id}: its document may have been deleted. Re-run the search.")
    document_id, name, n_rows, n_cols, title, created_at, edits, page, caption = meta
    # The server too: every test database numbers its sheets from 1.
    key = (db.conninfo, sheet_id)
    version = (document_id, name, n_rows, n_cols, title, created_at, edits, page, caption)
    found = _cached(key, version)
    if found is not None:
        return found
    with _CACHE_LOCK:
        lock = _LOAD_LOCKS.setdefault(key, threading.Lock())
    with lock:  # two threads asking for the same cold sheet load it once
        found = _cached(key, version)
        if found is not None:
            return found
        with gc_paused():
            with db.connection() as conn, conn.cursor() as cur:
                col_rows = cur.execute(q("sheet_columns"), {"sheet_ids": [sheet_id]}).fetchall()
                stored = cur.execute(q("sheet_frame_rows"), {"sheet_id": sheet_id}).fetchall()
            # sheet_columns rows: (sheet_id, position, name, letter, dtype)
            columns = tuple(Column(position=r[1], name=r[2], letter=r[3], dtype=r[4]) for r in col_rows)
            ids = [r[0] for r in stored]
            numbers = [r[1] for r in stored]
            values = json.loads("[" + ",".join(r[2] for r in stored) + "]")
            del stored
            frame = SheetFrame.from_rows(
                columns, values, row_numbers=numbers, row_ids=ids,
                sheet=name, sheet_id=sheet_id, document_id=document_id, title=title, page=page,
                caption=caption,
            )  # fmt: skip
        with _CACHE_LOCK:
            _CACHE_STATS["misses"] += 1
            _CACHE[key] = (version, frame)
            _CACHE.move_to_end(key)
            while len(_CACHE) > CACHE_SIZE:
                evicted, _ = _CACHE.popitem(last=False)
                _LOAD_LOCKS.pop(evicted, None)
    return frame


# ---------------------------------------------------------------------------------------------
# Columns and filter values
# ---------------------------------------------------------------------------------------------


def _norm_text(text: str) -> str:
    return " ".join(text.split()).casefold()


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


def _as_number(value: Scalar) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value) if math.isfinite(value) else None
    return parse_number(value)


def _as_year(value: Scalar) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return int(value) if math.isfinite(value) and float(value).is_integer() and 1 <= value <= 9999 else None
    return int(value) if re.fullmatch(r"\s*\d{4}\s*", value, re.ASCII) and int(value) >= 1 else None


def _as_day(value: Scalar) -> float | None:
    """Days since 1970-01-01 of a date written as text, or None."""
    parsed = parse_date(value) if isinstance(value, str) else None
    return None if parsed is None else float((parsed - datetime.date(1970, 1, 1)).days)


def _value_text(value: Scalar | list[Scalar]) -> str:
    """A filter value as a person writes it: 2021.0 -> "2021"."""
    if isinstance(value, list):
        return ", ".join(_value_text(v) for v in value)
    if isinstance(value, float):
        return _plain(_float_decimal(value)) if math.isfinite(value) else str(value)
    return value.strip()


def _where(filters: Sequence[tuple[Filter, Column]]) -> str:
    """Filters as text: " where Country = Canada and Date in 2021" (empty without filters)."""
    parts = [describe(f.op, col.name, [_value_text(v) for v in _listed(f.value)], style="result") for f, col in filters]
    return " where " + " and ".join(parts) if parts else ""


def _listed(value: Scalar | list[Scalar]) -> list[Scalar]:
    return list(value) if isinstance(value, list) else [value]


# ---------------------------------------------------------------------------------------------
# Filters
# ---------------------------------------------------------------------------------------------


def _compare(key: np.ndarray, op: str, values: list[float]) -> np.ndarray:
    """Comparison of a float key (NaN never matches) with converted filter values."""
    compare = OPERATORS[op].keys
    assert compare is not None, f"{op} does not compare keys"
    with np.errstate(invalid="ignore"):
        return compare(key, values)


def _text_mask(sheet: SheetFrame, col: Column, op: str, values: list[Scalar]) -> np.ndarray:
    """Case-insensitive, whitespace-trimmed text comparison (order operators: alphabetical, casefolded)."""
    compare = OPERATORS[op].texts
    assert compare is not None, f"{op} is not a plain text comparison"
    wanted = [_norm_text(_value_text(v)) for v in values]
    return compare(sheet.normalised(col.position), ~sheet.blank(col.position), wanted)


def _date_key_and_values(
    sheet: SheetFrame, col: Column, f: Filter, values: list[Scalar]
) -> tuple[np.ndarray, list[float]] | None:
    """Compare on years when every value is a bare year, on days when every value is a date; else None."""
    years = [_as_year(v) for v in values]
    whole_years = [y for y in years if y is not None]
    if len(whole_years) == len(years):
        if f.op == "between":  # a range of years covers whole years: 1 Jan of the first to 31 Dec of the last
            low, high = sorted(whole_years)
            first = (datetime.date(low, 1, 1) - datetime.date(1970, 1, 1)).days
            last = (datetime.date(high, 12, 31) - datetime.date(1970, 1, 1)).days
            return sheet.days(col.position), [float(first), float(last)]
        return _years(sheet, col.position), [float(y) for y in whole_years]
    days = [_as_day(v) for v in values]
    known_days = [d for d in days if d is not None]
    if len(known_days) == len(days):
        return sheet.days(col.position), known_days
    mixed = [(_as_day(v) if y is None else None) for v, y in zip(values, years, strict=True)]
    if f.op == "between" and all(y is not None or d is not None for y, d in zip(years, mixed, strict=True)):
        bounds: list[tuple[float, int | None]] = sorted(
            (
                (
                    float((datetime.date(y, 1, 1) - datetime.date(1970, 1, 1)).days)
                    if y is not None
                    else float(d or 0),
                    y,
                )
                for y, d in zip(years, mixed, strict=True)
            ),
            key=lambda bound: bound[0],
        )
        (start, _), (end, end_year) = bounds
        if end_year is not None:  # the upper bound is a whole year: include it to 31 Dec
            end = float((datetime.date(end_year, 12, 31) - datetime.date(1970, 1, 1)).days)
        return sheet.days(col.position), [start, end]
    return None


def _years(sheet: SheetFrame, pos: int) -> np.ndarray:
    def build() -> np.ndarray:
        days = sheet.days(pos)
        out = np.full(len(days), np.nan)
        ok = ~np.isnan(days)
        out[ok] = days[ok].astype(np.int64).astype("datetime64[D]").astype("datetime64[Y]").astype(np.int64) + 1970
        return out

    return sheet.view("years", pos, build)


def _filter_mask(sheet: SheetFrame, col: Column, f: Filter) -> np.ndarray:
    """Rows matching one filter (empty cells never match)."""
    values: list[Scalar] = list(f.value) if isinstance(f.value, list) else [f.value]
    pos = col.position
    if f.op == "contains":
        needle = _norm_text(_value_text(f.value))
        return np.fromiter((t is not None and needle in t for t in sheet.normalised(pos)), bool, sheet.n_rows)
    if f.op == "year":
        year = float(_as_year(values[0]))  # type: ignore[arg-type]  # validated: a year
        if col.dtype in ("number", "currency", "percent"):  # a "Year" column of numbers
            return sheet.numbers(pos) == year
        return _years(sheet, pos) == year
    order_op = OPERATORS[f.op].order
    if col.dtype in ("number", "currency", "percent"):
        numbers = [_as_number(v) for v in values]
        if all(n is not None for n in numbers):
            return _compare(sheet.numbers(pos), f.op, numbers)  # type: ignore[arg-type]
        if order_op:
            raise TableError(f"{col.name} holds numbers; {_value_text(f.value)!r} is not a number to compare with.")
        return _text_mask(sheet, col, f.op, values)  # e.g. "n/a" in a numeric column
    if col.dtype == "date":
        if f.op == "in":  # each value may be a date or a year: any of them
            masks = [_filter_mask(sheet, col, Filter(column=f.column, op="eq", value=v)) for v in values]
            return np.logical_or.reduce(masks)
        found = _date_key_and_values(sheet, col, f, values)
        if found is not None:
            return _compare(found[0], f.op, found[1])
        if order_op:
            raise TableError(
                f"{col.name} holds dates; {_value_text(f.value)!r} is not a date or year "
                "(write e.g. 2021-03-05, 5 Mar 2021 or 2021)."
            )
        return _text_mask(sheet, col, f.op, values)
    # A text column: order comparisons with numbers or dates compare the cells that read as such.
    if order_op:
        numbers = [_as_number(v) for v in values]
        if all(n is not None for n in numbers):
            return _compare(sheet.numbers(pos), f.op, numbers)  # type: ignore[arg-type]
        days = [_as_day(v) for v in values]
        if all(d is not None for d in days):
            return _compare(sheet.days(pos), f.op, days)  # type: ignore[arg-type]
    return _text_mask(sheet, col, f.op, values)


# ---------------------------------------------------------------------------------------------
# Exact numbers and their display
# ---------------------------------------------------------------------------------------------


def _float_decimal(x: float) -> Decimal:
    """The decimal a float was written as: repr is the shortest text that reads back as the same float."""
    return Decimal(repr(float(x)))


def _plain(d: Decimal) -> str:
    """Shortest exact decimal text: no exponent, no trailing zeros, integers without ".0"."""
    text = format(d.normalize(), "f")
    return "0" if text in ("-0", "0") else text


def _grouped(d: Decimal) -> str:
    """As _plain, with thousands separators (for descriptions)."""
    text = format(d.normalize(), ",f")
    return "0" if text in ("-0", "0") else text


def _rounded(d: Decimal) -> Decimal:
    """Rounded (half away from zero, as Excel) to SIGNIFICANT_DIGITS, keeping every integer digit."""
    if d == 0:
        return Decimal(0)
    places = max(0, SIGNIFICANT_DIGITS - 1 - d.adjusted())
    with localcontext() as ctx:
        ctx.prec = max(SIGNIFICANT_DIGITS, d.adjusted() + 1) + 2
        return d.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def _units(values: np.ndarray) -> tuple[np.ndarray, int]:
    """Exact integers and a scale such that values == units / 10**scale, for exact sums.

    Each float is the nearest double to the decimal in its cell; with a scale at which every value times
    10**scale rounds to an integer n that divides back to the same float, n/10**scale IS that decimal
    (both n and 10**scale are exact doubles below 2**53, and IEEE division is correctly rounded).
    When no scale up to 15 fits, Decimal(repr(x)) per value is the fallback.
    """
    if len(values) == 0:
        return np.zeros(0, dtype=np.int64), 0
    top = float(np.max(np.abs(values)))
    for scale in range(16):
        factor = 10.0**scale
        if top * factor >= 2**53:
            break
        units = np.round(values * factor)
        if np.array_equal(units / factor, values):
            ints = units.astype(np.int64)
            # Python ints when an int64 sum could overflow.
            if top * factor * len(values) >= 2**62:
                return ints.astype(object), scale
            return ints, scale
    return np.array([_float_decimal(v) for v in values], dtype=object), 0


def _exact(unit: Any, scale: int) -> Decimal:
    if isinstance(unit, Decimal):
        return unit
    return Decimal(int(unit)).scaleb(-scale)


def _dividing(numerator: Decimal, denominator: int | Decimal) -> Decimal:
    """Quotient with enough precision that rounding to SIGNIFICANT_DIGITS afterwards is exact."""
    with localcontext() as ctx:
        ctx.prec = max(40, numerator.adjusted() + 20)
        return numerator / Decimal(denominator)


# ---------------------------------------------------------------------------------------------
# Citations
# ---------------------------------------------------------------------------------------------


def cite(sheet: SheetFrame, row: int, col: Column) -> Citation:
    """The citation of one cell, at row position `row` (not its id) of column `col`; its value is the stored text."""
    return Citation(
        kind="cell",
        document_id=sheet.document_id,
        title=sheet.title,
        sheet=sheet.sheet,
        row_id=int(sheet.row_ids()[row]),
        column=col.name,
        ref=cell_ref(sheet.sheet, col.letter, int(sheet.row_numbers()[row])),
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
    start = cell_ref(sheet.sheet, col.letter, first)
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


# ---------------------------------------------------------------------------------------------
# Running an operation
# ---------------------------------------------------------------------------------------------


@dataclass
class _Ctx:
    """An operation with its columns resolved and its filters applied."""

    sheet: SheetFrame
    op: TableOp
    filters: list[tuple[Filter, Column]]
    rows: np.ndarray  # positions of the matching rows, in sheet order
    where: str

    @property
    def filter_columns(self) -> list[Column]:
        return [col for _, col in self.filters]

    def key_column(self, select: Sequence[Column] = ()) -> Column:
        """What a lookup answers with: the first text column (of `select` if given), else its first column."""
        pool = list(select) or list(self.sheet.columns)
        return next((c for c in pool if c.dtype == "text"), pool[0])


def run_table_op(sheet: SheetFrame, op: TableOp) -> TableResult:
    """Compute `op` exactly over the whole sheet and cite the cells it used."""
    if not sheet.columns:
        raise TableError(f"Sheet {sheet.sheet!r} has no columns.")
    filters = [(f, resolve_column(sheet, f.column)) for f in op.filters]
    mask = np.ones(sheet.n_rows, dtype=bool)
    for f, col in filters:
        mask &= _filter_mask(sheet, col, f)
    where = _where(filters)
    if op.same_as is not None:
        same, where = _same_as(sheet, op.same_as, where)
        mask &= same
    if op.offset:
        mask, where = _offset_rows(sheet, mask, op.offset, where)
    ctx = _Ctx(sheet, op, filters, np.flatnonzero(mask), where)
    if op.distinct is not None:
        return _run_distinct(ctx, resolve_column(sheet, op.distinct))
    if op.aggregate is not None or op.group_by is not None:
        return _run_aggregate(ctx)
    if op.compare is not None:
        compared = _run_compare(ctx, op.compare)
        if compared is not None:
            return compared
    return _run_rows(ctx)


def _run_compare(ctx: _Ctx, words: list[str]) -> TableResult | None:
    """Two named rows compared on a column (or on their order): the word that says how the first stands to the
    second ("more", "older", "above"); None when the rows or their values are not there to compare."""
    sheet, op = ctx.sheet, ctx.op
    pair = next(
        ((f, c) for f, c in ctx.filters if f.op == "in" and isinstance(f.value, list) and len(f.value) == 2), None
    )
    if pair is None:
        return None
    f, col = pair
    in_rows = np.zeros(sheet.n_rows, dtype=bool)
    in_rows[ctx.rows] = True
    rows = []
    for value in f.value:  # type: ignore[union-attr]  # a list: checked above
        found = np.flatnonzero(in_rows & _filter_mask(sheet, col, Filter(column=f.column, op="eq", value=value)))
        if len(found) == 0:
            return None
        rows.append(int(found[0]))
    measure = resolve_column(sheet, op.select[0]) if op.select else None
    if measure is not None:
        _, order = sheet.order(measure.position)
        keys = [float(order[r]) for r in rows]
    else:
        keys = [float(r) for r in rows]  # the sheet's order: a later row is "below"
    if any(np.isnan(k) for k in keys) or keys[0] == keys[1]:
        return None
    word = words[0] if keys[0] > keys[1] else words[1]
    shown = [col] + ([measure] if measure is not None else [])
    listed = np.array(rows)
    table = [["" if (t := sheet.texts(c.position)[r]) is None else t for c in shown] for r in rows]
    citations = _citations(sheet, listed, shown)
    names = [_label(sheet, col, r) for r in rows]
    if measure is not None:
        how = " vs ".join(
            f"{n} ({measure.name} = {_label(sheet, measure, r)})" for n, r in zip(names, rows, strict=True)
        )
    else:
        numbers = sheet.row_numbers()
        how = f"{names[0]} is on row {numbers[rows[0]]}, {names[1]} on row {numbers[rows[1]]}"
    description = f"{how}: {names[0]} is {word}"
    return TableResult(op, [c.name for c in shown], table, [word], citations, None, 2, description)


def _offset_rows(sheet: SheetFrame, mask: np.ndarray, offset: int, where: str) -> tuple[np.ndarray, str]:
    """The row `offset` rows after the last matching row (before the first, when negative), and the condition."""
    matched = np.flatnonzero(mask)
    out = np.zeros(sheet.n_rows, dtype=bool)
    if len(matched):
        target = int(matched[-1] if offset > 0 else matched[0]) + offset
        if 0 <= target < sheet.n_rows:
            out[target] = True
    side = "after" if offset > 0 else "before"
    rows = "row" if abs(offset) == 1 else f"{abs(offset)} rows"
    return out, f"{where}: the {rows} {side} it"


def _same_as(sheet: SheetFrame, same: SameAs, where: str) -> tuple[np.ndarray, str]:
    """The rows sharing a column's value with the reference rows (those left out), and the condition as text."""
    col, ref_col = resolve_column(sheet, same.column), resolve_column(sheet, same.row.column)
    reference = _filter_mask(sheet, ref_col, same.row)
    filled = ~sheet.blank(col.position)
    keys = sheet.keys(col.position)
    wanted = keys[reference & filled]
    if len(wanted) == 0:
        raise TableError(f"No row where {_where([(same.row, ref_col)])[7:]} has a value of {col.name} to compare.")
    mask = filled & ~reference & pd.Series(keys, dtype=object).isin(set(wanted.tolist())).to_numpy(bool)
    shown = ", ".join(dict.fromkeys(_label(sheet, col, int(r)) for r in np.flatnonzero(reference & filled)))
    condition = f"{col.name} is the same as where {_where([(same.row, ref_col)])[7:]} ({shown})"
    return mask, (where + " and " if where else " where ") + condition


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _label(sheet: SheetFrame, col: Column, row: int) -> str:
    text = sheet.texts(col.position)[row]
    return "" if text is None else " ".join(text.split())


def _top_positions(key: np.ndarray, descending: bool, limit: int | None, drop_missing: bool) -> np.ndarray:
    """Indices of `key` ordered (stable, NaN last), cut to `limit` keeping ties at the boundary."""
    index = np.arange(len(key))
    if drop_missing:
        index = index[~np.isnan(key)]
    sort_key = -key[index] if descending else key[index]
    ordered = index[np.argsort(sort_key, kind="stable")]
    if limit is not None and len(ordered) > limit:
        boundary = key[ordered[limit - 1]]
        extra = ordered[limit:]
        ties = extra[key[extra] == boundary] if not np.isnan(boundary) else extra[:0]
        # Ties are adjacent after a stable sort, so the kept rows stay in order.
        ordered = np.concatenate([ordered[:limit], ties])
    return ordered


# -- rows ------------------------------------------------------------------------------------


def _run_rows(ctx: _Ctx) -> TableResult:
    """Filtered rows, optionally sorted by a column and cut to the top k (ties kept)."""
    sheet, op = ctx.sheet, ctx.op
    select = [resolve_column(sheet, name) for name in op.select]
    shown = select or list(sheet.columns)
    key_col = ctx.key_column(select)
    sort_col = None
    if op.sort_by is not None:
        if _norm_text(op.sort_by) == "value" and not any(_norm_text(c.name) == "value" for c in sheet.columns):
            raise TableError("Sorting by 'value' needs an aggregate; name a column to sort rows by.")
        sort_col = resolve_column(sheet, op.sort_by)
    rows = ctx.rows
    read = rows
    if sort_col is not None:
        _, order = sheet.order(sort_col.position)
        # For a top-k, rows without a value to rank are not candidates; a full listing puts them last.
        picked = _top_positions(order[rows], op.descending, op.limit, drop_missing=op.limit is not None)
        read = rows[~np.isnan(order[rows])] if op.limit is not None else rows
        rows = rows[picked]
    elif op.limit is not None:
        rows = rows[-op.limit :] if op.from_end else rows[: op.limit]
    n_matched = len(ctx.rows)
    listed = rows[:MAX_LISTED_ROWS]
    table = [["" if (t := sheet.texts(c.position)[r]) is None else t for c in shown] for r in listed]
    values = [_label(sheet, key_col, r) for r in listed]
    cited_cols = [key_col] + ([sort_col] if sort_col else []) + select
    if len(listed) <= FILTER_CELLS_MAX_ROWS:
        cited_cols += ctx.filter_columns
    citations = _citations(sheet, listed, cited_cols)
    primary = sort_col or key_col
    top = f", top {op.limit} by {sort_col.name}" if sort_col is not None and op.limit is not None else ""
    listed_condition = ctx.where + top
    read_rows = listed if sort_col is None else read
    cited_range = _cited_range(sheet, primary, (listed, cited_cols, listed_condition), (read_rows, ctx.where))
    description = _rows_description(ctx, n_matched, rows, listed, key_col, sort_col)
    if op.difference and len(listed) == 2:
        numbers = sheet.numbers(key_col.position)[listed]
        if not np.isnan(numbers).any():
            gap = abs(_float_decimal(float(numbers[0])) - _float_decimal(float(numbers[1])))
            unit = _shared_unit(sheet, key_col, listed)
            values = [_plain(gap) + unit]
            description += f"; the difference between them is {_grouped(gap)}{unit}"
    return TableResult(op, [c.name for c in shown], table, values, citations, cited_range, n_matched, description)


def _rows_description(
    ctx: _Ctx, n_matched: int, rows: np.ndarray, listed: np.ndarray, key_col: Column, sort_col: Column | None
) -> str:
    sheet, op = ctx.sheet, ctx.op
    if n_matched == 0:
        return f"no rows matched{ctx.where}"
    head = _plural(n_matched, "row") + " matched" + ctx.where
    if sort_col is not None:
        head += f", sorted by {sort_col.name} {'descending' if op.descending else 'ascending'}"
    if op.limit is not None and op.from_end and sort_col is None:
        head += f", the last {op.limit} in sheet order"
    elif op.limit is not None:
        head += f", top {op.limit}" + (f" ({len(rows)} with ties)" if len(rows) > op.limit else "")
    items = []
    for r in listed[:_DESCRIBED]:
        item = _label(sheet, key_col, r) or "(empty)"
        if sort_col is not None and sort_col.position != key_col.position:
            item += f" ({sort_col.name} = {_label(sheet, sort_col, r) or 'empty'})"
        items.append(item)
    more = len(rows) - len(items)
    tail = f"; … {_plural(more, 'more row')}" if more > 0 else ""
    shown = f" (first {len(listed):,} returned)" if len(listed) < len(rows) else ""
    return f"{head}{shown}: " + "; ".join(items) + tail


# -- distinct --------------------------------------------------------------------------------


def _run_distinct(ctx: _Ctx, col: Column) -> TableResult:
    """Distinct non-empty values of a column among the matching rows, in first-appearance order."""
    sheet, op = ctx.sheet, ctx.op
    rows = ctx.rows[~sheet.blank(col.position)[ctx.rows]]
    codes, _ = pd.factorize(sheet.keys(col.position)[rows])
    first = np.full(codes.max() + 1 if len(codes) else 0, -1, dtype=np.int64)
    first[codes[::-1]] = np.arange(len(codes))[::-1]  # the last write wins: reversed, the first occurrence
    firsts = rows[first]  # one row per distinct value, in appearance order
    if op.sort_by is not None:
        if resolve_column(sheet, op.sort_by).position != col.position:
            raise TableError(f"Distinct values of {col.name} can only be sorted by {col.name} itself.")
        _, order = sheet.order(col.position)
        firsts = firsts[_top_positions(order[firsts], op.descending, None, drop_missing=False)]
    if op.limit is not None:
        firsts = firsts[: op.limit]
    values = [_label(sheet, col, r) for r in firsts]
    citations = _citations(sheet, firsts, [col])
    cited_range = _cited_range(sheet, col, (firsts, [col], ctx.where), (rows, ctx.where))
    total = len(first)
    if total == 0:
        description = (
            f"no rows matched{ctx.where}"
            if len(ctx.rows) == 0
            else f"{col.name} is empty in every matching row{ctx.where}"
        )
    else:
        listed = ", ".join(values[:_DESCRIBED]) + (
            f", … {len(values) - _DESCRIBED:,} more" if len(values) > _DESCRIBED else ""
        )
        cut = f" (first {len(values)} shown)" if len(values) < total else ""
        description = f"{_plural(total, 'distinct value')} of {col.name}{ctx.where} over {_plural(len(rows), 'row')}{cut}: {listed}"
    return TableResult(op, [col.name], [[v] for v in values], values, citations, cited_range, len(rows), description)


# -- aggregates ------------------------------------------------------------------------------


@dataclass
class _Groups:
    """One aggregate computed per group over the rows used."""

    present: np.ndarray  # bool per group: it has a value (count always does)
    key: np.ndarray  # float per group to rank by value (exact for sums, whose ties must tie)
    n_used: np.ndarray  # cells (or rows, for a row count) per group
    display: Callable[[int], str]  # plain text of group g's value
    cited: Callable[[np.ndarray], np.ndarray]  # row positions cited for the given groups, in sheet order
    read: np.ndarray  # row positions whose cells were read
    skipped: np.ndarray  # row positions of non-empty cells that could not be used (not numbers)


def _func_text(func: str, col: Column | None) -> str:
    """ "sum of Amount", "average of Amount", "count of rows", "distinct count of Country"."""
    if col is None:
        return "count of rows"
    return f"{AGGREGATES[func].reads} of {col.name}"


@dataclass
class _Cells:
    """The cells one aggregate reads: column `col` at row positions `rows`, in groups `codes` (0..n-1)."""

    sheet: SheetFrame
    col: Column
    rows: np.ndarray
    codes: np.ndarray
    n: int
    filled: np.ndarray  # per row of `rows`: the cell is not blank


@dataclass
class _Values:
    """The usable values of the cells (numbers, or for min/max dates or text order keys), per group."""

    kind: Literal["number", "date", "text"]
    rows: np.ndarray  # row positions of usable cells
    codes: np.ndarray
    values: np.ndarray
    counts: np.ndarray  # usable cells per group
    skipped: np.ndarray  # non-empty cells that are not numbers
    suffix: str  # "%" for a percent column

    def cited_all(self, groups: np.ndarray) -> np.ndarray:
        """Every usable row of the given groups."""
        return self.rows[np.isin(self.codes, groups)]


def _values(cells: _Cells, func: str) -> _Values:
    """Read the cells as numbers (min and max also order dates and text); TableError when none can be."""
    sheet, col, rows = cells.sheet, cells.col, cells.rows
    pos = col.position
    if func in ("min", "max"):
        kind, order = sheet.order(pos)
    elif col.dtype == "date":
        raise TableError(f"{col.name} holds dates: {func} needs numbers (min and max work on dates).")
    else:
        kind, order = "number", sheet.numbers(pos)
    values = order[rows]
    usable = ~np.isnan(values)
    skipped = rows[cells.filled & ~usable] if kind == "number" else rows[:0]
    if not usable.any() and cells.filled.any() and col.dtype == "text" and kind == "number":
        raise TableError(f"{col.name} holds text, not numbers: {func} needs a numeric column.")
    used_codes = cells.codes[usable]
    return _Values(kind, rows[usable], used_codes, values[usable], np.bincount(used_codes, minlength=cells.n), skipped,
                   "%" if col.dtype == "percent" else "")  # fmt: skip


def _count(cells: _Cells) -> _Groups:
    used_rows, used_codes = cells.rows[cells.filled], cells.codes[cells.filled]
    counts = np.bincount(used_codes, minlength=cells.n)
    return _Groups(np.ones(cells.n, dtype=bool), counts.astype(float), counts, lambda g: str(counts[g]),
                   lambda gs: used_rows[np.isin(used_codes, gs)], used_rows, cells.rows[:0])  # fmt: skip


def _count_distinct(cells: _Cells) -> _Groups:
    used_rows, used_codes = cells.rows[cells.filled], cells.codes[cells.filled]
    value_codes, _ = pd.factorize(cells.sheet.keys(cells.col.position)[used_rows])
    pairs = used_codes.astype(np.int64) * (int(value_codes.max(initial=0)) + 1) + value_codes
    _, first = np.unique(pairs, return_index=True)
    first.sort()  # one row per (group, value), in sheet order
    distinct = np.bincount(used_codes[first], minlength=cells.n)
    return _Groups(np.ones(cells.n, dtype=bool), distinct.astype(float), np.bincount(used_codes, minlength=cells.n),
                   lambda g: str(distinct[g]), lambda gs: used_rows[first][np.isin(used_codes[first], gs)],
                   used_rows, cells.rows[:0])  # fmt: skip


def _extreme(cells: _Cells, func: str) -> _Groups:
    v = _values(cells, func)
    sheet, col, pos = cells.sheet, cells.col, cells.col.position
    extreme = np.full(cells.n, np.inf if func == "min" else -np.inf)
    (np.minimum if func == "min" else np.maximum).at(extreme, v.codes, v.values)
    holders = v.rows[v.values == extreme[v.codes]]  # every row holding its group's extreme (ties)
    holder_codes = v.codes[v.values == extreme[v.codes]]
    first_holder = {int(g): int(r) for g, r in zip(holder_codes[::-1], holders[::-1], strict=True)}

    def show_extreme(g: int) -> str:
        row = first_holder[g]
        if v.kind == "number":
            if col.dtype == "text" and parse_number(sheet.texts(pos)[row] or "") is None:
                return _label(sheet, col, row)  # "7.91 m", "2:03": the measure as written, with its unit
            return _plain(_float_decimal(sheet.numbers(pos)[row])) + v.suffix
        if v.kind == "date":
            return str(np.datetime64(int(sheet.days(pos)[row]), "D"))
        return _label(sheet, col, row)

    return _Groups(v.counts > 0, extreme, v.counts, show_extreme, lambda gs: holders[np.isin(holder_codes, gs)],
                   v.rows, v.skipped)  # fmt: skip


def _sums(cells: _Cells, func: str) -> tuple[_Values, np.ndarray, np.ndarray, int]:
    """Exact per-group sums in integer units (see _units): the values, their units, the sums and the scale."""
    v = _values(cells, func)
    units, scale = _units(v.values)
    sums = np.zeros(cells.n, dtype=units.dtype)
    np.add.at(sums, v.codes, units)
    return v, units, sums, scale


def _sum(cells: _Cells) -> _Groups:
    v, _, sums, scale = _sums(cells, "sum")
    key = np.array([float(_exact(s, scale)) for s in sums]) if sums.dtype == object else sums / 10.0**scale
    return _Groups(v.counts > 0, key, v.counts, lambda g: _plain(_exact(sums[g], scale)) + v.suffix, v.cited_all,
                   v.rows, v.skipped)  # fmt: skip


def _avg(cells: _Cells) -> _Groups:
    v, _, sums, scale = _sums(cells, "avg")
    counts = v.counts
    safe = np.maximum(counts, 1)
    key = (
        np.array([float(_exact(s, scale)) for s in sums]) / safe if sums.dtype == object else sums / 10.0**scale / safe
    )
    return _Groups(counts > 0, key, counts,
                   lambda g: _plain(_rounded(_dividing(_exact(sums[g], scale), int(counts[g])))) + v.suffix,
                   v.cited_all, v.rows, v.skipped)  # fmt: skip


def _median(cells: _Cells) -> _Groups:
    v = _values(cells, "median")
    units, scale = _units(v.values)
    counts, present = v.counts, v.counts > 0
    # Sort by group then value; the middle one or two of each group.
    sorted_units = units[np.lexsort((v.values, v.codes))]
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    low = starts + np.maximum(counts - 1, 0) // 2
    high = starts + counts // 2
    last = max(len(v.values) - 1, 0)
    safe_low, safe_high = np.minimum(low, last), np.minimum(high, last)

    def median(g: int) -> Decimal:
        return (_exact(sorted_units[safe_low[g]], scale) + _exact(sorted_units[safe_high[g]], scale)) / 2

    key = np.full(cells.n, np.nan)
    if len(v.values):
        # Twice the median in units: exact integers, so equal medians tie when ranking groups.
        doubled = sorted_units[safe_low] + sorted_units[safe_high]
        key[present] = doubled[present].astype(float)
    return _Groups(present, key, counts, lambda g: _plain(_rounded(median(g))) + v.suffix, v.cited_all, v.rows,
                   v.skipped)  # fmt: skip


@dataclass(frozen=True)
class Aggregation:
    """One aggregate function: how a description reads it and how it is computed per group."""

    name: str
    reads: str  # "sum of Amount", "average of Amount", "distinct count of Country"
    compute: Callable[[_Cells], _Groups]


AGGREGATES: dict[str, Aggregation] = {
    a.name: a
    for a in (
        Aggregation("sum", "sum", _sum),
        Aggregation("avg", "average", _avg),
        Aggregation("median", "median", _median),
        Aggregation("min", "min", lambda cells: _extreme(cells, "min")),
        Aggregation("max", "max", lambda cells: _extreme(cells, "max")),
        Aggregation("count", "count", _count),
        Aggregation("count_distinct", "distinct count", _count_distinct),
    )
}


def _aggregate(
    sheet: SheetFrame, func: str, col: Column | None, rows: np.ndarray, codes: np.ndarray, n: int
) -> _Groups:
    """Compute `func` of `col` per group code (0..n-1) over `rows` (no column: count the rows)."""
    if col is None:
        counts = np.bincount(codes, minlength=n)
        return _Groups(counts > 0, counts.astype(float), counts, lambda g: str(counts[g]),
                       lambda gs: rows[np.isin(codes, gs)], rows, rows[:0])  # fmt: skip
    filled = ~sheet.blank(col.position)[rows]
    return AGGREGATES[func].compute(_Cells(sheet, col, rows, codes, n, filled))


def _run_aggregate(ctx: _Ctx) -> TableResult:
    """An aggregate over the matching rows, or per group with optional ordering and top-k."""
    sheet, op = ctx.sheet, ctx.op
    agg = op.aggregate or Aggregate(func="count")  # group_by alone counts rows per group
    agg_col = resolve_column(sheet, agg.column) if agg.column is not None else None
    group_col = resolve_column(sheet, op.group_by) if op.group_by is not None else None
    func_text = _func_text(agg.func, agg_col)
    rows = ctx.rows
    if group_col is not None:
        codes, _ = pd.factorize(sheet.keys(group_col.position)[rows])  # -1: an empty group cell
        rows, codes = rows[codes >= 0], codes[codes >= 0]  # rows with an empty group cell belong to no group
        n_groups = int(codes.max()) + 1 if len(codes) else 0
    else:
        codes = np.zeros(len(rows), dtype=np.int64)
        n_groups = 1
    groups = _aggregate(sheet, agg.func, agg_col, rows, codes, n_groups)
    counting = agg.func in ("count", "count_distinct")
    primary = agg_col or ctx.key_column()

    if group_col is None:
        if len(ctx.rows) == 0 or not groups.present[0]:
            return _empty_aggregate(ctx, func_text, agg_col, counting, groups)
        value = groups.display(0)
        cited_rows = groups.cited(np.array([0]))
        cols = [primary] + (ctx.filter_columns if len(cited_rows) <= FILTER_CELLS_MAX_ROWS else [])
        if agg.func in ("min", "max"):
            cols.insert(1, ctx.key_column())  # whose value is the extreme
        citations = _citations(sheet, cited_rows, cols)
        n_used = len(rows) if agg_col is None else int(groups.n_used[0])
        description = f"{func_text}{ctx.where} = {_describe_value(value)}"
        if not (agg.func == "count" and agg_col is None):  # "count of rows = 48 over 48 rows" says it twice
            description += f" over {_plural(n_used, 'row')}"
        description += _skipped_note(sheet, agg_col, groups)
        cited_range = _cited_range(sheet, primary, (cited_rows, cols, ctx.where), (groups.read, ctx.where))
        return TableResult(op, [func_text], [[value]], [value], citations, cited_range, n_used, description)

    first = np.full(n_groups, -1, dtype=np.int64)
    first[codes[::-1]] = rows[::-1]  # each group's first row, for its label
    candidates = np.flatnonzero(groups.present)  # groups without a usable value have no answer to rank
    if op.having is not None:
        bound = [float(v) for v in _listed(op.having.value) if _as_number(v) is not None]
        if len(bound) != len(_listed(op.having.value)):
            raise TableError(f"A condition on the {agg.func} needs numbers, not {_value_text(op.having.value)!r}.")
        candidates = candidates[_compare(groups.key[candidates], op.having.op, bound)]
    limit = op.limit
    sort_by = op.sort_by if op.sort_by is not None else ("value" if limit is not None else None)
    if sort_by is None:
        chosen = candidates
    elif _norm_text(sort_by) == "value":
        chosen = candidates[_top_positions(groups.key[candidates], op.descending, limit, drop_missing=True)]
    else:
        if resolve_column(sheet, sort_by).position != group_col.position:
            raise TableError(
                f"Groups can be sorted by 'value' (the {agg.func}) or by {group_col.name}, not {sort_by!r}."
            )
        _, order = sheet.order(group_col.position)
        chosen = candidates[_top_positions(order[first[candidates]], op.descending, limit, drop_missing=False)]
    if limit is not None and (sort_by is None or _norm_text(sort_by) != "value"):
        chosen = chosen[:limit]  # ties only matter when ranking by value

    labels = [_label(sheet, group_col, int(first[g])) for g in chosen]
    shown = [groups.display(int(g)) for g in chosen]
    table = [[label, value] for label, value in zip(labels, shown, strict=True)]
    values = labels if limit is not None or op.having is not None else shown
    cited_rows = groups.cited(chosen)
    # Cite group by group, in the order the groups are shown.
    group_of_row = np.full(sheet.n_rows, -1, dtype=np.int64)
    group_of_row[rows] = codes
    rank = np.full(n_groups, len(chosen), dtype=np.int64)
    rank[chosen] = np.arange(len(chosen))
    cited_rows = cited_rows[np.argsort(rank[group_of_row[cited_rows]], kind="stable")]
    n_used = int(groups.n_used[chosen].sum()) if agg_col is not None else len(cited_rows)
    extra = [group_col, *ctx.filter_columns] if len(cited_rows) <= FILTER_CELLS_MAX_ROWS else []
    cols = [primary, *extra]
    citations = _citations(sheet, cited_rows, cols)
    if limit is not None and len(chosen) < len(candidates):
        restriction = _restriction(group_col, labels)
        condition = (ctx.where + " and " if ctx.where else " where ") + restriction
    else:
        condition = ctx.where
    cited_range = _cited_range(sheet, primary, (cited_rows, cols, condition), (groups.read, ctx.where))
    if len(chosen) == 0:
        description = (
            f"no rows matched{ctx.where}" if len(ctx.rows) == 0 else f"no group has a value of {func_text}{ctx.where}"
        )
    else:
        description = _groups_description(
            ctx, func_text, group_col, labels, shown, groups, chosen, len(candidates), sort_by
        )
    if op.difference and limit is None and len(chosen) == 2:
        gap = abs(_float_decimal(float(groups.key[chosen[0]])) - _float_decimal(float(groups.key[chosen[1]])))
        unit = _shared_unit(sheet, agg_col, cited_rows) if agg_col is not None and not counting else ""
        values = [_plain(gap) + unit]
        description += f"; the difference between them is {_grouped(gap)}{unit}"
    return TableResult(op, [group_col.name, func_text], table, values, citations, cited_range, n_used, description)


def _restriction(col: Column, labels: list[str]) -> str:
    if len(labels) == 1:
        return f"{col.name} = {labels[0]}"
    named = ", ".join(labels[:5]) + (", …" if len(labels) > 5 else "")
    return f"{col.name} in ({named})"


def _describe_value(value: str) -> str:
    """A display value with thousands separators when it is a number ("239,300,000", "12.5%")."""
    body, suffix = (value[:-1], "%") if value.endswith("%") else (value, "")
    if re.fullmatch(r"-?\d+(?:\.\d+)?", body):
        return _grouped(Decimal(body)) + suffix
    return value


def _skipped_note(sheet: SheetFrame, col: Column | None, groups: _Groups) -> str:
    if col is None or len(groups.skipped) == 0:
        return ""
    refs = ", ".join(cell_ref(sheet.sheet, col.letter, int(sheet.row_numbers()[r])) for r in groups.skipped[:3])
    more = ", …" if len(groups.skipped) > 3 else ""
    return f" ({_plural(len(groups.skipped), 'non-numeric cell')} skipped: {refs}{more})"


def _empty_aggregate(ctx: _Ctx, func_text: str, agg_col: Column | None, counting: bool, groups: _Groups) -> TableResult:
    """No matching rows (or no usable cell): a count is 0, anything else has no value."""
    op = ctx.op
    if len(ctx.rows) == 0:
        description = f"no rows matched{ctx.where}"
    else:
        description = f"no usable cells for {func_text} in the {_plural(len(ctx.rows), 'matching row')}{ctx.where}"
        description += _skipped_note(ctx.sheet, agg_col, groups)
    if counting:
        return TableResult(op, [func_text], [["0"]], ["0"], [], None, 0, f"{description}; {func_text} = 0")
    return TableResult(op, [func_text], [], [], [], None, 0, description)


def _groups_description(
    ctx: _Ctx,
    func_text: str,
    group_col: Column,
    labels: list[str],
    shown: list[str],
    groups: _Groups,
    chosen: np.ndarray,
    n_candidates: int,
    sort_by: str | None,
) -> str:
    op = ctx.op
    head = f"{func_text} by {group_col.name}{ctx.where}"
    if op.having is not None:
        values = [_value_text(v) for v in _listed(op.having.value)]
        head += ", the groups where " + describe(op.having.op, func_text, values, style="result")
    if op.limit is not None:
        direction = "top" if op.descending else "bottom"
        ranked = "by value" if sort_by is not None and _norm_text(sort_by) == "value" else f"by {group_col.name}"
        head += f", {direction} {op.limit} of {_plural(n_candidates, 'group')} {ranked}"
        if len(chosen) > op.limit:
            head += f" ({len(chosen)} with ties)"
    else:
        head += f" ({_plural(n_candidates, 'group')})"
    items = [
        f"{label or '(empty)'} = {_describe_value(value)} ({_plural(int(groups.n_used[g]), 'row')})"
        for label, value, g in zip(labels[:_DESCRIBED], shown[:_DESCRIBED], chosen[:_DESCRIBED], strict=True)
    ]
    more = len(labels) - len(items)
    tail = f"; … {_plural(more, 'more group')}" if more > 0 else ""
    agg_col = resolve_column(ctx.sheet, op.aggregate.column) if op.aggregate and op.aggregate.column else None
    return f"{head}: " + "; ".join(items) + tail + _skipped_note(ctx.sheet, agg_col, groups)
