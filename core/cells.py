"""Cells as the product sees them: A1 addresses, numbers and dates read from cell text, column types.

Pure functions: no database, no file parsing.  A parsed table keeps, for every column, its A1 letter in
the original file and, for every data row, its row number there, so that ``cell_ref`` names the exact
cell a value came from ("Funding!E12").  Cell text is kept as it is stored; ``typed_value`` turns it
into a number or date for exact table math, guided by the inferred column ``Dtype``.  Questions, tables
and parsers all read cells through this module (questions never import the file parsers).
"""

from __future__ import annotations

import datetime
import gc
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import filterfalse
from typing import Literal

from core.lexicon.numbers import (
    ANY_NUMBER_RE,
    CURRENCY_RE,
    CURRENCY_SYMBOLS,
    LEADING_ZERO_RE,
    PERCENT_RE,
    SIMPLE_NUMBER_RE,
    parse_number,
)

Dtype = Literal["number", "currency", "percent", "date", "text"]

__all__ = [
    "CURRENCY_SYMBOLS",
    "Column",
    "Dtype",
    "cell_ref",
    "col_letter",
    "gc_paused",
    "infer_dtype",
    "parse_date",
    "parse_number",
    "typed_value",
]


@dataclass(frozen=True)
class Column:
    """One column of a parsed table."""

    position: int  # 0-based index into ParsedSheet.columns and into each row tuple
    name: str  # cleaned header text; "Column B" when blank; "Name (2)" for a repeat
    letter: str  # A1 column letters in the ORIGINAL file, even when leading columns were empty
    dtype: Dtype


# A dtype must describe at least this share of a column's non-empty values.
_DTYPE_SHARE = 0.9
# ---------------------------------------------------------------------------------------------
# Cell addresses
# ---------------------------------------------------------------------------------------------


def col_index(letters: str) -> int:
    """0-based column index of A1 letters: "A" -> 0, "AA" -> 26 (the inverse of col_letter)."""
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - 64
    return n - 1


def col_letter(index: int) -> str:
    """Return the A1 letters of a 0-based column index: 0 -> "A", 25 -> "Z", 26 -> "AA"."""
    if index < 0:
        raise ValueError(f"column index must be >= 0, got {index}")
    letters = ""
    n = index + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


# Excel leaves a sheet name bare in a reference only when it is a plain word that cannot be
# mistaken for a cell address ("A1"), an R1C1 address ("R2C3") or a number.
_BARE_SHEET_RE = re.compile(r"[^\W\d]\w*(?:\.\w+)*")
_A1_LIKE_RE = re.compile(r"[A-Za-z]{1,3}\d+")
_R1C1_LIKE_RE = re.compile(r"[Rr]\d*[Cc]?\d*|[Cc]\d*")


def cell_ref(sheet: str, letter: str, row_number: int) -> str:
    """Return an Excel-style cell reference such as "Funding!E12" or "'Q1 Data'!B3"."""
    needs_quotes = (
        not _BARE_SHEET_RE.fullmatch(sheet)
        or _A1_LIKE_RE.fullmatch(sheet) is not None
        or _R1C1_LIKE_RE.fullmatch(sheet) is not None
        or sheet.upper() in ("TRUE", "FALSE")
    )
    if needs_quotes:
        # Excel doubles a quote inside a quoted sheet name: 'Bob''s data'!A1
        sheet = "'" + sheet.replace("'", "''") + "'"
    return f"{sheet}!{letter}{row_number}"


# ---------------------------------------------------------------------------------------------
# Numbers (a number as written is read by core.lexicon.numbers.parse_number, re-exported here)
# ---------------------------------------------------------------------------------------------

# A measure: a number and its unit ("14,505 ft", "88 m", "7.91 m (w)", "3 acts", "2nd"), a detail in brackets
# allowed after it (and a line below it: "14,505 ft\n4421 m"). The unit is one or two short words with no digit,
# so scores ("5–2"), clock times ("1:17.41"), heights in feet and inches ("6'3\"") and names that start with a
# number ("20th Century Fox") are not measures.
_MEASURE_RE = re.compile(
    r"\s*((?:\d{1,3}(?:,\d{3})+|\d{1,3}(?:[ \u00a0]\d{3})+|\d+)(?:\.\d+)?|\.\d+)\s*([^\W\d_][^\W\d_.]{0,7}\.?(?:\s[^\W\d_]{1,6}\.?)?)?"
    r"\s*(?:\([^)]*\)\s*)*(?:\n.*)?",  # the same measure in another unit may follow on its own line
    re.DOTALL,
)


def parse_measure(text: str) -> tuple[float, str] | None:
    """The number and unit of a measure written with its unit ("113.6 m" -> (113.6, "m")), else None.

    Plain numbers, percentages and money are parse_number's; this reads what it refuses: a leading
    number followed by a unit word (ordinals "2nd" read as 2), a bracketed detail after it ignored, digits
    grouped by spaces ("1 420 436"), and times ("1:00.45" -> 60.45 seconds, "2:08:11" -> 7691).
    """
    clock = _DURATION_RE.fullmatch(text)
    if clock is not None:
        hours, minutes, seconds = (float(g) if g else 0.0 for g in clock.group(1, 2, 3))
        return hours * 3600 + minutes * 60 + seconds, ""
    m = _MEASURE_RE.fullmatch(text)
    number = None if m is None else parse_number(re.sub(r"[,\s]", "", m.group(1)))  # digits alone: a number
    if m is None or number is None:
        return None
    return number, m.group(2) or ""


# A race time or a duration: "1:00.45", "2:08:11", "59.79" beside them is seconds.
_DURATION_RE = re.compile(r"\s*(?:(\d{1,2}):)?(\d{1,2}):(\d{2}(?:\.\d+)?)\s*(?:\([^)]*\)\s*)*")


# ---------------------------------------------------------------------------------------------
# Dates
# ---------------------------------------------------------------------------------------------

_MONTHS = {
    "jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4, "april": 4,
    "may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8, "sep": 9,
    "sept": 9, "september": 9, "oct": 10, "october": 10, "nov": 11, "november": 11, "dec": 12,
    "december": 12,
}  # fmt: skip
_MON = (
    r"(?P<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_WEEKDAY = r"(?:(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)[a-z]*\.?,?\s+)?"
_TIME = (
    r"(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:\s?[ap]\.?m\.?)?"
    r"(?:\s?(?:Z|UTC|GMT|[-+]\d{2}:?\d{2}))?)?"
)
_ORD = r"(?:st|nd|rd|th)?"
_DATE_FLAGS = re.IGNORECASE | re.ASCII
_ISO_DATE_RE = re.compile(rf"(?P<y>\d{{4}})(?P<s>[-/.])(?P<m>\d{{1,2}})(?P=s)(?P<d>\d{{1,2}}){_TIME}", _DATE_FLAGS)
_YEAR_LAST_RE = re.compile(
    rf"(?P<a>\d{{1,2}})(?P<s>[-/.])(?P<b>\d{{1,2}})(?P=s)(?P<y>\d{{4}}|\d{{2}}){_TIME}", _DATE_FLAGS
)
_DAY_MONTH_RE = re.compile(
    rf"{_WEEKDAY}(?P<d>\d{{1,2}}){_ORD}(?:[-\s]|\s*of\s+){_MON}(?:-|,?\s+)(?P<y>\d{{4}}|\d{{2}})"
    rf"{_TIME}",
    _DATE_FLAGS,
)
_MONTH_DAY_RE = re.compile(rf"{_WEEKDAY}{_MON}\s*(?P<d>\d{{1,2}}){_ORD},?\s+(?P<y>\d{{4}}){_TIME}", _DATE_FLAGS)
_MONTH_YEAR_RE = re.compile(rf"{_MON}(?:-|,?\s+)(?P<y>\d{{4}})", _DATE_FLAGS)


def _two_digit_year(y: str) -> int:
    # Excel's pivot: 00-29 -> 2000-2029, 30-99 -> 1930-1999.
    year = int(y)
    if len(y) == 2:
        year += 2000 if year < 30 else 1900
    return year


def parse_date(text: str) -> datetime.date | None:
    """Return the calendar date a cell's text shows, or None when it is not a date.

    Accepted (any time of day after the date is ignored):
    ISO "2021-03-05" (also "2021/03/05", "2021-03-05T14:30:00Z", "2021-03-05 14:30:00");
    numeric with the year last — "/" and "-" read month first as in the US ("3/5/2021" is
    March 5) unless the first number is over 12 ("31/12/2021"), "." reads day first as in
    Europe ("05.03.2021" is 5 March); names in English — "5-Mar-2021", "05-Mar-21",
    "5 March 2021", "March 5, 2021", "Mar. 5th 2021", "Friday, March 5, 2021"; and a month
    with a year — "Mar 2021", "March 2021", "Mar-2021" — as the first of that month.
    Two-digit years follow Excel: 00-29 are 2000s, 30-99 are 1900s.  A bare year ("2019") is
    not a date: such columns are numbers.
    """
    s = text.strip()
    if not s or len(s) > 64 or not s[0].isalnum():
        return None
    try:
        m = _ISO_DATE_RE.fullmatch(s)
        if m:
            return datetime.date(int(m["y"]), int(m["m"]), int(m["d"]))
        m = _YEAR_LAST_RE.fullmatch(s)
        if m:
            a, b = int(m["a"]), int(m["b"])
            if m["s"] == "." or a > 12:
                a, b = b, a
            return datetime.date(_two_digit_year(m["y"]), a, b)
        m = _DAY_MONTH_RE.fullmatch(s)
        if m:
            return datetime.date(_two_digit_year(m["y"]), _MONTHS[m["mon"].lower()], int(m["d"]))
        m = _MONTH_DAY_RE.fullmatch(s)
        if m:
            return datetime.date(int(m["y"]), _MONTHS[m["mon"].lower()], int(m["d"]))
        m = _MONTH_YEAR_RE.fullmatch(s)
        if m:
            return datetime.date(int(m["y"]), _MONTHS[m["mon"].lower()], 1)
    except ValueError:  # the shape fits but there is no such day, e.g. 2021-02-30
        return None
    return None


def typed_value(text: str | None, dtype: Dtype) -> float | datetime.date | str | None:
    """Return a cell's value for table math: a float, a date, the text itself, or None.

    Empty or whitespace-only text is None.  In number, currency and percent columns the value is
    ``parse_number(text)`` (so "15%" is 15.0); in date columns ``parse_date(text)``; a value that
    does not parse in such a column is None rather than a guess.  Text columns return the text
    unchanged.
    """
    if text is None or not text.strip():
        return None
    if dtype == "text":
        return text
    if dtype == "date":
        return parse_date(text)
    return parse_number(text)


# ---------------------------------------------------------------------------------------------
# Dtype inference
# ---------------------------------------------------------------------------------------------


def _count_matches(pattern: re.Pattern[str], values: Sequence[str]) -> int:
    # map/filter keep the loop in C: no Python frame per value.
    return len(list(filter(None, map(pattern.fullmatch, values))))


def _reaches(pattern: re.Pattern[str], values: Sequence[str], target: float) -> bool:
    """Whether at least ``target`` values match, giving up as soon as that is out of reach."""
    allowed_misses = len(values) - target
    misses = 0
    for start in range(0, len(values), 4096):
        chunk = values[start : start + 4096]
        misses += len(chunk) - _count_matches(pattern, chunk)
        if misses > allowed_misses:
            return False
    return True


def infer_dtype(values: Sequence[str | None], currency_formatted: int = 0) -> Dtype:
    """Pick the dtype describing at least 90% of a column's non-blank values.

    Tried in order: percent, currency, number (any of the three forms), date, else text.
    ``currency_formatted`` counts workbook cells that hold a plain number shown with a currency
    number format; their text carries no symbol, so the format is the only evidence.
    Counting runs in C over whole columns (map/filter over compiled patterns) and stops early
    when a dtype can no longer reach 90%, which keeps a 100,000-row column in milliseconds.
    """
    nonempty: list[str] = list(filter(None, values))
    # Whitespace-only values are blank: they do not count, and they match no pattern below.
    n = len(nonempty) - sum(map(str.isspace, nonempty))
    if n == 0:
        return "text"
    need = _DTYPE_SHARE * n
    # Most numeric columns hold simple numbers ("-12.5"); only the rest needs the full patterns.
    rest = list(filterfalse(SIMPLE_NUMBER_RE.fullmatch, nonempty))
    n_simple = len(nonempty) - len(rest)
    if n_simple >= need or _reaches(ANY_NUMBER_RE, rest, need - n_simple):
        n_percent = 0
        if "".join(rest).count("%") >= need:  # cheap test before the full pattern
            n_percent = _count_matches(PERCENT_RE, rest)
        if n_percent >= need:
            return "percent"
        n_currency = 0
        if len(rest) + currency_formatted >= need:
            n_currency = _count_matches(CURRENCY_RE, rest)
        if n_currency + currency_formatted >= need:
            return "currency"
        # Zero-padded codes (ZIP codes, account numbers) must keep their text; a stray "05" in
        # a long column of amounts (under 1% of it) must not turn the amounts into text.
        if n_percent == 0 and n_currency == 0:
            zero_padded = len(LEADING_ZERO_RE.findall("\n" + "\n".join(nonempty)))
            if zero_padded and zero_padded >= 0.01 * n:
                return "text"
        return "number"
    # Dates need a real calendar check, so they are parsed in Python — once per distinct value,
    # stopping as soon as too many values have failed for the column to qualify.
    allowed_misses = n - need
    misses = 0
    for v, k in Counter(nonempty).items():
        if parse_date(v) is None and not v.isspace():
            misses += k
            if misses > allowed_misses:
                return "text"
    return "date"


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while building many long-lived objects."""
    # Parsing creates millions of small container objects that all stay alive; the cyclic
    # garbage collector would repeatedly rescan them for nothing.  Measured on 100,000 x 20:
    # CSV 2.4 s -> 1.8 s, XLSX 10.4 s -> 5.5 s.  Nothing here creates reference cycles, so
    # collection can safely wait until we are done (and it resumes even if parsing fails).
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
