"""A room's question read against its sheets' table models (core.sheetmodel), beyond the one cell of
core.qa.planner.facts: the rankings, changes, shares, variances and counts a question asks of a modelled sheet, the
choice among sheets, and the question back when it reads several ways.

Each reading binds every content word of the question (facts.unbound) and names the class it serves:
- rankings: "which region / product" ranks sections or lines as the label column's header names its levels; "which
  month / year / bucket" ranks one line's columns of that kind; "which mine had the highest head grade" ranks the
  sections by the line of that name each holds;
- a line's change between two periods ("2024 vs 2023", "from Q2 FY24 to Q2 FY25"), as a percentage when asked;
- a line's share of the total it is part of; a variance against plan (the actual column less the budget column);
- how many lines (of a section named) or periods of one line pass a threshold or a sign;
- the same reading on two sheets of a room, or two lines named alike on one, is asked back (a ClarifyStep): a
  question back instead of a guess.
Every figure is a `CellsStep` (core.retrieval.cellmath), run exactly and citing each cell read.
"""

from __future__ import annotations

import re
from typing import Literal

from core.lexicon.comparison import SHARE_WORDS, SUPERLATIVES
from core.lexicon.periods import year_mentions
from core.lexicon.questions import TOTAL_WORDS
from core.qa.planner.cells.words import BELOW, CHANGE_WORDS, THRESHOLD_AT
from core.qa.planner.facts import (
    MAX_CHOICES,
    Ambiguous,
    RowFit,
    Span,
    Words,
    asked_span,
    column_span,
    columns_asked,
    figures_row,
    holds_figure,
    label_words,
    layered,
    other_levels,
    period_columns,
    row_candidates,
    row_fit,
    sheet_cells,
    unbound,
)
from core.qa.planner.schema import RoomSchema, SheetInfo
from core.retrieval.cellmath import CellsStep, content_words, word_list
from core.retrieval.plan import Choice, ClarifyStep
from core.sheetmodel import PATH_SEPARATOR, RowModel, TableModel, with_fiscal_start
from core.text import STOP_WORDS


def model_cells(question: str, schema: RoomSchema) -> tuple[CellsStep, SheetInfo] | Ambiguous | None:
    """The cells of a modelled sheet that answer `question` (see the module's docstring), the readings to choose
    from when it reads several ways, or None."""
    found: list[tuple[CellsStep, SheetInfo] | Ambiguous] = []
    fiscal = _workbook_fiscal_starts(schema)
    for sheet in schema.sheets:
        model = sheet.model
        if model is None or sheet.page is not None or not sheet.grid or not layered(model):
            continue
        if model.fiscal_start == 1 and fiscal.get(sheet.document_id, 1) != 1:
            # one workbook, one fiscal year: a tab that does not say when its year starts reads its sibling's
            model = with_fiscal_start(model, fiscal[sheet.document_id])
        derived = (_ranked(question, sheet, model) or _ranked_across(question, sheet, model)
                   or _changed(question, sheet, model) or _shared(question, sheet, model)
                   or _variance(question, sheet, model) or _counted(question, sheet, model))  # fmt: skip
        step = derived if derived is not None else sheet_cells(question, sheet, model)
        if isinstance(step, CellsStep):
            found.append((step, sheet))
        elif step is not None:
            found.append(step)
    steps = [f for f in found if isinstance(f, tuple)]
    if len(steps) > 1:
        # the same reading on two sheets ("Closing ARR" on the bridge and on a tab of its segments): which is asked
        return Ambiguous(steps[0][1], [s for s, _ in steps], tuple(sh.name for _, sh in steps))
    if len(steps) == 1:
        # one sheet reads the question whole, another only with a line the question does not name (a segment's
        # "Closing ARR"): the whole reading is the one asked
        return steps[0]
    return found[0] if len(found) == 1 else None


def _workbook_fiscal_starts(schema: RoomSchema) -> dict[int, int]:
    """Each workbook's fiscal year start, when its tabs that state one agree."""
    starts: dict[int, set[int]] = {}
    for sheet in schema.sheets:
        if sheet.model is not None and sheet.page is None and sheet.model.fiscal_start != 1:
            starts.setdefault(sheet.document_id, set()).add(sheet.model.fiscal_start)
    return {doc: next(iter(months)) for doc, months in starts.items() if len(months) == 1}


# "Which region had the highest sales in Q4", "which department has the smallest budget": a ranking of rows.
_WHICH = re.compile(r"^\s*(?:which|what)\s+(?P<kind>[a-z]+)", re.I)
# A label column's header naming its levels: "Region / Product", "Department › Line", "Segment and product".
_LEVELS = re.compile(r"\s*(?:/|›|>|\\|\band\b|&)\s*")


def _ranked(question: str, sheet: SheetInfo, model: TableModel) -> CellsStep | None:
    """Which of the sheet's sections (by their total lines) or lines holds the most or least in the period asked: the
    kind of row asked names a level of the label column's header ("Region / Product": regions are the sections,
    products the lines)."""
    which = _WHICH.search(question)
    most = next((w for w in word_list(question) if w in SUPERLATIVES), None)
    if most is None or which is None:
        return None
    words = Words.of(question, model, sheet)
    asked = asked_span(question, model)
    span = asked if isinstance(asked, Span) else None
    columns = columns_asked(model, span, words) if asked is not False else None
    header = next((c.name for c in model.columns if c.letter == model.label_letter), "")
    levels = [content_words(level) for level in _LEVELS.split(header) if level.strip()]
    kind = set(word_list(which.group("kind")))
    depth = next((i for i, level in enumerate(levels) if kind & level), None)
    if not columns or depth is None:
        return None
    sections = len(levels) > 1 and depth == 0
    rows = [r for r in model.rows if r.role in (("subtotal", "total") if sections else ("data",)) and r.label]
    if sections:
        rows = [r for r in rows if len(r.path) == 2]  # a section's own total line ("Total EMEA"), not the grand total
    by_number = {g.row_number: g for g in sheet.grid}
    position = {c.letter: c.position for c in sheet.columns}
    items = [(r, by_number[r.row_number]) for r in rows if r.row_number in by_number]
    items = [
        (r, g) for r, g in items if all(holds_figure(g, position[c.letter]) for c in columns if c.letter in position)
    ]
    if len(items) < 2:
        return None
    if unbound(question, sheet, model, words, kind | {w for c in columns for w in other_levels(c)} | {most}):
        return None
    names = {c.letter: c.name for c in sheet.columns}
    labels = [r.path[0] if sections else r.label for r, _ in items]
    spans = ", ".join(names[c.letter] for c in columns)
    what = " ".join(model.title[:1]) or sheet.name
    reason = (f"The sheet's model ranks its {'sections by their total lines' if sections else 'lines'} by {spans}"
              f"{', added up' if len(columns) > 1 else ''}. Words read: {which.group('kind')} → "
              f"{'sections' if sections else 'lines'} ({header}); {most} → ranking.")  # fmt: skip
    return CellsStep(sheet_id=sheet.sheet_id, operation="rank_items", row_id=items[0][1].row_id, row_label=what,
                     columns=[names[c.letter] for c in columns], column_labels=[names[c.letter] for c in columns],
                     item_row_ids=[g.row_id for _, g in items], item_labels=labels,
                     pick="max" if SUPERLATIVES[most][0] else "min", reason=reason,
                     read_whole=True)  # fmt: skip


# The kind of thing a "which" question asks, to its verb: "which time bucket has", "which mine had".
_WHICH_KIND = re.compile(
    r"^\s*(?:in\s+|for\s+|at\s+|during\s+)?(?:which|what)\s+(?P<kind>(?:[a-z&-]+\s+){0,2}?[a-z&-]+)\s+"
    r"(?:had|has|have|was|were|is|are|did|does|do|saw|shows?|showed|posted|with|in|of|for)\b",
    re.I,
)
Pick = Literal["max", "min"]
_PERIOD_KINDS = {"month": "month", "year": "year", "quarter": "quarter", "half": "half"}
# Sign words a ranking answers with its pick: the largest positive is the largest (when it is above zero).
_SIGNS = {"positive": "max", "negative": "min"}


def _ranked_across(question: str, sheet: SheetInfo, model: TableModel) -> CellsStep | None:
    """ "Which month had the weakest net cash flow", "which time bucket has the largest gap", "which mine had the
    highest head grade": the columns of one line ranked (the kind asked names a period kind or a level of the
    columns' headers), or the sections ranked by the line each of them holds (the measure asked is a line
    repeated under each section)."""
    which = _WHICH_KIND.search(question)
    most = next((w for w in word_list(question) if w in SUPERLATIVES), None)
    if most is None or which is None:
        return None
    words = Words.of(question, model, sheet)
    kind = set(word_list(which.group("kind"))) - STOP_WORDS  # "year" and "month" name the kind asked here
    pick: Pick = "max" if SUPERLATIVES[most][0] else "min"
    signs = {w for w, p in _SIGNS.items() if p == pick}
    asked = asked_span(question, model)
    if asked is False or not kind:
        return None
    span = asked if isinstance(asked, Span) else None
    measured = Words(words.wanted - kind - {most} - signs, words.every - kind - {most} - signs, words.said,
                      words.asked_scale, words.respelled, words.numbers)  # fmt: skip
    return _columns_ranked(question, sheet, model, measured, kind, most, pick, span) or _sections_ranked(
        question, sheet, model, measured, kind, most, pick, span
    )


def _columns_ranked(
    question: str,
    sheet: SheetInfo,
    model: TableModel,
    words: Words,
    kind: set[str],
    most: str,
    pick: Pick,
    span: Span | None,
) -> CellsStep | None:
    """One line's columns of the kind asked (months, years, or the columns under a header level naming the kind),
    the one with the most or least named."""
    period_kind = next((_PERIOD_KINDS[k] for k in kind if k in _PERIOD_KINDS), None)
    figures = [c for c in model.columns if c.letter != model.label_letter and c.letter not in model.group_letters]
    if period_kind is not None:
        items = [c for c in figures if c.period is not None and c.period.kind == period_kind
                 and (span is None or ((s := column_span(c)) is not None and span.start <= s.start
                                       and s.end <= span.end))]  # fmt: skip
    else:
        items = [c for c in figures if any(kind & content_words(level) for level in c.path[:-1])
                 and not content_words(c.path[-1]) & TOTAL_WORDS]  # fmt: skip
    if len({frozenset(other_levels(c)) for c in items}) > 1:
        items = [c for c in items if other_levels(c) - kind <= words.wanted]
    fits = row_candidates(model, words.every)
    if len(items) < 2 or len(fits) != 1:
        return None
    row = fits[0].row
    grid_row = figures_row(sheet, row, items)
    if grid_row is None:
        return None
    bound = fits[0].words | {w for c in items for level in c.path for w in content_words(level)}
    if unbound(question, sheet, model, words, bound):
        return None
    names = {c.letter: c.name for c in sheet.columns}
    label = PATH_SEPARATOR.join(row.path)
    reason = (f"The sheet's model ranks the {' '.join(sorted(kind))} columns of “{label}”. Words read: "
              f"{', '.join(sorted(fits[0].words))} → line {label}; {' '.join(sorted(kind))} → columns; "
              f"{most} → ranking.")  # fmt: skip
    return CellsStep(sheet_id=sheet.sheet_id, operation="argmax" if pick == "max" else "argmin",
                     row_id=grid_row.row_id, row_label=label, columns=[names[c.letter] for c in items],
                     column_labels=[names[c.letter] for c in items], item_labels=[c.path[-1] for c in items],
                     reason=reason, read_whole=True)  # fmt: skip


def _sections_ranked(
    question: str,
    sheet: SheetInfo,
    model: TableModel,
    words: Words,
    kind: set[str],
    most: str,
    pick: Pick,
    span: Span | None,
) -> CellsStep | None:
    """The sections, each by the line of the measure asked that it holds ("Head grade" under each mine), the one
    with the most or least named by its section."""
    columns = columns_asked(model, span, words)
    fits = row_candidates(model, words.every)
    labels = {label_key(f.row.label) for f in fits}
    if not columns or len(fits) < 2 or len(labels) != 1 or any(len(f.row.path) < 2 for f in fits):
        return None
    by_number = {g.row_number: g for g in sheet.grid}
    position = {c.letter: c.position for c in sheet.columns}
    items = [(f.row, by_number[f.row.row_number]) for f in fits if f.row.row_number in by_number]
    if len(items) < 2 or not all(holds_figure(g, position[c.letter]) for _, g in items for c in columns):
        return None
    bound = {w for f in fits for w in f.words} | kind | {w for c in columns for w in other_levels(c)}
    if unbound(question, sheet, model, words, bound):
        return None
    names = {c.letter: c.name for c in sheet.columns}
    measure = items[0][0].label
    reason = (f"The sheet's model ranks the sections by their line “{measure}” in "
              f"{', '.join(names[c.letter] for c in columns)}. Words read: {' '.join(sorted(kind))} → sections; "
              f"{most} → ranking.")  # fmt: skip
    return CellsStep(sheet_id=sheet.sheet_id, operation="rank_items", row_id=items[0][1].row_id, row_label=measure,
                     columns=[names[c.letter] for c in columns], column_labels=[names[c.letter] for c in columns],
                     item_row_ids=[g.row_id for _, g in items], item_labels=[r.path[-2] for r, _ in items],
                     pick=pick, reason=reason, read_whole=True)  # fmt: skip


def label_key(label: str) -> frozenset[str]:
    """A label's words, its brackets aside: the same line under two sections ("Head grade (g/t)")."""
    return frozenset(content_words(re.sub(r"\([^)]*\)", " ", label)))


# A change asked between two periods: "YoY growth … Q4 FY25 vs Q4 FY24", "the change from 2022 to 2023".
# (the change words the statement rules read, core.qa.planner.cells.words, and the words setting two periods side by side)
_SIDE_BY_SIDE = "yoy vs versus compared"
_CHANGE = re.compile(
    rf"\b(?:{'|'.join(f'{CHANGE_WORDS} {_SIDE_BY_SIDE}'.split())}|declin\w*|year[- ]over[- ]year)\b", re.I
)
# The change asked as a percentage: "% change", "percentage growth", "YoY growth" (growth is relative).
_RELATIVE_CHANGE = re.compile(r"%|\bpercent(?:age)?\b|\bgrowth\b|\brate\s+of\s+change\b", re.I)
_CHANGE_WORDS = frozenset(
    word_list(f"{CHANGE_WORDS} {_SIDE_BY_SIDE} decline declined year over percentage percent rate from between")
)


def _changed(question: str, sheet: SheetInfo, model: TableModel) -> CellsStep | None:
    """A line's change between the two periods the question names ("2024 vs 2023", "from Q2 FY24 to Q2 FY25"):
    the later figure less the earlier, or as a percentage of it; each period one column."""
    if not _CHANGE.search(question):
        return None
    mentions = list(dict.fromkeys(year_mentions(question)))
    if len({y for y, _ in mentions}) != 2:
        return None
    spans = []
    for year, _ in mentions:
        others = [text for y, text in mentions if y != year]
        alone = re.sub("|".join(re.escape(t) for t in others), " ", question)
        span = asked_span(alone, model)
        if not isinstance(span, Span):
            return None
        spans.append(span)
    words = Words.of(question, model, sheet)
    columns = [columns_asked(model, span, words) for span in sorted(spans, key=lambda s: s.start)]
    fits = row_candidates(model, words.every)
    if any(c is None or len(c) != 1 for c in columns) or len(fits) != 1:
        return None
    old, new = columns[0][0], columns[1][0]  # type: ignore[index]
    row = fits[0].row
    grid_row = figures_row(sheet, row, (old, new))
    if grid_row is None:
        return None
    bound = fits[0].words | other_levels(old) | other_levels(new) | _CHANGE_WORDS
    if unbound(question, sheet, model, words, bound):
        return None
    names = {c.letter: c.name for c in sheet.columns}
    relative = bool(_RELATIVE_CHANGE.search(question))
    label = PATH_SEPARATOR.join(row.path)
    reason = (f"The sheet's model reads the {'percentage ' if relative else ''}change in “{label}” from "
              f"{names[old.letter]} to {names[new.letter]}. Words read: {', '.join(sorted(fits[0].words))} → line "
              f"{label}; the two periods → {names[old.letter]}, {names[new.letter]}.")  # fmt: skip
    return CellsStep(sheet_id=sheet.sheet_id, operation="pct_change" if relative else "change",
                     row_id=grid_row.row_id, row_label=label, columns=[names[old.letter], names[new.letter]],
                     column_labels=[names[old.letter], names[new.letter]], reason=reason, read_whole=True,
                     asked_scale=words.asked_scale)  # fmt: skip


# A share asked: "what share of …", "… as a % of …", "what percentage of … came from …", "what proportion of …".
_SHARE = re.compile(rf"\b(?:{'|'.join(SHARE_WORDS)})\s+of\b|%\s+of\b|\bas\s+a\s+%", re.I)
_SHARE_WORDS = frozenset(word_list(f"{' '.join(SHARE_WORDS)} came come comes from"))


def _shared(question: str, sheet: SheetInfo, model: TableModel) -> CellsStep | None:
    """A line's share of a total in the period asked: the part is the line named, the whole the total or subtotal
    line named ("total outflows", "Canada", the grand total when "total" alone is said), the part inside the whole's
    section (or the whole the table's grand total); both cells cited."""
    if not _SHARE.search(question):
        return None
    words = Words.of(question, model, sheet)
    asked = asked_span(question, model)
    if asked is False:
        return None
    columns = columns_asked(model, asked if isinstance(asked, Span) else None, words)
    if not columns or len(columns) != 1:
        return None
    fits = [f for r in model.rows if r.role != "note" and r.label and (f := row_fit(r, words.every)) is not None]
    # a total line named by what it totals ("the Trust's admissions" of "Trust total")
    totals = [f for r in model.rows if r.role in ("total", "subtotal") and r.label
              and (f := row_fit(r, words.every | TOTAL_WORDS)) is not None and f.words & words.wanted]  # fmt: skip
    totals += [f for f in fits if _is_root_of(f.row, model)]
    if not totals and TOTAL_WORDS & words.wanted:
        grand = [r for r in model.rows if r.role == "total"]
        totals = [RowFit(grand[-1], {"total"})] if len(grand) == 1 else []
    if len(totals) != 1:
        return None
    whole = totals[0]
    parts = [f for f in fits if f.row.row_number != whole.row.row_number and _inside(f.row, whole.row)]
    best = max((len(f.words) for f in parts), default=0)
    parts = [f for f in parts if len(f.words) == best]
    if len(parts) != 1:
        return None
    part = parts[0]
    by_number = {g.row_number: g for g in sheet.grid}
    position = {c.letter: c.position for c in sheet.columns}
    cells = [by_number.get(part.row.row_number), by_number.get(whole.row.row_number)]
    column = columns[0]
    if any(g is None or not holds_figure(g, position[column.letter]) for g in cells):
        return None
    bound = part.words | whole.words | {"total"} | other_levels(column) | _SHARE_WORDS
    if unbound(question, sheet, model, words, bound):
        return None
    name = {c.letter: c.name for c in sheet.columns}[column.letter]
    part_label, whole_label = PATH_SEPARATOR.join(part.row.path), PATH_SEPARATOR.join(whole.row.path)
    reason = (f"The sheet's model reads “{part_label}” as a share of “{whole_label}” in {name}. Words read: "
              f"{', '.join(sorted(part.words))} → the part; {', '.join(sorted(whole.words))} → the whole.")  # fmt: skip
    return CellsStep(sheet_id=sheet.sheet_id, operation="share", row_id=cells[0].row_id,  # type: ignore[union-attr]
                     row_label=part_label, other_row_id=cells[1].row_id, other_label=whole_label,  # type: ignore[union-attr]
                     columns=[name], column_labels=[name], reason=reason, read_whole=True)  # fmt: skip


# A variance against plan asked: "variance", "actual minus budget", "over budget", "against plan".
_VARIANCE = re.compile(
    r"\bvariances?\b|\b(?:over|under)[\s-]*(?:spend|spent|budget|plan)\b|\bminus\b|\b(?:vs\.?|versus|against)\s+"
    r"(?:the\s+)?(?:budget|plan|forecast|target)\b",
    re.I,
)
# (as the question's words are read: "minus" is "minu" to word_list, as every word ending in one s)
_VARIANCE_WORDS = frozenset(word_list("variance minus over under against vs versus overspend underspend came"))
_ACTUAL = frozenset({"actual", "actuals"})
_PLANNED = frozenset({"budget", "plan", "forecast", "target", "adopted", "revised"})


def _variance(question: str, sheet: SheetInfo, model: TableModel) -> CellsStep | None:
    """A line's variance against plan in the period asked: its actual column less its budget (plan, forecast)
    column of that period ("Actual › Q3" less "Budget › Q3"), both cells cited."""
    if not _VARIANCE.search(question):
        return None
    words = Words.of(question, model, sheet)
    asked = asked_span(question, model)
    if asked is False:
        return None
    base = (
        period_columns(model, asked)
        if isinstance(asked, Span)
        else [c for c in model.columns if c.letter != model.label_letter and c.period is None]
    )
    actual = [c for c in base or [] if other_levels(c) & _ACTUAL]
    planned = [c for c in base or [] if other_levels(c) & _PLANNED and not other_levels(c) & _ACTUAL]
    if len(planned) > 1:  # "Adopted" and "Revised": the one the question names
        planned = [c for c in planned if other_levels(c) & words.wanted]
    fits = row_candidates(model, words.every)
    if len(actual) != 1 or len(planned) != 1 or len(fits) != 1:
        return None
    row, plan, done = fits[0].row, planned[0], actual[0]
    grid_row = figures_row(sheet, row, (plan, done))
    if grid_row is None:
        return None
    bound = fits[0].words | other_levels(plan) | other_levels(done) | _VARIANCE_WORDS
    if unbound(question, sheet, model, words, bound):
        return None
    names = {c.letter: c.name for c in sheet.columns}
    label = PATH_SEPARATOR.join(row.path)
    reason = (f"The sheet's model reads the variance of “{label}”: {names[done.letter]} less {names[plan.letter]}. "
              f"Words read: {', '.join(sorted(fits[0].words))} → line {label}.")  # fmt: skip
    return CellsStep(sheet_id=sheet.sheet_id, operation="change", row_id=grid_row.row_id, row_label=label,
                     columns=[names[plan.letter], names[done.letter]],
                     column_labels=[names[plan.letter], names[done.letter]], reason=reason, read_whole=True)  # fmt: skip


# "How many provinces …", "in how many months …": what is counted.
_HOW_MANY = re.compile(r"\bhow\s+many\s+(?P<kind>[a-z][a-z-]*)", re.I)
Compare = Literal["<", ">"]
_SIGNED: dict[str, tuple[Compare, str]] = {"negative": ("<", "0"), "positive": (">", "0")}
_PERIOD_PLURALS = {"months": "month", "quarters": "quarter", "years": "year", "halves": "half"}


def _counted(question: str, sheet: SheetInfo, model: TableModel) -> CellsStep | None:
    """ "How many provinces had more than 2,000", "in how many months was net cash flow negative": the lines (of the
    section named, else all the table's lines) or one line's periods whose figure passes the threshold asked, each
    cell read cited."""
    how = _HOW_MANY.search(question)
    limit = THRESHOLD_AT.search(question)
    sign = next((_SIGNED[w] for w in word_list(question) if w in _SIGNED), None)
    if how is None or (limit is None and sign is None):
        return None
    below = limit is not None and limit.group("op").lower() in BELOW
    compare: Compare = sign[0] if sign else ("<" if below else ">")
    threshold = sign[1] if sign else limit.group("n").replace(",", "")  # type: ignore[union-attr]
    kind = set(word_list(how.group("kind")))
    test = set(word_list(limit.group(0))) if limit else {"negative", "positive"}
    words = Words.of(question, model, sheet)
    measured = Words(words.wanted - kind - test, words.every - kind - test, words.said, words.asked_scale,
                      words.respelled, words.numbers - ({limit.group("n")} if limit else set()))  # fmt: skip
    period_kind = _PERIOD_PLURALS.get(how.group("kind").lower())
    if period_kind is not None:
        return _periods_counted(question, sheet, model, measured, period_kind, compare, threshold)
    asked = asked_span(question, model)
    if asked is False:
        return None
    columns = columns_asked(model, asked if isinstance(asked, Span) else None, measured)
    if not columns or len(columns) != 1:
        return None
    sections = [r for r in model.rows if r.role == "heading" and label_words(r.label)
                and label_words(r.label)[0] <= measured.every]  # fmt: skip
    if len(sections) > 1:
        return None
    inside = sections[0].path if sections else ()
    by_number = {g.row_number: g for g in sheet.grid}
    position = {c.letter: c.position for c in sheet.columns}
    items = [(r, by_number[r.row_number]) for r in model.rows if r.role == "data" and r.label
             and r.path[: len(inside)] == inside and r.row_number in by_number]  # fmt: skip
    items = [(r, g) for r, g in items if holds_figure(g, position[columns[0].letter])]
    if len(items) < 2:
        return None
    bound = kind | test | other_levels(columns[0]) | {w for p in inside for v in label_words(p) for w in v}
    bound |= {"under", "within"} if inside else set()  # "the lines under North"
    if unbound(question, sheet, model, measured, bound):
        return None
    name = {c.letter: c.name for c in sheet.columns}[columns[0].letter]
    what = how.group("kind").lower()
    reason = (f"The sheet's model counts its lines{' under ' + inside[-1] if inside else ''} whose {name} is "
              f"{'below' if compare == '<' else 'above'} {threshold}. Words read: {what} → lines.")  # fmt: skip
    return CellsStep(sheet_id=sheet.sheet_id, operation="count_items_where", row_id=items[0][1].row_id,
                     row_label=what, columns=[name], column_labels=[name], item_row_ids=[g.row_id for _, g in items],
                     item_labels=[r.label for r, _ in items], compare=compare, threshold=threshold, reason=reason,
                     read_whole=True)  # fmt: skip


def _periods_counted(
    question: str, sheet: SheetInfo, model: TableModel, words: Words, kind: str, compare: Compare, threshold: str
) -> CellsStep | None:
    """In how many of one line's periods of the kind asked its figure passes the threshold."""
    fits = row_candidates(model, words.every)
    figures = [c for c in model.columns if c.period is not None and c.period.kind == kind]
    if len(fits) != 1 or len(figures) < 2:
        return None
    grid_row = figures_row(sheet, fits[0].row, figures)
    if grid_row is None:
        return None
    if unbound(question, sheet, model, words, fits[0].words):
        return None
    names = {c.letter: c.name for c in sheet.columns}
    label = PATH_SEPARATOR.join(fits[0].row.path)
    reason = f"The sheet's model counts the {kind}s of “{label}” {'below' if compare == '<' else 'above'} {threshold}."
    return CellsStep(sheet_id=sheet.sheet_id, operation="count_where", row_id=grid_row.row_id, row_label=label,
                     columns=[names[c.letter] for c in figures], column_labels=[names[c.letter] for c in figures],
                     compare=compare, threshold=threshold, reason=reason, read_whole=True)  # fmt: skip


def _is_root_of(row: RowModel, model: TableModel) -> bool:
    """Whether a data line stands for the whole table: the first line, at the top level, that the other top-level
    lines add up to is not checked here; a line named like the table's title ("Canada" over its provinces) is."""
    title = {w for t in model.title for v in label_words(t) for w in v}
    return (
        row.role == "data"
        and len(row.path) == 1
        and bool(label_words(row.label))
        and label_words(row.label)[0] <= title
    )


def _inside(part: RowModel, whole: RowModel) -> bool:
    """Whether a line is part of a total: under the total's section, or anywhere when the total is the grand one."""
    if whole.role == "total" or len(whole.path) == 1:
        return part.role in ("data", "subtotal")
    return part.path[: len(whole.path) - 1] == whole.path[:-1] and part.role == "data"


def clarify_step(question: str, ambiguous: Ambiguous) -> ClarifyStep:
    """The question back for readings told apart by their row: each option names its line and columns, and its
    question is the one asked with the line's whole path named (read again, it binds that line alone)."""
    asked = question.strip().rstrip("?").rstrip()
    where = list(ambiguous.sheet_names) or [""] * len(ambiguous.options)
    named = [f"{sheet} › {s.row_label}" if sheet else s.row_label
             for s, sheet in zip(ambiguous.options, where, strict=True)]  # fmt: skip
    options = [Choice(label=f"{name} ({', '.join(s.column_labels)})", question=f"{asked} — {name}?")
               for s, name in list(zip(ambiguous.options, named, strict=True))[:MAX_CHOICES]]  # fmt: skip
    lines = "; ".join(o.label for o in options)
    what = "sheets" if ambiguous.sheet_names else "lines of the sheet"
    reason = f"The question names {len(ambiguous.options)} {what} alike ({lines}): which is meant is asked."
    return ClarifyStep(options=options, reason=reason)
