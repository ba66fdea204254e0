"""The PDF page viewer: one stored page rendered to PNG, with a cited passage highlighted."""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from psycopg.rows import dict_row

from core.db import Database, q
from core.errors import DocumentNotFound, NotAPdf, PageOutOfRange
from core.ingest.pdf import MUPDF_LOCK, Box, find_quote_boxes, line_key
from core.retrieval.quoted import passage_lines, quoted_lines

if TYPE_CHECKING:  # imported where a page is rendered: the first page of the app does not need it (issue 26)
    import pymupdf


@dataclass(frozen=True)
class Passage:
    """A stored chunk of a PDF: the passage a citation points at."""

    chunk_index: int
    page: int  # 1-based
    text: str
    boxes: tuple[Box, ...]  # PDF points, top-left origin, page as displayed


@dataclass(frozen=True)
class CitedCell:
    """A cited cell of a table read from a PDF page, as the viewer highlights it."""

    page: int  # 1-based
    boxes: tuple[Box, ...]  # the row's label and the cell
    label: str | None  # the row's label (the line item)
    column: str
    value: str | None


@dataclass(frozen=True)
class RenderedPage:
    """A rendered page and what was highlighted on it."""

    document_id: int
    title: str
    room: str
    page: int  # 1-based
    page_count: int
    png: bytes
    width: int  # pixels
    height: int
    highlighted: bool  # the passage was drawn on this page
    passage: Passage | None  # the requested chunk (possibly on another page), None if none was asked or found
    render_ms: float
    cell: CitedCell | None = None  # the requested table cell, None if none was asked or found
    quoted_lines: tuple[int, ...] = ()  # the passage's lines highlighted as the answer's quote; () = all of it


class _PngCache:
    """The last pages rendered, by document, page, resolution and highlight boxes: a citation clicked again, or
    paging back to it, shows the same picture without MuPDF (about 55 ms a page at 150 dpi). At most `max_bytes`
    of PNG (a page at 150 dpi is 0.2-1 MB)."""

    def __init__(self, max_bytes: int = 64 * 1024 * 1024) -> None:
        self._items: OrderedDict[tuple, tuple[bytes, int, int, bool]] = OrderedDict()
        self._max = max_bytes
        self._size = 0
        self._lock = threading.Lock()

    def get(self, key: tuple) -> tuple[bytes, int, int, bool] | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._size = 0

    def put(self, key: tuple, value: tuple[bytes, int, int, bool]) -> None:
        with self._lock:
            if key in self._items:
                return
            self._items[key] = value
            self._size += len(value[0])
            while self._size > self._max and len(self._items) > 1:
                _, dropped = self._items.popitem(last=False)
                self._size -= len(dropped[0])


class _BytesCache:
    """The last few documents' bytes: paging through a PDF should not fetch the whole file every time."""

    def __init__(self, max_bytes: int = 256 * 1024 * 1024) -> None:
        self._items: OrderedDict[tuple[int, str], bytes] = OrderedDict()
        self._max = max_bytes
        self._lock = threading.Lock()

    def get(self, db: Database, document_id: int, checksum: str) -> bytes:
        key = (document_id, checksum)
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        with db.connection() as conn:
            row = conn.execute(q("viewer_document_bytes"), {"document_id": document_id}).fetchone()
        if row is None:
            raise DocumentNotFound(f"Document {document_id} has no stored file; upload it again.")
        data = bytes(row[0])
        with self._lock:
            self._items[key] = data
            while sum(map(len, self._items.values())) > self._max and len(self._items) > 1:
                self._items.popitem(last=False)
        return data


_bytes = _BytesCache()
_pngs = _PngCache()


def _document(db: Database, document_id: int) -> dict:
    with db.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
        row = cur.execute(q("viewer_document"), {"document_id": document_id}).fetchone()
    if row is None:
        raise DocumentNotFound(
            f"There is no document {document_id}: the link is wrong or the file was removed. "
            "Pick a PDF from the list instead."
        )
    if row["status"] == "failed":
        reason = f": {row['error']}" if row["error"] else "."
        raise NotAPdf(f"{row['title']} could not be read{reason}")
    if row["kind"] != "pdf":
        what = "a spreadsheet" if row["kind"] == "sheet" else "not a PDF"
        where = ": open it on the Sheet page" if row["kind"] == "sheet" else ""
        raise NotAPdf(f"{row['title']} is {what}{where}.")
    if row["status"] not in ("ready", "incomplete") or not row["has_file"]:
        raise NotAPdf(f"{row['title']} is still being read, or its file is missing: try again in a moment.")
    return row


def find_passage(db: Database, document_id: int, chunk_index: int) -> Passage | None:
    """The stored passage `chunk_index` of a PDF, or None if the document has no such chunk."""
    with db.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
        row = cur.execute(q("viewer_chunk"), {"document_id": document_id, "chunk_index": chunk_index}).fetchone()
    if row is None:
        return None
    boxes = row["boxes"]
    if isinstance(boxes, str):
        boxes = json.loads(boxes)
    return Passage(
        chunk_index=row["chunk_index"],
        page=row["page_number"],
        text=row["content"],
        boxes=tuple(tuple(float(v) for v in box) for box in boxes or ()),  # type: ignore[misc]
    )


def find_cell(db: Database, document_id: int, row_id: int, column: str) -> CitedCell | None:
    """A cell of a table read from a PDF: its page, and the boxes of that cell and its row's label; None if the
    document has no such row (a spreadsheet's row, or one deleted since)."""
    params = {"document_id": document_id, "row_id": row_id, "column": column}
    with db.connection() as conn:
        row = conn.execute(q("viewer_cell_boxes"), params).fetchone()
    if row is None:
        return None
    page, stored, position, values = row
    stored = json.loads(stored) if isinstance(stored, str) else stored or []
    values = json.loads(values) if isinstance(values, str) else values
    # The line item's label (the first column) and the cited figure: the line as an analyst reads it.
    wanted = dict.fromkeys(p for p in (0, position) if p is not None and p < len(stored))
    boxes = tuple(_box(stored[p]) for p in wanted if stored[p])
    value = values[position] if position is not None and position < len(values) else None
    return CitedCell(page=int(page), boxes=boxes, label=values[0] if values else None, column=column, value=value)


def _box(values: list[float]) -> Box:
    x0, y0, x1, y1 = (float(v) for v in values)
    return (x0, y0, x1, y1)


# A line this close to the top or bottom edge (share of the page height) may be a running header or footer.
_RUNNING_BAND = 0.08


def _without_running_lines(pdf: pymupdf.Document, index: int, boxes: list[Box]) -> list[Box]:
    """The boxes less those of running headers and footers: a line in the page's top or bottom band whose text
    (digits aside) is in the same band of a neighbouring page. A passage's chunk may start or end with them,
    but they are never what an answer cites."""
    if pdf.page_count < 2:
        return boxes
    page = pdf.load_page(index)
    if page.rotation:
        return boxes
    import pymupdf

    height = page.rect.height
    top, bottom = height * _RUNNING_BAND, height * (1 - _RUNNING_BAND)
    other = pdf.load_page(index + 1 if index + 1 < pdf.page_count else index - 1)
    bands = line_key(
        other.get_text("text", clip=pymupdf.Rect(0, 0, other.rect.width, other.rect.height * _RUNNING_BAND))
        + "\n"
        + other.get_text(
            "text", clip=pymupdf.Rect(0, other.rect.height * (1 - _RUNNING_BAND), other.rect.width, other.rect.height)
        )
    )
    kept = []
    for box in boxes:
        rect = pymupdf.Rect(box)
        if rect.y1 <= top or rect.y0 >= bottom:
            text = line_key(page.get_textbox(rect))
            if text and text in bands:
                continue
        kept.append(box)
    return kept


def render_page(
    db: Database,
    document_id: int,
    page: int | None = None,
    chunk_index: int | None = None,
    dpi: int = 150,
    cell: tuple[int, str] | None = None,
    quoting: Sequence[str] = (),
) -> RenderedPage:
    """Render page `page` (1-based; default: the cited page, else 1) as PNG, highlighting passage `chunk_index`
    (only its lines that `quoting`, the answer's sentences citing it, takes words or figures from, when any do),
    or the cell `cell` (row id, column name) of a table read from the PDF."""
    started = time.perf_counter()
    doc_row = _document(db, document_id)
    passage = find_passage(db, document_id, chunk_index) if chunk_index is not None else None
    found = find_cell(db, document_id, *cell) if cell is not None else None
    if page is None:
        page = found.page if found else passage.page if passage else 1
    page_count = int(doc_row["page_count"] or 0)
    if not 1 <= page <= page_count:
        raise PageOutOfRange(f"{doc_row['title']} has {page_count} page(s): there is no page {page}.")
    data = _bytes.get(db, document_id, doc_row["checksum"])
    boxes: list[Box] = []
    lines: tuple[int, ...] = ()
    if found is not None and found.page == page:
        boxes = list(found.boxes)
    elif passage is not None and passage.page == page:
        boxes = list(passage.boxes)
        if not boxes:  # chunks stored before boxes existed, or a passage the layout could not place
            boxes = find_quote_boxes(data, page, passage.text)
        elif quoting and len(passage_lines(passage.text)) == len(boxes):
            # One box per line (as the parser stores them): the lines the answer quotes, else the whole passage.
            lines = tuple(quoted_lines(passage.text, quoting))
            if lines and len(lines) < len(boxes):
                boxes = [boxes[i] for i in lines]
            else:
                lines = ()
    key = (document_id, doc_row["checksum"], page, dpi, tuple(boxes), found is None)
    cached = _pngs.get(key)
    if cached is not None:
        png, width, height, highlighted = cached
    else:
        png, width, height, highlighted = _render(data, doc_row["title"], page, dpi, boxes, running=found is None)
        _pngs.put(key, (png, width, height, highlighted))
    return RenderedPage(
        document_id=document_id,
        title=doc_row["title"],
        room=doc_row["room_name"],
        page=page,
        page_count=page_count,
        png=png,
        width=width,
        height=height,
        highlighted=highlighted,
        passage=passage,
        render_ms=(time.perf_counter() - started) * 1000,
        cell=found,
        quoted_lines=lines if highlighted else (),
    )


def _render(
    data: bytes, title: str, page: int, dpi: int, boxes: list[Box], *, running: bool
) -> tuple[bytes, int, int, bool]:
    """PNG bytes, width, height of page `page` with `boxes` highlighted (less running headers when `running`),
    and whether any box was drawn."""
    import pymupdf

    with MUPDF_LOCK:
        try:
            pdf = pymupdf.open(stream=data, filetype="pdf")
        except Exception as exc:  # MuPDF reports bad input as several error types
            raise NotAPdf(f"{title} cannot be opened as a PDF any more: upload it again.") from exc
        with pdf:
            if page > pdf.page_count:
                raise PageOutOfRange(f"{title} has {pdf.page_count} page(s): there is no page {page}.")
            pdf_page = pdf.load_page(page - 1)
            if boxes and running:
                boxes = _without_running_lines(pdf, page - 1, boxes)
            if boxes:
                # Boxes are in the displayed page's space; annotations take unrotated page coordinates.
                rects = [pymupdf.Rect(box) for box in boxes]
                if pdf_page.rotation:
                    rects = [(rect * pdf_page.derotation_matrix).normalize() for rect in rects]
                pdf_page.add_highlight_annot(quads=[rect.quad for rect in rects])
            pixmap = pdf_page.get_pixmap(dpi=dpi, annots=True)
            return pixmap.tobytes("png"), pixmap.width, pixmap.height, bool(boxes)
