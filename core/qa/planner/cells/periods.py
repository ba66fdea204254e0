"""The cell rules of one line item across periods: a value, a change, a percentage change, an average or a total
over periods, which period was largest or smallest, which periods (or how many) passed a figure, and which
periods a line or a table holds.

Each rule reads `CellReading.line` (the line item the question names) and the periods asked, picks the columns,
and hands them to `finish`, which checks the cells hold figures of one kind and writes the step.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from typing import Literal

from core.cells import parse_number
from core.lexicon.periods import WRITTEN_DATE, written_day
from core.lexicon.questions import TOTAL_WORDS
from core.qa.planner.cells.grid import due_spans, filled, inside_bound
from core.qa.planner.cells.reading import REFUSED, CellReading, Line, Verdict, asks_periods
from core.qa.planner.cells.words import (
    ABSOLUTE,
    AVERAGE,
    AVERAGE_OF_PERIODS,
    BELOW,
    CHANGE,
    COUNTED,
    DECREASE_ASKED,
    EITHER_PERIOD,
    INTENSIVE_LINE,
    ITEM_GENERIC,
    MAX,
    MIN,
    PCT,
    PCT_LOOSE,
    SCALES,
    SECONDARY,
    SIGNED_CHANGE,
    SPAN,
    SUM,
    THRESHOLD,
    THRESHOLD_AT,
    TOTAL,
    VERBS,
    WHICH,
    YEAR_RANGE,
)
from core.retrieval.cellmath import CellsStep, Operation, column_period, content_words
from core.text import years_in


def _ordered_years(reading: CellReading) -> list[str]:
    """The header's years, old to new."""
    return sorted(reading.years)


def _spanned(reading: CellReading, line: Line) -> list[str]:
    """Every year of a span the question names ("from 2014 to 2016", "over the 3 years"), old to new; []."""
    ordered = _ordered_years(reading)
    span = SPAN.search(line.text)
    ends = [g for g in span.groups() if g] if span else []
    if span and ends:
        low, high = sorted(ends)
        return [y for y in ordered if low <= y <= high]
    return ordered if span else []


def _columns(reading: CellReading, years: Sequence[str]) -> tuple[list[int], bool]:
    """The column of each year, and whether one of them is ambiguous: a year several columns of amounts share (the
    quarters of 2019, "As reported" and "Restated" 2018) names none of them; beside a share or change column
    ("2019 % of total") it names the amount."""
    picked: list[int] = []
    ambiguous = False
    for year in years:
        column = reading.grid.year_column(year, reading.years)
        if (
            column is None
            and not reading.named
            and any(not SECONDARY.search(reading.labels[i]) for i in reading.years[year])
        ):
            ambiguous = True
        picked.append(column if column is not None else reading.years[year][0])
    return picked, ambiguous


def finish(
    reading: CellReading,
    line: Line,
    operation: Operation,
    picked: list[int],
    *,
    ambiguous: bool = False,
    compare: Literal["", "<", ">"] = "",
    threshold: str = "",
) -> CellsStep | None:
    """The step of `operation` on the line's cells in the `picked` columns; None when they are not figures of one
    kind (a value may read any cell), a year's column is ambiguous, the question names another column by its
    words, or an average or total would run over a column of several years."""
    row, labels = line.row, reading.labels
    if any(i >= len(row.values) or not (v := row.values[i]) or parse_number(v) is None for i in picked):
        if operation != "value":
            return None
    if operation != "value" and len({"%" in (row.values[i] or "") for i in picked}) > 1:
        return None  # a percentage and an amount ("10.3%", "$2.35"): no arithmetic between them
    if ambiguous:
        return None
    if _other_worded_column(reading, picked):
        return None
    if operation in ("average", "sum") and any(len(set(years_in(labels[i]))) > 1 for i in picked):
        return None  # a column of several years ("2021-2022" of contractual obligations): no annual average or sum
    column_texts = [labels[i] for i in picked]
    test = f" {'below' if compare == '<' else 'above'} {threshold}" if compare else ""
    return CellsStep(
        sheet_id=reading.sheet_id, operation=operation, row_id=row.row_id, row_label=line.label,
        columns=[reading.names[i] for i in picked], column_labels=column_texts, compare=compare, threshold=threshold,
        asked_scale=reading.asked_scale,
        reason=f"{VERBS[operation]} of " + ("the table" if line.table_wide else f"\"{line.label}\"")
        + f"{test} in {', '.join(column_texts)}", whole_table=line.table_wide,
    )  # fmt: skip


def _other_worded_column(reading: CellReading, picked: list[int]) -> bool:
    """Whether the question names a column by its words ("fair value") and a year, and a year's column picked is
    not that one ("December 31, 2019 Carrying Amount"): not what it asks. (A column named by a date alone,
    "December 31,", names no quantity.)"""
    named, labels = reading.named, reading.labels
    worded = [i for i in named if not SECONDARY.search(labels[i]) and content_words(labels[i]) - ITEM_GENERIC]
    return bool(worded) and any(
        i not in named and not content_words(labels[worded[0]]) - ITEM_GENERIC <= content_words(labels[i])
        for i in picked
    )


def _finished(verdict: CellsStep | None) -> Verdict:
    """A rule that applied gives its step or, when `finish` found none, REFUSED."""
    return REFUSED if verdict is None else verdict


def threshold_periods(reading: CellReading) -> Verdict:
    """Which periods, or how many, the line's figure passed a figure in ("In which years were rents above
    40,000?", "How many quarters did sales exceed $2 million?")."""
    line = reading.line
    if line is None:
        return None
    text, row, value_columns = line.text, line.row, reading.value_columns
    limit = THRESHOLD_AT.search(text)
    if limit and not any(m.group("n") == limit.group("n") for m in THRESHOLD_AT.finditer(reading.text)):
        # The figure follows its comparison word only once the line's words are taken out: "the larger Tier 2
        # deposits" reads "larger 2", a number of the line's name, no limit to compare with.
        limit = None
    if not (limit and (COUNTED.search(text) or WHICH.search(text))):
        return None
    asked_scale, stated = limit.group("scale") or "", SCALES.findall(" ".join(reading.labels).lower())
    figures = [abs(n) for i in value_columns if i < len(row.values) and (n := parse_number(row.values[i] or ""))]
    limit_at = float(limit.group("n").replace(",", ""))
    if asked_scale[:1].isalpha() and (
        (stated and asked_scale.rstrip("s") not in stated)
        or (not stated and figures and not min(figures) / 10 <= limit_at <= max(figures) * 10)
    ):
        # "more than 5 million" of a table in thousands, or of one whose header states no unit and whose figures
        # are orders of magnitude from the limit (7,949 against 5): not comparable as read
        return REFUSED
    if (limit.group("scale") == "%") != any("%" in (row.values[i] or "") for i in value_columns):
        return REFUSED  # a percentage asked of amounts, or an amount of percentages
    spanned, asked_years = _spanned(reading, line), reading.asked_years
    years = spanned if len(spanned) >= 2 else asked_years if len(asked_years) >= 2 else _ordered_years(reading)
    picked, ambiguous = _columns(reading, years)
    return _finished(finish(
        reading, line, "count_where" if COUNTED.search(text) else "where",
        sorted(picked),  # in the order the table shows its periods
        ambiguous=ambiguous, compare="<" if limit.group("op") in BELOW else ">",
        threshold=limit.group("n").replace(",", ""),
    ))  # fmt: skip


def counted_periods(reading: CellReading) -> Verdict:
    """ "How many of the years …" without a figure to compare with: no cell's figure answers it."""
    line = reading.line
    return None if line is None or not COUNTED.search(line.text) else REFUSED


def listed_periods(reading: CellReading) -> Verdict:
    """Which periods the line (or the table asked as a whole) gives figures for."""
    line = reading.line
    if line is None or not (asks_periods(line.text) and not reading.asked_years):
        return None
    columns, ambiguous = _columns(reading, _ordered_years(reading))
    picked = sorted(i for i in columns if i < len(line.row.values) and line.row.values[i])
    return _finished(finish(reading, line, "periods", picked, ambiguous=ambiguous))


def which_period(reading: CellReading) -> Verdict:
    """The period in which the line was largest or smallest, of those asked (or of all)."""
    line = reading.line
    if line is None:
        return None
    text = line.text
    asked_years = reading.asked_years
    which = WHICH.search(text) or (len(asked_years) == 2 and EITHER_PERIOD.search(text))
    if not (which and (MAX.search(text) or MIN.search(text)) and not THRESHOLD.search(text)):
        return None
    operation: Operation = "argmin" if MIN.search(text) and not MAX.search(text) else "argmax"
    picked, ambiguous = _columns(reading, asked_years if len(asked_years) >= 2 else _ordered_years(reading))
    return _finished(finish(reading, line, operation, picked, ambiguous=ambiguous))


def _asks_change(text: str) -> bool:
    return bool(PCT.search(text) or PCT_LOOSE.search(text) or CHANGE.search(text))


def _relative(reading: CellReading, line: Line) -> bool:
    """Whether the change asked is relative (a percentage change) rather than a difference: "the absolute change"
    of a line of percentages is the difference in points, not relative to the old figure."""
    text, row = line.text, line.row
    percents = any("%" in (row.values[i] or "") for i in reading.value_columns if i < len(row.values))
    return bool(
        (PCT.search(text) or (PCT_LOOSE.search(text) and not percents)) and not (percents and ABSOLUTE.search(text))
    )


def percentage_change(reading: CellReading) -> Verdict:
    """The line's change from one period to another, relative to the first ("grew by what percent")."""
    line = reading.line
    if line is None or not _asks_change(line.text) or not _relative(reading, line):
        return None
    return _change(reading, line, "pct_change")


def change(reading: CellReading) -> Verdict:
    """The line's change from one period to another: the later figure minus the earlier, or the earlier minus the
    later when asked as a decrease ("how much did fees decrease by")."""
    line = reading.line
    if line is None or not _asks_change(line.text):
        return None
    verdict = _change(reading, line, "change")
    fell = bool(DECREASE_ASKED.search(line.text)) and not SIGNED_CHANGE.search(line.text)
    return verdict.model_copy(update={"decrease": True}) if fell and isinstance(verdict, CellsStep) else verdict


def _change(reading: CellReading, line: Line, operation: Operation) -> Verdict:
    """A change between the two periods asked (the first and last of several), or the grid's only two, or the year
    asked and the one before it."""
    text = line.text
    if AVERAGE_OF_PERIODS.search(text) or len(YEAR_RANGE.findall(text)) >= 2:
        # the change between two periods' averages ("the change between the 2020 and 2021 average headcount",
        # "between 2014-2015, and 2015-2016"), or an average change: two operations, not one ("the change in the
        # average fleet age" and "weighted-average shares" are one quantity's change)
        return REFUSED
    dated = _dated_columns(reading, text)
    if len(dated) == 2:  # two balances of one year asked by their dates ("from January 30, 2027 to July 31, 2027")
        return _finished(finish(reading, line, operation, dated))
    pair = _change_pair(reading.asked_years, _ordered_years(reading))
    if pair is None:
        return REFUSED
    picked, ambiguous = _columns(reading, pair)
    labels = reading.labels
    if len(set(picked)) < 2 or column_period(labels[picked[0]]) == column_period(labels[picked[-1]]):
        return REFUSED  # one column names both periods ("2019 vs 2018"): no change to compute
    return _finished(finish(reading, line, operation, picked, ambiguous=ambiguous))


def _dated_columns(reading: CellReading, text: str) -> list[int]:
    """The columns headed by the dates the question writes, old to new (a column per date, each a date alone)."""
    written = {" ".join(m.group(0).split()).lower() for m in re.finditer(WRITTEN_DATE, text, re.IGNORECASE)}
    picked = [i for i, label in enumerate(reading.labels) if " ".join(label.split()).lower() in written]
    dates = {i: written_day(reading.labels[i]) for i in picked}
    return sorted(picked, key=lambda i: dates[i] or date.min) if len(picked) == len(written) else []


def _change_pair(asked_years: Sequence[str], ordered_years: Sequence[str]) -> list[str] | None:
    """The (old, new) periods of a change."""
    if len(asked_years) >= 2:
        return sorted(asked_years)[:1] + sorted(asked_years)[-1:]
    if len(ordered_years) == 2 and not asked_years:
        return list(ordered_years)
    if len(asked_years) == 1 and len(ordered_years) >= 2:
        # "the change in 2019": from the period before it
        year = asked_years[0]
        earlier = [y for y in ordered_years if y < year]
        return [earlier[-1], year] if earlier else None
    return None


def average(reading: CellReading) -> Verdict:
    """The line's average over the periods asked (a span, several years, or all); of one year asked, over its
    opening and closing balance."""
    line = reading.line
    if line is None or not AVERAGE.search(line.text):
        return None
    spanned, asked_years, ordered_years = _spanned(reading, line), reading.asked_years, _ordered_years(reading)
    chosen = spanned if len(spanned) >= 2 else asked_years if len(asked_years) >= 2 else ordered_years
    if len(asked_years) == 1 and len(spanned) < 2:
        if INTENSIVE_LINE.search(line.label.lower()) or any("%" in (v or "") for v in line.row.values):
            return value(reading)  # a rate's or a price's average in a year is the year's figure
        # "the 2019 average inventory": a balance's average over the year, its opening (the year before's
        # close) and its close, as analysts compute average assets, inventory or equity
        year = asked_years[0]
        earlier = [y for y in ordered_years if y < year]
        chosen = [earlier[-1], year] if earlier else []
    if len(chosen) < 2:
        return REFUSED
    picked, ambiguous = _columns(reading, chosen)
    return _finished(finish(reading, line, "average", picked, ambiguous=ambiguous))


def total(reading: CellReading) -> Verdict:
    """The line's total over two or more periods asked ("combined", "in total", a span on a "Total" line)."""
    line = reading.line
    if line is None:
        return None
    text, asked_years, spanned = line.text, reading.asked_years, _spanned(reading, line)
    if not (
        len(asked_years) >= 2
        # "the total income … between 2014 to 2016" read on a bare "Total" line: its word is the sum's as well
        and (SUM.search(text) or (len(spanned) >= 2 and (TOTAL.search(text) or content_words(line.label) == {"total"})))
        and ("respectively" not in text)
    ):
        return None
    picked, ambiguous = _columns(reading, spanned if len(spanned) >= 2 else asked_years)
    return _finished(finish(reading, line, "sum", picked, ambiguous=ambiguous))


def span_total(reading: CellReading) -> Verdict:
    """A quarter or a half of a grid with the months across, asked as one figure ("Q3 revenue", "marketing in
    H1"): the sum of its months (an average asks `average` first)."""
    line = reading.line
    if line is None or not reading.span or len(reading.asked_years) < 2:
        return None
    picked, ambiguous = _columns(reading, reading.asked_years)
    return _finished(finish(reading, line, "sum", picked, ambiguous=ambiguous))


def value(reading: CellReading) -> Verdict:
    """The line's figure in each year asked, in the order asked ("for fiscal years 2016 to 2014 respectively": every
    year of the span)."""
    line = reading.line
    if line is None or not reading.asked_years:
        return None
    asked_years, spanned = reading.asked_years, _spanned(reading, line)
    if len(asked_years) >= 2 and len(spanned) > len(asked_years):
        asked_years = sorted(spanned, reverse=asked_years[0] > asked_years[-1])
    picked, ambiguous = _columns(reading, asked_years)
    return _finished(finish(reading, line, "value", picked, ambiguous=ambiguous))


def due_within(reading: CellReading) -> Verdict:
    """ "Purchase obligations due within five years" of a maturity table (columns "Less than 1 year", "1-3 years",
    "3-5 years", "More than 5 years", "Total"): the sum of the buckets inside the bound asked, never the Total
    column; a bucket across the bound ("3-5 years" of "within four years") gives no figure."""
    line = reading.line
    bounds = [s for s in due_spans(reading.question) if s[0] in "<>"]
    if line is None or len(bounds) != 1:
        return None
    buckets = {i: next(iter(spans)) for i, label in enumerate(reading.labels)
               if i != reading.label_pos and len(spans := due_spans(label)) == 1}  # fmt: skip
    if len(buckets) < 2 or bounds[0] in buckets.values():
        return None  # no maturity columns, or one column is the bound asked ("less than 1 year"): read as named
    others = [i for i, label in enumerate(reading.labels) if i != reading.label_pos and i not in buckets
              and (label.strip() or filled(line.row, [i])) and not content_words(label) <= TOTAL_WORDS]  # fmt: skip
    if others:
        return REFUSED  # a column neither a span nor the total ("Thereafter", "2026"): the buckets are not all known
    placed = {i: inside_bound(span, bounds[0]) for i, span in buckets.items()}
    if any(inside is None for inside in placed.values()):
        return REFUSED
    inside = [i for i, found in placed.items() if found]
    if len(inside) < 2:
        return None
    return _finished(finish(reading, line, "sum", inside))


def named_value(reading: CellReading) -> Verdict:
    """The line's figure in the columns the question names by their words ("As reported", "1-3 years")."""
    line = reading.line
    if line is None or not reading.named:
        return None
    if "respective" in line.text and len(reading.named) < 2:
        return REFUSED  # "the respective amounts due within one year and after five years": one is not both
    return _finished(finish(reading, line, "value", reading.named))
