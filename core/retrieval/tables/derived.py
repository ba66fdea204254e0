"""Figures derived from one sheet's rows: the share of a column's total the rows a filter picks hold ("what
percentage of shares does class X hold": the sum of X's rows over the column's total, both cited); a product of
two columns in a row and its total ("units x unit cost"); two columns compared in each row ("items below their
reorder level")."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Literal

import numpy as np

from core.cells import parse_number
from core.errors import TableError
from core.retrieval.tables.cite import MAX_CITATIONS, cite
from core.retrieval.tables.exact import _plain
from core.retrieval.tables.frame import SheetFrame, resolve_column
from core.retrieval.tables.masks import _filter_mask, _where
from core.retrieval.tables.model import TableOp, TableResult
from core.retrieval.tables.run import run_table_op


def run_share(sheet: SheetFrame, op: TableOp) -> TableResult:
    """`op` (a sum of one column over the rows its filters pick) as a percentage of the same sum over every row
    (but those its "ne" filters leave out: a "Total" row)."""
    if (
        op.aggregate is None
        or op.aggregate.func != "sum"
        or op.group_by is not None
        or all(f.op == "ne" for f in op.filters)
    ):
        raise TableError("A share of a total is a filtered sum of one column over its total.")
    part = run_table_op(sheet, op)
    whole = run_table_op(sheet, op.model_copy(update={"filters": [f for f in op.filters if f.op == "ne"]}))
    a, b = (parse_number(r.values[0]) if len(r.values) == 1 else None for r in (part, whole))
    if a is None or b is None or b == 0:
        raise TableError(f"No share: {part.description}; {whole.description}")
    pct = (Decimal(repr(a)) / Decimal(repr(b)) * 100).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    text = _plain(pct)
    description = f"{part.description.rstrip('.')}, of {whole.description.rstrip('.')}: {text}%"
    citations = list({c.model_dump_json(): c for c in [*part.citations, *whole.citations]}.values())
    return TableResult(
        op, part.columns, part.rows, [text], citations, whole.cited_range, whole.n_rows_used, description
    )


RowMath = Literal["product", "below", "above", "count_below", "count_above"]


def run_row_math(sheet: SheetFrame, op: TableOp, operation: RowMath, first: str, second: str) -> TableResult:
    """Row-wise arithmetic on two numeric columns over the rows `op`'s filters pick (every row when none):
    "product": each row's `first` x `second`, their total when several rows ("units x unit cost");
    "below" / "above": the rows whose `first` is below (above) their `second` ("items under their reorder level"),
    named by `op.select[0]`; "count_below" / "count_above": how many. Every cell read is cited."""
    a, b = resolve_column(sheet, first), resolve_column(sheet, second)
    mask = np.ones(sheet.n_rows, dtype=bool)
    filters = [(f, resolve_column(sheet, f.column)) for f in op.filters]
    for f, col in filters:
        mask &= _filter_mask(sheet, col, f)
    rows = [int(r) for r in np.flatnonzero(mask)]
    texts_a, texts_b = sheet.texts(a.position), sheet.texts(b.position)
    read = [(r, parse_number(texts_a[r] or ""), parse_number(texts_b[r] or "")) for r in rows]
    pairs = [(r, x, y) for r, x, y in read if x is not None and y is not None]
    if not pairs:
        raise TableError(f"No row{_where(filters)} has figures in both {a.name} and {b.name}.")
    where = _where(filters)
    if operation == "product":
        products = [Decimal(repr(x)) * Decimal(repr(y)) for _, x, y in pairs]
        total = sum(products, Decimal(0))
        citations = [cite(sheet, r, c) for r, _, _ in pairs for c in (a, b)]
        shown = "; ".join(f"{_plain(Decimal(repr(x)))} x {_plain(Decimal(repr(y)))}" for _, x, y in pairs[:8])
        head = f"{a.name} x {b.name}{where}"
        what = "the total over" if len(pairs) > 1 else "over"
        description = f"{head}: {shown} = {_plain(total)} ({what} {len(pairs)} row{'s' * (len(pairs) > 1)})"
        return TableResult(op, [a.name, b.name], [[texts_a[r] or "", texts_b[r] or ""] for r, _, _ in pairs],
                           [_plain(total)], citations[:MAX_CITATIONS], None, len(pairs), description)  # fmt: skip
    key = resolve_column(sheet, op.select[0]) if op.select else sheet.columns[0]
    below = operation in ("below", "count_below")
    hits = [(r, x, y) for r, x, y in pairs if (x < y if below else x > y)]
    names = [sheet.texts(key.position)[r] or "" for r, _, _ in hits]
    citations = [cite(sheet, r, c) for r, _, _ in hits for c in (key, a, b)] or [
        cite(sheet, r, c) for r, _, _ in pairs for c in (a, b)
    ]
    test = f"{a.name} {'<' if below else '>'} {b.name}"
    listed = ", ".join(f"{n} ({_plain(Decimal(repr(x)))} vs {_plain(Decimal(repr(y)))})" for n, (_, x, y) in
                       zip(names, hits, strict=True)) or "none"  # fmt: skip
    condition = f"{where} and {test}" if where else f" where {test}"
    description = f"Rows{condition}: {len(hits)} of {len(pairs)}: {listed}"
    values = [str(len(hits))] if operation.startswith("count") else names
    return TableResult(op, [key.name, a.name, b.name], [[n, texts_a[r] or "", texts_b[r] or ""] for n, (r, _, _) in
                       zip(names, hits, strict=True)], values, citations[:MAX_CITATIONS], None, len(pairs),
                       description)  # fmt: skip
