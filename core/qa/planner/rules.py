"""The offline planner: rules that link a question to a sheet, read what is asked and draft one exact table
operation (or a search of the passages)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from core.qa.planner.describe import describe_op
from core.qa.planner.lexicon import (
    AGGREGATE_WORDS,
    COMPARATORS,
    DEMONYMS,
    DOCUMENT_WORDS,
    HOW_LONG_WORDS,
    NUMBER_RE,
    ORDINALS,
    PLACE_AFTER,
    PLACE_BEFORE,
    POST_COMPARATORS,
    RANK_WORDS,
    SCALES,
    STOP,
    SUPERLATIVES,
    SYNONYMS,
    TOTAL_WORDS,
    WEAK_COLUMN_WORDS,
    WHEN_WORDS,
    WHERE_WORDS,
    WHO_WORDS,
    YEAR_RE,
    as_number,
    fold,
    num_text,
    stem_of,
    words_of,
)
from core.qa.planner.schema import LOOKUP_LIMIT, MAX_HISTORY, WEAK_SIGNAL, ColumnInfo, RoomSchema, SheetInfo
from core.qa.planner.statements import statement_cells
from core.retrieval.plan import Plan, SearchStep, Step, TableStep
from core.retrieval.tables import Aggregate, Filter, TableOp

# ---------------------------------------------------------------------------------------------
# Planners
# ---------------------------------------------------------------------------------------------


class Planner(Protocol):
    """Turns a question (and the conversation so far) into a Plan over a room's schema."""

    name: str

    def plan(self, question: str, schema: RoomSchema, history: Sequence[tuple[str, str]] = ()) -> Plan:
        """The plan of `question`; `history` holds earlier (question, answer) turns, oldest first."""
        ...


# -- linking the question to a sheet -----------------------------------------------------------


@dataclass
class _ColumnMention:
    column: ColumnInfo
    start: int
    end: int
    score: float  # above 1 for the whole name, less for a word of it or a synonym


@dataclass
class _ValueMention:
    column: ColumnInfo
    start: int
    end: int
    values: tuple[str, ...]
    exact: bool  # the words are a whole value (else they are inside the values listed)

    @property
    def resolved(self) -> bool:
        """Whether the words name one value ("royal" -> "Nelson Royal"), so one thing is meant."""
        return self.exact or len(self.values) == 1


@dataclass
class _Comparison:
    start: int  # span of the comparison words and the number(s)
    end: int
    op: str
    values: tuple[float, ...]


@dataclass
class _DateSpan:
    start: int  # the words of the comparison and the date
    end: int
    op: str  # "between" for a day or a month, else lt/gt/ge/le
    values: tuple[str, ...]  # ISO dates


@dataclass
class _Link:
    """How one sheet is tied to the question."""

    sheet: SheetInfo
    columns: list[_ColumnMention]
    values: list[_ValueMention]
    score: float


# Question phrases, longest first: what kind of answer is wanted.
_WH_PHRASES = sorted(
    [("how", "many"), ("how", "much"), ("how", "long"), ("how", "often"), ("number", "of"), ("what",), ("which",),
     ("who",), ("whom",), ("whose",), ("whos",), ("when",), ("where",), ("name", "the"), ("name", "a"),
     ("name", "one"), ("name", "all"), ("list", "the"), ("list", "all"), ("list",), ("tell", "me")],
    key=lambda p: -len(p),
)  # fmt: skip
_ENTITY_WH = frozenset({"which", "who", "whom", "whose", "whos", "name", "list"})
# Skipped between the question word and the thing asked about ("what was the total number of ...").
_HEAD_SKIP = frozenset(
    "is was are were the a an s total number of amount many much different distinct unique one all me".split()
)


@dataclass
class _Question:
    """The question's words and what they ask, independent of any sheet."""

    text: str
    words: list[str]  # folded tokens
    stems: list[str]
    comparisons: list[_Comparison] = field(default_factory=list)
    dates: list[_DateSpan] = field(default_factory=list)
    used: set[int] = field(default_factory=set)  # token positions already explained (comparisons, "top 5")
    limit: int | None = None
    limit_pos: int | None = None
    wh: str = ""  # "how many", "what", "who"...
    head: tuple[int, int] = (0, 0)  # the words naming what is asked about ("which TEAM", "how many GOLD MEDALS")

    def has(self, *phrases: str) -> bool:
        """Whether any phrase occurs as whole words."""
        padded = f" {' '.join(self.words)} "
        return any(f" {p} " in padded for p in phrases)

    def in_head(self, pos: int) -> bool:
        """Whether a word is one of those naming what is asked about."""
        return self.head[0] <= pos < self.head[1]


def _read_question(text: str) -> _Question:
    words = words_of(text)
    question = _Question(text=text, words=words, stems=[stem_of(w) for w in words])
    _read_dates(question)
    _read_comparisons(question)
    _read_limit(question)
    _read_wh(question)
    return question


def _read_wh(question: _Question) -> None:
    """The question word ("how many", "which"...) and the words after it that name what is asked about."""
    words = question.words
    start = 0  # no question word ("top 3 sectors by ..."): what is asked about comes first
    found = next(((i, p) for i in range(len(words)) for p in _WH_PHRASES if tuple(words[i : i + len(p)]) == p), None)
    if found is not None:
        i, phrase = found
        question.wh = " ".join(phrase) if phrase[0] in ("how", "number") else phrase[0]
        start = i + len(phrase)
        # "what is the (total) number of X" asks what "how many X" asks.
        k = start
        while k < len(words) and words[k] in ("is", "was", "are", "were", "the", "total", "me"):
            k += 1
        if question.wh in ("what", "tell") and words[k : k + 2] == ["number", "of"]:
            question.wh, start = "number of", k + 2
    while start < len(words) and (
        words[start] in _HEAD_SKIP or words[start] in SUPERLATIVES or start in question.used
        or words[start] in ("first", "last", "final", "next", "only")
    ):  # fmt: skip
        start += 1
    end = start
    while end < len(words) and end - start < 2 and words[end] not in STOP:
        if end > start and (words[end].endswith(("ed", "ing")) or end in question.used):
            break
        end += 1
        if words[end - 1] in ("times", "time"):
            break
    question.head = (start, end)


def _number_at(words: list[str], i: int) -> tuple[float, int] | None:
    """The number starting at word i (with a scale word such as "million") and the words it took."""
    if i >= len(words):
        return None
    value = as_number(words[i])
    if value is None:
        return None
    if i + 1 < len(words) and words[i + 1] in SCALES:
        return value * SCALES[words[i + 1]], 2
    return value, 1


_MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
                "november", "december")  # fmt: skip
_DATE_OPS = {"before": "lt", "prior": "lt", "earlier": "lt", "until": "le", "after": "gt", "later": "gt", "since": "ge"}


def _read_dates(question: _Question) -> None:
    """ "before 1 August 2001", "on February 14th, 1976", "in March 1982": date conditions."""
    words = question.words
    for i, word in enumerate(words):
        if word not in _MONTH_NAMES or (word == "may" and not (i + 1 < len(words) and words[i + 1].isdigit())):
            continue
        month = _MONTH_NAMES.index(word) + 1
        day = year = None
        start, end = i, i + 1
        if i > 0 and words[i - 1].isdigit() and 1 <= int(words[i - 1]) <= 31:
            day, start = int(words[i - 1]), i - 1
        elif i + 1 < len(words) and words[i + 1].isdigit() and 1 <= int(words[i + 1]) <= 31:
            day, end = int(words[i + 1]), i + 2
        if end < len(words) and YEAR_RE.fullmatch(words[end]):
            year, end = int(words[end]), end + 1
        if year is None:
            continue  # "after August 3" names no year: nothing exact to compare with
        first = f"{year:04d}-{month:02d}-{day or 1:02d}"
        if day is None:  # a whole month
            last_day = 31 if month in (1, 3, 5, 7, 8, 10, 12) else 30 if month != 2 else 29 if year % 4 == 0 else 28
            last = f"{year:04d}-{month:02d}-{last_day:02d}"
        else:
            last = first
        before = words[start - 1] if start > 0 else ""
        if before == "to" and start > 1 and words[start - 2] == "prior":
            before = "prior"
        if before in _DATE_OPS:
            op = _DATE_OPS[before]
            bound = first if op in ("lt", "ge") else last
            question.dates.append(_DateSpan(start - 1, end, op, (bound,)))
            question.used.update(range(start - 1, end))
        else:
            question.dates.append(_DateSpan(start, end, "between", (first, last)))
            question.used.update(range(start, end))


def _read_comparisons(question: _Question) -> None:
    """ "more than 5 million", "at least 3", "between 2010 and 2012", "10 or more", "after 2005"."""
    words = question.words
    for k, word in enumerate(words):
        decade = re.fullmatch(r"(1[5-9]\d0|20\d0)s", word)
        if decade:
            start = int(decade.group(1))
            # "the 1900s" is a century, "the 1990s" a decade.
            end = start + (99 if start % 100 == 0 and start != 2000 else 9)
            question.comparisons.append(_Comparison(k, k + 1, "between", (float(start), float(end))))
            question.used.add(k)
    i = 0
    while i < len(words):
        if words[i] == "between" or (words[i] == "from" and _number_at(words, i + 1) is not None):
            low = _number_at(words, i + 1)
            if low is not None:
                j = i + 1 + low[1]
                if j < len(words) and words[j] in ("and", "to", "through"):
                    high = _number_at(words, j + 1)
                    if high is not None:
                        end = j + 1 + high[1]
                        question.comparisons.append(_Comparison(i, end, "between", (low[0], high[0])))
                        question.used.update(range(i, end))
                        i = end
                        continue
        matched = False
        for phrase, op in COMPARATORS:
            n = len(phrase)
            if tuple(words[i : i + n]) != phrase:
                continue
            # "the year 2010" / "a total of 5": a filler word may sit between the words and the number.
            j = i + n
            if j < len(words) and words[j] in ("the", "a", "year", "about", "roughly", "approximately"):
                j += 1
            found = _number_at(words, j)
            if found is None:
                continue
            end = j + found[1]
            question.comparisons.append(_Comparison(i, end, op, (found[0],)))
            question.used.update(range(i, end))
            i, matched = end, True
            break
        if matched:
            continue
        found = _number_at(words, i)
        if found is not None:
            after = i + found[1]
            for phrase, op in POST_COMPARATORS.items():
                if tuple(words[after : after + len(phrase)]) == phrase:
                    end = after + len(phrase)
                    question.comparisons.append(_Comparison(i, end, op, (found[0],)))
                    question.used.update(range(i, end))
                    i, matched = end, True
                    break
        if not matched:
            i += 1


_COMPARATIVE = frozenset({"more", "less", "fewer", "most", "least"})


def _read_limit(question: _Question) -> None:
    """ "top 5", "5 largest", "three highest", "first 3"."""
    words = question.words
    for i, word in enumerate(words):
        if i in question.used:
            continue
        if word in ("top", "bottom", "first", "last", "best", "worst") and i + 1 < len(words):
            n = as_number(words[i + 1])
            if n is not None and 1 <= n <= 100 and n.is_integer() and not YEAR_RE.fullmatch(words[i + 1]):
                question.limit, question.limit_pos = int(n), i + 1
                question.used.add(i + 1)
                return
        n = as_number(word)
        after = words[i + 1] if i + 1 < len(words) else ""
        if n is not None and 1 < n <= 100 and n.is_integer() and after in SUPERLATIVES and after not in _COMPARATIVE:
            question.limit, question.limit_pos = int(n), i  # "the 3 largest"
            question.used.add(i)
            return


def _forms(stem: str) -> set[str]:
    """A word and its verb stems: "ranked" -> rank, "placed" -> place, "scoring" -> score."""
    forms = {stem}
    if len(stem) > 4 and stem.endswith("ed"):
        forms |= {stem[:-2], stem[:-1]}
    if len(stem) > 5 and stem.endswith("ing"):
        forms |= {stem[:-3], stem[:-3] + "e"}
    return forms


def _column_mentions(question: _Question, sheet: SheetInfo) -> list[_ColumnMention]:
    """Every place the question names a column: its whole name, a telling word of it, or a synonym."""
    stems = question.stems
    found: list[_ColumnMention] = []
    for col in sheet.columns:
        words = list(col.words)
        content = [w for w in words if w not in STOP and w not in WEAK_COLUMN_WORDS] or words
        if not content:
            continue
        taken: set[int] = set()
        # The whole name ("amount raised usd"), then its content words in order ("amount raised").
        for seq, score in ((words, 1.0 + 0.1 * len(words)), (content, 0.9 + 0.1 * len(content))):
            if len(seq) == 1 and (seq[0] in STOP or seq[0] in WEAK_COLUMN_WORDS):
                continue  # "number", "total": question glue before they are a column's name
            for i in range(len(stems) - len(seq) + 1):
                if stems[i : i + len(seq)] == seq and not taken & set(range(i, i + len(seq))):
                    found.append(_ColumnMention(col, i, i + len(seq), score))
                    taken.update(range(i, i + len(seq)))
        for i, stem in enumerate(stems):
            if i in taken or i in question.used or stem in STOP:
                continue
            forms = _forms(stem)
            if forms & set(content):
                score = 0.5 + 0.3 / len(content)
            elif any(w in words for f in forms for w in SYNONYMS.get(f, ())):
                score = 0.45
            else:
                continue
            found.append(_ColumnMention(col, i, i + 1, score))
    return found


def _ordinal_forms(words: list[str], i: int) -> list[str]:
    """An ordinal word read as the value it stands for ("placed first" -> "1", which "1st" also reads as)."""
    word = words[i]
    if word not in ORDINALS:
        return []
    before = words[i - 1] if i > 0 else ""
    after = words[i + 1] if i + 1 < len(words) else ""
    if before in PLACE_BEFORE or after in PLACE_AFTER:
        return [str(ORDINALS.index(word) + 1)]
    return []


def _value_mentions(question: _Question, sheet: SheetInfo, columns: list[_ColumnMention]) -> list[_ValueMention]:
    """Cell values the question quotes, longest first and never overlapping."""
    stems = question.stems
    words = question.words
    n = len(stems)
    named = {(m.start, m.end) for m in columns if m.score >= 1.0}
    column_words = {i for m in columns for i in range(m.start, m.end)}
    candidates: list[tuple[float, _ValueMention]] = []
    # Without a year column, a year may only be found inside text ("2013 EAFF East Asian Cup").
    year_inside = not any(c.dtype == "date" or (_yearish(c) and c.numeric) for c in sheet.columns)
    for col in sheet.columns:
        if not col.values:
            continue
        index, ngrams = col.index, col.ngrams
        longest = max((len(k) for k in index), default=0)
        mentioned = any(m.column is col for m in columns)
        for i in range(n):
            if i in question.used:
                continue
            for j in range(min(n, i + max(longest, 4)), i, -1):
                span = tuple(stems[i:j])
                if any(k in question.used for k in range(i, j)) or all(t in STOP for t in span):
                    continue
                numeric = all(NUMBER_RE.fullmatch(t) for t in span)
                if span in index:
                    if (i, j) in named or (j - i == 1 and span[0] in col.words):
                        continue  # the column's own name, not a value
                    if numeric and not _number_value_ok(question, col, i, columns):
                        continue
                    score = 2.0 + (j - i) + (0.5 if mentioned else 0.0)
                    candidates.append((score, _ValueMention(col, i, j, index[span], True)))
                    break
                if span in ngrams and (not numeric or (year_inside and j - i == 1 and YEAR_RE.fullmatch(span[0]))):
                    # Words inside values ("alabama" in "Birmingham, Alabama"), but not the words that
                    # name what is asked about ("how many aerial TRAMWAYS") nor a column's name.
                    if any(question.in_head(k) or k in column_words for k in range(i, j)):
                        continue
                    if span[0] in STOP or span[-1] in STOP or (len(span) == 1 and len(span[0]) < 3):
                        continue
                    if span[-1] in SUPERLATIVES or span[0] in SUPERLATIVES:
                        continue
                    values = ngrams[span]
                    if col.prose or len(values) > max(3, 0.9 * col.n_distinct):
                        continue  # long prose, or a word nearly every value shares: not a filter
                    score = 0.5 + (j - i) * 0.9 + (0.3 if mentioned else 0.0)
                    candidates.append((score, _ValueMention(col, i, j, values, False)))
                    break
        # Ordinals standing for values: "placed first" -> "1st".
        for i in range(n):
            for form in _ordinal_forms(words, i):
                if (form,) in index:
                    candidates.append((2.5, _ValueMention(col, i, i + 1, index[(form,)], True)))
                    break
            # A people's name for its country: "canadian players" -> "Canada" or "CAN" in the cells.
            for alt in DEMONYMS.get(words[i], ()):
                key = tuple(stem_of(t) for t in words_of(alt))
                if key in index:
                    candidates.append((2.4, _ValueMention(col, i, i + 1, index[key], True)))
                    break
                if key in ngrams and not col.prose and len(ngrams[key]) <= max(3, 0.9 * col.n_distinct):
                    candidates.append((1.4, _ValueMention(col, i, i + 1, ngrams[key], False)))
                    break
    candidates.sort(key=lambda c: (-c[0], c[1].start, c[1].column.position))
    taken: set[int] = set()
    chosen: list[_ValueMention] = []
    for _, mention in candidates:
        covered = set(range(mention.start, mention.end))
        if covered & taken:
            continue
        taken |= covered
        chosen.append(mention)
    return sorted(chosen, key=lambda m: m.start)


def _number_value_ok(question: _Question, col: ColumnInfo, i: int, columns: list[_ColumnMention]) -> bool:
    """Whether a bare number in the question is a value of `col` ("episode 8", "in 1944", "16 goals")."""
    word = question.words[i]
    if question.limit_pos == i:
        return False
    if any(m.column is col and (m.end == i or m.start == i + 1 or m.end == i - 1) for m in columns):
        return True
    if YEAR_RE.fullmatch(word):
        return _yearish(col) or not col.numeric
    return not col.numeric  # a text column holding numbers ("Game 16" -> "16")


def _yearish(col: ColumnInfo) -> bool:
    """A date column, a column named for years, or whole numbers that all read as years."""
    if col.dtype == "date" or any(w in ("year", "season", "date") for w in col.words):
        return True
    numbers = col.numbers
    return col.numeric and len(numbers) >= 2 and all(n.is_integer() and 1800 <= n <= 2100 for n in numbers)


def _numberish(col: ColumnInfo) -> bool:
    """Text cells that mostly start with a number ("113.6 m", "6'3\""): measures written with units."""
    return bool(col.values) and sum(1 for v in col.values if v[:1].isdigit()) * 2 > len(col.values)


def _datish(col: ColumnInfo) -> bool:
    """Text cells that are mostly dates ("1 August 2001"): compared as dates by core.retrieval.tables."""
    return col.dtype == "text" and col.dates_share >= 0.8


def _addable(col: ColumnInfo) -> bool:
    """Numbers to add or average: numeric cells, or text cells that are mostly plain numbers."""
    return col.numeric or (col.dtype == "text" and bool(col.values) and len(col.numbers) * 2 > len(col.values))


def _quantity(col: ColumnInfo) -> bool:
    """Numbers to rank: numeric cells, dates, text cells that are mostly numbers, or clock times ("1:17.41")."""
    if col.numeric or col.dtype == "date":
        return True
    if not col.values:
        return False
    return len(col.numbers) * 2 > len(col.values) or col.clock_times


def _link(question: _Question, sheet: SheetInfo) -> _Link:
    columns = _column_mentions(question, sheet)
    values = _value_mentions(question, sheet, columns)
    # A column is not "mentioned" by words that quote one of its values.
    value_words = {i for v in values for i in range(v.start, v.end)}
    columns = [m for m in columns if not set(range(m.start, m.end)) <= value_words]
    best: dict[int, float] = {}
    for m in columns:
        best[m.column.position] = max(best.get(m.column.position, 0.0), min(m.score, 1.0))
    score = sum(best.values()) + sum(1.5 if v.exact else 0.8 for v in values)
    if any(w in fold(sheet.title) for w in question.words if len(w) > 3 and w not in STOP):
        score += 0.5
    return _Link(sheet, columns, values, score)


# -- reading what is asked ---------------------------------------------------------------------


def _by_words(cols: Sequence[ColumnInfo], wanted: Sequence[str], exclude: set[int]) -> ColumnInfo | None:
    """The first column (in the order of `wanted`) whose name holds one of the words."""
    for word in wanted:
        for col in cols:
            if col.position not in exclude and word in col.words:
                return col
    return None


def _key_column(sheet: SheetInfo, exclude: set[int]) -> ColumnInfo | None:
    """What a row is called: the first text column not already used (unique ones first)."""
    texts = [c for c in sheet.columns if c.position not in exclude and c.dtype == "text" and not _quantity(c)]
    unique = [c for c in texts if not c.repeats]
    candidates = unique or texts or [c for c in sheet.columns if c.position not in exclude]
    return candidates[0] if candidates else None


def _person_column(sheet: SheetInfo, exclude: set[int]) -> ColumnInfo | None:
    """Who is asked about: a text column named like people or actors, else the row's name."""
    for col in sheet.columns:
        if col.position not in exclude and col.dtype == "text" and set(col.words) & WHO_WORDS and not _quantity(col):
            return col
    return _key_column(sheet, exclude)


def _rank_like(col: ColumnInfo) -> bool:
    return bool(set(col.words) & RANK_WORDS) or col.name.strip() in ("#", "No.", "No")


def _asked_column(question: _Question, link: _Link, exclude: set[int]) -> ColumnInfo | None:
    """The column whose value answers the question ("which team" -> Team, "who" -> the name column)."""
    cols = link.sheet.columns
    wh = question.wh
    head = sorted(
        (m for m in link.columns if question.in_head(m.start) and m.column.position not in exclude),
        key=lambda m: (m.start, -m.score),
    )
    if wh == "how long":
        found = _by_words(cols, HOW_LONG_WORDS, exclude)
        if found is not None:
            return found
    head_words = question.words[question.head[0] : question.head[1]]
    if wh == "when" or (head_words[:1] and head_words[0] in ("year", "date", "season", "day", "month")):
        wanted = ("year", "season") if set(head_words) & {"year", "season"} else WHEN_WORDS
        found = next((m.column for m in head if _yearish(m.column)), None) or _by_words(cols, wanted, exclude)
        found = found or next((c for c in cols if c.dtype == "date" and c.position not in exclude), None)
        found = found or next((c for c in cols if _yearish(c) and c.position not in exclude), None)
        if found is not None:
            return found
    if wh in ("who", "whom", "whose", "whos"):
        found = next((m.column for m in head if set(m.column.words) & WHO_WORDS and not _quantity(m.column)), None)
        return found or _person_column(link.sheet, exclude)
    if wh == "where":
        found = next((c for c in cols if c.position not in exclude and set(c.words) & WHERE_WORDS), None)
        if found is not None:
            return found
    if head:
        return head[0].column
    return None


@dataclass
class _Draft:
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

    def op(self) -> TableOp:
        agg = None
        if self.aggregate is not None:
            func, col = self.aggregate
            agg = Aggregate(func=func, column=None if col is None else col.name)  # type: ignore[arg-type]
        return TableOp(
            sheet_id=self.sheet.sheet_id, filters=self.filters,
            group_by=self.group_by.name if self.group_by else None, aggregate=agg, sort_by=self.sort_by,
            descending=self.descending, limit=self.limit, select=[c.name for c in self.select],
            distinct=self.distinct.name if self.distinct else None,
        )  # fmt: skip


def _filters(question: _Question, link: _Link, draft: _Draft) -> None:
    """Value mentions, comparisons and years become filters."""
    cols = link.sheet.columns
    by_column: dict[int, list[_ValueMention]] = {}
    for mention in link.values:
        if _excluded(question, mention):
            # "Other than Kyle Anderson, who ...": every row but that value's.
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
    # Bare years ("in 2021") on a date or year column.
    value_words = {i for v in link.values for i in range(v.start, v.end)}
    year_col = next((c for c in cols if c.dtype == "date"), None) or next(
        (c for c in cols if _yearish(c) and c.numeric), None
    )
    for i, word in enumerate(question.words):
        if i in question.used or i in value_words or not YEAR_RE.fullmatch(word) or year_col is None:
            continue
        if year_col.position in draft.filter_cols:
            continue
        draft.filters.append(Filter(column=year_col.name, op="year", value=word))
        draft.filter_cols.add(year_col.position)
    dated = next((c for c in cols if c.dtype == "date"), None) or next((c for c in cols if _datish(c)), None)
    for span in question.dates:
        if dated is not None:
            when: str | list[str | float] = list(span.values) if span.op == "between" else span.values[0]
            draft.filters.append(Filter(column=dated.name, op=span.op, value=when))  # type: ignore[arg-type]
            draft.filter_cols.add(dated.position)
            if span.op != "between" or span.values[0] != span.values[-1]:
                draft.open_cols.add(dated.position)
    for comparison in question.comparisons:
        compared = _comparison_column(link, comparison, draft)
        if compared is None:
            continue
        texts = [num_text(v) for v in comparison.values]
        if compared.dtype == "date" and not all(YEAR_RE.fullmatch(t) for t in texts):
            continue
        bound: str | list[str | float] = list(texts) if comparison.op == "between" else texts[0]
        draft.filters.append(Filter(column=compared.name, op=comparison.op, value=bound))  # type: ignore[arg-type]
        draft.filter_cols.add(compared.position)
        draft.open_cols.add(compared.position)


_EXCLUDING = (("other", "than"), ("besides",), ("aside", "from"), ("apart", "from"), ("except",), ("excluding",),
              ("except", "for"), ("not", "counting"), ("beside",), ("not",), ("didn", "t"), ("wasn", "t"),
              ("isn", "t"), ("doesn", "t"), ("weren", "t"), ("aren", "t"), ("never",))  # fmt: skip


def _excluded(question: _Question, mention: _ValueMention) -> bool:
    """Whether the question sets a value aside ("other than X", "besides X") rather than asking about it."""
    words = question.words
    for phrase in _EXCLUDING:
        n = len(phrase)
        if tuple(words[max(0, mention.start - n) : mention.start]) == phrase:
            return True
    return False


def _comparison_column(link: _Link, comparison: _Comparison, draft: _Draft) -> ColumnInfo | None:
    """The column a comparison is about: named next to it, a year column for years, else the one that fits."""
    cols = link.sheet.columns
    number = comparison.values[0]
    is_year = all(YEAR_RE.fullmatch(num_text(v)) for v in comparison.values)
    # Named right after the number ("10 medals") or just before the comparison ("magnitude above 0").
    near = [
        m for m in link.columns
        if _quantity(m.column) and (0 <= m.start - comparison.end <= 2 or 0 <= comparison.start - m.end <= 3)
    ]  # fmt: skip
    if near:
        near.sort(key=lambda m: (min(abs(m.start - comparison.end), abs(comparison.start - m.end)), -m.score))
        return near[0].column
    if is_year:
        found = next((c for c in cols if c.dtype == "date"), None) or next(
            (c for c in cols if _quantity(c) and _yearish(c)), None
        )
        if found is not None:
            return found
    named = [m.column for m in link.columns if _quantity(m.column) and m.column.position not in draft.filter_cols]
    if named:
        return named[0]
    # The quantity whose values reach the number.
    fits = [c for c in cols if _quantity(c) and c.dtype != "date" and not _yearish(c) and not _rank_like(c)
            and c.numbers and min(c.numbers) <= number <= max(c.numbers)]  # fmt: skip
    if fits:
        totals = [c for c in fits if "total" in c.words]
        return (totals or fits)[0]
    # Too many values to know their range: the one plain quantity of the sheet, if there is one.
    plain = [c for c in cols if c.numeric and not c.values and not _yearish(c) and not _rank_like(c)]
    return plain[0] if len(plain) == 1 else None


def _measure(
    question: _Question, link: _Link, draft: _Draft, after: int = -1, skip: ColumnInfo | None = None
) -> ColumnInfo | None:
    """The quantity the question aggregates or ranks by: a numeric column it names (after `after`)."""
    cols = link.sheet.columns
    mentions = [
        m for m in link.columns
        if _quantity(m.column) and m.column.position not in draft.filter_cols and m.column is not skip
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
    if mentions:
        return max(mentions, key=lambda m: (m.score, -m.start)).column
    return money


def _money_column(question: _Question, cols: Sequence[ColumnInfo]) -> ColumnInfo | None:
    """Money words ("how much", "raised", "funding") point at the currency column."""
    if not question.has("how much", "raised", "raise", "money", "funding", "invested", "spent", "cost"):
        return None
    money = [c for c in cols if c.dtype == "currency"] or [
        c for c in cols if c.numeric and set(c.words) & {"amount", "raised", "total", "funding", "usd"}
    ]
    return money[0] if money else None


def _superlative(question: _Question) -> tuple[int, str] | None:
    """The ranking word and where it is ("most", "highest", "top"...)."""
    words = question.words
    for i, word in enumerate(words):
        if word not in SUPERLATIVES or i in question.used:
            continue
        if word in ("more", "less", "fewer"):
            if question.has("than any other", "than any others", "than all the other", "than anyone else", "than any"):
                return i, "most" if word == "more" else "least"  # "more gold medals than any other"
            continue  # comparatives rank only among named things (see _among)
        if word == "top" and question.has("top of the list", "top of the table", "top of the chart"):
            continue  # the first row (see _first_last)
        if word in ("most", "least") and i + 1 < len(words) and words[i + 1] in SUPERLATIVES:
            return i + 1, words[i + 1]  # "most recent"
        return i, word
    return None


def _implied(word: str, cols: Sequence[ColumnInfo], exclude: set[int]) -> ColumnInfo | None:
    """The column a superlative adjective implies ("tallest" -> Height)."""
    for w in SUPERLATIVES.get(word, (True, ()))[1]:
        for col in cols:
            if col.position not in exclude and w in col.words and _quantity(col):
                return col
    return None


def _sort_dir(word: str, col: ColumnInfo) -> bool:
    """Descending or not: "highest rank" means rank 1; "oldest" means the earliest date but the highest age."""
    descending = SUPERLATIVES.get(word, (True, ()))[0]
    if _rank_like(col) and word in ("highest", "top", "best", "worst", "lowest"):
        return not descending
    if word in ("oldest", "youngest") and "age" in col.words:
        return not descending
    if word in ("fastest", "slowest") and set(col.words) & {"speed", "mph", "kmh"}:
        return not descending
    return descending


_COMPARATIVES_DESC = frozenset(
    "more most higher highest larger largest greater greatest bigger biggest better best longer longest taller tallest heavier faster".split()
)
_COMPARATIVES_ASC = frozenset(
    "less least lower lowest smaller smallest fewer fewest worse worst shorter shortest lighter slower".split()
)
_EARLIER = frozenset("earlier earliest first before sooner older oldest previous".split())
_LATER = frozenset("later latest last after newer newest recent".split())


_SUMMARY_RE = re.compile(r"(?:(?:grand|team|overall)\s+)?totals?\b.{0,20}|sum|overall|all", re.IGNORECASE)


def _plan_table(question: _Question, link: _Link) -> _Draft:
    """The TableOp for a question over the chosen sheet, leaving out summary rows when computing."""
    draft = _plan_rows(question, link)
    _per_item(question, draft)
    if draft.aggregate is not None or draft.group_by is not None or draft.sort_by is not None or draft.distinct:
        _skip_summary_rows(draft)
    return draft


_COMPARING = frozenset("vs versus compared compare comparison against respectively each".split())


def _per_item(question: _Question, draft: _Draft) -> None:
    """ "Fintech vs Healthtech", "Japan and France each": one figure per item, side by side, not one sum of both.

    An aggregate over rows matching any of several values of one column is grouped by that column when the
    question compares them (vs, compared with, each, respectively), unless it asks for them together
    ("combined", "in total").
    """
    if draft.aggregate is None or draft.group_by is not None or draft.sort_by is not None:
        return
    if any(w in TOTAL_WORDS for w in question.words) or question.has("in all"):
        return
    # "Votes for Del Norte and El Dorado", "games in Paris or Rome" add up; only a comparison is split.
    if not any(w in _COMPARING for w in question.words):
        return
    several = [f for f in draft.filters if f.op == "in" and isinstance(f.value, list) and len(f.value) > 1]
    if len(several) != 1:
        return
    group = next((c for c in draft.sheet.columns if c.name == several[0].column), None)
    if group is not None:
        draft.group_by = group


def _skip_summary_rows(draft: _Draft) -> None:
    """A "Total" row under the data is not one more row to count, add or rank: filter it out."""
    texts = [c for c in draft.sheet.columns if c.dtype == "text" and c.position not in draft.filter_cols][:2]
    for col in texts:
        for value in col.values:
            if _SUMMARY_RE.fullmatch(value.strip()):
                draft.filters.append(Filter(column=col.name, op="ne", value=value))


def _plan_rows(question: _Question, link: _Link) -> _Draft:
    """The TableOp for a question over the chosen sheet."""
    sheet = link.sheet
    draft = _Draft(sheet)
    _filters(question, link, draft)
    words = question.words
    exclude = set(draft.filter_cols)
    asked = _asked_column(question, link, exclude - draft.open_cols)
    entity = question.wh in _ENTITY_WH
    superlative = _superlative(question)
    total = any(w in TOTAL_WORDS for w in words) or question.has("in all")

    # How many different X
    if question.has("how many different", "how many distinct", "how many unique", "number of different",
                    "number of distinct", "number of unique"):  # fmt: skip
        target = asked or _key_column(sheet, exclude)
        draft.aggregate = ("count_distinct", target)
        return draft

    among = _among(question, link)
    if among is not None:
        return _choose_among(question, link, draft, among)

    neighbour = _neighbour(question, link)
    if neighbour is not None and question.wh not in ("how many", "number of", "how much"):
        col, value = neighbour
        draft = _Draft(sheet, filters=[Filter(column=col.name, op="eq", value=value)], filter_cols={col.position})
        asked = _asked_column(question, link, set()) or col
        if question.wh in ("who", "whom", "whos") and asked.numeric:
            asked = col
        draft.select, draft.limit = [asked], LOOKUP_LIMIT
        return draft

    counting = question.wh in ("how many", "number of", "how often") or question.has("count", "the number of")
    span = _row_span(question, link) if counting else None
    if span is not None:
        col, values = span
        draft = _Draft(
            sheet, filters=[Filter(column=col.name, op="in", value=list(values))], filter_cols={col.position}
        )
        draft.aggregate = ("count", None)
        return draft
    if counting and superlative is None and not question.has("how many more", "how many less", "how many fewer"):
        noun = next(
            (m.column for m in link.columns if question.in_head(m.start) and m.column.position not in exclude), None
        )
        if noun is not None and "times" not in words[question.head[0] - 1 : question.head[1]]:
            if _addable(noun) and not _yearish(noun) and not _rank_like(noun):
                draft.aggregate = ("sum", noun)
                return draft
            if _yearish(noun) and not question.has("times"):
                draft.aggregate = ("count_distinct", noun)
                return draft
        if noun is None and not question.has("times") and _one_row(link, draft):
            # "How many goals did Ismail Isa score?": counting one row's rows says 1; its quantity is meant.
            amount = _measure(question, link, draft) or _total_column(sheet.columns, exclude)
            if amount is not None and amount.numeric and not _yearish(amount) and not _rank_like(amount):
                draft.aggregate = ("sum", amount)
                return draft
        draft.aggregate = ("count", None)
        return draft

    func = None
    if question.has("average", "mean", "avg"):
        func = "avg"
    elif question.has("median"):
        func = "median"
    elif question.wh == "how much" or (total and superlative is None):
        func = "sum"
    if func is not None:
        measure = _measure(question, link, draft)
        if measure is not None and _addable(measure) and not _yearish(measure):
            if superlative is not None and asked is not None and asked.position != measure.position:
                _rank_groups(question, draft, asked, func, measure, superlative[1])
                return draft
            draft.aggregate = (func, measure)
            return draft
        if func == "sum" and question.has("total number", "total count", "in total", "total of"):
            draft.aggregate = ("count", None)
            return draft

    if superlative is not None:
        return _plan_superlative(question, link, draft, asked, entity, superlative, total)

    first_last = _first_last(question, link)
    if first_last is not None:
        target = asked or (_person_column(sheet, exclude) if question.wh == "who" else _key_column(sheet, exclude))
        _row_order(draft, first_last, target, question.limit or 1, bool(set(words) & _POSITIONAL))
        return draft

    listing = question.wh in ("list", "name") or question.has("what are", "which are", "what were", "which were")
    if listing and asked is not None and (not draft.filters or (asked.repeats and asked.position not in exclude)):
        draft.distinct = asked
        return draft
    return _lookup(draft, asked, link, question)


def _plan_superlative(
    question: _Question,
    link: _Link,
    draft: _Draft,
    asked: ColumnInfo | None,
    entity: bool,
    superlative: tuple[int, str],
    total: bool,
) -> _Draft:
    """ "Which team scored the most goals?", "what is the highest score?", "top 3 sectors by total"."""
    sheet, cols = link.sheet, link.sheet.columns
    exclude = set(draft.filter_cols)
    pos, word = superlative
    measure = _measure(question, link, draft, after=pos, skip=asked if entity else None)
    if measure is None or (asked is not None and measure.position == asked.position and not _quantity(measure)):
        measure = _implied(word, cols, exclude) or measure
    if measure is not None and not _quantity(measure):
        measure = None
    # "What is the highest score?" asks for the value; "which team ..." / "what team ..." for a row.
    head_words = [w for w in question.words[question.head[0] : question.head[1]] if w not in SUPERLATIVES]
    # "what is the highest score?" asks the value; "what is the top grossing film?" names a row.
    ends = [m.end for m in link.columns if m.column is measure and question.in_head(m.start)]
    follows = question.words[ends[0]] if ends and ends[0] < len(question.words) else ""
    covered = {i for m in link.columns if _quantity(m.column) for i in range(m.start, m.end)}
    bare = bool(ends) and (follows == "" or follows in STOP or ends[0] in covered)
    asks_value = asked is not None and measure is not None and asked.position == measure.position and (bare or not ends)
    if not asks_value and question.wh in ("what", "") and asked is None and measure is not None:
        asks_value = not head_words or bare
    if asks_value and question.limit is None:
        assert measure is not None
        draft.aggregate = ("max" if _sort_dir(word, measure) else "min", measure)
        return draft
    target = asked if asked is not None and (measure is None or asked.position != measure.position) else None
    if target is None:
        skip = exclude | ({measure.position} if measure is not None else set())
        target = _person_column(sheet, skip) if question.wh == "who" else _key_column(sheet, skip)
    counted = measure is None and _counted_after(question, link, pos)
    if target is not None and (counted or (measure is None and target.repeats)):
        draft.group_by, draft.aggregate = target, ("count", None)
        draft.sort_by, draft.descending = "value", SUPERLATIVES[word][0]
        draft.limit = question.limit or 1
        return draft
    if measure is None and word in ("recent", "latest", "newest", "earliest", "oldest"):
        _row_order(draft, "last" if word in ("recent", "latest", "newest") else "first", target, question.limit or 1)
        return draft
    measure = measure or _fallback_measure(cols, exclude)
    if measure is None:
        return _lookup(draft, target)
    if (
        target is not None
        and target.repeats
        and measure.numeric
        and (total or _group_superlative(question, pos, measure))
    ):
        # "Which sector raised the most?" over one row per round: the sector whose rounds add up to most.
        _rank_groups(question, draft, target, "sum", measure, word)
        return draft
    draft.sort_by, draft.descending = measure.name, _sort_dir(word, measure)
    draft.limit = question.limit or 1
    draft.select = [target] if target is not None else []
    return draft


def _among(question: _Question, link: _Link) -> ColumnInfo | None:
    """ "Which had more wins, Germany or the UK?": a column with two or more named values and a comparison."""
    counts: dict[int, int] = {}
    for m in link.values:
        if m.resolved:
            counts[m.column.position] = counts.get(m.column.position, 0) + 1
    multi = [p for p, n in counts.items() if n >= 2]
    if not multi:
        return None
    if not set(question.words) & (_COMPARATIVES_DESC | _COMPARATIVES_ASC | _EARLIER | _LATER):
        return None
    if question.wh in ("how many", "how much", "number of") or not (
        question.wh in _ENTITY_WH or question.wh == "what" or question.has("or")
    ):
        return None
    return next(c for c in link.sheet.columns if c.position == multi[0])


def _choose_among(question: _Question, link: _Link, draft: _Draft, among: ColumnInfo) -> _Draft:
    """Rank only the named values of `among` and answer with the winner."""
    words = set(question.words)
    descending = not (words & _COMPARATIVES_ASC) or bool(words & _COMPARATIVES_DESC and not words & _COMPARATIVES_ASC)
    measure = _measure(question, link, draft, skip=among)
    if measure is not None and _yearish(measure) and words & (_EARLIER | _LATER):
        descending = bool(words & _LATER)  # "born first": the earliest date
    if measure is None:
        for word in question.words:
            measure = _implied(word, link.sheet.columns, draft.filter_cols)
            if measure is not None:
                descending = _sort_dir(word, measure)
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
    if words & (_EARLIER | _LATER):
        _row_order(draft, "first" if words & _EARLIER else "last", among, 1)
        return draft
    fallback = _fallback_measure(link.sheet.columns, draft.filter_cols)
    if fallback is not None:
        draft.sort_by, draft.descending, draft.limit = fallback.name, descending, 1
    draft.select = [among]
    return draft


def _counted_after(question: _Question, link: _Link, pos: int) -> bool:
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
        if any(_quantity(m.column) or _numberish(m.column) for m in after):
            return False
        if plural:
            return True
    return False


_AFTER = frozenset("after next following below behind succeeded succeeding later under then".split())
_BEFORE = frozenset("before previous previously preceding preceded above prior ahead earlier".split())
# Words that say the order meant is the list's, not time's.
_POSITIONAL = frozenset("listed list above below chart table ranked rank row placed finished position".split())


def _neighbour(question: _Question, link: _Link) -> tuple[ColumnInfo, str] | None:
    """ "Who finished after Claudia Poll?": the value of the next (or previous) row, read off the sheet order.

    A column whose values never repeat lists them in sheet order, so the row next to a named value is
    known from the schema and becomes an exact filter on that row.
    """
    words = question.words
    for t, word in enumerate(words):
        if (word not in _AFTER and word not in _BEFORE) or (word == "following" and t > 0 and words[t - 1] == "the"):
            continue
        step = 1 if word in _AFTER else -1
        for m in link.values:
            if not (m.resolved and t < m.start <= t + 3) or not m.column.values:
                continue
            # A repeating column lists each value once, at its first row: next to a value is then the
            # next distinct value — the row below only when the question asks for that column itself.
            if m.column.repeats and _asked_column(question, link, set()) is not m.column:
                continue
            if m.start - t > 3 or (m.start - t == 3 and words[t + 1] not in STOP):
                continue  # "listed before the song Yesh": at most a couple of words between
            index = next((i for i, v in enumerate(m.column.values) if v in m.values), None)
            if index is None:
                continue
            # Time order: in a newest-first table the row after a value is the one before it in time.
            temporal = not set(words) & _POSITIONAL
            if temporal and any(c.trend == "down" and _yearish(c) for c in link.sheet.columns):
                step = -step
            j = index + step
            if 0 <= j < len(m.column.values):
                return m.column, m.column.values[j]
    return None


def _row_span(question: _Question, link: _Link) -> tuple[ColumnInfo, tuple[str, ...]] | None:
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
        if temporal and any(c.trend == "down" and _yearish(c) for c in link.sheet.columns):
            earlier = not earlier
        values = m.column.values[:i] if earlier else m.column.values[i + 1 :]
        return (m.column, values) if values else None
    return None


def _one_row(link: _Link, draft: _Draft) -> bool:
    """Whether the filters name one row by a column whose values never repeat."""
    return any(m.exact and not m.column.repeats and len(m.values) == 1 for m in link.values)


def _total_column(cols: Sequence[ColumnInfo], exclude: set[int]) -> ColumnInfo | None:
    return next((c for c in cols if c.numeric and c.position not in exclude and "total" in c.words), None)


def _fallback_measure(cols: Sequence[ColumnInfo], exclude: set[int]) -> ColumnInfo | None:
    """Nothing named to rank by: a "Total" column, else the last plain quantity."""
    quantities = [c for c in cols if c.numeric and c.position not in exclude and not _rank_like(c) and not _yearish(c)]
    totals = [c for c in quantities if "total" in c.words]
    if totals:
        return totals[0]
    return quantities[-1] if quantities else None


# Superlatives of an amount (not of a row's own attribute such as "tallest" or "oldest").
_AMOUNT_SUPERLATIVES = frozenset("most highest largest biggest greatest top least lowest smallest fewest".split())
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


def _group_superlative(question: _Question, pos: int, measure: ColumnInfo) -> bool:
    """Whether "which X … the most <amount>" ranks X's groups by their total rather than single rows."""
    words = question.words
    if words[pos] not in _AMOUNT_SUPERLATIVES or measure.dtype not in ("number", "currency"):
        return False
    if _yearish(measure) or any(w in _NOT_ADDITIVE for w in measure.words):
        return False
    after = words[pos + 1 : pos + 3]
    return not any(w in _ONE_ROW for w in words) and not any(w in _ROW_NOUNS for w in after)


def _rank_groups(
    question: _Question, draft: _Draft, group: ColumnInfo, func: str, measure: ColumnInfo, word: str
) -> None:
    draft.group_by, draft.aggregate = group, (func, measure)
    draft.sort_by, draft.descending = "value", _sort_dir(word, measure)
    draft.limit = question.limit or 1


def _first_last(question: _Question, link: _Link) -> str | None:
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


def _row_order(draft: _Draft, which: str, target: ColumnInfo | None, limit: int, positional: bool = False) -> None:
    """First or last rows: the sheet order itself, a column that follows it, or the last row's own value."""
    cols = draft.sheet.columns
    draft.select = [target] if target is not None else []
    draft.limit = limit
    dated = [c for c in cols if c.trend and c.position not in draft.filter_cols and _yearish(c)]
    if dated and dated[0].trend == "down" and not positional:
        # Newest first: the first in time is at the bottom.
        if draft.filters:
            draft.sort_by, draft.descending = dated[0].name, which == "last"
            return
        which = "last" if which == "first" else "first"
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


def _lookup(
    draft: _Draft, asked: ColumnInfo | None, link: _Link | None = None, question: _Question | None = None
) -> _Draft:
    """The asked column of the rows the filters pick (else a column the question names, else the row's name)."""
    # A column picked by words inside its values ("in 2013") still has its whole value to tell.
    usable = draft.filter_cols - draft.open_cols
    target = asked if asked is not None and asked.position not in usable else None
    if target is None and link is not None:
        named = [m for m in link.columns if m.column.position not in draft.filter_cols]
        if named:
            target = max(named, key=lambda m: (m.score, -m.start)).column
    target = target or _key_column(draft.sheet, draft.filter_cols)
    draft.select = [target] if target is not None else []
    draft.limit = LOOKUP_LIMIT
    if question is not None:
        _nearest(question, draft)
    return draft


def _nearest(question: _Question, draft: _Draft) -> None:
    """ "The next encyclical after 1 December 1918": of the rows past a bound, the one closest to it."""
    words = set(question.words)
    # "Who was the winner after 2007?" asks for one row: the first one past the bound.
    singular = question.wh in ("who", "which", "what") and bool(words & {"was", "is"}) and not words & {"were", "are"}
    for f in draft.filters:
        col = next(c for c in draft.sheet.columns if c.name == f.column)
        if not (_yearish(col) or _datish(col)) or f.op not in ("gt", "ge", "lt", "le"):
            continue
        upward = f.op in ("gt", "ge")
        if (
            (upward and words & {"next", "first", "following"})
            or (not upward and words & {"last", "previous", "latest"})
            or singular
        ):
            draft.sort_by, draft.descending, draft.limit = col.name, not upward, 1
            return


# -- follow-ups ------------------------------------------------------------------------------------

_FOLLOW_UP_RE = re.compile(
    r"^\s*(?:and\b|but\b|what about\b|how about\b|same\b|the same\b|now\b|also\b|then\b|and what about\b|"
    r"what of\b|for\b|in\b|only\b|just\b|the year (?:before|after)\b|(?:the )?(?:previous|next|following) year\b)",
    re.IGNORECASE,
)
_YEAR_SHIFT_RE = re.compile(
    r"\b(?:the\s+)?(?:year\s+(before|after|earlier|later)|(previous|prior|next|following)\s+year|(a|one)\s+year\s+(earlier|later))\b",
    re.IGNORECASE,
)


def _is_follow_up(question: str, history: Sequence[tuple[str, str]]) -> bool:
    if not history:
        return False
    words = words_of(question)
    return bool(_FOLLOW_UP_RE.match(question) or _YEAR_SHIFT_RE.search(question)) and len(words) <= 10


class OfflinePlanner:
    """Deterministic rules over the question and the schema: no model, no network, same answer every time."""

    name = "offline"

    def plan(self, question: str, schema: RoomSchema, history: Sequence[tuple[str, str]] = ()) -> Plan:
        """The plan of `question` (a follow-up is first rewritten from the conversation)."""
        standalone = self.standalone(question, schema, history)
        steps, reasoning = self._steps(standalone, schema)
        if standalone != question.strip():
            reasoning = f'Read as "{standalone}". {reasoning}'
        return Plan(question=question, standalone_question=standalone, steps=steps, reasoning=reasoning,
                    planner=self.name)  # fmt: skip

    # -- the conversation ----------------------------------------------------------------------

    def standalone(self, question: str, schema: RoomSchema, history: Sequence[tuple[str, str]] = ()) -> str:
        """The question with a follow-up resolved against the previous questions (rules, not a model)."""
        question = question.strip()
        history = list(history)[-MAX_HISTORY:]  # a follow-up leans on the last few turns, not the whole log
        if not _is_follow_up(question, history):
            return question
        previous = history[-1][0].strip()
        # The previous question may itself have been a follow-up: resolve the chain first.
        previous = self.standalone(previous, schema, history[:-1])
        return _rewrite(question, previous, schema)

    # -- steps -----------------------------------------------------------------------------------

    def _steps(self, question: str, schema: RoomSchema) -> tuple[list[Step], str]:
        statement = statement_cells(question, schema)
        if statement is not None:
            cells, sheet = statement
            return [cells], f"{cells.reason} ({sheet.label})."
        read = _read_question(question)
        # A table read from a PDF is a statement grid, planned cell by cell above; as a list of records it would
        # answer passage questions from whichever of a filing's hundred tables shares a word with them.
        links = [_link(read, sheet) for sheet in schema.sheets if sheet.columns and sheet.page is None]
        best = max(links, key=lambda link: link.score, default=None)  # max keeps the first of equals
        # A room holding one sheet and nothing else: whatever is asked is asked of that sheet.
        only_sheet = len(links) == 1 and not schema.documents
        documents_asked = bool(set(read.words) & DOCUMENT_WORDS) or _names_document(read, schema)
        steps: list[Step] = []
        reasons: list[str] = []
        beyond = False
        if best is not None and (best.score > 0 or only_sheet):
            op = _plan_table(read, best).op()
            reason = describe_op(op, best.sheet)
            steps.append(TableStep(op=op, reason=reason))
            reasons.append(reason)
            beyond = _asks_beyond_columns(read, best)
        weak = best is None or best.score < WEAK_SIGNAL
        if weak or documents_asked or beyond:
            search = SearchStep(query=question, reason=_search_reason(weak, documents_asked, beyond))
            # The passages come first when they are the likelier source: the question points at the
            # documents, or asks for something no column holds and the room has documents to hold it.
            if documents_asked or (beyond and schema.documents) or not steps:
                steps.insert(0, search)
                reasons.insert(0, search.reason)
            else:
                steps.append(search)
                reasons.append(search.reason)
        return steps, " ".join(reasons)


def _search_reason(weak: bool, documents: bool, beyond: bool) -> str:
    """Why the passages are searched, in one sentence."""
    if documents:
        return "Search the passages: the question points at the documents."
    if beyond:
        return "Search the passages: no sheet column holds what is asked."
    if weak:
        return "Search the passages and rows: no sheet column or value clearly matches the question."
    return "Search the passages too."


def _names_document(question: _Question, schema: RoomSchema) -> bool:
    """Whether the question names a PDF by a distinctive word of its title."""
    for _, title in schema.documents:
        stem = re.sub(r"\.[a-z0-9]+$", "", title.lower())
        words = [w for w in words_of(stem) if len(w) > 3 and w not in STOP]
        if any(w in question.words for w in words):
            return True
    return False


def _asks_beyond_columns(question: _Question, link: _Link) -> bool:
    """ "Who is the CEO of Harvestquay?": the thing asked for ("CEO") names no column of the sheet."""
    start, end = question.head
    words = [w for w in question.words[start:end] if w not in AGGREGATE_WORDS]
    if not words or question.wh not in ("what", "which", "who", "whom", "how many", "how much", "number of"):
        return False
    if question.wh in ("who", "whom") and question.words[end : end + 1] != ["of"]:
        return False  # "who led the most rounds?" asks for a row's name
    covered = {i for m in link.columns for i in range(m.start, m.end)} | {
        i for v in link.values for i in range(v.start, v.end)
    }
    return not any(i in covered for i in range(start, end))


def _rewrite(question: str, previous: str, schema: RoomSchema) -> str:
    """The previous question with the follow-up's new values put in place of the old ones."""
    prev_q = _read_question(previous)
    new_q = _read_question(question)
    text = previous
    # "the year before" / "the year after": shift the previous question's year.
    shift = _YEAR_SHIFT_RE.search(question)
    if shift:
        direction = (shift.group(1) or shift.group(2) or shift.group(4) or "").lower()
        delta = -1 if direction in ("before", "earlier", "previous", "prior") else 1
        years = [w for w in prev_q.words if YEAR_RE.fullmatch(w)]
        if years:
            old = years[-1]
            return re.sub(rf"\b{old}\b", str(int(old) + delta), text, count=1)
    changed = False
    for sheet in (s for s in schema.sheets if s.page is None):
        new_link = _link(new_q, sheet)
        old_link = _link(prev_q, sheet)
        for mention in new_link.values:
            earlier = next((m for m in old_link.values if m.column.position == mention.column.position), None)
            new_words = _question_words(question, mention, new_q)
            if earlier is not None:
                old_text = _span_text(previous, prev_q, earlier)
                if old_text:
                    text = _replace_words(text, old_text, new_words)
                    changed = True
                    continue
            text = _append(text, f"for {new_words}")
            changed = True
        if changed:
            break
    # A new year replaces the old one ("and in 2020?").
    new_years = [w for w in new_q.words if YEAR_RE.fullmatch(w)]
    old_years = [w for w in prev_q.words if YEAR_RE.fullmatch(w)]
    if new_years:
        if old_years:
            text = re.sub(rf"\b{old_years[-1]}\b", new_years[-1], text, count=1)
        else:
            text = _append(text, f"in {new_years[-1]}")
        changed = True
    if not changed:
        # Nothing to substitute: keep the conversation's subject with the new words.
        return f"{previous.rstrip(' ?.')} — {question}"
    return text


def _question_words(question: str, mention: _ValueMention, read: _Question) -> str:
    """The words of the question a mention spans, as the user wrote them (the value itself if exact)."""
    if mention.exact and len(mention.values) == 1:
        return mention.values[0]
    return _span_text(question, read, mention) or " ".join(read.words[mention.start : mention.end])


def _span_text(text: str, read: _Question, mention: _ValueMention) -> str:
    """The original text of a mention's words (found again, case- and punctuation-insensitively)."""
    words = read.words[mention.start : mention.end]
    pattern = r"\W+".join(re.escape(w) for w in words)
    found = re.search(rf"(?<!\w){pattern}(?!\w)", fold(text))
    if found is None:
        return ""
    folded = fold(text)
    # fold keeps lengths except for dropped accents and "'s"; fall back to the folded words then.
    if len(folded) == len(text):
        return text[found.start() : found.end()]
    return found.group(0)


def _replace_words(text: str, old: str, new: str) -> str:
    return re.sub(rf"(?<!\w){re.escape(old)}(?!\w)", new.replace("\\", "\\\\"), text, count=1, flags=re.IGNORECASE)


def _append(text: str, words: str) -> str:
    stripped = text.rstrip()
    end = stripped[-1] if stripped and stripped[-1] in "?.!" else ""
    body = stripped[:-1] if end else stripped
    return f"{body} {words}{end}"
