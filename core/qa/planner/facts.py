"""A question read against a sheet's table model (core.sheetmodel): the row its words name by the row's whole path,
the period it names read as a span of the calendar and matched to the columns' periods, every content word bound.

This serves the sheets whose structure has more than one level — stacked header rows ("2024 › Q3"), sections with
their lines under them ("EMEA › Widgets"), periods across stored as dates or quarters, fiscal years that do not
start in January — where a line's label alone, or a header's last row alone, does not say which cell is asked:
- the row: the most specific row whose own label is in the question, its parents in the question too when the
  same label stands under several parents (otherwise it is not known which, and nothing is answered here); a
  heading asked is its section's subtotal or total line;
- the period: a year, fiscal year, quarter, half or month of the question as a span of days, with the fiscal
  year's first month from the model; the one column of exactly that span, else the columns of one kind that tile
  it (three months of a quarter, four quarters of a year), added up;
- every content word of the question bound: to the row's path, the columns' other header levels, the period, the
  sheet's title or name, or an operation; a word left over means the question asks something this reading does
  not, and the rule gives way to the others.
The answer is a `CellsStep` (core.retrieval.cellmath), run exactly and citing each cell read. The readings over
several cells (rankings, changes, shares, variances, counts) and the choice among a room's sheets are in
core.qa.planner.model_reading, built on the binding here (`Words`, `row_candidates`, `columns_asked`, `unbound`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from itertools import pairwise

from core.cells import parse_number
from core.lexicon.periods import MONTH_NUMBERS, months_asked, split_year_end, year_mentions
from core.lexicon.questions import TOTAL_WORDS
from core.lexicon.vocabulary import name_suffixes
from core.qa.planner.cells.grid import GridRow
from core.qa.planner.schema import SheetInfo
from core.qa.planner.spelling import capitalised, respell
from core.qa.planner.vocabulary import synonyms
from core.retrieval.cellmath import STOP, CellsStep, Operation, content_words, unflagged, word_list
from core.sheetmodel import (
    PATH_SEPARATOR,
    ColumnModel,
    RowModel,
    TableModel,
    month_span,
    own_unit,
    period_of,
)

MAX_CHOICES = 4  # readings offered in a question back; more are not a choice a person makes at a glance

# Words that name a span of the calendar rather than something measured (the period is read from them).
_PERIOD_WORDS = frozenset(
    "year years yearly annual annually full whole fiscal fy calendar quarter quarters quarterly half halves month q h "
    "months monthly first second third fourth 1st 2nd 3rd 4th q1 q2 q3 q4 h1 h2 ended ending end period ytd inclusive "
    "through thru until till across".split()
)
# Words that ask for the figure itself, or for the figures of a span added up.
_VALUE_WORDS = frozenset(
    word_list(
        "value figure amount number count level reported show find give list get tell much many "
        # verbs that report a figure without naming anything ("posted negative SSS", "running above target")
        "running run posted post recorded record came come saw see showed had have has achieved delivered ended"
    )
)
# Words that ask a figure as a rate or a percentage: bound when the cells read are percentages.
_RATE_WORDS = frozenset(word_list("rate rates percentage percent pct ratio"))
# Words that state the unit of the answer: the figure is given in the sheet's unit, and says it.
_UNIT_WORDS = frozenset("thousand million billion dollar usd cent percent percentage".split())

_FISCAL = re.compile(r"\bfiscal\b|\bfy\s?'?\d", re.I)
# A whole year asked without its number ("the full-year budget"): the one year the sheet's columns run over.
_WHOLE_YEAR = re.compile(r"\bfull[-\s]year\b|\bwhole\s+year\b|\bannual\b|\bfor\s+the\s+year\b", re.I)
# A balance at a period's end ("at the end of Q2", "year-end headcount", "as of"): the span's last column, never a
# sum of its columns.
_AT_END = re.compile(r"\bend\s+of\b|\b(?:year|quarter|month|period)[-\s]end\b|\bas\s+(?:of|at)\b|\bclosing\b", re.I)


@dataclass(frozen=True)
class Span:
    start: date
    end: date


def _span(year: int, month: int, months: int) -> Span:
    return Span(*month_span(year, month, months))


def asked_span(question: str, model: TableModel) -> Span | bool | None:
    """The span of days the question's period names, read with the sheet's fiscal year: None when it names none,
    False when it names more than one (a comparison, read by other rules) or one this reading cannot place."""
    split = split_year_end(question)  # "2023-24" is the fiscal year ending in 2024, as the sheet's model reads it
    years = [str(split)] if split is not None else list(dict.fromkeys(y for y, _ in year_mentions(question)))
    whole_year = _WHOLE_YEAR.search(question)
    # A fiscal period when the question says so ("fiscal Q1", "FY25"), or with no year (the sheet's own year); else
    # the calendar's, as the words read.
    start = model.fiscal_start if _FISCAL.search(question) or not years else 1
    months, spanned = months_asked(question, start)
    ranged = month_range(question, start)
    if ranged:
        months, spanned = ranged, True
    if len(years) > 1 or (months and not spanned and len(months) > 1):
        return False
    if months and months != [(months[0] + i - 1) % 12 + 1 for i in range(len(months))]:
        return False  # two spans named ("Q1 and Q3")
    if not years and not months and not whole_year:
        return None
    if years:
        year = int(years[0])
    else:  # a quarter or month with no year: the one year (the sheet's own, fiscal or calendar) its columns run over
        spans = [c.period.start for c in model.columns if c.period]
        first_years = {int(s[:4]) + (1 if start != 1 and int(s[5:7]) >= start else 0) for s in spans}
        if len(first_years) != 1:
            return False
        year = first_years.pop()
    first_year = year - 1 if start != 1 else year
    if months:
        first = months[0]
        return _span(first_year if start == 1 or first >= start else first_year + 1, first, len(months))
    return _span(first_year, start, 12)


# A range of periods: "from February through May", "Q1 to Q3", "Jan–Jun".
_RANGE = re.compile(r"\b(?:to|through|thru|until|till)\b|[–—-]", re.I)
_NEAR = 14  # characters each side of a range word the two periods stand within


def month_range(question: str, start: int = 1) -> list[int]:
    """The months from the first period of a range to the last ("Q1 to Q3": January to September), or []."""
    for m in _RANGE.finditer(question):
        before = months_asked(question[: m.start()].rstrip()[-_NEAR:], start)[0]
        after = months_asked(question[m.end() :].lstrip()[:_NEAR], start)[0]
        if before and after:
            first, last = before[0], after[-1]
            return [(first - 1 + i) % 12 + 1 for i in range((last - first) % 12 + 1)]
    return []


def column_span(column: ColumnModel) -> Span | None:
    if column.period is None or column.period.kind == "day":
        return None
    return Span(date.fromisoformat(column.period.start), date.fromisoformat(column.period.end))


def period_columns(model: TableModel, span: Span, *, exact: bool = True) -> list[ColumnModel] | None:
    """The column of exactly the span asked (unless not `exact`), else the columns of one kind that tile it — in
    each group of columns told apart by their other header levels ("Budget › Q1".."Q3" and "Actual › Q1".."Q3"
    each tile the first three quarters); None when neither."""
    spanned = [(c, s) for c in model.columns if c.letter != model.label_letter and (s := column_span(c)) is not None]
    same = [c for c, s in spanned if s == span]
    if same and exact:
        return same
    groups: dict[frozenset[str], list[tuple[ColumnModel, Span]]] = {}
    for column, its_span in spanned:
        groups.setdefault(frozenset(other_levels(column)), []).append((column, its_span))
    tiled = [c for group in groups.values() for c in tiling(group, span)]
    return sorted(tiled, key=lambda c: model.columns.index(c)) or None


def tiling(spanned: list[tuple[ColumnModel, Span]], span: Span) -> list[ColumnModel]:
    """The columns of one kind (months, quarters or halves) that tile the span, in order; [] when none do."""
    for kind in ("month", "quarter", "half"):
        inside = sorted(
            ((c, s) for c, s in spanned if c.period and c.period.kind == kind and span.start <= s.start
             and s.end <= span.end),
            key=lambda cs: cs[1].start,
        )  # fmt: skip
        if len(inside) < 2 or inside[0][1].start != span.start or inside[-1][1].end != span.end:
            continue
        if all((b.start - a.end).days == 1 for (_, a), (_, b) in pairwise(inside)):
            return [c for c, _ in inside]
    return []


def label_words(label: str) -> list[set[str]]:
    """The ways a row's or column's label is named: its words, its words without its brackets (units, note marks),
    and each bracket that names the line itself — an abbreviation it defines ('Available seat miles ("ASMs")')."""
    # a short name that is a common word ("IT"): its own words, stop word or not
    variants = [content_words(label) or (set(word_list(label)) if label.strip().isupper() else set())]
    if "(" in label:
        bare = re.sub(r"\([^)]*\)", " ", label)
        variants.append(content_words(bare))
        for inside in re.findall(r"\(([^)]*)\)", label):
            text = inside.strip().strip("\"'“”‘’")
            if own_unit(f"({inside})") is None and re.search(r"[A-Za-z]{2,}", text) and len(text.split()) <= 3:
                variants.append(content_words(text))
    return [v for v in variants if v]


@dataclass(frozen=True)
class RowFit:
    row: RowModel
    words: set[str]  # the question's words its path binds
    whole: bool = True  # its own label named whole (not only its head and most of its words)
    bracketed: bool = True  # named with its brackets' words too (or it has none)


def _head(label: str) -> str:
    """The word a label is about: its last content word before "per" ("Average fuel price per gallon": price)."""
    words = [w for w in word_list(re.sub(r"\([^)]*\)", " ", label).split(" per ")[0]) if w not in STOP]
    return words[-1] if words else ""


def _own_names(row: RowModel, wanted: set[str]) -> tuple[set[str], bool, bool] | None:
    """The question's words naming the row's own label, and whether they name it whole: all of one of its names, or
    (a shorter name the question uses) its head word and at least half of its words, two or more ("load factor"
    of "Passenger load factor"; not "revenue" of "Passenger revenue per ASM", nor "gap" of "Cumulative gap")."""
    names = label_words(row.label)
    own = [v for v in names if v <= wanted]
    if own:
        return max(own, key=len), True, names[0] in own
    head = _head(row.label)
    parts = [v & wanted for v in names
             if head in wanted and head in v and len(v & wanted) >= 2 and 2 * len(v & wanted) >= len(v)]  # fmt: skip
    return (max(parts, key=len), False, False) if parts else None


def row_fit(row: RowModel, wanted: set[str]) -> RowFit | None:
    """How a row binds the question's words: its own label by one of its names, then any of its parents named."""
    own = _own_names(row, wanted)
    if own is None:
        return None
    bound = set(own[0])
    for parent in row.path[:-1]:
        names = [v for v in label_words(parent) if v <= wanted]
        if names:
            bound |= max(names, key=len)
    return RowFit(row, bound, own[1], own[2])


def row_candidates(model: TableModel, wanted: set[str]) -> list[RowFit]:
    """The rows the question names best (most of its words bound, a whole name before a part): one when it is
    known which, several when they are named alike (the same line under two sections the question does not
    tell apart); a heading asked is its section's subtotal or total line."""
    fits = [f for r in model.rows if r.role != "note" and r.label and (f := row_fit(r, wanted)) is not None]
    if not fits:
        return []
    best = max((len(f.words), f.whole, f.bracketed) for f in fits)
    out = []
    for fit in (f for f in fits if (len(f.words), f.whole, f.bracketed) == best):
        if fit.row.role == "heading":
            closing = [r for r in model.rows if r.role in ("subtotal", "total") and r.path[:-1] == fit.row.path]
            if len(closing) != 1:
                continue
            fit = RowFit(closing[0], fit.words, fit.whole, fit.bracketed)
        out.append(fit)
    return out


@dataclass(frozen=True)
class Ambiguous:
    """A question the sheet reads two or more ways, each complete (every word bound): which is meant is asked."""

    sheet: SheetInfo
    options: list[CellsStep]
    sheet_names: tuple[str, ...] = ()  # each option's sheet, when the readings are on several sheets


def line_items_by_model(sheet: SheetInfo) -> bool:
    """Whether the model reads the sheet as line items down and periods across with more than one level (stacked
    period headers, or sections of lines): a statement, not a list of records, whose rows a record operation would
    mix (a section's lines with its subtotal, one year's quarter with another's)."""
    model = sheet.model
    if model is None or model.label_letter is None:
        return False
    periods = sum(1 for c in model.columns if c.period is not None)
    stacked = any(len(c.path) > 1 for c in model.columns if c.period is not None)
    sections = any(r.role == "heading" for r in model.rows) or bool(model.group_letters)
    return periods >= 2 and (stacked or sections)


def mixed_kinds(sheet: SheetInfo) -> bool:
    """Whether some rows of a sheet with row labels hold only percentages and others only amounts across the same
    columns ("Expected loss rate 1% 5%" over "Gross amount 23,762 2,068"): each row its own measure, so a sum or
    share down a column would add rates to amounts (a lookup of one row is still fine)."""
    model = sheet.model
    if model is None or model.label_letter is None:
        return False
    label = next((c.position for c in sheet.columns if c.letter == model.label_letter), None)
    kinds = set()
    for row in sheet.grid:
        figures = [v for i, v in enumerate(row.values) if i != label and v and parse_number(v) is not None]
        if len(figures) >= 2:
            percent = sum(1 for v in figures if "%" in v)
            kinds.add("rate" if percent == len(figures) else "amount" if not percent else "mixed")
    return {"rate", "amount"} <= kinds


def layered(model: TableModel) -> bool:
    """Whether the table's structure has more than one level: what this reading serves (a flat statement or a
    list of records is read by the other rules)."""
    stacked = any(len(c.path) > 1 for c in model.columns if c.letter != model.label_letter)
    sections = any(len(r.path) > 1 for r in model.rows)
    dated = model.fiscal_start != 1 or any(c.period and c.period.kind in ("month", "quarter") for c in model.columns)
    return model.label_letter is not None and (stacked or sections or dated)


# The unit a question asks its figure in: "in dollars", "in actual dollars", "in thousands", "in cents".
_ASKED_UNIT = re.compile(
    r"\bin\s+(?:actual\s+|whole\s+|full\s+|absolute\s+|raw\s+)?(?P<unit>dollars?|usd|euros?|pounds?|cents?|"
    r"thousands?|millions?|billions?)\b",
    re.I,
)
_CURRENCY_UNITS = ("dollar", "usd", "euro", "pound")


def asked_unit(question: str) -> tuple[str, set[str]]:
    """The scale word the question asks its figure in ("unit" for whole dollars), and the words saying it. A unit in
    brackets ("RPMs (in millions)") describes the figure asked rather than asking it converted: none is asked."""
    found = _ASKED_UNIT.search(question)
    if found is None:
        return "", set()
    if question[: found.start()].rstrip().endswith("("):
        return "", set(word_list(found.group(0)))
    unit = found.group("unit").lower().rstrip("s")
    return ("unit" if unit in _CURRENCY_UNITS else unit), set(word_list(found.group(0)))


@dataclass(frozen=True)
class Words:
    """The question's content words in the sheet's spelling (core.qa.planner.spelling), its unit asked, and the
    vocabulary's other phrases for its words."""

    wanted: set[str]
    every: set[str]  # wanted, with the words of the other phrases of their vocabulary groups
    said: dict[str, set[str]]
    asked_scale: str
    respelled: dict[str, str]  # the question's word → the sheet's word(s) it was read as
    numbers: set[str]  # the numbers the question says, as written ("3", "12" of "the 3-12 month bucket")

    @staticmethod
    def of(question: str, model: TableModel | None = None, sheet: SheetInfo | None = None) -> Words:
        asked_scale, unit_words = asked_unit(question)
        wanted = content_words(question) - unit_words
        respelled: dict[str, str] = {}
        if model is not None:
            labels = [r.label for r in model.rows if r.label and r.role != "note"]
            labels += [p for c in model.columns for p in c.path]
            titles = (*model.title, sheet.title, sheet.name) if sheet is not None else model.title
            held = {w for text in (*labels, *titles) for v in label_words(text) for w in v}
            wanted |= capitalised(question) & held
            read = respell(wanted, held, labels)
            wanted, respelled = read.words, read.read
        said = synonyms(wanted)
        every = wanted | {w for others in said.values() for w in others}
        return Words(wanted, every, said, asked_scale, respelled, set(re.findall(r"\d+", question)))


def other_levels(column: ColumnModel) -> set[str]:
    """The words of a column's header levels that name no period ("Budget" of "Budget › Q1"; a period's total
    column, "Q1 Total", names its period alone)."""
    return content_words(" ".join(column.path)) - period_words(" ".join(column.path)) - TOTAL_WORDS


def columns_asked(model: TableModel, span: Span | None, words: Words) -> list[ColumnModel] | None:
    """The columns asked, bound level by level: of the span asked (the column of exactly it, or those tiling it),
    and each of their other header levels named by the question ("Budget", "Actual (unaudited)", "YTD", "3–12
    months") unless every column shares it ("Year ended December 31"); the one figure column when the sheet has
    one. None when no column, or columns of two readings, are named."""
    figures = [c for c in model.columns if c.letter != model.label_letter and c.letter not in model.group_letters]
    if span is None and len(figures) == 1:
        return figures
    base = period_columns(model, span) if span is not None else figures
    if not base:
        return None
    shared = set.intersection(*(set(c.path) for c in figures)) if figures else set()
    named = [c for c in base if all(_level_named(level, c, span, words) for level in c.path if level not in shared)]
    if len({frozenset(other_levels(c)) for c in named}) > 1:
        # columns of several groups named: the group the question names whole, if one
        named = [c for c in named if other_levels(c) <= words.wanted]
        if len({frozenset(other_levels(c)) for c in named}) > 1:
            return None
    if not named or (span is None and len(named) > 1):
        return None
    return named


# A footnote mark in a header ("Funded beds (1)"): no number the question names.
_MARK = re.compile(r"\(\d{1,2}\)|\[\d{1,2}\]")


def _level_named(level: str, column: ColumnModel, span: Span | None, words: Words) -> bool:
    """Whether the question names one header level of a column: a period level by the span asked (the column is
    of it), any other by one of its words, with each of its small numbers said too ("3–12 months", "Week 2")."""
    if period_of([level]) is not None or period_words(level) >= content_words(level):
        if column.period is not None:
            return span is not None
    text = _MARK.sub(" ", level)
    numbers = set(re.findall(r"\d+", text)) - {y for y, _ in year_mentions(text)}
    named = content_words(text) & words.wanted if content_words(text) else numbers  # ">5 years": its number names it
    return bool(named) and numbers <= words.numbers


def additive(model: TableModel, grid: Sequence[GridRow], row: RowModel | None = None) -> bool:
    """Whether the figures add up across periods (flows, not balances), as the table's own arithmetic shows: a
    column of a longer period equals the sum of the columns that tile it — on the line asked when it fills them (a
    forecast's flows add up where its balance lines do not), else on every line that fills them."""
    if row is not None:
        own = _adds_up_across(model, grid, [row])
        if own is not None:
            return own
    return bool(_adds_up_across(model, grid, model.rows))


def _adds_up_across(model: TableModel, grid: Sequence[GridRow], rows: Sequence[RowModel]) -> bool | None:
    """True when each of `rows` filling a longer period's column and its parts adds up, False when one does not,
    None when none fills them."""
    by_number = {g.row_number: g for g in grid}
    positions = {c.letter: i for i, c in enumerate(model.columns)}
    spans = [(c, s) for c in model.columns if (s := column_span(c)) is not None]
    checked = 0
    for whole in model.columns:
        span = column_span(whole)
        if span is None:
            continue
        alike = [(c, s) for c, s in spans if other_levels(c) == other_levels(whole)]
        parts = [c for c in tiling(alike, span) if c is not whole]
        if len(parts) < 2:
            continue
        for row in rows:
            grid_row = by_number.get(row.row_number)
            if grid_row is None or row.role == "heading":
                continue
            values = [parse_number(grid_row.values[positions[c.letter]] or "")
                      if positions[c.letter] < len(grid_row.values) else None for c in (whole, *parts)]  # fmt: skip
            if any(v is None for v in values):
                continue
            if abs(sum(values[1:]) - values[0]) > 0.5 * len(parts):  # type: ignore[arg-type,operator]
                return False
            checked += 1
        if checked:
            return True
    return None


def _operation(
    question: str, cells: list[ColumnModel], model: TableModel, grid: Sequence[GridRow], row: RowModel | None = None
) -> tuple[Operation, list[ColumnModel]] | None:
    """ "value" of one column; of several tiling the span: a balance at its end ("at the end of Q2") is the last
    column's value, a sum said ("in total", "full-year") or shown by the table's own arithmetic (its figures add
    up across periods) adds them; None when neither is known (a flow or a balance?)."""
    if len(cells) == 1:
        return "value", cells
    if _AT_END.search(question):
        return "value", cells[-1:]
    if set(word_list(question)) & TOTAL_WORDS or _WHOLE_YEAR.search(question) or additive(model, grid, row):
        return "sum", cells
    return None


def sheet_cells(question: str, sheet: SheetInfo, model: TableModel) -> CellsStep | Ambiguous | None:
    """The one reading of the question on the sheet, or the readings to choose from when several rows are named
    alike and each reads every word."""
    words = Words.of(question, model, sheet)
    asked = asked_span(question, model)
    if asked is False:
        return None
    span = asked if isinstance(asked, Span) else None
    steps = [s for fit in row_candidates(model, words.every) if (s := _fit_cells(question, sheet, model, words, span,
                                                                                       fit)) is not None]  # fmt: skip
    if len(steps) > 1:
        return Ambiguous(sheet, steps)
    return steps[0] if steps else None


def _fit_cells(
    question: str, sheet: SheetInfo, model: TableModel, words: Words, span: Span | None, fit: RowFit
) -> CellsStep | None:
    """The cells of the row `fit` binds, in the columns of the span asked, when every word of the question is read."""
    row = fit.row
    columns = columns_asked(model, span, words)
    grid_row = figures_row(sheet, row, columns or [])
    if not columns or grid_row is None:
        return None
    names = {c.letter: c.name for c in sheet.columns}
    position = {c.letter: c.position for c in sheet.columns}
    bound = set(fit.words)
    if row.role in ("subtotal", "total"):
        heading = row.path[-2] if len(row.path) > 1 else ""
        bound |= {w for v in label_words(heading) for w in v if w in words.wanted} | {"total"}
    bound |= {w for c in columns for w in other_levels(c)}
    # the sheet's title and name, and the label column's header ("Region / Product", "Department"): what the sheet
    # and its rows are
    label_header = next((c.name for c in model.columns if c.letter == model.label_letter), "")
    title_words = content_words(" ".join((*model.title, sheet.title, sheet.name, label_header)))
    bound |= title_words
    if any("%" in (grid_row.values[position[c.letter]] or "") for c in columns):
        bound |= _RATE_WORDS  # "the occupancy rate": a percentage figure is the rate asked
    # named by another phrase of its group, of the words bound or of the line's path ("spend" of "Cash outflows")
    path_words = {w for part in row.path for v in label_words(part) for w in v}
    bound |= {w for w, others in words.said.items() if others & (bound | path_words)}
    if words.wanted & title_words:  # a company the title names, with its suffix ("Harbor" of "Harbor Air Lines")
        bound |= set(word_list(" ".join(name_suffixes()))) & words.wanted
    left = words.wanted - bound - period_words(question) - _VALUE_WORDS - TOTAL_WORDS - _UNIT_WORDS
    chosen = _operation(question, columns, model, sheet.grid, row) if not left else None
    if chosen is None:
        return None
    operation, cells = chosen
    label = PATH_SEPARATOR.join(row.path)
    spans = ", ".join(names[c.letter] for c in cells)
    period = words.wanted & period_words(question)
    read = [f"{', '.join(sorted(bound & words.wanted - title_words))} → line {label}"]
    if period:
        read.append(f"{', '.join(sorted(period))} → {'period' if span else 'column'} {spans}")
    read += [f"{asked} → {held} (spelling)" for asked, held in sorted(words.respelled.items())]
    summed = ", added up" if operation == "sum" else ""
    reason = f"The sheet's model reads “{label}” in {spans}{summed}. Words read: {'; '.join(read)}."
    return CellsStep(sheet_id=sheet.sheet_id, operation=operation, row_id=grid_row.row_id, row_label=label,
                     columns=[names[c.letter] for c in cells], column_labels=[names[c.letter] for c in cells],
                     reason=reason, read_whole=True, asked_scale=words.asked_scale)  # fmt: skip


def figures_row(sheet: SheetInfo, row: RowModel, columns: Sequence[ColumnModel]) -> GridRow | None:
    """The stored row of a model's line when it holds a figure in each of `columns` (else None)."""
    grid_row = next((g for g in sheet.grid if g.row_number == row.row_number), None)
    position = {c.letter: c.position for c in sheet.columns}
    if grid_row is None or not all(
        c.letter in position and holds_figure(grid_row, position[c.letter]) for c in columns
    ):
        return None
    return grid_row


def holds_figure(row: GridRow, position: int) -> bool:
    """Whether the cell holds a figure (a suppressed "x", "..", "n/a" or "—" is no figure to read or add)."""
    return position < len(row.values) and parse_number(unflagged((row.values[position] or "").strip())) is not None


def period_words(text: str) -> set[str]:
    """The words of `text` that name a period: years ("2024", "FY25"), months, quarters, halves."""
    named = set(word_list(" ".join(w for _, w in year_mentions(text))))
    return named | (set(word_list(text)) & (_PERIOD_WORDS | set(MONTH_NUMBERS)))


def unbound(question: str, sheet: SheetInfo, model: TableModel, words: Words, bound: set[str]) -> set[str]:
    """The question's words a reading leaves unbound: not its line's or columns' (`bound`), the sheet's title or
    label header, a period, a value or unit word, or another phrase of a bound word's vocabulary group."""
    label_header = next((c.name for c in model.columns if c.letter == model.label_letter), "")
    title_words = content_words(" ".join((*model.title, sheet.title, sheet.name, label_header)))
    bound = bound | title_words
    bound |= {w for w, others in words.said.items() if others & bound}
    return words.wanted - bound - period_words(question) - _VALUE_WORDS - TOTAL_WORDS - _UNIT_WORDS
