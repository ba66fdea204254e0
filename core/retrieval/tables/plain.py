"""A table result in plain words, as an analyst would say it: "Alice has the highest total Q1 Sales: 390 (2 rows)".

The answer opens with this lead; the operator notation of the description ("Sum of Q1 Sales by Rep where Rep !=
Total, top 1 of 4 groups by value") stays in the evidence and in the plan shown under "show the plan". A row of
totals left out of the sheet's rows ("Rep != Total") is the plan's business, not the answer's. Shapes this does
not word (two rows compared, a difference, a neighbouring row, no rows at all) give "" and the description is
the answer, as before.
"""

from __future__ import annotations

from core.lexicon.questions import TOTAL_WORDS
from core.retrieval.tables.exact import _describe_value
from core.retrieval.tables.model import Filter, TableOp, TableResult

# How a filter reads in a sentence ("with Region North", "with Amount above 100"); {col}, {v}, {low}, {high}.
_PLAIN: dict[str, str] = {
    "eq": "{col} {v}",
    "ne": "{col} other than {v}",
    "gt": "{col} above {v}",
    "ge": "{col} of at least {v}",
    "lt": "{col} below {v}",
    "le": "{col} of at most {v}",
    "contains": '{col} containing "{v}"',
    "in": "{col} {v}",
    "between": "{col} between {low} and {high}",
    "year": "{col} in {v}",
}
# An aggregate as a phrase of the sentence ("the total Q1 Sales"); count of rows has no column.
_FUNC: dict[str, str] = {
    "sum": "total {col}",
    "avg": "average {col}",
    "median": "median {col}",
    "min": "lowest {col}",
    "max": "highest {col}",
    "count": "number of {col} entries",
    "count_distinct": "number of distinct {col}",
}
# Groups or rows named before "and N more".
_NAMED = 5


def _values(f: Filter) -> list[str]:
    raw = f.value if isinstance(f.value, list) else [f.value]
    return [str(int(v)) if isinstance(v, float) and v.is_integer() else str(v) for v in raw]


def _condition(filters: list[Filter]) -> str:
    """The rows' condition in words (" with Region North and Amount above 100"), the rows of totals the plan
    leaves out unsaid."""
    parts = []
    for f in filters:
        values = _values(f)
        if f.op == "ne" and all(v.lower() in TOTAL_WORDS or v.lower().startswith("total") for v in values):
            continue
        low, high = [*values, "", ""][:2]
        joined = ", ".join(values[:-1]) + f" or {values[-1]}" if len(values) > 1 else "".join(values)
        parts.append(_PLAIN.get(f.op, "{col} {v}").format(col=f.column, v=joined, low=low, high=high))
    return " with " + " and ".join(parts) if parts else ""


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _what(op: TableOp) -> str:
    agg = op.aggregate
    if agg is None or agg.column is None:
        return "number of rows"
    return _FUNC.get(agg.func, f"{agg.func} of {{col}}").format(col=agg.column)


def _listed(items: list[str]) -> str:
    shown = items[:_NAMED]
    more = len(items) - len(shown)
    text = ", ".join(shown[:-1]) + " and " + shown[-1] if len(shown) > 1 else "".join(shown)
    return text + (f" and {more:,} more" if more else "")


def _grouped(op: TableOp, result: TableResult, where: str) -> str:
    pairs = [(row[0] or "(empty)", _describe_value(row[1])) for row in result.rows if len(row) >= 2]
    if not pairs:
        return ""
    what = _what(op)
    if op.limit is not None and (op.sort_by is None or op.sort_by.lower() == "value"):
        rank = "highest" if op.descending else "lowest"
        if len(pairs) == 1:
            label, value = pairs[0]
            return f"{label} has the {rank} {what}{where}: {value}"
        items = [f"{label} ({value})" for label, value in pairs]
        return f"The {len(pairs)} {op.group_by} values with the {rank} {what}{where}: {_listed(items)}"
    items = [f"{label} ({value})" for label, value in pairs]
    return f"The {what} by {op.group_by}{where}: {_listed(items)}"


def _aggregated(op: TableOp, result: TableResult, where: str) -> str:
    if not result.values:
        return ""
    value = _describe_value(result.values[0])
    if op.aggregate is None or op.aggregate.column is None:
        return f"There {'is' if value == '1' else 'are'} {value} row{'' if value == '1' else 's'}{where}"
    over = f", over {_plural(result.n_rows_used, 'row')}" if op.aggregate.func not in ("min", "max") else ""
    return f"The {_what(op)}{where} is {value}{over}"


def _looked_up(op: TableOp, result: TableResult, where: str) -> str:
    if op.distinct is not None:
        return f"The {op.distinct} values{where}: {_listed(result.values)}" if result.values else ""
    if not result.values or op.sort_by is not None or op.offset or op.from_end:
        return ""
    shown = ", ".join(op.select) if op.select else "The rows"
    return f"{shown}{where}: {_listed(result.values)}"


def plain_lead(result: TableResult) -> str:
    """The result in plain words (see the module), or "" when its shape is not one worded here."""
    op = result.op
    if op.compare is not None or op.difference or op.same_as is not None or op.having is not None:
        return ""
    where = _condition(op.filters)
    if op.group_by is not None:
        return _grouped(op, result, where)
    if op.aggregate is not None:
        return _aggregated(op, result, where)
    return _looked_up(op, result, where)
