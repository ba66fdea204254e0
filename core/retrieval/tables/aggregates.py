"""The aggregate functions, in one registry (AGGREGATES): how each reads and how it is computed per group."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

import numpy as np
import pandas as pd

from core.cells import Column, parse_number
from core.errors import TableError
from core.retrieval.tables.cite import _label
from core.retrieval.tables.exact import _dividing, _exact, _float_decimal, _plain, _rounded, _units
from core.retrieval.tables.frame import SheetFrame


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
    """One aggregate function, defined in this one place: how a question asks for it, how a plan and a result
    describe it, and how it is computed per group.

    Everything else reads AGGREGATES: the operation's allowed functions (``Aggregate.func``), the model planner's
    JSON schema and prompt, a plan's one-sentence description and the offline planner's aggregate words.  Adding
    an entry here is the one edit an aggregate needs.
    """

    name: str
    reads: str  # how a result names it: "sum" of Amount, "average" of Amount, "distinct count" of Country
    plan: str  # how a plan describes it, {col} being the column: "Average of {col}", "Number of distinct {col}"
    compute: Callable[[_Cells], _Groups]
    # Words of a question that ask for it over a measure column ("average", "mean"): the offline planner's
    # aggregate intent tries the entries in registry order, the first whose words occur wins.  Empty when other
    # intents choose it: a sum ("how much", "in total"), min and max (superlatives), counts ("how many").
    words: tuple[str, ...] = ()


AGGREGATES: dict[str, Aggregation] = {
    a.name: a
    for a in (
        Aggregation("sum", "sum", "Sum of {col}", _sum),
        Aggregation("avg", "average", "Average of {col}", _avg, ("average", "mean", "avg")),
        Aggregation("median", "median", "Median of {col}", _median, ("median",)),
        Aggregation("min", "min", "Minimum of {col}", lambda cells: _extreme(cells, "min")),
        Aggregation("max", "max", "Maximum of {col}", lambda cells: _extreme(cells, "max")),
        Aggregation("count", "count", "Count of {col}", _count),
        Aggregation("count_distinct", "distinct count", "Number of distinct {col}", _count_distinct),
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
