"""A table operation under construction (`Draft`) and the drafting steps the intents share: filters from the
linked values and comparisons, the measure to aggregate or rank by, row order, lookups."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from itertools import pairwise

from core.cells import parse_number
from core.lexicon.periods import HISTORIC_SINCE, months_asked, year_digits
from core.qa.planner.cells import GridRow
from core.qa.planner.lexicon import SUPERLATIVES, YEAR_RE, num_text, stem_of
from core.qa.planner.linking import (
    Comparison,
    Link,
    Question,
    ValueMention,
    datish,
    key_column,
    quantity,
    rank_like,
    yearish,
)
from core.qa.planner.schema import LOOKUP_LIMIT, ColumnInfo, SheetInfo
from core.retrieval.tables import Aggregate, Filter, SameAs, TableOp


@dataclass
class Draft:
    """A TableOp under construction, with the columns it names."""

    sheet: SheetInfo
    filters: list[Filter] = field(default_factory=list)
    filter_cols: set[int] = field(default_factory=set)
    # Filtered without being pinned to one value (words inside values, a range): still worth showing.
    open_cols: set[int] = field(default_factory=set)
    group_by: ColumnInfo | None = None
    aggregate: tuple[str, ColumnInfo | None] | None = None
    sort_by: str | None = None
    descending: bool = True
    limit: int | None = None
    select: list[ColumnInfo] = field(default_factory=list)
    distinct: ColumnInfo | None = None
    difference: bool = False
    same_as: tuple[ColumnInfo, Filter] | None = None  # rows sharing this column's value with the filter's rows
    from_end: bool = False  # the last `limit` rows in sheet order, not the first
    compare: tuple[str, str] | None = None  # the two named rows compared: (word if the first's is greater, if less)
    offset: int = 0  # the row this many rows after (before, when negative) the rows the filters pick
    having: Filter | None = None  # of the groups, those whose aggregate passes this condition
    # a condition the question states that no filter reads ("under 200 ft", "did not list"): its words
    unread: str = ""

    def copy(self) -> Draft:
        """A copy whose lists and sets can change without changing this draft."""
        return replace(
            self, filters=list(self.filters), filter_cols=set(self.filter_cols), open_cols=set(self.open_cols),
            select=list(self.select),
        )  # fmt: skip

    def op(self) -> TableOp:
        """The finished operation."""
        agg = None
        if self.aggregate is not None:
            func, col = self.aggregate
            agg = Aggregate(func=func, column=None if col is None else col.name)
        return TableOp(
            sheet_id=self.sheet.sheet_id, filters=self.filters,
            group_by=self.group_by.name if self.group_by else None, aggregate=agg, sort_by=self.sort_by,
            descending=self.descending, limit=self.limit, select=[c.name for c in self.select],
            distinct=self.distinct.name if self.distinct else None, difference=self.difference,
            same_as=None if self.same_as is None else SameAs(column=self.same_as[0].name, row=self.same_as[1]),
            from_end=self.from_end,
            compare=None if self.compare is None else list(self.compare),
            offset=self.offset,
            having=self.having,
        )  # fmt: skip


def apply_filters(question: Question, link: Link, draft: Draft) -> None:
    """Value mentions, comparisons and years become filters."""
    _value_filters(question, link, draft)
    _year_filters(question, link, draft)
    _date_filters(question, link, draft)
    _months_filter(question, link, draft)
    _comparison_filters(question, link, draft)


def _value_filters(question: Question, link: Link, draft: Draft) -> None:
    """The cell values the question quotes: one value (or any of several) per column, or every row but a value
    set aside."""
    by_column: dict[int, list[ValueMention]] = {}
    excluded: list[ValueMention] = []
    for mention in link.values:
        if _excluded(question, mention, excluded):
            excluded.append(mention)
            # "Other than Jane Roe, who ...": every row but that value's.
            for value in mention.values:
                draft.filters.append(Filter(column=mention.column.name, op="ne", value=value))
            continue
        by_column.setdefault(mention.column.position, []).append(mention)
    for pos, mentions in by_column.items():
        col = mentions[0].column
        values: list[str | float] = []
        for m in mentions:
            values.extend(v for v in m.values if v not in values)
        # Several values of one column ("Canada or France") cannot all hold: any of them.
        if len(values) == 1:
            draft.filters.append(Filter(column=col.name, op="eq", value=values[0]))
        else:
            draft.filters.append(Filter(column=col.name, op="in", value=values))
        draft.filter_cols.add(pos)
        if not any(m.exact for m in mentions):
            draft.open_cols.add(pos)


def _year_filters(question: Question, link: Link, draft: Draft) -> None:
    """Bare years ("in 2021") on a date or year column."""
    cols = link.sheet.columns
    value_words = {i for v in link.values for i in range(v.start, v.end)}
    year_col = named_date_column(question, cols) or next((c for c in cols if yearish(c) and c.numeric), None)
    for i, word in enumerate(question.words):
        if i in question.used or i in value_words or not YEAR_RE.fullmatch(word) or year_col is None:
            continue
        if year_col.position in draft.filter_cols:
            continue
        draft.filters.append(Filter(column=year_col.name, op="year", value=word))
        draft.filter_cols.add(year_col.position)


def _date_filters(question: Question, link: Link, draft: Draft) -> None:
    """Date conditions ("before 1 August 2001") on the sheet's date column."""
    cols = link.sheet.columns
    dated = next((c for c in cols if c.dtype == "date"), None) or next((c for c in cols if datish(c)), None)
    for span in question.dates:
        if dated is not None:
            when: str | list[str | float] = list(span.values) if span.op == "between" else span.values[0]
            draft.filters.append(Filter(column=dated.name, op=span.op, value=when))
            draft.filter_cols.add(dated.position)
            if span.op != "between" or span.values[0] != span.values[-1]:
                draft.open_cols.add(dated.position)


def named_date_column(question: Question, cols: Sequence[ColumnInfo]) -> ColumnInfo | None:
    """The date column a period is read on: the one the question names by a word of it ("leases that END in 2026"
    of Lease Start and Lease End), else the first."""
    dated = [c for c in cols if c.dtype == "date"]
    asked = {stem_of(w) for w in question.words} | {w[:-2] for w in question.words if w.endswith("ed")}
    shared = {w for c in dated for w in c.words if sum(w in d.words for d in dated) > 1}  # "lease" of both
    return next((c for c in dated if (set(c.words) - {"date"} - shared) & asked), dated[0] if dated else None)


def _months_filter(question: Question, link: Link, draft: Draft) -> None:
    """Months named without a day ("opened in March", "H1 2024", "in Q2"): on the date column the question names
    (else the sheet's first), the span from the first month's first day to the last month's last day, of the year
    the question names or of the one year the column's dates fall in (none when they span several: which March is
    not known). Months apart ("March and May") are no one span, and are left to the reading's check."""
    if question.dates:
        return
    months, _ = months_asked(question.text)
    dated = [c for c in link.sheet.columns if c.dtype == "date"]
    if not months or not dated or months != list(range(months[0], months[0] + len(months))):
        return
    column = named_date_column(question, dated)
    assert column is not None
    years = {int(w) for w in question.words if YEAR_RE.fullmatch(w)}
    held = {int(v[:4]) for v in column.values if re.match(r"\d{4}-\d\d", v)}
    year = next(iter(years)) if len(years) == 1 else next(iter(held)) if not years and len(held) == 1 else None
    if year is None:
        return
    last = months[-1]
    end = (date(year + (last == 12), last % 12 + 1, 1) - timedelta(days=1)).isoformat()
    draft.filters = [f for f in draft.filters if not (f.column == column.name and f.op == "year")]
    draft.filters.append(Filter(column=column.name, op="between", value=[f"{year:04d}-{months[0]:02d}-01", end]))
    draft.filter_cols.add(column.position)


def _comparison_filters(question: Question, link: Link, draft: Draft) -> None:
    """Numeric conditions ("more than 5", "in the top 10") on the column each compares."""
    cols = link.sheet.columns
    for comparison in question.comparisons:
        compared: ColumnInfo | None
        if comparison.rank:
            # "In the top 10": the rank column (a quantity named like one), if the sheet has it.
            ranks = [c for c in cols if rank_like(c) and quantity(c) and c.position not in draft.filter_cols]
            named = [c for c in ranks if set(c.words) & {"rank", "pos", "position", "place", "finish", "standing"}]
            compared = next(iter(named or ranks), None)
        else:
            compared = _comparison_column(link, comparison, draft)
        if compared is None:
            continue
        texts = [num_text(v) for v in comparison.values]
        if compared.dtype == "date" and not all(YEAR_RE.fullmatch(t) for t in texts):
            continue
        bound: str | list[str | float] = list(texts) if comparison.op == "between" else texts[0]
        draft.filters.append(Filter(column=compared.name, op=comparison.op, value=bound))
        draft.filter_cols.add(compared.position)
        draft.open_cols.add(compared.position)


_EXCLUDING = (("other", "than"), ("besides",), ("aside", "from"), ("apart", "from"), ("except",), ("excluding",),
              ("except", "for"), ("not", "counting"), ("beside",), ("not",), ("didn", "t"), ("wasn", "t"),
              ("isn", "t"), ("doesn", "t"), ("weren", "t"), ("aren", "t"), ("never",))  # fmt: skip


# Words that may stand between a negation and the value it sets aside ("did not use AN Aprilia").
_BETWEEN_NEGATION = frozenset("a an the any use used using have has had win won play played".split())
# "Aprilia OR a Honda": a value listed after one set aside is set aside too.
_LISTING = frozenset("or and nor a an the".split())


def _excluded(question: Question, mention: ValueMention, excluded: Sequence[ValueMention] = ()) -> bool:
    """Whether the question sets a value aside ("other than X", "besides X", "did not use an X or a Y") rather
    than asking about it."""
    words = question.words
    start = mention.start
    if mention.flag:
        return False  # "did not renew": the no cells of "Renewed" already
    if excluded and excluded[-1].column is mention.column:
        between = words[excluded[-1].end : start]
        if between and between[0] in ("or", "nor", "and") and all(w in _LISTING for w in between):
            return True
    for skip in range(3):  # the negation right before the value, or a verb or an article between them
        if skip and (start - skip < 1 or words[start - skip] not in _BETWEEN_NEGATION):
            break
        for phrase in _EXCLUDING:
            n = len(phrase)
            if tuple(words[max(0, start - skip - n) : start - skip]) == phrase:
                return True
    return False


def _comparison_column(link: Link, comparison: Comparison, draft: Draft) -> ColumnInfo | None:
    """The column a comparison is about: named next to it, a year column for years, else the one that fits."""
    cols = link.sheet.columns
    number = comparison.values[0]
    is_year = all(YEAR_RE.fullmatch(num_text(v)) for v in comparison.values)
    # Named right after the number ("10 medals") or just before the comparison ("magnitude above 0").
    near = [
        m for m in link.columns
        if quantity(m.column) and (0 <= m.start - comparison.end <= 2 or 0 <= comparison.start - m.end <= 3)
    ]  # fmt: skip
    if near:
        near.sort(key=lambda m: (min(abs(m.start - comparison.end), abs(comparison.start - m.end)), -m.score))
        return near[0].column
    if is_year:
        found = next((c for c in cols if c.dtype == "date"), None) or next(
            (c for c in cols if quantity(c) and yearish(c)), None
        )
        if found is not None:
            return found
    named = [m.column for m in link.columns if quantity(m.column) and m.column.position not in draft.filter_cols]
    if named:
        return named[0]
    # The quantity whose values reach the number.
    fits = [c for c in cols if quantity(c) and c.dtype != "date" and not yearish(c) and not rank_like(c)
            and c.numbers and min(c.numbers) <= number <= max(c.numbers)]  # fmt: skip
    if fits:
        totals = [c for c in fits if "total" in c.words]
        return (totals or fits)[0]
    # Too many values to know their range: the one plain quantity of the sheet, if there is one.
    plain = [c for c in cols if c.numeric and not c.values and not yearish(c) and not rank_like(c)]
    return plain[0] if len(plain) == 1 else None


def measure_column(
    question: Question, link: Link, draft: Draft, after: int = -1, skip: ColumnInfo | None = None
) -> ColumnInfo | None:
    """The quantity the question aggregates or ranks by: a numeric column it names (after `after`)."""
    cols = link.sheet.columns
    mentions = [
        m for m in link.columns
        if quantity(m.column) and m.column.position not in draft.filter_cols and m.column is not skip
    ]  # fmt: skip
    money = _money_column(question, cols)
    if after >= 0:
        later = [m for m in mentions if m.start > after]
        if later:
            first = min(m.start for m in later)
            return max((m for m in later if m.start == first), key=lambda m: m.score).column
        if money is not None:
            return money
        if any(m.start > after for m in link.columns):
            return None  # "the most titles": what follows is named but is no quantity
    if mentions:  # (of equals, a column of figures before one of dates: "open invoices amt" sums the Amount)
        return max(mentions, key=lambda m: (m.score, m.column.numeric, -m.start)).column
    return money


def _money_column(question: Question, cols: Sequence[ColumnInfo]) -> ColumnInfo | None:
    """Money words ("how much", "raised", "funding") point at the currency column."""
    if not question.has("how much", "raised", "raise", "money", "funding", "invested", "spent", "cost"):
        return None
    money = [c for c in cols if c.dtype == "currency"] or [
        c for c in cols if c.numeric and set(c.words) & {"amount", "raised", "total", "funding", "usd"}
    ]
    return money[0] if money else None


def superlative_word(question: Question) -> tuple[int, str] | None:
    """The ranking word and where it is ("most", "highest", "top"...)."""
    words = question.words
    for i, word in enumerate(words):
        if word not in SUPERLATIVES or i in question.used:
            continue
        if word in ("more", "less", "fewer"):
            if question.has("than any other", "than any others", "than all the other", "than anyone else", "than any"):
                return i, "most" if word == "more" else "least"  # "more titles than any other"
            continue  # comparatives rank only among named things (see _among)
        if word == "top" and question.has("top of the list", "top of the table", "top of the chart"):
            continue  # the first row (see _first_last)
        if word in ("most", "least") and i + 1 < len(words) and words[i + 1] in SUPERLATIVES:
            return i + 1, words[i + 1]  # "most recent"
        return i, word
    return None


def implied_column(word: str, cols: Sequence[ColumnInfo], exclude: set[int]) -> ColumnInfo | None:
    """The column a superlative adjective implies ("tallest" -> Height)."""
    for w in SUPERLATIVES.get(word, (True, ()))[1]:
        for col in cols:
            if col.position not in exclude and w in col.words and quantity(col):
                return col
    return None


def sort_descending(word: str, col: ColumnInfo) -> bool:
    """Descending or not: "highest rank" means rank 1; "oldest" means the earliest date but the highest age."""
    descending = SUPERLATIVES.get(word, (True, ()))[0]
    if rank_like(col) and word in ("highest", "top", "best", "worst", "lowest"):
        return not descending
    if word in ("oldest", "youngest") and "age" in col.words:
        return not descending
    if word in ("fastest", "slowest") and set(col.words) & {"speed", "mph", "kmh"}:
        return not descending
    return descending


SUMMARY_ROW = _SUMMARY_RE = re.compile(r"(?:(?:grand|team|overall)\s+)?totals?\b.{0,20}|sum|overall|all", re.IGNORECASE)


def skip_summary_rows(draft: Draft) -> None:
    """A "Total" row under the data is not one more row to count, add or rank: filter it out. The rows the sheet's
    model read as totals (by label and arithmetic: core/sheetmodel.py) are left out by the text that marks them in
    the row, whatever its column's type ("Total" in a column of months)."""
    texts = [c for c in draft.sheet.columns if c.dtype == "text" and c.position not in draft.filter_cols][:2]
    for col in texts:
        for value in col.values:
            if _SUMMARY_RE.fullmatch(value.strip()):
                draft.filters.append(Filter(column=col.name, op="ne", value=value))
    model = draft.sheet.model
    if model is None or not draft.sheet.grid:
        return
    # a total the model read by its label, or by arithmetic on a row that says so ("Total" in a column of months);
    # a row that merely adds up to the rows above it (small counts often do) is no total of a list of records
    labelled = {r.row_number: r.label for r in model.rows if r.role in ("total", "subtotal")}
    set_aside = {(f.column, f.value) for f in draft.filters if f.op == "ne"}
    for row in draft.sheet.grid:
        if row.row_number not in labelled or any((c.name, v) in set_aside for c, v in _cells(draft, row)):
            continue
        # its cell of words that marks it, in a column filled on every row (a filter never keeps an empty cell)
        marked = next(
            ((c, v) for c, v in _cells(draft, row) if parse_number(v) is None and c.n_filled == draft.sheet.n_rows
             and (v == labelled[row.row_number] or _SUMMARY_RE.fullmatch(v.strip()))),
            None,
        )  # fmt: skip
        if marked is not None and sum(1 for g in draft.sheet.grid if marked[1] in g.values) == 1:
            draft.filters.append(Filter(column=marked[0].name, op="ne", value=marked[1]))


def _cells(draft: Draft, row: GridRow) -> list[tuple[ColumnInfo, str]]:
    """A grid row's filled cells, by column, in columns no filter reads."""
    return [
        (c, v) for c in draft.sheet.columns
        if c.position < len(row.values) and (v := row.values[c.position]) and c.position not in draft.filter_cols
    ]  # fmt: skip


def names_one_row(link: Link, draft: Draft) -> bool:
    """Whether the filters name one row by a column whose values never repeat."""
    return any(m.exact and not m.column.repeats and len(m.values) == 1 for m in link.values)


def total_column(cols: Sequence[ColumnInfo], exclude: set[int]) -> ColumnInfo | None:
    """A numeric column named "Total", if the sheet has one."""
    return next((c for c in cols if c.numeric and c.position not in exclude and "total" in c.words), None)


def fallback_measure(cols: Sequence[ColumnInfo], exclude: set[int]) -> ColumnInfo | None:
    """Nothing named to rank by: a "Total" column, else the last plain quantity."""
    quantities = [c for c in cols if c.numeric and c.position not in exclude and not rank_like(c) and not yearish(c)]
    totals = [c for c in quantities if "total" in c.words]
    if totals:
        return totals[0]
    return quantities[-1] if quantities else None


def rank_groups(question: Question, draft: Draft, group: ColumnInfo, func: str, measure: ColumnInfo, word: str) -> None:
    """Rank the groups of `group` by `func` of `measure` ("which sector raised the most": the top total)."""
    draft.group_by, draft.aggregate = group, (func, measure)
    draft.sort_by, draft.descending = "value", sort_descending(word, measure)
    draft.limit = question.limit or 1


def order_rows(draft: Draft, which: str, target: ColumnInfo | None, limit: int, positional: bool = False) -> None:
    """First or last rows: the sheet order itself, a column that follows it, or the last row's own value."""
    cols = draft.sheet.columns
    draft.select = [target] if target is not None else []
    draft.limit = limit
    dated = [c for c in cols if c.trend and c.position not in draft.filter_cols and yearish(c)]
    if dated and dated[0].trend == "down" and not positional:
        # Newest first: the first in time is at the bottom.
        if draft.filters:
            draft.sort_by, draft.descending = dated[0].name, which == "last"
            return
        which = "last" if which == "first" else "first"
    elif not dated and not positional and _newest_first(cols, draft.filter_cols):
        which = "last" if which == "first" else "first"  # seasons written "2012–13", newest first
    if which == "first":
        return  # rows come in sheet order
    if not draft.filters and limit == 1:
        # A column whose values never repeat lists them in sheet order: its last value names the last row.
        full = [c for c in cols if c.values and not c.repeats and c.n_filled == draft.sheet.n_rows]
        if full:
            col = target if target in full else full[0]
            last = next((v for v in reversed(col.values) if not _SUMMARY_RE.fullmatch(v.strip())), col.values[-1])
            draft.filters = [Filter(column=col.name, op="eq", value=last)]
            draft.filter_cols = {col.position}
            return
    ordered = [c for c in cols if c.trend and c.strict] or [c for c in cols if c.trend]
    if ordered:
        draft.sort_by, draft.descending = ordered[0].name, ordered[0].trend == "up"
    else:
        draft.from_end = True  # nothing orders the rows but the sheet: its last matching rows


_LEADING_YEAR = re.compile(rf"({year_digits(HISTORIC_SINCE)})\b")


def _newest_first(cols: Sequence[ColumnInfo], exclude: set[int]) -> bool:
    """Whether a text column of periods ("2012–13", "1998 season") lists them newest first (no numeric trend)."""
    for col in cols:
        if col.position in exclude or col.dtype != "text" or not col.values or col.n_filled < 3:
            continue
        years = [int(m.group(1)) for v in col.values if (m := _LEADING_YEAR.match(v.strip()))]
        if len(years) >= 3 and len(years) * 5 >= len(col.values) * 4:
            return all(a >= b for a, b in pairwise(years)) and years[0] > years[-1]
    return False


def lookup_rows(
    draft: Draft, asked: ColumnInfo | None, link: Link | None = None, question: Question | None = None
) -> Draft:
    """The asked column of the rows the filters pick (else a column the question names, else the row's name)."""
    # A column picked by words inside its values ("in 2013") still has its whole value to tell.
    usable = draft.filter_cols - draft.open_cols
    target = asked if asked is not None and asked.position not in usable else None
    if target is None and link is not None:
        named = [m for m in link.columns if m.column.position not in draft.filter_cols]
        if named:
            target = max(named, key=lambda m: (m.score, -m.start)).column
    target = target or key_column(draft.sheet, draft.filter_cols)
    draft.select = [target] if target is not None else []
    draft.limit = LOOKUP_LIMIT
    if question is not None:
        _nearest(question, draft)
    return draft


def _nearest(question: Question, draft: Draft) -> None:
    """ "The next encyclical after 1 December 1918": of the rows past a bound, the one closest to it."""
    words = set(question.words)
    # "Who was the champion after 2015?" asks for one row: the first one past the bound.
    singular = question.wh in ("who", "which", "what") and bool(words & {"was", "is"}) and not words & {"were", "are"}
    for f in draft.filters:
        col = next(c for c in draft.sheet.columns if c.name == f.column)
        if not (yearish(col) or datish(col)) or f.op not in ("gt", "ge", "lt", "le"):
            continue
        upward = f.op in ("gt", "ge")
        if (
            (upward and words & {"next", "first", "following"})
            or (not upward and words & {"last", "previous", "latest"})
            or singular
        ):
            draft.sort_by, draft.descending, draft.limit = col.name, not upward, 1
            return
