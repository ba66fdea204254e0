"""The fiscal period a question asks about, and the room's filings that answer for it.

`read_period` reads the period words of a question: "FY2023", "fiscal 2022", "FY23", "Q4 2023", "the fourth
quarter of fiscal 2023", "as of FY2022", "the three years to FY2018", "from FY2016 to FY2018", or a bare year
("in 2022"). `filings_for` picks the room's filings of that period by their stored period (core/ingest/filing.py
read it from each cover, the fiscal convention included):

* a year Y: the filings of fiscal year Y that cover the whole year (an annual filing, a fourth-quarter release);
  else the quarterly filings of Y; else the next annual filing (Y+1, then Y+2), whose statements print Y as
  their prior-year column;
* a quarter Q of Y: the filings of that quarter (and, for the fourth, the annual filing of Y);
* a span: the filings of each of its years.

A room whose filings all have a period and none answers for a period asked in fiscal words ("FY2019", not a bare
"2019", which may be a maturity or a founding year) lacks that period: the question abstains naming the periods
the room holds. Examples are invented.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date

from core.lexicon.filings import QUARTER_ORDINALS
from core.lexicon.numbers import NUMBER_WORDS
from core.lexicon.periods import FISCAL_PREFIX, MONTHS, WRITTEN_DATE, YEAR_DIGITS, written_day
from core.models import period_label

_YEAR = rf"(?:{YEAR_DIGITS}|'?\d\d)"
_FISCAL = rf"(?:{FISCAL_PREFIX}|f)"
_QUARTER_WORD = "|".join(QUARTER_ORDINALS)
_QUARTER = re.compile(
    rf"\b(?:q(?P<q>[1-4])|(?P<ord>{_QUARTER_WORD})[-\s]quarter)(?:\s+of)?\s*(?:the\s+)?(?P<fiscal>{_FISCAL})?"
    rf"(?:\s*year\s+)?(?P<year>{YEAR_DIGITS}|(?<=[\sy'])\d\d)\b",
    re.IGNORECASE,
)
_QUARTER_NAMED = r"\b(?:q{q}|(?:{words})[-\s]quarter)\b"


def names_quarter(text: str, quarter: int) -> bool:
    """Whether `text` names quarter `quarter` ("Q2", "second quarter", "second-quarter"), with its year or among
    other periods ("in the second quarter and first six months of fiscal 2024")."""
    words = "|".join(w for w, n in QUARTER_ORDINALS.items() if n == quarter)
    return re.search(_QUARTER_NAMED.format(q=quarter, words=words), text, re.IGNORECASE) is not None


_FISCAL_YEAR = re.compile(rf"(?<![\w-])(?P<fiscal>{_FISCAL})(?P<year>{YEAR_DIGITS}|\d\d)\b", re.IGNORECASE)
_BARE_YEAR = re.compile(rf"(?<![\w$.,-])(?P<year>{YEAR_DIGITS})(?![\w%]|[.,]\d)")
_COUNT = "|".join([*NUMBER_WORDS, r"\d"])
# "the three years to FY2018", "three fiscal years ended 2018"
_SPAN_TO = re.compile(
    rf"\b(?P<n>{_COUNT})[-\s](?:fiscal\s+)?years?\s+(?:to|ended|ending|through|until|up\s+to)\s+"
    rf"(?:(?:the\s+)?end\s+of\s+)?(?P<fiscal>{_FISCAL})?(?P<year>{YEAR_DIGITS}|\d\d)\b",
    re.IGNORECASE,
)
# "from FY2016 to FY2018", "between 2016 and 2018", "FY2016-FY2018", "FY2016 - FY2018"
_SPAN_FROM = re.compile(
    rf"(?:\bfrom\s+|\bbetween\s+)?(?P<f1>{_FISCAL})?(?P<y1>{YEAR_DIGITS})\s*(?:to|through|and|-|–)\s*"
    rf"(?P<f2>{_FISCAL})?(?P<y2>{YEAR_DIGITS})\b",
    re.IGNORECASE,
)
_COMPARE = re.compile(r"\b(?:compare[ds]?|comparing|comparison|versus|vs\.?|relative\s+to)\b", re.IGNORECASE)


def _full_year(digits: str) -> int:
    digits = digits.lstrip("'")
    return int(digits) if len(digits) == 4 else 2000 + int(digits)


@dataclass(frozen=True)
class PeriodAsked:
    """The fiscal period(s) a question names: its years (in order), a quarter (of its only year), whether they
    form a span or a comparison, and whether fiscal words named them ("FY2022", not a bare "2022")."""

    years: tuple[int, ...]
    quarter: int | None = None
    span: bool = False
    compared: bool = False
    fiscal: bool = True

    @property
    def compares(self) -> bool:
        """Several periods asked together ("from FY2021 to FY2022", "compare Q1 and Q2 2023")."""
        return self.span or self.compared or len(self.years) > 1

    @property
    def label(self) -> str:
        """ "FY2022", "Q3 FY2023", "FY2016-FY2018", "FY2021 and FY2022"."""
        if self.span and len(self.years) > 1:
            return f"FY{self.years[0]}-FY{self.years[-1]}"
        return " and ".join(period_label(y, self.quarter) or "" for y in self.years)


def read_period(question: str) -> PeriodAsked | None:
    """The fiscal period(s) `question` names, None when it names none."""
    if m := _SPAN_TO.search(question):
        n = NUMBER_WORDS.get(m.group("n").lower()) or int(m.group("n"))
        last = _full_year(m.group("year"))
        if 1 < n <= 10:
            return PeriodAsked(tuple(range(last - n + 1, last + 1)), span=True, fiscal=bool(m.group("fiscal")))
    for m in _SPAN_FROM.finditer(question):
        first, last = int(m.group("y1")), int(m.group("y2"))
        separator = m.group(0)[m.end("y1") - m.start() : m.start("y2") - m.start()].strip().lower()
        if 0 < last - first <= 10 and (separator != "and" or m.group(0).lower().startswith("between")):
            return PeriodAsked(tuple(range(first, last + 1)), span=True, fiscal=bool(m.group("f1") or m.group("f2")))
    quarters = list(_QUARTER.finditer(question))
    if quarters:
        m = quarters[0]
        number = int(m.group("q")) if m.group("q") else QUARTER_ORDINALS[m.group("ord").lower()]
        years = tuple(dict.fromkeys(_full_year(q.group("year")) for q in quarters))
        return PeriodAsked(years, quarter=number if len(quarters) == 1 else None, compared=len(quarters) > 1)
    fiscal = [_full_year(m.group("year")) for m in _FISCAL_YEAR.finditer(question)]
    bare = [int(m.group("year")) for m in _BARE_YEAR.finditer(_FISCAL_YEAR.sub(" ", question))]
    years = tuple(dict.fromkeys(fiscal + bare))
    if not years:
        return None
    return PeriodAsked(years, compared=bool(_COMPARE.search(question)), fiscal=bool(fiscal))


@dataclass(frozen=True)
class FilingPeriod:
    """A ready document of the room with its stored period (None when not known, as for a spreadsheet)."""

    document_id: int
    fiscal_year: int | None
    fiscal_quarter: int | None

    @property
    def label(self) -> str | None:
        return period_label(self.fiscal_year, self.fiscal_quarter)


def _of_year(year: int, filings: Sequence[FilingPeriod]) -> list[int]:
    whole = [f.document_id for f in filings if f.fiscal_year == year and f.fiscal_quarter in (None, 4)]
    if whole:
        return whole
    quarters = [f.document_id for f in filings if f.fiscal_year == year]
    if quarters:
        return quarters
    for later in (year + 1, year + 2):  # an annual filing prints the years before it as comparatives
        annual = [f.document_id for f in filings if f.fiscal_year == later and f.fiscal_quarter is None]
        if annual:
            return annual
    return []


def _of_quarter(year: int, quarter: int, filings: Sequence[FilingPeriod]) -> list[int]:
    return [
        f.document_id
        for f in filings
        if f.fiscal_year == year and (f.fiscal_quarter == quarter or (quarter == 4 and f.fiscal_quarter is None))
    ]


@dataclass(frozen=True)
class FilingScope:
    """The filings a question is scoped to (`documents`, with the room's documents of no known period), or
    `missing`: the room lacks the period asked, and `held` lists the periods it holds."""

    documents: tuple[int, ...] = ()
    missing: str | None = None
    held: tuple[str, ...] = ()


def filings_for(asked: PeriodAsked, filings: Sequence[FilingPeriod]) -> FilingScope | None:
    """The room's filings of the period asked (see the module); None when the room's documents have no period
    (nothing to scope) or a bare year matches none (it may not be a fiscal period)."""
    dated = [f for f in filings if f.fiscal_year is not None]
    if not dated:
        return None
    found: list[int] = []
    for year in asked.years:
        found += _of_quarter(year, asked.quarter, dated) if asked.quarter else _of_year(year, dated)
    if found:
        undated = [f.document_id for f in filings if f.fiscal_year is None]
        return FilingScope(documents=tuple(dict.fromkeys(found + undated)))
    if not asked.fiscal or len(dated) < len(filings):
        return None  # a bare year, or documents of unknown period that may hold it
    held = sorted({(f.fiscal_year or 0, f.fiscal_quarter or 0, f.label or "") for f in dated})
    return FilingScope(missing=asked.label, held=tuple(label for *_, label in held))


def at_quarter_end(
    question: str,
    fiscal_year: int | None,
    quarter: int | None,
    period_end: date | None,
    headers: Sequence[str],
    *,
    change: bool = False,
) -> str:
    """`question` with the quarter it names written as the date ending it ("the second quarter of fiscal 2027" as
    "July 31, 2026"), when that quarter is the filing's own (`fiscal_year`, `quarter`, ending `period_end`) and a
    column of the table is headed by that date alone: a balance sheet states its lines at a date, not over a
    quarter. The fiscal year before it, named beside it ("between FY2026 and Q2 FY2027"), is the column of that
    year's end (a 10-Q's balance sheet holds it); so is the start of a `change` asked of the quarter alone (a 10-Q
    sets its balances against the fiscal year's end). Unchanged otherwise: another period named beside the quarter,
    or a date written in the question."""
    if None in (fiscal_year, quarter, period_end) or re.search(WRITTEN_DATE, question, re.IGNORECASE):
        return question
    assert fiscal_year is not None and period_end is not None  # (checked above)
    named = _QUARTER.search(question)
    asked = read_period(question)
    if named is None or asked is None or (asked.quarter, asked.years[:1]) != (quarter, (fiscal_year,)):
        return question
    dates = {d: h.strip() for h in headers if (d := written_day(h)) is not None}
    if period_end not in dates:
        return question
    before = re.sub(r"\bthe\s+$", "", question[: named.start()], flags=re.IGNORECASE)
    out = f"{before}{dates[period_end]}{question[named.end() :]}"
    rest = f"{before} {question[named.end() :]}"
    # the year before, at its end: the only column dated between a month and eleven months before the quarter's end
    ends = [h for d, h in dates.items() if 20 <= (period_end - d).days <= 340]
    if read_period(rest) is None:
        if not change or len(ends) != 1:
            return out
        since = re.sub(r"\b(?:in|during|for|over|at|as\s+of)\s+$", "", before, flags=re.IGNORECASE)
        return f"{since}between {ends[0]} and {dates[period_end]}{question[named.end() :]}"
    years = list(_FISCAL_YEAR.finditer(out)) or list(_BARE_YEAR.finditer(out))
    if len(years) != 1 or _full_year(years[0].group("year")) != fiscal_year - 1 or len(ends) != 1:
        return question
    return f"{out[: years[0].start()]}{ends[0]}{out[years[0].end() :]}"


def as_dated(
    question: str, fiscal_year: int | None, period_end: date | None, headers: Callable[[], Sequence[str]]
) -> str:
    """`question` with the years it names written as a filing's columns date them, when the filing's fiscal year is
    named by a year other than its period's end ("the second quarter of fiscal 2027" of a 10-Q for the quarter
    ended July 31, 2026; "fiscal 2026" of a 10-K for the year ended January 30, 2027 under a by-start-year
    convention) and its columns are headed by such dates: fiscal 2027 is then the column dated 2026, fiscal 2026
    the one dated 2025. Unchanged when the question writes a date itself ("the quarter ended July 31, 2026").
    `headers` gives the columns' headers, read only for such a filing."""
    if fiscal_year is None or period_end is None or abs(by := period_end.year - fiscal_year) != 1:
        return question
    month = MONTHS[period_end.month - 1][:3]
    dated = any(str(period_end.year) in header and month in header.lower() for header in headers())
    if not dated or re.search(WRITTEN_DATE, question, re.IGNORECASE) or read_period(question) is None:
        return question

    fiscal = [m.span("year") for m in _FISCAL_YEAR.finditer(question)]
    bare = [m.span("year") for m in _BARE_YEAR.finditer(question) if not any(a <= m.start() < b for a, b in fiscal)]
    out, at = [], 0
    for start, end in sorted(fiscal + bare):
        digits = question[start:end]
        year = _full_year(digits) + by
        out += [question[at:start], str(year) if len(digits.lstrip("'")) == 4 else f"{year % 100:02d}"]
        at = end
    return "".join(out) + question[at:]
