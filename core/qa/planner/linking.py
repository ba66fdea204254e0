"""Reading a question and linking it to a sheet: the columns it names, the cell values it quotes, its
comparisons, dates, "top k" and question word (what kind of answer is wanted, and about what)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from core.lexicon.periods import HISTORIC_SINCE, MONTHS, numeric_dates, year_digits
from core.lexicon.questions import NEGATIONS, NO_CELLS, YES_CELLS
from core.qa.planner.lexicon import (
    COMPARATORS,
    DEMONYMS,
    HOW_LONG_WORDS,
    NUMBER_RE,
    ORDINALS,
    OUTCOME_WORDS,
    PLACE_AFTER,
    PLACE_BEFORE,
    POST_COMPARATORS,
    RANK_WORDS,
    SCALES,
    STOP,
    SUPERLATIVES,
    SYNONYMS,
    WEAK_COLUMN_WORDS,
    WHEN_WORDS,
    WHERE_WORDS,
    WHO_WORDS,
    YEAR_RE,
    as_number,
    fold,
    stem_of,
    words_of,
)
from core.qa.planner.schema import ColumnInfo, SheetInfo
from core.qa.planner.spelling import abbreviates, read_through_typos, spelled_like
from core.qa.planner.vocabulary import synonyms
from core.retrieval.cellmath import content_words
from core.retrieval.tables.aggregates import AGGREGATES


@dataclass
class ColumnMention:
    """Words of the question naming a column."""

    column: ColumnInfo
    start: int
    end: int
    score: float  # above 1 for the whole name, less for a word of it or a synonym


@dataclass
class ValueMention:
    """Words of the question quoting cell values of a column."""

    column: ColumnInfo
    start: int
    end: int
    values: tuple[str, ...]
    exact: bool  # the words are a whole value (else they are inside the values listed)
    outcome: bool = False  # a result word ("won") read as the result cells recording it ("W 21–7")
    flag: bool = False  # a yes/no column's word ("renewed"), negated already when the question says so

    @property
    def resolved(self) -> bool:
        """Whether the words name one value ("royal" -> "Nelson Royal"), so one thing is meant."""
        return self.exact or len(self.values) == 1


@dataclass
class Comparison:
    """A numeric condition ("more than 5 million", "between 2010 and 2012")."""

    start: int  # span of the comparison words and the number(s)
    end: int
    op: str
    values: tuple[float, ...]
    rank: bool = False  # "in the top 10": a condition on the rank (or position) column


@dataclass
class DateSpan:
    """A date condition ("before 1 August 2001", "in March 1982")."""

    start: int  # the words of the comparison and the date
    end: int
    op: str  # "between" for a day or a month, else lt/gt/ge/le
    values: tuple[str, ...]  # ISO dates


@dataclass
class Link:
    """How one sheet is tied to the question."""

    sheet: SheetInfo
    columns: list[ColumnMention]
    values: list[ValueMention]
    score: float


# Question phrases, longest first: what kind of answer is wanted.
_WH_PHRASES = sorted(
    [("how", "many"), ("how", "much"), ("how", "long"), ("how", "often"), ("number", "of"), ("what",), ("which",),
     ("who",), ("whom",), ("whose",), ("whos",), ("when",), ("where",), ("name", "the"), ("name", "a"),
     ("name", "one"), ("name", "all"), ("list", "the"), ("list", "all"), ("list",), ("tell", "me")],
    key=lambda p: -len(p),
)  # fmt: skip
ENTITY_WH = frozenset({"which", "who", "whom", "whose", "whos", "name", "list"})
# Skipped between the question word and the thing asked about ("what was the total number of ...").
_HEAD_SKIP = frozenset(
    "is was are were the a an s total number of amount many much different distinct unique one all me our my your their its".split()
)


@dataclass
class Question:
    """The question's words and what they ask, independent of any sheet."""

    text: str
    words: list[str]  # folded tokens
    stems: list[str]
    comparisons: list[Comparison] = field(default_factory=list)
    dates: list[DateSpan] = field(default_factory=list)
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


# The words of an operation a question may misspell: the aggregates' and the superlatives'.
OPERATION_VOCABULARY = frozenset(w for a in AGGREGATES.values() for w in a.words) | frozenset(SUPERLATIVES)


def read_question(text: str) -> Question:
    """The question's words, comparisons, dates, "top k" and question word."""
    words = read_through_typos(words_of(text), OPERATION_VOCABULARY)  # "avrage", "hieghest": the operation's own word
    question = Question(text=text, words=words, stems=[stem_of(w) for w in words])
    _read_dates(question)
    _read_top(question)
    _read_comparisons(question)
    _read_limit(question)
    _read_wh(question)
    return question


def _read_wh(question: Question) -> None:
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


_MONTH_NAMES = MONTHS
_DATE_OPS = {"before": "lt", "prior": "lt", "earlier": "lt", "until": "le", "after": "gt", "later": "gt", "since": "ge"}


def _read_dates(question: Question) -> None:
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
        _add_date(question, start, end, year, month, day)
    # In figures: "started in 2024-09" is September 2024, not the year 2024 (its "09" was left unread).
    for parts, year, month, day in numeric_dates(question.text):
        at = next(
            (i for i in range(len(words) - len(parts) + 1)
             if tuple(words[i : i + len(parts)]) == parts and not question.used & set(range(i, i + len(parts)))),
            None,
        )  # fmt: skip
        # A day alone ("on 2023-03-12") is a cell's value to match as written; after "before", "since"... a bound.
        if at is not None and (day is None or (at > 0 and words[at - 1] in _DATE_OPS)):
            _add_date(question, at, at + len(parts), year, month, day)


def _add_date(question: Question, start: int, end: int, year: int, month: int, day: int | None) -> None:
    """The date condition of words start..end: a day or a whole month, after "before", "since"... or alone."""
    words = question.words
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
        question.dates.append(DateSpan(start - 1, end, op, (bound,)))
        question.used.update(range(start - 1, end))
    else:
        question.dates.append(DateSpan(start, end, "between", (first, last)))
        question.used.update(range(start, end))


def _read_top(question: Question) -> None:
    """ "The number of Danes in the top 10", "was not within the top 30": a condition on rank, not a ranking."""
    words = question.words
    for i in range(len(words) - 2):
        k = i + 2 if words[i + 1] == "the" else i + 1
        if words[i] not in ("in", "within", "inside", "outside") or k + 1 >= len(words) or words[k] != "top":
            continue
        n = as_number(words[k + 1])
        if n is None or not n.is_integer() or YEAR_RE.fullmatch(words[k + 1]):
            continue
        negated = words[i] == "outside" or bool({"not", "never", "t"} & set(words[max(0, i - 3) : i]))
        question.comparisons.append(Comparison(i, k + 2, "gt" if negated else "le", (n,), rank=True))
        question.used.update(range(i, k + 2))


# "the 1990s", "the 1800s": a decade or a century.
_DECADE = re.compile(rf"({year_digits(HISTORIC_SINCE, decade=True)})s")


def _read_comparisons(question: Question) -> None:
    """ "more than 5 million", "at least 3", "between 2010 and 2012", "10 or more", "after 2005"."""
    _read_decades(question)
    i = 0
    while i < len(question.words):
        if i in question.used:  # a date read already ("after 2024-03": not a year above 2024)
            i += 1
            continue
        end = _between_at(question, i)
        if end is None:
            end = _comparator_at(question, i)
        if end is None:
            end = _post_comparator_at(question, i)
        i = i + 1 if end is None else end


def _read_decades(question: Question) -> None:
    """ "the 1990s" (a decade), "the 1900s" (a century): a span of years."""
    for k, word in enumerate(question.words):
        decade = _DECADE.fullmatch(word)
        if decade:
            start = int(decade.group(1))
            # "the 1900s" is a century, "the 1990s" a decade.
            end = start + (99 if start % 100 == 0 and start != 2000 else 9)
            question.comparisons.append(Comparison(k, k + 1, "between", (float(start), float(end))))
            question.used.add(k)


def _between_at(question: Question, i: int) -> int | None:
    """ "between 2010 and 2012", "from 5 to 10" at word i: the comparison read, and the word after it (else None)."""
    words = question.words
    if words[i] == "between" or (words[i] == "from" and _number_at(words, i + 1) is not None):
        low = _number_at(words, i + 1)
        if low is not None:
            j = i + 1 + low[1]
            if j < len(words) and words[j] in ("and", "to", "through"):
                high = _number_at(words, j + 1)
                if high is not None:
                    end = j + 1 + high[1]
                    question.comparisons.append(Comparison(i, end, "between", (low[0], high[0])))
                    question.used.update(range(i, end))
                    return end
    return None


def _comparator_at(question: Question, i: int) -> int | None:
    """ "more than 5", "at least the year 2010" at word i: the comparison read, and the word after it (else None)."""
    words = question.words
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
        question.comparisons.append(Comparison(i, end, op, (found[0],)))
        question.used.update(range(i, end))
        return end
    return None


def _post_comparator_at(question: Question, i: int) -> int | None:
    """ "10 or more", "5 plus" at word i: the comparison read, and the word after it (else None)."""
    words = question.words
    found = _number_at(words, i)
    if found is not None:
        after = i + found[1]
        for phrase, op in POST_COMPARATORS.items():
            if tuple(words[after : after + len(phrase)]) == phrase:
                end = after + len(phrase)
                question.comparisons.append(Comparison(i, end, op, (found[0],)))
                question.used.update(range(i, end))
                return end
    return None


_COMPARATIVE = frozenset({"more", "less", "fewer", "most", "least"})


def _read_limit(question: Question) -> None:
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


def _column_mentions(question: Question, sheet: SheetInfo) -> list[ColumnMention]:
    """Every place the question names a column: its whole name, a telling word of it, or a synonym."""
    stems = question.stems
    found: list[ColumnMention] = []
    # the analyst vocabulary (core/lexicon/vocabulary.json): "pay" names an Annual Salary column, "suppliers" Vendor
    vocabulary = {w: {stem_of(o) for o in others} for w, others in synonyms(content_words(question.text)).items()}
    for col in sheet.columns:
        words = list(col.words)
        content = [w for w in words if w not in STOP and w not in WEAK_COLUMN_WORDS] or words
        if not content:
            continue
        taken: set[int] = set()
        # The whole name ("amount raised usd"), the name without its bracketed unit ("amount" of "Amount (USD)"),
        # then its content words in order ("amount raised").
        core = [stem_of(w) for w in words_of(re.sub(r"\([^()]*\)", " ", col.name))]
        core = core if core != words and len(core) == 1 and core[0] not in WEAK_COLUMN_WORDS else []
        for seq, score in ((words, 1.0 + 0.1 * len(words)), (core, 1.0), (content, 0.9 + 0.1 * len(content))):
            if not seq:
                continue
            if len(seq) == 1 and seq is not core and (seq[0] in STOP or seq[0] in WEAK_COLUMN_WORDS):
                continue  # "number", "total": question glue before they are a column's name
            for i in range(len(stems) - len(seq) + 1):
                if stems[i : i + len(seq)] == seq and not taken & set(range(i, i + len(seq))):
                    found.append(ColumnMention(col, i, i + len(seq), score))
                    taken.update(range(i, i + len(seq)))
        for i, stem in enumerate(stems):
            if i in taken or i in question.used or stem in STOP:
                continue
            forms = _forms(stem)
            if forms & set(content):
                score = 0.5 + 0.3 / len(content)
            elif any(w in words for f in forms for w in SYNONYMS.get(f, ())):
                score = 0.45
            elif any(vocabulary.get(w, set()) & set(content) for w in content_words(question.words[i])):
                score = 0.45
            elif any(abbreviates(stem, w) or abbreviates(w, stem) or spelled_like(stem, w) for w in {*content, *core}):
                score = 0.45  # written short or misspelled: "amt" of Amount, "department" of Dept, "avrage"
            else:
                continue
            found.append(ColumnMention(col, i, i + 1, score))
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


@dataclass
class _Quoting:
    """What the search for quoted values shares across a sheet's columns."""

    question: Question
    columns: list[ColumnMention]  # the question's column mentions
    named: set[tuple[int, int]]  # the spans naming a column in full
    column_words: set[int]  # the words naming a column
    year_inside: bool  # no year column: a year may only be found inside text ("2013 Regional Cup")


def _value_mentions(question: Question, sheet: SheetInfo, columns: list[ColumnMention]) -> list[ValueMention]:
    """Cell values the question quotes, longest first and never overlapping."""
    quoting = _Quoting(
        question,
        columns,
        named={(m.start, m.end) for m in columns if m.score >= 1.0},
        column_words={i for m in columns for i in range(m.start, m.end)},
        year_inside=not any(c.dtype == "date" or (yearish(c) and c.numeric) for c in sheet.columns),
    )
    candidates: list[tuple[float, ValueMention]] = []
    for col in sheet.columns:
        if not col.values:
            continue
        candidates += _quoted_values(quoting, col)
        candidates += _outcome_values(question, col)
        candidates += _named_forms(question, col)
        candidates += _flag_values(question, col)
    candidates.sort(key=lambda c: (-c[0], c[1].start, c[1].column.position))
    taken: set[int] = set()
    chosen: list[ValueMention] = []
    for _, mention in candidates:
        covered = set(range(mention.start, mention.end))
        if covered & taken:
            continue
        taken |= covered
        chosen.append(mention)
    return sorted(chosen, key=lambda m: m.start)


def _quoted_values(quoting: _Quoting, col: ColumnInfo) -> list[tuple[float, ValueMention]]:
    """The words of the question that quote `col`'s values (whole values, or words inside them), with scores:
    at each word the longest span that does."""
    question = quoting.question
    n = len(question.stems)
    longest = max((len(k) for k in col.index), default=0)
    mentioned = any(m.column is col for m in quoting.columns)
    found: list[tuple[float, ValueMention]] = []
    for i in range(n):
        if i in question.used:
            continue
        for j in range(min(n, i + max(longest, 4)), i, -1):
            candidate = _value_at(quoting, col, i, j, mentioned)
            if candidate is not None:
                found.append(candidate)
                break
    return found


def _value_at(quoting: _Quoting, col: ColumnInfo, i: int, j: int, mentioned: bool) -> tuple[float, ValueMention] | None:
    """Whether words i..j quote a value of `col` (scored), else None."""
    question = quoting.question
    span = tuple(question.stems[i:j])
    if any(k in question.used for k in range(i, j)) or all(t in STOP for t in span):
        return None
    numeric = all(NUMBER_RE.fullmatch(t) for t in span)
    if span in col.index:
        return _whole_value(quoting, col, i, j, numeric, mentioned)
    if span in col.ngrams and (not numeric or (quoting.year_inside and j - i == 1 and YEAR_RE.fullmatch(span[0]))):
        return _inner_value(quoting, col, i, j, mentioned)
    return None


def _whole_value(
    quoting: _Quoting, col: ColumnInfo, i: int, j: int, numeric: bool, mentioned: bool
) -> tuple[float, ValueMention] | None:
    """Words i..j written as a whole value of `col`, unless they name the column or are a number it does not hold."""
    question = quoting.question
    span = tuple(question.stems[i:j])
    if (i, j) in quoting.named or (j - i == 1 and span[0] in col.words):
        return None  # the column's own name, not a value
    if numeric and not _number_value_ok(question, col, i, quoting.columns):
        return None
    score = 2.0 + (j - i) + (0.5 if mentioned else 0.0)
    # A value that is also one item of lists in other cells ("Pashto" and "Pashto, Dari
    # Persian"): every cell listing it.
    only = "only" in question.words[max(0, i - 3) : i]  # "only a forward (F)": not "F / G"
    values = tuple(dict.fromkeys(col.index[span] + (() if only else col.items.get(span, ()))))
    return score, ValueMention(col, i, j, values, True)


def _inner_value(
    quoting: _Quoting, col: ColumnInfo, i: int, j: int, mentioned: bool
) -> tuple[float, ValueMention] | None:
    """Words i..j found inside values of `col` ("alabama" in "Birmingham, Alabama"), when they tell values apart."""
    question = quoting.question
    span = tuple(question.stems[i:j])
    # Not the words that name what is asked about ("how many aerial TRAMWAYS") nor a column's name.
    if any(question.in_head(k) or k in quoting.column_words for k in range(i, j)):
        return None
    if span[0] in STOP or span[-1] in STOP or (len(span) == 1 and len(span[0]) < 3):
        return None
    if span[-1] in SUPERLATIVES or span[0] in SUPERLATIVES:
        return None
    values = col.ngrams[span]
    if col.prose or len(values) > max(3, 0.9 * col.n_distinct):
        return None  # long prose, or a word nearly every value shares: not a filter
    score = 0.5 + (j - i) * 0.9 + (0.3 if mentioned else 0.0)
    return score, ValueMention(col, i, j, values, False)


def _outcome_values(question: Question, col: ColumnInfo) -> list[tuple[float, ValueMention]]:
    """ "How many games did they win?": the result cells of `col` that record a win ("W 31–17", "Winner")."""
    found: list[tuple[float, ValueMention]] = []
    for i, word in enumerate(question.words):
        outcome = OUTCOME_WORDS.get(word)
        if outcome is not None and outcome in col.outcomes and i not in question.used:
            mention = ValueMention(col, i, i + 1, col.outcomes[outcome], False, outcome=True)
            found.append((2.3, mention))
    return found


def _flag_values(question: Question, col: ColumnInfo) -> list[tuple[float, ValueMention]]:
    """ "How many customers renewed?" of a yes/no column "Renewed": its yes cells; "did not renew": its no cells."""
    cells = {v.strip().lower(): v for v in col.values}
    yes, no = [v for k, v in cells.items() if k in YES_CELLS], [v for k, v in cells.items() if k in NO_CELLS]
    name = [w for w in col.words if w not in STOP]
    if not yes or len(yes) + len(no) < len(cells) or len(name) != 1:
        return []
    found: list[tuple[float, ValueMention]] = []
    for i, stem in enumerate(question.stems):
        if i in question.used or not _forms(stem) & _forms(name[0]):
            continue
        negated = any(w in NEGATIONS for w in question.words[max(0, i - 2) : i])
        values = tuple(no if negated else yes)
        if values:
            found.append((2.6, ValueMention(col, i, i + 1, values, True, flag=True)))
    return found


def _named_forms(question: Question, col: ColumnInfo) -> list[tuple[float, ValueMention]]:
    """Words standing for values of `col` in another form: ordinals ("placed first" -> "1st"), and a people's
    name for its country ("canadian players" -> "Canada" or "CAN" in the cells)."""
    words, index, ngrams = question.words, col.index, col.ngrams
    found: list[tuple[float, ValueMention]] = []
    for i in range(len(question.stems)):
        for form in _ordinal_forms(words, i):
            if (form,) in index:
                found.append((2.5, ValueMention(col, i, i + 1, index[(form,)], True)))
                break
        for alt in DEMONYMS.get(words[i], ()):
            key = tuple(stem_of(t) for t in words_of(alt))
            if key in index:
                found.append((2.4, ValueMention(col, i, i + 1, index[key], True)))
                break
            if key in ngrams and not col.prose and len(ngrams[key]) <= max(3, 0.9 * col.n_distinct):
                found.append((1.4, ValueMention(col, i, i + 1, ngrams[key], False)))
                break
    return found


def _number_value_ok(question: Question, col: ColumnInfo, i: int, columns: list[ColumnMention]) -> bool:
    """Whether a bare number in the question is a value of `col` ("episode 8", "in 1944", "16 goals")."""
    word = question.words[i]
    if question.limit_pos == i:
        return False
    if any(m.column is col and (m.end == i or m.start == i + 1 or m.end == i - 1) for m in columns):
        return True
    if YEAR_RE.fullmatch(word):
        return yearish(col) or not col.numeric
    return not col.numeric  # a text column holding numbers ("Game 16" -> "16")


def yearish(col: ColumnInfo) -> bool:
    """A date column, a column named for years, or whole numbers that all read as years."""
    if col.dtype == "date" or any(w in ("year", "season", "date") for w in col.words):
        return True
    numbers = col.numbers
    return col.numeric and len(numbers) >= 2 and all(n.is_integer() and 1800 <= n <= 2100 for n in numbers)


def numberish(col: ColumnInfo) -> bool:
    """Text cells that mostly start with a number ("113.6 m", "6'3\""): measures written with units."""
    return bool(col.values) and sum(1 for v in col.values if v[:1].isdigit()) * 2 > len(col.values)


def datish(col: ColumnInfo) -> bool:
    """Text cells that are mostly dates ("1 August 2001"): compared as dates by core.retrieval.tables."""
    return col.dtype == "text" and col.dates_share >= 0.8


def addable(col: ColumnInfo) -> bool:
    """Numbers to add or average: numeric cells, or text cells that are mostly plain numbers."""
    return col.numeric or (col.dtype == "text" and bool(col.values) and len(col.numbers) * 2 > len(col.values))


def quantity(col: ColumnInfo) -> bool:
    """Numbers to rank: numeric cells, dates, text cells that are mostly numbers, or clock times ("1:17.41")."""
    if col.numeric or col.dtype == "date":
        return True
    if not col.values:
        return False
    return len(col.numbers) * 2 > len(col.values) or col.clock_times


def link_sheet(question: Question, sheet: SheetInfo) -> Link:
    """How the question ties to one sheet: the columns it names, the values it quotes, and a score."""
    columns = _column_mentions(question, sheet)
    values = _value_mentions(question, sheet, columns)
    # A column is not "mentioned" by words that quote one of its values.
    value_words = {i for v in values for i in range(v.start, v.end)}
    columns = [m for m in columns if not set(range(m.start, m.end)) <= value_words]
    best: dict[int, float] = {}
    for m in columns:
        best[m.column.position] = max(best.get(m.column.position, 0.0), min(m.score, 1.0))
    # A result word is weak evidence for a sheet: a column named for it ("Won") is as likely meant.
    score = sum(best.values()) + sum(0.4 if v.outcome else 1.5 if v.exact else 0.8 for v in values)
    if any(w in fold(sheet.title) for w in question.words if len(w) > 3 and w not in STOP):
        score += 0.5
    return Link(sheet, columns, values, score)


# -- reading what is asked ---------------------------------------------------------------------


def _by_words(cols: Sequence[ColumnInfo], wanted: Sequence[str], exclude: set[int]) -> ColumnInfo | None:
    """The first column (in the order of `wanted`) whose name holds one of the words."""
    for word in wanted:
        for col in cols:
            if col.position not in exclude and word in col.words:
                return col
    return None


def key_column(sheet: SheetInfo, exclude: set[int]) -> ColumnInfo | None:
    """What a row is called: the first text column not already used (unique ones first)."""
    texts = [c for c in sheet.columns if c.position not in exclude and c.dtype == "text" and not quantity(c)]
    unique = [c for c in texts if not c.repeats]
    candidates = unique or texts or [c for c in sheet.columns if c.position not in exclude]
    return candidates[0] if candidates else None


def person_column(sheet: SheetInfo, exclude: set[int]) -> ColumnInfo | None:
    """Who is asked about: a text column named like people or actors, else the row's name."""
    for col in sheet.columns:
        if col.position not in exclude and col.dtype == "text" and set(col.words) & WHO_WORDS and not quantity(col):
            return col
    return key_column(sheet, exclude)


def rank_like(col: ColumnInfo) -> bool:
    """A rank or position column ("Rank", "Pos", "#"): ordered the other way round, never added up."""
    return bool(set(col.words) & RANK_WORDS) or col.name.strip() in ("#", "No.", "No")


def asked_column(question: Question, link: Link, exclude: set[int]) -> ColumnInfo | None:
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
        found = next((m.column for m in head if yearish(m.column)), None) or _by_words(cols, wanted, exclude)
        found = found or next((c for c in cols if c.dtype == "date" and c.position not in exclude), None)
        found = found or next((c for c in cols if yearish(c) and c.position not in exclude), None)
        if found is not None:
            return found
    if wh in ("who", "whom", "whose", "whos"):
        found = next((m.column for m in head if set(m.column.words) & WHO_WORDS and not quantity(m.column)), None)
        return found or person_column(link.sheet, exclude)
    if wh == "where":
        found = next((c for c in cols if c.position not in exclude and set(c.words) & WHERE_WORDS), None)
        if found is not None:
            return found
    if head:
        return head[0].column
    return None
