"""The execution of a measure step (core.lexicon.measures): each input cell read from its sheet, the formula
evaluated exactly, the answer led by the figure, then the formula with each input's figure, then which cells
and which convention ("0.83 = 2,913 / 3,527: the operating cash flow ratio in 2022 …")."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal
from itertools import pairwise

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
    scale = sheet_scale(sheet) or item.page_scale  # the table's unit, else the one its statement's page states
    return (abs(value) if item.name in OUTFLOWS else value), text, cite(sheet, row, column), scale


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
        if step.pick:
            return _picked(step, read, scale_of=base)
        result = evaluate(tree, values)
        if step.measure_kind == "percent":
            result *= 100
        results.append(result)
        times = " × 100" if step.measure_kind == "percent" else ""
        accounts.append(f"{render(tree, shown)}{times} in {column_period(period)}: {'; '.join(cells)}")
    if step.direction_words and len(results) == 2:
        return _moved(step, results, accounts, citations, places)
    if step.moved and len(results) > 1:
        return _changed(step, results, accounts, citations, places, f" {base}" if base else "")
    if step.steady and len(results) > 1:
        return _steady(step, results, accounts, citations, places)
    if step.compare and step.threshold and len(results) == 1:
        return _held(step, results[0], accounts[0], citations, places, f" {base}" if base else "")
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


def _picked(
    step: CellsStep, read: list[tuple[MeasureInput, Decimal, str, Citation, str]], scale_of: str
) -> CellsResult:
    """Which input is the largest (or smallest) in the period, as signed, the others beside it: "Operating
    activities: 5,591 (investing activities (1,046); financing activities (5,350)) in 2022"."""
    ranked = sorted(read, key=lambda r: r[1] * _factor(r[4]), reverse=step.pick == "max")
    (item, _, text, _, _), rest = ranked[0], ranked[1:]
    period = column_period(item.column_label)
    word = "the most" if step.pick == "max" else "the least"
    others = "; ".join(f"{r[0].label} {r[2]}" for r in rest)
    unit = f" {scale_of}" if scale_of else ""
    said = f"{item.label} brought in {word}: {text}{unit} in {period} (beside {others})"
    return CellsResult(values=[item.label], citations=[r[3] for r in read], description=f"{said}; {step.convention}")


def _changed(
    step: CellsStep, results: list[Decimal], accounts: list[str], citations: list[Citation], places: int, unit: str
) -> CellsResult:
    """The measure's change from its first period to its last: "-3.03 percentage points: the gross margin went
    from 46.84% in 2021 to 43.81% in 2022; each = …" (a percent's change in points; "pct_change": relative)."""
    first, last = results[0], results[-1]
    before, after = column_period(step.column_labels[0]), column_period(step.column_labels[-1])
    shown_before, shown_after = (_shown(_whole(_rounded(v, places)), step.measure_kind) for v in (first, last))
    if step.moved == "cagr":
        years = int(column_period(step.column_labels[-1])[-4:]) - int(column_period(step.column_labels[0])[-4:])
        if first <= 0 or last <= 0 or years < 1:
            raise MeasureUnreadable(f"no compound growth rate from {shown_before} to {shown_after}")
        change = _rounded(((last / first) ** (Decimal(1) / years) - 1) * 100, places)
        figure = f"{change:,f}% a year, compounded over {years} year{'s' if years > 1 else ''}"
    elif step.moved == "pct_change":
        if first == 0:
            raise ZeroDivisionError(f"the {step.row_label} was 0 in {before}: no percentage change")
        change = _rounded((last - first) / abs(first) * 100, places)
        figure = f"{change:,f}%"
    else:
        change = _rounded(last - first, places)
        points = " percentage points" if step.measure_kind == "percent" else ""
        figure = f"{change:,f}{points}" + (unit if step.measure_kind == "amount" else "")
    said = f"the {step.row_label} went from {shown_before} in {before} to {shown_after} in {after}"
    text = f"{figure}: {said}; each = {' | '.join(accounts)}; the {step.row_label}, {step.convention}"
    return CellsResult(values=[format(change, "f")], citations=citations, description=text)


def _whole(value: Decimal) -> Decimal:
    """A figure without decimals when it has none to show ("32,184", not "32,184.00")."""
    return value.quantize(Decimal(1)) if value == value.to_integral_value() else value


def _steady(
    step: CellsStep, results: list[Decimal], accounts: list[str], citations: list[Citation], places: int
) -> CellsResult:
    """A yes/no on whether the measure held steady: "No — the gross margin moved 3.03 points from 2021 to 2022,
    more than 2: 48.40% (2020), 46.84% (2021), 43.81% (2022); each = …". Moves are between figures as rounded."""
    figures = [_rounded(r, places) for r in results]
    periods = [column_period(p) for p in step.column_labels]
    limit = Decimal(step.steady)
    moves = [(abs(b - a), periods[i], periods[i + 1]) for i, (a, b) in enumerate(pairwise(figures))]
    largest = max(moves, key=lambda m: m[0])
    points = " points" if step.measure_kind == "percent" else ""
    each = ", ".join(f"{_shown(f, step.measure_kind)} ({p})" for f, p in zip(figures, periods, strict=True))
    if largest[0] <= limit:
        said = f"the {step.row_label} moved at most {_grouped_move(largest[0])}{points} a year, within {step.steady}"
        word = "Yes"
    else:
        said = (f"the {step.row_label} moved {_grouped_move(largest[0])}{points} from {largest[1]} to {largest[2]}, "
                f"more than {step.steady}")  # fmt: skip
        word = "No"
    text = f"{word} — {said}: {each}; each = {' | '.join(accounts)}; the {step.row_label}, {step.convention}"
    return CellsResult(values=[word], citations=citations, description=text)


def _grouped_move(value: Decimal) -> str:
    return f"{value:,.2f}"


def _held(
    step: CellsStep, result: Decimal, account: str, citations: list[Citation], places: int, unit: str
) -> CellsResult:
    """A yes/no on the measure's level, the word first and the figure behind it: "Yes — the working capital was
    5,165 in 2022, above 0; = 14,688 - 9,523 …". The figure as rounded is compared."""
    figure = _rounded(result, places)
    limit = Decimal(step.threshold)
    yes = figure < limit if step.compare == "<" else figure > limit
    test = f"{'below' if step.compare == '<' else 'above'} {_shown(limit, step.measure_kind)}"
    period = column_period(step.column_labels[0])
    word = "Yes" if yes else "No"
    amount = unit if step.measure_kind == "amount" else ""
    said = f"the {step.row_label} was {_shown(figure, step.measure_kind)}{amount} in {period}, {'' if yes else 'not '}{test}"
    text = f"{word} — {said}; = {account}; the {step.row_label}, {step.convention}"
    return CellsResult(values=[word], citations=citations, description=text)


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
