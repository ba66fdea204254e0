"""Arithmetic on the named cells of a statement-like table: the execution of a `CellsStep`.

Financial statements and their notes are grids: line items down the first column ("Total sales",
"Net debt"), periods across ("2019", "2018"), header rows on top ("Years Ended September 30,").
The planner reads a question against a sheet's grid (core.qa.planner.cells) and writes a typed `CellsStep`: a
line item (or two), the columns of the periods asked and the operation (a value, a change, a percentage change,
an average, a total, a share...). `run_cells` reads those cells from the stored sheet and computes the result
exactly (decimal arithmetic), in the statement's unit or the one asked, citing every cell it used.

The words of a label (`word_list`, `content_words`) and the split fiscal year (`split_end`) are read the same way
by the planner and here, so they live here, below both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, localcontext
from typing import Literal

from pydantic import BaseModel, ConfigDict

from core.cells import parse_number
from core.errors import TableError
from core.lexicon.numbers import SCALE_WORDS
from core.lexicon.periods import COLUMN_SPANS, WRITTEN_DATE, YEAR_DIGITS, written_day
from core.models import Citation
from core.retrieval.tables import Column, SheetFrame, cite
from core.text import STOP_WORDS, year_mentions

Operation = Literal[
    "value",
    "change",
    "pct_change",
    "average",
    "sum",
    "argmax",
    "argmin",
    "share",
    "ratio",
    "items_difference",
    "items_values",
    "items_sum",
    "items_average",
    "where",
    "count_where",
    "periods",
    "line_items",
    "count_items",
    "variance",
    "measure",
    "rank_items",
    "count_items_where",
]
# Operations on two line items of one period: A as a percentage of B, A over B, A minus B; the figures of A and
# B ("the respective rents and wages for 2016"), their total and their average.
LISTED_OPERATIONS = ("items_values", "items_sum", "items_average")
ITEM_OPERATIONS = ("share", "ratio", "items_difference", *LISTED_OPERATIONS)

# The words of a label or a question, and those that name nothing (`content_words` leaves them out).
WORD = re.compile(r"[a-z0-9]+")
# ("s" is what is left of a possessive: "ACME’s total assets")
STOP = STOP_WORDS | frozenset("would respectively year years fiscal during between end period s".split())


class MeasureInput(BaseModel):
    """One input cell of a measure: the input's name in the formula, the cell (sheet, row, column) and how the
    statement labels it, the period as its header names it, and whether it is the prior period's figure."""

    model_config = ConfigDict(frozen=True)

    name: str
    prior: bool = False
    sheet_id: int
    row_id: int
    column: str
    column_label: str  # the column's header text ("2021", "Sep")
    label: str
    period: str  # the period asked this input serves (a prior balance serves the period after its own)
    # the scale word ("million") a primary statement's page states above the table, for a table stating none
    page_scale: str = ""


class CellsStep(BaseModel):
    """Arithmetic on named cells of one sheet: one line item (row) across periods (columns)."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["cells"] = "cells"
    sheet_id: int
    operation: Operation
    row_id: int
    row_label: str
    columns: list[str]  # sheet column names, in period order for change (old, new) or as asked
    column_labels: list[str]  # how the question's periods read in the header ("2019")
    reason: str = ""
    # The second line item of a two-item operation (share, ratio, items_difference): B of "A as a % of B".
    other_row_id: int | None = None
    other_label: str = ""
    # The test of "where" / "count_where": the periods in which the line item is below ("<") or above (">") a figure.
    compare: Literal["", "<", ">"] = ""
    threshold: str = ""
    # A yes/no on whether a measure held steady over its periods: the most it may move from one to the next (in
    # points of a percent, or in its own unit), "" when not asked.
    steady: str = ""
    # Which of a measure's inputs is the largest ("max") or smallest ("min") in its period, asked instead of its
    # figure: "which of operating, investing and financing activities brought in the most cash".
    pick: Literal["", "max", "min"] = ""
    # The measure's change from its first period to its last, asked instead of its figure: "change" (a percent's
    # in points), "pct_change" (relative to the first) or "cagr" (its compound annual growth rate).
    moved: Literal["", "change", "pct_change", "cagr"] = ""
    # The unit the question asks its amount in ("Answer in USD billions"): "billion", or "" when none is asked.
    asked_scale: str = ""
    # "periods" of a table asked as a whole ("Which periods does this table cover?"): read on its first full line.
    whole_table: bool = False
    # "line_items" / "count_items": the lines under the heading (or above the total) `row_id`, in table order.
    item_row_ids: list[int] = []
    # A table read turned (`turned_grid`: periods down the rows, items across): the (row id, column name) of each
    # period's cell, and of the second line item's cell; `columns` then name each cell's column.
    cells: list[tuple[int, str]] = []
    other_cells: list[tuple[int, str]] = []
    # "variance": the second cell is on another sheet of the same layout (the Plan tab against the Actual tab):
    # `other_cells[0]` is read there; the answer is the difference (this sheet's figure minus that one) and it as
    # a percentage of that one.
    other_sheet_id: int | None = None
    # "measure" (core.lexicon.measures): the formula over the inputs' names, its inputs' cells (possibly in
    # several sheets: a filing's cash flow statement and balance sheet), the kind of result, the convention said
    # in the answer, and the decimal places asked (None: two). Each period of `column_labels` is computed and,
    # with more than one ("the three-year average"), averaged.
    formula: str = ""
    inputs: list[MeasureInput] = []
    measure_kind: str = ""
    convention: str = ""
    places: int | None = None
    # A yes/no on the change ("Did X increase?"): the answer's word if the line rose, and if it fell ("Yes", "No";
    # "Increased", "Decreased"); [] for a change asked as a figure.
    direction_words: list[str] = []
    # "change" asked as how much the line fell ("how much did fees decrease by": 40 when they went from 140 to
    # 100), the earlier figure minus the later; False for the later minus the earlier.
    decrease: bool = False
    # "rank_items": which of the rows `item_row_ids` (named `item_labels`) holds the most ("max") or the least
    # ("min") in `columns` (added up per row when several): "which region sold the most in Q4".
    item_labels: list[str] = []
    # "value" (of one period) or "change" the document's prose states in its own unit ("licence income rose $42.7
    # million" over a table in thousands whose change is 42,693): that figure as written is the answer ("" when
    # none does).
    stated: str = ""
    # Every content word of the question was bound by the reading that planned the step (the sheet model's:
    # core/qa/planner/facts.py) to its row, columns, period or sheet: the later checks of unread words skip it.
    read_whole: bool = False
    # "value" of an outflow line asked by the spending's name ("capex" read on "Purchases of property and
    # equipment (1,659)"): the amount spent is the figure's size, not a negative number; a yes/no on its move
    # ("Did capex decrease?") compares the sizes.
    outflow: bool = False


@dataclass(frozen=True)
class CellsResult:
    """The computed answer, its one-line account and the cells it used."""

    values: list[str]
    description: str
    citations: list[Citation]


NON = re.compile(r"\bnon[\s\-‐–]+(?=[a-z])")


def word_list(text: str) -> list[str]:
    """The words of a label or a question as a line item is matched: lower-cased, singular, without footnote marks
    or small numbers."""
    out = []
    # "non-vested" is one word, not "vested": "Non-current" and "non current" are "noncurrent" wherever written
    for word in WORD.findall(NON.sub("non", text.lower())):
        if word.isdigit() and len(word) < 4:
            continue  # footnote marks and small numbers
        word = re.sub(r"(?<=[a-z])\d+$", "", word)  # "intake1" (a footnote mark) -> "intake"
        if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        out.append(word)
    return out


def content_words(text: str) -> set[str]:
    """The words of `text` that can name a line item (`word_list` without stop words)."""
    return {w for w in word_list(text) if w not in STOP}


# A fiscal year across two calendar years: "2017/2018", "2018/19", "2012-13"; it is the year it ends in.
SPLIT_YEAR = re.compile(rf"(?<!\d)({YEAR_DIGITS})\s*[/–-]\s*((?:19|20)?\d\d)(?!\d)")


def split_end(label: str) -> str | None:
    """The year a split fiscal year ends in ("2018/19" -> "2019"), or None."""
    m = SPLIT_YEAR.search(label)
    if not m:
        return None
    start, end = m.group(1), m.group(2)
    end = end if len(end) == 4 else start[:2] + end
    return end if int(end) == int(start) + 1 else None


# A footnote mark glued to a label: "Amounts owed by subsidiaries1", "Other items(1)".
_FOOTNOTE = re.compile(r"(?<=[a-z])\d{1,2}$|\s*\(\d{1,2}\)$")


# A statistics office's flag after a figure: "11,436e" (estimate), "5,697r" (revised), "1,204p" (preliminary),
# "87 E" (use with caution); and the marks of a figure not published: "x", "..", "...", "F" (too unreliable).
FLAGGED = re.compile(r"(?P<figure>[-+(]?[\d,]*\d(?:\.\d+)?\)?%?)\s?(?P<flag>[erpE])")
SUPPRESSED = re.compile(r"x|X|\.\.\.?|F")


def unflagged(text: str) -> str:
    """A cell's figure without a statistics flag after it ("11,436e" -> "11,436"); other text as it is."""
    found = FLAGGED.fullmatch(text.strip())
    return found.group("figure") if found and parse_number(found.group("figure")) is not None else text


def _decimal(text: str) -> Decimal:
    value = parse_number(text)
    assert value is not None
    return Decimal(repr(value))


def _plain(d: Decimal) -> str:
    text = format(d.normalize(), "f")
    return "0" if text in ("-0", "0") else text


def _round2(d: Decimal) -> Decimal:
    with localcontext() as ctx:
        ctx.prec = 50
        return d.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def column_period(label: str) -> str:
    """A column's period as the source names it: "2019" from "Fiscal 2019", "2018/19" kept whole, "F19" as
    written ("2 0 1 8" is 2018)."""
    split = SPLIT_YEAR.search(label)
    if split and split_end(label):
        return split.group(0).replace(" ", "")
    mentions = year_mentions(label)
    if not mentions:
        return label
    year, written = mentions[0]
    return written if written[:1].isalpha() and " " not in written else year


# A column of part of a year headed by its span and end ("Three Months Ended July 29, 2026"): its year alone would
# name the calendar year, not the quarter (nor the fiscal year asked, which may be the next).
_SPAN_ENDED = re.compile(
    rf"(?P<span>(?:{'|'.join(span.pattern for span in COLUMN_SPANS)})(?:\s+\w+)?\s+ended)\s+(?P<date>{WRITTEN_DATE})",
    re.I,
)


def _spoken_period(label: str) -> str:
    """A column's period as an answer names it: "the three months ended July 29, 2026" for a column of part of a
    year headed so, else its year (`column_period`)."""
    m = _SPAN_ENDED.search(" ".join(label.split()))
    if m:
        return f"the {m.group('span').lower()} {m.group('date')}"
    # a balance dated at a quarter's or a fiscal year's end ("July 29, 2026"): its year alone would name the calendar
    # year, or another fiscal year (a calendar year's end, "December 31, 2026", is its year)
    day = written_day(label)
    return " ".join(label.split()) if day is not None and (day.month, day.day) != (12, 31) else column_period(label)


def _at(period: str) -> str:
    """A figure's period with its preposition: "in 2026", "at July 29, 2026" (a balance at a date)."""
    return f"{'at' if written_day(period) is not None else 'in'} {period}"


_SCALES = "|".join(f"{word}s" for word in SCALE_WORDS)  # "thousands|millions|billions"
# The unit a statement states above its figures: "(in millions, except per share amounts)", "In thousands",
# "(Millions)", "(Millions, except per share amounts)".
_UNIT = re.compile(
    rf"\bin\s+({_SCALES})(?:\s+of\s+(?:u\.?s\.?\s+)?(dollars|euros|pounds))?|"
    rf"\(\s*(?:\$\s*)?({_SCALES})\s*(?:\)|,[^)]*\))",
    re.I,
)
_LABEL_ROWS_READ = 40  # rows read to tell a label column from a column of figures


def stated_unit(caption: str | None) -> str | None:
    """ "in millions" (or "in millions of dollars") when the sheet's title states the unit of its figures."""
    found = _UNIT.search(caption or "")
    if found is None:
        return None
    scale = (found.group(1) or found.group(3)).lower()
    return " ".join(["in", scale, *(["of", found.group(2).lower()] if found.group(2) else [])])


def sheet_unit(sheet: SheetFrame) -> str | None:
    """The unit a sheet states for its figures: in its title, else in the header of its label column, where a
    statement often prints it on the line of its period headings ("(Millions)  2018  2017"). The label
    column is the first one, and only when it holds no figures: a unit in a figure column's header ("Revenue
    (millions)") is that column's alone."""
    unit = stated_unit(sheet.caption)
    if unit or not sheet.columns:
        return unit
    first = sheet.columns[0]
    texts = sheet.texts(first.position)[:_LABEL_ROWS_READ]
    if any(parse_number(t or "") is not None for t in texts):
        return None
    return stated_unit(first.name)


# Lines whose figures are no amounts in the statement's unit: ratios, rates, margins, per-share figures, days.
_NO_SCALE = re.compile(
    r"\bratios?\b|\brates?\b|\bmargins?\b|per[\s-]+share|\bpercent|%|\bdays\b|\btimes\b|\bturnover\b|\byield\b",
    re.I,
)


def sheet_scale(sheet: SheetFrame) -> str:
    """The scale word of the unit a sheet states ("in millions" -> "million"), or ""."""
    unit = sheet_unit(sheet)
    return unit.split()[1].rstrip("s") if unit else ""


_PAGE_TOP = 400


def page_scale(page_text: str) -> str:
    """The scale word of the one unit a page states at its top ("Consolidated Statements of Cash Flows $ in
    millions"), or "" (none, or two different ones)."""
    scales = {(m.group(1) or m.group(3)).lower().rstrip("s") for m in _UNIT.finditer(page_text[:_PAGE_TOP])}
    return next(iter(scales)) if len(scales) == 1 else ""


def _figure(text: str, scale: str) -> str:
    """A cell's figure as an analyst writes it: "$ 86,392" of a statement in millions -> "$86,392 million"."""
    shown = re.sub(r"([$€£¥])\s+", r"\1", text.strip()) or "(empty)"
    return f"{shown} {scale}" if scale and "%" not in text and parse_number(text) is not None else shown


def _grouped(d: Decimal, scale: str = "") -> str:
    """A computed figure with thousands separators (and the statement's scale): 6918 -> "6,918 million"."""
    text = format(d.normalize(), ",f")
    text = "0" if text in ("-0", "0") else text
    return f"{text} {scale}" if scale else text


# A unit's size in the units of its currency or count: what a figure in it is worth (cents are a hundredth).
_UNIT_SIZE = {"": Decimal(1), "unit": Decimal(1), "cent": Decimal("0.01"), "thousand": Decimal(1000),
              "million": Decimal(10**6), "billion": Decimal(10**9)}  # fmt: skip


def cell_unit(sheet: SheetFrame, step: CellsStep) -> tuple[str, bool] | None:
    """The unit of the step's cells as the sheet's model reads it (core.sheetmodel: the row's own "(cents)", else
    the column's, else the table's scale), as a scale word ("million", "cent", "" for units) and whether it is a
    scale of amounts that a question's "in dollars" or "in thousands" converts; None without a model, or when the
    cells are in several units."""
    model = sheet.model
    if model is None or step.cells or step.operation in ITEM_OPERATIONS:
        return None
    rows = sheet.row_ids()
    index = {int(rid): i for i, rid in enumerate(rows)}
    if step.row_id not in index:
        return None
    number = int(sheet.row_numbers()[index[step.row_id]])
    letters = {c.name: c.letter for c in sheet.columns}
    units = {model.unit_of(number, letters[name]) for name in step.columns if name in letters}
    if len(units) != 1:
        return None
    unit = units.pop()
    if unit is None:  # the sheet states no unit: nothing to convert from (the figure is given as stated)
        return None
    unit = unit.lower()
    word = {"thousands": "thousand", "millions": "million", "billions": "billion", "cents": "cent"}.get(unit)
    if word is not None:
        return word, True
    return ("", True) if unit in ("$", "usd") else (unit, False)


def run_cells(sheet: SheetFrame, step: CellsStep, other: SheetFrame | None = None) -> CellsResult:
    """Read the step's cells from the stored sheet and compute its answer exactly; the description names the
    line item, the periods as the header names them and the figures in the statement's unit, and the answer in
    the unit the question asks ("in USD billions") when the statement states its own. `other`: the sheet of
    `step.other_sheet_id` (a variance against another tab)."""
    if step.operation == "variance":
        return _run_variance(sheet, step, other)
    result = _run_cells(sheet, step)
    if step.outflow and step.operation == "value":
        result = _sizes(result)
    scale = sheet_scale(sheet)
    amounts = all(parse_number(v) is not None and "%" not in v for v in result.values)
    modelled = cell_unit(sheet, step)
    if modelled is not None and step.asked_scale and step.operation in _AMOUNTS and amounts:
        return _converted(result, step.asked_scale, *modelled)
    if step.asked_scale and not scale and step.operation in _AMOUNTS and amounts:
        note = f" (the sheet states no unit: the figure is as stated, not converted to {step.asked_scale}s)"
        return CellsResult(values=result.values, citations=result.citations, description=result.description + note)
    if not step.asked_scale or not scale or step.asked_scale == scale or step.operation not in _AMOUNTS:
        return result
    if step.asked_scale not in _SCALE_RANK or scale not in _SCALE_RANK:  # whole dollars or cents asked
        return _converted(result, step.asked_scale, scale, amounts)
    factor = Decimal(1000) ** (_SCALE_RANK[scale] - _SCALE_RANK[step.asked_scale])
    converted = []
    for value in result.values:
        number = parse_number(value)
        if number is None or "%" in value:
            return result  # a percentage, or no figure: nothing to convert
        symbol = m.group() if (m := re.search(r"[$€£¥]", value)) else ""
        amount = _round2(Decimal(repr(number)) * factor)
        converted.append(f"{'-' if amount < 0 else ''}{symbol}{_grouped(abs(amount))}")
    shown = ", ".join(f"{v} {step.asked_scale}" for v in converted)
    return CellsResult(values=converted, citations=result.citations,
                       description=f"{result.description}; in {step.asked_scale}s, as asked: {shown}")  # fmt: skip


def _converted(result: CellsResult, asked: str, unit: str, convertible: bool) -> CellsResult:
    """The figures in the unit asked ("in dollars" of a line in cents, "in thousands" of a table in millions)."""
    # cents convert to dollars and scales to scales, never one into the other ("cents" asked "in millions")
    mismatched = (unit == "cent") != (asked in ("cent", "unit")) and unit != "" and asked != "unit"
    if not convertible or unit not in _UNIT_SIZE or asked not in _UNIT_SIZE or mismatched:
        note = f" (in {unit or 'units'}, as the sheet states: not converted to {asked}s)"
        return CellsResult(values=result.values, citations=result.citations, description=result.description + note)
    if unit == asked or (unit == "" and asked == "unit"):
        return result
    factor = _UNIT_SIZE[unit] / _UNIT_SIZE[asked]
    converted = []
    for value in result.values:
        number = parse_number(value)
        if number is None:
            return result
        amount = (Decimal(repr(number)) * factor).normalize()
        converted.append(_plain(amount))
    named = "dollars" if asked == "unit" else f"{asked}s"
    return CellsResult(values=converted, citations=result.citations,
                       description=f"{result.description}; in {named}, as asked: {', '.join(converted)}")  # fmt: skip


_SIGNED = re.compile(r"^\s*(?:-\s*(?P<m>[$€£¥]?\s*[\d.,]+)|(?P<c>[$€£¥]?)\s*\(\s*(?P<b>[$€£¥]?\s*[\d.,]+)\s*\))\s*$")


def _sizes(result: CellsResult) -> CellsResult:
    """An outflow's figures as the amounts spent: "(1,659)" and "-1,659" read 1,659, and the account says so."""
    sized = []
    for value in result.values:
        found = _SIGNED.match(value)
        sized.append(found.group("m") or f"{found.group('c')}{found.group('b')}" if found else value)
    if sized == result.values:
        return result
    note = " (an outflow, printed in brackets: the amount spent is its size)"
    return CellsResult(values=sized, citations=result.citations, description=result.description + note)


_SCALE_RANK = {word: rank for rank, word in enumerate(SCALE_WORDS, 1)}  # thousand 1, million 2, billion 3
# Operations whose answer is an amount in the statement's unit (not a percentage, a ratio, a period or a count).
_AMOUNTS = frozenset({"value", "change", "sum", "average", "items_difference"})


def _run_cells(sheet: SheetFrame, step: CellsStep) -> CellsResult:
    """The step's answer in the statement's own unit."""
    row_ids = sheet.row_ids()
    if step.operation in ("line_items", "count_items"):
        return _run_line_items(sheet, step, [int(r) for r in row_ids])
    if step.operation == "rank_items":
        return _run_ranked(sheet, step, [int(r) for r in row_ids])
    if step.operation == "count_items_where":
        return _run_items_where(sheet, step, [int(r) for r in row_ids])
    index = {int(rid): i for i, rid in enumerate(row_ids)}
    by_name = {c.name: c for c in sheet.columns}

    def cell(row_id: int, name: str) -> tuple[int, Column]:
        if row_id not in index:
            raise LookupError(f"row {row_id} is no longer in sheet {sheet.sheet}")
        return index[row_id], by_name[name]

    pairs = [cell(r, c) for r, c in step.cells] if step.cells else [cell(step.row_id, n) for n in step.columns]
    columns = [c for _, c in pairs]
    raw = [sheet.texts(c.position)[r] or "" for r, c in pairs]
    citations = [cite(sheet, r, c) for r, c in pairs]
    suppressed = [t for t in raw if SUPPRESSED.fullmatch(t.strip())]
    if suppressed:  # a statistics table's "x", "..", "F": the figure is not published, none is given
        return CellsResult(values=[], citations=citations,
                           description=f"{step.row_label}: the cell reads “{suppressed[0].strip()}”, a figure not "
                                       "published (suppressed or too unreliable), so none is given")  # fmt: skip
    texts = [unflagged(t) for t in raw]  # "11,436e" is 11,436 (flagged e: an estimate)
    flags = sorted({m.group("flag") for t in raw if (m := FLAGGED.fullmatch(t.strip()))})
    periods = [_spoken_period(label) for label in step.column_labels]
    scale = sheet_scale(sheet)
    modelled = cell_unit(sheet, step)
    if modelled is not None:  # the row's own unit ("(cents)", "per share") over the table's scale
        scale = modelled[0] + ("s" if modelled[0] == "cent" else "")
    points = any("%" in t for t in texts)
    if points or (modelled is None and _NO_SCALE.search(step.row_label)):
        # percentages carry no scale (their differences are percentage points), nor does a ratio, a rate or a
        # per-share line in a table of millions: "Current ratio 1.5" is no 1.5 million
        scale = ""
    if step.operation in ITEM_OPERATIONS:
        other = cell(*step.other_cells[0]) if step.other_cells else cell(step.other_row_id or 0, columns[0].name)
        return _run_items(sheet, step, other, texts[0], citations[0], periods[0], scale, points)
    read = _Read(texts, citations, periods, [_figure(t, scale) for t in texts], scale, points)
    if step.operation == "periods":
        return _run_periods(step, read)
    if step.operation in ("where", "count_where"):
        return _run_where(step, read)
    if step.operation == "value" and step.stated and len(texts) == 1:
        return CellsResult(values=[step.stated], citations=citations,
                           description=f"{step.row_label} was {read.figures[0]} {_at(periods[0])}, which the text "
                                       f"states as {step.stated}")  # fmt: skip
    if step.operation == "value":
        shown = " and ".join(f"{f} {_at(p)}" for p, f in zip(periods, read.figures, strict=True))
        noted = f" (the table flags it {', '.join(flags)})" if flags else ""
        return CellsResult(values=[t for t in texts], description=f"{step.row_label} was {shown}{noted}",
                           citations=citations)  # fmt: skip
    return _run_arithmetic(step, read)


@dataclass(frozen=True)
class _Read:
    """The cells of a one-line step as read: their texts, citations, periods (as the source names them), figures
    (in the statement's unit), that unit's scale word and whether they are percentages."""

    texts: list[str]
    citations: list[Citation]
    periods: list[str]
    figures: list[str]
    scale: str
    points: bool


def _named_periods(step: CellsStep) -> list[str]:
    """The columns' periods as answers to "which year" name them ("2026", not "July 31, 2026"); the step's own
    names of its columns when it gives one for each ("Jun 2025" for "which month", "1–5 years" for "which bucket")."""
    if step.operation in ("argmax", "argmin") and len(step.item_labels) == len(step.column_labels):
        return list(step.item_labels)
    return [column_period(label) for label in step.column_labels]


def _run_periods(step: CellsStep, read: _Read) -> CellsResult:
    """The periods a line (or a table asked as a whole) gives figures for."""
    label, periods, citations = step.row_label, _named_periods(step), read.citations
    shown = ", ".join(f"{p} ({f})" for p, f in zip(periods, read.figures, strict=True))
    if step.whole_table:
        return CellsResult(values=periods, citations=citations,
                           description=f"The table gives figures for {' and '.join(periods)} ({label}: {shown})")  # fmt: skip
    return CellsResult(values=periods, citations=citations, description=f"{label} is given for {shown}")


def _run_where(step: CellsStep, read: _Read) -> CellsResult:
    """The periods in which the line is below or above the step's threshold, or their number."""
    label, texts, periods, citations = step.row_label, read.texts, _named_periods(step), read.citations
    limit = Decimal(step.threshold)
    hits = [i for i, t in enumerate(texts) if (_decimal(t) < limit if step.compare == "<" else _decimal(t) > limit)]
    test = f"{'below' if step.compare == '<' else 'above'} {_grouped(limit)}"
    cells = ", ".join(f"{p}: {f}" for p, f in zip(periods, read.figures, strict=True))
    chosen = [citations[i] for i in hits] or citations
    if step.operation == "count_where":
        return CellsResult(values=[str(len(hits))], citations=citations,
                           description=f"{label} was {test} in {len(hits)} of {len(texts)} periods ({cells})")  # fmt: skip
    names = [periods[i] for i in hits]
    found = (", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)) or "none of the periods"
    return CellsResult(values=[periods[i] for i in hits], citations=chosen,
                       description=f"{label} was {test} in {found} ({cells})")  # fmt: skip


def _run_arithmetic(step: CellsStep, read: _Read) -> CellsResult:
    """The period of the largest or smallest figure, the (percentage) change from the first period to the last,
    or the total or average over the periods."""
    label, periods, figures, citations, scale = step.row_label, read.periods, read.figures, read.citations, read.scale
    numbers = [_decimal(t) for t in read.texts]
    cells = ", ".join(f"{p}: {f}" for p, f in zip(periods, figures, strict=True))
    if step.operation in ("argmax", "argmin"):
        periods = _named_periods(step)  # "which year": a period's name, not a balance's date
        cells = ", ".join(f"{p}: {f}" for p, f in zip(periods, figures, strict=True))
        pick = max if step.operation == "argmax" else min
        best = pick(range(len(numbers)), key=lambda i: numbers[i])
        word = "largest" if step.operation == "argmax" else "smallest"
        return CellsResult(values=[periods[best]], citations=citations,
                           description=f"{label} was {word} in {periods[best]} ({cells})")  # fmt: skip
    if step.operation in ("change", "pct_change"):
        old, new = numbers[0], numbers[-1]
        change = new - old
        span = f"{label} from {periods[0]} ({figures[0]}) to {periods[-1]} ({figures[-1]})"
        if step.direction_words:
            # a spending printed in brackets moved by its size: "(1,373)" to "(1,577)" is more spent
            return _direction(step, read, abs(new) - abs(old) if step.outflow else change)
        if step.operation == "change" and step.decrease:
            return _decrease(step, read, change)
        if step.operation == "change" and step.stated:
            return CellsResult(values=[step.stated], citations=citations,
                               description=f"the change in {span} is {_grouped(change, scale)}, which the text "
                                           f"states as {step.stated}")  # fmt: skip
        if step.operation == "change":
            return CellsResult(values=[_plain(change)], citations=citations,
                               description=f"the change in {span} is {_grouped(change, scale)}"
                                           f"{' percentage points' if read.points else ''}")  # fmt: skip
        if old == 0:
            raise ZeroDivisionError(f"{label} was 0 in {periods[0]}: no percentage change")
        pct = _round2(change / old * 100)  # over the old value as signed, as statements' notes compute it
        return CellsResult(values=[_plain(pct)], citations=citations,
                           description=f"the percentage change in {span} is {_plain(pct)}%")  # fmt: skip
    total = sum(numbers, Decimal(0))
    if step.operation == "sum":
        return CellsResult(values=[_plain(total)], citations=citations,
                           description=f"the total of {label} over {cells} is {_grouped(total, scale)}")  # fmt: skip
    average = _round2(total / len(numbers))
    return CellsResult(values=[_plain(average)], citations=citations,
                       description=f"the average of {label} over {cells} is {_grouped(average, scale)}")  # fmt: skip


def _decrease(step: CellsStep, read: _Read, change: Decimal) -> CellsResult:
    """A change asked as a decrease: the earlier figure minus the later, said with the way the line moved ("Fees
    were 40 lower in 2022 (100) than in 2021 (140)"; a rise is a negative decrease, and is said so)."""
    periods, figures, scale = read.periods, read.figures, read.scale
    points = " percentage points" if read.points else ""
    if change == 0:
        said = f"{step.row_label} was the same in {periods[0]} ({figures[0]}) and {periods[-1]} ({figures[-1]})"
    else:
        word = "higher" if change > 0 else "lower"
        said = (f"{step.row_label} was {_grouped(abs(change), scale)}{points} {word} in {periods[-1]} ({figures[-1]}) "
                f"than in {periods[0]} ({figures[0]})")  # fmt: skip
    if change > 0:
        said += f": a decrease of {_grouped(-change, scale)}{points}"
    return CellsResult(values=[_plain(-change)], citations=read.citations, description=said)


def _direction(step: CellsStep, read: _Read, change: Decimal) -> CellsResult:
    """A yes/no on the line's change, in plain words first: "Yes — Net sales increased from 2021 (4,700) to 2022
    (4,900)"; both cells cited. No change at all answers neither way."""
    periods, figures = read.periods, read.figures
    if change == 0:
        word, moved = "No change", "was unchanged"
    else:
        word = step.direction_words[0] if change > 0 else step.direction_words[1]
        moved = "increased" if change > 0 else "decreased"
    lead = f"{word} — {step.row_label} went" if word.lower() == moved else f"{word} — {step.row_label} {moved}"
    return CellsResult(values=[word], citations=read.citations,
                       description=f"{lead} from {periods[0]} ({figures[0]}) to {periods[-1]} ({figures[-1]})")  # fmt: skip


def _run_line_items(sheet: SheetFrame, step: CellsStep, row_ids: list[int]) -> CellsResult:
    """The labels of a section's (or a total's) lines, each cited, or their count."""
    where = {rid: i for i, rid in enumerate(row_ids)}
    missing = [rid for rid in step.item_row_ids if rid not in where]
    if missing:
        raise LookupError(f"row {missing[0]} is no longer in sheet {sheet.sheet}")
    column = sheet.columns[0]
    rows = [where[rid] for rid in step.item_row_ids]
    # a footnote mark glued to a label ("Amounts owed by subsidiaries1", "Other items(1)") is not its name
    labels = [_FOOTNOTE.sub("", (sheet.texts(column.position)[i] or "").strip()) for i in rows]
    citations = [cite(sheet, i, column) for i in rows]
    shown = ", ".join(labels[:-1]) + " and " + labels[-1]
    relation = "making up" if "total" in content_words(step.row_label) else "under"
    head = step.row_label.rstrip(":")
    if step.operation == "count_items":
        return CellsResult(values=[str(len(labels))], citations=citations,
                           description=f"{len(labels)} line items are listed {relation} {head}: {shown}")  # fmt: skip
    return CellsResult(values=labels, citations=citations,
                       description=f"The line items {relation} {head} are {shown}")  # fmt: skip


def _run_ranked(sheet: SheetFrame, step: CellsStep, row_ids: list[int]) -> CellsResult:
    """The row of `item_row_ids` with the most (``pick`` "max") or least in the step's columns, named by its label
    in `item_labels`; every cell read is cited. A tie names no row."""
    where = {rid: i for i, rid in enumerate(row_ids)}
    by_name = {c.name: c for c in sheet.columns}
    if any(rid not in where for rid in step.item_row_ids):
        raise LookupError(f"a row of {step.row_label} is no longer in sheet {sheet.sheet}")
    totals: list[Decimal] = []
    citations = []
    for rid in step.item_row_ids:
        cells = [(where[rid], by_name[name]) for name in step.columns]
        figures = [_decimal(sheet.texts(col.position)[i] or "") for i, col in cells]
        totals.append(sum(figures, Decimal(0)))
        citations += [cite(sheet, i, col) for i, col in cells]
    best = max(totals) if step.pick != "min" else min(totals)
    winners = [label for label, total in zip(step.item_labels, totals, strict=True) if total == best]
    listed = "; ".join(f"{label}: {_grouped(t)}" for label, t in zip(step.item_labels, totals, strict=True))
    word = "least" if step.pick == "min" else "most"
    period = ", ".join(step.column_labels)
    if len(winners) != 1:
        return CellsResult(values=[], citations=citations,
                           description=f"{' and '.join(winners)} tie for the {word} in {period} ({listed})")  # fmt: skip
    return CellsResult(values=winners, citations=citations,
                       description=f"{winners[0]} had the {word} of {step.row_label} in {period} ({listed})")  # fmt: skip


def _run_items_where(sheet: SheetFrame, step: CellsStep, row_ids: list[int]) -> CellsResult:
    """How many of the rows `item_row_ids` (named `item_labels`) have a figure in the step's column below or above
    its threshold; every cell read is cited, the rows counted named."""
    where = {rid: i for i, rid in enumerate(row_ids)}
    if any(rid not in where for rid in step.item_row_ids):
        raise LookupError(f"a row of {step.row_label} is no longer in sheet {sheet.sheet}")
    column = {c.name: c for c in sheet.columns}[step.columns[0]]
    limit = Decimal(step.threshold)
    citations, counted = [], []
    for rid, label in zip(step.item_row_ids, step.item_labels, strict=True):
        i = where[rid]
        figure = _decimal(sheet.texts(column.position)[i] or "")
        citations.append(cite(sheet, i, column))
        if figure < limit if step.compare == "<" else figure > limit:
            counted.append(label)
    test = f"{'below' if step.compare == '<' else 'above'} {_grouped(limit)}"
    named = ", ".join(counted) or "none"
    return CellsResult(values=[str(len(counted))], citations=citations,
                       description=f"{len(counted)} of {len(step.item_row_ids)} {step.row_label} had "
                                   f"{step.column_labels[0]} {test}: {named}")  # fmt: skip


def _run_items(
    sheet: SheetFrame,
    step: CellsStep,
    other: tuple[int, Column],
    text: str,
    citation: Citation,
    period: str,
    scale: str,
    points: bool,
) -> CellsResult:
    """A two-item operation: both cells of the period read (`other`: the second item's row and column), their
    figures, or the share, ratio, difference, total or average computed exactly."""
    other_text = sheet.texts(other[1].position)[other[0]] or ""
    citations = [citation, cite(sheet, *other)]
    a, b = _decimal(text), _decimal(other_text)
    both = (f"{step.row_label} ({_figure(text, '' if points else scale)}) and {step.other_label} "
            f"({_figure(other_text, '' if points else scale)}) in {period}")  # fmt: skip
    if step.operation == "items_values":
        return CellsResult(values=[text, other_text], citations=citations,
                           description=f"{step.row_label} was {_figure(text, scale)} and {step.other_label} "
                                       f"{_figure(other_text, scale)} in {period}")  # fmt: skip
    if step.operation in ("items_sum", "items_average"):
        total = a + b
        word, figure = ("total", total) if step.operation == "items_sum" else ("average", _round2(total / 2))
        return CellsResult(values=[_plain(figure)], citations=citations,
                           description=f"the {word} of {both} is {_grouped(figure, '' if points else scale)}"
                                       f"{' percent' if points else ''}")  # fmt: skip
    if step.operation == "items_difference":
        difference = a - b
        unit = " percentage points" if points else ""
        return CellsResult(values=[_plain(difference)], citations=citations,
                           description=f"the difference between {both} is "
                                       f"{_grouped(difference, '' if points else scale)}{unit}")  # fmt: skip
    if b == 0:
        raise ZeroDivisionError(f"{step.other_label} was 0 in {period}: no share or ratio")
    if step.operation == "share":
        percent = a / b * 100
        share = _round2(percent) if abs(percent) >= Decimal("0.1") or percent == 0 else Decimal(f"{percent:.4g}")
        return CellsResult(values=[_plain(share)], citations=citations,
                           description=f"{step.row_label} was {_plain(share)}% of {step.other_label} in {period} "
                                       f"({_figure(text, scale)} of {_figure(other_text, scale)})")  # fmt: skip
    quotient = a / b
    # two places, as statements' ratios are given; a quotient that small would round to 0: four figures of it
    ratio = _round2(quotient) if abs(quotient) >= Decimal("0.1") or quotient == 0 else Decimal(f"{quotient:.4g}")
    return CellsResult(values=[_plain(ratio)], citations=citations,
                       description=f"the ratio of {both} is {_plain(ratio)}")  # fmt: skip


def _one_cell(sheet: SheetFrame, row_id: int, name: str) -> tuple[str, Citation]:
    """The text of one cell (by row id and column name) and its citation."""
    rows = {int(rid): i for i, rid in enumerate(sheet.row_ids())}
    column = next((c for c in sheet.columns if c.name == name), None)
    if row_id not in rows or column is None:
        raise LookupError(f"the cell ({row_id}, {name}) is no longer in sheet {sheet.sheet}")
    text = sheet.texts(column.position)[rows[row_id]] or ""
    if parse_number(text) is None:
        raise TableError(f"{sheet.sheet} {name} holds no figure ({text or 'empty'})")
    return text, cite(sheet, rows[row_id], column)


def _run_variance(sheet: SheetFrame, step: CellsStep, other: SheetFrame | None) -> CellsResult:
    """One line's figure on this sheet against the same line's on another tab of the same layout (actual against
    plan): both figures, the difference and the difference as a percentage of the other tab's, each cell cited."""
    if other is None or not step.other_cells or len(step.columns) != 1:
        raise LookupError("a variance reads one cell of each of two sheets")
    text, citation = _one_cell(sheet, step.row_id, step.columns[0])
    other_text, other_citation = _one_cell(other, *step.other_cells[0])
    a, b = _decimal(text), _decimal(other_text)
    difference = a - b
    period = column_period(step.column_labels[0])
    both = f"{step.row_label} was {_figure(text, '')} and {step.other_label} {_figure(other_text, '')} in {period}"
    values = [_plain(difference)]
    shown = f"{both}: a variance of {_grouped(difference)}"
    if b != 0:
        pct = _round2(difference / abs(b) * 100)
        values.append(_plain(pct))
        shown += f" ({_plain(pct)}% of {step.other_label})"
    return CellsResult(values=values, description=shown, citations=[citation, other_citation])
