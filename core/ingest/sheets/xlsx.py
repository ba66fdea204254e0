"""XLSX workbooks, streamed from the sheet XML: every sheet, cached formula values, merged ranges, formats."""

from __future__ import annotations

import dataclasses
import datetime
import io
import posixpath
import re
import sys
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Iterator
from decimal import Decimal
from typing import Literal, NoReturn

from core.cells import CURRENCY_SYMBOLS, col_index, gc_paused
from core.errors import EmptyFile, MalformedSheet, TooMuchContent
from core.ingest.limits import MAX_CELL_CHARS, MAX_COLUMNS, cell_too_long, too_much_content, too_wide
from core.ingest.sheets.parsed import ParsedSheet
from core.ingest.sheets.table import build_tables

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
_CURRENCY_FORMAT_RE = re.compile(rf"[${CURRENCY_SYMBOLS}]|\[\$[^\]\-]")
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


def _coord(ref: str) -> tuple[int, int]:
    """(1-based row, 0-based column) of an A1 reference such as "B3" or "$B$3"."""
    m = _COORD_RE.fullmatch(ref)
    if m is None:
        raise ValueError(f"not a cell reference: {ref!r}")
    return int(m.group(2)), col_index(m.group(1))


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

    def __init__(self, zf: zipfile.ZipFile, name: str, max_cells: int, max_chars: int) -> None:
        self.zf = zf
        # The caps, counted while streaming: shared strings and cells (a cell pointing at a long shared string
        # counts its length each time, since every row's search text repeats it).
        self.name, self.max_cells, self.max_chars = name, max_cells, max_chars
        self.cells = self.chars = 0
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
            _local(el.tag) == "workbookPr" and el.get("date1904", "").lower() in ("1", "true") for el in root
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
        self.chars = 0  # the table is capped on its own; cells count their text again as they use it
        self.style_kinds, self.style_indents = self._read_styles(by_kind.get("styles"))

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
                    text = self.text_of(el)
                    strings.append(text)
                    self.chars += len(text)
                    if len(strings) > self.max_cells or self.chars > self.max_chars:
                        self.over_cap(len(strings))
                    el.clear()
        finally:
            source.close()
        return strings

    def over_cap(self, cells: int) -> NoReturn:
        """Refuse the workbook: past its cell or character cap."""
        raise too_much_content(
            self.name, cells=cells, chars=self.chars, max_cells=self.max_cells, max_chars=self.max_chars
        )

    def _read_styles(self, path: str | None) -> tuple[list[str | None], dict[str, int]]:
        """For each cell style index: "date", "timedelta", "percent", "currency" or None; and the styles that indent
        their text, with the level (a label's depth under its parent line)."""
        if path is None or path.lower() not in self._names:
            return [], {}
        from openpyxl.styles.numbers import BUILTIN_FORMATS, is_date_format, is_timedelta_format

        root = _parse_small_xml(self.zf, self._member(path))
        custom = {int(el.get("numFmtId", "-1")): el.get("formatCode", "") for el in root.iter(self.ns + "numFmt")}
        kinds: list[str | None] = []
        indents: dict[str, int] = {}
        xfs = root.find(self.ns + "cellXfs")
        for i, xf in enumerate(xfs.findall(self.ns + "xf") if xfs is not None else ()):
            alignment = xf.find(self.ns + "alignment")
            level = alignment.get("indent", "0") if alignment is not None else "0"
            if level.isdigit() and int(level) > 0:
                indents[str(i)] = int(level)
            fmt_id = int(xf.get("numFmtId", "0"))
            fmt = custom.get(fmt_id) or BUILTIN_FORMATS.get(fmt_id) or "General"
            if is_date_format(fmt):
                kinds.append("timedelta" if is_timedelta_format(fmt) else "date")
            else:
                kinds.append(_format_category(fmt))
        return kinds, indents

    def read_sheet(self, title: str, path: str) -> list[ParsedSheet]:
        """Read one worksheet into its tables ([] when it holds no data; several when it holds several)."""
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
        # Formula cells Excel never calculated: (A1 ref, "=formula"); their cells are left empty.
        self.uncalculated: list[tuple[str, str]] = []
        # (A1 row, column) -> indent level of a text cell whose style indents it (only read when a style does).
        self.indents: dict[tuple[int, int], int] = {}
        self.hidden_rows: set[int] = set()
        self.hidden_columns: set[int] = set()

    def read(self, title: str, path: str) -> list[ParsedSheet]:  # noqa: C901 (one inlined loop: the hot path of a million-cell sheet)
        ns = self.workbook.ns
        row_tag, c_tag, merge_tag, v_tag, col_tag = ns + "row", ns + "c", ns + "mergeCell", self.v_tag, ns + "col"
        indent_of_style, indents = self.workbook.style_indents, self.indents
        strings, kind_of_style = self.workbook.strings, self.kind_of_style
        column_of: dict[str, int] = {}
        records: list[list[str]] = []  # "" for an empty cell, as in a CSV record
        row_numbers: list[int] = []
        merges: list[tuple[int, int, int, int]] = []
        row_number = 0
        workbook = self.workbook
        cells, chars = workbook.cells, workbook.chars
        max_cells, max_chars = workbook.max_cells, workbook.max_chars

        source = _XmlSource(self.workbook.zf, path)
        try:
            for _, el in ET.iterparse(source):
                tag = el.tag
                if tag == row_tag:
                    r = el.get("r")
                    row_number = int(r) if r else row_number + 1
                    if el.get("hidden") in ("1", "true"):
                        self.hidden_rows.add(row_number)
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
                                col = column_of[letters] = col_index(letters)
                                if col >= MAX_COLUMNS:
                                    raise too_wide(workbook.name, col + 1, row_number)
                        else:  # some generators leave out r=: cells then follow each other
                            col += 1
                            if col >= MAX_COLUMNS:
                                raise too_wide(workbook.name, col + 1, row_number)
                        t = c.get("t")
                        if len(c) == 1 and c[0].tag == v_tag and (t is None or t == "n" or t == "s"):
                            v = c[0].text
                            if not v:
                                continue
                            if t == "s":
                                text = strings[int(v)]
                                if indent_of_style and (level := indent_of_style.get(c.get("s", "0"))):
                                    indents[(row_number, col)] = level
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
                        cells += 1
                        chars += len(text)
                        if len(text) > MAX_CELL_CHARS:
                            where = f"cell {ref}" if ref else f"row {row_number:,}, column {col + 1:,}"
                            raise cell_too_long(workbook.name, f"sheet {title!r}, {where}", len(text))
                        if cells > max_cells or chars > max_chars:
                            workbook.chars = chars
                            workbook.over_cap(cells)
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
                elif tag == col_tag and el.get("hidden") in ("1", "true"):
                    first_col, last_col = int(el.get("min", "1")), int(el.get("max", "1"))
                    self.hidden_columns.update(range(first_col - 1, min(last_col, first_col + MAX_COLUMNS)))
                elif tag == merge_tag:
                    first, _, last = el.get("ref", "").partition(":")
                    try:
                        r1, c1 = _coord(first)
                        r2, c2 = _coord(last or first)
                    except ValueError:
                        continue
                    merges.append((min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2)))
                    if len(merges) > max_cells:
                        workbook.over_cap(len(merges))
        finally:
            source.close()
        workbook.cells, workbook.chars = cells, chars

        if merges and records:
            # Counted before the ranges are filled: what is stored is every cell of each range, not its one value.
            added_cells, added_chars = _merged_cells(records, row_numbers, merges)
            workbook.cells, workbook.chars = cells + added_cells, chars + added_chars
            if workbook.cells > max_cells or workbook.chars > max_chars:
                raise too_much_content(
                    workbook.name, cells=workbook.cells, chars=workbook.chars, max_cells=max_cells,
                    max_chars=max_chars, merged=True,
                )  # fmt: skip
            records, row_numbers = _fill_merges(records, row_numbers, merges)
        tables = build_tables(
            title, records, row_numbers, self.currency_formatted, indents=self.indents,
            hidden_rows=frozenset(self.hidden_rows), hidden_columns=frozenset(self.hidden_columns),
            merged=_merged_across(merges),
        )  # fmt: skip
        if not self.uncalculated:
            return tables
        return [dataclasses.replace(t, uncalculated=_within(t, self.uncalculated)) for t in tables]

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
                # No value to read, answer or add up: the cell stays empty and the sheet lists the
                # formula, so the page can say so ("open it in Excel, save, upload again").
                if formula:
                    self.uncalculated.append((ref, "=" + formula))
                return ""
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


# The rows a header can stand on: merged ranges further down are the data's (a region merged over its rows).
_HEADER_MERGE_ROWS = 30


def _within(table: ParsedSheet, uncalculated: list[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """The uncalculated formula cells inside a table's columns and rows (a tab's other tables list theirs)."""
    letters = {c.letter for c in table.columns}
    rows = set(table.row_numbers) | {table.header_row}
    return tuple((ref, f) for ref, f in uncalculated if (m := _COORD_RE.fullmatch(ref)) and m.group(1).upper() in letters
                 and int(m.group(2)) in rows)  # fmt: skip


def _merged_across(merges: list[tuple[int, int, int, int]]) -> dict[int, frozenset[int]]:
    """A1 row -> the 0-based columns a merged range across columns fills after its first, in the first rows."""
    found: dict[int, set[int]] = {}
    for r1, c1, r2, c2 in merges:
        if c2 > c1 and r1 <= _HEADER_MERGE_ROWS:
            for r in range(r1, min(r2, _HEADER_MERGE_ROWS) + 1):
                found.setdefault(r, set()).update(range(c1 + 1, c2 + 1))
    return {r: frozenset(cols) for r, cols in found.items()}


def _merge_spans(
    records: list[list[str]], row_numbers: list[int], merges: list[tuple[int, int, int, int]]
) -> Iterator[tuple[str, int, int, int, int]]:
    """Each merged range that has a value: (value, first row, first column, last row, last column), clipped to the
    rows and columns that hold data (as `_fill_merges` fills them)."""
    by_row = dict(zip(row_numbers, records, strict=False))
    last_row = max(row_numbers)
    last_col = max(len(rec) for rec in records) - 1
    for r1, c1, r2, c2 in merges:
        top = by_row.get(r1)
        value = top[c1] if top is not None and c1 < len(top) else ""
        if value and r1 <= last_row and c1 <= last_col:
            yield value, r1, c1, min(r2, last_row), min(c2, last_col)


def _merged_cells(
    records: list[list[str]], row_numbers: list[int], merges: list[tuple[int, int, int, int]]
) -> tuple[int, int]:
    """The cells and characters that filling the merged ranges adds (the top-left cell is already counted)."""
    cells = chars = 0
    for value, r1, c1, r2, c2 in _merge_spans(records, row_numbers, merges):
        added = (r2 - r1 + 1) * (c2 - c1 + 1) - 1
        cells += added
        chars += added * len(value)
    return cells, chars


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
    by_row = dict(zip(row_numbers, records, strict=False))
    for value, r1, c1, last, right in list(_merge_spans(records, row_numbers, merges)):
        for r in range(r1, last + 1):
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
    max_cells: int = sys.maxsize,
    max_chars: int = sys.maxsize,
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
    currency.  Header, columns and row numbers follow the rules of ``build_table``.  Hidden
    sheets are included; chart sheets are not.

    Raises EmptyFile for 0 bytes and MalformedSheet, saying what to do, for anything unreadable —
    including a package declaring more than ``max_uncompressed_bytes`` unzipped, refused before
    anything is inflated.  ``name`` is used in those messages.  TooMuchContent past ``max_cells`` non-empty
    cells (shared strings count too) or ``max_chars`` characters, counted while the XML streams.
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
            workbook = _Workbook(zf, name, max_cells, max_chars)
        except TooMuchContent:
            raise
        except Exception as exc:  # a damaged package fails in many ways; all mean the same
            raise _xlsx_problem(name, f"its structure could not be read ({exc})") from exc
        for title, path in workbook.sheets:
            try:
                found = workbook.read_sheet(title, path)
            except TooMuchContent:
                raise
            except Exception as exc:
                raise _xlsx_problem(name, f"sheet {title!r} could not be read ({exc})") from exc
            sheets.extend(found)
    return sheets
