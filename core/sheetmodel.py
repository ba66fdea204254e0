"""A model of one table, read from its structure once at ingestion: where the header is, each column's header path
and period, each row's path, role and unit, and the table's scale.

Pure functions over a sheet's raw records (the cell texts of every row, merged ranges already filled), their row
numbers and, where the file has them, each label cell's indent level.  Nothing here reads a word list of one file:
the header is found by its shape (rows of names above rows of figures, a banner that spans the cells under it), a
row's parents by indentation and label-only heading rows, a total by its label *and* by arithmetic (its section's
lines add up to it), a period by the calendar forms a header can take, a unit by the scale a title or a label
states.  The model is stored with the sheet (``sheets.model``), shown on the Sheet view and by ``workbench sheets``,
and read by the planner (`core.qa.planner.schema`).

Classes of sheet this serves, each with its test in tests/unit/test_sheetmodel.py:
- stacked headers: years merged over quarters, a "Year Ended December 31," banner over years, a group over its
  measures ("Current fleet" over "Owned", "Leased"); a CSV's banner written once with blanks right of it;
- sections: label-only heading rows ("Americas", "Operating expenses:") with their lines under them, nested by
  indentation where the file has it, closed by their "Total …" line;
- totals: "Total X", "Subtotal", "Grand total", "Net …" only when the lines above add up to it is *not* assumed:
  a label says total, arithmetic checks it (``checked``), an unlabelled line that adds up is a total too;
- units: a title or corner's scale ("in millions, except per share data", "USD thousands", "$000s"), a row's or
  column's own unit in brackets ("(cents)", "(000)", "(%)", "(millions)");
- periods: a year, fiscal year ("FY25", "2024/25"), quarter, half, month ("Jul-24", a date cell), a dated
  column ("2024-03-31", "Three Months Ended March 31, 2024"), combined down a header path ("2024 › Q3"); the
  fiscal year's first month from a run of twelve months or a "fiscal year ending June 30" title.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from datetime import date
from itertools import pairwise

from core.cells import cell_ref, col_index, col_letter, parse_date, parse_number
from core.lexicon.periods import MONTH_NUMBERS, ORDINALS, fiscal_start, header_month, split_year_end, years_in

PATH_SEPARATOR = " › "
# Header rows looked for under the first: more is a table of text, not a header.
MAX_HEADER_ROWS = 4
# Rows read to find the label column; a longer sheet is a list of records, whose rows are not modelled one by one
# (every row is a data row: the model holds its header, units and periods).
_PROBE_ROWS = 300
MAX_MODELLED_ROWS = 5000

# ---------------------------------------------------------------------------------------------
# The model
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Period:
    """A span of the calendar a header names: its first and last day, and what kind of span it is."""

    start: str  # ISO date
    end: str
    kind: str  # year | half | quarter | month | day | span

    @property
    def label(self) -> str:
        return f"{self.start}..{self.end}"


@dataclass(frozen=True)
class ColumnModel:
    letter: str
    path: tuple[str, ...]  # the header texts above the column, top to bottom ("2024", "Q3")
    period: Period | None = None
    unit: str | None = None  # the column's own unit ("%", "cents") when its header states one
    hidden: bool = False

    @property
    def name(self) -> str:
        return PATH_SEPARATOR.join(self.path)


@dataclass(frozen=True)
class RowModel:
    row_number: int  # the A1 row
    label: str
    path: tuple[str, ...]  # its headings, then its own label
    role: str  # data | heading | subtotal | total | note
    unit: str | None = None  # the row's own unit ("cents", "thousands", "%", "per share")
    checked: bool = False  # a total whose lines were seen to add up to it
    hidden: bool = False


@dataclass(frozen=True)
class TableModel:
    title: tuple[str, ...]  # the lines above the header
    header_rows: tuple[int, ...]  # their A1 row numbers
    label_letter: str | None  # the column holding the row labels (None: a list of records with no label column)
    columns: tuple[ColumnModel, ...]
    rows: tuple[RowModel, ...]
    scale: str | None = None  # "thousands" | "millions" | "billions" (the table's figures, unless a row says else)
    currency: str | None = None
    fiscal_start: int = 1  # the month the year starts in
    corrected: tuple[str, ...] = ()  # what an editor corrected (kept over a re-derivation)
    group_letters: tuple[str, ...] = ()  # label columns left of the row labels that group them ("Region")

    def to_json(self) -> dict:
        return asdict(self)

    @staticmethod
    def from_json(data: Mapping) -> TableModel:
        def period(p: Mapping | None) -> Period | None:
            return Period(**p) if p else None

        return TableModel(
            title=tuple(data.get("title", ())),
            header_rows=tuple(data.get("header_rows", ())),
            label_letter=data.get("label_letter"),
            columns=tuple(
                ColumnModel(
                    letter=c["letter"],
                    path=tuple(c["path"]),
                    period=period(c.get("period")),
                    unit=c.get("unit"),
                    hidden=c.get("hidden", False),
                )
                for c in data.get("columns", ())
            ),
            rows=tuple(
                RowModel(
                    row_number=r["row_number"],
                    label=r["label"],
                    path=tuple(r["path"]),
                    role=r["role"],
                    unit=r.get("unit"),
                    checked=r.get("checked", False),
                    hidden=r.get("hidden", False),
                )
                for r in data.get("rows", ())
            ),
            scale=data.get("scale"),
            currency=data.get("currency"),
            fiscal_start=int(data.get("fiscal_start", 1)),
            corrected=tuple(data.get("corrected", ())),
            group_letters=tuple(data.get("group_letters", ())),
        )

    def row(self, row_number: int) -> RowModel | None:
        return next((r for r in self.rows if r.row_number == row_number), None)

    def unit_of(self, row_number: int, letter: str) -> str | None:
        """The unit a figure at (row, column) is in: the row's own, else the column's, else the table's scale."""
        row = self.row(row_number)
        column = next((c for c in self.columns if c.letter == letter), None)
        return (row.unit if row else None) or (column.unit if column else None) or self.scale

    def describe(self) -> list[str]:
        """How the table was read, in a few lines a person checks ("header rows 3–4; sections …")."""
        lines = []
        if self.title:
            lines.append("title: " + " — ".join(self.title))
        if self.header_rows:
            first, last = self.header_rows[0], self.header_rows[-1]
            lines.append(f"header row {first}" if first == last else f"header rows {first}–{last}")
        stacked = [c.name for c in self.columns if len(c.path) > 1]
        if stacked:
            lines.append("columns: " + ", ".join(stacked[:6]) + (" …" if len(stacked) > 6 else ""))
        periods = [c for c in self.columns if c.period]
        if periods:
            kinds = sorted({c.period.kind for c in periods if c.period})
            lines.append(f"periods across: {len(periods)} columns ({', '.join(kinds)})")
        headings = [r.label for r in self.rows if r.role == "heading"]
        if headings:
            lines.append("sections: " + ", ".join(headings[:8]) + (" …" if len(headings) > 8 else ""))
        for role in ("subtotal", "total"):
            found = [r for r in self.rows if r.role == role]
            if found:
                rows = ", ".join(str(r.row_number) + ("" if r.checked else "?") for r in found[:10])
                lines.append(f"{role} rows: {rows}")
        notes = [r.row_number for r in self.rows if r.role == "note"]
        if notes:
            lines.append("note rows: " + ", ".join(map(str, notes)))
        units = sorted({f"{r.label} ({r.unit})" for r in self.rows if r.unit})
        if self.scale or self.currency:
            lines.append("figures in " + " ".join(x for x in (self.currency, self.scale) if x))
        if units:
            lines.append("rows with their own unit: " + "; ".join(units[:6]) + (" …" if len(units) > 6 else ""))
        if self.fiscal_start != 1:
            lines.append(f"fiscal year from {calendar.month_name[self.fiscal_start]}")
        hidden = [str(r.row_number) for r in self.rows if r.hidden] + [c.letter for c in self.columns if c.hidden]
        if hidden:
            lines.append("hidden: " + ", ".join(map(str, hidden)))
        if self.corrected:
            lines.append("corrected by an editor: " + ", ".join(self.corrected))
        return lines


@dataclass(frozen=True)
class Fact:
    """One figure of the table, with everything that says what it is."""

    ref: str  # "Sheet!C12"
    value: float
    text: str
    row_path: tuple[str, ...]
    column_path: tuple[str, ...]
    period: Period | None
    unit: str | None
    role: str


# ---------------------------------------------------------------------------------------------
# Reading the structure
# ---------------------------------------------------------------------------------------------

# A header cell that names a period rather than a quantity: a year, "FY25", "Q3", "H1", a month, a date.
_PERIOD_TOKEN = re.compile(
    r"^(?:(?:fy|cy)\s?'?\d{2,4}|q[1-4](?:\s*(?:fy|cy)?\s?'?\d{2,4})?|h[12](?:\s*\d{2,4})?|(?:19|20)\d\d(?:\s*[/–-]\s*\d{2,4})?"
    r"(?:\s*\([a-z0-9]\))?)$",
    re.I,
)


def _is_figure(text: str) -> bool:
    """A cell that holds a quantity (not a year or period heading, which headers hold)."""
    t = text.strip()
    if not t or _PERIOD_TOKEN.match(t) or header_month(t) is not None:
        return False
    return parse_number(t) is not None


def _is_period_header(text: str) -> bool:
    t = text.strip()
    return bool(t) and (bool(_PERIOD_TOKEN.match(t)) or header_month(t) is not None or parse_date(t) is not None)


def _spans(upper: Sequence[str], lower: Sequence[str], first: int, merged: frozenset[int]) -> bool:
    """Whether a header row spans the row under it: one of its texts covers two or more columns — merged (the
    columns in ``merged``, filled with its text) or written once with blanks right of it, up to the next text —
    under which the lower row names different things. Two equal names side by side that are not merged are two
    columns of one name (a CSV's "Score", "Score"), not a span."""
    width = min(len(upper), len(lower))
    texts = [j for j in range(first, len(upper)) if upper[j].strip()]
    for j in range(first, width - 1):
        a, b = upper[j].strip(), upper[j + 1].strip()
        below_a, below_b = lower[j].strip(), lower[j + 1].strip()
        if not (a and below_a and below_b and below_a != below_b):
            continue
        if b == a and j + 1 in merged:
            return True
        # texts written once over groups of equal width from the first figure column ("2019", "", "2018", ""): each
        # spans the blanks right of it (a banner placed anywhere else, as a PDF centres it, is not placed here)
        if not b and _regular_groups(texts, first, len(upper)):
            return True
    return False


def _regular_groups(texts: Sequence[int], first: int, width: int) -> bool:
    """Whether texts at these columns head groups of equal width, the first at `first`, the last ending the row."""
    if len(texts) < 2 or texts[0] != first:
        return False
    widths = {b - a for a, b in pairwise([*texts, width])}
    return len(widths) == 1 and widths.pop() > 1


# A unit written alone in a header cell: "$'000", "US$m", "€ millions", "Years", "(000)", and under a stacked
# header also a bare "$" or "%".
_UNIT_WORD = re.compile(
    r"\(?\s*(?:(?:us|usd|eur|gbp|cad|aud)?\s*[$€£¥]?\s*'?000'?s?|(?:us|usd|eur|gbp)?\s*[$€£¥]\s*(?:m|mn|bn|k)"
    r"|(?:usd|eur|gbp)\s*(?:m|mn|bn|k)|(?:usd|eur|gbp|[$€£¥])?\s*(?:thousands?|millions?|billions?)"
    r"|years?|months?|days?|hours?|percent)\s*\)?",
    re.I,
)


def _units_row(record: Sequence[str], first_value: int, stacked: bool) -> bool:
    """A row under a header that writes one unit over every figure column ("Years", "$'000"; "$", "%" under a
    stacked header)."""
    texts = [t.strip() for t in record[first_value:] if t.strip()]
    if len(texts) < 2 or len(set(texts)) != 1:
        return False
    return bool(_UNIT_WORD.fullmatch(texts[0])) or (stacked and texts[0] in ("$", "€", "£", "¥", "%"))


def _header_below(rows: Sequence[Sequence[str]], at: int, first_value: int) -> bool:
    """Whether a row below `at`, past the next one and before any row of figures, names two or more columns."""
    for row in rows[at + 2 : at + 5]:
        if any(_is_figure(t) for t in row):
            return False
        if len({t.strip() for t in row[max(first_value, 1) :] if t.strip()}) >= 2:
            return True
    return False


def _banner(record: Sequence[str], first_value: int) -> bool:
    """A one-text row that stands over the value columns only (not in the label column): a header banner such as
    "Year Ended December 31,", not a title."""
    texts = [(j, t.strip()) for j, t in enumerate(record) if t.strip()]
    return bool(texts) and texts[0][0] >= first_value and len({t for _, t in texts}) == 1


def _label_column(records: Sequence[Sequence[str]], width: int) -> int | None:
    """The column of row labels: the first whose cells are mostly words while columns right of it hold figures."""
    for j in range(min(width, 3)):
        cells = [r[j].strip() for r in records if j < len(r) and r[j].strip()]
        if not cells:
            continue
        worded = sum(1 for c in cells if not _is_figure(c) and parse_date(c) is None)
        figures_right = sum(1 for r in records for c in r[j + 1 :] if _is_figure(c))
        if worded * 2 > len(cells) and figures_right:
            return j + 1 if _coded(cells) and j + 1 < width and _described(records, j + 1) else j
        if worded * 2 <= len(cells):
            return None
    return None


# A word of three letters or more: what a description has and a code ("8010-8099", "CC400", "GL-4410") has not.
_WORD = re.compile(r"[^\W\d_]{3,}")


def _coded(cells: Sequence[str]) -> bool:
    """Whether a column's cells are mostly codes (no word in them, and no plain number or year): account or object
    codes ("8010-8099"), SKUs, cost-centre ids ("CC400")."""
    codes = sum(1 for c in cells if not _WORD.search(c) and not re.fullmatch(r"[\d.,]+", c))
    return codes * 2 > len(cells)


def _described(records: Sequence[Sequence[str]], j: int) -> bool:
    """Whether a column holds descriptions: mostly cells with words (the label of the code beside it)."""
    cells = [r[j].strip() for r in records if j < len(r) and r[j].strip()]
    return bool(cells) and sum(1 for c in cells if _WORD.search(c) and not _is_figure(c)) * 2 > len(cells)


def _worded(records: Sequence[Sequence[str]], j: int) -> bool:
    cells = [r[j].strip() for r in records if j < len(r) and r[j].strip()]
    return bool(cells) and sum(1 for c in cells if not _is_figure(c) and parse_date(c) is None) * 2 > len(cells)


def _in_blocks(records: Sequence[Sequence[str]], j: int) -> bool:
    """Whether a column's values run in blocks (each value in one run of rows, most runs longer than a row): a
    group over the rows beside it ("Region" over its countries, a parent repeated on each child's row)."""
    values = [r[j].strip() if j < len(r) else "" for r in records]
    runs = [v for i, v in enumerate(values) if v and (i == 0 or values[i - 1] != v)]
    return bool(runs) and len(runs) == len(set(runs)) and len(runs) * 2 <= sum(1 for v in values if v)


def _group_columns(records: Sequence[Sequence[str]], label: int | None, width: int) -> tuple[list[int], int | None]:
    """The label columns in order: the columns of words that group the rows (values in blocks) and, right of them,
    the rows' own labels. Returns (group columns, label column)."""
    if label is None:
        return [], None
    groups: list[int] = []
    while label + 1 < width and _worded(records, label + 1) and _in_blocks(records, label):
        groups.append(label)
        label += 1
    return groups, label


_TOTAL = re.compile(r"^\s*(?:(?P<grand>grand\s+)?total\b|sub-?total\b|.*\b(?:sub-?)?totals?\s*:?\s*$)", re.I)
_NOTE = re.compile(r"^\s*(?:notes?\b|source\b|\*|\(\w\)\s|\[\w+\]|†|‡|footnote)", re.I)

# A scale a title, corner or label states: "in millions", "USD thousands", "$000s", "(000)", "€m", "$ in billions".
_SCALE = re.compile(
    r"(?<![\w])(?:(?P<thousands>thousands?|\(?\$?\s?'?000'?s?\)?|k)|(?P<millions>millions?|mn|mm|m)|"
    r"(?P<billions>billions?|bn|b))(?![\w])",
    re.I,
)
_SCALE_CONTEXT = re.compile(
    r"\bin\b|\$|€|£|usd|eur|gbp|\(|amounts|figures|units?\s*:|^\s*\w*\s*(?:thousands?|millions?|billions?)\b", re.I
)
_CURRENCY = re.compile(r"(?P<code>\b(?:USD|EUR|GBP|CAD|AUD|JPY|CHF|CNY|INR)\b)|(?P<sym>[$€£¥])")
# A bracket in a label or header that states the row's or column's own unit: "(cents)", "(000)", "(%)".
_OWN_UNIT = re.compile(
    r"\((?P<u>cents?|¢|%|percent|thousands?|millions?|billions?|000s?|\$000s?|in\s+(?:thousands|millions|billions)|"
    r"miles|hours|hours:minutes|days|years|months|units|people|persons|ratio|x|per\s+share|\$|dollars)\)"
    r"|(?P<pct>%)\s*$|\bper\s+(?P<per>share|unit|gallon|mile|seat|employee)\b",
    re.I,
)
_UNIT_NAMES = {"¢": "cents", "cent": "cents", "percent": "%", "000": "thousands", "000s": "thousands",
               "$000": "thousands", "$000s": "thousands", "thousand": "thousands", "million": "millions",
               "billion": "billions", "dollars": "$"}  # fmt: skip


def scale_of(texts: Sequence[str]) -> str | None:
    """The scale a table's title, corner or header states, or None."""
    for text in texts:
        if not _SCALE_CONTEXT.search(text):
            continue
        for m in _SCALE.finditer(text):
            if m.group("thousands") and (len(m.group(0)) > 1 or "$" in text):
                return "thousands"
            if m.group("millions") and (len(m.group(0)) > 1 or re.search(r"[$€£]\s?m\b", text, re.I)):
                return "millions"
            if m.group("billions") and (len(m.group(0)) > 1 or re.search(r"[$€£]\s?b", text, re.I)):
                return "billions"
    return None


# A label's unit is stated by its head, not by a clause qualifying it ("shares used in computing … per share").
_HEAD_WORDS = 5


def own_unit(label: str) -> str | None:
    """The unit a row's or column's label states of itself: "(cents)", "(000)", "Load factor (%)", "per share"."""
    for m in _OWN_UNIT.finditer(label):
        if m.group("per") and len(label[: m.start()].split()) > _HEAD_WORDS:
            continue
        if m.group("u"):
            unit = re.sub(r"^in\s+", "", m.group("u").lower())
            return _UNIT_NAMES.get(unit, unit)
        if m.group("pct"):
            return "%"
        if m.group("per"):
            return f"per {m.group('per').lower()}"
    return None


def _month_end(year: int, month: int) -> date:
    return date(year, month, calendar.monthrange(year, month)[1])


def shift_month(year: int, month: int, by: int) -> tuple[int, int]:
    """(year, month) `by` months later (earlier when negative)."""
    n = year * 12 + month - 1 + by
    return n // 12, n % 12 + 1


def month_span(year: int, first_month: int, months: int) -> tuple[date, date]:
    """The first and last day of `months` months from (year, first_month)."""
    end_year, end_month = shift_month(year, first_month, months - 1)
    return date(year, first_month, 1), _month_end(end_year, end_month)


def _span(year: int, first_month: int, months: int, kind: str) -> Period:
    first, last = month_span(year, first_month, months)
    return Period(first.isoformat(), last.isoformat(), kind)


def _full_year(text: str) -> int | None:
    """The year a header names: a fiscal year written across two years is the one it ends in ("2023-24": 2024)."""
    split = split_year_end(text)
    if split is not None:
        return split
    years = years_in(text)
    if years:
        return int(years[-1])
    two = re.search(r"(?:fy|cy|q[1-4]|h[12])\s*'?(\d{2})\b", text, re.I)
    return 2000 + int(two.group(1)) if two else None


def sheet_year(title: Sequence[str]) -> int | None:
    """The one year a sheet's title lines name ("Operating budget FY2025", "FY25 Budget vs Actual"), or None."""
    years = {y for line in title if (y := _full_year(line)) is not None}
    return years.pop() if len(years) == 1 else None


def period_of(path: Sequence[str], fiscal: int = 1, year_of_sheet: int | None = None) -> Period | None:
    """The period a column's header path names, read down the path (a year above a quarter is that year's
    quarter).  A fiscal year is named by the calendar year it ends in; its quarters and halves count from its
    first month ``fiscal``. A quarter, half or month named with no year is of ``year_of_sheet`` (the one year the
    sheet's title names, "FY25 budget vs actual": its "Q2" column), when given."""
    text = " ".join(path)
    low = text.lower()
    # A full date ("2024-03-31", "Mar. 31, 2024", "December 31, 2018"): the balance at that day, or the span ended then.
    for part in reversed(path):
        day = parse_date(part.strip())
        if day is not None and not re.fullmatch(r"\s*\d{4}\s*", part):
            months = re.search(r"\b(three|six|nine|twelve)\s+months\s+ended\b", low)
            if months:
                n = {"three": 3, "six": 6, "nine": 9, "twelve": 12}[months.group(1)]
                y, m = shift_month(day.year, day.month, -(n - 1))
                return _span(y, m, n, "quarter" if n == 3 else "half" if n == 6 else "span" if n == 9 else "year")
            if re.search(r"\byears?\s+ended\b", low):
                y, m = shift_month(day.year, day.month, -11)
                return _span(y, m, 12, "year")
            if day.day == 1 and not re.search(r"\b(?:as\s+of|at)\b", low):  # a month stored as a date: Jul-24
                return _span(day.year, day.month, 1, "month")
            return Period(day.isoformat(), day.isoformat(), "day")
    year = _full_year(text)
    quarter = re.search(r"\bq([1-4])\b|\b(first|second|third|fourth)\s+quarter\b", low)
    half = re.search(r"\bh([12])\b|\b(first|second)\s+half\b", low)
    ended = re.search(rf"\b(?:year|fiscal\s+year|twelve\s+months)\s+ended\s+({'|'.join(MONTH_NUMBERS)})", low)
    month_named = next((hm for part in reversed(path) if (hm := header_month(part.strip())) is not None), None)
    if year is None and year_of_sheet is not None and (quarter or half or month_named is not None):
        year = year_of_sheet
    if year is None:
        return None
    fiscal_named = bool(re.search(r"\bfy|\bfiscal\b|\d{4}\s*[/–-]\s*\d{2,4}", low)) or fiscal != 1
    start_month = fiscal
    if ended:
        start_month = MONTH_NUMBERS[ended.group(1)] % 12 + 1
        fiscal_named = start_month != 1
    first_year = year - 1 if fiscal_named and start_month != 1 else year
    if month_named is not None:
        m = month_named[0]
        y = year if month_named[1] or not fiscal_named else (first_year if m >= start_month else year)
        return _span(y, m, 1, "month")
    if quarter:
        n = int(quarter.group(1)) if quarter.group(1) else ORDINALS[quarter.group(2)]
        y, m = shift_month(first_year, start_month, 3 * (n - 1))
        return _span(y, m, 3, "quarter")
    if half:
        n = int(half.group(1)) if half.group(1) else ORDINALS[half.group(2)]
        y, m = shift_month(first_year, start_month, 6 * (n - 1))
        return _span(y, m, 6, "half")
    return _span(first_year, start_month, 12, "year")


_FISCAL_END = re.compile(rf"fiscal\s+year\s+(?:ends?|ending|ended)\s+(?:on\s+)?({'|'.join(MONTH_NUMBERS)})", re.I)
# "Fiscal year begins 1 February", "fiscal year starting on February 1": its first month said.
_FISCAL_BEGINS = re.compile(
    rf"fiscal\s+year\s+(?:begins?|beginning|starts?|starting)\s+(?:on\s+)?(?:\d{{1,2}}\s+)?({'|'.join(MONTH_NUMBERS)})",
    re.I,
)


def _fiscal_start(texts: Sequence[str], column_paths: Sequence[Sequence[str]], period_dates: Sequence[date]) -> int:
    """The month the sheet's year starts in: a title's "fiscal year ending June 30", a run of twelve month columns
    from a month other than January (named or stored as dates), else January."""
    for text in texts:
        if (m := _FISCAL_END.search(text)) is not None:
            return MONTH_NUMBERS[m.group(1).lower()] % 12 + 1
        if (m := _FISCAL_BEGINS.search(text)) is not None:
            return MONTH_NUMBERS[m.group(1).lower()]
    named = fiscal_start([p[-1] for p in column_paths if p])
    if named != 1:
        return named
    months = [d.month for d in period_dates]
    for i in range(len(months) - 11):
        run = months[i : i + 12]
        if run[0] != 1 and all(b == a % 12 + 1 for a, b in pairwise(run)):
            return run[0]
    return 1


# A block of rows with figures under a header ends where a blank row is followed by another header.
_MIN_TABLE_ROWS = 2


def _texts(record: Sequence[str], first: int, last: int) -> list[str]:
    return [t.strip() for t in record[first : last + 1] if t.strip()]


def _header_like(record: Sequence[str], first: int, last: int) -> bool:
    """A row naming two or more columns apart and holding no figure: a table's header."""
    texts = _texts(record, first, last)
    return len(set(texts)) >= 2 and not any(_is_figure(t) for t in texts)


def table_regions(records: Sequence[Sequence[str]], row_numbers: Sequence[int]) -> list[tuple[list[int], int, int]]:
    """The tables one sheet holds, as (record indices, first column, last column): blocks of rows one under the other
    (a blank row, then a new header — with its title lines — under rows of figures), and blocks side by side
    (columns empty from top to bottom of the block between two groups of two or more columns, each with a header
    of its own). A sheet holding one table is one region. Cells keep their columns, so every address stays exact."""
    width = max((len(r) for r in records), default=0)
    rows = [i for i, r in enumerate(records) if any(t.strip() for t in r)]
    if not rows or width < 2:
        return [(rows, 0, max(width - 1, 0))]
    # one under the other: split before the title lines of a header that follows a blank row and rows of figures
    blocks: list[list[int]] = [[]]
    seen_figures = False
    for k, i in enumerate(rows):
        gap = k > 0 and row_numbers[i] - row_numbers[rows[k - 1]] > 1
        if gap and seen_figures:
            # the new block's header: this row, or the first row under its one-text title lines
            ahead = rows[k : k + 4]
            header_at = next((j for j in ahead if len(set(_texts(records[j], 0, width - 1))) >= 2), None)
            titles_only = header_at is not None and all(
                len(set(_texts(records[j], 0, width - 1))) == 1 for j in ahead[: ahead.index(header_at)]
            )
            if header_at is not None and titles_only and _header_like(records[header_at], 0, width - 1):
                blocks.append([])
                seen_figures = False
        blocks[-1].append(i)
        seen_figures = seen_figures or any(_is_figure(t) for t in records[i])
    regions: list[tuple[list[int], int, int]] = []
    for block in blocks:
        regions += _side_by_side(records, block, width)
    return [r for r in regions if r[0]]


def _side_by_side(records: Sequence[Sequence[str]], block: list[int], width: int) -> list[tuple[list[int], int, int]]:
    """A block's tables side by side: groups of columns between columns empty over the whole block."""
    filled = [any(j < len(records[i]) and records[i][j].strip() for i in block) for j in range(width)]
    groups: list[tuple[int, int]] = []
    for j, used in enumerate(filled):
        if used and (not groups or groups[-1][1] != j - 1):
            groups.append((j, j))
        elif used:
            groups[-1] = (groups[-1][0], j)
    tables = [g for g in groups if g[1] > g[0]]
    headed = [g for g in tables if any(_header_like(records[i], g[0], g[1]) for i in block[:6])]
    if len(groups) < 2 or len(headed) != len(groups):
        return [(block, 0, width - 1)]
    regions = []
    for first, last in groups:
        own = [i for i in block if _texts(records[i], first, last)]
        if len(own) >= _MIN_TABLE_ROWS:
            regions.append((own, first, last))
    return regions if len(regions) == len(groups) else [(block, 0, width - 1)]


def build_model(
    records: Sequence[Sequence[str]],
    row_numbers: Sequence[int],
    *,
    indents: Mapping[tuple[int, int], int] | None = None,
    hidden_rows: frozenset[int] = frozenset(),
    hidden_columns: frozenset[int] = frozenset(),
    merged: Mapping[int, frozenset[int]] | None = None,
    max_title_rows: int = 5,
) -> TableModel | None:
    """Read a table's structure from its records (merged ranges filled); None when every record is blank.

    ``indents`` maps (A1 row, 0-based column) to a label cell's indent level, where the file records one;
    ``merged``, an A1 row to the 0-based columns of that row that a merged range spanning columns fills after its
    first (a workbook's; a CSV has none).
    """
    merged = merged or {}
    indents = indents or {}
    # a long list of records: its structure is read from its first rows (its rows are not modelled one by one)
    long_list = len(records) > MAX_MODELLED_ROWS + _PROBE_ROWS
    if long_list:
        records, row_numbers = records[:_PROBE_ROWS], row_numbers[:_PROBE_ROWS]
    nonblank = [i for i, r in enumerate(records) if any(t.strip() for t in r)]
    if not nonblank:
        return None
    width = max(len(records[i]) for i in nonblank)
    rows = [list(records[i]) + [""] * (width - len(records[i])) for i in nonblank]
    numbers = [row_numbers[i] for i in nonblank]
    body = [r for r in rows[:_PROBE_ROWS] if sum(1 for t in r if t.strip()) >= 2]
    groups, label = _group_columns(body, _label_column(body, width), width)
    first_value = (label + 1) if label is not None else 0

    # Title lines: one text, standing in or left of the label column (a banner over the figures is a header).
    n_title = 0
    while n_title < min(max_title_rows, len(rows) - 1):
        texts = {t.strip() for t in rows[n_title] if t.strip()}
        # a banner over the figures is the header's top unless a row further down, before the figures, names the
        # columns itself (then the banner is a title line above it: "Fiscal Year Ended" over a unit line and dates)
        if len(texts) != 1 or (
            _banner(rows[n_title], max(first_value, 1)) and not _header_below(rows, n_title, first_value)
        ):
            break
        if not any(len({t.strip() for t in r if t.strip()}) >= 2 for r in rows[n_title + 1 : n_title + 6]):
            break
        n_title += 1
    title = tuple(next(t.strip() for t in rows[i] if t.strip()) for i in range(n_title))

    # The header: the first row after the titles, and each row under it that it spans while it holds no figures.
    header = [n_title]
    while len(header) < MAX_HEADER_ROWS and header[-1] + 1 < len(rows):
        upper, lower = rows[header[-1]], rows[header[-1] + 1]
        if any(_is_figure(t) for j, t in enumerate(lower) if j >= first_value):
            break
        names_below = any(t.strip() for j, t in enumerate(lower) if j >= max(first_value, 1))
        # a units row ("Years", "$'000") under every figure column is part of the header
        if names_below and _units_row(lower, first_value, len(header) > 1):
            header.append(header[-1] + 1)
            continue
        keyed = bool(first_value) and _is_period_header(lower[first_value - 1])  # a data row keyed by its year
        spanned = _spans(upper, lower, first_value, merged.get(numbers[header[-1]], frozenset()))
        if not names_below or keyed or not (spanned or _banner(upper, max(first_value, 1))):
            break
        header.append(header[-1] + 1)
    # A CSV writes a banner once with blanks right of it: each header row's text spans the blanks to its right,
    # up to the next text (the lowest row names every column itself).
    lowest = rows[header[-1]]
    used = [bool(lowest[j].strip()) or any(j < len(r) and r[j].strip() for r in rows[header[-1] + 1 :][:_PROBE_ROWS])
            for j in range(width)]  # fmt: skip
    filled_rows = []
    for h in header[:-1]:
        row, current = list(rows[h]), ""
        # a banner, one text over the figures, stands over all of them (it is often centred, not at their left)
        banner = next(t.strip() for t in row if t.strip()) if _banner(row, max(first_value, 1)) else ""
        for j in range(first_value, width):
            # an empty spacer column ends a banner: the table right of it is another
            current = (row[j].strip() or current or banner) if used[j] else ""
            row[j] = current
        filled_rows.append(row)
    filled_rows.append(rows[header[-1]])
    data_start = header[-1] + 1

    texts_for_scale = [*title, *(t for r in filled_rows for t in r[: max(first_value, 1)] if t.strip())]
    scale = scale_of(texts_for_scale) or scale_of([t for r in filled_rows for t in r if t.strip()][:3])
    currency_match = next((m for t in texts_for_scale if (m := _CURRENCY.search(t))), None)
    currency = (currency_match.group("code") or currency_match.group("sym")) if currency_match else None

    paths: list[tuple[str, ...]] = []
    for j in range(width):
        path = tuple(dict.fromkeys(" ".join(r[j].split()) for r in filled_rows if j < len(r) and r[j].strip()))
        if j < first_value and len(filled_rows) > 1 and not filled_rows[0][j].strip():
            # the label column is named by the header's top row; below it, its cell names the unit ("(In
            # thousands)", kept as its name, as a one-row header has it) or the subject or a period of the
            # figures ("Revenue by country", "2019"): no name of the labels
            path = tuple(p for p in path if scale_of([p]) or _UNIT_WORD.fullmatch(p) or own_unit(p))
        day = parse_date(path[-1]) if path else None
        if day is not None and day.day == 1 and re.fullmatch(r"\d{4}-\d\d-01", path[-1]):
            # a month stored as a date cell (shown "Jul-24"): named as the month it is
            path = (*path[:-1], f"{calendar.month_abbr[day.month]} {day.year}")
        paths.append(path)
    data = rows[data_start:]
    data_numbers = numbers[data_start:]
    dates = [d for j in range(first_value, width) if paths[j] and (d := parse_date(paths[j][-1])) is not None]
    fiscal = _fiscal_start(title, paths[first_value:], dates)
    year_of_sheet = sheet_year(title)
    columns = tuple(
        ColumnModel(
            letter=col_letter(j), path=paths[j],
            period=period_of(paths[j], fiscal, year_of_sheet) if j >= first_value else None,
            unit=own_unit(" ".join(paths[j])), hidden=j in hidden_columns,
        )
        for j in range(width)
        if paths[j] or any(j < len(r) and r[j].strip() for r in data[:_PROBE_ROWS])
    )  # fmt: skip
    value_cols = [j for j in range(first_value, width)]
    row_models = (
        _rows(data, data_numbers, label, value_cols, indents, hidden_rows, groups)
        if len(data) <= MAX_MODELLED_ROWS and not long_list
        else ()
    )
    return TableModel(
        title=title,
        header_rows=tuple(numbers[h] for h in header),
        label_letter=col_letter(label) if label is not None else None,
        group_letters=tuple(col_letter(j) for j in groups),
        columns=columns,
        rows=row_models,
        scale=scale,
        currency=currency,
        fiscal_start=fiscal,
    )


def _figures(row: Sequence[str], value_cols: Sequence[int]) -> list[float | None]:
    return [parse_number(row[j]) if j < len(row) and _is_figure(row[j]) else None for j in value_cols]


def _adds_up(total: Sequence[float | None], parts: Sequence[Sequence[float | None]]) -> bool:
    """Whether the parts' figures add up to the total's in every column where the total has one (at least one)."""
    if len(parts) < 2:
        return False
    checked = 0
    for k, t in enumerate(total):
        if t is None:
            continue
        values = [v for p in parts if (v := p[k]) is not None]
        if not values:
            continue
        if abs(sum(values) - t) > max(0.5 * len(values), abs(t) * 1e-6):
            return False
        checked += 1
    return checked > 0


_OUTER = -10  # the depth of a heading written left of the label column: outside every indented or blank-row section


def _rows(
    data: Sequence[Sequence[str]],
    numbers: Sequence[int],
    label: int | None,
    value_cols: Sequence[int],
    indents: Mapping[tuple[int, int], int],
    hidden_rows: frozenset[int],
    groups: Sequence[int] = (),
) -> tuple[RowModel, ...]:
    """Each data row's path, role and unit."""
    out: list[RowModel] = []
    stack: list[tuple[int, str, str | None]] = []  # (depth, heading, its unit) of the open sections
    members: list[list[float | None]] = []  # the figures of the open section's own lines (for its total)
    since_total: list[list[float | None]] = []
    subtotals: list[list[float | None]] = []  # the figures of the totals met so far (a grand total adds them up)
    lines: list[list[float | None]] = []  # every data line's figures
    last_was_heading = False
    n = len(data)
    # the table's last line with figures: a text after it heads nothing (a footnote written as a sentence)
    last_figures = max((i for i, row in enumerate(data) if any(f is not None for f in _figures(row, value_cols))),
                       default=n)  # fmt: skip
    for i, (row, number) in enumerate(zip(data, numbers, strict=True)):
        text = " ".join(row[label].split()) if label is not None and label < len(row) else ""
        figures = _figures(row, value_cols)
        has_figures = any(f is not None for f in figures)
        others = [t for j, t in enumerate(row) if j != label and j not in groups and t.strip()]
        outer = not text and not has_figures and label is not None and len(others) == 1 and row.index(others[0]) < label
        if outer:
            # a section's heading written in the code column left of the descriptions ("GENERAL FUND" over codes):
            # the outer level of the headings under it, which a blank row does not end
            text, others = " ".join(others[0].split()), []
        # the values of the columns grouping the rows ("Americas" of a Region column): the outer levels of its path
        grouped = tuple(dict.fromkeys(" ".join(row[g].split()) for g in groups if g < len(row) and row[g].strip()))
        # With any indentation recorded, a label without it stands at depth 0; with none, depth is unknown (-1).
        depth = indents.get((number, label), 0 if indents else -1) if label is not None else -1
        if depth < 0 and i and number - numbers[i - 1] > 1 and stack and not last_was_heading:
            stack = [e for e in stack if e[0] == _OUTER]  # a blank row ends the sections of a sheet with no indents
        unit = (own_unit(text) if text else None) or next((e[2] for e in reversed(stack) if e[2]), None)
        # A note under the table: one text, at the bottom, that reads as a note.
        if not has_figures and i > last_figures and (text or len(others) == 1):
            out.append(RowModel(number, text or others[0].strip(), (text or others[0].strip(),), "note"))
            continue
        if not has_figures and (_NOTE.match(text) or (not text and len(others) == 1 and _NOTE.match(others[0]))):
            if i > n - 4 or all(
                not any(t.strip() for t in r) or _NOTE.match(" ".join(r).strip()) for r in data[i + 1 :]
            ):
                out.append(RowModel(number, text or others[0].strip(), (text or others[0].strip(),), "note"))
                continue
        if text and not has_figures and not others and label is not None:
            # A heading: nested under the open heading when indented deeper (or right under another heading with
            # no indentation recorded), else a sibling of the heading at its depth.
            if outer:
                stack, depth = [], _OUTER
            elif depth >= 0:
                stack = [e for e in stack if e[0] < depth]
            elif not last_was_heading and stack and stack[-1][0] != _OUTER:
                stack = stack[:-1]
            unit = own_unit(text) or next((e[2] for e in reversed(stack) if e[2]), None)
            stack.append((depth, text.rstrip(":").strip(), unit))
            members, last_was_heading = [], True
            out.append(
                RowModel(
                    number, text, (*grouped, *(e[1] for e in stack)), "heading", unit, hidden=number in hidden_rows
                )
            )
            continue
        last_was_heading = False
        if depth >= 0 and stack and text:
            stack = [e for e in stack if e[0] < depth]
        total_match = _TOTAL.match(text) if text else None
        adds = _adds_up(figures, members) if members else False
        if total_match or (not text and has_figures and _adds_up(figures, since_total)):
            grand = bool(total_match and total_match.group("grand")) or not stack
            role = "total" if grand else "subtotal"
            checked = adds or any(_adds_up(figures, group) for group in (since_total, subtotals, lines))
            parents = (*grouped, *(e[1] for e in stack))
            # "Total Americas" closes the Americas section: its path is the section's, the total its own line.
            own = text or "Total"
            out.append(RowModel(number, text, (*parents, own), role, unit, checked, number in hidden_rows))
            closes = bool(stack) and bool(text) and stack[-1][1].lower() in text.lower()
            if closes or (not text and stack):
                stack = stack[:-1]
            members, since_total = [], []
            subtotals.append(figures)
            continue
        parents = (*grouped, *(e[1] for e in stack))
        out.append(
            RowModel(number, text, (*parents, text) if text else parents, "data", unit, hidden=number in hidden_rows)
        )
        if has_figures:
            members.append(figures)
            since_total.append(figures)
            lines.append(figures)
    return tuple(out)


ROLES = ("data", "heading", "subtotal", "total", "note")
SCALES = ("units", "thousands", "millions", "billions")


def with_fiscal_start(model: TableModel, fiscal: int) -> TableModel:
    """The model with its year starting in month `fiscal`: its columns' periods read again."""
    if fiscal == model.fiscal_start:
        return model
    year_of_sheet = sheet_year(model.title)
    columns = tuple(
        replace(c, period=period_of(c.path, fiscal, year_of_sheet) if c.period else None) for c in model.columns
    )
    return replace(model, fiscal_start=fiscal, columns=columns)


def corrected(model: TableModel, corrections: Mapping) -> TableModel:
    """The model with an editor's corrections laid over it: ``scale``, ``fiscal_start`` (a month 1-12) and
    ``roles`` (A1 row number as text -> role).  A correction the model cannot take (a row no longer there) is left
    out; the stored corrections stay as they were."""
    if not corrections:
        return model
    said: list[str] = []
    scale = model.scale
    if corrections.get("scale"):
        scale = None if corrections["scale"] == "units" else str(corrections["scale"])
        said.append(f"figures in {corrections['scale']}")
    fiscal = model.fiscal_start
    if corrections.get("fiscal_start"):
        fiscal = int(corrections["fiscal_start"])
        said.append(f"fiscal year from {calendar.month_name[fiscal]}")
    roles = {int(k): v for k, v in (corrections.get("roles") or {}).items() if v in ROLES}
    rows = tuple(
        replace(r, role=roles[r.row_number], checked=False) if r.row_number in roles else r for r in model.rows
    )
    said += [f"row {n} is a {role}" for n, role in sorted(roles.items()) if model.row(n) is not None]
    columns = with_fiscal_start(model, fiscal).columns
    return replace(model, scale=scale, fiscal_start=fiscal, rows=rows, columns=columns, corrected=tuple(said))


def rederive(
    model: TableModel, stored: Sequence[tuple[int, Sequence[str | None]]], letters: Sequence[str]
) -> TableModel:
    """The model's rows read again from the stored rows (A1 row number, cell texts in ``letters`` order) after an
    edit: the header, periods and scale stay as ingestion read them."""
    if not model.rows or len(stored) > MAX_MODELLED_ROWS:
        return model
    positions = [col_index(letter) for letter in letters]
    width = max(positions, default=-1) + 1
    records = []
    for _, values in stored:
        record = [""] * width
        for position, value in zip(positions, values, strict=False):
            record[position] = value or ""
        records.append(record)
    label = col_index(model.label_letter) if model.label_letter else None
    first_value = label + 1 if label is not None else 0
    hidden = frozenset(r.row_number for r in model.rows if r.hidden)
    indents = {(r.row_number, label): len(r.path) - 1 for r in model.rows if label is not None and r.path} if any(
        len(r.path) > 1 for r in model.rows
    ) else {}  # fmt: skip
    rows = _rows(records, [n for n, _ in stored], label, range(first_value, width), indents, hidden)
    return replace(model, rows=rows)


def facts(
    model: TableModel, sheet: str, rows: Sequence[tuple[int, Sequence[str | None]]], letters: Sequence[str]
) -> Iterator[Fact]:
    """Each figure cell of the stored rows (row number, cell texts in ``letters`` order) as a Fact."""
    by_letter = {c.letter: c for c in model.columns}
    by_row = {r.row_number: r for r in model.rows}
    for number, values in rows:
        row = by_row.get(number)
        if row is None or row.role in ("heading", "note"):
            continue
        for letter, text in zip(letters, values, strict=False):
            column = by_letter.get(letter)
            if column is None or letter == model.label_letter or not text or not _is_figure(text):
                continue
            value = parse_number(text)
            if value is None:
                continue
            yield Fact(
                ref=cell_ref(sheet, letter, number), value=value, text=text, row_path=row.path,
                column_path=column.path, period=column.period, unit=model.unit_of(number, letter), role=row.role,
            )  # fmt: skip


__all__ = [
    "PATH_SEPARATOR",
    "ROLES",
    "SCALES",
    "ColumnModel",
    "Fact",
    "Period",
    "RowModel",
    "TableModel",
    "build_model",
    "corrected",
    "facts",
    "month_span",
    "own_unit",
    "period_of",
    "rederive",
    "scale_of",
    "shift_month",
    "table_regions",
]  # fmt: skip
