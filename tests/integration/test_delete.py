"""Deleting a document: everything made from it goes, keyword statistics stay exact, owners only."""

from __future__ import annotations

import psycopg
import pytest

from core.errors import AccessDenied, DocumentNotFound
from core.rooms.access import set_member
from core.rooms.auth import create_account
from core.workbench import Workbench
from tests.factories import FUNDING_CSV, MEMO_PAGES, make_pdf


def stats(db, room_id: int) -> tuple[dict[str, int], int]:
    """term_stats (df > 0) and rooms.n_chunks, as stored."""
    with psycopg.connect(db.conninfo) as conn:
        stored = dict(
            conn.execute("SELECT lexeme, df FROM term_stats WHERE room_id = %s AND df > 0", (room_id,)).fetchall()
        )
        n = conn.execute("SELECT n_chunks FROM rooms WHERE id = %s", (room_id,)).fetchone()[0]
    return stored, n


def recomputed(db, room_id: int) -> tuple[dict[str, int], int]:
    """The same, recomputed from the chunks that are left."""
    with psycopg.connect(db.conninfo) as conn:
        counts = dict(
            conn.execute(
                "SELECT word, ndoc FROM ts_stat(format('SELECT tsv FROM chunks WHERE room_id = %%s', %s::bigint))",
                (room_id,),
            ).fetchall()
        )
        n = conn.execute("SELECT count(*) FROM chunks WHERE room_id = %s", (room_id,)).fetchone()[0]
    return counts, n


def member(workbench: Workbench, role: str) -> Workbench:
    """A new account with `role` in room R, as a workbench acting for it."""
    account = create_account(workbench.db, f"{role}@example.com", role.title(), "a long password")
    set_member(workbench.db, workbench.room("R").id, account.id, role)  # type: ignore[arg-type]
    return Workbench(workbench.settings, db=workbench.db.as_user(account.id))


def test_an_owner_deletes_a_document_and_the_statistics_stay_exact(workbench) -> None:
    memo = workbench.ingest_upload(make_pdf(MEMO_PAGES), "memo.pdf", "R", embed=False)
    sheet = workbench.ingest_upload(FUNDING_CSV, "funding.csv", "R", embed=False)
    room = workbench.room("R")
    assert workbench.search("Mara Quill chief executive", "R")
    assert workbench.delete_document("R", memo.document_id) == "memo.pdf"
    assert stats(workbench.db, room.id) == recomputed(workbench.db, room.id)
    assert [d.id for d in workbench.documents("R")] == [sheet.document_id]
    assert all(hit.document_id == sheet.document_id for hit in workbench.search("Mara Quill chief executive", "R"))
    with psycopg.connect(workbench.db.conninfo) as conn:
        for table in ("pages", "document_files", "chunks"):
            assert (
                conn.execute(f"SELECT count(*) FROM {table} WHERE document_id = %s", (memo.document_id,)).fetchone()[0]
                == 0
            )
    with pytest.raises(DocumentNotFound):
        workbench.delete_document("R", memo.document_id)
    # The same file may come back.
    assert workbench.ingest_upload(make_pdf(MEMO_PAGES), "memo.pdf", "R", embed=False).status == "ready"
    assert stats(workbench.db, room.id) == recomputed(workbench.db, room.id)


def test_an_editor_cannot_delete_and_nothing_changes(workbench) -> None:
    sheet = workbench.ingest_upload(FUNDING_CSV, "funding.csv", "R", embed=False)
    room = workbench.room("R")
    before = stats(workbench.db, room.id)
    with pytest.raises(AccessDenied, match="Only an owner"):
        member(workbench, "editor").delete_document("R", sheet.document_id)
    assert stats(workbench.db, room.id) == before and [d.id for d in workbench.documents("R")] == [sheet.document_id]


def test_an_editor_retrying_a_failed_upload_replaces_the_failed_record(workbench) -> None:
    workbench.ingest_upload(FUNDING_CSV, "funding.csv", "R", embed=False)
    ed = member(workbench, "editor")
    broken = b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog"  # truncated
    first = ed.ingest_upload(broken, "broken.pdf", "R", embed=False)
    second = ed.ingest_upload(broken, "broken.pdf", "R", embed=False)
    assert first.status == second.status == "failed" and first.error == second.error
    assert "permission" not in (second.error or "").lower() and "security" not in (second.error or "").lower()
    assert second.document_id != first.document_id  # the failed record was replaced, not kept twice
    assert [d.title for d in workbench.documents("R") if d.status == "failed"] == ["broken.pdf"]


def test_a_viewer_is_told_they_cannot_edit_cells(workbench) -> None:
    workbench.ingest_upload(FUNDING_CSV, "funding.csv", "R", embed=False)
    vi = member(workbench, "viewer")
    sheet = vi.sheets("R")[0]
    grid = vi.grid(sheet.sheet_id)
    with pytest.raises(AccessDenied, match="a viewer of data room 'R'"):
        vi.edit_cell(sheet.sheet_id, int(grid.frame["row_id"].iloc[0]), 1, "5")
    assert vi.grid(sheet.sheet_id).frame.equals(grid.frame)  # nothing changed
