"""Figures derived from one sheet's rows: the share of a column's total the rows a filter picks hold ("what
percentage of shares does class X hold": the sum of X's rows over the column's total, both cited)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from core.cells import parse_number
from core.errors import TableError
from core.retrieval.tables.exact import _plain
from core.retrieval.tables.frame import SheetFrame
from core.retrieval.tables.model import TableOp, TableResult
from core.retrieval.tables.run import run_table_op


def run_share(sheet: SheetFrame, op: TableOp) -> TableResult:
    """`op` (a sum of one column over the rows its filters pick) as a percentage of the same sum over every row."""
    if op.aggregate is None or op.aggregate.func != "sum" or not op.filters or op.group_by is not None:
        raise TableError("A share of a total is a filtered sum of one column over its total.")
    part = run_table_op(sheet, op)
    whole = run_table_op(sheet, op.model_copy(update={"filters": []}))
    a, b = (parse_number(r.values[0]) if len(r.values) == 1 else None for r in (part, whole))
    if a is None or b is None or b == 0:
        raise TableError(f"No share: {part.description}; {whole.description}")
    pct = (Decimal(repr(a)) / Decimal(repr(b)) * 100).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    text = f"{_plain(pct)}%"
    description = f"{part.description.rstrip('.')}, of {whole.description.rstrip('.')}: {text}"
    citations = list({c.model_dump_json(): c for c in [*part.citations, *whole.citations]}.values())
    return TableResult(
        op, part.columns, part.rows, [text], citations, whole.cited_range, whole.n_rows_used, description
    )
