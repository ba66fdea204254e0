"""Tables in PDF pages (financial statements, segment tables, any ruled or column-aligned table) as grids.

Pure: a PyMuPDF page in, values out. Each table becomes a grid of cell texts, top to bottom and left to
right, header rows first, as a spreadsheet would hold it, with every cell's rectangle on the page so a
citation can highlight exactly the cells it used. The ingestion pipeline stores each table as a sheet of its
PDF document (`core/ingest/pipeline.py`), so the planner, the exact table operations and the cell arithmetic
(`core/retrieval/cellmath.py`) read PDF statements as they read spreadsheets.

How a table is found, from MuPDF's words alone (no vector graphics, so ruled and unruled tables go one way):

* Words are grouped into visual rows, and a row into phrases ("segments") at gaps wider than a space; a "$"
  standing alone joins the figure to its right.
* A row holding a figure right of a label (or two figures) is a body row. Runs of body rows, with the label
  rows between them (section headings, wrapped labels), make a table; a year header, prose crossing the
  columns or a wide vertical gap ends one.
* Figure columns are clusters of figures' right edges (numbers are right-aligned), merged where their extents
  overlap and no row has a figure in both (centred or left-aligned columns). The label column is everything
  left of the first figure column; header rows above are matched to columns by horizontal overlap.
* A label-only row followed by a row starting in lower case (or ending in a joining word) is one wrapped
  label. The short lines just above the header are the title.

Measured with bench/pdf_tables.py against PyMuPDF's own `page.find_tables()`: on TAT-QA tables drawn as PDFs
this module placed 97.6% (ruled) and 97.5% (unruled) of the cells, find_tables ("lines" / "text") 30.2% and 8.7%;
on FinanceBench 10-K statements find_tables glued characters ("Netsales") and cut figures from their commas
("48213\\n,") and took 30-180 ms a page without its layout model (400-900 ms with it), this module ~2.5 ms a page,
reading the words of the TextPage the caller already made.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING

from core.lexicon.periods import YEAR_DIGITS
from core.text import BAD_CHARS

if TYPE_CHECKING:  # the caller hands MuPDF's objects in; importing it is theirs (core.ingest.pdf)
    import pymupdf

# x0, y0, x1, y1 in PDF points, top-left origin, in the page as displayed (the same space as core.ingest.pdf.Box)
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class PdfTable:
    """One table found on one page."""

    page_number: int  # 1-based
    title: str | None  # the heading above it ("Consolidated Statement of Income", "(in millions)"), if any
    records: tuple[tuple[str, ...], ...]  # rows top to bottom, cells left to right, "" for an empty cell
    boxes: tuple[tuple[Box | None, ...], ...]  # the same shape as records: each cell's rectangle (None if empty)
    bbox: Box  # the whole table


# A figure as statements print it, spaces removed: "1,234", "(1,234)", "$(53)", "12.5%", "(2.1%)", "—" or "―" (nil).
_FIGURE = re.compile(
    r"[(]?[-+−–]?[$€£¥]?[(]?[-+−–]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?<=\d)[)]?%?[)]?\*?|[$€£¥]?[-—–―−]{1,3}%?"
)
# A period heading: a year, maybe with footnote marks ("2019 (1)", "2018*"), spaces removed.
_YEAR = re.compile(YEAR_DIGITS + r"(?:\(\d{1,2}\)|\*+)*")
_FOOTNOTED_YEAR = re.compile(f"^({YEAR_DIGITS})" + r"\s*(?:\(\d{1,2}\)\s*|\*+\s*)+$")
_CURRENCY = frozenset("$€£¥")
# Words that end a wrapped label's first line: the label goes on below.
_JOINING = frozenset("and or of the to for in on from by with at as a an & less net including excluding".split())

# Geometry, in multiples of the page's typical word height (a word box is ~1.15 x the font size).
_SEGMENT_GAP = 0.5  # wider than a space (~0.25 em): the next phrase or cell
_ROW_GAP = 3.0  # a wider vertical gap between rows ends a table
_TITLE_GAP = 2.5  # the title sits this close above the table
_MARGIN = 0.06  # top and bottom share of the page where running headers and footers live
_MIN_FIGURES = 4  # a page with fewer figure words has no table (checked before any grouping)
_MAX_TITLE_ROWS = 3
_MAX_SECTION_ROWS = 5  # label rows passed between a header and the first body row ("Assets", "Current assets")
_MAX_TITLE_WORDS = 14
_PROSE_WORDS = 8  # a text row this long that reaches into the figure columns is prose, not a table row


@dataclass(slots=True)
class _Segment:
    """A phrase of a row: words closer than a wide space, or one figure with its currency sign."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    words: int
    figure: bool = False
    year: bool = False


@dataclass(slots=True)
class _Row:
    y0: float
    y1: float
    segments: list[_Segment]
    kind: str = "text"  # "body" (figures right of a label), "header" (years or several headings), "text"

    @property
    def x0(self) -> float:
        return self.segments[0].x0

    @property
    def x1(self) -> float:
        return max(s.x1 for s in self.segments)

    def text(self) -> str:
        return " ".join(s.text for s in self.segments)

    def words(self) -> int:
        return sum(s.words for s in self.segments)


@dataclass(slots=True)
class _Column:
    x0: float
    x1: float
    rows: set[int] = field(default_factory=set)

    def overlap(self, x0: float, x1: float) -> float:
        return min(self.x1, x1) - max(self.x0, x0)


def find_tables(page: pymupdf.Page, textpage: pymupdf.TextPage, page_number: int) -> list[PdfTable]:
    """The tables of one page, top to bottom; [] when it has none."""
    words = _words(page, textpage)
    if sum(1 for w in words if _is_figure(w[4])) < _MIN_FIGURES:
        return []
    height = _typical_height(words)
    rows = _rows(words, height)
    rows = _drop_running_lines(rows, float(page.rect.height), height)
    for row in rows:
        row.kind = _kind(row)
    if sum(1 for row in rows if row.kind == "body") < 2:
        return []
    tables: list[PdfTable] = []
    taken = -1  # rows up to this index belong to a table already (a title must not reach into it)
    for first, last in _body_runs(rows, height):
        built = _build(rows, first, last, taken, height, page_number)
        tables += [table for table, _ in built]
        if built:
            taken = built[-1][1]
    return tables


# ------------------------------------------------------------------------------------------- words and rows

Word = tuple[float, float, float, float, str]


def _words(page: pymupdf.Page, textpage: pymupdf.TextPage) -> list[Word]:
    """MuPDF's words in display space, horizontal ones only, text cleaned."""
    import pymupdf  # already imported by whoever made `page`

    rotation = page.rotation_matrix if page.rotation else None
    out: list[Word] = []
    for x0, y0, x1, y1, text, *_ in textpage.extractWORDS():
        if BAD_CHARS.search(text):
            text = BAD_CHARS.sub("", text)
        if not text or text.isspace():
            continue
        if rotation is not None:
            rect = (pymupdf.Rect(x0, y0, x1, y1) * rotation).normalize()
            x0, y0, x1, y1 = rect.x0, rect.y0, rect.x1, rect.y1
        if y1 - y0 > 1.5 * (x1 - x0) and len(text) > 2:
            continue  # vertical text (a rotated margin note): not part of a horizontal grid
        out.append((x0, y0, x1, y1, text))
    return out


def _is_figure(text: str) -> bool:
    return bool(_FIGURE.fullmatch(text)) or text.lower() in ("n/a", "nm", "n/m")


def _typical_height(words: Sequence[Word]) -> float:
    heights = sorted(w[3] - w[1] for w in words)
    return max(heights[len(heights) // 2], 1.0) if heights else 10.0


def _rows(words: Sequence[Word], height: float) -> list[_Row]:
    """Words grouped into visual rows (top to bottom), each split into segments (left to right)."""
    ordered = sorted(words, key=lambda w: (w[1] + w[3]) / 2)
    bands: list[list[Word]] = []
    band_y0 = band_y1 = 0.0
    for word in ordered:
        y0, y1 = word[1], word[3]
        if bands:
            overlap = min(band_y1, y1) - max(band_y0, y0)
            # Half the shorter height: a footnote mark rides on its row, the next row's words do not.
            if overlap >= 0.5 * min(band_y1 - band_y0, y1 - y0):
                bands[-1].append(word)
                continue
        bands.append([word])
        band_y0, band_y1 = y0, y1
    return [_row(sorted(band, key=lambda w: w[0]), height) for band in bands]


def _row(words: Sequence[Word], height: float) -> _Row:
    groups: list[list[Word]] = []
    for k, word in enumerate(words):
        if groups:
            previous = groups[-1][-1]
            gap = word[0] - previous[2]
            lone_sign = len(groups[-1]) == 1 and previous[4] in _CURRENCY and _is_figure(word[4])
            # A "$" before a figure opens that figure's cell, however close it sits to the cell before.
            opens_figure = word[4] in _CURRENCY and k + 1 < len(words) and _is_figure(words[k + 1][4])
            if lone_sign or (word[4] == "%" and _is_figure(previous[4])):
                groups[-1].append(word)
                continue
            if gap <= _SEGMENT_GAP * height and not opens_figure:
                groups[-1].append(word)
                continue
        groups.append([word])
    segments = []
    for group in groups:
        text = " ".join(w[4] for w in group)
        squeezed = text.replace(" ", "")
        year = bool(_YEAR.fullmatch(squeezed))
        figure = year or _is_figure(squeezed)
        segments.append(
            _Segment(
                text,
                min(w[0] for w in group),
                min(w[1] for w in group),
                max(w[2] for w in group),
                max(w[3] for w in group),
                len(group),
                figure,
                year,
            )
        )
    return _Row(min(s.y0 for s in segments), max(s.y1 for s in segments), segments)


def _drop_running_lines(rows: list[_Row], page_height: float, height: float) -> list[_Row]:
    """Rows without running headers and footers: lines in the page margins, a lone page number or short line
    set apart at the very top or bottom ("Table of Contents", "56")."""
    top, bottom = _MARGIN * page_height, (1 - _MARGIN) * page_height
    kept = [row for row in rows if row.y1 > top and row.y0 < bottom]

    def lone(row: _Row) -> bool:
        return len(row.segments) == 1 and row.words() <= 6

    while kept and lone(kept[0]) and (len(kept) == 1 or kept[1].y0 - kept[0].y1 > height):
        kept.pop(0)
    while kept and lone(kept[-1]) and (len(kept) == 1 or kept[-1].y0 - kept[-2].y1 > height):
        kept.pop()
    return kept


def _kind(row: _Row) -> str:
    figures = [s for s in row.segments if s.figure]
    if all(s.year for s in figures):
        # Years, or headings over several columns ("(In millions) | Dec 29, 2018 | Acquisitions | Other").
        return "header" if figures or len(row.segments) >= 3 else "text"
    # A figure right of a label, or two figures: a lone number at the left is a page number or a list mark.
    if len(figures) >= 2 or row.segments[0] is not figures[0]:
        return "body"
    return "text"


def _body_runs(rows: Sequence[_Row], height: float) -> list[tuple[int, int]]:
    """(first, last) row indices of runs of body rows; a year header or a wide gap between body rows ends a run."""
    runs: list[tuple[int, int]] = []
    first = last = -1
    for i, row in enumerate(rows):
        if row.kind != "body":
            continue
        if last >= 0:
            between = rows[last + 1 : i]
            pitch = [b.y0 - a.y1 for a, b in zip(rows[last:i], rows[last + 1 : i + 1], strict=True)]
            if any(r.kind == "header" for r in between) or max(pitch) > _ROW_GAP * height:
                runs.append((first, last))
                first = -1
        if first < 0:
            first = i
        last = i
    if first >= 0:
        runs.append((first, last))
    return runs


# ------------------------------------------------------------------------------------------- columns


def _figure_columns(rows: Sequence[_Row], indices: Iterable[int], height: float) -> list[_Column]:
    """Figure columns of some body rows: right edges clustered, then clusters merged where extents overlap and
    no row has a figure in both (centred or left-aligned figures)."""
    figures = sorted(
        ((s, i) for i in indices for s in rows[i].segments if s.figure and s is not rows[i].segments[0]),
        key=lambda f: f[0].x1,
    )
    clusters: list[_Column] = []
    last_x1 = -1e9
    for segment, i in figures:
        if not clusters or segment.x1 - last_x1 > 0.4 * height:
            clusters.append(_Column(segment.x0, segment.x1))
        column = clusters[-1]
        column.x0, column.x1 = min(column.x0, segment.x0), max(column.x1, segment.x1)
        column.rows.add(i)
        last_x1 = segment.x1
    merged = True
    while merged:
        merged = False
        clusters.sort(key=lambda c: c.x0)
        for a, b in pairwise(clusters):
            if a.overlap(b.x0, b.x1) > 0 and not a.rows & b.rows:
                a.x0, a.x1, a.rows = min(a.x0, b.x0), max(a.x1, b.x1), a.rows | b.rows
                clusters.remove(b)
                merged = True
                break
    return clusters


def _text_columns(
    rows: Sequence[_Row], indices: Sequence[int], figures: Sequence[_Column], label_limit: float
) -> list[_Column]:
    """Columns of words right of the labels that no figure column explains ("Title" beside "Age")."""
    texts = sorted(
        (
            (s, i)
            for i in indices
            for s in rows[i].segments[1:]
            if not s.figure and s.x0 > label_limit and not any(c.overlap(s.x0, s.x1) > 0 for c in figures)
        ),
        key=lambda t: t[0].x0,
    )
    clusters: list[_Column] = []
    for segment, i in texts:
        if clusters and clusters[-1].overlap(segment.x0, segment.x1) > 0:
            column = clusters[-1]
            column.x0, column.x1 = min(column.x0, segment.x0), max(column.x1, segment.x1)
            column.rows.add(i)
        else:
            clusters.append(_Column(segment.x0, segment.x1, {i}))
    return [c for c in clusters if len(c.rows) >= 2]


def _leading_figure_column(rows: Sequence[_Row], indices: Sequence[int]) -> _Column | None:
    """A column of figures at the left of every row (years or codes down the first column), if there is one."""
    lead = [rows[i].segments[0] for i in indices]
    if not all(s.figure for s in lead):
        return None
    return _Column(min(s.x0 for s in lead), max(s.x1 for s in lead), set(indices))


# ------------------------------------------------------------------------------------------- tables


def _build(
    rows: Sequence[_Row], first: int, last: int, taken: int, height: float, page_number: int
) -> list[tuple[PdfTable, int]]:
    """The tables around the body rows first..last (one, or several if prose cuts them), each with the index of
    its last row; [] if they are not a table."""
    body = [i for i in range(first, last + 1) if rows[i].kind == "body"]
    columns = _figure_columns(rows, body, height)
    strong = [c for c in columns if len(c.rows) >= 2]
    if len(body) < 2 or not strong:
        return []
    # Weak columns (one figure) that overlap a strong one are that column's stray figures.
    columns = [c for c in columns if len(c.rows) >= 2 or not any(c.overlap(s.x0, s.x1) > 0 for s in strong)]
    lead = _leading_figure_column(rows, body)
    if lead is not None:
        columns = [lead, *(c for c in columns if c.overlap(lead.x0, lead.x1) <= 0)]
    columns.sort(key=lambda c: c.x0)
    label_limit = columns[0].x0
    columns += _text_columns(rows, body, columns, label_limit)
    columns.sort(key=lambda c: c.x0)
    label_left = min(rows[i].x0 for i in body)
    # Prose that runs into the figure columns cuts the run: each part is a table of its own, or none.
    prose = [
        i
        for i in range(first, last + 1)
        if rows[i].kind == "text"
        and any(s.words >= _PROSE_WORDS and s.x1 > label_limit + height for s in rows[i].segments)
    ]
    if prose:
        found: list[tuple[PdfTable, int]] = []
        for a, b in pairwise([first - 1, *prose, last + 1]):
            part = [i for i in body if a < i < b]
            if len(part) >= 2:
                found += _build(rows, part[0], part[-1], found[-1][1] if found else taken, height, page_number)
        return found
    top = _header_top(rows, first, taken, label_left, label_limit, height)
    # Header rows are the rows above the first body row up to the last one reaching the figure columns; label
    # rows between them and the first body row are section headings of the body.
    header_end = top
    for i in range(top, first):
        if rows[i].kind == "header" or rows[i].x1 > label_limit:
            header_end = i + 1
    end = last + 1 if last + 1 < len(rows) and rows[last + 1].kind == "text" else last
    grid = [_cells(rows[i], columns, label_left, label_limit, height, i < header_end) for i in range(top, end + 1)]
    merged = _merge_wrapped(rows, top, header_end, grid, height)
    if end > last and merged[-1] is grid[-1]:
        merged.pop()  # the row after the table was not a label's second line
        end = last
    records = [[" ".join(s.text for s in cell) for cell in cells] for cells in merged]
    for row in records[: header_end - top]:
        # A period heading keeps only its year: "2019 (1)" and "2018*" carry footnote marks, not periods.
        row[1:] = [_FOOTNOTED_YEAR.sub(r"\1", cell) for cell in row[1:]]
    boxes: list[list[Box | None]] = [[_union(cell) for cell in cells] for cells in merged]
    records, boxes = _drop_empty_columns(records, boxes)
    if len(records) < 2 or len(records[0]) < 2 or _is_contents(records):
        return []
    title = _title(rows, top, taken, height)
    cell_boxes = [b for row in boxes for b in row if b is not None]
    bbox = (
        min(b[0] for b in cell_boxes),
        min(b[1] for b in cell_boxes),
        max(b[2] for b in cell_boxes),
        max(b[3] for b in cell_boxes),
    )
    table = PdfTable(
        page_number=page_number,
        title=title,
        records=tuple(tuple(r) for r in records),
        boxes=tuple(tuple(b) for b in boxes),
        bbox=bbox,
    )
    return [(table, end)]


def _header_top(
    rows: Sequence[_Row], first: int, taken: int, label_left: float, label_limit: float, height: float
) -> int:
    """The first row of the table: header rows above the first body row, past section headings under them."""
    top = first
    i = first - 1
    labels_passed = 0
    while i > taken:
        row = rows[i]
        if rows[i + 1].y0 - row.y1 > _ROW_GAP * height or row.kind == "body":
            break
        in_columns = [s for s in row.segments if s.x1 > label_limit]
        # A line starting where labels start and running into the columns is prose (or a title over it all).
        crossing = any(
            s.x0 < label_left + 3 * height and (s.x1 > label_limit + height or s.words >= _PROSE_WORDS)
            for s in in_columns
        )
        if row.kind == "header" or (in_columns and not crossing and row.words() < _PROSE_WORDS * 2):
            top = i
            labels_passed = 0
        elif (
            not in_columns
            and len(row.segments) == 1
            and row.words() <= _MAX_TITLE_WORDS
            and labels_passed < _MAX_SECTION_ROWS
        ):
            labels_passed += 1
        else:
            break
        i -= 1
    # Label rows right above the first body row, with no header above them: a heading ending in ":" opens the
    # body ("Current assets:"); other lines are the title.
    if top == first:
        while top - 1 > taken and top - 1 > i and rows[top - 1].text().endswith(":"):
            top -= 1
    return top


def _wraps(upper: Sequence[_Segment], lower: _Segment) -> bool:
    """Whether label text `lower` is the next line of label `upper`: it starts in lower case or with a dash, or
    `upper` ends in a joining word or comma, or leaves a bracket open.

    Not judged by width ("`upper` had no room for lower's first word"): measured on TAT-QA tables drawn as PDFs
    it merged more section headings into their first line item than it joined wrapped labels.
    """
    first = " ".join(s.text for s in upper)
    second = lower.text
    if first.endswith(":") or lower.x0 < upper[0].x0 - 1:
        return False
    return (
        second[0].islower()
        or first.count("(") > first.count(")")  # "Trade receivables (Note" goes on "2)"
        or (second[0] in "(—–-&" and len(second) > 1)
        or first.rsplit(" ", 1)[-1].lower() in _JOINING
        or first.endswith((",", "-", "—", "–"))
    )


def _cells(
    row: _Row, columns: Sequence[_Column], label_left: float, label_limit: float, height: float, header: bool
) -> list[list[_Segment]]:
    """A row's segments by column: [label, column 1, ...]."""
    cells: list[list[_Segment]] = [[] for _ in range(len(columns) + 1)]
    for k, segment in enumerate(row.segments):
        # In a header row only the first phrase can be the corner: a heading set apart from it that ends left
        # of the figures is the first column's, wider than its figures ("Organic local-" over "2.5 %").
        if segment.x1 <= label_limit + 1 and not ((segment.figure or header) and k > 0):
            cells[0].append(segment)
            continue
        if k == 0 and not segment.figure and segment.x0 < min(label_left + 3 * height, label_limit - 1):
            cells[0].append(segment)  # a long label running under the figure columns
            continue
        best = max(range(len(columns)), key=lambda c: columns[c].overlap(segment.x0, segment.x1))
        spanned = [c for c, col in enumerate(columns) if col.overlap(segment.x0, segment.x1) >= 0.2 * (col.x1 - col.x0)]
        if header and len(spanned) >= 2:
            best = spanned[0]  # a heading over several columns sits in the first, as a merged spreadsheet cell
        elif columns[best].overlap(segment.x0, segment.x1) <= 0:
            centre = (segment.x0 + segment.x1) / 2
            best = min(range(len(columns)), key=lambda c: abs((columns[c].x0 + columns[c].x1) / 2 - centre))
        cells[best + 1].append(segment)
    return cells


def _merge_wrapped(
    rows: Sequence[_Row],
    top: int,
    header_end: int,
    grid: list[list[list[_Segment]]],
    height: float,
) -> list[list[list[_Segment]]]:
    """The grid with a label wrapped over two rows joined into the row holding its figures."""
    merged: list[list[list[_Segment]]] = []
    for offset, cells in enumerate(grid):
        index = top + offset
        if merged and index - 1 >= header_end:
            previous = merged[-1]
            below = cells[0]
            close = rows[index].y0 - rows[index - 1].y1 <= 0.6 * height
            if close and previous[0] and below and not any(previous[1:]):
                if _wraps(previous[0], below[0]):
                    merged[-1] = [previous[0] + below, *cells[1:]]
                    continue
            # A label going on below the row that holds its figures.
            if close and previous[0] and below and any(previous[1:]) and not any(cells[1:]):
                if _wraps(previous[0], below[0]):
                    merged[-1] = [previous[0] + below, *previous[1:]]
                    continue
        merged.append(cells)
    return merged


def _union(segments: Sequence[_Segment]) -> Box | None:
    if not segments:
        return None
    return (
        min(s.x0 for s in segments),
        min(s.y0 for s in segments),
        max(s.x1 for s in segments),
        max(s.y1 for s in segments),
    )


def _drop_empty_columns(
    records: list[list[str]], boxes: list[list[Box | None]]
) -> tuple[list[list[str]], list[list[Box | None]]]:
    keep = [c for c in range(len(records[0])) if any(r[c] for r in records)] if records else []
    return [[r[c] for c in keep] for r in records], [[b[c] for c in keep] for b in boxes]


def _is_contents(records: Sequence[Sequence[str]]) -> bool:
    """A table of contents: one column of small whole numbers (page numbers) that never go down."""
    if len(records[0]) != 2:
        return False
    pages = [int(r[1]) for r in records if r[1].isdigit() and len(r[1]) <= 3]
    figures = sum(1 for r in records if r[1] and _is_figure(r[1].replace(" ", "")))
    return len(pages) >= 3 and len(pages) == figures and pages == sorted(pages)


def _title(rows: Sequence[_Row], top: int, taken: int, height: float) -> str | None:
    """The short lines right above the table, joined with " — "."""
    lines: list[str] = []
    below = top
    i = top - 1
    while i > taken and len(lines) < _MAX_TITLE_ROWS:
        row = rows[i]
        text = row.text()
        if rows[below].y0 - row.y1 > _TITLE_GAP * height or row.kind != "text":
            break
        if row.words() > _MAX_TITLE_WORDS or text.endswith((".", ";")) or len(row.segments) > 2:
            if lines and row.words() > _MAX_TITLE_WORDS and rows[below].y0 - row.y1 < 0.5 * height:
                return None  # the lines below end its paragraph ("... as follows ($ in millions):")
            break
        lines.append(text)
        below = i
        i -= 1
    if lines and lines[-1][0].islower():
        return None  # the end of a sentence, not a heading
    return " — ".join(reversed(lines)) or None
