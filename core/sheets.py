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
import html
import io
import re
import zipfile
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
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


def _single(alt: str) -> re.Pattern[str]:
    return re.compile(rf"{_WS}(?:{alt}){_WS}")


_PLAIN_RE = _single(_PLAIN_ALT)
_PERCENT_RE = _single(_PERCENT_ALT)
_CURRENCY_RE = _single(_CURRENCY_ALT)
# Integers written with a leading zero ("02134", "007") are codes, not quantities.
_LEADING_ZERO_RE = re.compile(rf"{_WS}{_SIGN}?0\d")
_CORE_RE = re.compile(rf"({_NUM})(?:{_WS}({_MULT}))?")
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
_ISO_DATE_RE = re.compile(rf"(?P<y>\d{{4}})(?P<s>[-/.])(?P<m>\d{{1,2}})(?P=s)(?P<d>\d{{1,2}}){_TIME}", re.I)
_YEAR_LAST_RE = re.compile(
    rf"(?P<a>\d{{1,2}})(?P<s>[-/.])(?P<b>\d{{1,2}})(?P=s)(?P<y>\d{{4}}|\d{{2}}){_TIME}", re.I
)
_DAY_MONTH_RE = re.compile(
    rf"{_WEEKDAY}(?P<d>\d{{1,2}}){_ORD}(?:[-\s]|\s*of\s+){_MON}(?:-|,?\s+)(?P<y>\d{{4}}|\d{{2}}){_TIME}",
    re.I,
)
_MONTH_DAY_RE = re.compile(rf"{_WEEKDAY}{_MON}\s*(?P<d>\d{{1,2}}){_ORD},?\s+(?P<y>\d{{4}}){_TIME}", re.I)
_MONTH_YEAR_RE = re.compile(rf"{_MON}(?:-|,?\s+)(?P<y>\d{{4}})", re.I)


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


def _infer_dtype(values: Sequence[str | None], currency_formatted: int = 0) -> Dtype:
    """Pick the dtype describing at least 90% of a column's non-blank values.

    ``currency_formatted`` counts workbook cells that hold a plain number shown with a currency
    number format; their text carries no symbol, so the format is the only evidence.
    """
    nonempty: list[str] = list(filter(None, values))
    n = len(nonempty) - sum(map(str.isspace, nonempty))
    if n == 0:
        return "text"
    need = _DTYPE_SHARE * n
    # Whitespace-only values match no pattern below, so they never count for a dtype.  Plain
    # numbers come first because they are the most common; a column that is 90% plain numbers
    # cannot also be 90% percentages or amounts with a symbol.
    n_plain = _count_matches(_PLAIN_RE, nonempty)
    if n_plain >= need:
        if currency_formatted >= need:
            return "currency"
        # Zero-padded codes (ZIP codes, account numbers) must keep their text.
        if any(map(_LEADING_ZERO_RE.match, nonempty)):
            return "text"
        return "number"
    n_percent = 0
    if "".join(nonempty).count("%") >= need:  # cheap test before the full pattern
        n_percent = _count_matches(_PERCENT_RE, nonempty)
        if n_percent >= need:
            return "percent"
    n_currency = _count_matches(_CURRENCY_RE, nonempty)
    if n_currency + currency_formatted >= need:
        return "currency"
    if n_plain + n_percent + n_currency >= need:
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
def _gc_paused() -> Iterator[None]:
    # Parsing creates millions of small container objects that all stay alive; the cyclic
    # garbage collector would repeatedly rescan them for nothing (it roughly doubles parse time).
    # Nothing here creates reference cycles, so collection can safely wait until we are done.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _is_blank_record(record: Sequence[str | None]) -> bool:
    return not any(record) or not "".join(filter(None, record)).strip()


def _clean_header(text: str | None) -> str:
    return " ".join(text.split()) if text else ""


def _header_names(raw: Sequence[str | None], letters: Sequence[str]) -> list[str]:
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
    records: Sequence[Sequence[str | None]],
    row_numbers: Sequence[int],
    currency_formatted: Sequence[int] = (),
) -> ParsedSheet | None:
    """Turn raw records (all cells from column A) into a ParsedSheet; None when all are blank.

    The header is the first non-blank record.  Blank data records are dropped — their row numbers
    go with them, so citations stay exact.  Columns with neither a header nor any value are
    dropped too (spacer columns, trailing delimiters, the empty columns left of a table that
    starts in C3); every kept column keeps its original letter.
    """
    header_index = next((i for i, rec in enumerate(records) if not _is_blank_record(rec)), None)
    if header_index is None:
        return None
    header = records[header_index]
    data_index = [
        i for i in range(header_index + 1, len(records)) if not _is_blank_record(records[i])
    ]
    data = [records[i] for i in data_index]

    width = max(len(header), max(map(len, data), default=0))
    # Ragged rows: pad short records; long ones widen the table with header-less columns.
    header = list(header) + [None] * (width - len(header))
    if data and min(map(len, data)) < width:
        data = [rec if len(rec) == width else list(rec) + [None] * (width - len(rec)) for rec in data]

    columns_data = list(zip(*data)) if data else [() for _ in range(width)]
    keep = [
        j
        for j in range(width)
        if (header[j] and header[j].strip())
        or "".join(filter(None, columns_data[j])).strip()
    ]
    letters = [col_letter(j) for j in keep]
    names = _header_names([header[j] for j in keep], letters)
    # "" (CSV) and None (XLSX) both mean empty; map() with dict.get swaps "" for None in C.
    kept_columns = [list(map(_EMPTY_TO_NONE.get, columns_data[j], columns_data[j])) for j in keep]
    columns = tuple(
        Column(
            position=p,
            name=names[p],
            letter=letters[p],
            dtype=_infer_dtype(
                values, currency_formatted[j] if j < len(currency_formatted) else 0
            ),
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


def _csv_problem(name: str, reason: str) -> MalformedSheet:
    return MalformedSheet(
        f"{name} is not a readable CSV: {reason}. Save it as UTF-8 CSV and upload again."
    )


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
        if "cp1252" in (match.encoding, *match.could_be_from_charset):
            if match.chaos <= best.chaos + 0.15:
                return "cp1252"
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
                raise _csv_problem(name, f"it starts with a {encoding} marker but {exc.reason}")
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
    """Score a parse: (splits into several columns, share of records with the usual width, width)."""
    counts = Counter(len(r) for r in records if r)
    if not counts:
        return (False, 0.0, 0)
    width, freq = max(counts.items(), key=lambda kv: (kv[1], kv[0]))
    return (width > 1, freq / sum(counts.values()), width)


def _sniff_delimiter(text: str) -> str:
    """Choose the delimiter whose parse of the first ~50 lines gives the most consistent widths.

    csv.Sniffer guesses from character frequencies and is easily fooled (e.g. by decimal commas);
    parsing each candidate and comparing column counts is more robust.  A candidate must split
    the lines into more than one column to count; ties go to more columns, then to the order
    , ; tab |.  A single-column file comes back as ",".
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
    with _gc_paused():
        text = _decode(data, name)
        if text.startswith("\ufeff"):  # a second BOM left by a double conversion
            text = text[1:]
        head = text[:1_000_000]
        if head and len(_CONTROL_RE.findall(head)) > 0.01 * len(head):
            raise _csv_problem(name, "it is full of control characters, so it looks like a binary file")
        delimiter = _sniff_delimiter(text)
        records = _read_records(text, delimiter, name)
        table = _build_table(name, records, range(1, len(records) + 1))
    if table is None:
        raise _csv_problem(name, "it has no columns (every line is empty)")
    return table


# ---------------------------------------------------------------------------------------------
# XLSX
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
    """Shortest faithful text of a stored number: 12000000.0 -> "12000000", 0.1 -> "0.1"."""
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e16:
            return str(int(value))
        return repr(value)  # repr is the shortest text that round-trips, so no 0.30000000000000004
    return str(value)


def _percent_text(value: int | float) -> str:
    """Text of a percent-formatted number as Excel shows it, unrounded: 0.15 -> "15%"."""
    scaled = (Decimal(repr(value)) * 100).normalize()
    return format(scaled, "f") + "%"


def _timedelta_text(value: datetime.timedelta) -> str:
    seconds = value.total_seconds()
    sign = "-" if seconds < 0 else ""
    whole = int(abs(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{sign}{hours}:{minutes:02d}:{secs:02d}"


def _value_text(value: object) -> str | None:
    """Text for a non-numeric workbook value (numbers are handled inline for speed)."""
    if isinstance(value, str):
        return value or None
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


_XML_PREFIX = rb"(?:[A-Za-z_][\w.\-]*:)?"
_MERGE_RE = re.compile(
    rb"<" + _XML_PREFIX + rb"mergeCell\b[^>]*?\bref\s*=\s*[\"']([A-Za-z]+\d+(?::[A-Za-z]+\d+)?)[\"']"
)
# A cell with a formula, the formula, and its cached value if any.  Cells are never nested and
# text content never holds a raw "<", so a regex is exact enough for this narrow question.
_FORMULA_CELL_RE = re.compile(
    rb"<" + _XML_PREFIX + rb"c\b([^>]*?)(?<!/)>\s*"
    rb"<" + _XML_PREFIX + rb"f\b([^>]*?)(?:/>|>([^<]*)</" + _XML_PREFIX + rb"f>)\s*"
    rb"(<" + _XML_PREFIX + rb"v\b[^>]*?(?:/>|>([^<]*)</" + _XML_PREFIX + rb"v>))?"
)
_ATTR_RE = re.compile(rb"\b([\w:]+)\s*=\s*[\"']([^\"']*)[\"']")
_COORD_RE = re.compile(r"\$?([A-Za-z]{1,3})\$?(\d+)")


def _col_index(letters: str) -> int:
    """0-based column index of A1 letters: "A" -> 0, "AA" -> 26."""
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - 64
    return n - 1


def _coord(ref: str) -> tuple[int, int]:
    """(1-based row, 0-based column) of an A1 reference."""
    m = _COORD_RE.fullmatch(ref)
    if m is None:
        raise ValueError(f"not a cell reference: {ref!r}")
    return int(m.group(2)), _col_index(m.group(1))


def _scan_sheet_xml(
    stream: io.BufferedIOBase,
) -> tuple[list[tuple[int, int, int, int]], dict[tuple[int, int], str]]:
    """Read what openpyxl's read-only mode does not give: merged ranges and uncached formulas.

    Streams the worksheet XML in blocks (a 100,000-row sheet is ~100 MB unzipped) and returns
    the merged ranges as (first row, first col, last row, last col) and, for each formula cell
    without a cached value, its formula text ("=SUM(B2:B4)") keyed by (row, 0-based col).
    Blocks are cut after a row's closing tag so no cell is split; the expensive formula regex
    only runs on blocks that contain a formula at all.
    """
    merges: list[tuple[int, int, int, int]] = []
    uncached: dict[tuple[int, int], str] = {}
    shared: dict[bytes, tuple[str, str]] = {}  # shared-formula id -> (formula, origin cell)
    buffer = b""
    while True:
        block = stream.read(1 << 22)
        buffer += block
        if block:
            cut = buffer.rfind(b"row>")
            if cut < 0:
                continue
            cut += 4
            chunk, buffer = buffer[:cut], buffer[cut:]
        else:
            chunk, buffer = buffer, b""
        if b"mergeCell" in chunk:
            for m in _MERGE_RE.finditer(chunk):
                ref = m.group(1).decode("ascii")
                first, _, last = ref.partition(":")
                r1, c1 = _coord(first)
                r2, c2 = _coord(last or first)
                merges.append((min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2)))
        if b"f>" in chunk or b"f/>" in chunk or b"<f " in chunk or b":f " in chunk:
            _collect_uncached(chunk, uncached, shared)
        if not block:
            return merges, uncached


def _collect_uncached(
    chunk: bytes, uncached: dict[tuple[int, int], str], shared: dict[bytes, tuple[str, str]]
) -> None:
    """Record formula cells in ``chunk`` that carry no cached value (see _scan_sheet_xml)."""
    from openpyxl.formula.translate import Translator

    for m in _FORMULA_CELL_RE.finditer(chunk):
        cell_attrs = dict(_ATTR_RE.findall(m.group(1)))
        ref = cell_attrs.get(b"r")
        if ref is None:
            continue  # a cell without an address cannot be placed; leave it empty
        coordinate = ref.decode("ascii")
        f_attrs = dict(_ATTR_RE.findall(m.group(2)))
        formula = html.unescape(m.group(3).decode("utf-8")) if m.group(3) is not None else None
        if f_attrs.get(b"t") == b"shared" and b"si" in f_attrs:
            if formula:
                shared[f_attrs[b"si"]] = (formula, coordinate)
            elif f_attrs[b"si"] in shared:
                master, origin = shared[f_attrs[b"si"]]
                try:
                    formula = Translator("=" + master, origin=origin).translate_formula(coordinate)[1:]
                except Exception:  # a formula openpyxl cannot shift; leave the cell empty
                    formula = None
        cached = m.group(5)
        has_cached = m.group(4) is not None and (
            bool(cached) or cell_attrs.get(b"t") in (b"str", b"s", b"inlineStr")
        )
        if not has_cached and formula:
            try:
                uncached[_coord(coordinate)] = "=" + formula
            except ValueError:
                continue


def _xlsx_problem(name: str, reason: str) -> MalformedSheet:
    return MalformedSheet(
        f"{name} is not a valid .xlsx workbook: {reason}. "
        "Open it in Excel, save it as .xlsx (Excel Workbook) and upload again."
    )


def _read_worksheet(ws: object, zf: zipfile.ZipFile) -> ParsedSheet | None:
    """Read one openpyxl read-only worksheet into a table (None when it holds no data)."""
    path = getattr(ws, "_worksheet_path", None)
    merges: list[tuple[int, int, int, int]] = []
    uncached: dict[tuple[int, int], str] = {}
    if path:
        with zf.open(path.lstrip("/")) as stream:
            merges, uncached = _scan_sheet_xml(stream)

    # The <dimension> a file declares can be wrong (some generators write "A1"); iter_rows would
    # then silently stop early, so ignore it and read every row that is there.
    ws.reset_dimensions()  # type: ignore[attr-defined]
    records: list[list[str | None]] = []
    row_numbers: list[int] = []
    currency_formatted: list[int] = []
    category_of_format: dict[str, Literal["percent", "currency"] | None] = {}
    for row_number, row in enumerate(ws.iter_rows(), start=1):  # type: ignore[attr-defined]
        if not row:
            continue
        texts: list[str | None] = []
        append = texts.append
        for col, cell in enumerate(row):
            value = cell.value
            kind = type(value)
            if value is None:
                append(uncached.get((row_number, col)) if uncached else None)
            elif kind is str:
                append(value or None)
            elif kind is float or kind is int:
                fmt = cell.number_format
                try:
                    category = category_of_format[fmt]
                except KeyError:
                    category = category_of_format[fmt] = _format_category(fmt)
                if category == "percent":
                    append(_percent_text(value))
                else:
                    append(_number_text(value))
                    if category == "currency":
                        while len(currency_formatted) <= col:
                            currency_formatted.append(0)
                        currency_formatted[col] += 1
            else:
                append(_value_text(value))
        if any(texts):
            records.append(texts)
            row_numbers.append(row_number)

    if merges and records:
        records, row_numbers = _fill_merges(records, row_numbers, merges)
    return _build_table(ws.title, records, row_numbers, currency_formatted)  # type: ignore[attr-defined]


def _fill_merges(
    records: list[list[str | None]],
    row_numbers: list[int],
    merges: list[tuple[int, int, int, int]],
) -> tuple[list[list[str | None]], list[int]]:
    """Copy each merged range's top-left value into every cell of the range.

    Excel stores a merged value only in the top-left cell.  Table math over a merged "Region"
    cell spanning five rows must see "North" on all five rows, so the value is repeated (ranges
    are clipped to the rows and columns that hold data, so a merge across a whole row costs
    nothing).
    """
    by_row = dict(zip(row_numbers, records))
    last_row = max(row_numbers)
    last_col = max(len(rec) for rec in records) - 1
    for r1, c1, r2, c2 in merges:
        top = by_row.get(r1)
        value = top[c1] if top is not None and c1 < len(top) else None
        if value is None:
            continue
        for r in range(r1, min(r2, last_row) + 1):
            cells = by_row.get(r)
            if cells is None:
                cells = by_row[r] = []
            if len(cells) <= min(c2, last_col):
                cells.extend([None] * (min(c2, last_col) + 1 - len(cells)))
            for c in range(c1, min(c2, last_col) + 1):
                cells[c] = value
    ordered = sorted(by_row)
    return [by_row[r] for r in ordered], ordered


def parse_xlsx(
    data: bytes,
    *,
    name: str = "The workbook",
    max_uncompressed_bytes: int = 500_000_000,
) -> list[ParsedSheet]:
    """Parse every worksheet that holds data into a table, in workbook order.

    Values are read with openpyxl (read-only, ``data_only=True``), so a formula cell gives the
    value Excel cached when it last saved the file.  A file written by a program and never opened
    in Excel (openpyxl, some exporters) has no cached values: such cells get their formula text,
    e.g. "=SUM(B2:B4)", rather than silently coming out empty.  (A file from xlsxwriter caches 0
    for every formula unless told otherwise; that 0 cannot be told apart from a real 0.)

    Text of values: strings as stored; numbers as their shortest round-trip text ("12000000",
    "0.15"); cells with a percent format as the percentage shown ("15%", unrounded); dates as ISO
    ("2021-03-05", or "2021-03-05 14:30:00" with a time); booleans "TRUE"/"FALSE".  Currency
    number formats mark a column as currency.

    The header is the first non-blank row; columns start at the first non-blank column but keep
    their original letters and row numbers.  Merged cells: read-only mode does not expose them,
    so merged ranges are read from the worksheet XML, and each range's top-left value is copied
    into all its cells (see _fill_merges).

    ``name`` is used in error messages.  A workbook whose parts declare more than
    ``max_uncompressed_bytes`` unzipped is refused before anything is decompressed (a zip bomb
    guard).  Raises EmptyFile for 0 bytes and MalformedSheet, with what to do, for anything that
    is not a readable workbook.  Returns an empty list when no worksheet holds data.
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
        raise MalformedSheet(
            f"{name} would unpack to {declared / 1e6:,.0f} MB, over the "
            f"{max_uncompressed_bytes / 1e6:,.0f} MB limit (it may be corrupt or a zip bomb). "
            "If the data is genuine, split it into smaller workbooks or export each sheet as CSV."
        )

    import openpyxl  # imported lazily: CSV-only callers should not pay for it

    sheets: list[ParsedSheet] = []
    with _gc_paused():
        try:
            wb = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        except Exception as exc:  # openpyxl raises many unrelated types for a damaged file
            raise _xlsx_problem(name, f"it could not be opened ({type(exc).__name__}: {exc})") from exc
        try:
            for ws in wb.worksheets:
                try:
                    sheet = _read_worksheet(ws, zf)
                except MalformedSheet:
                    raise
                except Exception as exc:
                    raise _xlsx_problem(
                        name, f"sheet {ws.title!r} could not be read ({type(exc).__name__}: {exc})"
                    ) from exc
                if sheet is not None:
                    sheets.append(sheet)
        finally:
            wb.close()
            zf.close()
    return sheets
