"""The PDF page viewer: a stored page rendered with its cited passage highlighted, on real Postgres."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from core.errors import DocumentNotFound, NotAPdf, PageOutOfRange
from core.retrieval.viewer import find_passage, render_page
from tests.factories import FUNDING_CSV, MEMO_PAGES, make_pdf

DPI = 150


@pytest.fixture
def memo(workbench) -> int:
    result = workbench.ingest_upload(make_pdf(MEMO_PAGES), "memo.pdf", "Viewer", embed=False)
    assert result.status == "ready" and result.pages == 3
    return result.document_id


def _pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.int16)


def _mask(shape: tuple[int, ...], boxes, margin_pt: float) -> np.ndarray:
    """Pixels covered by the boxes (in PDF points) grown by margin_pt on each side."""
    mask = np.zeros(shape[:2], dtype=bool)
    scale = DPI / 72
    for x0, y0, x1, y1 in boxes:
        mask[
            int((y0 - margin_pt) * scale) : int((y1 + margin_pt) * scale) + 1,
            int((x0 - margin_pt) * scale) : int((x1 + margin_pt) * scale) + 1,
        ] = True
    return mask


def test_highlight_changes_the_passage_and_nothing_far_from_it(db, memo: int) -> None:
    passage = find_passage(db, memo, 1)
    assert passage is not None and passage.page == 2 and "Cobalt Pay" in passage.text and passage.boxes

    lit = render_page(db, memo, 2, chunk_index=1, dpi=DPI)
    plain = render_page(db, memo, 2, dpi=DPI)
    assert lit.highlighted and not plain.highlighted
    assert lit.passage == passage and plain.passage is None
    assert (lit.page, lit.page_count, lit.title) == (2, 3, "memo.pdf")
    assert (lit.width, lit.height) == (round(612 * DPI / 72), round(792 * DPI / 72))
    assert lit.png.startswith(b"\x89PNG") and plain.png.startswith(b"\x89PNG")

    a, b = _pixels(lit.png), _pixels(plain.png)
    assert a.shape == b.shape == (lit.height, lit.width, 3)
    changed = np.abs(a - b).sum(axis=2) > 30
    inside = _mask(a.shape, passage.boxes, 0)
    # Most of the passage's area is tinted (a highlight, not an outline)...
    assert changed[inside].mean() > 0.5
    # ...in yellow: red and green stay high where blue drops, on the white background of the text.
    tinted = inside & changed & (b.min(axis=2) > 200)
    assert tinted.sum() > 1000
    assert a[tinted][:, 2].mean() < 160 and a[tinted][:, :2].mean() > 200
    # ...and nothing changes more than a few points away from it.
    assert not changed[~_mask(a.shape, passage.boxes, 4)].any()


def test_annotations_never_persist_between_renders(db, memo: int) -> None:
    from core.retrieval.viewer import _pngs

    before = render_page(db, memo, 2, dpi=DPI).png
    render_page(db, memo, 2, chunk_index=1, dpi=DPI)
    _pngs.clear()  # rendered by MuPDF again, not taken from the cache
    assert render_page(db, memo, 2, dpi=DPI).png == before


def test_the_passage_page_is_the_default_and_other_pages_are_not_highlighted(db, memo: int) -> None:
    opened = render_page(db, memo, None, chunk_index=2, dpi=72)
    assert opened.page == 3 and opened.highlighted
    elsewhere = render_page(db, memo, 1, chunk_index=2, dpi=72)
    assert elsewhere.page == 1 and not elsewhere.highlighted and elsewhere.passage is not None
    missing = render_page(db, memo, 1, chunk_index=99, dpi=72)
    assert missing.passage is None and not missing.highlighted


def test_stored_boxes_missing_fall_back_to_finding_the_text(db, memo: int) -> None:
    with db.connection() as conn:
        conn.execute("UPDATE chunks SET boxes = NULL WHERE document_id = %s AND chunk_index = 1", (memo,))
    lit = render_page(db, memo, 2, chunk_index=1, dpi=DPI)
    plain = render_page(db, memo, 2, dpi=DPI)
    assert lit.highlighted and lit.passage is not None and lit.passage.boxes == ()
    changed = np.abs(_pixels(lit.png) - _pixels(plain.png)).sum(axis=2) > 30
    rows = np.flatnonzero(changed.any(axis=1))
    # The passage is the page's two lines of text, starting one inch from the top.
    assert rows.size and 60 * DPI / 72 < rows.min() < 100 * DPI / 72 and rows.max() < 140 * DPI / 72


@pytest.mark.parametrize("page", [0, 4, -1])
def test_page_out_of_range_is_a_clear_error(db, memo: int, page: int) -> None:
    with pytest.raises(PageOutOfRange, match=rf"memo.pdf has 3 page\(s\): there is no page {page}\."):
        render_page(db, memo, page)


def test_unknown_document_is_a_clear_error(db) -> None:
    with pytest.raises(DocumentNotFound, match="There is no document 424242"):
        render_page(db, 424242, 1)


def test_a_sheet_or_a_failed_upload_is_not_a_pdf(workbench, db) -> None:
    sheet = workbench.ingest_upload(FUNDING_CSV, "funding.csv", "Viewer", embed=False)
    with pytest.raises(NotAPdf, match=r"funding.csv is a spreadsheet: open it on the Sheet page"):
        render_page(db, sheet.document_id, 1)
    broken = workbench.ingest_upload(b"%PDF-1.7 this is not really a pdf", "broken.pdf", "Viewer", embed=False)
    assert broken.status == "failed" and broken.document_id is not None
    with pytest.raises(NotAPdf, match=r"broken.pdf could not be read: .*damaged or not a PDF"):
        render_page(db, broken.document_id, 1)


def test_running_headers_and_footers_are_not_highlighted() -> None:
    """The demo memo repeats a header and a "Page n of 7" footer on every page. Ingestion cuts them from its
    passages now (core.ingest.pdf); a passage stored before that kept their lines, and the viewer still never
    lights them: given a header's, a body line's and a footer's box, it keeps the body line's alone."""
    import pymupdf

    from core.retrieval.viewer import _RUNNING_BAND, _without_running_lines
    from core.workbench import DEMO_DIR

    with pymupdf.open(DEMO_DIR / "portfolio_memo.pdf") as pdf:
        page = pdf[1]
        width, height = page.rect.width, page.rect.height
        lines = {}
        for x0, y0, x1, y1, *_ in page.get_text("words"):
            key = round(y0)
            box = lines.get(key, (x0, y0, x1, y1))
            lines[key] = (min(box[0], x0), min(box[1], y0), max(box[2], x1), max(box[3], y1))
        header = next(b for b in lines.values() if b[3] <= height * _RUNNING_BAND)
        footer = next(b for b in lines.values() if b[1] >= height * (1 - _RUNNING_BAND))
        body = next(b for b in lines.values() if height * 0.3 < b[1] < height * 0.7)
        assert width > 0 and _without_running_lines(pdf, 1, [header, body, footer]) == [body]


def test_only_the_lines_the_answer_quotes_are_highlighted(db, memo: int) -> None:
    passage = find_passage(db, memo, 1)
    assert passage is not None and len(passage.boxes) == 2  # "Risks. Cobalt Pay ..." and "Customer churn ..."
    plain = _pixels(render_page(db, memo, 2, dpi=DPI).png)
    quoted = render_page(db, memo, 2, chunk_index=1, dpi=DPI, quoting=["Customer churn rose to 4.2 percent a month."])
    assert quoted.highlighted and quoted.quoted_lines == (1,)
    changed = np.abs(_pixels(quoted.png) - plain).sum(axis=2) > 30
    churn, risks = passage.boxes[1], passage.boxes[0]
    assert changed[_mask(plain.shape, [churn], 0)].mean() > 0.5
    assert not changed[_mask(plain.shape, [risks], 0) & ~_mask(plain.shape, [churn], 2)].any()
    # Nothing of the passage quoted: the whole passage, as before.
    whole = render_page(db, memo, 2, chunk_index=1, dpi=DPI, quoting=["Borealis Bio reads out in the third quarter."])
    assert whole.highlighted and whole.quoted_lines == ()
    lit = np.abs(_pixels(whole.png) - plain).sum(axis=2) > 30
    assert lit[_mask(plain.shape, [risks], 0)].mean() > 0.5 and lit[_mask(plain.shape, [churn], 0)].mean() > 0.5


def test_a_page_rendered_again_comes_from_the_cache(db, memo: int) -> None:
    first = render_page(db, memo, 2, chunk_index=1, dpi=DPI)
    again = render_page(db, memo, 2, chunk_index=1, dpi=DPI)
    assert again.png is first.png  # the same bytes object: MuPDF was not called again
    assert render_page(db, memo, 2, dpi=DPI).png != first.png  # another highlight, another picture


def test_the_page_cache_keeps_to_its_byte_budget() -> None:
    from core.retrieval.viewer import _PngCache

    cache = _PngCache(max_bytes=10)
    for name in "abc":
        cache.put((name,), (name.encode() * 4, 1, 1, False))
    assert cache.get(("a",)) is None and cache.get(("b",)) is not None and cache.get(("c",)) is not None
    cache.put(("d",), (b"d" * 4, 1, 1, False))  # "c" was used last: "b" is the one to go
    assert cache.get(("b",)) is None and cache.get(("c",)) is not None and cache.get(("d",)) is not None
