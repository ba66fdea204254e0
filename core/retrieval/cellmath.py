"""Arithmetic on the named cells of a statement-like table: a value, a change, a percentage change, an
average, a total, or the period in which a line item was largest or smallest.

Financial statements and their notes are grids: line items down the first column ("Total sales",
"Net debt"), periods across ("2019", "2018"), header rows on top ("Years Ended September 30,").
A question such as "What was the percentage change in net debt from 2018 to 2019?" names one line
item and two periods. `plan_cells` finds them in a sheet's grid (the planner's schema holds the
grid of short sheets) and returns a typed CellsStep; `run_cells` reads the cells from the stored
sheet and computes the result exactly (decimal arithmetic), citing every cell it used.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, localcontext
from typing import Literal

from pydantic import BaseModel, ConfigDict

from core.cells import parse_number
from core.models import Citation
from core.retrieval.tables import Column, SheetFrame, cite
from core.text import NUMBER_WORDS, STOP_WORDS, YEAR, year_mentions, years_in

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
]
# Operations on two line items of one period: A as a percentage of B, A over B, A minus B; the figures of A and
# B ("the respective sales and purchases for 2017"), their total and their average.
LISTED_OPERATIONS = ("items_values", "items_sum", "items_average")
ITEM_OPERATIONS = ("share", "ratio", "items_difference", *LISTED_OPERATIONS)

_WORD = re.compile(r"[a-z0-9]+")
# ("s" is what is left of a possessive: "IMFT’s total assets")
_STOP = STOP_WORDS | frozenset("would respectively year years fiscal during between end period s".split())
# Words of the question that ask for arithmetic rather than name the line item (or anything else).
OPERATION_WORDS = frozenset(
    "change changes increase increased decrease decreased difference growth percentage percent average mean "
    "sum combined largest highest larger higher greatest most lowest smaller least lower smallest less "
    "more greater variance".split()
)
# A relative change, however it is asked: "percentage change", "grew by what percent", "in percentage terms".
# ("The change in the gross margin percentage" is a change of a percentage line: points, not this.)
_PCT = re.compile(
    r"percent(?:age)?\s+(?:change|increase|decrease|growth|difference)|%\s*change|"
    r"change\s*\(%\)|change\s+in\s+percent|growth\s+rate|rate\s+of\s+(?:change|growth)"
)
# Looser wordings: relative for amounts, but "how many percent did the rate change" of a line of percentages
# asks for the difference in points.
_PCT_LOOSE = re.compile(
    r"\bby\s+what\s+(?:percent(?:age)?|%)|\bin\s+(?:percent(?:age)?|%)(?:\s+terms)?(?:\s*[?.]|$)|"
    r"\bwhat\s+(?:percent(?:age)?|%)\s+(?:did|has|have|was|were)\b|\bhow\s+(?:much|many)\s+percent"
)
# Words that ask for a change between periods, in every tense a question uses.
_CHANGE_WORDS = (
    "change changed increase increased decrease decreased difference grow grew growth rise rose fall fell drop "
    "variance"  # "the product revenue variance for 2019 vs 2018": a change, as management's discussion says
)
_CHANGE = re.compile(rf"\b(?:{'|'.join(_CHANGE_WORDS.split())}|dropped|declin\w*)\b")
_AVERAGE = re.compile(r"\b(?:average|mean)\b")
_SUM = re.compile(r"\b(?:sum|combined|in total|total of|altogether|aggregate)\b|\btotal\b.*\b(?:and|&)\b")
_WHICH = re.compile(r"\b(?:which|what)\s+(?:year|period|fiscal year|fy|quarter)s?\b|\bin which\b")
# "from 2017 to 2019", "between 2017-2019", "over the 3 years": every period in the span.
_SPAN = re.compile(
    r"(?:from|between|years?)\s+(?:fy\s*)?((?:19|20)\d\d)\s*(?:to|-|–|and|through)\s*(?:fy\s*)?((?:19|20)\d\d)|"
    r"\b((?:19|20)\d\d)\s*[-–]\s*((?:19|20)\d\d)\b|"  # "for 2017-2019", "in 2017–2019": the span, not two years
    r"\b(?:three|3|four|4|five|5)[- ]years?\b"
)
_AVERAGE_OF_PERIODS = re.compile(
    r"\b(?:19|20)\d\d\s+average\b|\baverage\s+(?:annual\s+|yearly\s+)?(?:change|increase|decrease|growth)\b"
)
_YEAR_RANGE = re.compile(r"\b(?:19|20)\d\d\s*[-–]\s*(?:(?:19|20)\d\d|\d\d)\b")
_MAX = re.compile(r"\b(?:largest|highest|larger|higher|greatest|greater|most|more|biggest|bigger|maximum|peak)\b")
_MIN = re.compile(r"\b(?:lowest|smaller|least|lower|smallest|less|fewer|minimum)\b")
_TOTAL = re.compile(r"\btotal\b")
_ABSOLUTE = re.compile(r"\babsolute\b")
# Questions a figure does not answer: a reason or a description ("What caused the increase in X?").
_REASON = re.compile(
    r"\b(?:why|reasons?|caused?|causes|causing|led to|lead to|leads to|due to|driven|drivers?|attribut\w*|"
    r"because|explain\w*|describe\w*)\b"
    r"|\b(?:how|what)\s+(?:is|are|was|were)\s+(?:\w+\s+){1,4}(?:determined|calculated|measured|defined|computed)\b"
)
# A share of another line item ("X as a percentage of total Y", "the proportion of X over Y"): two lines.
_PART_OF = re.compile(
    r"\b(?:ratio|proportion|constitution|fraction|portion)\b|\bas\s+an?\s+(?:percent(?:age)?|%|share)\s+of\b"
    r"|\b(?:percent(?:age)?|share)\s+of\s+(?!(?:the\s+)?(?:change|increase|decrease|growth|difference)\b)"
)
# "The difference between the domestic and international rates": two items of one period, not a change.
_BETWEEN = re.compile(r"\bdifference\s+between\s+(.+?)\s+and\s+(.+?)(?=\s+(?:in|for|as|at|of|on)\b|[?.,]|$)")
# Two line items of one period, and which is the part: "A as a percentage of B", "the ratio of A to B",
# "what percentage of B was A", "the percentage of A in B". Each pattern names its operation and its part (A) and
# whole (B) groups; a percentage is a share (x100), a ratio or proportion a plain quotient.
_ITEM_PATTERNS: tuple[tuple[re.Pattern[str], str, str, str], ...] = (
    (
        re.compile(
            r"^(?P<a>.+?)\s+as\s+an?\s+(?P<kind>percent(?:age)?|%|share|proportion|fraction|ratio)\s+(?:of|to)\s+(?P<b>.+)$"
        ),
        "kind",
        "a",
        "b",
    ),
    # "the percentage constitution of A among (or in) B": A's share of B
    (
        re.compile(
            r"\bpercent(?:age)?\s+(?:of\s+)?(?P<kind>constitution)\s+of\s+(?P<a>.+?)\s+(?:among|in|within)\s+"
            r"(?P<b>.+)$"
        ),
        "kind",
        "a",
        "b",
    ),
    (
        re.compile(
            r"\b(?P<kind>ratio|proportion|fraction|percent(?:age)?|%|share|portion)\s+of\s+(?P<a>.+?)\s+"
            r"(?:(?:to|over|against|versus|vs|relative\s+to)\b\.?|(?:in|within|among|out\s+of)\s+(?=(?:the\s+)?total\b))\s*"
            r"(?P<b>.+)$"
        ),
        "kind",
        "a",
        "b",
    ),
    (
        re.compile(
            r"\b(?P<kind>percent(?:age)?|%|proportion|share|portion|fraction)\s+of\s+(?P<b>.+?)\s+"
            r"(?:(?:is|was|are|were|that\s+(?:is|was|are|were))\s+)?(?:made\s+up\s+(?:of|by)|accounted\s+for\s+by|"
            r"represented\s+by|attributable\s+to|comprised\s+of|generated\s+(?:from|by)|derived\s+from|"
            r"contributed\s+by|(?:is|was|are|were)\s+from)\s+(?P<a>.+)$"
        ),
        "kind",
        "a",
        "b",
    ),
)
_ITEM_FRACTION = frozenset({"ratio", "proportion", "fraction", "portion"})
_COUNTED = re.compile(r"\bhow\s+many\s+(?:of\s+the\s+)?(?:years|periods|times|quarters)\b|\bin\s+how\s+many\b")
# "less than 600,000", "exceed $1,500 thousand", "above 50%": the test of a which-periods or how-many question.
_THRESHOLD_AT = re.compile(
    r"\b(?P<op>less|lower|below|under|fewer|smaller|more|greater|higher|above|over|larger|exceed(?:ed|s|ing)?)"
    r"\s*(?:than\s*)?(?:\$\s*)?(?P<n>\d[\d,]*(?:\.\d+)?)\s*(?P<scale>thousands?|millions?|billions?|%)?"
)
_BELOW = frozenset("less lower below under fewer smaller".split())
# "Answer in USD billions", "(in USD millions)", "in $ thousands": the unit the answer's amount is asked in.
_ASKED_SCALE = re.compile(
    r"\bin\s+(?:(?:usd|us\$|\$|dollars?|eur|euros?|gbp|£|€)\s*)?(thousands|millions|billions)\b", re.IGNORECASE
)
_SCALE_RANK = {"thousand": 1, "million": 2, "billion": 3}
_SCALES = re.compile(r"\b(thousand|million|billion)s?\b")
# "What years are included in the table?", "In which years was accrued liabilities calculated?": the periods.
_WHICH_PERIODS = re.compile(
    r"\b(?:which|what)\s+(?:are\s+the\s+)?(?:financial\s+|fiscal\s+)?(?:years?|periods?)(?:\(s\))?(?:'s?)?\s.*"
    r"\b(?:table|include[sd]?|shown|show|provided|provide|presented|covered|listed|available|calculated|recorded|"
    r"reported|computed|disclosed|given)\b"
)


_DUE_RANGE = re.compile(
    r"\b(\d{1,2}|one|two|three|four|five|ten)\s*(?:-|–|to|and)\s*(\d{1,2}|one|two|three|four|five|ten)\s+years?\b"
)
_DUE_BOUND = re.compile(
    r"\b(less|fewer|under|within|more|over|after|greater)\s+(?:than\s+)?(\d{1,2}|one|two|three|four|five|ten)\s+years?\b"
)


def _due_spans(text: str) -> set[str]:
    """The spans of years a maturity column or a question names: "1-3 Years" and "between 1 to 3 years" are "1-3",
    "Less than 1 year" and "less than one year" are "<1", "More than 5 years" is ">5"."""
    text = text.lower()

    def number(word: str) -> str:
        return str(NUMBER_WORDS.get(word, word))

    spans = {f"{number(a)}-{number(b)}" for a, b in _DUE_RANGE.findall(text)}
    for word, n in _DUE_BOUND.findall(text):
        spans.add(("<" if word in ("less", "fewer", "under", "within") else ">") + number(n))
    return spans


def asks_periods(question: str) -> bool:
    """Whether the question asks which periods a table or line item holds ("What years are included in the
    table?"), rather than which period a figure was highest in or passed a limit."""
    text = question.lower()
    return bool(_WHICH_PERIODS.search(text)) and not (_MAX.search(text) or _MIN.search(text) or _THRESHOLD.search(text))


_THRESHOLD = re.compile(r"\b(?:than\s*|(?:above|below|over|under|exceed\w*)\s+)\$?\d")  # "less than15,000"

_NOISE_BRACKET = re.compile(
    r"(?:in\s+)?[$€£]?\s*(?:thousands|millions|billions|%|percent|unaudited|notes?\b.*|see\b.*|\d+[a-z]?)", re.I
)
# A line-item label must be found whole in the question; labels longer than this are never matched.
MAX_LABEL_WORDS = 12


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
    # The unit the question asks its amount in ("Answer in USD billions"): "billion", or "" when none is asked.
    asked_scale: str = ""
    # "periods" of a table asked as a whole ("Which years does the table show?"): read on its first full line.
    whole_table: bool = False
    # "line_items" / "count_items": the lines under the heading (or above the total) `row_id`, in table order.
    item_row_ids: list[int] = []
    # A table read turned (`turned_grid`: periods down the rows, items across): the (row id, column name) of each
    # period's cell, and of the second line item's cell; `columns` then name each cell's column.
    cells: list[tuple[int, str]] = []
    other_cells: list[tuple[int, str]] = []


@dataclass(frozen=True)
class GridRow:
    """A row of a short sheet, as the planner sees it."""

    row_id: int
    values: tuple[str | None, ...]


@dataclass(frozen=True)
class CellsResult:
    """The computed answer, its one-line account and the cells it used."""

    values: list[str]
    description: str
    citations: list[Citation]


_NON = re.compile(r"\bnon[\s\-‐–]+(?=[a-z])")


def _words(text: str) -> list[str]:
    out = []
    # "non-vested" is one word, not "vested": "Non-current" and "non current" are "noncurrent" wherever written
    for word in _WORD.findall(_NON.sub("non", text.lower())):
        if word.isdigit() and len(word) < 4:
            continue  # footnote marks and small numbers
        word = re.sub(r"(?<=[a-z])\d+$", "", word)  # "intake1" (a footnote mark) -> "intake"
        if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        out.append(word)
    return out


def _content(text: str) -> set[str]:
    return {w for w in _words(text) if w not in _STOP}


def _label_variants(label: str) -> list[set[str]]:
    """The label's words, and its words without a bracketed part or with only the acronym in brackets:
    "Loan-to-value (LTV) ratio" is asked about as "LTV ratio" or "loan-to-value ratio"."""
    variants = [_content(label)]
    if "(" in label:
        variants.append(_content(re.sub(r"\([^)]*\)", " ", label)))
        inside = re.findall(r"\(([^)]*)\)", label)
        # The bracket names the line ("(LTV)", "(Scope 1)"), unless it is a unit or a note: "Sales (millions)" is
        # not asked about as "millions", "Inventories (Notes 1 and 3)" not as "notes".
        if inside and not any(_NOISE_BRACKET.fullmatch(part.strip()) for part in inside):
            after = label[label.rfind(")") + 1 :]
            variants.append(_content(" ".join(inside) + " " + after))
    return [v for v in variants if v]


def _without_words(text: str, label: str) -> str:
    """`text` with one occurrence of each content word of the line item's label blanked out."""
    for word in dict.fromkeys(_WORD.findall(label.lower())):
        if not word.isdigit() and word not in _STOP:
            text = re.sub(rf"\b{re.escape(word)}\b", " ", text, count=1)
    return text


def _two_items(text: str, label: str) -> bool:
    """Whether the question asks the difference between two things that are not periods, nor both words of the
    line item ("between research and development" is one line)."""
    found = _BETWEEN.search(text)
    if not found:
        return False
    sides = [_content(side) - set(years_in(side)) for side in found.groups()]
    return all(sides) and not sides[0] | sides[1] <= _content(label)


def column_labels(names: Sequence[str], rows: Sequence[GridRow], label_pos: int) -> tuple[list[str], int]:
    """Each column's header text (its name plus header rows above the first line item) and that row count."""
    labels = ["" if re.fullmatch(r"Column [A-Z]+", n) else n for n in names]

    # A group header spans the unnamed columns right of it ("Financial assets" over "2019 2018"): each of its
    # sub-columns carries it, so "2018 of financial assets" is not the liabilities' 2018. Worded groups only: a
    # year over an unnamed column is that column's period alone.
    # Its span shows in the first row under it, or in a row of years under a merged date ("September 30," over
    # "2019 2018" in each group).
    def spanned(i: int) -> bool:
        return any(
            i < len(row.values) and bool(here := row.values[i]) and bool(left := row.values[i - 1])
            and (at == 0 or bool(years_in(here or "") and years_in(left or "")))
            for at, row in enumerate(rows[:3])
        )  # fmt: skip

    for i in range(1, len(labels)):
        if (
            not labels[i] and i != label_pos and labels[i - 1] and not years_in(labels[i - 1]) and i - 1 != label_pos
            and spanned(i)
        ):  # fmt: skip
            labels[i] = labels[i - 1]
    n_header = 0
    for row in rows:
        label = row.values[label_pos] if label_pos < len(row.values) else None
        cells = [v for i, v in enumerate(row.values) if i != label_pos and v]
        header_like = cells and all(parse_number(v) is None or YEAR.fullmatch(v.strip()) for v in cells)
        if label and not header_like:
            break
        if not cells and label:
            break
        for i, value in enumerate(row.values):
            if value and i != label_pos:
                labels[i] = f"{labels[i]} {value}".strip()
        n_header += 1
    return labels, n_header


# A column that states a share or a change of the period's amount, not the amount: "% of Total", "Change".
# (An opening balance restated on 1 January sits beside the year-end column of the year before: not its amount.)
_SECONDARY = re.compile(
    r"%|\bpercent|\bchange\b|\bincrease\b|\bdecrease\b|\bvariance\b|\bvs\.?\b|\bjan(?:uary)?\.?\s+1\b(?!\d)|"
    r"(?<!\d)\b1\s+jan(?:uary)?\b",
    re.IGNORECASE,
)


def _named_columns(columns: Sequence[int], labels: Sequence[str], question: str) -> list[int]:
    """Of several columns of one year, the one the question names: by its day ("the quarter ended July 27") or
    by the words of its group header ("Financial assets" over "2019 2018 2019 2018"); [] when none stands out."""
    days = {_day_key(m) for m in _MONTH_DAY.finditer(question)}
    dated = [i for i in columns if days & {_day_key(m) for m in _MONTH_DAY.finditer(labels[i])}]
    if len(dated) == 1:
        return dated
    wanted = _content(question)
    scores = {i: len((_content(labels[i]) - set(years_in(labels[i]))) & wanted) for i in columns}
    best = max(scores.values())
    top = [i for i in columns if scores[i] == best]
    return top if best and len(top) == 1 else []


# A day of a month in a header or a question ("January 26", "27 April", "Sept. 30"): the dated periods of a grid.
_MONTH_DAY = re.compile(
    r"\b(?P<m1>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(?P<d1>\d{1,2})\b(?!\d)|"
    r"\b(?P<d2>\d{1,2})\s+(?P<m2>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b",
    re.IGNORECASE,
)


def _day_key(m: re.Match[str]) -> str:
    """ "January 26" and "26 Jan" alike: "jan 26"."""
    return f"{(m.group('m1') or m.group('m2')).lower()} {int(m.group('d1') or m.group('d2'))}"


# A fiscal year across two calendar years: "2017/2018", "2018/19", "2012-13"; it is the year it ends in.
_SPLIT_YEAR = re.compile(r"(?<!\d)((?:19|20)\d\d)\s*[/–-]\s*((?:19|20)?\d\d)(?!\d)")


def _split_end(label: str) -> str | None:
    """The year a split fiscal year ends in ("2018/19" -> "2019"), or None."""
    m = _SPLIT_YEAR.search(label)
    if not m:
        return None
    start, end = m.group(1), m.group(2)
    end = end if len(end) == 4 else start[:2] + end
    return end if int(end) == int(start) + 1 else None


def _year_columns(labels: Sequence[str], label_pos: int) -> dict[str, list[int]]:
    """Year -> the columns whose header names it. A split fiscal year ("2017/2018") names only the year it
    ends in: its start year is the previous column's period, and reading it as both made "2018" two columns."""
    found: dict[str, list[int]] = {}
    for i, label in enumerate(labels):
        if i == label_pos:
            continue
        end = _split_end(label)
        for year in [end] if end else years_in(label):
            found.setdefault(year, []).append(i)
    return found


def periods_across(names: Sequence[str], rows: Sequence[GridRow]) -> bool:
    """Whether a grid is laid out as a statement: a blank corner over the line items, two or more periods across
    the header (a list of records names its first column: "Team", "Town")."""
    if len(names) < 3 or not rows:
        return False
    labels, n_header = column_labels(names, rows, 0)
    if labels[0].strip() or n_header > 3 or len(_year_columns(labels, 0)) < 2:
        return False
    # Line items are words: a numbered list under a blank first header ("1", "2", …) is records.
    items = [row.values[0] for row in rows[n_header:] if row.values]
    worded = sum(1 for item in items if item and parse_number(item) is None)
    return worded > len(items) / 2


# The word of "percentage change" (increase, decrease, difference) that names the operation, not a line.
_PCT_ASKED = re.compile(r"\bpercent(?:age)?(?=\s+(?:change|increase|decrease|difference|growth)\b)")


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
    names must be in the header. `given_names`: the names the question gives (a company, "IMFT"), which the
    caller vouches for; a side of a two-item question may hold them besides its line item. `whole_table`: the
    caller found the question to be about this table as a whole ("Which years does the table show?", "In which
    years were cash flow hedges calculated?" of a table headed by them), so a question of its periods that
    names no line item is read on its first line with a figure in each period."""
    if len(names) < 2 or not rows:
        return None
    label_pos = 0
    labels, n_header = column_labels(names, rows, label_pos)
    years = _year_columns(labels, label_pos)
    if len(years) < 2:
        years = {}  # periods across the header make a statement; one year in a header is a label
    # "percentage change in total revenue" asks an operation of the revenue line, not of "Percentage of revenue"
    wanted = _content(_PCT_ASKED.sub(" ", question.lower()))
    # A label written as an alias ("Purchases of property, plant and equipment" for "capex") holds all its words.
    alias_words = [words for words in map(_content, aliases) if words]
    # Columns named by words rather than periods ("As reported", "Without ASC 606").
    # Only in a statement: line items under a blank corner cell, the way reports lay out a grid (a
    # list of records names its first column: "Team", "Player").
    # A table the finder read from a PDF (`strict`) is a statement whatever its corner says ("As of", "Fiscal").
    corner_blank = not labels[label_pos].strip() or strict
    asked_spans = _due_spans(question)
    named = [
        i
        for i, label in enumerate(labels)
        if corner_blank and i != label_pos and not years_in(label)
        and ((bool(spans := _due_spans(label)) and spans <= asked_spans) or (bool(_content(label)) and _content(label) <= wanted))
    ]  # fmt: skip
    if not years and not named:
        return None
    value_columns = sorted({i for cols in years.values() for i in cols} | set(named))
    # a split fiscal year asked ("EBIT in 2018/2019") is the year it ends in, as its column is (`_year_columns`)
    named_years = years_in(_SPLIT_YEAR.sub(lambda m: _split_end(m.group(0)) or m.group(0), question))
    asked_years = [y for y in named_years if y in years]
    if strict and set(named_years) - set(years):
        return None  # a period the question names is not in this grid: another table (or filing) holds it
    header_dates = {_day_key(m) for label in labels for m in _MONTH_DAY.finditer(label)}
    if header_dates and {_day_key(m) for m in _MONTH_DAY.finditer(question)} - header_dates:
        # "the quarters ended January 26 and April 27" of a grid headed by other dates (its columns are other
        # quarters): read by year, it answered another quarter's change
        return None
    named_words = set().union(*(_content(labels[i]) for i in named)) if named else set()
    grid = _Grid(rows[n_header:], label_pos, value_columns, set(years), named_words, labels, question)
    text = question.lower()
    found = grid.line_item(wanted, alias_words)
    items = _plan_items(text, grid, years, asked_years, set().union(*map(_content, given_names)), _content(context))
    if items is not None:
        (a_row, a_label), (b_row, b_label), between, column = items
        if _REASON.search(_without_words(_without_words(text, a_label), b_label)):
            return None  # a reason or a description of the two: not a figure
        return CellsStep(
            sheet_id=sheet_id, operation=between, row_id=a_row.row_id, row_label=a_label,
            other_row_id=b_row.row_id, other_label=b_label, columns=[names[column]], column_labels=[labels[column]],
            asked_scale=asked.group(1).lower().rstrip("s") if (asked := _ASKED_SCALE.search(question)) else "",
            reason=f"{_VERBS[between]} \"{a_label}\" and \"{b_label}\" in {labels[column]}",
        )  # fmt: skip
    parts = _PARTS.search(text)
    if parts and not asked_years:
        named_part = parts.group("x") or parts.group("y") or parts.group("z") or ""
        listed = _section_items(grid, _content(named_part) - _PARTS_GENERIC)
        if listed is not None:
            (head, head_label), lines = listed
            counted = text.lstrip().startswith("how many")
            return CellsStep(
                sheet_id=sheet_id, operation="count_items" if counted else "line_items", row_id=head.row_id,
                row_label=head_label, columns=[], column_labels=[], item_row_ids=[r.row_id for r in lines],
                reason=f"The line items {'under' if not _content(head_label) & {'total'} else 'making up'} "
                       f"\"{head_label}\"",
            )  # fmt: skip
    table_wide = found is None and whole_table and asks_periods(text) and not asked_years
    if table_wide:
        # "What years are included in the table?": the periods of its first line item with a figure in each
        found = next(
            ((r, _row_label(r, label_pos)) for r in grid.rows
             if all(i < len(r.values) and parse_number(r.values[i] or "") is not None for i in value_columns)),
            None,
        )  # fmt: skip
    if found is None:
        return None
    row, label = found
    # The arithmetic is read from the question without the line item's own words: "Total operating expense in
    # 2019 and 2018" asks for two values, not their total; "Weighted-average fair value" is no average.
    if _two_items(text, label):
        return None  # two line items compared ("the difference between domestic and international rates")
    mine = _content(label)
    # (the periods of a table are its lines' periods: a question naming two of its lines asks them of both)
    for at, other in enumerate([] if asks_periods(text) and not asked_years else grid.rows):
        words = _content(_row_label(other, label_pos)) - grid.years
        if (
            other.row_id != row.row_id and len(words) > 1 and words <= wanted and not words <= mine
            and not mine <= words and "total" not in words and _filled(other, value_columns) and not grid.adds_up(at)
        ):  # fmt: skip
            # the question names another line whole ("… for Cubic Transportation Systems, Cubic Mission Solutions
            # and Cubic Global Defense"): one line's figure answers a part of it
            return None
    kind = _KIND_ASKED.search(text)
    if kind and not _content(kind.group("kind") or kind.group("counted")) & _content(label):
        # "what is the component that contributed the most to total revenue", "how many major components are there
        # in the cash flow": a line item or a count of them is asked, not this line's figure
        return None
    text = _without_words(text, label)
    if _REASON.search(text) or _PART_OF.search(text):
        return None  # a reason, or a share of another line: not this line's figure
    by_year = {y: cols[0] for y, cols in years.items()}
    ordered_years = sorted(by_year)  # old -> new
    span = _SPAN.search(text)
    ends = [g for g in span.groups() if g] if span else []
    if span and ends:
        low, high = sorted(ends)
        spanned = [y for y in ordered_years if low <= y <= high]
    elif span:
        spanned = ordered_years
    else:
        spanned = []

    ambiguous: list[str] = []

    def cols(ys: Sequence[str]) -> list[int]:
        # a year several columns of amounts share (the quarters of 2019, "As reported" and "Restated" 2018) names
        # none of them; beside a share or change column ("2019 % of total") it names the amount
        for y in ys:
            column = grid.year_column(y, years)
            if column is not None:
                by_year[y] = column
            elif not named and any(not _SECONDARY.search(labels[i]) for i in years[y]):
                ambiguous.append(y)
        return [by_year[y] for y in ys]

    operation: Operation
    compare: Literal["", "<", ">"] = ""
    threshold = ""
    limit = _THRESHOLD_AT.search(text)
    if limit and (_COUNTED.search(text) or _WHICH.search(text)):
        # "In which year was revenue less than 600,000?", "How many years did net income exceed $30,000?"
        asked_scale, stated = limit.group("scale") or "", _SCALES.findall(" ".join(labels).lower())
        figures = [abs(n) for i in value_columns if i < len(row.values) and (n := parse_number(row.values[i] or ""))]
        limit_at = float(limit.group("n").replace(",", ""))
        if asked_scale[:1].isalpha() and (
            (stated and asked_scale.rstrip("s") not in stated)
            or (not stated and figures and not min(figures) / 10 <= limit_at <= max(figures) * 10)
        ):
            # "more than 5 million" of a table in thousands, or of one whose header states no unit and whose figures
            # are orders of magnitude from the limit (7,949 against 5): not comparable as read
            return None
        if (limit.group("scale") == "%") != any("%" in (row.values[i] or "") for i in value_columns):
            return None  # a percentage asked of amounts, or an amount of percentages
        operation = "count_where" if _COUNTED.search(text) else "where"
        compare = "<" if limit.group("op") in _BELOW else ">"
        threshold = limit.group("n").replace(",", "")
        # in the order the table shows its periods
        picked = sorted(cols(spanned if len(spanned) >= 2 else asked_years if len(asked_years) >= 2 else ordered_years))
    elif _COUNTED.search(text):
        return None  # "how many of the years …" without a figure to compare with: not a cell's figure
    elif asks_periods(text) and not asked_years:
        operation = "periods"
        picked = sorted(i for i in cols(ordered_years) if i < len(row.values) and row.values[i])
    elif _WHICH.search(text) and (_MAX.search(text) or _MIN.search(text)) and not _THRESHOLD.search(text):
        operation = "argmin" if _MIN.search(text) and not _MAX.search(text) else "argmax"
        chosen = asked_years if len(asked_years) >= 2 else ordered_years
        picked = cols(chosen)
    elif _PCT.search(text) or _PCT_LOOSE.search(text) or _CHANGE.search(text):
        if _AVERAGE_OF_PERIODS.search(text) or len(_YEAR_RANGE.findall(text)) >= 2:
            # the change between two periods' averages ("2018 and 2019 average free cash flow", "between 2017-2018,
            # and 2018-2019"), or an average change: two operations, not one ("the change in the average life
            # expectancy" and "weighted-average shares" are one quantity's change)
            return None
        percents = any("%" in (row.values[i] or "") for i in value_columns if i < len(row.values))
        # "the absolute change" of a line of percentages is the difference in points, not relative to the old
        relative = (_PCT.search(text) or (_PCT_LOOSE.search(text) and not percents)) and not (
            percents and _ABSOLUTE.search(text)
        )
        operation = "pct_change" if relative else "change"
        if len(asked_years) >= 2:
            pair = sorted(asked_years)[:1] + sorted(asked_years)[-1:]
        elif len(ordered_years) == 2 and not asked_years:
            pair = ordered_years
        elif len(asked_years) == 1 and len(ordered_years) >= 2:
            # "the change in 2019": from the period before it
            year = asked_years[0]
            earlier = [y for y in ordered_years if y < year]
            if not earlier:
                return None
            pair = [earlier[-1], year]
        else:
            return None
        picked = cols(pair)
        if len(set(picked)) < 2 or _period(labels[picked[0]]) == _period(labels[picked[-1]]):
            return None  # one column names both periods ("2019 vs 2018"): no change to compute
    elif _AVERAGE.search(text):
        operation = "average"
        chosen = spanned if len(spanned) >= 2 else asked_years if len(asked_years) >= 2 else ordered_years
        if len(asked_years) == 1 and len(spanned) < 2:
            # "the 2019 average inventory": a balance's average over the year, its opening (the year before's
            # close) and its close, as analysts compute average assets, inventory or equity
            year = asked_years[0]
            earlier = [y for y in ordered_years if y < year]
            chosen = [earlier[-1], year] if earlier else []
        if len(chosen) < 2:
            return None
        picked = cols(chosen)
    elif (
        len(asked_years) >= 2
        # "the total income … between 2017 to 2019" read on a bare "Total" line: its word is the sum's as well
        and (_SUM.search(text) or (len(spanned) >= 2 and (_TOTAL.search(text) or _content(label) == {"total"})))
        and ("respectively" not in text)
    ):
        operation = "sum"
        picked = cols(spanned if len(spanned) >= 2 else asked_years)
    elif asked_years:
        operation = "value"
        # "for fiscal years 2019 to 2017 respectively": every year of the span, in the order asked.
        if len(asked_years) >= 2 and len(spanned) > len(asked_years):
            asked_years = sorted(spanned, reverse=asked_years[0] > asked_years[-1])
        picked = cols(asked_years)
    elif named:
        operation = "value"
        picked = named
        if "respective" in text and len(picked) < 2:
            return None  # "the respective values … less than one year and between 2-5 years": one is not both
    else:
        return None
    if any(i >= len(row.values) or not (v := row.values[i]) or parse_number(v) is None for i in picked):
        if operation != "value":
            return None
    if operation != "value" and len({"%" in (row.values[i] or "") for i in picked}) > 1:
        return None  # a percentage and an amount ("10.3%", "$2.35"): no arithmetic between them
    if ambiguous:
        return None
    # (a column named by a date alone, "December 31,", names no quantity)
    worded = [i for i in named if not _SECONDARY.search(labels[i]) and _content(labels[i]) - _ITEM_GENERIC]
    if worded and any(
        i not in named and not _content(labels[worded[0]]) - _ITEM_GENERIC <= _content(labels[i]) for i in picked
    ):
        # the question names a column by its words ("fair value") and a year: the year's column that is not that
        # one ("December 31, 2019 Carrying Amount") is not what it asks
        return None
    if operation in ("average", "sum") and any(len(set(years_in(labels[i]))) > 1 for i in picked):
        return None  # a column of several years ("2021-2022" of contractual obligations): no annual average or sum
    column_texts = [labels[i] for i in picked]
    test = f" {'below' if compare == '<' else 'above'} {threshold}" if compare else ""
    return CellsStep(
        sheet_id=sheet_id, operation=operation, row_id=row.row_id, row_label=label,
        columns=[names[i] for i in picked], column_labels=column_texts, compare=compare, threshold=threshold,
        asked_scale=asked.group(1).lower().rstrip("s") if (asked := _ASKED_SCALE.search(question)) else "",
        reason=f"{_VERBS[operation]} of " + ("the table" if table_wide else f"\"{label}\"")
        + f"{test} in {', '.join(column_texts)}", whole_table=table_wide,
    )  # fmt: skip


def _row_label(row: GridRow, label_pos: int = 0) -> str:
    """A line's label as printed, stripped ("" when it has none)."""
    return (row.values[label_pos] or "").strip() if label_pos < len(row.values) else ""


def _filled(row: GridRow, columns: Sequence[int]) -> bool:
    """Whether the line prints anything in `columns`: a figure, a nil dash or a figure with a note mark."""
    return any(i < len(row.values) and (row.values[i] or "").strip() for i in columns)


@dataclass(frozen=True)
class _Grid:
    """A statement's line items (the rows under its header) and what a label is matched against."""

    rows: Sequence[GridRow]
    label_pos: int
    value_columns: Sequence[int]
    years: set[str]
    named_words: set[str]  # words of columns named by words ("As reported"): they name no line item
    labels: Sequence[str] = ()  # each column's header text
    question: str = ""

    def year_column(self, year: str, years: dict[str, list[int]]) -> int | None:
        """The column of the year's amount, or None when several columns of amounts share it and the question
        does not say which (see `plan_cells`)."""
        amounts = [i for i in years[year] if not _SECONDARY.search(self.labels[i])]
        if len(amounts) > 1:
            amounts = _named_columns(amounts, self.labels, self.question) or amounts
        return amounts[0] if len(amounts) == 1 else None

    def adds_up(self, index: int) -> bool:
        """Whether the line at `index` is, in every period, the sum of the two or more labelled lines above it (up
        to a heading, a line with no label or a total): an unlabelled total under a list of line items."""
        above: list[GridRow] = []
        for row in reversed(self.rows[:index]):
            label = _row_label(row, self.label_pos)
            if not label or "total" in _content(label) or not _filled(row, self.value_columns):
                break
            above.append(row)
        if len(above) < 2:
            return False
        checked = 0
        for i in self.value_columns:
            total = parse_number(self.rows[index].values[i] or "") if i < len(self.rows[index].values) else None
            if total is None:
                continue
            texts = [(r.values[i] or "") if i < len(r.values) else "" for r in above]
            parts = [parse_number(t) for t in texts]
            # a nil dash ("—") is 0; the lines are printed rounded: allow half a unit of their last place per line
            places = max((len(m.group(1)) for t in texts if (m := re.search(r"\.(\d+)", t))), default=0)
            if abs(sum(p or 0 for p in parts) - total) > len(parts) * 0.5 * 10**-places + 1e-9:
                return False
            checked += 1
        return checked > 0

    def line_item(self, wanted: set[str], alias_words: Sequence[set[str]] = (), *,
                  exclude: int | None = None, total: bool | None = None) -> tuple[GridRow, str] | None:  # fmt: skip
        """The most specific line item whose every word is in `wanted` (or in it with an alias), and its label;
        `total`: only a total line (True) or only another (False)."""
        best: tuple[tuple[int, int, int, int], GridRow, str] | None = None
        section = ""  # the heading line above a group of line items ("Long-lived assets:" over "Korea", "Europe")
        for index, row in enumerate(self.rows):
            label = (row.values[self.label_pos] or "").strip()
            if not any(
                (v := row.values[i]) and parse_number(v) is not None for i in self.value_columns if i < len(row.values)
            ):
                section = label  # a heading: "Long-lived assets:", "Basic earnings per share (cents per share)"
                continue
            if row.row_id == exclude:
                continue
            # A line item read alone, or under its section: "long-lived assets in Korea" is the Korea line there;
            # a figure line with no label under a section is the section's total ("total long-lived assets").
            readings = [(label, v) for v in _label_variants(label)]
            if section:
                # the heading read as the line's own words are ("Deferred income tax expense (benefit):" over
                # "Federal" is the federal deferred income tax expense)
                readings += [
                    (f"{section} {label}", v | h)
                    for v in _label_variants(label)
                    for h in _label_variants(section.rstrip(":"))[:2]
                ]
                if not label and (section.endswith(":") or self.adds_up(index)):
                    # (under a heading without a colon, only a line that adds up the ones above it is its total,
                    # and it is still a "Total" as it was read before headings without colons were)
                    readings += [
                        (f"Total {section.rstrip(':')}", h | {"total"})
                        for h in _label_variants(section.rstrip(":"))[:2]
                    ]
                    if not section.endswith(":"):
                        readings.append(("Total", {"total"}))
            elif not label and self.adds_up(index):
                readings.append(("Total", {"total"}))  # a figure line with no label, the sum of the lines above it
            fits = [
                (text_, v - self.years)
                for text_, v in readings
                if v - self.named_words
                and (v - self.years <= wanted or any(a <= v and v - self.years <= wanted | a for a in alias_words))
            ]
            if not fits:
                continue
            shown, words = max(fits, key=lambda f: len(f[1]))
            if not words or len(words) > MAX_LABEL_WORDS or (total is not None and ("total" in words) != total):
                continue
            if _qualified(shown, self.question):
                continue
            # The label holding most of the question's words, then the fewest others (an alias's "net", "total"),
            # then the fewest of its own left unread: "free cash flow" is the line "Free cash flow", not "Free cash
            # flow (pre-spectrum)" read without its bracket.
            key = (len(words & wanted), -len(words - wanted), -len(_content(label) - words), -index)
            if best is None or key > best[0]:
                best = (key, row, shown)
        return (best[1], best[2]) if best else None


# Words that make "A before B" another quantity than A or B: "income before income tax expense" is neither the
# Income line nor the income tax line.
_QUALIFIERS = r"(?:before|after|excluding|excl|pre|ex|net\s+of)"


@functools.lru_cache(maxsize=256)
def _word_text(question: str) -> str:
    """The question's words, lower-cased, one space apart (read once per question, not once per line item)."""
    return " ".join(_WORD.findall(question.lower()))


def _qualified(label: str, question: str) -> bool:
    """Whether the question writes the line's name (its words as the label has them, brackets left out) qualified
    by another quantity: "income before income tax expense" of the line "Income tax expense (benefit)", or
    "income before tax" of the line "Income". A label that says it ("Profit before tax") is what it says."""
    line = label.split(":")[-1].lower()
    name = " ".join(_WORD.findall(re.sub(r"\([^)]*\)", " ", line)))
    if not name:
        return False
    own = set(_WORD.findall(line))  # "Free cash flow (pre-spectrum)" says its qualifier in its bracket
    text = _word_text(question)
    found = [
        *re.finditer(rf"\b({_QUALIFIERS})\s+(?:the\s+)?{re.escape(name)}\b", text),
        # "… after accounting for liabilities" tells which of two such lines, not another quantity
        *re.finditer(rf"\b{re.escape(name)}\s+({_QUALIFIERS})\s+(?!\w+ing\b)\w", text),
    ]
    return any(not set(m.group(1).split()) <= own for m in found)


def _plan_items(
    text: str, grid: _Grid, years: dict[str, list[int]], asked_years: Sequence[str], given: set[str],
    context: set[str] = frozenset(),  # type: ignore[assignment]
) -> tuple[tuple[GridRow, str], tuple[GridRow, str], Operation, int] | None:  # fmt: skip
    """Two line items of one period and the operation between them: "A as a percentage of B" (share), "the ratio
    of A to B" (ratio), "the difference between A and B" (items_difference); each side of the question must name
    its own line item whole, and the period must be one column (named, or the grid's only one)."""
    sides: tuple[str, str, Operation] | None = None
    for pattern, kind, part, whole in _ITEM_PATTERNS:
        m = pattern.search(text)
        if m:
            operation: Operation = "ratio" if m.group(kind) in _ITEM_FRACTION else "share"
            sides = (m.group(part), m.group(whole), operation)
            break
    if sides is None and (between := _BETWEEN.search(text)):
        sides = (between.group(1), between.group(2), "items_difference")
    if sides is None:
        return _share_of_total(text, grid, years, asked_years, given) or _listed_items(
            text, grid, years, asked_years, given, context
        )
    a_text, b_text, operation = sides
    a_words, b_words = _content(a_text) - set(years), _content(b_text) - set(years)
    if not a_words or not b_words:
        return None  # one side is a period ("the difference between 2018 and 2019"): a change, not two items
    a = grid.line_item(a_words)
    b = grid.line_item(b_words, exclude=a[0].row_id) if a else None
    if a is None or b is None:
        return None
    # Each side's words must be its line item's (besides generic words and names the question gives): "the ratio
    # of A in 2019 to B" names no third thing; a side holding words its line item lacks asks about something else
    # ("domestic revenue" is not the Revenue line). A total line is the total of the other's kind: "employee
    # termination costs as a proportion of total costs" reads the table's "Total".
    for side, (_, label), (_, other) in ((a_words, a, b), (b_words, b, a)):
        extra = side - _content(label) - _ITEM_GENERIC - given
        if extra and not (_content(label) <= {"total"} and extra <= _content(other)):
            return None
    return _items_column(a, b, operation, grid, years, asked_years)


def _share_of_total(
    text: str, grid: _Grid, years: dict[str, list[int]], asked_years: Sequence[str], given: set[str]
) -> tuple[tuple[GridRow, str], tuple[GridRow, str], Operation, int] | None:
    """ "What percentage of total non-marketable investments were accounted for using the equity method": a
    share asked of a total line and one other line item, in whichever order the question words them; every
    content word after "percentage of" must belong to the two."""
    m = _SHARE_OF.search(text)
    if m is None:
        return None
    words = _content(m.group("rest")) - set(years) - given
    total = grid.line_item(words | {"total"}, total=True)
    if total is None:
        return None
    part = grid.line_item(words - (_content(total[1]) - {"total"}), total=False)
    if part is None:
        return None
    if words - _content(total[1]) - _content(part[1]) - _ITEM_GENERIC - _SHARE_VERBS:
        return None  # a word neither line holds: something else is asked
    return _items_column(part, total, "ratio" if m.group("kind") in _ITEM_FRACTION else "share", grid, years,
                         asked_years)  # fmt: skip


# "What are the components under (of) X", "What financial items does X consist of", "How many components are
# there under X": the lines of a section (under its heading) or of a total (above its line).
_PARTS = re.compile(
    r"^\s*(?:(?:what|which)\s+(?:are|were)\s+the\s+(?:\w+\s+)?(?:components|items|elements|constituents|parts)\s+"
    r"(?:(?:listed|included|recorded|shown)\s+)?(?:under|of|in|making\s+up|that\s+make\s+up)\s+(?P<x>.+?)"
    r"|what\s+(?:\w+\s+)?items\s+(?:does|do|did)\s+(?P<y>.+?)\s+consists?\s+of"
    r"|how\s+many\s+(?:\w+\s+)?(?:components|items|elements|parts)\s+(?:are\s+there\s+)?(?:under|of|in)\s+(?P<z>.+?)"
    r")\s*(?:in\s+the\s+table\s*)?[?.]?\s*$"
)
_PARTS_GENERIC = frozenset("table".split())
# A question whose answer is a kind of line (a component, a segment) or a count of them, not a figure.
_KIND_ASKED = re.compile(
    r"(?:\bwhat\s+(?:is|was|are|were)\s+the\s+(?:\w+\s+)?(?P<kind>(?:component|item|segment|region|country|"
    r"categor(?:y|ie)|source|element|department|division|product|customer)s?)\s+(?:that|which|with|whose)\b"
    r"|^\s*how\s+many\s+(?:\w+\s+)?(?P<counted>(?:component|item|segment|region|countr(?:y|ie)|categor(?:y|ie)|"
    r"source|element|type|department|division|line)s?)\b)"
)
_FOOTNOTE = re.compile(r"(?<=[a-z])\d{1,2}$|\s*\(\d{1,2}\)$")


def _section_items(grid: _Grid, words: set[str]) -> tuple[tuple[GridRow, str], list[GridRow]] | None:
    """The line items a section heading or a total line named by `words` gathers: under a heading without figures
    ("Deferred tax liabilities", "Amounts falling due within one year:") the lines down to its total (a line with
    no label, "total", or all the heading's words) or the next heading; above a total line ("Total revenue")
    the lines up to the heading, total or blank label before it. None unless exactly one line is so named and at
    least two items are found."""
    if not words:
        return None

    def figures(row: GridRow) -> bool:
        return _filled(row, grid.value_columns)

    def label(row: GridRow) -> str:
        return _row_label(row, grid.label_pos)

    named = [i for i, row in enumerate(grid.rows) if any(v == words for v in _label_variants(label(row).rstrip(":")))]
    if len(named) != 1:
        return None
    at = named[0]
    head = grid.rows[at]
    heading_words = _content(label(head))
    lines: list[GridRow] = []
    if not figures(head):
        for row in grid.rows[at + 1 :]:
            text = label(row)
            if not figures(row) or not text or "total" in _content(text) or heading_words <= _content(text):
                break
            lines.append(row)
    elif "total" in heading_words:
        for row in reversed(grid.rows[:at]):
            text = label(row)
            if not figures(row) or not text or "total" in _content(text):
                break
            lines.insert(0, row)
    return ((head, label(head)), lines) if len(lines) >= 2 else None


# A column's unit ("RMB’Million", "$'000"): no word a question names its line by.
_UNIT_WORD = re.compile(r"\S*?[’']?\s*\b(?:millions?|thousands?|billions?|'000)\b", re.IGNORECASE)


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
        asked = _content(question)
        if any(words and words <= asked for words in map(_content, self.undated)):
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
    if len(_year_columns(labels, 0)) >= 2:
        return None
    body = list(rows[n_header:])
    value_columns = [i for i in range(1, len(names)) if labels[i].strip()]

    label = _row_label

    def filled(row: GridRow) -> bool:
        return _filled(row, value_columns)

    dated = [k for k, row in enumerate(body) if len(set(years_in(label(row)))) == 1]
    if not value_columns or len({years_in(label(body[k]))[0] for k in dated}) < 2:
        return None
    undated = [label(row) for k, row in enumerate(body) if k not in dated and label(row) and filled(row)]
    turned: list[GridRow] = []
    cells: dict[tuple[int, int], tuple[int, str]] = {}
    if all(filled(body[k]) for k in dated):
        # periods down the rows, line items across ("2021 | Operating leases | Finance leases")
        periods = [label(body[k]) for k in dated]
        for j in value_columns:
            line = -(len(turned) + 1)
            values = [labels[j], *((body[k].values[j] if j < len(body[k].values) else None) for k in dated)]
            turned.append(GridRow(row_id=line, values=tuple(values)))
            cells.update({(line, p + 1): (body[k].row_id, names[j]) for p, k in enumerate(dated)})
    elif not any(filled(body[k]) for k in dated):
        # a heading per period over the same lines ("December 31, 2019" / "Transaction related", "Total")
        periods = [label(body[k]) for k in dated]
        sections = [body[k + 1 : [*dated, len(body)][n + 1]] for n, k in enumerate(dated)]
        lines = list(dict.fromkeys(label(row) for section in sections for row in section if label(row) and filled(row)))
        for item in lines:
            found = [next((row for row in section if label(row) == item), None) for section in sections]
            for j in value_columns:
                line = -(len(turned) + 1)
                values = [f"{item} {_UNIT_WORD.sub('', labels[j]).strip()}",
                          *((row.values[j] if row is not None and j < len(row.values) else None) for row in found)]  # fmt: skip
                turned.append(GridRow(row_id=line, values=tuple(values)))
                cells.update({(line, p + 1): (row.row_id, names[j]) for p, row in enumerate(found) if row is not None})
        undated = []  # every line of a section is read, under its heading's period
    else:
        return None
    return TurnedGrid(names=["", *periods], rows=turned, cells=cells, undated=undated)


# What asks for the figures of two line items joined by "and": each, their total, their average.
_LISTED: tuple[tuple[re.Pattern[str], Operation], ...] = (
    (re.compile(r"\brespective(?:ly)?\b"), "items_values"),
    (re.compile(r"\b(?:total|sum|combined|aggregate)\b"), "items_sum"),
    (re.compile(r"\b(?:average|mean)\b"), "items_average"),
)
# The words that frame such a question rather than name a line item or what the table is about.
_LISTED_FRAME = frozenset(
    "respective respectively combined aggregate sum total average mean value values amount amounts figure figures "
    "number numbers balance balances due payable one two three four five ten".split()
)


def _listed_items(
    text: str, grid: _Grid, years: dict[str, list[int]], asked_years: Sequence[str], given: set[str],
    context: set[str],
) -> tuple[tuple[GridRow, str], tuple[GridRow, str], Operation, int] | None:  # fmt: skip
    """ "What are the respective sales and purchases for 2017?", "the total percentage of revenue from Apple and
    Huawei in 2017": two line items joined by "and", each ending or starting at the "and" (so "cash and cash
    equivalents", one line, is never two), in one period. Every other word of the question must be the
    table's: its header, a section over the two, or `context` (the words of the table's page)."""
    operation: Operation | None = next((op for pattern, op in _LISTED if pattern.search(text)), None)
    if re.search(r"\bdifference\b", text):
        operation = "items_difference"  # "the difference in total expected charges between A and B": A minus B
    elif operation in ("items_sum", "items_average") and _content(text) & (
        OPERATION_WORDS - _LISTED_FRAME - {"percentage", "percent"}
    ):
        return None  # "the total change in A and B", "the average growth of A and B": another operation of each
    if operation is None or len(asked_years) > 1:
        return None
    for joint in re.finditer(r"\s+and\s+", text):
        left, right = text[: joint.start()], text[joint.end() :]
        left_words = [w for w in _words(left) if w not in _STOP]
        right_words = [w for w in _words(right) if w not in _STOP]
        if not left_words or not right_words or left_words[-1] in years or right_words[0] in years:
            continue  # "2019 and 2018": periods, not line items
        joined = f" {left_words[-1]} and {right_words[0]} "
        if any(joined in f" {' '.join(_words(row.values[grid.label_pos] or ''))} " for row in grid.rows):
            return None  # one line item reads "… X and Y …" ("research and development"): not two
        a = _edge_item(grid, left_words[::-1], None)
        b = _edge_item(grid, right_words, a[0].row_id if a else None)
        if a is None and b is not None:
            # a head noun the two share: "operating lease and financing obligations"
            a = _edge_item(grid, left_words[::-1], b[0].row_id, shared=_content(b[1]) - {right_words[0]})
        if a is None or b is None:
            continue
        if "," in left and _content(a[1]) <= _content(left.rsplit(",", 1)[1]):
            return None  # "A, B and C": a list of three or more, not two
        named = _content(a[1]) | _content(b[1]) | set(years) | given | _ITEM_GENERIC | _LISTED_FRAME
        header = set().union(*(_content(label) for label in grid.labels))
        if _content(text) - named - header - context - OPERATION_WORDS:
            return None  # a word that is neither line's nor the table's: another quantity is asked
        return _items_column(a, b, operation, grid, years, asked_years)
    return None


def _edge_item(
    grid: _Grid,
    words: Sequence[str],
    exclude: int | None,
    shared: set[str] = frozenset(),  # type: ignore[assignment]
) -> tuple[GridRow, str] | None:
    """The line item named by the words next to an "and" (`words`, nearest first): the longest run of them (with
    the head noun the other side `shared`) that is a line item's whole label and holds the nearest word."""
    for n in range(min(len(words), MAX_LABEL_WORDS), 0, -1):
        found = grid.line_item(set(words[:n]) | shared, exclude=exclude)
        if found is not None and words[0] in _content(found[1]):
            return found
    return None


_SHARE_OF = re.compile(r"\b(?P<kind>percent(?:age)?|%|proportion|share|portion|fraction)\s+of\s+(?P<rest>.+)$")
# Verbs that join a part to its whole in a share question: "was accounted for by", "is made up of".
_SHARE_VERBS = frozenset(
    "accounted made represented attributable comprised generated derived contributed came come constitute "
    "constituted consist consisted".split()
)


def _items_column(
    a: tuple[GridRow, str], b: tuple[GridRow, str], operation: Operation, grid: _Grid,
    years: dict[str, list[int]], asked_years: Sequence[str],
) -> tuple[tuple[GridRow, str], tuple[GridRow, str], Operation, int] | None:  # fmt: skip
    """The two items with the column of the period asked (or the grid's only one), both cells numbers of a kind."""
    if len(asked_years) == 1:
        found = grid.year_column(asked_years[0], years)
        if found is None:
            return None  # several columns of amounts of that year (quarters, groups): which is not said
        column = found
    elif not asked_years and len(grid.value_columns) == 1:
        column = grid.value_columns[0]
    else:
        return None  # no period, or several: which column is meant is not said
    values = [row.values[column] if column < len(row.values) else None for row, _ in (a, b)]
    numbers = [parse_number(v or "") for v in values]
    if any(n is None for n in numbers):
        return None
    if len({"%" in (v or "") for v in values}) > 1 and not _common_size(grid, column):
        return None  # a percentage and an amount: no arithmetic between them
    if operation in ("share", "ratio") and len({(n or 0) < 0 for n in numbers}) > 1:
        return None  # a deduction's share of a total ("(111)" of 372): its sign is a layout, the share ill-defined
    for _, label in (a, b):
        if sum(1 for r in grid.rows if _content(r.values[grid.label_pos] or "") == _content(label)) > 1:
            return None  # the line appears under several sections ("Continuing operations"): which one is meant
    return a, b, operation, column


def _common_size(grid: _Grid, column: int) -> bool:
    """Whether `column` is a common-size statement's: a line reads "100.0 %" and the other lines are percentages of
    it, printed without the sign ("Sales 100.0 %", "Gross profit 40.0")."""
    return any(
        re.fullmatch(r"100(?:\.0+)?\s*%", (row.values[column] or "").strip())
        for row in grid.rows
        if column < len(row.values)
    )


# Words a side of a two-item question may hold besides its line item's: articles of quantity, not other things.
_ITEM_GENERIC = frozenset(
    "total amount value figure number balance company companys group fy fiscal year end ended period much many "
    "respectively as at of on for the in its their quarter month week half "
    "january february march april may june july august september october november december".split()
)


_VERBS = {
    "value": "The value",
    "change": "The change",
    "pct_change": "The percentage change",
    "average": "The average",
    "sum": "The total",
    "argmax": "The period with the largest value",
    "argmin": "The period with the smallest value",
    "where": "The periods",
    "count_where": "The number of periods",
    "periods": "The periods",
    "share": "As a percentage:",
    "ratio": "The ratio of",
    "items_difference": "The difference between",
    "items_values": "The figures of",
    "items_sum": "The total of",
    "items_average": "The average of",
}


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


def _period(label: str) -> str:
    """A column's period as the source names it: "2019" from "Fiscal 2019", "2018/19" kept whole, "F19" as
    written ("2 0 1 8" is 2018)."""
    split = _SPLIT_YEAR.search(label)
    if split and _split_end(label):
        return split.group(0).replace(" ", "")
    mentions = year_mentions(label)
    if not mentions:
        return label
    year, written = mentions[0]
    return written if written[:1].isalpha() and " " not in written else year


# The unit a statement states above its figures: "(in millions, except per share amounts)", "In thousands".
_UNIT = re.compile(
    r"\bin\s+(thousands|millions|billions)(?:\s+of\s+(?:u\.?s\.?\s+)?(dollars|euros|pounds))?|"
    r"\(\s*(?:\$\s*)?(thousands|millions|billions)\s*\)",
    re.I,
)


def stated_unit(caption: str | None) -> str | None:
    """ "in millions" (or "in millions of dollars") when the sheet's title states the unit of its figures."""
    found = _UNIT.search(caption or "")
    if found is None:
        return None
    scale = (found.group(1) or found.group(3)).lower()
    return " ".join(["in", scale, *(["of", found.group(2).lower()] if found.group(2) else [])])


def _stated_scale(caption: str | None) -> str:
    """The scale word of the unit a statement states ("in millions" -> "million"), or ""."""
    unit = stated_unit(caption)
    return unit.split()[1].rstrip("s") if unit else ""


def _figure(text: str, scale: str) -> str:
    """A cell's figure as an analyst writes it: "$ 86,392" of a statement in millions -> "$86,392 million"."""
    shown = re.sub(r"([$€£¥])\s+", r"\1", text.strip()) or "(empty)"
    return f"{shown} {scale}" if scale and "%" not in text and parse_number(text) is not None else shown


def _grouped(d: Decimal, scale: str = "") -> str:
    """A computed figure with thousands separators (and the statement's scale): 6918 -> "6,918 million"."""
    text = format(d.normalize(), ",f")
    text = "0" if text in ("-0", "0") else text
    return f"{text} {scale}" if scale else text


def run_cells(sheet: SheetFrame, step: CellsStep) -> CellsResult:
    """Read the step's cells from the stored sheet and compute its answer exactly; the description names the
    line item, the periods as the header names them and the figures in the statement's unit, and the answer in
    the unit the question asks ("in USD billions") when the statement states its own."""
    result = _run_cells(sheet, step)
    scale = _stated_scale(sheet.caption)
    amounts = all(parse_number(v) is not None and "%" not in v for v in result.values)
    if step.asked_scale and not scale and step.operation in _AMOUNTS and amounts:
        note = f" (the sheet states no unit: the figure is as stated, not converted to {step.asked_scale}s)"
        return CellsResult(values=result.values, citations=result.citations, description=result.description + note)
    if not step.asked_scale or not scale or step.asked_scale == scale or step.operation not in _AMOUNTS:
        return result
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


# Operations whose answer is an amount in the statement's unit (not a percentage, a ratio, a period or a count).
_AMOUNTS = frozenset({"value", "change", "sum", "average", "items_difference"})


def _run_cells(sheet: SheetFrame, step: CellsStep) -> CellsResult:
    """The step's answer in the statement's own unit."""
    row_ids = sheet.row_ids()
    if step.operation in ("line_items", "count_items"):
        return _run_line_items(sheet, step, [int(r) for r in row_ids])
    index = {int(rid): i for i, rid in enumerate(row_ids)}
    by_name = {c.name: c for c in sheet.columns}

    def cell(row_id: int, name: str) -> tuple[int, Column]:
        if row_id not in index:
            raise LookupError(f"row {row_id} is no longer in sheet {sheet.sheet}")
        return index[row_id], by_name[name]

    pairs = [cell(r, c) for r, c in step.cells] if step.cells else [cell(step.row_id, n) for n in step.columns]
    columns = [c for _, c in pairs]
    texts = [sheet.texts(c.position)[r] or "" for r, c in pairs]
    citations = [cite(sheet, r, c) for r, c in pairs]
    periods = [_period(label) for label in step.column_labels]
    label = step.row_label
    scale = _stated_scale(sheet.caption)
    points = any("%" in t for t in texts)
    if points:
        scale = ""  # percentages carry no scale; their differences are percentage points
    figures = [_figure(t, scale) for t in texts]
    if step.operation in ITEM_OPERATIONS:
        other = cell(*step.other_cells[0]) if step.other_cells else cell(step.other_row_id or 0, columns[0].name)
        return _run_items(sheet, step, other, texts[0], citations[0], periods[0], scale, points)
    if step.operation == "periods":
        shown = ", ".join(f"{p} ({f})" for p, f in zip(periods, figures, strict=True))
        if step.whole_table:
            return CellsResult(values=periods, citations=citations,
                               description=f"The table gives figures for {' and '.join(periods)} ({label}: {shown})")  # fmt: skip
        return CellsResult(values=periods, citations=citations, description=f"{label} is given for {shown}")
    if step.operation in ("where", "count_where"):
        limit = Decimal(step.threshold)
        hits = [i for i, t in enumerate(texts) if (_decimal(t) < limit if step.compare == "<" else _decimal(t) > limit)]
        test = f"{'below' if step.compare == '<' else 'above'} {_grouped(limit)}"
        cells = ", ".join(f"{p}: {f}" for p, f in zip(periods, figures, strict=True))
        chosen = [citations[i] for i in hits] or citations
        if step.operation == "count_where":
            return CellsResult(values=[str(len(hits))], citations=citations,
                               description=f"{label} was {test} in {len(hits)} of {len(texts)} periods ({cells})")  # fmt: skip
        names = [periods[i] for i in hits]
        found = (
            ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)
        ) or "none of the periods"
        return CellsResult(values=[periods[i] for i in hits], citations=chosen,
                           description=f"{label} was {test} in {found} ({cells})")  # fmt: skip
    if step.operation == "value":
        shown = " and ".join(f"{f} in {p}" for p, f in zip(periods, figures, strict=True))
        return CellsResult(values=[t for t in texts], description=f"{label} was {shown}", citations=citations)
    numbers = [_decimal(t) for t in texts]
    cells = ", ".join(f"{p}: {f}" for p, f in zip(periods, figures, strict=True))
    if step.operation in ("argmax", "argmin"):
        pick = max if step.operation == "argmax" else min
        best = pick(range(len(numbers)), key=lambda i: numbers[i])
        word = "largest" if step.operation == "argmax" else "smallest"
        return CellsResult(values=[periods[best]], citations=citations,
                           description=f"{label} was {word} in {periods[best]} ({cells})")  # fmt: skip
    if step.operation in ("change", "pct_change"):
        old, new = numbers[0], numbers[-1]
        change = new - old
        span = f"{label} from {periods[0]} ({figures[0]}) to {periods[-1]} ({figures[-1]})"
        if step.operation == "change":
            return CellsResult(values=[_plain(change)], citations=citations,
                               description=f"the change in {span} is {_grouped(change, scale)}"
                                           f"{' percentage points' if points else ''}")  # fmt: skip
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
    relation = "making up" if "total" in _content(step.row_label) else "under"
    head = step.row_label.rstrip(":")
    if step.operation == "count_items":
        return CellsResult(values=[str(len(labels))], citations=citations,
                           description=f"{len(labels)} line items are listed {relation} {head}: {shown}")  # fmt: skip
    return CellsResult(values=labels, citations=citations,
                       description=f"The line items {relation} {head} are {shown}")  # fmt: skip


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
