"""Ingestion: file bytes -> parsed pages/sheets -> one transaction -> embeddings."""

from __future__ import annotations

import hashlib
import json
import logging
import re
import shlex
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import psycopg
from psycopg import errors as pg_errors
from psycopg import sql
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from core.cells import Column
from core.config import Settings
from core.db import Database, q
from core.errors import (
    IngestError,
    WorkbenchError,
)
from core.ingest import pdf
from core.ingest.filing import fiscal_header, read_filing
from core.ingest.parse import Parsed, TableSheet, check_size
from core.ingest.pdf_tables import Box
from core.ingest.sandbox import parse_isolated
from core.ingest.sheets.parsed import ParsedSheet
from core.models import Filing, IngestResult
from core.providers.embeddings import Embedder
from core.rooms.store import RoomRef, check_embedding_model, claim_embedding_model, write_filing


@dataclass(frozen=True)
class JobUpload:
    """An upload the job queue holds (`ingest_jobs.data`), copied to a file a piece at a time by the worker
    (core.ingest.jobs): its bytes are never all in the worker's memory. The parse child reads the file, and
    Postgres copies the bytes into `document_files` itself."""

    job_id: int
    path: Path
    size: int
    checksum: str


log = logging.getLogger(__name__)

Progress = Callable[[str, int, int], None]
"""Called as progress(stage, done, total) while a file is ingested and embedded."""

# Pending chunks are fetched EMBED_BATCH at a time and embedded and stored EMBED_STEP at a time, each step
# reported: progress (and the vectors the sidebar's document list counts) moves every 32 chunks. A fetch's texts
# are sorted by length first, so each step pads like the model's own length-sorted batches do (no loss measured).
EMBED_BATCH = 128
EMBED_STEP = 32


def _no_progress(stage: str, done: int, total: int) -> None:
    return None


def title_for(filename: str) -> str:
    """A document's title: its file name without the folder."""
    return Path(filename).name


def context_for(filename: str) -> str:
    """Searchable words of a file name: `K9_2019_10K.pdf` -> `K9 2019 10K` (Postgres reads the name as one token)."""
    return " ".join(re.split(r"[\W_]+", Path(filename).stem)).strip()


def row_text(columns: Iterable[Column], values: Iterable[str | None]) -> str:
    """A row as searchable text: `Company: Acme; Country: Canada; ...` (empty cells left out)."""
    return "; ".join(
        f"{column.name}: {value}" for column, value in zip(columns, values, strict=False) if value not in (None, "")
    )


def _clean(value: str | None) -> str | None:
    # Postgres text and jsonb cannot hold NUL characters.
    return value.replace("\x00", "") if value else value


def _store(
    conn: psycopg.Connection[Any],
    room: RoomRef,
    parsed: Parsed,
    *,
    data: bytes | JobUpload,
    filename: str,
    checksum: str,
    progress: Progress,
    to_embed: bool = False,
) -> tuple[int, int | None, int | None, int, Filing]:
    """Write one parsed file in the caller's transaction; return (document id, pages, rows, chunks, what it is).

    A file stored `to_embed` with chunks is `incomplete` until its last chunk has a vector (migration 028)."""
    title = title_for(filename)
    pages = parsed.pdf.page_count if parsed.pdf else None
    n_rows = sum(len(s.rows) for s in parsed.sheets) if parsed.kind == "sheet" else None
    n_chunks = len(parsed.pdf.chunks) if parsed.pdf else (n_rows or 0)
    with conn.cursor(row_factory=dict_row) as cur:
        row = cur.execute(
            q("insert_document"),
            {
                "room_id": room.id,
                "kind": parsed.kind,
                "title": title,
                "filename": filename,
                "mime_type": parsed.mime_type,
                "checksum": checksum,
                "size_bytes": _size(data),
                "status": "incomplete" if to_embed and n_chunks else "ready",
                "error": None,
                "page_count": pages,
                "n_rows": n_rows,
                "n_chunks": n_chunks,
            },
        ).fetchone()
        assert row is not None
        document_id: int = row["id"]
        if isinstance(data, JobUpload):
            cur.execute(q("insert_document_file_from_job"), {"document_id": document_id, "job_id": data.job_id})
        else:
            cur.execute(q("insert_document_file"), {"document_id": document_id, "data": data})
        filing = Filing()
        if parsed.pdf is not None:
            filing = read_filing([page.text for page in parsed.pdf.pages], filename)
            write_filing(cur, room.id, document_id, filing)
            _store_pdf(cur, room, document_id, context_for(filename), parsed.pdf, progress)
        base = 0
        for position, sheet in enumerate(parsed.sheets):
            _store_sheet(
                cur, room, document_id, context_for(filename), position, sheet, len(parsed.sheets), base, progress
            )
            base += len(sheet.rows)
        for position, table in enumerate(parsed.tables):
            table = _fiscal_columns(table, filing)
            _store_sheet(cur, room, document_id, "", position, table.sheet, len(parsed.tables), 0, progress, table)
        cur.execute(q("add_term_stats"), {"room_id": room.id, "document_id": document_id, "n_chunks": n_chunks})
    return document_id, pages, n_rows, n_chunks, filing


def _fiscal_columns(table: TableSheet, filing: Filing) -> TableSheet:
    """The table with its columns headed by a fiscal year's last day named by the fiscal year, as the filing names
    its years (core.ingest.filing.fiscal_header): "January 28, 2023" is "Fiscal 2022" in a retailer's 10-K."""
    names = [fiscal_header(c.name, filing) for c in table.sheet.columns]
    if names == [c.name for c in table.sheet.columns] or len(set(names)) != len(names):
        return table
    columns = tuple(replace(c, name=n) for c, n in zip(table.sheet.columns, names, strict=True))
    return replace(table, sheet=replace(table.sheet, columns=columns))


@contextmanager
def _copy_into(cur: psycopg.Cursor[Any], table: str, columns: tuple[str, ...]) -> Iterator[psycopg.Copy]:
    """COPY rows into `table` through a temporary table (COPY FROM is refused under row-level security;
    INSERT ... SELECT from the temporary table applies the policies and stays a bulk load)."""
    stage = sql.Identifier(f"stage_{table}_{hashlib.blake2b(','.join(columns).encode(), digest_size=4).hexdigest()}")
    cols = sql.SQL(", ").join(map(sql.Identifier, columns))
    # Empty at every use: emptied after each load, on commit, and by the rollback of a failed file.
    names = {"stage": stage, "cols": cols, "table": sql.Identifier(table)}
    cur.execute(sql.SQL(q("stage_create")).format(**names))
    with cur.copy(sql.SQL(q("stage_copy")).format(**names)) as copy:
        yield copy
    cur.execute(sql.SQL(q("stage_insert")).format(**names))
    cur.execute(sql.SQL(q("stage_truncate")).format(**names))


def _store_pdf(
    cur: psycopg.Cursor[Any], room: RoomRef, document_id: int, context: str, parsed: pdf.ParsedPdf, progress: Progress
) -> None:
    with _copy_into(cur, "pages", ("document_id", "page_number", "text", "width", "height")) as copy:
        for page in parsed.pages:
            copy.write_row((document_id, page.number, page.text, page.width, page.height))
    progress("storing", 1, 2)
    with _copy_into(
        cur,
        "chunks",
        (
            "room_id",
            "document_id",
            "chunk_index",
            "page_number",
            "start_char",
            "end_char",
            "boxes",
            "context",
            "content",
        ),
    ) as copy:
        for chunk in parsed.chunks:
            copy.write_row(
                (
                    room.id,
                    document_id,
                    chunk.chunk_index,
                    chunk.page_number,
                    chunk.start_char,
                    chunk.end_char,
                    json.dumps([[round(v, 2) for v in box] for box in chunk.boxes]),
                    context,
                    chunk.content,
                )
            )
    progress("storing", 2, 2)


def _store_sheet(
    cur: psycopg.Cursor[Any],
    room: RoomRef,
    document_id: int,
    context: str,
    position: int,
    sheet: ParsedSheet,
    n_sheets: int,
    base: int,
    progress: Progress,
    table: TableSheet | None = None,
) -> None:
    """Write one sheet; its row chunks are numbered from `base` so chunk_index is unique per document.

    A PDF's table (`table`) keeps its page and cell boxes and gets no row chunks: the page's passages already
    hold its text for search, and its cells are reached through the planner's schema.
    """
    row = cur.execute(
        q("insert_sheet"),
        {
            "document_id": document_id,
            "position": position,
            "name": sheet.name,
            "header_row": sheet.header_row,
            "n_rows": len(sheet.rows),
            "n_cols": len(sheet.columns),
            "title": sheet.title,
            "uncalculated": Jsonb([{"ref": ref, "formula": formula} for ref, formula in sheet.uncalculated]),
            "page_number": table.page if table else None,
            "model": Jsonb(sheet.model.to_json()) if sheet.model else None,
            "tab": sheet.tab,
        },
    ).fetchone()
    assert row is not None
    sheet_id: int = row["id"]
    with _copy_into(cur, "sheet_columns", ("sheet_id", "position", "name", "letter", "dtype")) as copy:
        for column in sheet.columns:
            copy.write_row((sheet_id, column.position, column.name, column.letter, column.dtype))
    rows = [tuple(_clean(v) for v in values) for values in sheet.rows]
    boxes = [_boxes_json(b) for b in table.boxes] if table else [None] * len(rows)
    with _copy_into(cur, "sheet_rows", ("sheet_id", "row_index", "row_number", "values", "boxes")) as copy:
        for index, (values, number, box) in enumerate(zip(rows, sheet.row_numbers, boxes, strict=True)):
            copy.write_row((sheet_id, index, number, json.dumps(values, ensure_ascii=False), box))
    if table is not None:
        progress("storing", position + 1, n_sheets)
        return
    ids = [r["id"] for r in cur.execute(q("sheet_row_ids"), {"sheet_id": sheet_id})]
    if n_sheets > 1:
        context = f"{context} · {sheet.name}"
    if sheet.title:  # the title above the header ("Gross profit", "in millions") names what the rows are
        context = f"{context} · {sheet.title}"
    with _copy_into(cur, "chunks", ("room_id", "document_id", "chunk_index", "row_id", "context", "content")) as copy:
        for index, (row_id, values) in enumerate(zip(ids, rows, strict=True)):
            copy.write_row((room.id, document_id, base + index, row_id, context, row_text(sheet.columns, values)))
    progress("storing", position + 1, n_sheets)


def _boxes_json(boxes: Sequence[Box | None]) -> str:
    return json.dumps([[round(v, 2) for v in box] if box else None for box in boxes])


def _record_failure(
    db: Database, room: RoomRef, *, filename: str, checksum: str, size: int, kind: str | None, error: str
) -> int | None:
    with db.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
        try:
            row = cur.execute(
                q("insert_document"),
                {
                    "room_id": room.id,
                    "kind": kind,
                    "title": title_for(filename),
                    "filename": filename,
                    "mime_type": None,
                    "checksum": checksum,
                    "size_bytes": size,
                    "status": "failed",
                    "error": error,
                    "page_count": None,
                    "n_rows": None,
                    "n_chunks": 0,
                },
            ).fetchone()
        except pg_errors.UniqueViolation:
            # Another upload of the same bytes got there first; its record stands.
            return None
    return row["id"] if row else None


def _size(data: bytes | JobUpload) -> int:
    return data.size if isinstance(data, JobUpload) else len(data)


def ingest_bytes(
    db: Database,
    room: RoomRef,
    data: bytes | JobUpload,
    filename: str,
    settings: Settings,
    *,
    embedder: Embedder | None = None,
    progress: Progress = _no_progress,
) -> IngestResult:
    """Ingest one file into `room` (its bytes, or a queued upload's file): all of it or nothing, failures recorded
    with the fix; then embed it."""
    started = time.perf_counter()
    title = title_for(filename)
    checksum = data.checksum if isinstance(data, JobUpload) else hashlib.sha256(data).hexdigest()
    with db.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
        existing = cur.execute(q("find_document_by_checksum"), {"room_id": room.id, "checksum": checksum}).fetchone()
        if existing and existing["status"] == "failed":
            # A retry of a file that failed before: forget the failure and try again.
            cur.execute(q("delete_document"), {"id": existing["id"]})
            existing = None
    if existing:
        embedded, status = existing["embedded_at"] is not None, existing["status"]
        if embedder is not None and not embedded and existing["n_chunks"]:
            # Stored earlier without vectors (--no-embed, a model call that failed, a worker cut off while embedding):
            # only the missing chunks are embedded, and an incomplete document becomes ready.
            embed_pending(db, room, embedder, document_id=existing["id"], progress=progress)
            embedded, status = True, "ready"
        return IngestResult(
            **{name: existing[name] for name in Filing.model_fields},
            document_id=existing["id"],
            title=existing["title"],
            kind=existing["kind"],
            pages=existing["page_count"],
            rows=existing["n_rows"],
            chunks=existing["n_chunks"],
            status=status,
            error=None if status == "ready" else missing_vectors(db, room, existing["id"]),
            duplicate=True,
            embedded=embedded,
            seconds=round(time.perf_counter() - started, 3),
        )
    kind: str | None = None
    try:
        progress("parsing", 0, 1)
        parsed = parse_isolated(data.path if isinstance(data, JobUpload) else data, filename, settings).parsed
        kind = parsed.kind
        progress("parsing", 1, 1)
        with db.connection() as conn:
            document_id, pages, rows, chunks, filing = _store(
                conn,
                room,
                parsed,
                data=data,
                filename=filename,
                checksum=checksum,
                progress=progress,
                to_embed=embedder is not None,
            )
    except pg_errors.UniqueViolation as exc:
        if exc.diag.constraint_name != "documents_room_id_checksum_key":
            raise
        # The same bytes were uploaded concurrently and committed first: this upload is a no-op.
        return ingest_bytes(db, room, data, filename, settings, embedder=embedder, progress=progress)
    except (IngestError, psycopg.DataError, pg_errors.ProgramLimitExceeded) as exc:
        if isinstance(exc, IngestError):
            message = str(exc)
        elif isinstance(exc, pg_errors.ProgramLimitExceeded):
            # Postgres cannot index a text whose words take over 1 MB (a huge cell): say so, not a traceback.
            message = (
                f"{filename} has a cell too large to index ({str(exc).splitlines()[0]}). "
                "Split that text into smaller cells and upload again."
            )
        else:
            message = (
                f"{filename} could not be stored: {exc}. Check the file for unusual characters and upload it again."
            )
        document_id_failed = _record_failure(
            db, room, filename=filename, checksum=checksum, size=_size(data), kind=kind, error=message
        )
        return IngestResult(
            document_id=document_id_failed,
            title=title,
            kind=kind,  # type: ignore[arg-type]
            status="failed",
            error=message,
            seconds=round(time.perf_counter() - started, 3),
        )
    searchable = time.perf_counter() - started
    # A sheet read with a warning (mixed encodings) is stored, and the warning travels with the result.
    embedded, error = False, " ".join(s.warning for s in parsed.sheets if s.warning) or None
    if embedder is not None and chunks:
        try:
            embed_pending(db, room, embedder, document_id=document_id, progress=progress)
            embedded = True
        except WorkbenchError as exc:
            # The text is stored and keyword-searchable; only (some of) the vectors are missing.
            error = " ".join(filter(None, [error, f"{exc}", missing_vectors(db, room, document_id)]))
    return IngestResult(
        **filing.model_dump(exclude={"period"}),
        document_id=document_id,
        title=title,
        kind=parsed.kind,  # type: ignore[arg-type]
        pages=pages,
        rows=rows,
        chunks=chunks,
        status="ready" if embedded or embedder is None or not chunks else "incomplete",
        error=error,
        embedded=embedded,
        tables=len(parsed.tables) if parsed.kind == "pdf" else None,
        searchable_seconds=round(searchable, 3),
        seconds=round(time.perf_counter() - started, 3),
    )


def missing_vectors(db: Database, room: RoomRef, document_id: int) -> str:
    """What an incomplete document lacks and the one command that finishes it."""
    with db.connection() as conn:
        row = conn.execute(q("document_vectors"), {"id": document_id}).fetchone()
    embedded, total = (int(row[0]), int(row[1])) if row else (0, 0)
    return (
        f"Stored and keyword-searchable, but {embedded} of {total} chunks have vectors: run "
        f"`workbench embed --room {shlex.quote(room.name)}` to embed the missing ones."
    )


def read_file(path: Path, settings: Settings) -> bytes:
    """A file's bytes; FileTooLarge over the size limit, IngestError when it cannot be read."""
    try:
        check_size(path.name, path.stat().st_size, settings)
        return path.read_bytes()
    except OSError as exc:
        raise IngestError(f"Cannot read {path}: {exc.strerror}.") from exc


def ingest_path(
    db: Database,
    room: RoomRef,
    path: Path,
    settings: Settings,
    *,
    embedder: Embedder | None = None,
    progress: Progress = _no_progress,
) -> IngestResult:
    """Ingest a file from disk; unreadable paths become failed results, not exceptions."""
    try:
        data = read_file(path, settings)
    except IngestError as exc:
        return IngestResult(document_id=None, title=path.name, kind=None, status="failed", error=str(exc))
    return ingest_bytes(db, room, data, path.name, settings, embedder=embedder, progress=progress)


def _batches(db: Database, room: RoomRef, document_id: int | None) -> Iterator[list[dict]]:
    while True:
        with db.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
            rows = cur.execute(
                q("pending_chunks"), {"room_id": room.id, "document_id": document_id, "limit": EMBED_BATCH}
            ).fetchall()
        if not rows:
            return
        yield rows


def _store_vectors(db: Database, room: RoomRef, rows: list[dict], vectors: Any) -> None:
    with db.connection() as conn, conn.cursor() as cur:
        cur.executemany(
            q("insert_embedding"),
            [
                {"chunk_id": r["id"], "room_id": room.id, "embedding": vector}
                for r, vector in zip(rows, vectors, strict=True)
            ],
        )
        if cur.rowcount == 0:
            # Every chunk of the step already has a vector this user cannot see: asking again would
            # get the same chunks forever. Composite keys (migration 016) keep that from happening.
            raise WorkbenchError(
                f"Embedding stalled in data room {room.name!r}: chunks {rows[0]['id']}-{rows[-1]['id']} "
                "have vectors stored elsewhere. Ask an owner to delete and re-upload their documents."
            )


def embed_pending(
    db: Database,
    room: RoomRef,
    embedder: Embedder,
    *,
    document_id: int | None = None,
    progress: Progress = _no_progress,
) -> int:
    """Embed the room's chunks that have no vector yet (one document's if given); return how many."""
    check_embedding_model(room, embedder.name)
    room = claim_embedding_model(db, room, embedder.name)
    with db.connection() as conn:
        row = conn.execute(q("count_pending_chunks"), {"room_id": room.id, "document_id": document_id}).fetchone()
    total = int(row[0]) if row else 0
    done = 0
    progress("embedding", 0, total)
    for batch in _batches(db, room, document_id):
        texts = {r["id"]: f"{r['context']}\n{r['content']}" for r in batch}
        ordered = sorted(batch, key=lambda r: len(texts[r["id"]]))
        for start in range(0, len(ordered), EMBED_STEP):
            step = ordered[start : start + EMBED_STEP]
            _store_vectors(db, room, step, embedder.embed([texts[r["id"]] for r in step]))
            done += len(step)
            progress("embedding", min(done, total), max(total, done))
    with db.connection() as conn:
        conn.execute(q("mark_embedded"), {"room_id": room.id})
    return done
