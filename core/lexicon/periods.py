"""Periods: one year pattern, month and weekday names, quarters and halves.

A year is four digits from a century start up to 2099.  Reports and filings are read with years from 1900
(``year_digits()``, the default: "FY2022", "2021-22"); the table planner also reads historic years from 1500
(``year_digits(HISTORIC_SINCE)``: a table of kings or battles).  Every year pattern in core derives from
``year_digits`` with the range its caller has always accepted, so a caller's matches are unchanged.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from datetime import date

# The first year the table planner reads as a year in a question or a cell ("in 1648").
HISTORIC_SINCE = 1500


def year_digits(since: int = 1900, *, decade: bool = False) -> str:
    """The regex (no group, no boundaries) of a four-digit year from `since` (a century start, 1000-1900)
    to 2099: year_digits() is "(?:19|20)\\d\\d"; with `decade`, only a decade's first year ("1990")."""
    if since % 100 or not 1000 <= since <= 1900:
        raise ValueError(f"a year range starts at a century from 1000 to 1900, not {since}")
    century = since // 100 % 10
    first = "19" if century == 9 else f"1[{century}-9]"
    last = "0" if decade else r"\d"
    return rf"(?:{first}|20)\d{last}"


# A calendar year (1900-2099) as digits.
YEAR_DIGITS = year_digits()
# A calendar year (1900-2099) standing alone in text: "FY2022" and "2021-22" hold one, "120219" does not.
YEAR = re.compile(rf"(?<!\d)({YEAR_DIGITS})(?!\d)")
# The words before a fiscal year's number: "fiscal 2023", "fiscal year 2023", "FY2023", "FY 23", "FY'23".
FISCAL_PREFIX = r"(?:fiscal\s+(?:year\s+)?|fy\s?'?)"
# A date written in figures: "2024-09-15", "2024-09", "09/2024" (a day only in the ISO order, whose order is not in
# doubt: "09/10/2024" is the 9th of October or the 10th of September). "2011-12" is a split fiscal year, not a
# month: `numeric_dates` leaves it out.
NUMERIC_DATE = re.compile(
    rf"(?<![\d/-])(?:(?P<y1>{YEAR_DIGITS})[-/](?P<m1>0?[1-9]|1[0-2])(?:[-/](?P<d1>0?[1-9]|[12]\d|3[01]))?"
    rf"|(?P<m2>0?[1-9]|1[0-2])[-/](?P<y2>{YEAR_DIGITS}))(?![\d/-]*\d)"
)


def numeric_dates(text: str) -> list[tuple[tuple[str, ...], int, int, int | None]]:
    """Each date written in figures in `text`: (its figures in order as written, year, month, day or None)."""
    out: list[tuple[tuple[str, ...], int, int, int | None]] = []
    for m in NUMERIC_DATE.finditer(text):
        if m.group("y1"):
            year, month, day = int(m.group("y1")), int(m.group("m1")), m.group("d1")
            if day is None and month == (year + 1) % 100:
                continue  # "2011-12": the fiscal year 2011/12
            parts = tuple(p for p in (m.group("y1"), m.group("m1"), day) if p)
            out.append((parts, year, month, int(day) if day else None))
        else:
            out.append(((m.group("m2"), m.group("y2")), int(m.group("y2")), int(m.group("m2")), None))
    return out


# A folded question word or cell that is a year for the table planner (1500-2099; match, fullmatch or search).
YEAR_RE = re.compile(year_digits(HISTORIC_SINCE))
# The ways a report writes a year besides "2019": a short fiscal year ("FY19", "FY '19", "F19", "fiscal 19"),
# and a year letter-spaced by the typesetter ("2 0 1 8").
_YEAR_FORMS = re.compile(
    rf"(?<!\d)(?P<full>{YEAR_DIGITS})(?!\d)"
    r"|\b(?:fy|f|fiscal(?:\s+year)?)\s?'?(?P<short>\d\d)\b"
    r"|(?<!\w)(?P<spaced>(?:1 9|2 0) \d \d)(?!\w)",
    re.IGNORECASE,
)


def year_mentions(text: str) -> list[tuple[str, str]]:
    """Each year `text` names, in order: (the calendar year, the words that name it) — ("2019", "FY19")."""
    found = []
    for m in _YEAR_FORMS.finditer(text):
        if m.group("full"):
            found.append((m.group("full"), m.group("full")))
        elif m.group("short"):
            found.append((f"20{m.group('short')}", m.group(0)))
        else:
            found.append((m.group("spaced").replace(" ", ""), m.group(0)))
    return found


def years_in(text: str) -> list[str]:
    """The calendar years `text` names, in order, once each: "FY19" and "2 0 1 8" count as 2019 and 2018."""
    return list(dict.fromkeys(year for year, _ in year_mentions(text)))


MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")  # fmt: skip
# The short forms of the months: their first three letters, and "sept".
MONTH_ABBREVIATIONS = tuple(a for m in MONTHS for a in ((m[:3], "sept") if m == "september" else (m[:3],)))
# A month's name or short form -> its number (1-12).
MONTH_NUMBERS = {name: i for i, month in enumerate(MONTHS, 1) for name in (month, month[:3])} | {"sept": 9}
# A date written in words: "January 28, 2023", "Jan. 28 2023", "28 January 2023" (groups month/day/year, or
# day2/month2/year2: use it once in a pattern).
_MONTH_NAMES = "|".join(sorted(MONTH_NUMBERS, key=len, reverse=True))
WRITTEN_DATE = (
    rf"(?:(?P<month>{_MONTH_NAMES})\.?\s+(?P<day>\d{{1,2}}),?\s+(?P<year>{YEAR_DIGITS})"
    rf"|(?P<day2>\d{{1,2}})\s+(?P<month2>{_MONTH_NAMES})\.?,?\s+(?P<year2>{YEAR_DIGITS}))"
)


def written_day(text: str) -> date | None:
    """The date `text` is when it is one date written in words alone ("July 31, 2027", "31 July 2027"), else None."""
    m = re.fullmatch(WRITTEN_DATE, " ".join(text.split()), re.IGNORECASE)
    if m is None:
        return None
    month, day, year = (
        (m.group("month"), m.group("day"), m.group("year")) if m.group("month") else m.group("month2", "day2", "year2")
    )
    try:
        return date(int(year), MONTH_NUMBERS[month.lower().rstrip(".")], int(day))
    except (KeyError, ValueError):
        return None


WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
QUARTERS = ("q1", "q2", "q3", "q4")
# Words naming a period relative to another ("against last year", "vs the prior month", "the same quarter").
RELATIVE_PERIOD_WORDS = frozenset(
    "last prior previous next same year years month months quarter quarters week weeks period periods".split()
)
HALVES = ("h1", "h2")

# A part of a year: a statement's column of one ("Three Months Ended July 29, 2023", "26 Weeks Ended", "Fourth
# Quarter", "Year-to-date") is no fiscal year's figure, and a question naming one asks no whole year.
INTERIM = re.compile(
    r"\b(?:three|six|nine|3|6|9)\s+months?\b|\b(?:13|26|39|thirteen|twenty[\s-]six|thirty[\s-]nine)\s+weeks?\b|"
    r"\bquarters?\b|\bq[1-4]\b|\bh[12]\b|\b(?:first|second)\s+half\b|\bhalf[\s-]year\b|\bytd\b|"
    r"\byear[\s-]to[\s-]date\b|\binterim\b",
    re.I,
)

# The spans of a statement's columns ("Three Months Ended", "13 Weeks Ended", "Quarter Ended"; "Six Months Ended",
# "26 Weeks"; "Nine Months Ended", "39 Weeks"): the same pattern reads a column's header and the span a question names
# ("the second quarter", "Q2"; "the first half", "the first six months"; "the first nine months").
COLUMN_SPANS = (
    re.compile(r"\b(?:three|3)\s+months?\b|\b(?:13|thirteen)\s+weeks?\b|\bquarters?\b|\bq[1-4]\b", re.I),
    re.compile(r"\b(?:six|6)\s+months?\b|\b(?:26|twenty[\s-]six)\s+weeks?\b|\bhalf\b|\bh[12]\b", re.I),
    re.compile(r"\b(?:nine|9)\s+months?\b|\b(?:39|thirty[\s-]nine)\s+weeks?\b", re.I),
)

# Words asking for amounts a filing schedules for later years ("payments due in 2027", "notes maturing in 2026",
# "expected benefit payments for 2028"): a filing's columns of years after its own are such a schedule.
SCHEDULED = re.compile(
    r"\b(?:due|matur\w*|payments?|obligations?|commitments?|expect\w*|future|thereafter|schedul\w*|minimum|"
    r"forecast\w*|project(?:ed|ions?)|estimat\w*|planned|outlook|guidance|remaining)\b",
    re.I,
)

# Ordinal words of the quarters and halves a question may spell out ("the third quarter", "the first half").
# Ordinal words of a quarter or half ("second quarter", "1st half").
ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
# "March", "Mar", "Mar.", "Sept" (any case) and, in a sheet's header, "Mar-26", "Mar 2026", "2026-03".
_MONTH_WORD = re.compile(rf"^(?P<name>{'|'.join(sorted(set(MONTH_NUMBERS), key=len, reverse=True))})\.?$", re.I)
_HEADER_MONTH = re.compile(
    rf"^(?P<name>[a-z]+)\.?(?:[\s\-/']*(?P<year>{YEAR_DIGITS}|\d\d))?$|^(?P<y>{YEAR_DIGITS})[-/](?P<m>0?[1-9]|1[0-2])$",
    re.I,
)
# The spans of months a question names: a quarter ("Q3", "3rd quarter", "third fiscal quarter"), a half ("H1",
# "first half").
_SPAN = re.compile(
    r"\b(?:(?P<q>q[1-4])|(?P<h>h[12])|(?P<ord>first|1st|second|2nd|third|3rd|fourth|4th)\s+(?:fiscal\s+)?(?P<kind>quarter|half))\b",
    re.I,
)
# A month named in a question: its name or short form. "May" only capitalised or after "in", "for", "of", "during":
# otherwise it is the verb.
_QUESTION_MONTH = re.compile(
    rf"\b(?:(?P<name>{'|'.join(m for m in sorted(set(MONTH_NUMBERS), key=len, reverse=True) if m != 'may')})\.?"
    r"|(?P<may>(?-i:May)|(?<=in )may|(?<=for )may|(?<=of )may|(?<=during )may))\b",
    re.I,
)


# A month written as a number where a period is meant: "2026-09", "2026/9", "09/2026", "month 09", "month 9".
_NUMBERED_MONTH = re.compile(
    rf"(?<![\d/-])(?P<y>{YEAR_DIGITS})[-/](?P<a>0?[1-9]|1[0-2])(?![\d/-])"
    rf"|(?<![\d/-])(?P<b>0?[1-9]|1[0-2])[-/](?:{YEAR_DIGITS})(?![\d/-])"
    r"|\bmonth\s+(?:no\.?\s*)?(?P<c>0?[1-9]|1[0-2])\b",
    re.I,
)


def fiscal_start(labels: Sequence[str]) -> int:
    """The month a sheet's year starts in, as its header says: twelve month columns in order from April ("Apr",
    "May" … "Mar") are a fiscal year starting in April; any other header (or none) is the calendar year: 1."""
    months = [m[0] for label in labels if (m := header_month(label)) is not None]
    if len(months) != 12 or months[0] == 1:
        return 1
    in_order = all(b == a % 12 + 1 for a, b in itertools.pairwise(months))
    return months[0] if in_order else 1


def month_of(word: str) -> int | None:
    """The month a word names (1-12): "March", "mar", "Mar.", "Sept"; None."""
    found = _MONTH_WORD.match(word.strip())
    return MONTH_NUMBERS[found.group("name").lower()] if found else None


def header_month(label: str) -> tuple[int, str] | None:
    """The month a column header names, and the year written with it: "Sep" (9, ""), "Sep-26" (9, "26"),
    "March 2026" (3, "2026"), "2026-03" (3, "2026"); None for any other header."""
    found = _HEADER_MONTH.match(label.strip())
    if not found:
        return None
    if found.group("y"):
        return int(found.group("m")), found.group("y")
    month = month_of(found.group("name"))
    return (month, found.group("year") or "") if month else None


def span_months(kind: str, n: int, start: int = 1) -> tuple[int, ...]:
    """The months of a quarter or half of a year starting in month `start`: ("q", 3) -> (7, 8, 9), ("h", 1) ->
    1..6; of a fiscal year starting in April, ("q", 1, 4) -> (4, 5, 6)."""
    size = 3 if kind == "q" else 6
    return tuple((start - 1 + m - 1) % 12 + 1 for m in range(size * (n - 1) + 1, size * n + 1))


def months_asked(question: str, start: int = 1) -> tuple[list[int], bool]:
    """The months a question names, in order, and whether it named a span of them (a quarter or a half: Q1 is
    January to March, H2 July to December; of a year starting in month `start`, its months from then):
    "Q3 revenue" -> ([7, 8, 9], True), "in Sept" -> ([9], False), "in 2026-09" -> ([9], False)."""
    found: list[tuple[int, list[int]]] = []
    spanned = False
    for m in _SPAN.finditer(question):
        spanned = True
        if m.group("q") or m.group("h"):
            code = (m.group("q") or m.group("h")).lower()
            found.append((m.start(), list(span_months(code[0], int(code[1]), start))))
        else:
            kind = "q" if m.group("kind").lower() == "quarter" else "h"
            found.append((m.start(), list(span_months(kind, ORDINALS[m.group("ord").lower()], start))))
    for m in _QUESTION_MONTH.finditer(question):
        found.append((m.start(), [MONTH_NUMBERS[(m.group("name") or "may").lower()]]))
    for m in _NUMBERED_MONTH.finditer(question):
        if m.group("y") and int(m.group("y")[-2:]) + 1 == int(m.group("a")):
            continue  # "2011-12" is a split fiscal year, not December 2011
        found.append((m.start(), [int(m.group("a") or m.group("b") or m.group("c"))]))
    months = [month for _, ms in sorted(found) for month in ms]
    return list(dict.fromkeys(months)), spanned


# A fiscal year written across the two calendar years it spans: "2023-24", "FY 2024/25", "2019–2020".
_SPLIT_YEAR = re.compile(r"(?<!\d)((?:19|20)\d\d)\s*[/–-]\s*((?:19|20)?\d\d)(?!\d)")


def split_year_end(text: str) -> int | None:
    """The year a fiscal year written across two years ends in ("FY 2023-24" → 2024: FY24), or None."""
    for m in _SPLIT_YEAR.finditer(text):
        first, second = int(m.group(1)), m.group(2)
        end = int(second) if len(second) == 4 else first // 100 * 100 + int(second)
        end += 100 if end < first else 0  # "1999-00"
        if end == first + 1:
            return end
    return None
