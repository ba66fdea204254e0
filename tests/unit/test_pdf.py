"""core.ingest.pdf: PDFs generated with PyMuPDF in the test, plus property tests of the pure chunker."""

from __future__ import annotations

import itertools
import os

import pymupdf
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.errors import CorruptPdf, EmptyFile, EncryptedPdf, NoTextLayer, TooManyPages
from core.ingest.pdf import Box, ParsedPdf, _build_text, chunk_page, find_quote, find_quote_boxes, parse_pdf

LOREM = (
    "Revenue grew in every segment. The Company sold more widgets in Canada than in any prior year. "
    "Operating margin improved because freight costs fell. Management expects demand to stay firm. "
)


def make_pdf(pages: list[str | None], *, rotate: int = 0, title: str | None = None, **save: object) -> bytes:
    """A PDF with one page per entry: wrapped text, or an empty page for None."""
    doc = pymupdf.open()
    for text in pages:
        page = doc.new_page(width=612, height=792)
        if text is not None:
            rest = page.insert_textbox(pymupdf.Rect(72, 72, 540, 720), text, fontsize=10, fontname="helv")
            assert rest >= 0, "test text does not fit on the page"
        if rotate:
            page.set_rotation(rotate)
    if title is not None:
        doc.set_metadata({"title": title})
    return doc.tobytes(**save)


def check_invariants(parsed: ParsedPdf, chunk_chars: int = 1200) -> None:
    """What every parse must satisfy, whatever the input."""
    assert parsed.page_count == len(parsed.pages)
    assert [p.number for p in parsed.pages] == list(range(1, parsed.page_count + 1))
    assert [c.chunk_index for c in parsed.chunks] == list(range(len(parsed.chunks)))
    pages = {p.number: p for p in parsed.pages}
    for chunk in parsed.chunks:
        page = pages[chunk.page_number]
        assert page.text[chunk.start_char : chunk.end_char] == chunk.content
        assert chunk.content.strip() == chunk.content != ""
        assert len(chunk.content) <= chunk_chars
        assert chunk.boxes
        for x0, y0, x1, y1 in chunk.boxes:
            assert 0 <= x0 <= x1 <= page.width and 0 <= y0 <= y1 <= page.height
    with_chunks = {c.page_number for c in parsed.chunks}
    assert with_chunks == {p.number for p in parsed.pages if p.text}
    for page in parsed.pages:
        assert "\x00" not in page.text


def contains(box: Box, rect: pymupdf.Rect, tolerance: float = 1.0) -> bool:
    x0, y0, x1, y1 = box
    return (
        x0 - tolerance <= rect.x0
        and y0 - tolerance <= rect.y0
        and rect.x1 <= x1 + tolerance
        and rect.y1 <= y1 + tolerance
    )


def centre_inside(box: Box, rect: pymupdf.Rect) -> bool:
    x0, y0, x1, y1 = box
    cx, cy = (rect.x0 + rect.x1) / 2, (rect.y0 + rect.y1) / 2
    return x0 <= cx <= x1 and y0 <= cy <= y1


# ---------------------------------------------------------------------------------------------- parse_pdf


def test_multi_page_text_offsets_and_running_chunk_index() -> None:
    data = make_pdf([f"Page {n} starts here. " + LOREM * 12 for n in (1, 2, 3)], title="Annual Report 2022")

    parsed = parse_pdf(data, chunk_chars=500, overlap_chars=100)

    check_invariants(parsed, chunk_chars=500)
    assert parsed.page_count == 3
    assert parsed.title == "Annual Report 2022"
    for n, page in enumerate(parsed.pages, start=1):
        assert page.text.startswith(f"Page {n} starts here.")
        assert (page.width, page.height) == (612, 792)
        # Wrapped lines are joined by "\n" and the words survive intact.
        assert "Operating margin improved because freight costs fell." in " ".join(page.text.split())
    per_page = [[c for c in parsed.chunks if c.page_number == n] for n in (1, 2, 3)]
    assert all(len(chunks) >= 2 for chunks in per_page)
    # chunk_index keeps counting from one page to the next.
    assert per_page[1][0].chunk_index == per_page[0][-1].chunk_index + 1
    # Neighbouring chunks on a page overlap, by at most overlap_chars.
    for a, b in zip(per_page[0], per_page[0][1:], strict=False):
        assert 0 < a.end_char - b.start_char <= 100


def test_chunk_boxes_lie_on_the_page_and_cover_the_text() -> None:
    data = make_pdf([LOREM * 10, "Short second page about Canada."])
    parsed = parse_pdf(data, chunk_chars=400, overlap_chars=80)
    check_invariants(parsed, chunk_chars=400)
    doc = pymupdf.open(stream=data)
    for chunk in parsed.chunks:
        page = doc[chunk.page_number - 1]
        first_words = " ".join(chunk.content.split()[:3])
        hits = page.search_for(first_words)
        assert hits, first_words
        # Some occurrence of the chunk's first words lies inside one of its boxes.
        assert any(contains(box, hit) for box in chunk.boxes for hit in hits), (first_words, chunk.boxes, hits)
        last_word = chunk.content.split()[-1]
        assert any(centre_inside(box, hit) for box in chunk.boxes for hit in page.search_for(last_word))


def test_chunk_box_is_clipped_to_a_partly_covered_line() -> None:
    # One long line with no line breaks: chunks must end mid-line, and their boxes stop at their words.
    words = " ".join(f"word{i}" for i in range(40))
    doc = pymupdf.open()
    page = doc.new_page(width=1400, height=200)
    page.insert_text((20, 100), words, fontsize=10)
    data = doc.tobytes()

    parsed = parse_pdf(data, chunk_chars=80, overlap_chars=20)

    check_invariants(parsed, chunk_chars=80)
    assert parsed.pages[0].text == words
    assert len(parsed.chunks) >= 4
    for chunk in parsed.chunks:
        (box,) = chunk.boxes
        first = page.search_for(chunk.content.split()[0])[0]
        last = [r for r in page.search_for(chunk.content.split()[-1]) if r.x1 <= box[2] + 0.5][-1]
        assert box[0] == pytest.approx(first.x0, abs=0.5)
        assert box[2] == pytest.approx(last.x1, abs=0.5)


def test_empty_password_encrypted_pdf_opens() -> None:
    data = make_pdf([LOREM], encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="", owner_pw="owner-secret", permissions=0)
    assert b"/Encrypt" in data  # really encrypted, only with an empty user password

    parsed = parse_pdf(data)

    check_invariants(parsed)
    assert "widgets in Canada" in " ".join(parsed.pages[0].text.split())


def test_real_password_raises_encrypted_pdf() -> None:
    data = make_pdf([LOREM], encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="user-secret", owner_pw="owner")
    with pytest.raises(EncryptedPdf, match=r"password-protected. Remove the password"):
        parse_pdf(data)
    with pytest.raises(EncryptedPdf):
        find_quote_boxes(data, 1, "Revenue")


@pytest.mark.parametrize("keep", [0.1, 0.33, 0.5, 0.9, -40])
def test_truncated_pdf_raises_corrupt_pdf(keep: float) -> None:
    data = make_pdf([LOREM * 5, LOREM * 5, LOREM * 5])
    cut = len(data) + int(keep) if keep < 0 else int(len(data) * keep)
    with pytest.raises(CorruptPdf, match="upload it again"):
        parse_pdf(data[:cut])


@pytest.mark.parametrize(
    "data",
    [os.urandom(4096), b"hello, world", b"%PDF-1.7\nthis is not really a PDF\n%%EOF", b"PK\x03\x04" + b"\x00" * 64],
)
def test_bytes_that_are_not_a_pdf_raise_corrupt_pdf(data: bytes) -> None:
    with pytest.raises(CorruptPdf):
        parse_pdf(data)


def test_image_only_pdf_raises_no_text_layer() -> None:
    doc = pymupdf.open()
    for _ in range(2):
        page = doc.new_page()
        pixmap = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 20, 20), False)
        pixmap.set_rect(pixmap.irect, (200, 30, 30))
        page.insert_image(pymupdf.Rect(72, 72, 300, 300), pixmap=pixmap)
        page.draw_rect(pymupdf.Rect(100, 400, 400, 500), color=(0, 0, 1), fill=(0.5, 0.5, 0.5))
    with pytest.raises(NoTextLayer, match=r"ocrmypdf in.pdf out.pdf"):
        parse_pdf(doc.tobytes())


def test_zero_bytes_raise_empty_file() -> None:
    with pytest.raises(EmptyFile):
        parse_pdf(b"")


def test_more_pages_than_the_limit_raise_too_many_pages() -> None:
    data = make_pdf(["one", "two", "three"])
    with pytest.raises(TooManyPages, match="3 pages, over the limit of 2"):
        parse_pdf(data, max_pages=2)
    assert parse_pdf(data, max_pages=3).page_count == 3


def test_page_without_text_among_text_pages_is_kept_without_chunks() -> None:
    parsed = parse_pdf(make_pdf(["First page text.", None, "Third page text."]))

    check_invariants(parsed)
    assert [p.text for p in parsed.pages] == ["First page text.", "", "Third page text."]
    assert [(c.page_number, c.chunk_index) for c in parsed.chunks] == [(1, 0), (3, 1)]


def test_rotated_page_boxes_are_in_displayed_page_space() -> None:
    data = make_pdf([LOREM * 3], rotate=90)
    parsed = parse_pdf(data)
    check_invariants(parsed)
    page = pymupdf.open(stream=data)[0]
    assert (parsed.pages[0].width, parsed.pages[0].height) == (page.rect.width, page.rect.height) == (792, 612)
    hit = page.search_for("Revenue grew")[0] * page.rotation_matrix
    assert any(contains(box, hit) for box in parsed.chunks[0].boxes)


@pytest.mark.parametrize(
    ("title", "expected"),
    [("0000004962-23-000006", None), ("Microsoft Word - 10k.docx", None), ("untitled", None), ("  ", None)],
)
def test_meaningless_metadata_titles_are_dropped(title: str, expected: str | None) -> None:
    assert parse_pdf(make_pdf(["Some text."], title=title)).title == expected


def test_layout_joins_table_cells_of_a_row_and_drops_nul_and_blank_lines() -> None:
    def line(text: str, x0: float, y0: float, x1: float, y1: float) -> dict[str, object]:
        return {"bbox": (x0, y0, x1, y1), "dir": (1.0, 0.0), "spans": [{"text": text, "bbox": (x0, y0, x1, y1)}]}

    page_dict = {
        "blocks": [
            {"type": 0, "lines": [line("Heading\x00", 10, 10, 80, 20)]},
            {
                "type": 0,
                "lines": [
                    line("Net sales", 10, 30, 60, 40),
                    line(" ", 62, 30, 64, 40),
                    line("$", 100, 30, 104, 40),
                    line("48,213\xa0", 110, 30, 140, 40),
                    line("Cost of sales", 10, 42, 70, 52),
                    line("27,406", 110, 42, 140, 52),
                ],
            },
        ]
    }
    text, segments = _build_text(page_dict)
    assert text == "Heading\n\nNet sales $ 48,213\nCost of sales 27,406"
    cells = [text[s.start : s.end] for s in segments]
    assert cells == ["Heading", "Net sales", "$", "48,213", "Cost of sales", "27,406"]
    assert [s.row for s in segments] == [0, 1, 1, 1, 2, 2]


def test_module_stays_pure() -> None:
    import ast
    from pathlib import Path

    import core.ingest.pdf

    tree = ast.parse(Path(core.ingest.pdf.__file__).read_text())
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").split(".")[0])
    assert not imported & {"streamlit", "psycopg", "pgvector", "openai"}


# ---------------------------------------------------------------------------------------------- quotes


def test_find_quote_boxes_finds_a_quote_across_a_line_break() -> None:
    data = make_pdf([LOREM * 4])
    parsed = parse_pdf(data)
    text = parsed.pages[0].text
    # Pick a quote whose words straddle the first line break of the wrapped paragraph.
    newline = text.index("\n")
    quote_start = text.rindex(" ", 0, newline - 1) + 1
    quote_end = text.index(" ", newline + 1)
    quote = text[quote_start:quote_end].replace("\n", " ")
    assert " " in quote

    boxes = find_quote_boxes(data, 1, quote)

    assert len(boxes) == 2
    page = pymupdf.open(stream=data)[0]
    before, after = quote.split(" ", 1)
    assert any(contains(boxes[0], hit) for hit in page.search_for(before))
    assert any(contains(boxes[1], hit) for hit in page.search_for(after))
    # The first box starts at the quote's first word, not at the start of its line, and the second box
    # ends with the quote's last word.
    assert any(boxes[0][0] == pytest.approx(hit.x0, abs=0.5) for hit in page.search_for(before))
    assert any(boxes[1][2] == pytest.approx(hit.x1, abs=0.5) for hit in page.search_for(after))
    assert boxes[1][0] == pytest.approx(72, abs=0.5)


def test_find_quote_boxes_sees_through_a_hyphenated_line_break() -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "We sell in many inter-", fontsize=11)
    page.insert_text((72, 114), "national markets today.", fontsize=11)
    data = doc.tobytes()

    boxes = find_quote_boxes(data, 1, "many international markets")

    assert len(boxes) == 2
    assert contains(boxes[0], page.search_for("many")[0])
    assert contains(boxes[1], page.search_for("markets")[0])


def test_find_quote_boxes_misses_and_bad_pages() -> None:
    data = make_pdf([LOREM])
    assert find_quote_boxes(data, 1, "nothing like this is on the page") == []
    assert find_quote_boxes(data, 1, "   ") == []
    with pytest.raises(ValueError):
        find_quote_boxes(data, 2, "Revenue")


def test_find_quote_tolerates_whitespace_case_and_typography() -> None:
    text = "Net sales $ 48,213\nCost of sales 27,406\n\nThe Company’s “core” margin\nrose – again."

    def found(quote: str) -> str | None:
        span = find_quote(text, quote)
        return None if span is None else text[span[0] : span[1]]

    assert find_quote(text, "Cost of   sales") == (19, 32)
    assert found("48,213 Cost of") == "48,213\nCost of"
    assert found("$48,213") == "$ 48,213"
    assert found('the company\'s "core" margin rose - again.') == "The Company’s “core” margin\nrose – again."
    assert found("Gross profit") is None
    assert found("") is None


WORDS = st.sampled_from(
    ["the", "Company", "revenue", "$", "1,234.5", "(12)%", "U.S.", "e.g.", "Inc.", "a", "x" * 40, "y" * 150]
)
SEPARATORS = st.sampled_from([" ", " ", " ", "\n", "\n\n", ". ", ".\n", "  ", "\t", "\xa0", " \n ", "! "])
TEXTS = st.one_of(
    st.lists(st.one_of(WORDS, SEPARATORS), max_size=300).map("".join),
    st.text(alphabet="ab .\n", max_size=400),
    st.text(max_size=200),
)


@st.composite
def sizes(draw: st.DrawFn) -> tuple[int, int]:
    chunk_chars = draw(st.integers(min_value=1, max_value=400))
    overlap_chars = draw(st.integers(min_value=0, max_value=chunk_chars - 1))
    return chunk_chars, overlap_chars


def token_length(text: str, index: int) -> int:
    """Length of the whitespace-free token containing text[index]."""
    start = index
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    end = index
    while end < len(text) and not text[end].isspace():
        end += 1
    return end - start


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=TEXTS, size=sizes())
def test_chunker_properties(text: str, size: tuple[int, int]) -> None:
    chunk_chars, overlap_chars = size
    spans = chunk_page(text, chunk_chars=chunk_chars, overlap_chars=overlap_chars)

    covered = [False] * len(text)
    for start, end in spans:
        content = text[start:end]
        # Bounded, never empty or whitespace-only, never with whitespace at its edges.
        assert 0 < end - start <= chunk_chars
        assert content.strip() == content != ""
        # Never mid-word, unless that word alone is longer than a chunk.
        if start > 0 and not text[start - 1].isspace():
            assert token_length(text, start) > chunk_chars
        if end < len(text) and not text[end].isspace():
            assert token_length(text, end - 1) > chunk_chars
        for i in range(start, end):
            covered[i] = True
    # Every non-whitespace character is in some chunk.
    assert all(covered[i] for i, char in enumerate(text) if not char.isspace())
    # Chunks move forward, and neighbours share at most overlap_chars.
    for (a_start, a_end), (b_start, b_end) in itertools.pairwise(spans):
        assert a_start < b_start and a_end < b_end
        assert a_end - b_start <= overlap_chars
    if not text.strip():
        assert spans == []


@settings(max_examples=200, deadline=None)
@given(
    paragraphs=st.lists(
        st.lists(st.sampled_from(["alpha", "beta", "gamma", "delta."]), min_size=1, max_size=40).map(" ".join),
        min_size=1,
        max_size=30,
    )
)
def test_chunker_overlaps_when_it_can_and_prefers_paragraph_ends(paragraphs: list[str]) -> None:
    text = "\n\n".join(paragraphs)
    spans = chunk_page(text, chunk_chars=300, overlap_chars=60)
    paragraph_ends = {i for i in range(len(text)) if text.startswith("\n\n", i)} | {len(text)}
    for (start, end), (next_start, _) in itertools.pairwise(spans):
        # Words are short, so there is always a break to overlap from.
        assert 0 < end - next_start <= 60
        # A paragraph end late in the window wins over any other break.
        late_paragraph_ends = [p for p in paragraph_ends if start + 150 <= p <= start + 300]
        if late_paragraph_ends:
            assert end == max(late_paragraph_ends)


def test_chunker_prefers_line_then_sentence_then_word_breaks() -> None:
    sentence = "This is a sentence about revenue. "
    # Lines of 80 chars: a 200-char window that holds line breaks ends at one.
    lines = "\n".join([" ".join(["word"] * 16)] * 10)
    assert all(lines[end] == "\n" for _, end in chunk_page(lines, chunk_chars=200, overlap_chars=0)[:-1])
    # No line breaks: a sentence end wins.
    prose = sentence * 20
    assert all(prose[end - 1] == "." for _, end in chunk_page(prose, chunk_chars=200, overlap_chars=40))


def test_chunker_cuts_only_tokens_longer_than_a_chunk() -> None:
    text = "short " + "z" * 250 + " tail"
    spans = chunk_page(text, chunk_chars=100, overlap_chars=20)
    assert [text[s:e] for s, e in spans] == ["short", "z" * 100, "z" * 100, "z" * 50 + " tail"]


def test_chunker_rejects_bad_sizes() -> None:
    with pytest.raises(ValueError):
        chunk_page("text", chunk_chars=0, overlap_chars=0)
    with pytest.raises(ValueError):
        chunk_page("text", chunk_chars=100, overlap_chars=100)
    with pytest.raises(ValueError):
        parse_pdf(make_pdf(["text"]), chunk_chars=100, overlap_chars=-1)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    pages=st.lists(
        st.one_of(st.none(), st.lists(st.sampled_from(LOREM.split()), max_size=250).map(" ".join)),
        min_size=1,
        max_size=4,
    ),
    size=sizes(),
)
def test_parse_pdf_invariants_on_generated_pdfs(pages: list[str | None], size: tuple[int, int]) -> None:
    chunk_chars, overlap_chars = size
    data = make_pdf(pages)
    if not any(text and text.strip() for text in pages):
        with pytest.raises(NoTextLayer):
            parse_pdf(data, chunk_chars=chunk_chars, overlap_chars=overlap_chars)
        return
    parsed = parse_pdf(data, chunk_chars=chunk_chars, overlap_chars=overlap_chars)
    check_invariants(parsed, chunk_chars=chunk_chars)
    for page, text in zip(parsed.pages, pages, strict=True):
        assert page.text.split() == (text or "").split()


def test_running_headers_and_page_numbers_are_cut_from_passages() -> None:
    """A filing prints "Table of Contents" and a page number on every page: no passage starts or ends with them,
    offsets stay exact, and the boxes are the body's lines only."""
    doc = pymupdf.open()
    for number, product in enumerate(("appliances", "laptops", "phones", "televisions"), start=1):
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 40), "Table of Contents", fontsize=9)
        page.insert_text((72, 120), f"Net sales grew on strong demand for {product}.", fontsize=10)
        page.insert_text((300, 770), str(number + 40), fontsize=9)
    parsed = parse_pdf(doc.tobytes())
    check_invariants(parsed)
    assert len(parsed.chunks) == 4
    for chunk in parsed.chunks:
        assert chunk.content.startswith("Net sales grew") and chunk.content.endswith("s.")
        assert len(chunk.boxes) == 1 and chunk.boxes[0][1] > 100  # the body line, not the header at y=40
    assert parsed.pages[0].text.startswith("Table of Contents")  # the page text itself is kept whole


def test_a_page_of_nothing_but_repeated_lines_keeps_its_text() -> None:
    parsed = parse_pdf(make_pdf(["Confidential", "Confidential", "Confidential"]))
    check_invariants(parsed)
    assert [c.content for c in parsed.chunks] == ["Confidential"] * 3


def test_text_flags_are_pymupdfs_flags() -> None:
    """core.ingest.pdf writes its TextPage flags as numbers (so it need not import PyMuPDF): they are these."""
    from core.ingest.pdf import TEXT_FLAGS

    assert TEXT_FLAGS == (
        pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP | pymupdf.TEXT_CID_FOR_UNKNOWN_UNICODE
    )
    assert not TEXT_FLAGS & (pymupdf.TEXT_PRESERVE_LIGATURES | pymupdf.TEXT_PRESERVE_IMAGES)


def test_the_first_pages_modules_leave_pymupdf_to_the_first_pdf_read() -> None:
    """Importing what the first page needs (core.preload's list) does not import PyMuPDF (0.2-0.3 s of a warm
    start, issue 26): it is imported where a PDF is opened or a page rendered."""
    import subprocess
    import sys

    from core.preload import MODULES

    code = f"import importlib, sys\nfor m in {MODULES!r}: importlib.import_module(m)\nprint('pymupdf' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.strip() == "False", out.stderr
