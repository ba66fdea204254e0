"""Exact table operations over one stored sheet: filters, aggregates, groups, top-k and distinct values.

Every number is computed by pandas/numpy over the whole sheet — never estimated — and every result
cites the cells that produced it (``Citation(kind="cell")`` with the cell's A1 address and its text
as stored).  ``load_sheet`` reads a sheet from Postgres once per process (LRU cache keyed on the sheet
and a cheap version); ``run_table_op`` is pure.  Sums, averages and medians are exact decimals: each
cell's float is turned back into the decimal it was written as (scaled integers, or ``Decimal`` when
no scale fits) before adding, so "$0.10" + "$0.20" is "0.3", not 0.30000000000000004.

This package only re-exports; each module has one job (imports flow down this list, never up):

- ``operators``: the filter operators' registry (OPERATORS).
- ``exact``: exact decimals and their display.  ``values``: filter values (numbers, years, dates, texts).
- ``frame``: SheetFrame, the typed arrays parsed from cell texts, and resolve_column.
- ``cache``: load_sheet and the per-process LRU cache (clear, invalidate, stats).
- ``cite``: cell citations and the A1 range cited when they are many.
- ``aggregates``: the aggregate functions' registry (AGGREGATES), each computed per group.
- ``model``: the operation (Filter, Aggregate, SameAs, TableOp) and its TableResult.
- ``masks``: the rows each filter picks.  ``context``: an operation with its filters applied.
- ``rows``, ``grouping``: running row listings, comparisons and distinct values; aggregates and groups.
- ``run``: run_table_op, which applies the filters and picks one of those.
- ``derived``: run_share, a filtered sum as a percentage of the column's total; run_row_math, two columns
  multiplied or compared in each row.
- ``across``: run_across, one operation on each sheet of one layout, the figures added up or set side by side.
"""

from __future__ import annotations

from core.cells import Column
from core.errors import SheetNotFound, TableError, UnknownColumn
from core.retrieval.tables.across import Combine, run_across
from core.retrieval.tables.aggregates import AGGREGATES, Aggregation
from core.retrieval.tables.cache import CACHE_SIZE, clear_sheet_cache, invalidate_sheet, load_sheet, sheet_cache_info
from core.retrieval.tables.cite import MAX_CITATIONS, cite
from core.retrieval.tables.context import FILTER_CELLS_MAX_ROWS, MAX_LISTED_ROWS
from core.retrieval.tables.derived import RowMath, run_row_math, run_share
from core.retrieval.tables.exact import SIGNIFICANT_DIGITS
from core.retrieval.tables.frame import SheetFrame, measure_unit, resolve_column
from core.retrieval.tables.model import Aggregate, Filter, Func, Op, SameAs, TableOp, TableResult
from core.retrieval.tables.operators import OPERATORS, Operator
from core.retrieval.tables.run import run_table_op
from core.retrieval.tables.values import Scalar

__all__ = [
    "AGGREGATES",
    "CACHE_SIZE",
    "FILTER_CELLS_MAX_ROWS",
    "MAX_CITATIONS",
    "MAX_LISTED_ROWS",
    "OPERATORS",
    "SIGNIFICANT_DIGITS",
    "Aggregate",
    "Aggregation",
    "Column",
    "Combine",
    "Filter",
    "Func",
    "Op",
    "Operator",
    "RowMath",
    "SameAs",
    "Scalar",
    "SheetFrame",
    "SheetNotFound",
    "TableError",
    "TableOp",
    "TableResult",
    "UnknownColumn",
    "cite",
    "clear_sheet_cache",
    "invalidate_sheet",
    "load_sheet",
    "measure_unit",
    "resolve_column",
    "run_across",
    "run_row_math",
    "run_share",
    "run_table_op",
    "sheet_cache_info",
]
