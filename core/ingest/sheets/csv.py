"""CSV files: encodings, BOMs, delimiters, quoting, ragged rows."""

from __future__ import annotations

import csv
import dataclasses
import io
import re
import sys
from collections import Counter
from collections.abc import Iterator, Sequence

from core.cells import gc_paused
from core.errors import EmptyFile, MalformedSheet
from core.ingest.limits import MAX_COLUMNS, too_much_content, too_wide
from core.ingest.sheets.parsed import ParsedSheet
from core.ingest.sheets.table import build_table

# ---------------------------------------------------------------------------------------------
# CSV
# ---------------------------------------------------------------------------------------------

_DELIMITERS = (",", ";", "\t", "|")
_SNIFF_LINES = 50
# One-cell lines above a table that the delimiter score leaves out (titles, notes).
_TITLE_LINES = 5
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
    return MalformedSheet(f"{name} is not a readable CSV: {reason}. Save it as UTF-8 CSV and upload again.")


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


# A character UTF-8 writes in 2-4 bytes (é, €, 中): in a file that is not valid UTF-8 as a whole, such
# sequences are lines saved as UTF-8 beside lines saved in a legacy code page.
_UTF8_MULTIBYTE = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")


def mixed_encoding(data: bytes, name: str) -> str | None:
    """A warning when the bytes mix UTF-8 lines with lines in another encoding (their accents come out wrong)."""
    try:
        data.decode("utf-8")
        return None
    except UnicodeDecodeError:
        pass
    utf8_lines, other_lines = [], []
    for number, line in enumerate(data.split(b"\n"), start=1):
        try:
            line.decode("utf-8")
            if _UTF8_MULTIBYTE.search(line):
                utf8_lines.append(number)
        except UnicodeDecodeError:
            other_lines.append(number)
    if not (utf8_lines and other_lines):
        return None
    shown = ", ".join(str(n) for n in utf8_lines[:5]) + (" …" if len(utf8_lines) > 5 else "")
    return (
        f"{name} mixes text encodings: {len(utf8_lines)} line(s) are UTF-8 (lines {shown}) and "
        f"{len(other_lines)} are not, so accented characters on one kind of line are garbled. "
        "Re-save the file as UTF-8 and upload it again."
    )


def _decode(data: bytes, name: str) -> str:
    """Decode CSV bytes: byte-order mark, else UTF-8, else the best legacy code page."""
    if data.startswith(b"PK\x03\x04"):
        raise MalformedSheet(f"{name} is an Excel workbook (.xlsx), not a CSV. Upload it with the .xlsx extension.")
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
                raise _csv_problem(name, f"it starts with a {encoding} marker but {exc.reason}") from exc
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


# The lines of a text as the csv module wants them (newline="": "\r\n", "\r" and "\n" kept, so a quoted field
# keeps its line breaks), for a block that runs on without a "\n" ("\r" line ends, or one line of megabytes).
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")
_BLOCK = 1 << 20  # characters read through one io.StringIO (it holds 4 bytes per character)
_LONG_BLOCK = 8 * _BLOCK


def _lines(text: str) -> Iterator[str]:
    """The lines of `text`, a block at a time, each block cut after a "\n": one io.StringIO over a whole file of
    190 MB held four copies of it (760 MB) and took the parser past its memory limit, which then named memory,
    not the file's real fault (a field that runs on, too much text). A block that runs on for more than 8 M
    characters without a "\n" is split by a pattern instead, a copy of each line and no more."""
    start, n = 0, len(text)
    while start < n:
        cut = text.find("\n", start + _BLOCK)
        end = n if cut < 0 else cut + 1
        if end - start > _LONG_BLOCK:
            yield from (m.group() for m in _LINE.finditer(text, start, end))
        else:
            yield from io.StringIO(text[start:end], newline="")
        start = end


def _csv_reader(text: str, delimiter: str, escaped: bool, strict: bool) -> Iterator[list[str]]:
    source = _lines(text)
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


def _consistency(records: Sequence[Sequence[str]]) -> tuple[bool, float, int, int]:
    """Score a parse: (splits into columns, share of records with the usual width, that width, records scored).

    "Splits into columns" needs the usual width to exceed 1 and either the first record (the
    header) to split too or 90% of records to agree: a single-column file with a stray ";" in a
    value or two must not come out as two columns, while a table under one-cell title lines
    still counts (those lines are left out of the score). Between parses that score alike, the one that
    leaves no line out wins: "c0<tab>c1" over rows holding ";" is a header split by tabs, not a title.
    """
    widths = [len(r) for r in records if r]
    if not widths:
        return (False, 0.0, 0, 0)
    # One-cell title and note lines above a table (build_table tells them from the header) are left out
    # when they read as prose (several words: "Fatal accidents by year") and at least three records follow,
    # 90% of them of one width with two or more filled cells: a table, not stray delimiters in one column.
    kept = [r for r in records if r]
    titles = next((i for i, w in enumerate(widths[:_TITLE_LINES]) if w > 1), 0)
    rest = widths[titles:]
    filled = [sum(1 for cell in r if cell.strip()) for r in kept][titles:]
    if (
        titles
        and all(len(kept[i][0].split()) >= 2 or not kept[i][0].strip() for i in range(titles))
        and len(rest) >= 3
        and Counter(rest).most_common(1)[0][1] >= 0.9 * len(rest)
        and sum(n >= 2 for n in filled) >= 0.9 * len(rest)
    ):
        widths = rest
    width, freq = max(Counter(widths).items(), key=lambda kv: (kv[1], kv[0]))
    share = freq / len(widths)
    return (width > 1 and (widths[0] > 1 or share >= 0.9), share, width, len(widths))


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
    best: tuple[tuple[bool, float, int, int], int] | None = None
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


def _read_records(
    text: str, delimiter: str, name: str, max_cells: int | None = None, max_chars: int | None = None
) -> list[list[str]]:
    """Parse the whole text, choosing between standard "" quoting and backslash-escaped quotes.

    Standard CSV doubles a quote inside a quoted field; some exports (WikiTableQuestions, MySQL)
    write \\" instead.  Only when the text contains \\" and a strict standard parse fails do we
    try the backslash dialect — it is never the default because it would eat the backslashes
    of a Windows path in an ordinary file.
    """

    def parse(escaped: bool, strict: bool) -> list[list[str]]:
        records: list[list[str]] = []
        try:
            cells = chars = 0
            cell_cap, char_cap = max_cells or sys.maxsize, max_chars or sys.maxsize
            # Counted while reading, so a hostile file is refused before its rows fill memory.
            for record in _csv_reader(text, delimiter, escaped, strict):
                if len(record) > MAX_COLUMNS:
                    raise too_wide(name, len(record), len(records) + 1)
                cells += len(record)
                chars += sum(map(len, record))
                if cells > cell_cap or chars > char_cap:
                    raise too_much_content(name, cells=cells, chars=chars, max_cells=cell_cap, max_chars=char_cap)
                records.append(record)
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
    return escaped if _consistency(escaped)[1:3] > _consistency(standard)[1:3] else standard


def parse_csv(data: bytes, name: str, *, max_cells: int | None = None, max_chars: int | None = None) -> ParsedSheet:
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
    input; TooMuchContent past ``max_cells`` cells or ``max_chars`` characters of cell text.
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
            records = _read_records(text, delimiter, name, max_cells, max_chars)
        except csv.Error as exc:
            raise _csv_problem(name, f"its structure could not be parsed ({exc})") from exc
        table = build_table(name, records, range(1, len(records) + 1))
    if table is None:
        raise _csv_problem(name, "it has no columns (every line is empty)")
    warning = mixed_encoding(data, name)
    return dataclasses.replace(table, warning=warning) if warning else table
