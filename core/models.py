"""Values that cross module lines: citations, search hits, ingestion results, rooms."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, computed_field


class Citation(BaseModel):
    """A pointer to the exact spreadsheet cell or PDF passage a claim rests on."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["cell", "page"]
    document_id: int
    title: str
    # cells
    sheet: str | None = None
    row_id: int | None = None
    column: str | None = None
    ref: str | None = None  # A1 address as in the original file, e.g. "Funding!D12"
    value: str | None = None  # the cell's text as stored
    # pages (and the page of a cell of a table read from a PDF)
    page: int | None = None  # 1-based
    chunk_index: int | None = None
    start_char: int | None = None
    end_char: int | None = None
    quote: str | None = None  # found verbatim in the page text
    score: float = 0.0

    @property
    def label(self) -> str:
        """The short name of a source, as chips and memos show it: `Funding!E12`, `10-K 2022 · p. 47`,
        `10-K 2022 · p. 47 · 2022` (a cell of a table read from a PDF page)."""
        stem = (self.title or "document").rsplit(".", 1)[0]
        if self.kind == "cell" and self.page is not None:  # a cell of a table read from a PDF page
            return f"{stem} · p. {self.page} · {self.column}"
        if self.kind == "cell":
            return self.ref or self.title or "cell"
        return f"{stem} · p. {self.page}"


class SearchHit(Citation):
    """A search result: a citation plus a preview of the matched text, and its document's fiscal period
    ("FY2022", "Q3 FY2023"; None when not known)."""

    preview: str = ""
    period: str | None = None


def period_label(fiscal_year: int | None, fiscal_quarter: int | None) -> str | None:
    """A fiscal period as analysts write it: "FY2022", "Q3 FY2023"; None without a year."""
    if fiscal_year is None:
        return None
    return f"Q{fiscal_quarter} FY{fiscal_year}" if fiscal_quarter else f"FY{fiscal_year}"


class Filing(BaseModel):
    """What a document is (core/ingest/filing.py reads it from a PDF's cover and name): every field None when
    unknown. `form` is one of core.lexicon.filings.FORMS; `fiscal_quarter` is None for a whole year;
    `fiscal_convention` is the cover's words when it states one ("fiscal 2022 ended January 28, 2023")."""

    model_config = ConfigDict(frozen=True)

    company: str | None = None
    form: str | None = None
    fiscal_year: int | None = None
    fiscal_quarter: int | None = None
    period_end: date | None = None
    fiscal_convention: str | None = None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def period(self) -> str | None:
        """ "FY2022", "Q3 FY2023" (None when no fiscal year is known)."""
        return period_label(self.fiscal_year, self.fiscal_quarter)

    def filing(self) -> Filing:
        """Only the filing's fields (of a document row or an ingestion result that carries them)."""
        return Filing(**{name: getattr(self, name) for name in Filing.model_fields})


class IngestResult(Filing):
    """What ingesting one file did (the `workbench ingest --json` object), with what the file is (a PDF's company,
    form and period)."""

    model_config = ConfigDict(frozen=False)

    document_id: int | None
    title: str
    kind: Literal["pdf", "sheet"] | None
    pages: int | None = None
    rows: int | None = None
    chunks: int = 0
    # incomplete: stored and keyword-searchable, some chunks without a vector (`workbench embed --room` finishes it)
    status: Literal["ready", "incomplete", "failed"]
    error: str | None = None
    duplicate: bool = False
    embedded: bool = False
    searchable_seconds: float = 0.0
    seconds: float = 0.0
    tables: int | None = None  # a PDF's tables stored as sheets of it (None: not a PDF, or already in the room)

    @property
    def size(self) -> str:
        """What the file holds, as the sidebar and the CLI say it: "107 pages, 12 tables", "4 rows"."""
        if self.kind != "pdf":
            return f"{self.rows} row{'' if self.rows == 1 else 's'}"
        tables = f", {self.tables} table{'' if self.tables == 1 else 's'}" if self.tables else ""
        return f"{self.pages} page{'' if self.pages == 1 else 's'}{tables}"


class Room(BaseModel):
    """A data room and what it holds."""

    id: int
    name: str
    documents: int = 0
    ready: int = 0
    incomplete: int = 0  # stored, some chunks not embedded yet (migration 028)
    failed: int = 0
    chunks: int = 0
    embedded_chunks: int = 0
    embedding_model: str | None = None
