"""The ordered registry of cell rules, and `plan_cells`, the driver that tries them in order."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from core.qa.planner.cells import items, periods
from core.qa.planner.cells.grid import GridRow
from core.qa.planner.cells.reading import REFUSED, CellReading, Verdict, read_question
from core.retrieval.cellmath import CellsStep


@dataclass(frozen=True)
class CellRule:
    """A class of question and the rule that reads it: a step when it applies and the grid answers it, REFUSED
    when it applies and the grid does not (no later rule is tried), None when it does not apply."""

    name: str
    rule: Callable[[CellReading], Verdict]


def _no_line(reading: CellReading) -> Verdict:
    """Every rule after this one reads one line item across periods: with no line item named (or one whose figure
    does not answer: see `CellReading.line`), the grid gives no step."""
    return REFUSED if reading.line is None else None


# The order is part of the meaning (see the package docstring).
CELL_RULES: tuple[CellRule, ...] = (
    CellRule("two_items", items.two_items),
    CellRule("section_lines", items.section_lines),
    CellRule("no_line", _no_line),
    CellRule("threshold_periods", periods.threshold_periods),
    CellRule("counted_periods", periods.counted_periods),
    CellRule("listed_periods", periods.listed_periods),
    CellRule("which_period", periods.which_period),
    CellRule("percentage_change", periods.percentage_change),
    CellRule("change", periods.change),
    CellRule("average", periods.average),
    CellRule("total", periods.total),
    CellRule("span_total", periods.span_total),
    CellRule("value", periods.value),
    CellRule("due_within", periods.due_within),
    CellRule("named_value", periods.named_value),
)


def plan_cells(
    question: str,
    sheet_id: int,
    names: Sequence[str],
    rows: Sequence[GridRow],
    aliases: Sequence[str] = (),
    *,
    strict: bool = False,
    given_names: Sequence[str] = (),
    whole_table: bool = False,
    context: str = "",
) -> CellsStep | None:
    """A CellsStep when the question names one line item of this grid (in its words, or by one of `aliases`:
    other wordings of the figure it names) and periods of its header, or two line items and an operation between
    them. `strict` (a grid among many, chosen by the planner rather than the user): every period the question
    names must be in the header. `given_names`: the names the question gives (a company, "ACME"), which the
    caller vouches for; a side of a two-item question may hold them besides its line item. `whole_table`: the
    caller found the question to be about this table as a whole ("Which periods does the table cover?", "For
    which years were lease costs reported?" of a table headed by them), so a question of its periods that
    names no line item is read on its first line with a figure in each period. `context`: the words of the
    table's page, which a question of two listed items may hold besides theirs.

    The first rule of `CELL_RULES` that applies decides."""
    reading = read_question(
        question, sheet_id, names, rows, aliases, strict=strict, given_names=given_names, whole_table=whole_table,
        context=context,
    )  # fmt: skip
    if reading is None:
        return None
    for cell_rule in CELL_RULES:
        verdict = cell_rule.rule(reading)
        if verdict is not None:
            return verdict if isinstance(verdict, CellsStep) else None
    return None
