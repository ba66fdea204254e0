"""A question read against one statement grid: what every cell rule looks at.

`read_question` reads the grid's header (its periods, the columns named by words), the periods the question
asks and the question's words once; `CellReading.line` is the one line item the question names (read only when
a rule asks for it), or None when no single line's figure can answer it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from core.cells import parse_number
from core.lexicon.periods import fiscal_start, months_asked
from core.qa.planner.cells.grid import (
    Grid,
    GridRow,
    column_labels,
    day_key,
    due_spans,
    filled,
    inside_bound,
    month_columns,
    month_key,
    row_label,
    year_columns,
)
from core.qa.planner.cells.words import (
    ASKED_SCALE,
    BETWEEN,
    KIND_ASKED,
    MAX,
    MIN,
    MONTH_DAY,
    PART_OF,
    PCT_ASKED,
    REASON,
    THRESHOLD,
    WHICH_PERIODS,
)
from core.retrieval.cellmath import SPLIT_YEAR, STOP, WORD, CellsStep, content_words, split_end
from core.text import years_in


class Refused:
    """A rule's verdict that the question is of its class but this grid gives no figure for it: the planning
    stops there (no later rule is tried) and gives no step."""

    def __repr__(self) -> str:
        return "REFUSED"


REFUSED = Refused()
# What a cell rule gives: a step (the question is answered), REFUSED, or None (the rule does not apply).
Verdict = CellsStep | Refused | None


@dataclass(frozen=True)
class Line:
    """The one line item a question names, and the question's words without the line's own."""

    row: GridRow
    label: str
    # The question, lower-cased, without the words of the line's label: the arithmetic is read from it ("Total
    # staff costs in 2016 and 2015" asks for two values, not their total; "Weighted-average fair value" is
    # no average).
    text: str
    # The question asks the periods of the table as a whole and names no line: its first line with figures is read.
    table_wide: bool


@dataclass(frozen=True)
class CellReading:
    """The question (as asked and lower-cased) and the grid it is read against (see `read_question`)."""

    question: str
    text: str
    sheet_id: int
    names: Sequence[str]  # the sheet's column names
    labels: Sequence[str]  # each column's header text
    label_pos: int
    years: dict[str, list[int]]  # year -> the columns whose header names it
    named: list[int]  # the columns the question names by their words ("As reported", "Less than 1 year")
    value_columns: list[int]
    asked_years: list[str]  # the years the question names that are in the header
    grid: Grid
    wanted: set[str]  # the question's content words (the "percentage" of "percentage change" left out)
    alias_words: list[set[str]]
    given: set[str]  # the words of the names the question gives (a company), vouched for by the caller
    context: set[str]  # the words of the table's page
    whole_table: bool
    # The question named a span of the header's months (a quarter, a half): its months are asked together.
    span: bool = False

    @property
    def asked_scale(self) -> str:
        """The unit the question asks its amount in ("in USD billions" -> "billion"), or ""."""
        asked = ASKED_SCALE.search(self.question)
        return asked.group(1).lower().rstrip("s") if asked else ""

    @functools.cached_property
    def line(self) -> Line | None:
        """The line item the question names (or, for the periods of a table asked as a whole, its first line with
        a figure in each period); None when there is none, or when one line's figure does not answer: two lines
        compared, another line named whole, a kind of line asked, a reason or a share of another line."""
        found = self.grid.line_item(self.wanted, self.alias_words)
        table_wide = found is None and self.whole_table and asks_periods(self.text) and not self.asked_years
        if table_wide:
            # "Which periods does the table cover?": the periods of its first line item with a figure in each
            found = next(
                ((r, row_label(r, self.label_pos)) for r in self.grid.rows
                 if all(i < len(r.values) and parse_number(r.values[i] or "") is not None for i in self.value_columns)),
                None,
            )  # fmt: skip
        if found is None:
            return None
        row, label = found
        if compares_two_items(self.text, label):
            return None  # two line items compared ("the difference between the northern and southern rates")
        if self._names_another_line(row, label):
            return None
        kind = KIND_ASKED.search(self.text)
        if kind and not content_words(kind.group("kind") or kind.group("counted")) & content_words(label):
            # "which product line sold the most in 2020", "how many regions are listed in the note": a line item or
            # a count of them is asked, not this line's figure
            return None
        text = without_words(self.text, label)
        if REASON.search(text) or PART_OF.search(text):
            return None  # a reason, or a share of another line: not this line's figure
        return Line(row=row, label=label, text=text, table_wide=table_wide)

    def _names_another_line(self, row: GridRow, label: str) -> bool:
        """Whether the question names another line of the grid whole ("… for the North, South and East
        divisions"): one line's figure answers a part of it. (The periods of a table are its lines' periods: a
        question naming two of its lines asks them of both.)"""
        mine = content_words(label)
        for at, other in enumerate([] if asks_periods(self.text) and not self.asked_years else self.grid.rows):
            words = content_words(row_label(other, self.label_pos)) - self.grid.years
            if (
                other.row_id != row.row_id and len(words) > 1 and words <= self.wanted and not words <= mine
                and not mine <= words and "total" not in words and filled(other, self.value_columns)
                and not self.grid.adds_up(at)
            ):  # fmt: skip
                return True
        return False


def read_question(
    question: str,
    sheet_id: int,
    names: Sequence[str],
    rows: Sequence[GridRow],
    aliases: Sequence[str],
    *,
    strict: bool,
    given_names: Sequence[str],
    whole_table: bool,
    context: str,
) -> CellReading | None:
    """The question read against the grid (see `plan_cells` for the arguments); None when the grid is no
    statement (no periods across, no column the question names by its words) or cannot hold what is asked."""
    if len(names) < 2 or not rows:
        return None
    label_pos = 0
    labels, n_header = column_labels(names, rows, label_pos)
    years = year_columns(labels, label_pos)
    if len(years) < 2:
        years = {}  # periods across the header make a statement; one year in a header is a label
    # Months across (a plan, a monthly P&L) are the periods when no years are: keyed "M01".."M12".
    months = {} if years else month_columns(labels, label_pos)
    # "percentage change in total revenue" asks an operation of the revenue line, not of "Percentage of revenue"
    wanted = content_words(PCT_ASKED.sub(" ", question.lower()))
    # A label written as an alias ("Purchases of property, plant and equipment" for "capex") holds all its words.
    alias_words = [words for words in map(content_words, aliases) if words]
    named = _word_columns(question, labels, label_pos, wanted, strict=strict)
    span, asked_months = False, list[int]()
    if months:
        asked_months, span = months_asked(question, fiscal_start(labels))
        if {month_key(m) for m in asked_months} - set(months):
            return None  # a month the header does not have: no column of this grid holds it
        years = months
        named = [i for i in named if not any(i in cols for cols in months.values())]
    if not years and not named:
        return None
    value_columns = sorted({i for cols in years.values() for i in cols} | set(named))
    # a split fiscal year asked ("EBIT in 2018/2019") is the year it ends in, as its column is (`year_columns`)
    named_years = years_in(SPLIT_YEAR.sub(lambda m: split_end(m.group(0)) or m.group(0), question))
    asked_years = [y for y in named_years if y in years]
    if months:
        asked_years = [month_key(m) for m in asked_months]
    if strict and set(named_years) - set(years):
        return None  # a period the question names is not in this grid: another table (or filing) holds it
    header_dates = {day_key(m) for label in labels for m in MONTH_DAY.finditer(label)}
    if header_dates and {day_key(m) for m in MONTH_DAY.finditer(question)} - header_dates:
        # "the quarters ended March 3 and June 2" of a grid headed by other dates (its columns are other
        # quarters): read by year, it answered another quarter's change
        return None
    named_words = set().union(*(content_words(labels[i]) for i in named)) if named else set()
    grid = Grid(rows[n_header:], label_pos, value_columns, set(years), named_words, labels, question)
    return CellReading(
        question=question, text=question.lower(), sheet_id=sheet_id, names=names, labels=labels, label_pos=label_pos,
        years=years, named=named, value_columns=value_columns, asked_years=asked_years, grid=grid, wanted=wanted,
        alias_words=alias_words, given=set().union(*map(content_words, given_names)), context=content_words(context),
        whole_table=whole_table, span=span,
    )  # fmt: skip


def _word_columns(question: str, labels: Sequence[str], label_pos: int, wanted: set[str], *, strict: bool) -> list[int]:
    """The columns named by words rather than periods ("As reported", "Without ASC 606", "1-3 years") that the
    question names. Only in a statement: line items under a blank corner cell, the way reports lay out a grid (a
    list of records names its first column: "Team", "Player"). A table the finder read from a PDF (`strict`) is
    a statement whatever its corner says ("As of", "Fiscal")."""
    corner_blank = not labels[label_pos].strip() or strict
    asked_spans = due_spans(question)
    bounds = [s for s in asked_spans if s[0] in "<>"]

    def within(spans: set[str]) -> bool:
        """A maturity column inside the bound asked ("1-3 years" of "due within five years")."""
        return len(bounds) == 1 and len(spans) == 1 and inside_bound(next(iter(spans)), bounds[0]) is True

    return [
        i
        for i, label in enumerate(labels)
        if corner_blank and i != label_pos and not years_in(label)
        and ((bool(spans := due_spans(label)) and (spans <= asked_spans or within(spans)))
             or (bool(content_words(label)) and content_words(label) <= wanted))
    ]  # fmt: skip


def without_words(text: str, label: str) -> str:
    """`text` with one occurrence of each content word of the line item's label blanked out."""
    for word in dict.fromkeys(WORD.findall(label.lower())):
        if not word.isdigit() and word not in STOP:
            text = re.sub(rf"\b{re.escape(word)}\b", " ", text, count=1)
    return text


def compares_two_items(text: str, label: str) -> bool:
    """Whether the question asks the difference between two things that are not periods, nor both words of the
    line item ("between research and development" is one line)."""
    found = BETWEEN.search(text)
    if not found:
        return False
    sides = [content_words(side) - set(years_in(side)) for side in found.groups()]
    return all(sides) and not sides[0] | sides[1] <= content_words(label)


def asks_periods(question: str) -> bool:
    """Whether the question asks which periods a table or line item holds ("Which periods does the note
    cover?"), rather than which period a figure was highest in or passed a limit."""
    text = question.lower()
    return bool(WHICH_PERIODS.search(text)) and not (MAX.search(text) or MIN.search(text) or THRESHOLD.search(text))
