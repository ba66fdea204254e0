"""Text that leaves the workbench as it is: exports no spreadsheet runs as formulas, Markdown shown literally.

Spreadsheets (CSV/formula injection):

Per OWASP (CSV Injection): a cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return is read
by Excel, LibreOffice and Google Sheets as a formula (`=HYPERLINK(...)`, `@SUM(...)`, `-2+3+cmd|...`);
prefixing it with a single quote makes it text. Plain numbers ("-3.1", "+5", "-1,234.50", "-12%") are
left alone: a spreadsheet reads them as the numbers they are, never as formulas.

Markdown: the one rendering rule for user-controlled text on a page (room, file, sheet and user names, URL
values, passages, cells, messages carrying them): `escape_markdown` shows it literally: no emphasis, link,
image, HTML or (Streamlit reads `$...$` as LaTeX) formula; bare URLs (GitHub Markdown links `https://...` and
`www....` by themselves) are broken with an invisible word joiner (U+2060), so they stay text a browser never
fetches; bidi controls (U+202A-U+202E, U+2066-U+2069, U+200E/U+200F,
U+061C), which make a name read backwards or spoof its extension, show as a visible `[U+202E]`. Answers, full
of dollar amounts, keep their own emphasis and lists (`math_only`) but not `$`, links, images or HTML.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.db import Database

__all__ = [
    "BIDI_CONTROLS",
    "FORMULA_PREFIXES",
    "escape_markdown",
    "neutralise_bidi",
    "neutralise_cell",
    "neutralise_links",
    "sheet_csv",
    "to_csv",
]

FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"^[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:[eE][+-]?\d+)?%?$")
# Markdown and HTML markers wherever they stand (with `[` escaped no `](` link or `![` image can open, so `!`, `(`
# and `)` stay as they are); `_` only where it can open or close emphasis (not inside a word: "funding_rounds").
_MARKDOWN_MARKER = re.compile(r"([\\`*\[\]<>|~$&])|(?<![^\W_])_|_(?![^\W_])")
# Markers only at the start of a line: headings, lists, setext underlines, ordered lists ("1." / "1)").
_LINE_MARKER = re.compile(r"(?m)^([ \t]*)(?:([#+=-])|(\d+)([.)]))")
# In answers (`math_only`): what makes a formula, a link, an image or HTML; emphasis and lists stay.
_ANSWER_MARKER = re.compile(r"([\\\[\]<>$&])")
# Bidirectional-text controls: embeddings, overrides, isolates, the marks and the Arabic letter mark.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
_BIDI = re.compile("[" + "".join(sorted(BIDI_CONTROLS)) + "]")
WORD_JOINER = "\u2060"
# What GitHub Markdown links by itself and a browser may fetch: a scheme's `://` and `www.` (the joiner goes after
# the first character of each). An e-mail address becomes a mailto: link, which fetches nothing.
_AUTOLINK = re.compile(r"://|(?<![^\W_])www\.", re.IGNORECASE)


def neutralise_cell(value: str | None) -> str | None:
    """`value` as a spreadsheet will show it, never run it: formula-like text gets a leading single quote."""
    if not value or not value.startswith(FORMULA_PREFIXES):
        return value
    if any(c.isdigit() for c in value) and _NUMBER.match(value):
        return value
    return "'" + value


def to_csv(header: Sequence[str], rows: Iterable[Sequence[str | None]]) -> str:
    """A CSV (RFC 4180 quoting, CRLF) of `header` and `rows`, every cell neutralised; None is an empty cell."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow([neutralise_cell(h) for h in header])
    for row in rows:
        writer.writerow([neutralise_cell(v) or "" for v in row])
    return buffer.getvalue()


def sheet_csv(db: Database, sheet_id: int) -> str:
    """A stored sheet (with its cell edits) as a formula-safe CSV: the header, then every row."""
    from core.ingest.edits import load_grid

    grid = load_grid(db, sheet_id)
    fields = [f"c{c.position}" for c in grid.columns]
    frame = grid.frame.astype(object).where(grid.frame.notna(), None)
    return to_csv([c.name for c in grid.columns], frame[fields].itertuples(index=False, name=None))


def neutralise_bidi(text: str) -> str:
    """`text` with each bidi control shown as a visible `[U+XXXX]` (a name cannot read backwards on screen)."""
    return _BIDI.sub(lambda m: f"[U+{ord(m.group(0)):04X}]", text)


def neutralise_links(text: str) -> str:
    """`text` with every bare URL, `www.` address and e-mail address broken by a word joiner (no autolink)."""
    return _AUTOLINK.sub(lambda m: m.group(0)[0] + WORD_JOINER + m.group(0)[1:], text)


def escape_markdown(text: str, *, math_only: bool = False) -> str:
    """`text` shown literally in Markdown: the rule for every user-controlled text on a page (see the module).

    With `math_only` (answers) emphasis and lists still render, but `$`, links, images and HTML do not."""
    text = neutralise_bidi(str(text))
    if math_only:
        return neutralise_links(_ANSWER_MARKER.sub(r"\\\1", text))
    text = _MARKDOWN_MARKER.sub(lambda m: "\\" + m.group(0), text)
    text = _LINE_MARKER.sub(
        lambda m: m.group(1) + ("\\" + m.group(2) if m.group(2) else m.group(3) + "\\" + m.group(4)), text
    )
    return neutralise_links(text)
