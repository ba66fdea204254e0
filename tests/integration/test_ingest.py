"""Ingestion against the embedded Postgres: what is stored, and what bad input leaves behind."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.ingest.pipeline import embed_pending
from core.rooms.store import list_documents
from tests.factories import FUNDING_CSV, MEMO_PAGES, make_image_pdf, make_pdf, make_xlsx


def counts(db, document_id: int | None = None) -> dict[str, int]:
    """Row counts of every table that holds a document's contents."""
    out = {}
    with db.connection() as conn:
        for table in ("pages", "chunks", "sheets", "sheet_rows", "document_files"):
            if table in ("sheet_rows",):
                sql = "SELECT count(*) FROM sheet_rows r JOIN sheets s ON s.id = r.sheet_id"
                sql += " WHERE s.document_id = %s" if document_id else ""
            else:
                sql = f"SELECT count(*) FROM {table}" + (" WHERE document_id = %s" if document_id else "")
            out[table] = conn.execute(sql, (document_id,) if document_id else ()).fetchone()[0]
    return out


def test_pdf_pages_and_chunks_reproduce_page_text(workbench, db) -> None:
    result = workbench.ingest_upload(make_pdf(MEMO_PAGES), "memo.pdf", "R", embed=False)
    assert result.status == "ready" and result.kind == "pdf" and result.pages == 3
    assert result.chunks >= 3
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT p.text, c.start_char, c.end_char, c.content, c.boxes, c.page_number"
            " FROM chunks c JOIN pages p ON p.document_id = c.document_id AND p.page_number = c.page_number"
            " WHERE c.document_id = %s ORDER BY c.chunk_index",
            (result.document_id,),
        ).fetchall()
    assert [r[5] for r in rows] == sorted(r[5] for r in rows)
    for text, start, end, content, boxes, _ in rows:
        assert text[start:end] == content
        assert boxes and all(len(box) == 4 for box in boxes)
    assert "Mara Quill" in " ".join(" ".join(r[3].split()) for r in rows)


def test_csv_cells_are_addressable(workbench, db) -> None:
    result = workbench.ingest_upload(FUNDING_CSV, "funding.csv", "R", embed=False)
    assert result.status == "ready" and result.kind == "sheet" and result.rows == 4
    with db.connection() as conn:
        cols = conn.execute(
            "SELECT c.name, c.letter, c.dtype FROM sheet_columns c JOIN sheets s ON s.id = c.sheet_id"
            " WHERE s.document_id = %s ORDER BY c.position",
            (result.document_id,),
        ).fetchall()
        rows = conn.execute(
            "SELECT r.row_number, r.values, s.name FROM sheet_rows r JOIN sheets s ON s.id = r.sheet_id"
            " WHERE s.document_id = %s ORDER BY r.row_index",
            (result.document_id,),
        ).fetchall()
    assert [c[0] for c in cols] == ["Company", "Country", "Round", "Amount Raised (USD)"]
    assert [c[1] for c in cols] == ["A", "B", "C", "D"]
    assert cols[3][2] == "number"
    assert rows[0] == (2, ["Acme Robotics", "Canada", "Seed", "2000000"], "funding")
    assert rows[-1][0] == 5


def test_xlsx_every_sheet_is_stored(workbench, db) -> None:
    data = make_xlsx(
        {
            "Portfolio": [["Company", "Employees"], ["Acme", 40], ["Cobalt", 85]],
            "Notes": [["Topic", "Text"], ["Risk", "Licence review"]],
        }
    )
    result = workbench.ingest_upload(data, "book.xlsx", "R", embed=False)
    assert result.status == "ready" and result.rows == 3 and result.chunks == 3
    with db.connection() as conn:
        names = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sheets WHERE document_id = %s ORDER BY position", (result.document_id,)
            )
        ]
        indexes = [
            r[0]
            for r in conn.execute(
                "SELECT chunk_index FROM chunks WHERE document_id = %s ORDER BY chunk_index", (result.document_id,)
            )
        ]
    assert names == ["Portfolio", "Notes"]
    assert indexes == [0, 1, 2]


def test_reupload_of_same_bytes_is_a_noop(workbench, db) -> None:
    first = workbench.ingest_upload(FUNDING_CSV, "funding.csv", "R", embed=False)
    before = counts(db)
    second = workbench.ingest_upload(FUNDING_CSV, "renamed.csv", "R", embed=False)
    assert second.duplicate and second.document_id == first.document_id and second.status == "ready"
    assert counts(db) == before
    # The same bytes in another room are that room's own document.
    other = workbench.ingest_upload(FUNDING_CSV, "funding.csv", "Other", embed=False)
    assert not other.duplicate and other.document_id != first.document_id


BAD_FILES = [
    ("empty.pdf", b"", "empty"),
    ("corrupt.pdf", b"%PDF-1.7\n" + b"\x00garbage" * 50, "upload"),
    ("truncated.pdf", make_pdf(MEMO_PAGES)[:400], "upload"),
    ("locked.pdf", make_pdf(MEMO_PAGES, user_pw="secret", owner_pw="owner"), "password"),
    ("scan.pdf", make_image_pdf(), "no text layer"),
    ("notes.docx", b"PK\x03\x04 not really a docx", "PDF, CSV and XLSX"),
    ("binary.csv", bytes(range(256)) * 40, "csv"),
    ("broken.xlsx", b"this is not a zip file", "xlsx"),
]


@pytest.mark.parametrize(("filename", "data", "hint"), BAD_FILES, ids=[f[0] for f in BAD_FILES])
def test_bad_file_fails_cleanly_and_leaves_nothing(workbench, db, filename: str, data: bytes, hint: str) -> None:
    result = workbench.ingest_upload(data, filename, "R", embed=False)
    assert result.status == "failed"
    assert result.error and hint.lower() in result.error.lower()
    assert counts(db) == {"pages": 0, "chunks": 0, "sheets": 0, "sheet_rows": 0, "document_files": 0}
    docs = list_documents(db, workbench.room("R").id)
    assert [(d.title, d.status, d.error) for d in docs] == [(filename, "failed", result.error)]


def test_size_limit_then_retry_after_raising_it(workbench, db, settings) -> None:
    small = settings.model_copy(update={"max_file_mb": 0.00001})
    room = workbench.room("R", create=True)
    from core.ingest.pipeline import ingest_bytes

    failed = ingest_bytes(db, room, FUNDING_CSV, "funding.csv", small)
    assert failed.status == "failed" and "WORKBENCH_MAX_FILE_MB" in (failed.error or "")
    assert counts(db)["sheet_rows"] == 0
    retried = ingest_bytes(db, room, FUNDING_CSV, "funding.csv", settings)
    assert retried.status == "ready" and not retried.duplicate
    assert [d.status for d in list_documents(db, room.id)] == ["ready"]


def test_a_bad_file_does_not_stop_the_batch(workbench, tmp_path: Path) -> None:
    good_csv = tmp_path / "funding.csv"
    good_csv.write_bytes(FUNDING_CSV)
    bad = tmp_path / "corrupt.pdf"
    bad.write_bytes(b"%PDF-1.4 broken")
    good_pdf = tmp_path / "memo.pdf"
    good_pdf.write_bytes(make_pdf(MEMO_PAGES))
    missing = tmp_path / "missing.csv"
    results = list(workbench.ingest([good_csv, bad, missing, good_pdf], "R", embed=False))
    assert [r.status for r in results] == ["ready", "failed", "failed", "ready"]
    assert "Cannot read" in (results[2].error or "")


def test_embedding_fills_every_chunk_once(workbench, db) -> None:
    result = workbench.ingest_upload(make_pdf(MEMO_PAGES), "memo.pdf", "R", embed=True)
    assert result.embedded
    with db.connection() as conn:
        n_chunks, n_vectors, model, embedded_at = conn.execute(
            "SELECT (SELECT count(*) FROM chunks), (SELECT count(*) FROM chunk_embeddings),"
            " (SELECT embedding_model FROM rooms WHERE name = 'R'),"
            " (SELECT embedded_at FROM documents WHERE id = %s)",
            (result.document_id,),
        ).fetchone()
    assert n_chunks == n_vectors == result.chunks
    assert model == "local:all-MiniLM-L6-v2" and embedded_at is not None
    assert embed_pending(db, workbench.room("R"), workbench.embedder) == 0


def test_migrations_are_recorded(db) -> None:
    import psycopg

    from core.db import migrate, migrations

    # The owner's connection: the app role may not read the migrations table.
    with psycopg.connect(db.conninfo) as conn:
        versions = [r[0] for r in conn.execute("SELECT version FROM schema_migrations ORDER BY version")]
    assert versions == [v for v, _, _ in migrations()] and len(versions) >= 2
    assert migrate(db.conninfo) == []


def test_the_uploaded_bytes_are_kept(workbench, db) -> None:
    data = make_pdf(MEMO_PAGES)
    result = workbench.ingest_upload(data, "memo.pdf", "R", embed=False)
    with db.connection() as conn:
        stored = conn.execute("SELECT data FROM document_files WHERE document_id = %s", (result.document_id,))
        assert bytes(stored.fetchone()[0]) == data


def test_reingest_with_a_model_embeds_what_was_stored_without(workbench, db) -> None:
    data = make_pdf(MEMO_PAGES)
    first = workbench.ingest_upload(data, "memo.pdf", "R", embed=False)
    assert not first.embedded
    again = workbench.ingest_upload(data, "memo.pdf", "R", embed=True)
    assert again.duplicate and again.embedded and again.document_id == first.document_id
    with db.connection() as conn:
        assert conn.execute("SELECT count(*) FROM chunk_embeddings").fetchone()[0] == first.chunks


def test_embedding_progress_moves_in_small_steps_with_vectors_stored_at_each(workbench, db) -> None:
    """A 100-row sheet is 100 chunks: progress (and the stored vectors the document list counts) moves every
    EMBED_STEP chunks, not once per 128-chunk fetch."""
    import itertools

    import numpy as np

    EMBED_STEP = 32

    rows = "\n".join(f"Company {i},{i * 1000},Canada" for i in range(100))
    workbench.ingest_upload(f"name,raised,country\n{rows}\n".encode(), "many.csv", "R", embed=False)

    class Fake:
        name = workbench.embedder.name

        def __init__(self) -> None:
            self.sizes: list[int] = []

        def embed(self, texts: list[str]) -> np.ndarray:
            self.sizes.append(len(texts))
            vectors = np.random.default_rng(len(texts)).random((len(texts), 384), dtype=np.float32)
            return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)

    seen: list[tuple[int, int, int]] = []

    def progress(stage: str, done: int, total: int) -> None:
        with db.connection() as conn:
            stored = conn.execute("SELECT count(*) FROM chunk_embeddings").fetchone()[0]
        seen.append((done, total, stored))

    fake = Fake()
    total = embed_pending(db, workbench.room("R"), fake, progress=progress)
    assert total >= 100
    dones = [done for done, _, _ in seen]
    assert dones[0] == 0 and dones[-1] == total
    assert all(0 < b - a <= EMBED_STEP for a, b in itertools.pairwise(dones))
    assert all(stored == done for done, _, stored in seen)  # each step's vectors are stored when it is reported
    assert max(fake.sizes) <= EMBED_STEP
