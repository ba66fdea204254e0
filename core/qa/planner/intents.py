"""The intents: what a question asks of a sheet, as an ordered registry of small rules.

Each `Intent` is a name and a rule `(question, link, draft) -> Draft | None`: given the question read, its
link to the chosen sheet and a draft already holding the filters the question's values and comparisons
make, the rule either drafts the operation it stands for or returns None (it does not apply: the next is
tried).  `plan_table` runs `INTENTS` in order and the first that applies wins, so the order is part of the
meaning: rows sharing a value with a named row ("the same position as X"), count distinct, two named rows compared
("more or less"), "among" named rows, a neighbour row, counting a span of rows, the groups with a number of rows
("which year had at least three films"), counting, an aggregate (average,
median, sum), a superlative, first/last, a listing, a choice between values offered ("was A or B built in 1847"),
and the lookup that always applies.  The name of the intent that fired is the plan's `intent`; the planner also
names its other outcomes: statement-grid cell arithmetic (`CELLS`) and a search of the passages alone (`SEARCH`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from core.lexicon.comparison import (
    AMOUNT_COMPARATIVES,
    AMOUNT_SUPERLATIVES,
    COMPARATIVES_ASC,
    COMPARATIVES_DESC,
    EARLIER,
    IN_TIME,
    LATER,
    ORDER_WORDS,
    RANKED,
)
from core.qa.planner.drafting import (
    Draft,
    apply_filters,
    fallback_measure,
    implied_column,
    lookup_rows,
    measure_column,
    names_one_row,
    order_rows,
    rank_groups,
    skip_summary_rows,
    sort_descending,
    superlative_word,
    total_column,
)
from core.qa.planner.lexicon import (
    COMPARATIVE_AS,
    ORDER_PAIRS,
    SCALES,
    STOP,
    SUPERLATIVES,
    TOTAL_WORDS,
    YEAR_RE,
    as_number,
    num_text,
    stem_of,
    words_of,
)
from core.qa.planner.linking import (
    ENTITY_WH,
    Link,
    Question,
    addable,
    asked_column,
    key_column,
    numberish,
    person_column,
    quantity,
    rank_like,
    yearish,
)
from core.qa.planner.schema import LOOKUP_LIMIT, ColumnInfo
from core.retrieval.tables import AGGREGATES, Filter

CELLS = "cells"  # a figure of a statement grid, or arithmetic on its cells (core.retrieval.cellmath)
# a measure (core.lexicon.measures) computed from statement cells; or abstained, an input not held
MEASURE = "measure"
MEASURE_MISSING = "measure_missing"
SEARCH = "search"  # no table step: the passages (and rows) are searched
CLARIFY = "clarify"  # the question reads several ways, each complete: which is meant is asked (a ClarifyStep)


@dataclass(frozen=True)
class Intent:
    """One thing a question can ask of a sheet: a name, and a rule that drafts it (or None: not this one)."""

    name: str
    rule: Callable[[Question, Link, Draft], Draft | None]


def plan_table(question: Question, link: Link) -> tuple[str, Draft]:
    """The first intent that applies and its draft over the linked sheet, leaving out summary rows when computing."""
    filtered = Draft(link.sheet)
    apply_filters(question, link, filtered)
    for intent in INTENTS:
        # Each rule gets its own copy: one that does not apply leaves nothing behind for the next.
        draft = intent.rule(question, link, filtered.copy())
        if draft is None:
            continue
        _per_item(question, draft)
        _difference(question, draft)
        draft.unread = _unread_condition(question, link, draft)
        if draft.aggregate is not None or draft.group_by is not None or draft.sort_by is not None or draft.distinct:
            skip_summary_rows(draft)
        return intent.name, draft
    raise AssertionError("the last intent (lookup) always applies")


_COMPARING = frozenset("vs versus compared compare comparison against respectively each".split())
# Words asking for every row's value ("list the teams", "all the dates"), or saying the rows are what is asked.
_EVERY = ("all", "every", "each", "list", "name all")
_LISTED = frozenset(
    """listed list shown show showing display displayed give tell me included include represented appear appears
    appearing featured come comes table tables chart sheet sheets spreadsheet file files data dataset room here
    there""".split()
)
_ARTICLES = frozenset("a an the is are was were".split())
# Words asking for another figure than a sum or an average of the rows.
_OPERATION_WORDS = frozenset("percentage percent ratio proportion change difference increase decrease growth".split())
# Aggregates that make one figure of the rows' values: a sum, and those a question asks for by name (average,
# median, ...: the registry entries with words), not a count, a minimum or a maximum.
_FIGURES_OF_ROWS = frozenset({"sum", *(name for name, a in AGGREGATES.items() if a.words)})
# Words that set rows aside ("t": "didn't", "don't").
_NEGATIONS = frozenset("not never no without t".split())


def _unread_condition(question: Question, link: Link, draft: Draft) -> str:
    """ "How many buildings are under 200 ft?", "how many products did not list a supplier?": a count, sum or
    average over every row while the question states a condition (a comparison, a negation) that no filter,
    group or condition on groups reads is a figure of another question; so is a column of every row for a
    question that does not ask for all of them. The words the operation leaves unread (empty: none)."""
    words = question.words
    # "did A or B lose 11 games?": one of the offered values answers, named by their column (the choice intent)
    answering = {c.name for c in draft.select} | ({draft.group_by.name} if draft.group_by is not None else set())
    chosen = "or" in words and any(f.op in ("in", "eq") and f.column in answering for f in draft.filters)
    if words[:1] and words[0] in _AUXILIARIES and draft.compare is None and not chosen:
        # "is Mara Quist a senator?", "were the Owls in last place?" ask yes or no, "does March or
        # April have more rainy days?" which of two: rows or a figure of them answer another question (the
        # two-way comparison answers with a word offered or yes or no itself)
        return " ".join(w for w in words[1:] if w not in _ARTICLES)
    named = {i for m in link.columns for i in range(m.start, m.end)}  # the words naming the sheet's columns
    if draft.aggregate is not None and draft.aggregate[0] in _FIGURES_OF_ROWS and not draft.difference:
        # "the percentage of Northwind Retail out of the total", "the change in average price": a sum or an average
        # is not the share, ratio or change asked for (unless a column is named so: "Increase")
        asked = next((i for i, w in enumerate(words) if w in _OPERATION_WORDS and i not in named), None)
        if asked is not None:
            return " ".join(words[asked : asked + 4])
    if draft.group_by is not None and draft.aggregate == ("count", None) and not draft.group_by.repeats:
        # "which depot has the most notes?" as rows per Name: every name is one row, every count 1
        return " ".join(w for w in words[question.head[1] :] if w not in _ARTICLES)
    if draft.filters or draft.group_by is not None or draft.having is not None:
        return ""
    if draft.same_as is not None or draft.limit not in (None, LOOKUP_LIMIT):
        return ""
    if draft.aggregate is None:
        # a column of every row ("which vendor had almost no orders?" answered with every vendor) answers only a
        # question that asks for all of them
        if draft.sort_by or draft.offset or draft.compare or draft.distinct or question.has(*_EVERY):
            return ""
        # what the question says beyond the thing asked, the sheet's own column names and words about the data
        # ("which nations are listed?", "what companies are in the dataset?", "show me the lead investors")
        rest = [i for i in range(question.head[1], len(words)) if i not in named]
        if all(words[i] in STOP or words[i] in _LISTED for i in rest):
            return ""
        return " ".join(words[i] for i in range(rest[0], len(words)) if words[i] not in _ARTICLES)
    for comparison in question.comparisons:
        return " ".join(words[comparison.start : comparison.end])
    for i, word in enumerate(words):
        following = words[i + 1 : i + 2]
        if word in _NEGATIONS and not (word == "no" and following and following[0][:1].isdigit()):  # "no. 1"
            return " ".join(words[max(0, i - 1) : i + 4])
    return ""


def _per_item(question: Question, draft: Draft) -> None:
    """ "Fintech vs Healthtech", "Japan and France each": one figure per item, side by side, not one sum of both.

    An aggregate over rows matching any of several values of one column is grouped by that column when the
    question compares them (vs, compared with, each, respectively), unless it asks for them together
    ("combined", "in total").
    """
    if draft.aggregate is None or draft.group_by is not None or draft.sort_by is not None:
        return
    if _total(question):
        return
    # "Sales for Ashford and Brookvale", "games in Paris or Rome" add up; only a comparison is split.
    if not any(w in _COMPARING for w in question.words):
        return
    several = [f for f in draft.filters if f.op == "in" and isinstance(f.value, list) and len(f.value) > 1]
    if len(several) != 1:
        return
    group = next((c for c in draft.sheet.columns if c.name == several[0].column), None)
    if group is not None:
        draft.group_by = group


# "The difference in X between A and B", "how many more X does A have than B": the gap between two items' values.
_GAP = re.compile(
    r"\bdifference\b|\bhow\s+(?:many|much)\s+(?:more|less|fewer|higher|lower|larger|smaller|greater|bigger|"
    r"longer|shorter|older|younger|taller)\b"
)


def _difference(question: Question, draft: Draft) -> None:
    """Two items named by one filter, looked up or each aggregated ("how many more patents does Norway have than
    Chile", "how many more acute care hospitals than rehabilitation ones"), answer with the difference of their
    values when the question asks for it; each value stays cited, and a value that is not a number leaves them
    side by side."""
    if draft.sort_by is not None or draft.distinct or not _GAP.search(question.text.lower()):
        return
    pairs = [f for f in draft.filters if f.op == "in" and isinstance(f.value, list) and len(f.value) == 2]
    if len(pairs) != 1:
        return
    if draft.aggregate is None and draft.group_by is None and len(draft.filters) == 1:
        draft.difference = True
    elif (
        draft.aggregate is not None
        and draft.limit is None
        and draft.group_by in (None, _column(draft, pairs[0].column))
    ):
        draft.group_by = _column(draft, pairs[0].column)
        draft.difference = draft.group_by is not None


def _column(draft: Draft, name: str) -> ColumnInfo | None:
    return next((c for c in draft.sheet.columns if c.name == name), None)


# -- what the intents share ----------------------------------------------------------------------


def _asked(question: Question, link: Link, draft: Draft) -> ColumnInfo | None:
    """The column whose value answers the question, leaving out the columns the filters pin to one value."""
    return asked_column(question, link, draft.filter_cols - draft.open_cols)


def _counting(question: Question) -> bool:
    """ "How many", "number of", "count": the answer is a count (or a sum of counts)."""
    return question.wh in ("how many", "number of", "how often") or question.has("count", "the number of")


def _total(question: Question) -> bool:
    """ "Total", "combined", "in all": the rows are added up."""
    return any(w in TOTAL_WORDS for w in question.words) or question.has("in all")


# -- the intents, in registry order --------------------------------------------------------------


def _same(question: Question, link: Link, draft: Draft) -> Draft | None:
    """ "Which employees work in the same office as Ida Brandt?", "how many regions have the same number of
    branches as Tarsk?": the rows sharing one column's value with a named row (that row left out)."""
    found = _same_as(question, link, draft)
    if found is None:
        return None
    compared, reference = found
    draft.filters = [f for f in draft.filters if f is not reference]
    ref_col = _column(draft, reference.column)
    draft.filter_cols.discard(ref_col.position if ref_col is not None else -1)
    draft.same_as = (compared, reference)
    if _counting(question):
        draft.aggregate = ("count", None)
        return draft
    asked = asked_column(question, link, draft.filter_cols | {compared.position})
    if asked is None and ref_col is not None and ref_col.position != compared.position:
        asked = ref_col  # "which tower has the same height as X": rows named as X is
    return lookup_rows(draft, asked)


def _same_as(question: Question, link: Link, draft: Draft) -> tuple[ColumnInfo, Filter] | None:
    """The column named between "same" and "as", and the filter picking the row it is compared with."""
    words = question.words
    if "same" not in words:
        return None
    s = words.index("same")
    a = next((i for i in range(s + 1, min(len(words), s + 7)) if words[i] == "as"), None)
    if a is None:
        return None
    named = [m for m in link.columns if s < m.start < a]
    if not named:
        return None
    compared = max(named, key=lambda m: (m.score, -m.start)).column
    # The row compared with: a value named after "as" (else before "same"), of another column than the compared one.
    # "X is in the same district as what school": the question word follows "as", so X is the row compared with.
    asks_after = a + 1 < len(words) and words[a + 1] in ("what", "which", "who", "whom", "whose")
    after = [m for m in link.values if m.resolved and m.column is not compared and m.start > a]
    before = [m for m in link.values if m.resolved and m.column is not compared and m.end <= s]
    mentions = before if asks_after else after or before
    if mentions:
        column = mentions[0].column.name
    elif a + 1 < len(words) and YEAR_RE.fullmatch(words[a + 1]):
        column = next((f.column for f in draft.filters if f.op == "year"), "")  # "the same car number as 1964"
    else:
        return None
    reference = next((f for f in draft.filters if f.column == column and f.op in ("eq", "in", "year")), None)
    if reference is None or reference.column == compared.name:
        return None
    return compared, reference


def _count_distinct(question: Question, link: Link, draft: Draft) -> Draft | None:
    """ "How many different X": the distinct values of the asked column (else of the row's name)."""
    if not question.has("how many different", "how many distinct", "how many unique", "number of different",
                        "number of distinct", "number of unique"):  # fmt: skip
        return None
    draft.aggregate = ("count_distinct", _asked(question, link, draft) or key_column(link.sheet, draft.filter_cols))
    return draft


def _two_way(question: Question, link: Link, draft: Draft) -> Draft | None:
    """ "Did A make more or less than B?", "is A older or younger than B?", "is A listed above or below B?": the two
    named rows compared, the answer one of the two words offered; "was A inaugurated before B?" answers yes or no."""
    if question.wh in ("how many", "how much", "number of"):
        return None
    pair = [f for f in draft.filters if f.op == "in" and isinstance(f.value, list) and len(f.value) == 2]
    named = [m for m in link.values if m.resolved and pair and m.column.name == pair[0].column]
    if len(pair) != 1 or len(named) != 2 or any(len(m.values) != 1 for m in named):
        return None
    offered = _offered_words(question.words)
    yes_no = offered is None
    if offered is None:
        # "Was A inaugurated before B?": one comparative between the two named rows, asked of yes or no.
        words = question.words
        between = [w for w in words[named[0].end : named[1].start] if w in COMPARATIVE_AS or w in ORDER_WORDS]
        if not words or words[0] not in _AUXILIARIES or len(between) != 1:
            return None
        offered = (between[0], "")
    first, second = offered
    order = next((p for p in ORDER_PAIRS if first in p and (second in p or not second)), None)
    cols = link.sheet.columns
    measure = None if "listed" in question.words else measure_column(question, link, draft)
    if measure is None and first in COMPARATIVE_AS:
        measure = implied_column(COMPARATIVE_AS[first], cols, draft.filter_cols)
    if measure is None and first in IN_TIME and "listed" not in question.words:
        measure = next((c for c in cols if c.position not in draft.filter_cols and yearish(c) and quantity(c)), None)
    if measure is None and first in AMOUNT_COMPARATIVES:
        # "Does A pay more or less than B?": nothing named, but the sheet has one plain quantity to compare.
        plain = [c for c in cols if c.numeric and c.position not in draft.filter_cols and not rank_like(c)
                 and not yearish(c)]  # fmt: skip
        measure = plain[0] if len(plain) == 1 else None
    if measure is not None and not quantity(measure):
        measure = None
    if measure is None:
        if order is None:
            return None
        greater = order[1]  # in the sheet's order: the later row is "below", "after"
    elif order == ("above", "below"):
        greater = "above"
    elif order is not None:
        greater = order[1]  # a later date is "after", "later"
    else:
        greater = first if sort_descending(COMPARATIVE_AS[first], measure) else second
    if yes_no:
        draft.compare = ("yes", "no") if greater == first else ("no", "yes")
    else:
        draft.compare = (greater, second if greater == first else first)
    draft.select = [measure] if measure is not None else []
    return draft


# A question asked of yes or no starts with one of these.
_AUXILIARIES = frozenset("is was are were did does do has have had".split())


def _offered_words(words: list[str]) -> tuple[str, str] | None:
    """The two comparatives a question offers: "more or less", "more/less", "above or below"."""
    known = set(COMPARATIVE_AS) | ORDER_WORDS
    for i, word in enumerate(words[:-1]):
        if word not in known:
            continue
        j = i + 2 if words[i + 1] == "or" else i + 1
        if j < len(words) and words[j] in known and words[j] != word:
            return word, words[j]
    return None


def _among(question: Question, link: Link, draft: Draft) -> Draft | None:
    """ "Which had more wins, Germany or the UK?": rank only the named rows."""
    among = _among_column(question, link)
    return None if among is None else _choose_among(question, link, draft, among)


def _among_column(question: Question, link: Link) -> ColumnInfo | None:
    """ "Which had more wins, Germany or the UK?": a column with two or more named values and a comparison."""
    counts: dict[int, int] = {}
    for m in link.values:
        if m.resolved:
            counts[m.column.position] = counts.get(m.column.position, 0) + 1
    multi = [p for p, n in counts.items() if n >= 2]
    if not multi:
        return None
    if not set(question.words) & (COMPARATIVES_DESC | COMPARATIVES_ASC | EARLIER | LATER):
        return None
    if question.wh in ("how many", "how much", "number of") or not (
        question.wh in ENTITY_WH or question.wh == "what" or question.has("or")
    ):
        return None
    return next(c for c in link.sheet.columns if c.position == multi[0])


def _choose_among(question: Question, link: Link, draft: Draft, among: ColumnInfo) -> Draft:
    """Rank only the named values of `among` and answer with the winner."""
    words = set(question.words)
    descending = not (words & COMPARATIVES_ASC) or bool(words & COMPARATIVES_DESC and not words & COMPARATIVES_ASC)
    measure = measure_column(question, link, draft, skip=among)
    if measure is not None and yearish(measure) and words & (EARLIER | LATER):
        descending = bool(words & LATER)  # "born first": the earliest date
    elif measure is not None and rank_like(measure) and words & RANKED:
        descending = not descending  # "ranked higher": the smaller rank number
    if measure is None:
        for word in question.words:
            measure = implied_column(word, link.sheet.columns, draft.filter_cols)
            if measure is not None:
                descending = sort_descending(word, measure)
                break
    if measure is not None:
        if among.repeats and measure.numeric:
            draft.group_by, draft.aggregate = among, ("sum", measure)
            draft.sort_by, draft.descending, draft.limit = "value", descending, 1
            return draft
        draft.sort_by, draft.descending, draft.limit = measure.name, descending, 1
        draft.select = [among]
        return draft
    if among.repeats:
        draft.group_by, draft.aggregate = among, ("count", None)
        draft.sort_by, draft.descending, draft.limit = "value", descending, 1
        return draft
    if words & (EARLIER | LATER):
        order_rows(draft, "first" if words & EARLIER else "last", among, 1)
        return draft
    fallback = fallback_measure(link.sheet.columns, draft.filter_cols)
    if fallback is not None:
        draft.sort_by, draft.descending, draft.limit = fallback.name, descending, 1
    draft.select = [among]
    return draft


def _neighbour(question: Question, link: Link, draft: Draft) -> Draft | None:
    """ "Who finished after Rosa Imbert?": the asked column of the row next to a named one (not a count)."""
    if question.wh in ("how many", "number of", "how much", "list"):
        return None
    if question.has("what are", "which are", "what were", "which were", "components", "items"):
        return None  # several rows are asked for ("the components under Equity securities"): no one neighbour
    if question.words[:1] and question.words[0] in _AUXILIARIES:
        return None  # "did A serve before B?" asks yes or no, not who served before B
    found = _neighbour_row(question, link)
    if found is None:
        return None
    col, value, offset = found
    # The neighbour row alone: the question's other values named the row it is next to.
    draft = Draft(link.sheet, filters=[Filter(column=col.name, op="eq", value=value)], filter_cols={col.position})
    draft.offset = offset
    asked = asked_column(question, link, set()) or col
    if question.wh in ("who", "whom", "whos") and asked.numeric:
        asked = col
    draft.select, draft.limit = [asked], LOOKUP_LIMIT
    return draft


_AFTER = frozenset("after next following below behind succeeded succeeding later under then".split())
_BEFORE = frozenset("before previous previously preceding preceded above prior ahead earlier".split())
# Words that say the order meant is the list's, not time's.
_POSITIONAL = frozenset("listed list above below chart table ranked rank row placed finished position".split())


def _neighbour_row(question: Question, link: Link) -> tuple[ColumnInfo, str, int] | None:
    """ "Who finished after Rosa Imbert?": the row next to a named one, as (column, value, offset).

    A column whose values never repeat lists them in sheet order, so the row next to a named value is
    known from the schema and becomes an exact filter on that row (offset 0).  In a column whose values repeat,
    the filter names the value and the table step reads the row `offset` rows from it.
    """
    words = question.words
    for t, word in enumerate(words):
        if (word not in _AFTER and word not in _BEFORE) or (word == "following" and t > 0 and words[t - 1] == "the"):
            continue
        step = 1 if word in _AFTER else -1
        for m in link.values:
            if not (m.resolved and t < m.start <= t + 3) or not m.column.values:
                continue
            if m.start - t > 3 or (m.start - t == 3 and words[t + 1] not in STOP):
                continue  # "listed before the song Yesh": at most a couple of words between
            index = next((i for i, v in enumerate(m.column.values) if v in m.values), None)
            if index is None:
                continue
            # Time order: in a newest-first table the row after a value is the one before it in time.
            temporal = not set(words) & _POSITIONAL
            if temporal and any(c.trend == "down" and yearish(c) for c in link.sheet.columns):
                step = -step
            # A repeating column lists each value once, at its first row: the row next to it is read by the
            # table step.
            if m.column.repeats:
                return m.column, m.column.values[index], step
            j = index + step
            if 0 <= j < len(m.column.values):
                return m.column, m.column.values[j], 0
    return None


def _count_span(question: Question, link: Link, draft: Draft) -> Draft | None:
    """ "How many picks were between A and B?": count the rows of a span of the sheet order."""
    span = _row_span(question, link) if _counting(question) else None
    if span is None:
        return None
    col, values = span
    draft = Draft(
        link.sheet, filters=[Filter(column=col.name, op="in", value=list(values))], filter_cols={col.position}
    )
    draft.aggregate = ("count", None)
    return draft


def _row_span(question: Question, link: Link) -> tuple[ColumnInfo, tuple[str, ...]] | None:
    """ "How many picks were between A and B?" / "how many before A?": the rows strictly between, by sheet order."""
    words = question.words
    unique = [m for m in link.values if m.exact and not m.column.repeats and m.column.values]
    if "between" in words:
        t = words.index("between")
        after = [m for m in unique if m.start > t]
        if len(after) >= 2 and after[0].column is after[1].column:
            col = after[0].column
            i = next((k for k, v in enumerate(col.values) if v in after[0].values), None)
            j = next((k for k, v in enumerate(col.values) if v in after[1].values), None)
            if i is not None and j is not None and abs(i - j) > 1:
                low, high = sorted((i, j))
                return col, col.values[low + 1 : high]
        return None
    for t, word in enumerate(words):
        if word not in ("before", "after", "above", "below", "prior"):
            continue
        m = next((m for m in unique if t < m.start <= t + 2), None)
        if m is None:
            continue
        i = next((k for k, v in enumerate(m.column.values) if v in m.values), None)
        if i is None:
            continue
        earlier = word in ("before", "above", "prior")
        temporal = not set(words) & _POSITIONAL
        if temporal and any(c.trend == "down" and yearish(c) for c in link.sheet.columns):
            earlier = not earlier
        values = m.column.values[:i] if earlier else m.column.values[i + 1 :]
        return (m.column, values) if values else None
    return None


def _having(question: Question, link: Link, draft: Draft) -> Draft | None:
    """ "Which year had at least three films?", "which year saw 4 albums released in all?": the groups of the
    asked column whose number of rows passes the condition (not a filter on a column: the thing counted is rows)."""
    if question.wh not in ("which", "what", "who", "name", "list"):
        return None
    found = _row_count_condition(question, link)
    if found is None:
        return None
    op, n, start, end = found
    asked = asked_column(question, link, set())
    if asked is None or not asked.repeats or any(start <= m.start < end for m in link.values):
        return None
    if quantity(asked) and not yearish(asked):
        return None  # groups are names or periods, not amounts
    # A comparison the filters read as a condition on a column ("Year ≥ 3") is this count instead.
    counted = [c for c in question.comparisons if c.start <= start < c.end or start <= c.start < end]
    drop = {(c.op, num_text(v)) for c in counted for v in c.values}
    draft.filters = [f for f in draft.filters if (f.op, f.value) not in drop]
    # "2 titles": the Title cells are counted (a row without one is not a title); "2 times": the rows.
    noun = next((m.column for m in link.columns if m.start == end - 1 and m.column is not asked), None)
    draft.group_by, draft.aggregate = asked, ("count", noun)
    draft.having = Filter(column="value", op=op, value=num_text(n))  # one of _ROW_COUNT_OPS
    return draft


# The words before a count of rows and the comparison they make ("at least three films", "a total of 2 titles").
_ROW_COUNT_OPS = (
    (("at", "least"), "ge"), (("more", "than"), "gt"), (("over",), "gt"), (("fewer", "than"), "lt"),
    (("less", "than"), "lt"), (("at", "most"), "le"), (("a", "total", "of"), "eq"), (("only",), "eq"),
    (("exactly",), "eq"),
)  # fmt: skip


def _row_count_condition(question: Question, link: Link) -> tuple[str, float, int, int] | None:
    """ "At least three movies": (op, n, start, end) when a small whole number counts things that are no quantity
    column ("movies", "titles", "times", "competition"), the words before it saying how it compares."""
    words = question.words
    for k, word in enumerate(words[:-1]):
        n = as_number(word)
        if n is None or not n.is_integer() or not 1 <= n <= 50 or YEAR_RE.fullmatch(word):
            continue
        noun = words[k + 1]
        if noun in STOP or noun in SCALES or any(m.start == k + 1 and quantity(m.column) for m in link.columns):
            continue
        if k + 2 < len(words) and words[k + 2] in ("before", "after", "ago", "later", "earlier", "prior"):
            continue  # "three years before that": a span of time, not a count
        for phrase, op in _ROW_COUNT_OPS:
            if tuple(words[max(0, k - len(phrase)) : k]) == phrase:
                return op, n, k - len(phrase), k + 2
        if noun == "times" or (len(noun) > 3 and noun.endswith("s") and not noun.endswith("ss")):
            return "eq", n, k, k + 2  # "hosted 3 titles"
    return None


def _counted_after_value(question: Question, link: Link, exclude: set[int]) -> ColumnInfo | None:
    """ "How many Series A shares …", "how many Harbury units": the quantity column named whole right after the
    value that picks the rows (the head of the question is that value)."""
    head_values = [v for v in link.values if v.start <= question.head[0] < v.end or question.in_head(v.start)]
    ends = {v.end for v in head_values}
    return next(
        (m.column for m in link.columns
         if m.start in ends and m.score >= 1.0 and m.column.position not in exclude and quantity(m.column)),
        None,
    )  # fmt: skip


def _names_head(question: Question, column: ColumnInfo) -> bool:
    """Whether the question names the column by the word it is about, its last ("date" of "Order Date")."""
    words = [stem_of(w) for w in words_of(column.name) if not w.isdigit()]
    return bool(words) and words[-1] in {stem_of(w) for w in question.words}


def _names_rows_apart(question: Question, link: Link, noun: ColumnInfo) -> bool:
    """Whether the question names what each row is besides the counted column: a word of the sheet's name or of a
    column holding one value a row ("invoices" of an Invoice No column), outside the words naming what is counted."""
    ids = [c for c in link.sheet.columns if c is not noun and c.one_a_row]
    own = {stem_of(w) for w in words_of(link.sheet.name)} | {w for c in ids for w in c.words}
    own -= set(noun.words)
    return any(stem in own for i, stem in enumerate(question.stems) if not question.in_head(i))


def _count(question: Question, link: Link, draft: Draft) -> Draft | None:
    """ "How many seed rounds?": count the rows; "how many gold medals" adds up the column it names."""
    if not _counting(question) or superlative_word(question) is not None:
        return None
    if question.has("how many more", "how many less", "how many fewer"):
        return None
    words, exclude = question.words, set(draft.filter_cols)
    # of the columns the counted words name, the one the question names best anywhere ("units … — Qty Avail")
    best = {m.column.position: max(n.score for n in link.columns if n.column is m.column) for m in link.columns}
    heads = [m.column for m in link.columns if question.in_head(m.start) and m.column.position not in exclude]
    noun = max(heads, key=lambda c: best[c.position], default=None)
    if noun is None:
        noun = _counted_after_value(question, link, exclude)
    if noun is not None and "times" not in words[question.head[0] - 1 : question.head[1]]:
        if addable(noun) and not yearish(noun) and not rank_like(noun):
            draft.aggregate = ("sum", noun)
            return draft
        if yearish(noun) and not question.has("times") and _names_head(question, noun):
            # "how many months": the distinct months; not "how many orders" of an "Order Date" column (its rows)
            draft.aggregate = ("count_distinct", noun)
            return draft
        if (not noun.numeric and not yearish(noun) and noun.n_distinct * 3 <= noun.n_filled and noun.dtype != "date"
                and _names_rows_apart(question, link, noun)):  # fmt: skip
            # "how many suppliers did we receive invoices from": the distinct Vendor names of a register with a row
            # per invoice, not its rows (the question names both; a column whose names come back row after row)
            draft.aggregate = ("count_distinct", noun)
            return draft
    if noun is None and not question.has("times") and names_one_row(link, draft):
        # "How many goals did Tomas Berg score?": counting one row's rows says 1; its quantity is meant.
        amount = measure_column(question, link, draft) or total_column(link.sheet.columns, exclude)
        if amount is not None and amount.numeric and not yearish(amount) and not rank_like(amount):
            draft.aggregate = ("sum", amount)
            return draft
    draft.aggregate = ("count", None)
    return draft


def _aggregate(question: Question, link: Link, draft: Draft) -> Draft | None:
    """ "What is the average round size?", "median", "how much", "in total": one figure over the rows."""
    superlative = superlative_word(question)
    # The first aggregate whose words the question has ("average", "mean", "median"), in registry order.
    func = next((a.name for a in AGGREGATES.values() if a.words and question.has(*a.words)), None)
    if func is None and (question.wh == "how much" or (_total(question) and superlative is None)):
        func = "sum"
    if func is None:
        return None
    measure = measure_column(question, link, draft)
    if measure is not None and addable(measure) and not yearish(measure):
        asked = _asked(question, link, draft)
        if superlative is not None and asked is not None and asked.position != measure.position:
            rank_groups(question, draft, asked, func, measure, superlative[1])  # "which sector's average is highest"
            return draft
        draft.aggregate = (func, measure)
        return draft
    if func == "sum" and question.has("total number", "total count", "in total", "total of"):
        draft.aggregate = ("count", None)
        return draft
    return None


def _superlative(question: Question, link: Link, draft: Draft) -> Draft | None:
    """ "Which team scored the most goals?", "what is the highest score?", "top 3 sectors by total"."""
    superlative = superlative_word(question)
    if superlative is None:
        return None
    asked, entity, total = _asked(question, link, draft), question.wh in ENTITY_WH, _total(question)
    sheet, cols = link.sheet, link.sheet.columns
    exclude = set(draft.filter_cols)
    pos, word = superlative
    measure = measure_column(question, link, draft, after=pos, skip=asked if entity else None)
    if measure is None or (asked is not None and measure.position == asked.position and not quantity(measure)):
        measure = implied_column(word, cols, exclude) or measure
    if measure is not None and not quantity(measure):
        measure = None
    # "What is the highest score?" asks for the value; "which team ..." / "what team ..." for a row.
    head_words = [w for w in question.words[question.head[0] : question.head[1]] if w not in SUPERLATIVES]
    # "what is the highest score?" asks the value; "what is the top selling model?" names a row.
    ends = [m.end for m in link.columns if m.column is measure and question.in_head(m.start)]
    follows = question.words[ends[0]] if ends and ends[0] < len(question.words) else ""
    covered = {i for m in link.columns if quantity(m.column) for i in range(m.start, m.end)}
    bare = bool(ends) and (follows == "" or follows in STOP or ends[0] in covered)
    # "the highest odometer reading for V-12": the measure named in what is asked, no column of names beside it
    names = any(question.in_head(m.start) and m.column is not measure and not quantity(m.column)
                and not question.words[m.start].endswith(("ed", "ing"))  # (a verb: "the amount billed")
                for m in link.columns)  # fmt: skip
    measured = {i for m in link.columns if m.column is measure for i in range(m.start, m.end)}
    others = [question.stems[i] for i in range(*question.head) if i not in measured]
    held = any((stem,) in c.index or (stem,) in c.ngrams for stem in others for c in sheet.columns if not c.numeric)
    # (or named right after the superlative with no question word: "highest amount billed by X")
    ends = ends or [m.end for m in link.columns if m.column is measure and m.start == pos + 1 and not question.wh]
    plain = question.wh in ("what", "") and bool(ends) and not names and not held  # ("the busiest branch")
    asks_value = (asked is not None and measure is not None and asked.position == measure.position
                  and (bare or not ends or plain))  # fmt: skip
    if not asks_value and question.wh in ("what", "") and asked is None and measure is not None:
        asks_value = not head_words or bare or plain
    if asks_value and question.limit is None:
        assert measure is not None
        draft.aggregate = ("max" if sort_descending(word, measure) else "min", measure)
        return draft
    target = asked if asked is not None and (measure is None or asked.position != measure.position) else None
    if target is None:
        skip = exclude | ({measure.position} if measure is not None else set())
        target = person_column(sheet, skip) if question.wh == "who" else key_column(sheet, skip)
    counted = measure is None and _counted_after(question, link, pos)
    if target is not None and (counted or (measure is None and target.repeats)):
        draft.group_by, draft.aggregate = target, ("count", None)
        draft.sort_by, draft.descending = "value", SUPERLATIVES[word][0]
        draft.limit = question.limit or 1
        return draft
    if measure is None and word in ("recent", "latest", "newest", "earliest", "oldest"):
        order_rows(draft, "last" if word in ("recent", "latest", "newest") else "first", target, question.limit or 1)
        return draft
    measure = measure or fallback_measure(cols, exclude)
    if measure is None:
        return lookup_rows(draft, target)
    if (
        target is not None
        and target.repeats
        and measure.numeric
        and (total or _group_superlative(question, pos, measure))
    ):
        # "Which sector raised the most?" over one row per round: the sector whose rounds add up to most.
        rank_groups(question, draft, target, "sum", measure, word)
        return draft
    draft.sort_by, draft.descending = measure.name, sort_descending(word, measure)
    draft.limit = question.limit or 1
    draft.select = [target] if target is not None else []
    return draft


def _counted_after(question: Question, link: Link, pos: int) -> bool:
    """ "led the most rounds", "the most titles": the ranked thing is a count of rows, not a quantity."""
    words = question.words
    if pos + 1 >= len(words):
        return False
    for k in (pos + 1, pos + 2):
        if k >= len(words) or words[k] in STOP:
            return False
        word = words[k]
        plural = (len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is"))) or word == "times"
        after = [m for m in link.columns if m.start == k]
        if any(quantity(m.column) or numberish(m.column) for m in after):
            return False
        if plural:
            return True
    return False


# Words of a measure that adding up would not make sense of: rates, averages, positions, prices, dates.
_NOT_ADDITIVE = frozenset(
    """rate rates ratio percent percentage pct average avg mean median price score rank ranking position place
    year age rating height weight margin growth share yield per time speed temperature""".split()
)
# Words saying the question is about one row: "the largest single round", "in one deal".
_ONE_ROW = frozenset("single individual one each".split())
# Nouns naming a row after the superlative ("the largest round"): a row, not a group's total.
_ROW_NOUNS = frozenset(
    """round rounds deal deals transaction transactions investment investments game games match matches race
    event events order orders contract contracts loan loans trade trades payment payments project projects
    film song episode record day week month""".split()
)


def _group_superlative(question: Question, pos: int, measure: ColumnInfo) -> bool:
    """Whether "which X … the most <amount>" ranks X's groups by their total rather than single rows."""
    words = question.words
    if words[pos] not in AMOUNT_SUPERLATIVES or measure.dtype not in ("number", "currency"):
        return False
    if yearish(measure) or any(w in _NOT_ADDITIVE for w in measure.words):
        return False
    after = words[pos + 1 : pos + 3]
    return not any(w in _ONE_ROW for w in words) and not any(w in _ROW_NOUNS for w in after)


def _first_last(question: Question, link: Link, draft: Draft) -> Draft | None:
    """ "Which team finished first?", "the last game": rows by the sheet's order."""
    which = _first_or_last(question, link)
    if which is None:
        return None
    exclude = set(draft.filter_cols)
    people = question.wh == "who"
    target = _asked(question, link, draft) or (
        person_column(link.sheet, exclude) if people else key_column(link.sheet, exclude)
    )
    order_rows(draft, which, target, question.limit or 1, bool(set(question.words) & _POSITIONAL))
    return draft


def _first_or_last(question: Question, link: Link) -> str | None:
    """ "first" or "last" in row order (not "first place" nor a column "First elected"); "top of the list"."""
    words = question.words
    named = {i for m in link.columns if m.score >= 1.0 for i in range(m.start, m.end)}
    if question.has("top of the list", "top of the table", "top of the chart", "listed first", "at the top", "on top"):
        return "first"
    if question.has("bottom of the list", "bottom of the table", "bottom of the chart", "listed last"):
        return "last"
    valued = {i for v in link.values for i in range(v.start, v.end)}
    for i, word in enumerate(words):
        if word in ("first", "last", "final") and i not in valued and i not in named:
            return "first" if word == "first" else "last"
    return None


def _listing(question: Question, link: Link, draft: Draft) -> Draft | None:
    """ "List the companies ...", "which were ...": the distinct values of the asked column."""
    if not (question.wh in ("list", "name") or question.has("what are", "which are", "what were", "which were")):
        return None
    asked = _asked(question, link, draft)
    if asked is None or (draft.filters and not (asked.repeats and asked.position not in draft.filter_cols)):
        return None
    draft.distinct = asked
    return draft


def _choice(question: Question, link: Link, draft: Draft) -> Draft | None:
    """ "Was Pioneer or Osprey built in 1902?", "awarded in 2003 or 2004?": one of the values offered answers, so the
    rows the other conditions pick are named by the offered values' column."""
    if question.wh not in ("", "which", "what", "who") or len(draft.filters) < 2:
        return None
    words = question.words
    offered = [
        (a, b) for a, b in zip(link.values, link.values[1:], strict=False)
        if a.column is b.column and a.resolved and b.resolved and words[a.end : b.start][:1] == ["or"]
        and all(w in ("or", "the", "a", "an") for w in words[a.end : b.start])
    ]  # fmt: skip
    if len(offered) != 1:
        return None
    column = offered[0][0].column
    pinned = [f for f in draft.filters if f.column == column.name and f.op in ("in", "eq")]
    if len(pinned) != 1 or len(draft.filters) < 2:
        return None
    draft.select, draft.limit = [column], LOOKUP_LIMIT
    return draft


def _lookup(question: Question, link: Link, draft: Draft) -> Draft | None:
    """Anything else: the asked column of the rows the filters pick."""
    return lookup_rows(draft, _asked(question, link, draft), link, question)


# The order is the meaning: the first rule that applies wins ("how many different" is counted distinct
# before it is counted; a superlative with "average" ranks averages before it ranks rows).
INTENTS: tuple[Intent, ...] = (
    Intent("same", _same),
    Intent("count_distinct", _count_distinct),
    Intent("two_way", _two_way),
    Intent("among", _among),
    Intent("neighbour", _neighbour),
    Intent("count_span", _count_span),
    Intent("having", _having),
    Intent("count", _count),
    Intent("aggregate", _aggregate),
    Intent("superlative", _superlative),
    Intent("first_last", _first_last),
    Intent("listing", _listing),
    Intent("choice", _choice),
    Intent("lookup", _lookup),
)
