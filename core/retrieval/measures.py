"""The execution of a measure step (core.lexicon.measures): each input cell read from its sheet, the formula
evaluated exactly, the answer led by the figure, then the formula with each input's figure, then which cells
and which convention ("0.83 = 2,913 / 3,527: the operating cash flow ratio in 2022 …")."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal

from core.cells import parse_number
from core.lexicon.measures import OUTFLOWS
from core.lexicon.numbers import SCALE_WORDS
from core.models import Citation
from core.retrieval.cellmath import CellsResult, CellsStep, MeasureInput, column_period, sheet_scale
from core.retrieval.formula import Ref, evaluate, parse, render
from core.retrieval.tables import SheetFrame, cite


class MeasureUnreadable(ValueError):
    """An input cell that holds no figure, or inputs whose statements state different or unknown units."""


def _read(sheets: Mapping[int, SheetFrame], item: MeasureInput) -> tuple[Decimal, str, Citation, str]:
    """The input's figure (an outflow's size), its text as printed, its citation and its statement's scale."""
    sheet = sheets[item.sheet_id]
    rows = {int(rid): i for i, rid in enumerate(sheet.row_ids())}
    column = next((c for c in sheet.columns if c.name == item.column), None)
    if item.row_id not in rows or column is None:
        raise MeasureUnreadable(f"the cell of {item.label} ({item.column_label}) is no longer in {sheet.sheet}")
    row = rows[item.row_id]
    text = (sheet.texts(column.position)[row] or "").strip()
    number = parse_number(text)
    if number is None or "%" in text:
        raise MeasureUnreadable(f"{item.label} ({item.column_label}) holds no amount: {text or '(empty)'}")
    value = Decimal(repr(number))
    return (abs(value) if item.name in OUTFLOWS else value), text, cite(sheet, row, column), sheet_scale(sheet)


def _factor(scale: str) -> Decimal:
    return Decimal(SCALE_WORDS[scale]) if scale else Decimal(1)


def _rounded(value: Decimal, places: int) -> Decimal:
    return value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def _shown(value: Decimal, kind: str) -> str:
    text = format(value, ",f")
    return f"{text}%" if kind == "percent" else f"{text} days" if kind == "days" else text


def run_measure(sheets: Mapping[int, SheetFrame], step: CellsStep) -> CellsResult:
    """The measure computed from its input cells (see the module docstring); a result with no value, saying why,
    when an input holds no amount or the inputs' statements state different units without saying both."""
    try:
        return _run(sheets, step)
    except (MeasureUnreadable, ZeroDivisionError) as exc:
        return CellsResult(values=[""], citations=[], description=f"The {step.row_label} cannot be computed: {exc}")


def _run(sheets: Mapping[int, SheetFrame], step: CellsStep) -> CellsResult:
    tree = parse(step.formula)
    places = 2 if step.places is None else step.places
    citations: list[Citation] = []
    results: list[Decimal] = []
    accounts: list[str] = []
    scales: set[str] = set()
    base = ""
    for period in step.column_labels:
        values: dict[Ref, Decimal] = {}
        shown: dict[Ref, str] = {}
        cells: list[str] = []
        read = [(item, *_read(sheets, item)) for item in step.inputs if item.period == period]
        scales |= {scale for *_, scale in read}
        if len(scales) > 1 and "" in scales:
            raise MeasureUnreadable("one input's statement states its unit and another's does not")
        base = max(scales, key=lambda s: SCALE_WORDS.get(s, 1), default="")
        for item, value, text, citation, scale in read:
            values[(item.name, item.prior)] = value * _factor(scale) / _factor(base)
            shown[(item.name, item.prior)] = text
            citations.append(citation)
            prior = f", the prior period's column ({column_period(item.column_label)})" if item.prior else ""
            cells.append(f"{item.label} {text} ({citation.ref}{prior})")
        result = evaluate(tree, values)
        if step.measure_kind == "percent":
            result *= 100
        results.append(result)
        times = " × 100" if step.measure_kind == "percent" else ""
        accounts.append(f"{render(tree, shown)}{times} in {column_period(period)}: {'; '.join(cells)}")
    if step.direction_words and len(results) == 2:
        return _moved(step, results, accounts, citations, places)
    final = _rounded(sum(results, Decimal(0)) / len(results), places)
    unit = f" {base}" if step.measure_kind == "amount" and base else ""
    asked = ""
    if step.measure_kind == "amount" and step.asked_scale and step.asked_scale != base:
        # "in USD millions" of statements in thousands: the figure in the unit asked; no stated unit: as computed
        asked = f" ({_shown(final, 'amount')}{unit or ' as computed: the statements state no unit, so it is not converted'})"
        if base:
            final = _rounded(
                sum(results, Decimal(0)) / len(results) * _factor(base) / _factor(step.asked_scale), places
            )
            unit = f" {step.asked_scale}"
    figure = _shown(final, step.measure_kind)
    if len(results) == 1:
        head = f"{figure}{unit}{asked} = {accounts[0]}"
    else:
        each = ", ".join(f"{_shown(_rounded(r, places), step.measure_kind)} ({column_period(p)})"
                         for r, p in zip(results, step.column_labels, strict=True))  # fmt: skip
        head = f"{figure}{unit}{asked}, the average of {each}; each = " + " | ".join(accounts)
    text = f"{head}; the {step.row_label}, {step.convention}"
    return CellsResult(values=[format(final, "f")], citations=citations, description=text)


def _moved(
    step: CellsStep, results: list[Decimal], accounts: list[str], citations: list[Citation], places: int
) -> CellsResult:
    """A yes/no on the measure's move, the word first and both figures behind it: "Yes — the current ratio rose
    from 1.52 in 2022 to 1.61 in 2023; each = …". Figures equal as rounded answer neither way."""
    earlier, later = (_rounded(r, places) for r in results)
    before, after = (column_period(p) for p in step.column_labels)
    shown_before, shown_after = _shown(earlier, step.measure_kind), _shown(later, step.measure_kind)
    if later == earlier:
        word, said = "No change", f"the {step.row_label} was {shown_after} in both {before} and {after}"
    else:
        word = step.direction_words[0] if later > earlier else step.direction_words[1]
        verb = "rose" if later > earlier else "fell"
        said = f"the {step.row_label} {verb} from {shown_before} in {before} to {shown_after} in {after}"
    text = f"{word} — {said}; each = {' | '.join(accounts)}; the {step.row_label}, {step.convention}"
    return CellsResult(values=[word], citations=citations, description=text)
