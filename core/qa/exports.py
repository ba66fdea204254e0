"""Text that leaves the workbench as it is: exports no spreadsheet runs as formulas, Markdown shown literally.

Spreadsheets (CSV/formula injection):

Per OWASP (CSV Injection): a cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return is read
by Excel, LibreOffice and Google Sheets as a formula (`=HYPERLINK(...)`, `@SUM(...)`, `-2+3+cmd|...`);
prefixing it with a single quote makes it text. Plain numbers ("-3.1", "+5", "-1,234.50", "-12%") are
left alone: a spreadsheet reads them as the numbers they are, never as formulas.

Markdown: document text shown on a page must not turn into emphasis, links or (Streamlit reads `$...$` as
LaTeX) formulas; answers, full of dollar amounts, keep their own emphasis and lists but not the `$`.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.db import Database

__all__ = ["FORMULA_PREFIXES", "escape_markdown", "neutralise_cell", "sheet_csv", "to_csv"]

FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"^[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:[eE][+-]?\d+)?%?$")
_MARKDOWN_MARKER = re.compile(r"([\\`*_{}\[\]<>()#+\-!|~$])")


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


def escape_markdown(text: str, *, math_only: bool = False) -> str:
    """`text` shown literally in Markdown; with `math_only` only `$` is escaped (its emphasis and lists still render)."""
    if math_only:
        return text.replace("$", "\\$")
    return _MARKDOWN_MARKER.sub(r"\\\1", text)
