"""PDF parsing: page text with a line map, overlapping chunks with exact offsets, and highlight boxes.

Pure: bytes in, values out. Nothing here touches the database or the UI.

Page text is built from PyMuPDF's "dict" extraction rather than taken from get_text("text"), so that every
character's line (and that line's rectangle) is known; that is what lets a chunk or a quote be highlighted.
How the text is laid out:

* A PyMuPDF line is one text line, or in financial tables usually one cell. Its spans are concatenated as
  they are (MuPDF already puts real and synthesised spaces inside spans, exactly as get_text("text") does),
  NULs and lone surrogates are dropped (Postgres text cannot hold them) and the line is stripped.
  Whitespace-only lines are dropped.
* Consecutive lines of a block that sit on the same visual row (table cells) are joined with one space, so
  a table row reads "Net earnings $ 17,941 20,878 14,714" rather than one number per line; other lines are
  joined with "\\n" and blocks with "\\n\\n", so the chunker can see paragraphs in the text itself.
* Blocks keep MuPDF's content-stream order (sort=False). Measured on FinanceBench filings, sort=True mostly
  moved footnote markers and "®" glyphs, split multi-line table headers ("U.S. Northwind" / "Stores") apart,
  and its (bottom, left) order would interleave the paragraphs of a true two-column page.

Coordinates (Box) are PDF points with a top-left origin in the page as displayed, i.e. the same space as
`page.rect` and a rendered pixmap. For unrotated pages (all FinanceBench filings) that is PyMuPDF's text
space; for a rotated page multiply by `page.derotation_matrix` to get back to it.
"""

from __future__ import annotations

import logging
import re
import threading
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.errors import CorruptPdf, EmptyFile, EncryptedPdf, NoTextLayer, TooManyPages, TooMuchContent
from core.ingest.limits import page_too_long, pdf_too_long
from core.ingest.pdf_tables import Box, PdfTable, find_tables
from core.text import BAD_CHARS

if TYPE_CHECKING:  # imported where MuPDF is called: 0.2-0.3 s the first page does not need (issue 26)
    import pymupdf

log = logging.getLogger(__name__)

# PyMuPDF's default text flags without TEXT_PRESERVE_LIGATURES, so "ﬁnancial" reads "financial" for keyword
# search and quotes, and without TEXT_PRESERVE_IMAGES, which would decode every image into the dict for nothing.
# TEXT_PRESERVE_WHITESPACE | TEXT_MEDIABOX_CLIP | TEXT_CID_FOR_UNKNOWN_UNICODE, written as their values so this
# module does not import PyMuPDF for them (tests/unit/test_pdf.py checks the values against PyMuPDF's).
TEXT_FLAGS = 2 | 64 | 128

# PyMuPDF is not thread-safe and Streamlit runs each session in its own thread: everything here that calls
# MuPDF holds this lock. Other modules that call PyMuPDF (page rendering) should take it too.
MUPDF_LOCK = threading.RLock()

_FIX_HINT = "Open it in a PDF viewer to check it, re-export or re-download it, and upload it again."


@dataclass(frozen=True)
class Page:
    number: int  # 1-based
    text: str  # the page text the chunks index into
    width: float
    height: float


@dataclass(frozen=True)
class Chunk:
    page_number: int  # 1-based
    chunk_index: int  # 0-based, running across the whole document (unique per document)
    start_char: int  # offsets into Page.text: page.text[start_char:end_char] == content exactly
    end_char: int
    content: str
    boxes: tuple[Box, ...]  # one rectangle per visual line the passage touches, clipped to the passage


@dataclass(frozen=True)
class ParsedPdf:
    page_count: int
    pages: tuple[Page, ...]
    chunks: tuple[Chunk, ...]
    title: str | None  # from metadata if meaningful
    tables: tuple[PdfTable, ...] = ()  # tables found on the pages (statements, segment tables), page order


def parse_pdf(
    data: bytes,
    *,
    chunk_chars: int = 1200,
    overlap_chars: int = 200,
    max_pages: int = 5000,
    name: str = "This PDF",
    max_page_chars: int | None = None,
    max_chars: int | None = None,
) -> ParsedPdf:
    """Parse PDF bytes into pages, overlapping chunks with exact offsets and highlight boxes, a title and tables.

    A page whose text (or whose content stream, checked first, before MuPDF lays out its glyphs) is past
    ``max_page_chars``, or a file past ``max_chars`` of text, raises TooMuchContent.
    """
    _check_sizes(chunk_chars, overlap_chars)
    with MUPDF_LOCK, _open(data, name) as doc:
        page_count = doc.page_count
        if page_count > max_pages:
            raise TooManyPages(
                f"{name} has {page_count} pages, over the limit of {max_pages}. "
                "Split it into smaller files, or raise WORKBENCH_MAX_PDF_PAGES."
            )
        pages: list[Page] = []
        chunks: list[Chunk] = []
        tables: list[PdfTable] = []
        total = 0
        for index in range(page_count):
            number = index + 1
            if max_page_chars is not None:
                _check_content_stream(doc, index, name, max_page_chars)
            layout = _load_layout(doc, index, name)
            total += len(layout.text)
            if max_page_chars is not None and len(layout.text) > max_page_chars:
                raise page_too_long(name, number, len(layout.text), max_page_chars)
            if max_chars is not None and total > max_chars:
                raise pdf_too_long(name, total, max_chars)
            pages.append(Page(number, layout.text, layout.width, layout.height))
            tables.extend(_page_tables(layout, number, name))
            for start, end in chunk_page(layout.text, chunk_chars=chunk_chars, overlap_chars=overlap_chars):
                chunks.append(
                    Chunk(number, len(chunks), start, end, layout.text[start:end], tuple(layout.boxes(start, end)))
                )
        chunks = _without_running_lines(chunks, pages)
        if not chunks:
            raise NoTextLayer(
                f"{name} has no text layer (scanned?). "
                "Run OCR on it (e.g. `ocrmypdf in.pdf out.pdf`) and upload the result."
            )
        title = _meaningful_title(doc.metadata or {})
    return ParsedPdf(page_count, tuple(pages), tuple(chunks), title, tuple(tables))


def line_key(line: str) -> str:
    """A line as it repeats from page to page: lower case, digits as '#' ("Page 12 of 90" is "page # of #")."""
    return re.sub(r"\d+", "#", " ".join(line.lower().split()))


def running_lines(texts: Sequence[str]) -> frozenset[str]:
    """Running headers and footers: lines (as line_key reads them) among the first or last two of at least a fifth
    of the pages, and of three or more ("Table of Contents", "Northwind Co., Inc. | 2021 Form 10-K", page numbers)."""
    counts: Counter[str] = Counter()
    for text in texts:
        lines = [line for line in text.split("\n") if line.strip()]
        counts.update({line_key(line) for line in lines[:2] + lines[-2:]})
    need = max(3, len(texts) // 5)
    return frozenset(key for key, n in counts.items() if n >= need and key)


def _body(text: str, running: frozenset[str]) -> tuple[int, int]:
    """The page text between its running header and footer lines: (start, end) offsets."""
    lines = [(m.start(), m.end()) for m in re.finditer(r"[^\n]+", text) if m.group().strip()]
    head = 0
    while head < min(2, len(lines)) and line_key(text[slice(*lines[head])]) in running:
        head += 1
    tail = len(lines)
    while tail > max(head, len(lines) - 2) and line_key(text[slice(*lines[tail - 1])]) in running:
        tail -= 1
    if head >= tail:
        return 0, len(text)  # nothing but those lines: the page keeps them, a page with text is never left bare
    return lines[head][0], lines[tail - 1][1]


def _without_running_lines(chunks: Sequence[Chunk], pages: Sequence[Page]) -> list[Chunk]:
    """The chunks with running headers and footers cut off their edges (a passage answer never opens with "Table of
    Contents"), a chunk of nothing else dropped, re-numbered. A cut line is one visual row: one box fewer."""
    running = running_lines([page.text for page in pages])
    if not running:
        return list(chunks)
    bodies = {page.number: _body(page.text, running) for page in pages}
    texts = {page.number: page.text for page in pages}
    kept: list[Chunk] = []
    for chunk in chunks:
        low, high = bodies[chunk.page_number]
        start, end, boxes = max(chunk.start_char, low), min(chunk.end_char, high), list(chunk.boxes)
        if start >= end:
            continue
        text = texts[chunk.page_number]
        cut_before = sum(1 for line in text[chunk.start_char : start].split("\n") if line.strip())
        cut_after = sum(1 for line in text[end : chunk.end_char].split("\n") if line.strip())
        boxes = boxes[cut_before : len(boxes) - cut_after]
        kept.append(Chunk(chunk.page_number, len(kept), start, end, text[start:end], tuple(boxes)))
    return kept


# Bytes of drawing instructions per character a page may hold before its layout is even tried: a glyph takes
# a byte or more, so a stream this much longer than the character cap is a bomb (a 272 KB PDF whose one page
# inflates to 60 MB of text made MuPDF's layout take 6 GB); vector drawings take more bytes per glyph, hence 64.
_CONTENT_BYTES_PER_CHAR = 64


def _check_content_stream(doc: pymupdf.Document, index: int, name: str, max_page_chars: int) -> None:
    try:
        size = len(doc[index].read_contents())
    except Exception:  # a damaged page: _load_layout says so
        return
    if size > max_page_chars * _CONTENT_BYTES_PER_CHAR:
        raise TooMuchContent(
            f"{name}: page {index + 1}'s drawing instructions unpack to {size / 1e6:,.0f} MB, far more than any "
            "real page (it may be built to exhaust memory). Remove that page or print the PDF again, "
            "or raise WORKBENCH_MAX_PAGE_CHARS if it is genuine."
        )


def _page_tables(layout: _Layout, number: int, name: str) -> list[PdfTable]:
    # Tables add figures to a page whose text is already indexed: a page whose layout defeats the table finder
    # keeps its passages rather than failing the whole file.
    try:
        return find_tables(layout.page, layout.textpage, number)
    except Exception:
        log.warning("%s: the tables of page %d could not be read; its text is kept", name, number, exc_info=True)
        return []


def find_quote_boxes(data: bytes, page_number: int, quote: str) -> list[Box]:
    """Rectangles of `quote` on page `page_number` (1-based), one per visual line; [] if it is not found."""
    with MUPDF_LOCK, _open(data, "This PDF") as doc:
        if not 1 <= page_number <= doc.page_count:
            raise ValueError(f"page {page_number} is outside 1..{doc.page_count}")
        layout = _load_layout(doc, page_number - 1, "This PDF")
        if not quote.split():
            return []
        found = find_quote(layout.text, quote)
        if found is not None:
            return layout.boxes(*found)
        # Our matcher cannot see through hyphenation at line ends ("inter-\nnational"); MuPDF's search can.
        hits = layout.page.search_for(" ".join(quote.split()))
        return [layout.display(tuple(rect)) for rect in hits or ()]


# ---------------------------------------------------------------------------------------------- chunking

# Break strengths: a chunk prefers to end (and an overlap to start) at the strongest break available.
# A break is a whitespace run; a chunk ends where a run starts and starts where a run ends.
_WORD, _SENTENCE, _LINE, _SENTENCE_LINE, _PARAGRAPH = range(5)
_STRONG_LEVELS = (_PARAGRAPH, _SENTENCE_LINE, _LINE, _SENTENCE)  # strongest first; words are found on demand
_WHITESPACE = re.compile(r"\s+")
_LINE_RUN = re.compile(r"\s*\n\s*")
_SENTENCE_RUN = re.compile(r"[.!?][\"')\]’”]*([^\S\n]+)(?=\S)")
_SENTENCE_END = re.compile(r"[.!?][\"')\]’”]*$")
# An end is only chosen this far into the window, so a paragraph break near the start cannot make a tiny chunk.
_MIN_FILL = 0.5


def chunk_page(page_text: str, *, chunk_chars: int, overlap_chars: int) -> list[tuple[int, int]]:
    """Split page text into (start, end) spans of at most chunk_chars, overlapping by at most overlap_chars."""
    _check_sizes(chunk_chars, overlap_chars)
    first = len(page_text) - len(page_text.lstrip())
    last = len(page_text.rstrip())
    if first >= last:
        return []
    breaks = _Breaks(page_text, first, last)
    spans: list[tuple[int, int]] = []
    start = first
    previous_end = first
    while True:
        end = breaks.choose_end(start, previous_end, chunk_chars)
        spans.append((start, end))
        if end >= last:
            return spans
        # Where the next chunk starts if it does not overlap: the first character after the whitespace.
        after = breaks.next_start(end)
        start = breaks.choose_overlap_start(max(end - overlap_chars, start + 1), end, after)
        if start < after and not breaks.can_end(start, end, chunk_chars):
            # With this much overlap the next chunk could only end mid-word: give up the overlap instead.
            start = after
        previous_end = end


def _check_sizes(chunk_chars: int, overlap_chars: int) -> None:
    if chunk_chars < 1:
        raise ValueError(f"chunk_chars must be positive, not {chunk_chars}")
    if not 0 <= overlap_chars < chunk_chars:
        raise ValueError(f"overlap_chars must be in 0..chunk_chars-1, not {overlap_chars}")


class _Breaks:
    """The breaks of a text by strength, for picking chunk ends and starts.

    Line, paragraph and sentence breaks are few and found up front by regex; word breaks are every space, so
    they are looked for only near a window's edge, and only when no stronger break is there (measured: indexing
    every whitespace run in Python cost more than MuPDF's own text extraction).
    """

    def __init__(self, text: str, first: int, last: int) -> None:
        self.text = text
        self.last = last
        # Per strength: positions where a chunk may end (a run's start) and may start (a run's end).
        self.ends: list[list[int]] = [[] for _ in range(5)]
        self.starts: list[list[int]] = [[] for _ in range(5)]
        for match in _LINE_RUN.finditer(text, first, last):
            run_start, run_end = match.span()
            if match.group().count("\n") >= 2:
                level = _PARAGRAPH
            else:
                level = _SENTENCE_LINE if self._ends_sentence(run_start, run_end) else _LINE
            self.ends[level].append(run_start)
            self.starts[level].append(run_end)
        for match in _SENTENCE_RUN.finditer(text, first, last):
            run_start, run_end = match.span(1)
            if not text[run_end].islower():
                self.ends[_SENTENCE].append(run_start)
                self.starts[_SENTENCE].append(run_end)

    def _ends_sentence(self, run_start: int, run_end: int) -> bool:
        # A capital, digit or symbol after ". " marks a sentence; a lower-case word means "e.g. the" or "Inc. and".
        tail = self.text[max(run_start - 4, 0) : run_start]
        return bool(_SENTENCE_END.search(tail)) and not self.text[run_end].islower()

    def _is_end(self, position: int) -> bool:
        text = self.text
        return text[position].isspace() and not text[position - 1].isspace()

    def _latest_end(self, low: int, high: int) -> int | None:
        """The last position in [low, high] where a whitespace run starts."""
        for position in range(high, low - 1, -1):
            if self._is_end(position):
                return position
        return None

    def choose_end(self, start: int, previous_end: int, chunk_chars: int) -> int:
        """The end of the chunk starting at `start`: the strongest break late in the window, past previous_end."""
        limit = start + chunk_chars
        if self.last <= limit:
            return self.last
        floor = max(start, previous_end)  # ending at or before the previous end would make no progress
        fill = max(floor + 1, start + int(chunk_chars * _MIN_FILL))
        for level in _STRONG_LEVELS:
            positions = self.ends[level]
            i = bisect_right(positions, limit) - 1
            if i >= 0 and positions[i] >= fill:
                return positions[i]
        # Any whitespace, preferably late; else a single token longer than a chunk, which has to be cut.
        found = self._latest_end(floor + 1, limit)
        return limit if found is None else found

    def can_end(self, start: int, previous_end: int, chunk_chars: int) -> bool:
        """Whether a chunk starting at `start` can end at a break beyond previous_end."""
        limit = start + chunk_chars
        return self.last <= limit or self._latest_end(previous_end + 1, limit) is not None

    def next_start(self, end: int) -> int:
        """The first non-whitespace position at or after `end`."""
        match = _WHITESPACE.match(self.text, end)
        return match.end() if match else end  # no whitespace: `end` cut a token and the next chunk continues it

    def choose_overlap_start(self, low: int, end: int, fallback: int) -> int:
        """Where the next chunk starts: the strongest break early in [low, end), else `fallback`."""
        if low >= end:
            return fallback
        # Prefer breaks in the first half of the overlap window so the overlap is not a token or two.
        early = low + (end - low) // 2
        for level in _STRONG_LEVELS:
            positions = self.starts[level]
            i = bisect_left(positions, low)
            if i < len(positions) and positions[i] <= early:
                return positions[i]
        text = self.text
        for position in range(low, end):
            if not text[position].isspace() and text[position - 1].isspace():
                return position
        return fallback


# ---------------------------------------------------------------------------------------------- quotes

# Typographic variants a model tends to normalise when it quotes; each maps one character to one character so
# that positions in the normalised text are positions in the page text.
_TYPOGRAPHY = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "–": "-", "—": "-", "‐": "-", "‑": "-"})


def find_quote(text: str, quote: str) -> tuple[int, int] | None:
    """(start, end) of `quote` in `text`, ignoring whitespace differences, then case and typography; or None."""
    tokens = quote.split()
    if not tokens:
        return None
    # Exact up to the amount and kind of whitespace (line breaks, cell joins, non-breaking spaces).
    match = re.search(r"\s+".join(map(re.escape, tokens)), text)
    if match:
        return match.span()
    # Whitespace-free, then also case- and typography-free: survives "$52,862" quoted for "$ 52,862".
    squeezed, where = _squeeze(text)
    needle = "".join(tokens)
    for fold in (False, True):
        haystack, wanted = (_fold(squeezed), _fold(needle)) if fold else (squeezed, needle)
        at = haystack.find(wanted)
        if at >= 0:
            return where[at], where[at + len(wanted) - 1] + 1
    return None


def _squeeze(text: str) -> tuple[str, list[int]]:
    where = [i for i, char in enumerate(text) if not char.isspace()]
    return "".join(text[i] for i in where), where


def _fold(text: str) -> str:
    folded = text.translate(_TYPOGRAPHY).lower()
    # lower() can change length ("İ"), which would break the position map: fall back to typography only.
    return folded if len(folded) == len(text) else text.translate(_TYPOGRAPHY)


# ---------------------------------------------------------------------------------------------- layout


# How MuPDF's "words" extraction splits a line: at code points up to 32 and at no-break spaces.
_MUPDF_WORD = re.compile(r"[^\x00-\x20\xa0]+")

Edges = tuple[tuple[int, int, float, float], ...]  # (start, end, x0, x1): a piece of a line, in page offsets


@dataclass(frozen=True, slots=True)
class _Segment:
    """One PyMuPDF line (a text line or a table cell) placed in the page text."""

    start: int  # its stripped text is page_text[start:end]
    end: int
    row: int  # visual row; segments of one row are highlighted as one rectangle
    bbox: Box  # PyMuPDF text space
    horizontal: bool
    key: tuple[int, int]  # (block, line) numbers in MuPDF's extraction, to find the line's words
    spans: Edges  # each span's characters and horizontal extent


def _x_range(edges: Edges, start: int, end: int, default: tuple[float, float]) -> tuple[float, float]:
    """Horizontal extent of page_text[start:end] given pieces of a line; exact at piece edges, else interpolated."""
    x0, x1 = default
    found_start = False
    for piece_start, piece_end, left, right in edges:
        width = piece_end - piece_start
        if not found_start and start < piece_end:
            found_start = True
            x0 = left + (right - left) * max(start - piece_start, 0) / width
        if piece_start < end:
            x1 = left + (right - left) * (min(end, piece_end) - piece_start) / width
    return x0, x1


class _Layout:
    """A page's text and the map from its characters to rectangles.

    Full lines use their span boxes. A box cut inside a line uses MuPDF's word boxes, exact at the word edges
    where chunks and quotes start and end; they are fetched from the same TextPage only when a cut needs them
    (about 0.5 ms a page; "rawdict" character boxes cost 5-11 ms a page, as much as the rest of the parse).
    """

    def __init__(self, page: pymupdf.Page, textpage: pymupdf.TextPage, extracted: Mapping[str, Any]) -> None:
        rect = page.rect
        self.width = float(rect.width)
        self.height = float(rect.height)
        # Text coordinates are in the unrotated page; boxes are clipped to it, then turned to display space.
        unrotated = rect * page.derotation_matrix if page.rotation else rect
        self._clip = (unrotated.x0, unrotated.y0, unrotated.x1, unrotated.y1)
        self._rotation = page.rotation_matrix if page.rotation else None
        self.page = page  # the TextPage needs its page alive
        self.textpage = textpage  # kept for its word boxes and tables, so MuPDF interprets the page only once
        self.text, self.segments = _build_text(extracted)
        self._starts = [segment.start for segment in self.segments]
        self._words: dict[tuple[int, int], list[tuple[str, float, float]]] | None = None
        self._word_edges: dict[int, Edges | None] = {}

    def _edges_of_words(self, index: int) -> Edges | None:
        """The word pieces of segment `index`, or None if MuPDF's words do not line up with its text."""
        if index in self._word_edges:
            return self._word_edges[index]
        if self._words is None:
            self._words = {}
            for x0, _, x1, _, word, block, line, _ in self.textpage.extractWORDS():
                self._words.setdefault((block, line), []).append((word, x0, x1))
        segment = self.segments[index]
        found = self._words.get(segment.key, [])
        mine = list(_MUPDF_WORD.finditer(self.text, segment.start, segment.end))
        edges: Edges | None = None
        # Dropped NULs or exotic spaces at a line's edge can make them differ: then spans are the fallback.
        if len(found) == len(mine) and all(m.group() == w[0] for m, w in zip(mine, found, strict=True)):
            edges = tuple((m.start(), m.end(), w[1], w[2]) for m, w in zip(mine, found, strict=True))
        self._word_edges[index] = edges
        return edges

    def boxes(self, start: int, end: int) -> list[Box]:
        """One rectangle per visual row for page_text[start:end], clipped to those characters when horizontal."""
        rows: dict[int, list[float]] = {}
        i = max(bisect_right(self._starts, start) - 1, 0)
        segments = self.segments
        while i < len(segments) and segments[i].start < end:
            segment = segments[i]
            i += 1
            if segment.end <= start:
                continue
            x0, y0, x1, y1 = segment.bbox
            if segment.horizontal:
                lo, hi = max(start, segment.start), min(end, segment.end)
                edges = None
                if lo > segment.start or hi < segment.end:
                    edges = self._edges_of_words(i - 1)
                x0, x1 = _x_range(edges or segment.spans, lo, hi, (x0, x1))
            box = rows.get(segment.row)
            if box is None:
                rows[segment.row] = [x0, y0, x1, y1]
            else:
                box[0], box[1], box[2], box[3] = min(box[0], x0), min(box[1], y0), max(box[2], x1), max(box[3], y1)
        out: list[Box] = []
        cx0, cy0, cx1, cy1 = self._clip
        for x0, y0, x1, y1 in rows.values():
            # Font ascenders can poke past the page edge; a highlight must not.
            x0, x1 = min(max(x0, cx0), cx1), min(max(x1, cx0), cx1)
            y0, y1 = min(max(y0, cy0), cy1), min(max(y1, cy0), cy1)
            out.append(self.display((x0, y0, x1, y1)))
        return out

    def display(self, box: tuple[float, ...]) -> Box:
        """A box in PyMuPDF text space turned into the displayed page's space."""
        if self._rotation is None:
            return (float(box[0]), float(box[1]), float(box[2]), float(box[3]))
        import pymupdf

        rect = (pymupdf.Rect(box) * self._rotation).normalize()
        return (float(rect.x0), float(rect.y0), float(rect.x1), float(rect.y1))


def _build_text(page_dict: Mapping[str, Any]) -> tuple[str, list[_Segment]]:
    """Page text and its line map from a "dict" extraction."""
    parts: list[str] = []
    segments: list[_Segment] = []
    position = 0
    row = -1
    for block_number, block in enumerate(page_dict["blocks"]):
        if block.get("type", 0) != 0:
            continue
        previous: _Segment | None = None
        for line_number, line in enumerate(block["lines"]):
            spans = line["spans"]
            texts = [span["text"] for span in spans]
            raw = "".join(texts)
            if not raw or raw.isspace():
                continue
            if BAD_CHARS.search(raw):
                texts = [BAD_CHARS.sub("", text) for text in texts]
                raw = "".join(texts)
            stripped = raw.strip()
            if not stripped:
                continue
            x0, y0, x1, y1 = line["bbox"]
            dx, dy = line["dir"]
            horizontal = dx > 0 and abs(dy) < 1e-3
            if not segments:
                separator = ""
            elif previous is None:
                separator = "\n\n"
            elif horizontal and previous.horizontal and _same_row(previous.bbox, (x0, y0, x1, y1)):
                separator = " "
            else:
                separator = "\n"
            if separator != " ":
                row += 1
            parts.append(separator)
            start = position + len(separator)
            parts.append(stripped)
            position = start + len(stripped)
            offset = start - (len(raw) - len(raw.lstrip()))  # page offset of raw[0]
            span_edges = []
            for span, text in zip(spans, texts, strict=True):
                if text:
                    left, _, right, _ = span["bbox"]
                    span_edges.append((offset, offset + len(text), left, right))
                    offset += len(text)
            previous = _Segment(
                start, position, row, (x0, y0, x1, y1), horizontal, (block_number, line_number), tuple(span_edges)
            )
            segments.append(previous)
    return "".join(parts), segments


def _same_row(left: Box, right: Box) -> bool:
    # Table cells: the next line starts right of the previous one and shares most of its height.
    overlap = min(left[3], right[3]) - max(left[1], right[1])
    shorter = min(left[3] - left[1], right[3] - right[1])
    return right[0] >= left[2] - 1.0 and overlap >= 0.5 * shorter


# ---------------------------------------------------------------------------------------------- opening


def _open(data: bytes, name: str) -> pymupdf.Document:
    if not data:
        raise EmptyFile(f"{name} is empty (0 bytes). Check the file and upload it again.")
    import pymupdf

    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except Exception as exc:  # MuPDF reports bad input as FileDataError, RuntimeError or its own error types
        raise CorruptPdf(f"{name} cannot be read as a PDF: it is damaged or not a PDF at all. {_FIX_HINT}") from exc
    # PyMuPDF already tries the empty user password on open; try it explicitly in case that ever changes.
    if doc.needs_pass and not doc.authenticate(""):
        doc.close()
        raise EncryptedPdf(f"{name} is password-protected. Remove the password (e.g. print to PDF) and upload again.")
    try:
        page_count = doc.page_count
        repaired = doc.is_repaired
    except Exception as exc:  # a broken page tree can fail here rather than on open
        doc.close()
        raise CorruptPdf(f"{name} is damaged: its pages cannot be read. {_FIX_HINT}") from exc
    # MuPDF silently rebuilds a truncated file from what is left, dropping pages or text. A file it had to
    # repair that also lacks the closing %%EOF is a cut-off download; repaired files that end properly
    # (a wrong xref offset, common in the wild) are kept.
    if page_count == 0 or (repaired and b"%%EOF" not in data[-2048:]):
        doc.close()
        raise CorruptPdf(f"{name} is truncated or damaged (incomplete download?). {_FIX_HINT}")
    return doc


def _load_layout(doc: pymupdf.Document, index: int, name: str) -> _Layout:
    try:
        page = doc.load_page(index)
        textpage = page.get_textpage(flags=TEXT_FLAGS)
        extracted = textpage.extractDICT()
    except Exception as exc:  # MuPDF raises for a page whose objects are missing or unreadable
        raise CorruptPdf(f"{name} is damaged: page {index + 1} cannot be read. {_FIX_HINT}") from exc
    return _Layout(page, textpage, extracted)


_FILE_NAME = re.compile(r"\.(docx?|pdf|xlsx?|pptx?|indd|rtf|txt|html?|tmp)$|^microsoft (word|excel|powerpoint) - ")
_PLACEHOLDER_TITLES = frozenset({"untitled", "untitled document", "title", "document", "pdf", "none", "null"})


def _meaningful_title(metadata: Mapping[str, Any]) -> str | None:
    title = " ".join(BAD_CHARS.sub("", str(metadata.get("title") or "")).split())
    lowered = title.lower()
    # EDGAR filings often carry an accession number ("0000004962-23-000006") or a file name as the title.
    if len(title) < 3 or not any(char.isalpha() for char in title):
        return None
    if lowered in _PLACEHOLDER_TITLES or _FILE_NAME.search(lowered):
        return None
    return title
