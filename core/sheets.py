"""Parse CSV and XLSX files into plain tables whose every cell can be cited back to the original file.

Pure parsing: no database and no Streamlit.  Each table keeps, for every column, its A1 letter in the
original file and, for every data row, its row number in the original file, so that ``cell_ref``
can name the exact cell a value came from ("Funding!E12").  Cell text is kept as it is stored;
``typed_value`` turns it into a number or date for exact table math, guided by the inferred
column ``Dtype``.
"""

from __future__ import annotations

import csv
import datetime
import gc
import io
import posixpath
import re
import zipfile
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from itertools import compress, filterfalse
from typing import Literal

from core.errors import EmptyFile, MalformedSheet

Dtype = Literal["number", "currency", "percent", "date", "text"]

__all__ = [
    "Column",
    "Dtype",
    "ParsedSheet",
    "cell_ref",
    "col_letter",
    "parse_csv",
    "parse_date",
    "parse_number",
    "parse_xlsx",
    "typed_value",
]


@dataclass(frozen=True)
class Column:
    """One column of a parsed table."""

    position: int  # 0-based index into ParsedSheet.columns and into each row tuple
    name: str  # cleaned header text; "Column B" when blank; "Name (2)" for a repeat
    letter: str  # A1 column letters in the ORIGINAL file, even when leading columns were empty
    dtype: Dtype


@dataclass(frozen=True)
class ParsedSheet:
    """One table: a header row and the data rows under it, with their positions in the original file."""

    name: str  # XLSX sheet title; for a CSV the name the caller gave (e.g. the file stem)
    columns: tuple[Column, ...]
    rows: tuple[tuple[str | None, ...], ...]  # cell text as stored; None for an empty cell
    row_numbers: tuple[int, ...]  # 1-based row number in the original file of each data row
    header_row: int  # 1-based row number of the header row


# A dtype must describe at least this share of a column's non-empty values.
_DTYPE_SHARE = 0.9

# ---------------------------------------------------------------------------------------------
# Cell addresses
# ---------------------------------------------------------------------------------------------


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
# Numbers
# ---------------------------------------------------------------------------------------------

# The building blocks are shared by parse_number and by dtype inference.  Whitespace is spelled
# out (never \s) so that a value holding a line break is never a number.
_WS = r"[ \t\u00a0\u202f]*"
_SIGN = r"[-+\u2212]"
# Digits with correctly grouped thousand separators, or no separators; optional decimals and
# exponent ("1.5e-05" is how a float from a workbook is rendered).
_NUM = r"(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
# Magnitude suffixes seen in analysts' summary tables ("$1.2M", "3bn", "450K").
_MULT = r"(?:MM|mn|bn|Bn|BN|[KkMB])(?![A-Za-z])"
_NUMM = rf"{_NUM}(?:{_WS}{_MULT})?"
_CURRENCY_CODES = (
    "USD|EUR|GBP|JPY|CHF|CAD|AUD|NZD|CNY|RMB|HKD|SGD|INR|SEK|NOK|DKK|BRL|MXN|ZAR|KRW|RUB|TRY|PLN"
)
_CURRENCY_SYMBOLS = "€£¥₹₩₽₺₪₫฿₱₴₦₡₲₵₸"
_CUR = rf"(?:[A-Z]{{0,2}}\$|[{_CURRENCY_SYMBOLS}]|(?:{_CURRENCY_CODES})(?![A-Za-z]))"

_PLAIN_ALT = rf"(?:{_SIGN}{_WS})?{_NUMM}|\({_WS}{_NUMM}{_WS}\)"
_PERCENT_ALT = rf"(?:{_SIGN}{_WS})?{_NUM}{_WS}%|\({_WS}{_NUM}{_WS}%{_WS}\)"
_CURRENCY_ALT = (
    rf"(?:{_SIGN}{_WS})?{_CUR}{_WS}{_NUMM}"
    rf"|{_CUR}{_WS}{_SIGN}{_WS}{_NUMM}"
    rf"|(?:{_SIGN}{_WS})?{_NUMM}{_WS}{_CUR}"
    rf"|\({_WS}{_CUR}{_WS}{_NUMM}{_WS}\)"
    rf"|\({_WS}{_NUMM}{_WS}{_CUR}{_WS}\)"
    rf"|{_CUR}{_WS}\({_WS}{_NUMM}{_WS}\)"
)


# re.ASCII: only 0-9 are digits; Excel does not read "３" or "٣" as numbers either.
def _single(alt: str) -> re.Pattern[str]:
    return re.compile(rf"{_WS}(?:{alt}){_WS}", re.ASCII)


_PLAIN_RE = _single(_PLAIN_ALT)
_PERCENT_RE = _single(_PERCENT_ALT)
_CURRENCY_RE = _single(_CURRENCY_ALT)
_ANY_NUMBER_RE = _single(f"{_PLAIN_ALT}|{_PERCENT_ALT}|{_CURRENCY_ALT}")
# Integers written with a leading zero ("02134", "007") are codes, not quantities.
# (Searched in the column joined by "\n": the leading literal makes the scan fast.)
_LEADING_ZERO_RE = re.compile(rf"\n{_WS}{_SIGN}?0\d", re.ASCII)
_SIMPLE_NUMBER_RE = re.compile(r"-?\d+(?:\.\d+)?", re.ASCII)
_CORE_RE = re.compile(rf"({_NUM})(?:{_WS}({_MULT}))?", re.ASCII)
_MULTIPLIERS = {
    "K": Decimal(10**3),
    "k": Decimal(10**3),
    "M": Decimal(10**6),
    "MM": Decimal(10**6),
    "mn": Decimal(10**6),
    "B": Decimal(10**9),
    "bn": Decimal(10**9),
    "Bn": Decimal(10**9),
    "BN": Decimal(10**9),
}


def parse_number(text: str) -> float | None:
    """Return the number a cell's text shows, or None when the text is not a number.

    Accepted: thousand separators with correct 3-digit grouping ("12,000,000"), decimals (".5",
    "5."), exponents ("1.5e-05"), a leading "+", "-" or U+2212 minus, accounting negatives in
    parentheses ("(1,234)" -> -1234), percentages as written ("15%" -> 15.0, not 0.15), one
    currency symbol or ISO code before or after the number ("€3.5", "USD 1,000", "1,000 EUR",
    "US$5", "$(1,234.00)"), and a magnitude suffix K/k (10**3), M/MM/mn (10**6) or B/bn (10**9),
    so "$1.2M" -> 1200000.0 — suffixed values are computed through Decimal to avoid float noise.
    Not accepted: decimal commas ("1,5"), space or apostrophe grouping ("1 234", "1'234"),
    a trailing minus ("5-"), "nan"/"inf", and words ("1.2 million").
    """
    kind = _number_kind(text)
    if kind is None:
        return None
    m = _CORE_RE.search(text)
    if m is None:  # unreachable: every accepted form contains the core
        return None
    digits, mult = m.group(1).replace(",", ""), m.group(2)
    if mult:
        value = float(Decimal(digits) * _MULTIPLIERS[mult])
    else:
        value = float(digits)
    before = text[: m.start()]
    if "(" in before or "-" in before or "\u2212" in before:
        value = -value
    return value


def _number_kind(text: str) -> Literal["plain", "percent", "currency"] | None:
    """Classify text as a plain number, a percentage, an amount of money, or not a number."""
    if _PLAIN_RE.fullmatch(text):
        return "plain"
    if _PERCENT_RE.fullmatch(text):
        return "percent"
    if _CURRENCY_RE.fullmatch(text):
        return "currency"
    return None


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
_ISO_DATE_RE = re.compile(
    rf"(?P<y>\d{{4}})(?P<s>[-/.])(?P<m>\d{{1,2}})(?P=s)(?P<d>\d{{1,2}}){_TIME}", _DATE_FLAGS
)
_YEAR_LAST_RE = re.compile(
    rf"(?P<a>\d{{1,2}})(?P<s>[-/.])(?P<b>\d{{1,2}})(?P=s)(?P<y>\d{{4}}|\d{{2}}){_TIME}", _DATE_FLAGS
)
_DAY_MONTH_RE = re.compile(
    rf"{_WEEKDAY}(?P<d>\d{{1,2}}){_ORD}(?:[-\s]|\s*of\s+){_MON}(?:-|,?\s+)(?P<y>\d{{4}}|\d{{2}})"
    rf"{_TIME}",
    _DATE_FLAGS,
)
_MONTH_DAY_RE = re.compile(
    rf"{_WEEKDAY}{_MON}\s*(?P<d>\d{{1,2}}){_ORD},?\s+(?P<y>\d{{4}}){_TIME}", _DATE_FLAGS
)
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


def _infer_dtype(values: Sequence[str | None], currency_formatted: int = 0) -> Dtype:
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
    rest = list(filterfalse(_SIMPLE_NUMBER_RE.fullmatch, nonempty))
    n_simple = len(nonempty) - len(rest)
    if n_simple >= need or _reaches(_ANY_NUMBER_RE, rest, need - n_simple):
        n_percent = 0
        if "".join(rest).count("%") >= need:  # cheap test before the full pattern
            n_percent = _count_matches(_PERCENT_RE, rest)
        if n_percent >= need:
            return "percent"
        n_currency = 0
        if len(rest) + currency_formatted >= need:
            n_currency = _count_matches(_CURRENCY_RE, rest)
        if n_currency + currency_formatted >= need:
            return "currency"
        # Zero-padded codes (ZIP codes, account numbers) must keep their text; a stray "05" in
        # a long column of amounts (under 1% of it) must not turn the amounts into text.
        if n_percent == 0 and n_currency == 0:
            zero_padded = len(_LEADING_ZERO_RE.findall("\n" + "\n".join(nonempty)))
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


# ---------------------------------------------------------------------------------------------
# Building a table from records (shared by CSV and XLSX)
# ---------------------------------------------------------------------------------------------


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


def _clean_header(text: str) -> str:
    return " ".join(text.split())


def _header_names(raw: Sequence[str], letters: Sequence[str]) -> list[str]:
    """Clean header texts, name blank ones by column letter and number repeats "Name (2)"."""
    # Blank headers are named by their letter, and those names are reserved first so that a
    # real header reading "Column B" cannot take the name of blank column B.
    blank_names = {
        i: f"Column {letter}" for i, (t, letter) in enumerate(zip(raw, letters)) if not _clean_header(t)
    }
    taken = {n.casefold() for n in blank_names.values()}
    names: list[str] = []
    for i, text in enumerate(raw):
        if i in blank_names:
            names.append(blank_names[i])
            continue
        name = _clean_header(text)
        candidate, k = name, 2
        # Case-insensitive: database layers commonly fold identifiers, where "Amount" and
        # "amount" would collide.
        while candidate.casefold() in taken:
            candidate, k = f"{name} ({k})", k + 1
        taken.add(candidate.casefold())
        names.append(candidate)
    return names


_EMPTY_TO_NONE = {"": None}


def _build_table(
    name: str,
    records: Sequence[Sequence[str]],
    row_numbers: Sequence[int],
    currency_formatted: Sequence[int] = (),
) -> ParsedSheet | None:
    """Turn raw records into a ParsedSheet; None when every record is blank.

    Each record lists a row's cells from column A, "" for an empty cell.  The header is the first
    non-blank record (blank: every cell empty or whitespace).  Blank data records are dropped —
    their row numbers go with them, so citations stay exact.  Columns with neither a header nor
    any value are dropped too (spacer columns, trailing delimiters, the empty columns left of a
    table that starts in C3); every kept column keeps its original letter.
    """
    # A record is blank when its joined text is only whitespace; map/compress keep this in C.
    nonblank = list(compress(range(len(records)), map(str.strip, map("".join, records))))
    if not nonblank:
        return None
    header_index, data_index = nonblank[0], nonblank[1:]
    header = records[header_index]
    data = [records[i] for i in data_index]

    width = max(len(header), max(map(len, data), default=0))
    # Ragged rows: pad short records; long ones widen the table with header-less columns.
    header = list(header) + [""] * (width - len(header))
    if data and min(map(len, data)) < width:
        data = [rec if len(rec) == width else list(rec) + [""] * (width - len(rec)) for rec in data]

    columns_data = list(zip(*data)) if data else [() for _ in range(width)]
    keep = [j for j in range(width) if header[j].strip() or "".join(columns_data[j]).strip()]
    letters = [col_letter(j) for j in keep]
    names = _header_names([header[j] for j in keep], letters)
    # Empty cells become None; map() with dict.get does the swap without a Python-level loop.
    kept_columns = [
        col if "" not in col else tuple(map(_EMPTY_TO_NONE.get, col, col))
        for col in (columns_data[j] for j in keep)
    ]
    columns = tuple(
        Column(
            position=p,
            name=names[p],
            letter=letters[p],
            dtype=_infer_dtype(values, currency_formatted[j] if j < len(currency_formatted) else 0),
        )
        for p, (j, values) in enumerate(zip(keep, kept_columns))
    )
    rows = tuple(zip(*kept_columns)) if kept_columns else tuple(() for _ in data)
    return ParsedSheet(
        name=name,
        columns=columns,
        rows=rows,
        row_numbers=tuple(row_numbers[i] for i in data_index),
        header_row=row_numbers[header_index],
    )


# ---------------------------------------------------------------------------------------------
# CSV
# ---------------------------------------------------------------------------------------------

_DELIMITERS = (",", ";", "\t", "|")
_SNIFF_LINES = 50
_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xef\xbb\xbf", "utf-8-sig"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)
# C0 and C1 control characters other than tab, line feed and carriage return: text files have
# next to none, binary files decoded as text are full of them.
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_NON_ASCII_BYTE_RE = re.compile(rb"[\x80-\xff]")
_NOTHING_BUT_DELIMITERS_RE = re.compile(r"[\s,;|\"]*\Z")


def _csv_problem(name: str, reason: str) -> MalformedSheet:
    return MalformedSheet(
        f"{name} is not a readable CSV: {reason}. Save it as UTF-8 CSV and upload again."
    )


_WESTERN = frozenset({"cp1252", "latin_1", "iso8859_15"})


def _guess_legacy_encoding(data: bytes) -> str:
    """Best guess for bytes that are not UTF-8, biased towards Windows-1252.

    charset-normalizer alone often picks a Baltic or Central-European code page for short
    Western text ("Zürich" came out as cp775), yet spreadsheets saved as "CSV" by Excel on
    Western Windows are cp1252.  So cp1252 wins whenever charset-normalizer finds it nearly as
    plausible as its favourite; a clearly Cyrillic, Greek, Polish or Japanese file still gets its
    own code page.
    """
    from charset_normalizer import from_bytes  # imported lazily: only legacy files need it

    # Sample around the first non-ASCII bytes: they are the only ones that tell code pages apart,
    # and they may sit deep in a long, mostly ASCII file.
    windows: list[bytes] = []
    for i, m in enumerate(_NON_ASCII_BYTE_RE.finditer(data)):
        if i >= 400:
            break
        windows.append(data[max(0, m.start() - 120) : m.start() + 120])
    sample = b"\n".join(windows) if windows else data[:65536]
    matches = from_bytes(sample)
    best = matches.best()
    if best is None:
        return "cp1252"
    for match in matches:
        if _WESTERN.intersection((match.encoding, *match.could_be_from_charset)):
            if match.chaos <= best.chaos + 0.15:
                return "cp1252"  # _decode falls back to Latin-1 for bytes cp1252 lacks
            break
    return best.encoding


def _decode(data: bytes, name: str) -> str:
    """Decode CSV bytes: byte-order mark, else UTF-8, else the best legacy code page."""
    if data.startswith(b"PK\x03\x04"):
        raise MalformedSheet(
            f"{name} is an Excel workbook (.xlsx), not a CSV. Upload it with the .xlsx extension."
        )
    if data.startswith(b"\xd0\xcf\x11\xe0"):
        raise MalformedSheet(
            f"{name} is an old-format Excel (.xls) or password-protected file, not a CSV. "
            "Open it in Excel and save it as UTF-8 CSV or .xlsx, then upload again."
        )
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return data.decode(encoding)
            except UnicodeDecodeError as exc:
                raise _csv_problem(
                    name, f"it starts with a {encoding} marker but {exc.reason}"
                ) from exc
    if b"\x00" in data:
        raise _csv_problem(name, "it contains NUL bytes, so it is binary rather than text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    for encoding in (_guess_legacy_encoding(data), "cp1252", "latin-1"):
        try:
            return data.decode(encoding)
        except (UnicodeDecodeError, LookupError):
            continue
    raise AssertionError("latin-1 decodes any bytes")  # pragma: no cover


def _csv_reader(text: str, delimiter: str, escaped: bool, strict: bool) -> Iterator[list[str]]:
    # newline="" keeps "\r\n" inside quoted fields intact, as the csv module requires.
    source = io.StringIO(text, newline="")
    if escaped:
        return csv.reader(
            source,
            delimiter=delimiter,
            quotechar='"',
            escapechar="\\",
            doublequote=False,
            strict=strict,
        )
    return csv.reader(source, delimiter=delimiter, quotechar='"', doublequote=True, strict=strict)


def _consistency(records: Sequence[Sequence[str]]) -> tuple[bool, float, int]:
    """Score a parse: (splits into columns, share of records with the usual width, that width).

    "Splits into columns" needs the usual width to exceed 1 and either the first record (the
    header) to split too or 90% of records to agree: a single-column file with a stray ";" in a
    value or two must not come out as two columns, while a table under a one-cell title line
    still counts.
    """
    widths = [len(r) for r in records if r]
    if not widths:
        return (False, 0.0, 0)
    width, freq = max(Counter(widths).items(), key=lambda kv: (kv[1], kv[0]))
    share = freq / len(widths)
    return (width > 1 and (widths[0] > 1 or share >= 0.9), share, width)


def _sniff_delimiter(text: str) -> str:
    """Choose the delimiter whose parse of the first ~50 lines gives the most consistent widths.

    csv.Sniffer guesses from character frequencies and is easily fooled (e.g. by decimal commas);
    parsing each candidate and comparing column counts is more robust.  A candidate must split
    the lines into columns to count (see _consistency); ties go to more columns, then to the
    order , ; tab |.  A single-column file comes back as ",".
    """
    # Old Mac exports end lines with a lone "\r"; count those lines instead.
    start = text[:65536]
    newline = "\r" if "\n" not in start and "\r" in start else "\n"
    end = -1
    for _ in range(_SNIFF_LINES):
        end = text.find(newline, end + 1)
        if end < 0:
            break
    sample = text if end < 0 else text[: end + 1]
    truncated = end >= 0 and end + 1 < len(text)
    dialects = (False, True) if '\\"' in sample else (False,)
    best: tuple[tuple[bool, float, int], int] | None = None
    best_delimiter = ","
    for priority, delimiter in enumerate(_DELIMITERS):
        for escaped in dialects:
            try:
                records = list(_csv_reader(sample, delimiter, escaped, strict=False))
            except csv.Error:
                continue
            if truncated and records:
                records.pop()  # may have been cut inside a quoted field
            key = (_consistency(records), -priority)
            if best is None or key > best:
                best, best_delimiter = key, delimiter
    return best_delimiter


def _read_records(text: str, delimiter: str, name: str) -> list[list[str]]:
    """Parse the whole text, choosing between standard "" quoting and backslash-escaped quotes.

    Standard CSV doubles a quote inside a quoted field; some exports (WikiTableQuestions, MySQL)
    write \\" instead.  Only when the text contains \\" and a strict standard parse fails do we
    try the backslash dialect — it is never the default because it would eat the backslashes
    of a Windows path in an ordinary file.
    """

    def parse(escaped: bool, strict: bool) -> list[list[str]]:
        records: list[list[str]] = []
        try:
            records.extend(_csv_reader(text, delimiter, escaped, strict))
        except csv.Error as exc:
            if "field larger than field limit" in str(exc):
                raise _csv_problem(
                    name,
                    f"a field starting in row {len(records) + 1} runs on for over "
                    f"{csv.field_size_limit():,} characters, usually because of a quote that is "
                    "never closed",
                ) from exc
            raise
        return records

    if '\\"' not in text:
        return parse(escaped=False, strict=False)
    try:
        return parse(escaped=False, strict=True)
    except csv.Error:
        pass
    try:
        return parse(escaped=True, strict=True)
    except csv.Error:
        pass
    standard = parse(escaped=False, strict=False)
    escaped = parse(escaped=True, strict=False)
    return escaped if _consistency(escaped)[1:] > _consistency(standard)[1:] else standard


def parse_csv(data: bytes, name: str) -> ParsedSheet:
    """Parse CSV bytes into one table named ``name``.

    Encoding: a byte-order mark (UTF-8/16/32) wins, then UTF-8, then a legacy code page guessed
    with charset-normalizer and biased to Windows-1252.  Delimiter: whichever of , ; tab | gives
    the most consistent column counts over the first ~50 lines.  Quoted fields may hold
    delimiters and line breaks; \\" escapes are understood when the file uses them.

    Cell text is kept exactly as in the file (no trimming); only an empty field becomes None.
    Rows are numbered the way Excel numbers them when it opens the file: by CSV record, with the
    first record (normally the header) as row 1 — a record whose quoted field spans three lines
    is still one row, so later row numbers count records, not physical lines.  The header is the
    first non-blank record; blank records are dropped (their numbers are skipped, not reused).
    Short rows are padded with None; long rows add columns named by letter ("Column F").

    Raises EmptyFile for 0 bytes and MalformedSheet, with what to do, for binary or unreadable
    input.
    """
    if not data:
        raise EmptyFile(f"{name} is empty (0 bytes). Check that the export finished and upload again.")
    with gc_paused():
        text = _decode(data, name)
        if text.startswith("\ufeff"):  # a second BOM left by a double conversion
            text = text[1:]
        head = text[:1_000_000]
        if head and len(_CONTROL_RE.findall(head)) > 0.01 * len(head):
            raise _csv_problem(name, "it is full of control characters, so it looks like a binary file")
        if _NOTHING_BUT_DELIMITERS_RE.match(text):
            raise _csv_problem(name, "it has no columns (every line is empty)")
        delimiter = _sniff_delimiter(text)
        try:
            records = _read_records(text, delimiter, name)
        except csv.Error as exc:
            raise _csv_problem(name, f"its structure could not be parsed ({exc})") from exc
        table = _build_table(name, records, range(1, len(records) + 1))
    if table is None:
        raise _csv_problem(name, "it has no columns (every line is empty)")
    return table


# ---------------------------------------------------------------------------------------------
# XLSX
#
# The package and worksheet XML are streamed with ElementTree; openpyxl supplies the tested
# pieces (built-in number formats, date detection and conversion, shared-formula translation).
# Why not openpyxl's reader itself: on this project's 2-core machine its read-only mode needed
# ~18 s merely to iterate the values of a 100,000 x 20 sheet (full mode is slower still), against
# ~5.5 s for the whole of parse_xlsx here; and read-only mode cannot see merged cells, which this
# reader picks up in the same pass.  tests/unit/test_sheets.py checks it against openpyxl.
# ---------------------------------------------------------------------------------------------

# Locale tags such as [$-409] say nothing about currency; [$€-407] and [$USD] do.
_LOCALE_TAG_RE = re.compile(r"\[\$-[0-9A-Fa-f]+\]")
_CURRENCY_FORMAT_RE = re.compile(rf"[${_CURRENCY_SYMBOLS}]|\[\$[^\]\-]")
_FORMAT_LITERAL_RE = re.compile(r'"[^"]*"|\\.')


def _format_category(number_format: str | None) -> Literal["percent", "currency"] | None:
    """Say whether a number format shows a percentage or an amount of money."""
    if not number_format or number_format == "General":
        return None
    positive = number_format.split(";")[0]
    # A quoted "%" is printed as is, but an unquoted % multiplies the value by 100 on display.
    if "%" in _FORMAT_LITERAL_RE.sub("", positive):
        return "percent"
    if _CURRENCY_FORMAT_RE.search(_LOCALE_TAG_RE.sub("", positive)):
        return "currency"
    return None


def _number_text(value: int | float) -> str:
    """Text of a stored number as Excel shows it: 12000000.0 -> "12000000", 0.15 -> "0.15".

    Excel keeps 15 significant digits for display and for "Save as CSV", so that is used here:
    0.1 + 0.2 (stored as 0.30000000000000004) is "0.3", as the analyst sees it, and the CSV and
    XLSX versions of one sheet give the same text.  Whenever a double has a decimal form of 15
    digits or fewer, this is exactly its shortest round-trip repr, so nothing is lost.
    """
    if isinstance(value, int):
        return str(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return format(value, ".15g")


def _percent_text(value: int | float) -> str:
    """Text of a percent-formatted number as Excel shows it, unrounded: 0.15 -> "15%"."""
    scaled = (Decimal(format(value, ".15g")) * 100).normalize()
    return format(scaled, "f") + "%"


def _timedelta_text(value: datetime.timedelta) -> str:
    seconds = value.total_seconds()
    sign = "-" if seconds < 0 else ""
    whole = int(abs(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{sign}{hours}:{minutes:02d}:{secs:02d}"


def _value_text(value: object) -> str:
    """Text for a non-numeric workbook value (numbers are handled inline for speed)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, datetime.datetime):
        if value.hour == value.minute == value.second == value.microsecond == 0:
            return value.date().isoformat()
        return value.isoformat(sep=" ", timespec="milliseconds" if value.microsecond else "seconds")
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, datetime.timedelta):
        return _timedelta_text(value)
    return str(value)


_COORD_RE = re.compile(r"\$?([A-Za-z]{1,3})\$?(\d+)")
_DIGITS = "0123456789"


def _col_index(letters: str) -> int:
    """0-based column index of A1 letters: "A" -> 0, "AA" -> 26."""
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - 64
    return n - 1


def _coord(ref: str) -> tuple[int, int]:
    """(1-based row, 0-based column) of an A1 reference such as "B3" or "$B$3"."""
    m = _COORD_RE.fullmatch(ref)
    if m is None:
        raise ValueError(f"not a cell reference: {ref!r}")
    return int(m.group(2)), _col_index(m.group(1))


# Transitional (what Excel writes) and Strict OOXML use different namespaces for the same parts.
_MAIN_NAMESPACES = (
    "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
    "http://purl.oclc.org/ooxml/spreadsheetml/main",
)
_ESCAPED_CHAR_RE = re.compile(r"_x([0-9A-Fa-f]{4})_")


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]


def _unescape_ooxml(text: str) -> str:
    # OOXML writes characters XML cannot hold as _xHHHH_ (a carriage return is _x000D_, and a
    # literal "_x" sequence is protected as _x005F_x...).  Scanning left to right decodes both.
    return _ESCAPED_CHAR_RE.sub(lambda m: chr(int(m.group(1), 16)), text) if "_x" in text else text


class _XmlSource:
    """A zip member as a file for ElementTree, refusing any DOCTYPE.

    Spreadsheet XML never has a DOCTYPE; refusing one shuts out entity-expansion tricks before
    the parser sees them (expat also limits expansion, this is belt and braces).
    """

    def __init__(self, zf: zipfile.ZipFile, path: str) -> None:
        self._stream = zf.open(path)
        head = self._stream.read(8192)
        if b"<!doctype" in head.lower():
            self._stream.close()
            raise ValueError(f"{path} declares a DOCTYPE, which spreadsheet XML never does")
        self._head: bytes | None = head

    def read(self, size: int = -1) -> bytes:
        if self._head is not None:
            head, self._head = self._head, None
            return head
        return self._stream.read(size)

    def close(self) -> None:
        self._stream.close()


def _parse_small_xml(zf: zipfile.ZipFile, path: str) -> ET.Element:
    source = _XmlSource(zf, path)
    try:
        parser = ET.XMLParser()
        while chunk := source.read(1 << 20):
            parser.feed(chunk)
        return parser.close()
    finally:
        source.close()


class _Workbook:
    """The parts of an .xlsx package needed to read cell values, located through its relationships."""

    def __init__(self, zf: zipfile.ZipFile) -> None:
        self.zf = zf
        # Member names are matched case-insensitively: some generators disagree with their own
        # relationship targets about case.
        self._names = {info.filename.lower(): info.filename for info in zf.infolist()}
        office = self._rels("")
        wb_path = next(
            (target for kind, target in office.values() if kind.endswith("/officeDocument")),
            "xl/workbook.xml",
        )
        root = _parse_small_xml(zf, self._member(wb_path))
        ns = root.tag[1:].partition("}")[0] if root.tag.startswith("{") else ""
        if ns not in _MAIN_NAMESPACES:
            raise ValueError(f"{wb_path} is not a spreadsheet workbook")
        self.ns = "{" + ns + "}"
        date1904 = any(
            _local(el.tag) == "workbookPr" and el.get("date1904", "").lower() in ("1", "true")
            for el in root
        )
        from openpyxl.utils.datetime import MAC_EPOCH, WINDOWS_EPOCH

        self.epoch = MAC_EPOCH if date1904 else WINDOWS_EPOCH
        rels = self._rels(wb_path)
        self.sheets: list[tuple[str, str]] = []  # (title, member path) of each worksheet
        sheets_el = root.find(self.ns + "sheets")
        for sheet in sheets_el if sheets_el is not None else ():
            rid = next((v for k, v in sheet.attrib.items() if _local(k) == "id"), None)
            kind, target = rels.get(rid or "", ("", ""))
            if kind.endswith("/worksheet"):  # not chartsheets, dialog or macro sheets
                self.sheets.append((sheet.get("name", ""), self._member(target)))
        by_kind = {kind.rpartition("/")[2]: target for kind, target in rels.values()}
        self.strings = self._read_strings(by_kind.get("sharedStrings"))
        self.style_kinds = self._read_styles(by_kind.get("styles"))

    def _member(self, path: str) -> str:
        name = self._names.get(path.lower())
        if name is None:
            raise KeyError(f"the package has no part {path!r}")
        return name

    def _rels(self, part: str) -> dict[str, tuple[str, str]]:
        """Relationship id -> (type, member path) for a part ("" for the package itself)."""
        folder, base = posixpath.split(part)
        rels_path = posixpath.join(folder, "_rels", base + ".rels")
        if rels_path.lower() not in self._names:
            return {}
        out: dict[str, tuple[str, str]] = {}
        for rel in _parse_small_xml(self.zf, self._member(rels_path)):
            if _local(rel.tag) != "Relationship" or rel.get("TargetMode") == "External":
                continue
            target = rel.get("Target", "").replace("\\", "/")
            if target.startswith("/"):
                path = target.lstrip("/")
            else:
                path = posixpath.normpath(posixpath.join(folder, target))
            out[rel.get("Id", "")] = (rel.get("Type", ""), path)
        return out

    def text_of(self, el: ET.Element) -> str:
        """Plain text of a shared or inline string: its runs joined, phonetic guides left out."""
        t_tag, r_tag = self.ns + "t", self.ns + "r"
        parts = []
        for child in el:
            if child.tag == t_tag:
                parts.append(child.text or "")
            elif child.tag == r_tag:
                t = child.find(t_tag)
                if t is not None and t.text:
                    parts.append(t.text)
        return _unescape_ooxml("".join(parts))

    def _read_strings(self, path: str | None) -> list[str]:
        if path is None or path.lower() not in self._names:
            return []
        strings: list[str] = []
        si_tag = self.ns + "si"
        source = _XmlSource(self.zf, self._member(path))
        try:
            for _, el in ET.iterparse(source):
                if el.tag == si_tag:
                    strings.append(self.text_of(el))
                    el.clear()
        finally:
            source.close()
        return strings

    def _read_styles(self, path: str | None) -> list[str | None]:
        """For each cell style index: "date", "timedelta", "percent", "currency" or None."""
        if path is None or path.lower() not in self._names:
            return []
        from openpyxl.styles.numbers import BUILTIN_FORMATS, is_date_format, is_timedelta_format

        root = _parse_small_xml(self.zf, self._member(path))
        custom = {
            int(el.get("numFmtId", "-1")): el.get("formatCode", "")
            for el in root.iter(self.ns + "numFmt")
        }
        kinds: list[str | None] = []
        xfs = root.find(self.ns + "cellXfs")
        for xf in xfs.findall(self.ns + "xf") if xfs is not None else ():
            fmt_id = int(xf.get("numFmtId", "0"))
            fmt = custom.get(fmt_id) or BUILTIN_FORMATS.get(fmt_id) or "General"
            if is_date_format(fmt):
                kinds.append("timedelta" if is_timedelta_format(fmt) else "date")
            else:
                kinds.append(_format_category(fmt))
        return kinds

    def read_sheet(self, title: str, path: str) -> ParsedSheet | None:
        """Read one worksheet into a table (None when it holds no data)."""
        return _SheetReader(self).read(title, path)


class _SheetReader:
    """Streams one worksheet's XML into records of cell text.

    Values are the cached results Excel stored (what openpyxl calls data_only); a formula cell
    with no cached value gets its formula text instead (see parse_xlsx).  The common cells — a
    number or a shared string in a lone <v> — are handled inline in ``read``; everything else
    goes through ``_other_cell``.
    """

    def __init__(self, workbook: _Workbook) -> None:
        ns = workbook.ns
        self.workbook = workbook
        self.v_tag, self.f_tag, self.is_tag = ns + "v", ns + "f", ns + "is"
        self.kind_of_style = {str(i): kind for i, kind in enumerate(workbook.style_kinds) if kind}
        self.currency_formatted: list[int] = []  # per column: numbers shown as money
        self.date_texts: dict[tuple[str, str], str] = {}
        self.shared_formulas: dict[str, tuple[str, str]] = {}  # id -> (formula, origin cell)

    def read(self, title: str, path: str) -> ParsedSheet | None:
        ns = self.workbook.ns
        row_tag, c_tag, merge_tag, v_tag = ns + "row", ns + "c", ns + "mergeCell", self.v_tag
        strings, kind_of_style = self.workbook.strings, self.kind_of_style
        column_of: dict[str, int] = {}
        records: list[list[str]] = []  # "" for an empty cell, as in a CSV record
        row_numbers: list[int] = []
        merges: list[tuple[int, int, int, int]] = []
        row_number = 0

        source = _XmlSource(self.workbook.zf, path)
        try:
            for _, el in ET.iterparse(source):
                tag = el.tag
                if tag == row_tag:
                    r = el.get("r")
                    row_number = int(r) if r else row_number + 1
                    texts: list[str] = []
                    col = -1
                    for c in el:
                        if c.tag != c_tag:
                            continue
                        ref = c.get("r")
                        letters = ref.rstrip(_DIGITS) if ref else ""
                        if letters:
                            col = column_of.get(letters, -1)
                            if col < 0:
                                col = column_of[letters] = _col_index(letters)
                        else:  # some generators leave out r=: cells then follow each other
                            col += 1
                        t = c.get("t")
                        if len(c) == 1 and c[0].tag == v_tag and (t is None or t == "n" or t == "s"):
                            v = c[0].text
                            if not v:
                                continue
                            if t == "s":
                                text = strings[int(v)]
                            else:
                                kind = kind_of_style.get(c.get("s", "0"))
                                if kind is None and v.isdigit() and (v[0] != "0" or len(v) == 1):
                                    text = v  # an integer already in its shortest form
                                else:
                                    text = self._number_cell(v, kind, col)
                        else:
                            text = self._other_cell(c, t, ref or "", col)
                        if not text:
                            continue
                        if col == len(texts):
                            texts.append(text)
                        elif col > len(texts):
                            texts.extend([""] * (col - len(texts)))
                            texts.append(text)
                        else:
                            texts[col] = text
                    if texts:
                        records.append(texts)
                        row_numbers.append(row_number)
                    el.clear()
                elif tag == merge_tag:
                    first, _, last = el.get("ref", "").partition(":")
                    try:
                        r1, c1 = _coord(first)
                        r2, c2 = _coord(last or first)
                    except ValueError:
                        continue
                    merges.append((min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2)))
        finally:
            source.close()

        if merges and records:
            records, row_numbers = _fill_merges(records, row_numbers, merges)
        return _build_table(title, records, row_numbers, self.currency_formatted)

    def _number_cell(self, v: str, kind: str | None, col: int) -> str:
        """Text of a numeric cell given its number-format kind (see _Workbook._read_styles)."""
        if kind is None or kind == "currency":
            if kind == "currency":
                counts = self.currency_formatted
                if len(counts) <= col:
                    counts.extend([0] * (col + 1 - len(counts)))
                counts[col] += 1
            return _number_text(float(v) if ("." in v or "E" in v or "e" in v) else int(v))
        if kind == "percent":
            return _percent_text(float(v))
        # Dates repeat a lot down a column; convert each serial number once.
        key = (v, kind)
        text = self.date_texts.get(key)
        if text is None:
            from openpyxl.utils.datetime import from_excel

            number = float(v)
            try:
                converted = from_excel(number, self.workbook.epoch, timedelta=kind == "timedelta")
                text = _value_text(converted)
            except (OverflowError, ValueError):  # a serial beyond the calendar: keep the number
                text = _number_text(number)
            self.date_texts[key] = text
        return text

    def _other_cell(self, c: ET.Element, t: str | None, ref: str, col: int) -> str:
        """Text of any other cell: formulas, inline strings, booleans, errors, ISO dates."""
        v_el = c.find(self.v_tag)
        v = (v_el.text or "") if v_el is not None else None
        f = c.find(self.f_tag)
        if f is not None:
            formula = f.text
            if f.get("t") == "shared":
                # A shared formula is written once, on its first cell; the others only say
                # which one they share.
                si = f.get("si", "")
                if formula:
                    self.shared_formulas[si] = (formula, ref or "A1")
                elif si in self.shared_formulas and ref:
                    formula = self._shift(*self.shared_formulas[si], ref)
            # No cached value: never calculated (no <v>, or an empty one where a number belongs;
            # an empty <v> on a text result is a cached empty string).
            uncached = v is None or (not v and t not in ("str", "s", "inlineStr", "e"))
            if uncached:
                return "=" + formula if formula else ""
        if t == "inlineStr":
            is_el = c.find(self.is_tag)
            return self.workbook.text_of(is_el) if is_el is not None else ""
        if not v:
            return ""
        if t is None or t == "n":
            return self._number_cell(v, self.kind_of_style.get(c.get("s", "0")), col)
        if t == "s":
            return self.workbook.strings[int(v)]
        if t == "b":
            return "TRUE" if v.strip() in ("1", "true") else "FALSE"
        if t == "d":
            from openpyxl.utils.datetime import from_ISO8601

            try:
                return _value_text(from_ISO8601(v))
            except (TypeError, ValueError):
                return v
        return _unescape_ooxml(v)  # "str": a formula's text result; "e": an error like #DIV/0!

    @staticmethod
    def _shift(master: str, origin: str, ref: str) -> str | None:
        """The shared formula ``master`` (written at ``origin``) as it reads at cell ``ref``."""
        from openpyxl.formula.translate import Translator

        try:
            return Translator("=" + master, origin=origin).translate_formula(ref)[1:]
        except Exception:  # a shift openpyxl cannot make (e.g. off the sheet's edge)
            return None


def _fill_merges(
    records: list[list[str]],
    row_numbers: list[int],
    merges: list[tuple[int, int, int, int]],
) -> tuple[list[list[str]], list[int]]:
    """Copy each merged range's top-left value into every cell of the range.

    Excel stores a merged value only in the top-left cell.  Table math over a merged "Region"
    cell spanning five rows must see "North" on all five rows, so the value is repeated.  Ranges
    are clipped to the rows and columns that hold data, so a merge across a whole row costs
    nothing.
    """
    by_row = dict(zip(row_numbers, records))
    last_row = max(row_numbers)
    last_col = max(len(rec) for rec in records) - 1
    for r1, c1, r2, c2 in merges:
        top = by_row.get(r1)
        value = top[c1] if top is not None and c1 < len(top) else ""
        if not value:
            continue
        right = min(c2, last_col)
        for r in range(r1, min(r2, last_row) + 1):
            cells = by_row.setdefault(r, [])
            if len(cells) <= right:
                cells.extend([""] * (right + 1 - len(cells)))
            for c in range(c1, right + 1):
                cells[c] = value
    ordered = sorted(by_row)
    return [by_row[r] for r in ordered], ordered


def _xlsx_problem(name: str, reason: str) -> MalformedSheet:
    return MalformedSheet(
        f"{name} is not a valid .xlsx workbook: {reason}. "
        "Open it in Excel, save it as .xlsx (Excel Workbook) and upload again."
    )


def parse_xlsx(
    data: bytes,
    *,
    name: str = "The workbook",
    max_uncompressed_bytes: int = 500_000_000,
) -> list[ParsedSheet]:
    """Parse every worksheet that holds data into a table, in workbook order.

    Values are those Excel cached at its last save (openpyxl's ``data_only=True``).  A file never
    opened in Excel (written by openpyxl or an exporter) has no cached values, so such a cell gets
    its formula text, e.g. "=SUM(B2:B4)", rather than coming out empty; xlsxwriter files cache 0,
    which cannot be told from a real 0.  Merged ranges are read from the sheet XML (openpyxl's
    read-only mode cannot see them) and each range's top-left value fills all its cells.
    Numbers read as Excel shows them with 15 significant digits ("12000000", "0.15", "0.3" not
    "0.30000000000000004"), percent-formatted cells as "15%", dates as ISO ("2021-03-05",
    "2021-03-05 14:30:00"), booleans as "TRUE"/"FALSE"; a currency format marks a column
    currency.  Header, columns and row numbers follow the rules of ``_build_table``.  Hidden
    sheets are included; chart sheets are not.

    Raises EmptyFile for 0 bytes and MalformedSheet, saying what to do, for anything unreadable —
    including a package declaring more than ``max_uncompressed_bytes`` unzipped, refused before
    anything is inflated.  ``name`` is used in those messages.
    """
    if not data:
        raise EmptyFile(f"{name} is empty (0 bytes). Check that the export finished and upload again.")
    if data.startswith(b"\xd0\xcf\x11\xe0"):
        raise MalformedSheet(
            f"{name} is an old-format Excel (.xls) or password-protected workbook. Open it in Excel, "
            "remove any password, save it as .xlsx (Excel Workbook) and upload again."
        )
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as exc:
        raise _xlsx_problem(name, "it is not a zip archive, as every .xlsx file is") from exc
    declared = sum(info.file_size for info in infos)
    if declared > max_uncompressed_bytes:
        zf.close()
        raise MalformedSheet(
            f"{name} would unpack to {declared / 1e6:,.0f} MB, over the "
            f"{max_uncompressed_bytes / 1e6:,.0f} MB limit (it may be corrupt or a zip bomb). "
            "If the data is genuine, split it into smaller workbooks or export each sheet as CSV."
        )

    sheets: list[ParsedSheet] = []
    with zf, gc_paused():
        try:
            workbook = _Workbook(zf)
        except Exception as exc:  # a damaged package fails in many ways; all mean the same
            raise _xlsx_problem(name, f"its structure could not be read ({exc})") from exc
        for title, path in workbook.sheets:
            try:
                sheet = workbook.read_sheet(title, path)
            except Exception as exc:
                raise _xlsx_problem(name, f"sheet {title!r} could not be read ({exc})") from exc
            if sheet is not None:
                sheets.append(sheet)
    return sheets
