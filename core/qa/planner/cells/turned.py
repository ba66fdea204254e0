"""A table whose periods run down its rows, read turned as a statement (periods across, line items down), so the
cell rules can read it; a step planned on the turned reading is mapped back onto the table's own cells."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.qa.planner.cells.grid import GridRow, column_labels, filled, row_label, year_columns
from core.qa.planner.cells.words import UNIT_WORD
from core.retrieval.cellmath import CellsStep, content_words
from core.text import years_in


@dataclass(frozen=True)
class TurnedGrid:
    """A table whose periods run down its rows, read as a statement: each period a column, each line item
    (a column of the table, or a line of each dated section with its column's name) a row. `cells` maps a
    (line, period column) of this reading to the table's (row id, column name)."""

    names: list[str]
    rows: list[GridRow]
    cells: dict[tuple[int, int], tuple[int, str]]
    # the labels of the table's lines this reading leaves out: the movements between dated balances ("Granted",
    # "Vested") or a total below dated lines
    undated: list[str]

    def step(self, step: CellsStep | None, question: str) -> CellsStep | None:
        """`step`, planned on this reading, on the table's own cells (None for operations that read no cells, or
        when the question names a line this reading leaves out: "shares granted in 2019" asks for the Granted
        line, not the balance)."""
        if step is None or step.operation in ("line_items", "count_items") or step.whole_table:
            return None
        asked = content_words(question)
        if any(words and words <= asked for words in map(content_words, self.undated)):
            return None
        at = [self.names.index(name) for name in step.columns]
        cells = [self.cells.get((step.row_id, i)) for i in at]
        other = [self.cells.get((step.other_row_id, i)) for i in at] if step.other_row_id is not None else []
        if not cells or any(c is None for c in cells + other):
            return None
        found = [c for c in cells if c is not None]
        others = [c for c in other if c is not None]
        return step.model_copy(update={
            "row_id": found[0][0], "columns": [c for _, c in found], "cells": found, "other_cells": others,
            "other_row_id": others[0][0] if others else None,
        })  # fmt: skip


def turned_grid(names: Sequence[str], rows: Sequence[GridRow]) -> TurnedGrid | None:
    """The table read with its periods across, when they run down it: rows named by one year each ("2021",
    "Balances at December 31, 2017") with figures across, or headings of one year each ("December 31, 2019",
    "Year ended 30 June 2018") over sections of the same lines. None when its header holds two years or more, or
    fewer than two distinct years label its rows."""
    labels, n_header = column_labels(names, rows, 0)
    if len(year_columns(labels, 0)) >= 2:
        return None
    body = list(rows[n_header:])
    value_columns = [i for i in range(1, len(names)) if labels[i].strip()]

    label = row_label

    def figured(row: GridRow) -> bool:
        return filled(row, value_columns)

    dated = [k for k, row in enumerate(body) if len(set(years_in(label(row)))) == 1]
    if not value_columns or len({years_in(label(body[k]))[0] for k in dated}) < 2:
        return None
    undated = [label(row) for k, row in enumerate(body) if k not in dated and label(row) and figured(row)]
    turned: list[GridRow] = []
    cells: dict[tuple[int, int], tuple[int, str]] = {}
    if all(figured(body[k]) for k in dated):
        # periods down the rows, line items across ("2021 | Operating leases | Finance leases")
        periods = [label(body[k]) for k in dated]
        for j in value_columns:
            line = -(len(turned) + 1)
            values = [labels[j], *((body[k].values[j] if j < len(body[k].values) else None) for k in dated)]
            turned.append(GridRow(row_id=line, values=tuple(values)))
            cells.update({(line, p + 1): (body[k].row_id, names[j]) for p, k in enumerate(dated)})
    elif not any(figured(body[k]) for k in dated):
        # a heading per period over the same lines ("December 31, 2019" / "Transaction related", "Total")
        periods = [label(body[k]) for k in dated]
        sections = [body[k + 1 : [*dated, len(body)][n + 1]] for n, k in enumerate(dated)]
        lines = list(
            dict.fromkeys(label(row) for section in sections for row in section if label(row) and figured(row))
        )
        for item in lines:
            found = [next((row for row in section if label(row) == item), None) for section in sections]
            for j in value_columns:
                line = -(len(turned) + 1)
                values = [f"{item} {UNIT_WORD.sub('', labels[j]).strip()}",
                          *((row.values[j] if row is not None and j < len(row.values) else None) for row in found)]  # fmt: skip
                turned.append(GridRow(row_id=line, values=tuple(values)))
                cells.update({(line, p + 1): (row.row_id, names[j]) for p, row in enumerate(found) if row is not None})
        undated = []  # every line of a section is read, under its heading's period
    else:
        return None
    return TurnedGrid(names=["", *periods], rows=turned, cells=cells, undated=undated)
