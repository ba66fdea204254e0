"""A reading that accounts for every word: each content word of the question bound to what the plan uses.

After a table or cells step is drafted, each content word of the question (not a stop word, not one of
`CARRY_NOTHING`, core.lexicon.stop) is bound to something the step uses: the sheet it reads (its tab name), a
column it reads or filters (by the column's words or their synonyms), a cell value it filters on, a period it
reads (a year, a month in any form, a quarter or half), the line item of a statement grid, or an operation word.
The binding is written into the plan's reasoning (shown under "show the plan").

A word left unbound is only a reason to give no figure when it names something the sheet could hold and the step
ignores: a month of a sheet with the months across that the step does not read ("March" when Jan is read), a
value of a category column no cell holds ("Series D" of a share-class column holding "Series A" and "Series B"),
or arithmetic the table operation does not do ("units times unit cost", "what percentage" of a sheet holding no
percentages). Then the step's figure would answer another question: the plan has no step for the sheet, and says
how it read the question and which words it could not use. (Other unbound words are listed as unread: a
question carries many words a plan rightly ignores.)
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from core.cells import parse_number
from core.lexicon.comparison import COMPARATORS, POST_COMPARATORS, SUPERLATIVES
from core.lexicon.periods import fiscal_start, month_of, months_asked
from core.lexicon.stop import CARRY_NOTHING
from core.qa.planner.cells import OPERATION_WORDS
from core.qa.planner.cells.grid import month_columns, row_label
from core.qa.planner.lexicon import AGGREGATE_WORDS, SYNONYMS, TOTAL_WORDS, YEAR_RE, stem_of, words_of
from core.qa.planner.schema import ColumnInfo, SheetInfo
from core.qa.planner.sheets import naming_words
from core.qa.planner.spelling import spelled_like
from core.retrieval.cellmath import CellsStep, content_words
from core.retrieval.plan import Step, TableStep
from core.retrieval.tables import TableOp

# Words of an operation: aggregates, rankings, comparisons, changes, totals.
_OPERATION = (
    AGGREGATE_WORDS | OPERATION_WORDS | TOTAL_WORDS | set(SUPERLATIVES) | set(COMPARATORS) | set(POST_COMPARATORS)
)
# Arithmetic no table operation does: a product, a share, a margin, a variance ("how many times" counts).
# "Times" only between two quantities ("units times unit cost"), never of a count ("how many times", "2 times").
_DERIVED = re.compile(
    r"\b(?:multiplied|product of|percentage|percent|margin|variance|share of)\b"
    r"|(?<!\bmany)(?<!\bof)(?<!\bthe)(?<!\bconsecutive)(?<![\d\s])\s+times\s+(?!as\b|more\b|less\b|a\b|in\b|the\b)(?=[a-z])",
    re.I,
)
# A column whose values are categories (few, repeated): a word inside them names a filter the question asks.
MAX_CATEGORIES = 30


@dataclass(frozen=True)
class Binding:
    """Each content word and what it is bound to ("" when nothing), and the unbound words that block a figure."""

    bound: tuple[tuple[str, str], ...]
    blocking: tuple[tuple[str, str], ...]  # (word, why it blocks): "matches no column read", "a value of Segment"

    @property
    def unbound(self) -> list[str]:
        """The content words bound to nothing."""
        return [w for w, what in self.bound if not what]

    def text(self) -> str:
        """The binding as one sentence: "actual → sheet Actual; profit → line Gross profit; unread: foo"."""
        parts = [f"{w} → {what}" for w, what in self.bound if what]
        unread = self.unbound
        return f"Words read: {'; '.join(parts) or 'none'}" + (f"; unread: {', '.join(unread)}" if unread else "") + "."


def _forms(word: str) -> set[str]:
    forms = {word, stem_of(word)}
    if word.endswith("ed") and len(word) > 4:
        forms |= {word[:-2], word[:-1]}
    if word.endswith("ing") and len(word) > 5:
        forms |= {word[:-3], word[:-3] + "e"}
    return forms


def _column_words(columns: Sequence[str]) -> dict[str, str]:
    """Each word (and synonym) naming one of `columns` -> the column."""
    found: dict[str, str] = {}
    for name in columns:  # a column's whole name first: "shares" is the Shares column before "Share class"
        whole = [stem_of(w) for w in words_of(name)]
        if len(whole) == 1:
            found.setdefault(whole[0], name)
    for name in columns:
        words = {stem_of(w) for w in words_of(name)}
        for w in words:
            found.setdefault(w, name)
        for asked, targets in SYNONYMS.items():
            if words & set(targets):
                found.setdefault(asked, name)
    return found


def _op_columns(op: TableOp) -> list[str]:
    names = [f.column for f in op.filters] + list(op.select)
    names += [c for c in (op.group_by, op.sort_by, op.distinct) if c and c != "value"]
    if op.aggregate is not None and op.aggregate.column:
        names.append(op.aggregate.column)
    if op.same_as is not None:
        names += [op.same_as.column, op.same_as.row.column]
    return list(dict.fromkeys(names))


def _op_values(op: TableOp) -> set[str]:
    values: list[str | float] = []
    for f in [*op.filters, *([op.same_as.row] if op.same_as else [])]:
        values.extend(f.value if isinstance(f.value, list) else [f.value])
    return {stem_of(w) for v in values for w in words_of(str(v))}


def _month_columns(sheet: SheetInfo) -> dict[int, str]:
    """Month -> the column headed by it, of a sheet with the months across."""
    labels = ["" if c.name.startswith("Column ") else c.name for c in sheet.columns]
    return {int(key[1:]): sheet.columns[cols[0]].name for key, cols in month_columns(labels, -1).items()}


def _short(token: str) -> bool:
    """A class mark after a word: a letter, a number or a roman numeral ("A", "3", "IV")."""
    return len(token) <= 2 or token.isdigit() or re.fullmatch(r"[ivx]+", token) is not None


def _variants(question: str, sheet: SheetInfo, used: set[str]) -> dict[str, ColumnInfo]:
    """ "Series D" of a column whose values are "Series A", "Series B": words of the question written as a value of
    a category column the step does not use (a word, then a class mark) that no cell holds -> the column."""
    words = words_of(question)
    pairs = list(itertools.pairwise(words))
    found: dict[str, ColumnInfo] = {}
    for col in sheet.columns:
        if col.name in used or col.numeric or not col.values or not col.repeats or col.n_distinct > MAX_CATEGORIES:
            continue
        marked = {tuple(words_of(v)) for v in col.values}
        heads = {v[0] for v in marked if len(v) == 2 and _short(v[1]) and v[0].isalpha() and len(v[0]) > 2}
        for first, mark in pairs:
            if first in heads and _short(mark) and (first, mark) not in marked:
                found[f"{first} {mark}"] = col
    return found


def _question_words(question: str) -> list[str]:
    return list(dict.fromkeys(w for w in words_of(question) if w not in CARRY_NOTHING and not w.isdigit()))


def bind(question: str, step: Step, sheet: SheetInfo) -> Binding | None:
    """The binding of `question`'s words to a table or cells step over `sheet` (None for other steps)."""
    named = {w: f"sheet {sheet.name}" for w in naming_words(question, sheet)}
    months = _month_columns(sheet)
    asked_months, _ = months_asked(question, fiscal_start([c.name for c in sheet.columns]))
    if isinstance(step, CellsStep):
        targets = {stem_of(w): f"line {step.row_label}" for w in words_of(step.row_label)}
        targets |= {stem_of(w): f"line {step.other_label}" for w in words_of(step.other_label)}
        read_columns = set(step.columns)
        values: set[str] = set()
        categories: dict[str, ColumnInfo] = {}
    elif isinstance(step, TableStep):
        used = _op_columns(step.op)
        targets = {w: f"column {c}" for w, c in _column_words(used).items()}
        read_columns = set(used)
        values = _op_values(step.op)
        categories = _variants(question, sheet, set(used))
    else:
        return None
    bound: list[tuple[str, str]] = []
    blocking: list[tuple[str, str]] = []
    derived = _DERIVED.search(question) if isinstance(step, TableStep) else None
    column_words = {stem_of(w) for c in sheet.columns for w in words_of(c.name)}
    percents = any(c.dtype == "percent" or "%" in c.name for c in sheet.columns)
    held = {stem_of(w) for w in words_of(derived.group(0))} & column_words if derived else set()
    if derived and not held - {"share", "time"} and not percents:
        # (a column that holds it, "Percentage of votes", or the sheet's percentages, may be what is asked)
        blocking.append((derived.group(0).strip(), "asks arithmetic the table operation does not do"))
    period_tokens = {"q1", "q2", "q3", "q4", "h1", "h2"}
    for word in _question_words(question):
        forms = _forms(word)
        month = month_of(word) if (word != "may" or "May" in question) else None
        what = named.get(word, "")
        if not what and month is not None and months:
            column = months.get(month)
            what = f"period {column}" if column in read_columns else ""
            why = "matches no column it reads" + (f" (the sheet's {column} is not read)" if column else "")
            blocking += [] if what else [(word, why)]
        elif not what and word in period_tokens and months and asked_months:
            spanned = [months.get(m) for m in asked_months]
            what = f"period {spanned[0]}–{spanned[-1]}" if all(c in read_columns for c in spanned) else ""
            blocking += [] if what else [(word, "its months are not the columns it reads")]
        elif not what and YEAR_RE.fullmatch(word):
            what = "period"
        if not what:
            what = next((targets[f] for f in forms if f in targets), "")
        if not what and forms & values:
            what = "value"
        if not what and word in _OPERATION:
            what = "operation"
        bound.append((word, what))
    for phrase, col in categories.items():
        blocking.append((phrase, f"no {col.name} holds it"))
    if isinstance(step, TableStep):
        blocking += _periods_unread(question, bound, step, sheet)
        blocking += _columns_unread(question, bound, step, sheet)
    if isinstance(step, CellsStep) and sheet.page is None and sheet.model is not None:
        blocking += _sheet_parts_unread(question, bound, step, sheet)
    return Binding(bound=tuple(bound), blocking=tuple(dict.fromkeys(blocking)))


# A month written as part of a day's date ("October 31, 2019"): the balance date of a column, not a month asked.
_DATED_MONTH = re.compile(r"\b([A-Za-z]{3,9})\.?\s+\d{1,2}\b(?!\s*(?:months?|days?|years?)\b)")
_PERIOD_TOKENS = frozenset({"q1", "q2", "q3", "q4", "h1", "h2", "ytd", "quarter", "half", "month"})
# A question asking a name ("which segment", "who"): a cell's figure is not its answer.
_ASKS_NAME = re.compile(r"^\s*(?:in\s+|for\s+|at\s+)?(?:which|who)\b(?!\s+(?:year|period|quarter|month)s?\b)", re.I)
_NAMING_OPERATIONS = ("argmax", "argmin", "rank_items", "where", "periods", "line_items")


def _sheet_parts_unread(
    question: str, bound: list[tuple[str, str]], step: CellsStep, sheet: SheetInfo
) -> list[tuple[str, str]]:
    """A workbook's cells read by a rule that is not the sheet model's reading: a word of the question naming a part
    of the sheet the step does not read (another line or section, another column level, a period) or a name asked
    of a figure gave another figure than the one asked ("closing ARR at the end of Q2" read in the year's column,
    "which segment lost most" answered with a figure)."""
    model = sheet.model
    assert model is not None
    grid_row = next((g for g in sheet.grid if g.row_id == step.row_id), None)
    row = model.row(grid_row.row_number) if grid_row is not None and grid_row.row_number is not None else None
    read_texts = [*step.columns, *step.column_labels, step.row_label, step.other_label, *(row.path if row else ())]
    read = {stem_of(w) for t in read_texts for w in words_of(t)}
    # the parts a word could name instead: the sections, and the header levels that tell the columns apart
    figures = [c for c in model.columns if c.letter != model.label_letter]
    shared = set.intersection(*(set(c.path) for c in figures)) if figures else set()
    parts = [r.label for r in model.rows if r.role == "heading"]
    parts += [level for c in figures for level in c.path if level not in shared]
    held = {stem_of(w) for t in parts for w in words_of(t)} - read
    dated = {m.group(1).lower() for m in _DATED_MONTH.finditer(question)}  # "as of October 31": a date, read
    out = [(word, "names a part of the sheet this reading does not read") for word, what in bound
           if not what and stem_of(word) not in read and word not in dated
           and (word in _PERIOD_TOKENS or month_of(word) is not None
                or (not any(ch.isdigit() for ch in word) and any(spelled_like(stem_of(word), h) for h in held)))]  # fmt: skip
    if _ASKS_NAME.search(question) and step.operation not in _NAMING_OPERATIONS:
        out.append(("which", "asks a name, and this reading gives a figure"))
    percents = grid_row is not None and any("%" in (v or "") for v in grid_row.values)
    if (step.operation == "change" and _PERCENT_ASKED.search(question) and not percents
            and not _PERCENT_LINE.search(step.row_label)):  # fmt: skip
        out.append(("percent", "asks a percentage, and this reading gives the change in the line's own unit"))
    return out


# A percentage asked of a change ("for what percentage did … increase"), and a line whose figures are percentages
# or rates already (its change in points is asked so).
_PERCENT_ASKED = re.compile(r"%|\bpercent(?:age)?s?\b", re.I)
_PERCENT_LINE = re.compile(r"%|\bpercent|\bratio\b|\brate\b|\bmargin\b|\bfactor\b|\bshare\b|\byield\b", re.I)


# The thing a count counts: "how many draft picks", "the number of positions" (its rows, named by their column).
_COUNTED_NOUN = re.compile(
    r"\b(?:how\s+many|number\s+of)\s+(?:\w+\s+){0,2}?(?P<noun>\w+)\s+(?:were|was|are|is|did|do|does|have|had|listed|in|of|with|that|who|which|between|on|at|for)\b|\b(?:how\s+many|number\s+of)\s+(?P<last>\w+)\s*[?.]?$",
    re.I,
)


def _columns_unread(
    question: str, bound: list[tuple[str, str]], step: TableStep, sheet: SheetInfo
) -> list[tuple[str, str]]:
    """A count of rows whose question names a column of figures the count does not read, by the column's own word
    (its last: "conversions" of "Conversions", "scrap" of "Paint › Scrap", a typo of it too): the rows' number
    answers another question ("how many weeks had zero conversions" counted every week)."""
    if step.op.aggregate is None or step.op.aggregate.func != "count":
        return []
    used = set(_op_columns(step.op))
    heads = {stem_of(ws[-1]): c.name for c in sheet.columns if c.name not in used and c.numeric
             and (ws := words_of(_BRACKETED.sub(" ", c.name))) and not ws[-1].isdigit()
             and not c.name.startswith("Column ")}  # fmt: skip
    read = {stem_of(w) for c in used for w in words_of(c)}
    counted = _COUNTED_NOUN.search(question)
    if counted:
        read.add(stem_of((counted.group("noun") or counted.group("last")).lower()))
    return [(word, f"names the column {heads[head]}, which the operation does not read") for word, what in bound
            if not what and stem_of(word) not in read
            and (head := next((h for h in heads if spelled_like(stem_of(word), h)), None)) is not None]  # fmt: skip


# Words naming a part of a year: a figure over every row answers another question than "units in February".
_PART_OF_YEAR = frozenset({"q1", "q2", "q3", "q4", "h1", "h2", "quarter", "half"})


def _periods_unread(
    question: str, bound: list[tuple[str, str]], step: TableStep, sheet: SheetInfo
) -> list[tuple[str, str]]:
    """A month, quarter or half the question names that the operation reads nowhere (no filter on a date column, no
    column of it read): the rows' figure is of the whole table, not of that period."""
    dates = {c.name for c in sheet.columns if c.dtype == "date"}
    if any(f.column in dates for f in step.op.filters):
        return []
    return [
        (word, "names a period the operation reads in no date or column")
        for word, what in bound
        if not what and (word in _PART_OF_YEAR or (month_of(word) is not None and (word != "may" or "May" in question)))
    ]


# Words that join two things asked together: "sales of A and B", "A or B", "both A and B", "A, B".
_JOINED = re.compile(r"\b(?:and|or|both|plus)\b|&|,", re.I)
# A label's bracketed qualifier: "(Tier A)", "(note 4)", "(in thousands)".
_BRACKETED = re.compile(r"\([^()]*\)")


def lines_left_out(question: str, step: CellsStep, sheet: SheetInfo) -> list[str]:
    """Other line items of the grid the question names in full beside the one read, joined to it ("net sales of
    Retail and Wholesale" read on Retail alone; "emissions from heating and from travel" read on travel): the
    step's figure answers part of the question, so it is not the answer. A total line read is the sum the
    question may ask ("total of A and B"), and lines whose words are all the read line's are that line."""
    if not _JOINED.search(question) or content_words(step.row_label) & set(TOTAL_WORDS):
        return []
    if step.whole_table or step.item_row_ids:  # the table's periods, or the lines under a heading: all read
        return []
    asked = content_words(question)
    read = content_words(step.row_label) | content_words(step.other_label)
    left: list[str] = []
    for row in sheet.grid:
        label = row_label(row)
        words = content_words(label)
        if not words or row.row_id in (step.row_id, step.other_row_id) or label in (step.row_label, step.other_label):
            continue
        # a bracketed qualifier need not be asked: "Heating (Tier A)" is named by "heating"
        named = content_words(_BRACKETED.sub(" ", label)) or words
        own = named - read
        figures = any(parse_number(v or "") is not None for v in row.values[1:])
        # Its own words must name a thing, not an operation or a period ("change", "2019").
        if figures and own and named <= asked and own - _OPERATION and not any(YEAR_RE.fullmatch(w) for w in own):
            left.append(label)
    return list(dict.fromkeys(left))


def unread_reason(reading: str, binding: Binding) -> str:
    """Why no figure is given: "I read this as Total opex in Jan; “march” matches no column it reads."."""
    words = "; ".join(f"“{w}”: {why}" for w, why in binding.blocking)
    return f"I read this as {reading.rstrip('. ')}, but some words match nothing it reads ({words}), so it gives no figure."
