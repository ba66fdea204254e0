"""Running a table operation: filters applied, then the rows, distinct values, an aggregate or a comparison."""

from __future__ import annotations

import numpy as np
import pandas as pd

from core.errors import TableError
from core.retrieval.tables.cite import _label
from core.retrieval.tables.context import _Ctx
from core.retrieval.tables.frame import SheetFrame, resolve_column
from core.retrieval.tables.grouping import _run_aggregate
from core.retrieval.tables.masks import _filter_mask, _where
from core.retrieval.tables.model import SameAs, TableOp, TableResult
from core.retrieval.tables.rows import _run_compare, _run_distinct, _run_rows


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
