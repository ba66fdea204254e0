"""The caps on what one file may hold (characters, cells), shared by the parsers: refused with the fix."""

from __future__ import annotations

from core.errors import TooMuchContent


def too_much_content(name: str, *, cells: int, chars: int, max_cells: int, max_chars: int) -> TooMuchContent:
    """The error for a sheet past its cell or character cap."""
    if cells > max_cells:
        what = f"more than {max_cells:,} cells"
        setting = "WORKBENCH_MAX_CELLS"
    else:
        what = f"more than {max_chars:,} characters of cell text"
        setting = "WORKBENCH_MAX_FILE_CHARS"
    return TooMuchContent(
        f"{name} holds {what}, over the limit for one file. "
        f"Split it into smaller files (or raise {setting} if the data is genuine)."
    )


def page_too_long(name: str, page: int, chars: int, max_chars: int) -> TooMuchContent:
    """The error for a PDF page whose text is past the per-page cap."""
    return TooMuchContent(
        f"{name}: page {page} holds {chars:,} characters of text, over the limit of {max_chars:,} per page "
        "(a dense page holds about 10,000; this one may be built to exhaust memory). "
        "Remove that page or print the PDF again, or raise WORKBENCH_MAX_PAGE_CHARS if it is genuine."
    )


def pdf_too_long(name: str, chars: int, max_chars: int) -> TooMuchContent:
    """The error for a PDF whose text is past the per-file cap."""
    return TooMuchContent(
        f"{name} holds over {max_chars:,} characters of text ({chars:,} read so far), over the limit for one file. "
        "Split it into smaller PDFs, or raise WORKBENCH_MAX_FILE_CHARS."
    )
