"""One table operation run on each sheet of one layout (a tab per site, per region) and the figures combined:
their total when the question asks one ("how many units across both sites"), else each sheet's, side by side."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Literal

from core.cells import parse_number
from core.errors import TableError
from core.retrieval.tables.exact import _plain
from core.retrieval.tables.frame import SheetFrame
from core.retrieval.tables.model import TableOp, TableResult
from core.retrieval.tables.run import run_table_op

Combine = Literal["sum", "each"]


def run_across(frames: Sequence[SheetFrame], labels: Sequence[str], op: TableOp, combine: Combine) -> TableResult:
    """`op` on each sheet (`labels` name them); "sum": the total of their one figure each (every cell cited),
    "each": every sheet's answer, each named by its sheet."""
    results = [run_table_op(f, op.model_copy(update={"sheet_id": f.sheet_id})) for f in frames]
    parts = [f"{label}: {r.description.rstrip('.')}" for label, r in zip(labels, results, strict=True)]
    rows = [[label, *row] for label, r in zip(labels, results, strict=True) for row in r.rows]
    citations = [c for r in results for c in r.citations]
    columns = ["Sheet", *results[0].columns]
    used = sum(r.n_rows_used for r in results)
    if combine == "each":
        values = [v for r in results for v in r.values]
        return TableResult(op, columns, rows, values, citations, None, used, "; ".join(parts))
    figures = [parse_number(r.values[0]) if len(r.values) == 1 else None for r in results]
    if any(f is None for f in figures):
        raise TableError("Each sheet must give one figure to add up: " + "; ".join(parts))
    total = sum((Decimal(repr(f)) for f in figures if f is not None), Decimal(0))
    text = _plain(total)
    description = f"{'; '.join(parts)}; in total across the {len(frames)} sheets: {text}"
    return TableResult(op, columns, rows, [text], citations, None, used, description)
