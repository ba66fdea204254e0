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

import functools
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from core.cells import parse_number
from core.lexicon.comparison import (
    AMOUNT_SUPERLATIVES,
    COMPARATIVE_AS,
    COMPARATORS,
    IN_TIME,
    POST_COMPARATORS,
    SUPERLATIVES,
)
from core.lexicon.periods import fiscal_start, month_of, months_asked
from core.lexicon.questions import SHEET_QUANTIFIERS, SHEET_WORDS
from core.lexicon.stop import CARRY_NOTHING, STOP_WORDS
from core.qa.planner.cells import OPERATION_WORDS
from core.qa.planner.cells.grid import month_columns, row_label
from core.qa.planner.lexicon import AGGREGATE_WORDS, SYNONYMS, TOTAL_WORDS, YEAR_RE, stem_of, words_of
from core.qa.planner.linking import ENTITY_WH, read_question
from core.qa.planner.schema import ColumnInfo, SheetInfo
from core.qa.planner.sheets import naming_words
from core.qa.planner.spelling import abbreviates, spelled_like
from core.qa.planner.vocabulary import synonyms
from core.retrieval.cellmath import CellsStep, content_words
from core.retrieval.plan import Step, TableStep
from core.retrieval.tables import TableOp
from core.retrieval.tables.aggregates import AGGREGATES
from core.retrieval.tables.operators import OPERATORS

# Words of an operation: aggregates, rankings, comparisons, changes, totals.
_OPERATION = (
    AGGREGATE_WORDS
    | OPERATION_WORDS
    | TOTAL_WORDS
    | set(SUPERLATIVES)
    | set(COMPARATORS)
    | set(POST_COMPARATORS)
    | {"different", "distinct", "unique"}
)
# Arithmetic no table operation does: a product, a share, a margin, a variance ("how many times" counts).
# "Times" only between two quantities ("units times unit cost"), never of a count ("how many times", "2 times").
_DERIVED = re.compile(
    r"\b(?:multiplied|product of|percentage|percent|margin|variance|share of)\b"
    r"|(?<!\bmany)(?<!\bof)(?<!\bthe)(?<!\bconsecutive)(?<![\d\s])\s+times\s+(?!as\b|more\b|less\b|a\b|in\b|the\b)(?=[a-z])",
    re.I,
)
# The operations a word asks, each with what of a table operation does it (core.retrieval.tables.model.TableOp): a
# word is bound to the operation the step does, not to any operation ("avg pay" read as a listing of rows asks an
# average the step does not take). The word classes come from the lexicons: the aggregate registry's words for a
# mean, the superlatives, the comparatives, the words of a total and of a change.
_MEAN_WORDS = frozenset(w for name in ("avg", "median") for w in AGGREGATES[name].words)
_COMPARATIVES = frozenset(COMPARATIVE_AS) - IN_TIME | {"than"}  # of an amount or an attribute, not of time or place
# Phrases of "than" that set a value aside rather than compare ("other than Honda", "rather than").
_SET_ASIDE = frozenset({"other", "rather"})
_DISTINCT_WORDS = frozenset({"different", "distinct", "unique"})
_EXTREMES = frozenset(SUPERLATIVES) - _COMPARATIVES
_CHANGE_WORDS = frozenset("change changes increase increased decrease decreased difference growth variance".split())


_ASKED_OPERATIONS = _MEAN_WORDS | _EXTREMES | _COMPARATIVES | TOTAL_WORDS | _CHANGE_WORDS | _DISTINCT_WORDS | {"sum"}
# A figure asked: "how much", "how many", "the number of", an average, a total, a percentage.
_FIGURE_ASKED = re.compile(
    r"\bhow\s+(?:much|many)\b|\bnumber\s+of\b|%|\b(?:percent(?:age)?|proportion|share|average|avg|mean|median|sum|total)\b",
    re.I,
)


def _comparator_words(question: str) -> set[str]:
    """The words of a comparison phrase the question holds ("at least", "or more", "no fewer than")."""
    words = words_of(question)
    found: set[str] = set()
    for phrase in [p for p, _ in COMPARATORS] + list(POST_COMPARATORS):
        n = len(phrase)
        if n > 1 and any(tuple(words[i : i + n]) == phrase for i in range(len(words) - n + 1)):
            found |= set(phrase)
    return found


def _figure_unanswered(question: str, op: TableOp, sheet: SheetInfo) -> list[tuple[str, str]]:
    """A figure asked ("how much", "what percentage", "the average …") answered by a listing of names: the rows the
    operation lists are not the figure, whatever they hold."""
    answering = next((c for c in sheet.columns if op.select and c.name == op.select[0]), None)
    numbers = answering is not None and answering.numeric  # (a difference of a column of names is no figure)
    if op.aggregate is not None or (op.difference and numbers) or op.compare is not None or op.distinct is not None:
        return []
    asked = _FIGURE_ASKED.search(question)
    if asked is None or _read(question).wh in ENTITY_WH:  # "which team has the largest number of …"
        return []
    if answering is not None and (answering.numeric or answering.dtype == "date"):
        return []
    return [(asked.group(0), "asks a figure, and the operation lists rows")]


def _operation_done(word: str, op: TableOp, phrased: bool = False) -> tuple[str, str]:
    """(what the operation word is bound to, why it blocks a figure when the operation does not do it); a word of a
    comparison phrase ("at least", "more than") asks a comparison, whatever else it could ask."""
    func = op.aggregate.func if op.aggregate is not None else ""
    ordered = (
        op.sort_by is not None
        or op.limit is not None
        or func in ("min", "max")
        or op.compare is not None
        or op.having is not None
    )  # (the first or last rows: the sheet's own order)
    compared = ordered or op.difference or any(OPERATORS[f.op].order for f in op.filters)
    asks = (
        (_MEAN_WORDS, func in ("avg", "median"), "an average"),
        (_EXTREMES, compared, "the highest or lowest"),  # ("in the top 10": a condition on the rank)
        (_DISTINCT_WORDS, func == "count_distinct" or op.distinct is not None or not func, "distinct values"),
        (_COMPARATIVES, compared, "a comparison"),
        (TOTAL_WORDS, bool(func) or op.difference or ordered, "a total"),  # ("the most total sales": its column)
        (_CHANGE_WORDS, op.difference or op.compare is not None, "a difference"),
    )
    if phrased:
        return ("operation", "") if compared else ("", "asks a comparison, and the operation takes none")
    for words, done, what in asks:
        if word in words:
            return ("operation", "") if done else ("", f"asks {what}, and the operation takes none")
    return "operation", ""


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


def _dated(sheet: SheetInfo) -> set[str]:
    """The sheet's columns of dates."""
    return {c.name for c in sheet.columns if c.dtype == "date"}


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
    named = {w: f"sheet {sheet.name}" for w in _sheet_words(question, sheet)}
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
    vocabulary = synonyms(content_words(question))
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
        if not what and isinstance(step, TableStep):
            what = _named_otherwise(word, targets, vocabulary, step.op, sheet)
        if not what and forms & values:
            what = "value"
        if not what and word in _OPERATION:
            what, why = _operation_done(word, step.op) if isinstance(step, TableStep) else ("operation", "")
            blocking += [(word, why)] if why else []
        bound.append((word, what))
    for phrase, col in categories.items():
        blocking.append((phrase, f"no {col.name} holds it"))
    if isinstance(step, TableStep):
        blocking += _table_unread(question, bound, set(targets), step, sheet)
    if isinstance(step, CellsStep) and sheet.page is None and sheet.model is not None:
        blocking += _sheet_parts_unread(question, bound, step, sheet)
    return Binding(bound=tuple(bound), blocking=tuple(dict.fromkeys(blocking)))


def _sheet_words(question: str, sheet: SheetInfo) -> set[str]:
    """The words naming the sheet read: its name's, and the words saying which sheets ("the Harbury site", "across
    both sites")."""
    tokens = words_of(question)
    kinds = {w for w in tokens if w in SHEET_WORDS or w in SHEET_QUANTIFIERS} if set(tokens) & SHEET_WORDS else set()
    return set(naming_words(question, sheet)) | kinds


def _named_otherwise(
    word: str, targets: dict[str, str], vocabulary: dict[str, set[str]], op: TableOp, sheet: SheetInfo
) -> str:
    """What a word the step's names do not hold as written binds to: a month or a part of a year read as a span of
    a date column ("opened in March"), a name it is written short or misspelled for ("amt" of Amount, "department"
    of Dept), or one the analyst vocabulary gives for it ("pay" of Annual Salary)."""
    if month_of(word) is not None or word in _PART_OF_YEAR:
        spans = [f.column for f in op.filters if f.op == "between" and f.column in _dated(sheet)]
        if spans:
            return f"period {spans[0]}"
    stem = stem_of(word)
    found = next((t for w, t in targets.items()
                  if len(w) > 2 and (abbreviates(stem, w) or abbreviates(w, stem) or spelled_like(stem, w))), "")  # fmt: skip
    others = {stem_of(o) for w in content_words(word) for o in vocabulary.get(w, ())}
    return found or next((targets[o] for o in others if o in targets), "")


def _table_unread(
    question: str, bound: list[tuple[str, str]], named: set[str], step: TableStep, sheet: SheetInfo
) -> list[tuple[str, str]]:
    """The words a table operation leaves unread that block its figure: operation words it does not do (each word
    of the question, the question's glue too: "sum", "average"), a figure answered by names, a period or event it
    reads elsewhere, and words naming what the sheet holds (core.qa.planner.binding's general checks)."""
    blocking: list[tuple[str, str]] = []
    done = dict(bound)
    phrased = _comparator_words(question)
    tokens = _read(question).words  # (misspelled operation words read as written right)
    set_aside = {"than"} if any(a in _SET_ASIDE and b == "than" for a, b in itertools.pairwise(tokens)) else set()
    for word in dict.fromkeys(tokens):
        if word not in _ASKED_OPERATIONS or done.get(word) or word in named or word in set_aside:
            continue  # (a word of a column read: "the batting average" names the column)
        _, why = _operation_done(word, step.op, phrased=word in phrased)
        blocking += [(word, why)] if why else []
    blocking += _figure_unanswered(question, step.op, sheet)
    blocking += _event_unread(question, bound, step.op, sheet)
    blocking += _periods_unread(question, bound, step, sheet)
    blocking += _columns_unread(question, bound, step, sheet)
    blocking += held_unread(question, bound, step.op, sheet)
    blocking += every_row_unread(question, bound, step.op, sheet)
    blocking += _measure_by_modifier(question, bound, step.op, sheet)
    blocking += _measure_alike(question, bound, step.op, sheet)
    blocking += _share_unanswered(question, step.op, sheet)
    blocking += _answer_unnamed(question, bound, step.op, sheet)
    blocking += _measure_unasked(question, bound, step.op, sheet)
    blocking += _values_apart(question, step.op)
    return blocking


# Words setting one value against another ("estimated rather than actual", "A versus B").
_CONTRAST = re.compile(r"\b(?:rather\s+than|instead\s+of|as\s+opposed\s+to|versus|vs)\b", re.I)
# What separates the items of a list written in one cell.
_LISTED = re.compile(r"[,;/]")


def _values_apart(question: str, op: TableOp) -> list[tuple[str, str]]:
    """A filter on any of several values where the question sets one against the others ("estimated rather than
    actual" read as both), or names none of them whole ("Jonas" of Jonas Berg and Jonas Weber): the rows of every
    value answer another question than the one asked (a question back or no figure)."""
    asked = {stem_of(w) for w in words_of(question)}
    for f in op.filters:
        if f.op != "in" or not isinstance(f.value, list) or op.compare is not None or op.difference:
            continue
        if _CONTRAST.search(question):
            return [(str(f.value[0]), f"sets one value of {f.column} against the other, and the rows of both are read")]
        values = [str(v) for v in f.value]
        named = [{stem_of(w) for w in words_of(v)} for v in values]
        shared = set.intersection(*named) if len(named) == 2 else set()
        # two names sharing the word asked, what tells them apart unsaid ("Jonas" of Jonas Berg and Jonas Weber)
        if (
            shared & asked
            and not any((n - shared) & asked or n <= asked for n in named)
            and not any(ch.isdigit() or _LISTED.search(ch) for v in values for ch in v)
        ):
            return [(values[0], f"names {values[0]} and {values[1]} alike")]
    return []


def _measure_unasked(
    question: str, bound: Sequence[tuple[str, str]], op: TableOp, sheet: SheetInfo
) -> list[tuple[str, str]]:
    """What is asked ("how much CUSTOMS DUTY", "how many different PARTIES", "the most …") read on a column it does
    not name: a sum or an average of a column of figures none of the asked words binds to, a distinct count of a
    column of one value a row, or an amount's superlative ("most", "fewest") ordering a column of dates."""
    read = _read(question)
    done = dict(bound)
    asked = [w for w in read.words[read.head[0] : read.head[1]] if w.isalpha() and w not in CARRY_NOTHING]
    func = op.aggregate.func if op.aggregate is not None else ""
    column = op.aggregate.column if op.aggregate is not None else None
    columns = {c.name: c for c in sheet.columns}
    named = any(what == f"column {column}" for what in done.values()) or set(words_of(column or "")) & TOTAL_WORDS
    if (
        column
        and func in ("sum", "avg", "count_distinct")
        and asked
        and not named
        and not any(done.get(w) for w in asked)
    ):
        counted = columns.get(column)  # (a Total column totals what is counted, whatever it is)
        if func != "count_distinct" or (counted is not None and counted.one_a_row):
            return [(asked[0], f"is what is asked, and the operation reads {column}, which it does not name")]
    ordered = columns.get(op.sort_by or "")
    if ordered is not None and ordered.dtype == "date" and set(read.words) & AMOUNT_SUPERLATIVES:
        return [(op.sort_by or "", "an amount's superlative does not order dates")]
    return []


def _measure_alike(
    question: str, bound: Sequence[tuple[str, str]], op: TableOp, sheet: SheetInfo
) -> list[tuple[str, str]]:
    """The column of figures read named by a word that names another column of figures as well ("units" of Qty On
    Hand and of Qty Avail, "spend" of Parts Cost and of Labor Cost), the question saying nothing of what tells them
    apart (no "on hand", no "parts"): either could be asked, so no figure is given (the question is asked back,
    `measured_alike`)."""
    word, alike = measured_alike(question, bound, op, sheet)
    return [(word, f"{ALIKE} " + " and ".join(alike[:3]))] if alike else []


# How a blocking reason of columns named alike begins (a question back is asked instead: core.qa.planner.rules).
ALIKE = "names alike"


def measured_alike(
    question: str, bound: Sequence[tuple[str, str]], op: TableOp, sheet: SheetInfo
) -> tuple[str, list[str]]:
    """The word naming the column of figures read and the columns of figures it names alike (none when the question
    tells them apart or names one only)."""
    measured = _measured(op)
    asked = {f for w in words_of(question) for f in _forms(stem_of(w))}
    vocabulary = synonyms(content_words(question))
    figures = [c for c in sheet.columns if c.numeric and not c.name.startswith("Column ")]
    for name in measured:
        own = set(_measure_words(name)) - STOP_WORDS
        unsaid = {o for o in own if not any(o == a or spelled_like(a, o) or abbreviates(o, a) for a in asked)}
        for word in (w for w, what in bound if what == f"column {name}"):
            names = {stem_of(word)} | {stem_of(o) for w in content_words(word) for o in vocabulary.get(w, ())}
            alike = [c for c in figures if names & set(c.words)]
            if len(alike) > 1 and unsaid - names:
                return word, [c.name for c in alike]
    return "", []


def _share_unanswered(question: str, op: TableOp, sheet: SheetInfo) -> list[tuple[str, str]]:
    """A share asked ("what % of total spend", "what percentage of tickets") of an operation that adds up, counts
    or lists without dividing, on a column that holds no percentages: its figure is the part, not its share."""
    asked = _SHARE_ASKED.search(question)
    if asked is None or op.difference or op.compare is not None:
        return []
    read = [c for c in sheet.columns if c.name in _op_columns(op)]
    if any(c.dtype == "percent" or "%" in c.name or "percent" in c.name.lower() for c in read):
        return []
    return [(asked.group(0).strip(), "asks a share, and the operation divides nothing")]


# A share asked: "what %", "what percentage of", "share of", "proportion of", "as a percent".
_SHARE_ASKED = re.compile(r"%|\bpercent(?:age)?\b|\b(?:share|proportion|fraction)\s+of\b", re.I)


def _answer_unnamed(
    question: str, bound: Sequence[tuple[str, str]], op: TableOp, sheet: SheetInfo
) -> list[tuple[str, str]]:
    """ "What's the MRR for Terra Systems?" answered from a column of codes no word of the question names, while what
    is asked (the words after "what is the") is bound to nothing: the column answering is a guess."""
    read = _read(question)
    if op.aggregate is not None or op.distinct or read.wh not in ("what", "which", "") or read.head[1] <= read.head[0]:
        return []
    asked = [
        w for w in read.words[read.head[0] : read.head[1]] if w not in CARRY_NOTHING and len(w) > 2 and w.isalpha()
    ]
    done = dict(bound)
    if not asked or any(done.get(w) for w in asked):
        return []
    answering = next((c for c in sheet.columns if op.select and c.name == op.select[0]), None)
    if answering is None or any(what == f"column {answering.name}" for what in done.values()):
        return []
    # a column of codes ("ACC-2005", "INV-0144") is the answer only when named: a name column may answer the thing
    # asked ("what is the longest river": its Name)
    codes = [v for v in answering.samples if any(ch.isdigit() for ch in v) and any(ch.isalpha() for ch in v)]
    coded = answering.dtype == "text" and len(codes) * 2 > len(answering.samples) > 0
    return [(asked[0], "is what is asked, and the codes of the column answering do not say it")] if coded else []


def _measured(op: TableOp) -> list[str]:
    """The columns of figures an operation adds up or ranks by."""
    measured = [op.aggregate.column] if op.aggregate is not None and op.aggregate.column else []
    return measured + ([op.sort_by] if op.sort_by and op.sort_by != "value" else [])


def _measure_words(name: str) -> list[str]:
    """A header's words up to what it measures, last: its unit in brackets, a currency code ("USD"), a year, a
    participle ("Shipped", "held") and what follows "per" left aside ("Units Shipped" → unit, "Unit Cost ($)" →
    unit, cost, "Revenue per head 2024 EUR" → revenue)."""
    kept: list[str] = []
    for token in _BRACKETED.sub(" ", name).split(" per ")[0].split():
        if (token.isupper() and len(token) <= 3) or any(ch.isdigit() for ch in token):
            continue
        kept += [stem_of(w) for w in words_of(token) if not _participle(w) and w not in CARRY_NOTHING]
    return kept


def _measure_by_modifier(
    question: str, bound: Sequence[tuple[str, str]], op: TableOp, sheet: SheetInfo
) -> list[tuple[str, str]]:
    """The column of figures an operation adds up or ranks by, named only by a word that qualifies it and not by what
    it measures ("units" read as Unit Cost, "labor" as Labor Hrs beside Labor Cost): another column may be the one
    asked, so the figure is not given. Its last word (its unit in brackets aside) is what a column measures; a word
    bound to it through the vocabulary, shorthand or a typo names it whole."""
    measured = _measured(op)
    out: list[tuple[str, str]] = []
    for name in measured:
        words = _measure_words(name)
        if len(words) < 2 or not any(c.name == name and c.numeric for c in sheet.columns):
            continue
        by = [w for w, what in bound if what == f"column {name}"]
        if any(words[-1] == g or abbreviates(words[-1], g) for g in ("amount", "value", "total")):
            continue  # ("Freight Amt": what is measured is the freight, the amount its kind)
        said = {f for w in words_of(question) for f in _forms(stem_of(w))}
        if (
            by
            and words[-1] not in said
            and all(stem_of(w) in words[:-1] or set(_forms(w)) & set(words[:-1]) for w in by)
        ):
            out.append((by[0], f"names {name} by a word qualifying it, not by what it measures"))
    return out


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


def held_unread(
    question: str, bound: Sequence[tuple[str, str]], op: TableOp, sheet: SheetInfo
) -> list[tuple[str, str]]:
    """Every content word bound, or no figure: a word the step binds to nothing that the sheet itself holds, as a word
    of a quantity column the operation does not read or as a word inside the values of a text column it does not use
    that picks out some of its rows ("forecast" of a Forecast column beside the Budget read; "active" of a Status
    column holding Active and Closed), names a quantity or a condition the figure leaves out: the figure answers
    another question. General by construction: what is held is read from the sheet's own headers and cells.
    Not a condition: a column in the rows' own order (a rank, a number: reading the order reads it), a word beside
    one bound to a column read ("overtime hours" read on Overtime), a word most of a column's values hold (the kind
    of thing every row is: "stores" of a column of "Store …" names)."""
    used = set(_op_columns(op))
    read_words = {stem_of(w) for c in used for w in words_of(c)}
    quantities = [c for c in sheet.columns if c.name not in used and (c.numeric or c.dtype == "date" or _flag(c))
                  and not c.trend and not c.name.startswith("Column ")]  # fmt: skip
    named = {stem_of(w): c for c in quantities for w in words_of(_BRACKETED.sub(" ", c.name)) if not _participle(w)}
    named = {w: c for w, c in named.items()
             if w not in read_words and not w.isdigit() and w not in _TIME_NOUNS and w not in STOP_WORDS}  # fmt: skip
    unused = [c for c in sheet.columns if c.name not in used]
    read = _read(question)
    tokens = read.words
    by_name = {
        t
        for t, what in bound
        if what.startswith("column ") and stem_of(t) in {stem_of(w) for w in words_of(what.removeprefix("column "))}
    }  # bound by the column's own word
    # the nearest words on each side, over an "of" ("overtime hours", "litres of diesel"; not "wages and bonuses")
    content = [t for t in tokens if t != "of"]
    beside = {content[i + d] for i, t in enumerate(content) for d in (-1, 1) if 0 <= i + d < len(content)
              and t in by_name}  # fmt: skip
    # the noun of what is counted or named ("how many disputed INVOICES"): the rows, not a condition on them
    asked = {tokens[read.head[1] - 1]} if read.head[1] > read.head[0] else set()
    anchors = [c for c in sheet.columns if c.name in used]  # a row named to step from ("the one after X")
    out: list[tuple[str, str]] = []
    done = dict(bound)
    carried = [(w, "") for w in dict.fromkeys(tokens)
               if w in CARRY_NOTHING and w not in _OPERATION and stem_of(w) in named and w not in done]  # fmt: skip
    for word, what in [*bound, *carried]:
        if what or word in beside or word in asked or any(ch.isdigit() for ch in word):
            continue
        if any(_picks_rows(c, stem_of(word), most=True) for c in anchors):
            continue
        stem = stem_of(word)
        # (a verb is the relation asked, not a quantity: "companies that RAISED a Series B" beside Amount Raised)
        verb = word.endswith("ed") and len(word) > 4
        column = None if verb else next((c for w, c in named.items() if spelled_like(stem, w) or abbreviates(word, w)
                                         or _compounds(word, w)), None)  # fmt: skip
        if column is not None:
            out.append((word, f"names the column {column.name}, which the operation does not read"))
            continue
        valued = next((c for c in unused if _picks_rows(c, stem)), None)
        if valued is not None:
            out.append((word, f"picks out rows by {valued.name}, which the operation does not read"))
    return out


# Nouns of time a question carries without naming a column ("per year", "each month"): a period, read elsewhere.
_TIME_NOUNS = frozenset("year years yearly month months monthly quarter quarters quarterly period periods".split())


def every_row_unread(
    question: str, bound: Sequence[tuple[str, str]], op: TableOp, sheet: SheetInfo
) -> list[tuple[str, str]]:
    """A figure over every row (a count, a sum or an average with no condition) of a question holding a word the step
    binds to nothing besides what is counted ("how many shipments were LATE", "the total spend on TRAVEL"): the
    word is a condition the figure leaves out, whatever it would bind to, so the figure answers another question.
    Not a condition: a word most of a column's values hold (what every row is: "in Ohio" of branches "Ohio –
    Akron", "Ohio – Dayton" …)."""
    asked_words = {stem_of(w) for w in words_of(question)}
    conditions = [f for f in op.filters if f.op != "ne" or {stem_of(w) for w in words_of(str(f.value))} & asked_words]
    # (a total row left out, "Shipment ID ≠ Total", is no condition the question asks)
    if conditions or op.aggregate is None or op.aggregate.func in ("min", "max") or op.group_by or op.having:
        return []  # (the highest of every row is the question's own: "the smallest order on the sheet")
    read = _read(question)
    asked = set(read.words[read.head[0] : read.head[1]])
    # what each row is (the sheet's name, a column of one value a row: "invoices" of Invoice No) is no condition
    asked |= {w for w, _ in bound if stem_of(w) in _row_words(sheet)}
    # a column's own word after "all", "every", "each" ("across all the properties") names them all: no condition
    tokens = read.words
    headers = {w for c in sheet.columns if c.dtype == "text" for w in c.words}
    headers = {stem_of(t) for i, t in enumerate(tokens) if stem_of(t) in headers
               and set(tokens[max(0, i - 2) : i]) & {"all", "every", "each", "both"}}  # fmt: skip
    left = [w for w, what in bound if not what and w not in asked and len(w) > 2 and not any(ch.isdigit() for ch in w)
            and stem_of(w) not in headers
            and not any(len(w) == len(glue) and spelled_like(w, glue) for glue in _LONG_GLUE)
            and not any(_held_by_most(c, stem_of(w)) for c in sheet.columns)]  # fmt: skip
    return [(left[0], "is a condition on the rows, and the figure is over every row")] if left else []


# The words carrying nothing long enough to be misspelled ("recieve" of receive): a typo of one carries nothing too.
_LONG_GLUE = frozenset(w for w in CARRY_NOTHING if len(w) >= 6)


def _flag(column: ColumnInfo) -> bool:
    """A text column of two values a row is one or the other of (Y/N, Yes/No, Active/Inactive): its header names a
    condition ("on-time" of "On time (Y/N)")."""
    return column.dtype == "text" and column.n_distinct == 2 and column.repeats


def _compounds(word: str, held: str) -> bool:
    """Whether `word` is a header word `held` with a prefix before it ("overspend" of Spend, "underspend")."""
    return len(held) >= 4 and len(word) >= len(held) + 3 and word.endswith(held)


def _participle(word: str) -> bool:
    """A header word that is a verb's participle ("Raised", "Played", "Opening"): it names what happened to the row,
    which a question says with the verb ("did they play", "raise its round"), not a thing the row holds."""
    return len(word) > 4 and word.endswith(("ed", "ing"))


def _row_words(sheet: SheetInfo) -> set[str]:
    """The words naming what each row of the sheet is: its name's, and those of its columns of one value a row."""
    names = [sheet.name, *(c.name for c in sheet.columns if c.one_a_row)]
    return {f for n in names for w in words_of(_BRACKETED.sub(" ", n)) for f in _forms(stem_of(w))} - STOP_WORDS


def _held_by_most(column: ColumnInfo, stem: str) -> bool:
    """Whether most of a text column's values hold the word `stem`."""
    if column.numeric or not column.values:
        return False
    holding = set(column.ngrams.get((stem,), ())) | set(column.index.get((stem,), ()))
    return len(holding) * 2 >= len(column.values)


def other_sheets_named(binding: Binding, sheet: SheetInfo, sheets: Sequence[SheetInfo]) -> list[tuple[str, str]]:
    """Words the step leaves unbound that are words of another sheet's columns and of none of this sheet's ("revised
    budget" asked of the Change Orders tab, the Cost Report tab holding Revised budget): the question points at
    the other sheet, so this sheet's figure is not its answer."""
    own = {stem_of(w) for c in sheet.columns for w in words_of(c.name)}
    out: list[tuple[str, str]] = []
    for word in binding.unbound:
        stem = stem_of(word)
        if any(ch.isdigit() for ch in word) or stem in own or word in _TIME_NOUNS or len(stem) < 3:
            continue
        for other in sheets:
            if other.sheet_id == sheet.sheet_id or other.page is not None:
                continue
            column = next((c for c in other.columns if not c.name.startswith("Column ")
                           and any(spelled_like(stem, stem_of(w)) for w in words_of(c.name) if not _participle(w))),
                          None)  # fmt: skip
            if column is not None:
                out.append((word, f"names {column.name} of {other.label}, which this reading does not read"))
                break
            valued = next((c for c in other.columns if not c.numeric and (stem,) in c.index), None)  # a whole value
            if valued is not None and not any(_picks_rows(c, stem, most=True) for c in sheet.columns):
                out.append((word, f"is a value of {valued.name} of {other.label}, which this reading does not read"))
                break
    return out


def _picks_rows(column: ColumnInfo, stem: str, most: bool = False) -> bool:
    """Whether the word `stem` is inside some, but not most (`most`: or most), of a text column's values (names or
    categories, not prose): naming it picks out rows."""
    if column.numeric or column.prose or not column.values or len(stem) < 3:
        return False
    keys = [(stem,)] + [
        k
        for k in {*column.ngrams, *column.index}
        if len(k) == 1 and k[0] != stem and len(stem) >= 5 and spelled_like(stem, k[0])
    ]  # ("waitlist" of "Waitlisted")
    holding = {v for k in keys for v in (*column.ngrams.get(k, ()), *column.index.get(k, ()))}
    return 0 < len(holding) and (most or len(holding) * 2 < len(column.values))


def _event_unread(
    question: str, bound: Sequence[tuple[str, str]], op: TableOp, sheet: SheetInfo
) -> list[tuple[str, str]]:
    """A period read on a dated column the question does not name, while a word of what happened is left unread
    ("accounts churned in 2024" read on Signup Date): the period is of another event than the one asked."""
    dated = [f.column for f in op.filters if not f.column.startswith("Column ") and (f.op == "year" or (
             f.op in ("between", "ge", "le", "gt", "lt") and f.column in _dated(sheet)))]  # fmt: skip
    # the rows' own noun names their own date, not another event's: "invoices … settled" is not read on Inv Date
    rows = _row_words(sheet)
    done = {w: what for w, what in bound if stem_of(w) not in rows}
    asked = {f for w in words_of(question) if stem_of(w) not in rows for f in _forms(w)}
    asked |= {f for others in synonyms(content_words(question)).values() for o in others for f in _forms(o)}
    for column in dated:
        own = {f for w in words_of(column) if w not in ("date", "year") for f in _forms(w)}
        if (
            not own
            or f"column {column}" in done.values()
            or any(spelled_like(a, o) or abbreviates(o, a) for a in asked for o in own)
        ):
            continue
        unread = [w for w, what in bound if not what and not any(ch.isdigit() for ch in w)]
        if unread:
            return [(unread[0], f"the period is read on {column}, which the question does not name")]
    return []


# The question as the planner reads it, read once for the many checks of one binding (nothing here changes it).
_read = functools.lru_cache(maxsize=64)(read_question)


# Words naming a part of a year: a figure over every row answers another question than "units in February".
_PART_OF_YEAR = frozenset({"q1", "q2", "q3", "q4", "h1", "h2", "quarter", "half"})


def _periods_unread(
    question: str, bound: list[tuple[str, str]], step: TableStep, sheet: SheetInfo
) -> list[tuple[str, str]]:
    """A month, quarter or half the question names that the operation reads nowhere (no filter on a date column, no
    column of it read): the rows' figure is of the whole table, not of that period."""
    if any(f.column in _dated(sheet) and f.op != "year" for f in step.op.filters):
        return []  # (a whole year read leaves the half or quarter named unread: "H1 2024" read as 2024)
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
