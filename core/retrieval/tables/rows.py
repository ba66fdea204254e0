"""Running row operations: listings (sorted, top-k, a difference of two), two rows compared, distinct values."""

from __future__ import annotations

import numpy as np
import pandas as pd

from core.cells import Column
from core.errors import TableError
from core.retrieval.tables.cite import _citations, _cited_range, _label, _plural
from core.retrieval.tables.context import _DESCRIBED, FILTER_CELLS_MAX_ROWS, MAX_LISTED_ROWS, _Ctx, _top_positions
from core.retrieval.tables.exact import _float_decimal, _grouped, _plain
from core.retrieval.tables.frame import _shared_unit, resolve_column
from core.retrieval.tables.masks import _filter_mask
from core.retrieval.tables.model import Filter, TableResult
from core.retrieval.tables.values import _norm_text


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
