"""Running an aggregate: one figure over the matching rows, or one per group (ranked, top-k, a condition)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from core.cells import Column, cell_ref
from core.errors import TableError
from core.retrieval.tables.aggregates import _aggregate, _func_text, _Groups
from core.retrieval.tables.cite import _citations, _cited_range, _label, _plural
from core.retrieval.tables.context import _DESCRIBED, FILTER_CELLS_MAX_ROWS, _Ctx, _top_positions
from core.retrieval.tables.exact import _describe_value, _float_decimal, _grouped, _plain
from core.retrieval.tables.frame import SheetFrame, _shared_unit, resolve_column
from core.retrieval.tables.masks import _compare
from core.retrieval.tables.model import Aggregate, TableResult
from core.retrieval.tables.operators import describe
from core.retrieval.tables.values import _as_number, _listed, _norm_text, _value_text


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


def _skipped_note(sheet: SheetFrame, col: Column | None, groups: _Groups) -> str:
    if col is None or len(groups.skipped) == 0:
        return ""
    refs = ", ".join(cell_ref(sheet.ref_tab, col.letter, int(sheet.row_numbers()[r])) for r in groups.skipped[:3])
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
