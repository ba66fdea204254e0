"""A plan in one plain sentence: "Sum of Amount Raised (USD) where Country = Canada (funding_rounds.csv)."."""

from __future__ import annotations

from collections.abc import Sequence

from core.qa.planner.schema import LOOKUP_LIMIT, SheetInfo
from core.retrieval.tables import AGGREGATES, Aggregate, Filter, TableOp
from core.retrieval.tables.operators import describe

# -- describing ----------------------------------------------------------------------------------


def describe_filters(filters: Sequence[Filter]) -> str:
    parts = [
        describe(f.op, f.column, [str(v) for v in (f.value if isinstance(f.value, list) else [f.value])], style="plan")
        for f in filters
    ]
    return " where " + " and ".join(parts) if parts else ""


def describe_op(op: TableOp, sheet: SheetInfo) -> str:
    """One plain sentence: "Sum of Amount Raised (USD) where Country = Canada and Date in 2021 (funding_rounds.csv)."""
    where = describe_filters(op.filters)
    if op.same_as is not None:
        reference = describe_filters([op.same_as.row])[len(" where ") :]
        where += (" and " if where else " where ") + f"{op.same_as.column} is the same as where {reference}"
    if op.distinct is not None:
        text = f"Distinct values of {op.distinct}{where}"
    elif op.aggregate is not None or op.group_by is not None:
        agg = op.aggregate or Aggregate(func="count")
        if agg.func == "count" and agg.column is None:
            what = "Number of rows"
        else:  # as the aggregate's registry entry describes it: "Average of Amount", "Number of distinct Country"
            what = AGGREGATES[agg.func].plan.format(col=agg.column)
        if op.group_by is not None:
            what = f"{what} per {op.group_by}" + (", and the difference between the two" if op.difference else "")

            if op.limit is not None:
                rank = "highest" if op.descending else "lowest"
                what = f"{what}, the {op.limit} {rank}" if op.limit > 1 else f"{what}, the {rank}"
        text = what + where
        if op.having is not None:
            bound = [str(v) for v in (op.having.value if isinstance(op.having.value, list) else [op.having.value])]
            text += ", the groups where " + describe(op.having.op, "it", bound, style="plan")
    elif op.compare is not None:
        by = f"by {op.select[0]}" if op.select else "by their order in the sheet"
        greater = "greater" if op.select else "on a later row"
        text = f"The two rows{where} compared {by} ({op.compare[0]} if the first is {greater}, else {op.compare[1]})"
    else:
        shown = ", ".join(op.select) if op.select else "rows"
        text = f"{shown} of the rows{where}" if where else shown
        if op.sort_by is not None:
            order = "highest" if op.descending else "lowest"
            text += f" with the {order} {op.sort_by}" + (f" (top {op.limit})" if op.limit and op.limit > 1 else "")
        elif op.limit is not None and op.limit < LOOKUP_LIMIT:
            which = "last" if op.from_end else "first"
            text += f", the {which} {op.limit}" if op.limit > 1 else f", the {which} one"
        if op.offset:
            text += f", then the row {'after' if op.offset > 0 else 'before'} it"
        if op.difference:
            text += ", and the difference between the two"
        text = text[0].upper() + text[1:]
    return f"{text} ({sheet.label})."
