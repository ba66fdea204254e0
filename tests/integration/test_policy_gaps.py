"""Policy gaps closed by migration 016: no row points into another room; editors do not delete.

Foreign keys are checked without row-level security, so before 016 a member of one room could write rows
naming another room's documents and chunks (ids are sequential: easy to guess), and an editor could delete
a ready document by marking it failed first.
"""

from __future__ import annotations

import json
import re
import threading

import psycopg
import pytest

from core.errors import WorkbenchError
from tests.factories import MEMO_PAGES, make_pdf
from tests.integration.test_identity import new_user


def _ids(workbench, sql: str, *params) -> list:
    with psycopg.connect(workbench.db.conninfo) as conn:
        return [r[0] for r in conn.execute(sql, params)]


@pytest.fixture
def two_rooms(workbench):
    """Victor's room (a PDF and a sheet, not embedded) and Mallory's room, where Mallory is the owner."""
    victor, mallory = new_user(workbench.db, "Victor"), new_user(workbench.db, "Mallory")
    wv, wm = workbench.as_user(victor), workbench.as_user(mallory)
    assert wv.ingest_upload(make_pdf(MEMO_PAGES), "memo.pdf", "Victor", embed=False).status == "ready"
    assert wv.ingest_upload(b"Company,Amount\nAcme,5\nBeta,7\n", "a.csv", "Victor", embed=False).status == "ready"
    assert wm.ingest_upload(b"Company,Amount\nMal,1\n", "m.csv", "Mallory", embed=False).status == "ready"
    return wv, wm


def test_no_row_can_point_at_another_rooms_document_or_chunk(two_rooms) -> None:
    wv, wm = two_rooms
    mine = wm.room("Mallory").id
    victim_room = wv.room("Victor").id
    chunk = _ids(wv, "SELECT id FROM chunks WHERE room_id = %s ORDER BY id LIMIT 1", victim_room)[0]
    document = _ids(wv, "SELECT id FROM documents WHERE room_id = %s ORDER BY id LIMIT 1", victim_room)[0]
    sheet, row = _ids(wv, "SELECT r.sheet_id FROM sheet_rows r JOIN sheets s ON s.id = r.sheet_id JOIN documents d"
                      " ON d.id = s.document_id WHERE d.room_id = %s LIMIT 1", victim_room)[0], _ids(
        wv, "SELECT r.id FROM sheet_rows r JOIN sheets s ON s.id = r.sheet_id JOIN documents d ON d.id = s.document_id"
        " WHERE d.room_id = %s LIMIT 1", victim_room)[0]  # fmt: skip
    my_document = _ids(wm, "SELECT id FROM documents WHERE room_id = %s", mine)[0]
    plants = [
        ("INSERT INTO chunk_embeddings (chunk_id, room_id, embedding) VALUES (%(chunk)s, %(mine)s, %(vec)s)"),
        (
            "INSERT INTO chunks (room_id, document_id, chunk_index, page_number, content)"
            " VALUES (%(mine)s, %(document)s, 999, 1, 'planted')"
        ),
        (
            "INSERT INTO cell_edits (room_id, document_id, sheet_id, row_id, column_position, column_name, ref)"
            " VALUES (%(mine)s, %(document)s, %(sheet)s, %(row)s, 0, 'Company', 'A2')"
        ),
        (
            "INSERT INTO cell_edits (room_id, document_id, sheet_id, row_id, column_position, column_name, ref)"
            " VALUES (%(mine)s, %(my_document)s, %(sheet)s, %(row)s, 0, 'Company', 'A2')"
        ),
    ]
    params = {"chunk": chunk, "mine": mine, "document": document, "sheet": sheet, "row": row,
              "my_document": my_document, "vec": "[" + ",".join(["0.1"] * 384) + "]"}  # fmt: skip
    got_through = 0
    for plant in plants:
        try:
            with wm.db.connection() as conn:
                conn.execute(plant, params)
            got_through += 1
        except psycopg.Error:
            pass
    print(f"rows pointing into another room: {len(plants)} attempts, {got_through} got through")
    assert got_through == 0
    # The victim's room embeds to the end (a planted embedding used to make this loop forever).
    done: list[int] = []
    worker = threading.Thread(target=lambda: done.append(wv.embed_pending("Victor")), daemon=True)
    worker.start()
    worker.join(timeout=120)
    assert not worker.is_alive() and done and done[0] > 0
    assert wv.embed_pending("Victor") == 0


def test_editors_cannot_delete_ready_documents_or_their_content(two_rooms, workbench) -> None:
    wv, _ = two_rooms
    room = wv.room("Victor").id
    eddie = new_user(workbench.db, "Eddie")
    wv.set_member("Victor", eddie, "editor")
    we = workbench.as_user(eddie)
    attempts = [
        "UPDATE documents SET status = 'failed' WHERE room_id = %(room)s",
        "UPDATE documents SET status = 'ingesting' WHERE room_id = %(room)s",
        "DELETE FROM documents WHERE room_id = %(room)s",
        "DELETE FROM chunks WHERE room_id = %(room)s",
        "DELETE FROM pages WHERE document_id IN (SELECT id FROM documents WHERE room_id = %(room)s)",
        "DELETE FROM sheets WHERE document_id IN (SELECT id FROM documents WHERE room_id = %(room)s)",
        "DELETE FROM sheet_rows WHERE sheet_id IN (SELECT id FROM sheets)",
        "DELETE FROM sheet_columns WHERE sheet_id IN (SELECT id FROM sheets)",
        "DELETE FROM document_files WHERE document_id IN (SELECT id FROM documents WHERE room_id = %(room)s)",
    ]
    with we.db.connection() as conn:
        before = _content(conn)
    got_through = 0
    for statement in attempts:
        # Each attempt on its own: run, see what the room holds, then roll back to a savepoint.
        changed = False
        with we.db.connection() as conn:
            try:
                with conn.transaction():
                    conn.execute(statement, {"room": room})
                    conn.execute("DELETE FROM documents WHERE room_id = %(room)s AND status = 'failed'", {"room": room})
                    changed = _content(conn) != before
                    raise _Undo
            except (_Undo, psycopg.Error):
                pass
        got_through += changed
    print(f"editor deletions: {len(attempts)} attempts, {got_through} got through")
    assert got_through == 0
    # Editors still add files and retry failed uploads; the owner still deletes.
    assert we.ingest_upload(b"Company,Amount\nNew,3\n", "n.csv", "Victor", embed=False).status == "ready"
    document = _ids(wv, "SELECT id FROM documents WHERE room_id = %s AND title = 'a.csv'", room)[0]
    assert wv.delete_document("Victor", document)
    with pytest.raises(WorkbenchError):
        we.delete_document("Victor", _ids(wv, "SELECT id FROM documents WHERE title = 'n.csv'")[0])


class _Undo(Exception):
    """Rolls an attempt back."""


def _content(conn: psycopg.Connection) -> tuple:
    """What the room holds, as this connection's user sees it: documents, chunks, pages, sheets, rows, files."""
    return tuple(
        conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        for table in ("documents", "chunks", "pages", "sheets", "sheet_rows", "sheet_columns", "document_files")
    )


def test_a_row_chunk_or_a_logged_citation_cannot_name_another_rooms_row_or_document(two_rooms) -> None:
    """Migration 017: a chunk's sheet row must be of its own document, a citation's document of its question's room
    (checked by the database for every statement: the app role's writes and the owner's alike)."""
    wv, wm = two_rooms
    victim_room, mine = wv.room("Victor").id, wm.room("Mallory").id
    row = _ids(wv, "SELECT r.id FROM sheet_rows r JOIN sheets s ON s.id = r.sheet_id JOIN documents d"
               " ON d.id = s.document_id WHERE d.room_id = %s LIMIT 1", victim_room)[0]  # fmt: skip
    document = _ids(wv, "SELECT id FROM documents WHERE room_id = %s ORDER BY id LIMIT 1", victim_room)[0]
    my_document = _ids(wm, "SELECT id FROM documents WHERE room_id = %s", mine)[0]
    my_row = _ids(wm, "SELECT r.id FROM sheet_rows r JOIN sheets s ON s.id = r.sheet_id WHERE s.document_id = %s",
                  my_document)[0]  # fmt: skip
    done = next(e for e in wm.ask("What is the Amount of Mal?", "Mallory") if e.type == "done").result
    params = {"mine": mine, "my_document": my_document, "row": row, "my_row": my_row, "document": document,
              "query": done["query_id"]}  # fmt: skip
    with wm.db.connection() as conn:  # the room's own rows are written as before
        conn.execute("UPDATE chunks SET row_id = %(my_row)s WHERE row_id = %(my_row)s", params)
        conn.execute(
            "INSERT INTO qa_citations (query_id, position, kind, document_id, citation)"
            " VALUES (%(query)s, 98, 'cell', %(my_document)s, '{}')",
            params,
        )
    plants = [
        "INSERT INTO chunks (room_id, document_id, chunk_index, row_id, content)"
        " VALUES (%(mine)s, %(my_document)s, 998, %(row)s, 'planted')",
        "UPDATE chunks SET row_id = %(row)s WHERE row_id = %(my_row)s",
        "INSERT INTO qa_citations (query_id, position, kind, document_id, citation)"
        " VALUES (%(query)s, 99, 'page', %(document)s, '{}')",
        "UPDATE qa_citations SET document_id = %(document)s WHERE query_id = %(query)s",
    ]
    got_through = []
    for plant in plants:
        try:
            with wm.db.connection() as conn:
                if conn.execute(plant, params).rowcount:
                    got_through.append(plant)
        except psycopg.Error:
            pass
    print(
        f"row chunks and citations pointing into another room: {len(plants)} attempts, {len(got_through)} got through"
    )
    assert got_through == []


def _sheet_with_rows(conn: psycopg.Connection, room: int, n: int) -> tuple[int, int]:
    """A sheet document of `n` rows in `room`, written directly (the owner's login): (document id, sheet id)."""
    document = conn.execute(
        "INSERT INTO documents (room_id, kind, title, filename, checksum, size_bytes, status)"
        " VALUES (%s, 'sheet', 'rows.csv', 'rows.csv', md5(random()::text), 1, 'ready') RETURNING id",
        (room,),
    ).fetchone()[0]
    sheet = conn.execute(
        "INSERT INTO sheets (document_id, position, name, header_row, n_rows, n_cols)"
        " VALUES (%s, 0, 'rows', 1, %s, 1) RETURNING id",
        (document, n),
    ).fetchone()[0]
    conn.execute(
        "INSERT INTO sheet_rows (sheet_id, row_index, row_number, values)"
        " SELECT %s, g, g + 2, '[]'::jsonb FROM generate_series(0, %s - 1) g",
        (sheet, n),
    )
    return document, sheet


def _work(node: dict) -> float:
    """The rows a plan's nodes produced and its joins discarded, over all their loops (EXPLAIN ANALYZE)."""
    own = (node.get("Actual Rows", 0) + node.get("Rows Removed by Join Filter", 0)) * node.get("Actual Loops", 1)
    return own + sum(_work(child) for child in node.get("Plans", []))


def test_the_chunk_row_check_does_work_in_proportion_to_the_rows_whatever_the_statistics(workbench, db_url) -> None:
    """Migration 023: with sheet_rows analysed while it held pages but no live row (a large upload rolled back),
    the anti-join of 017 was planned as a nested loop over a materialised scan of every row, for every chunk:
    quadratic (a 150,000-row sheet's chunks held their transaction for minutes, the retry of a killed worker's job
    behind it). The check the trigger runs must do work in proportion to the rows."""
    room = workbench.room("Stats", create=True).id
    with psycopg.connect(db_url) as conn:
        _sheet_with_rows(conn, room, 20_000)
        conn.rollback()
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute("ANALYZE sheet_rows")
        reltuples, relpages = conn.execute(
            "SELECT reltuples, relpages FROM pg_class WHERE relname = 'sheet_rows'"
        ).fetchone()
        assert reltuples == 0 and relpages > 0
    n = 10_000
    with psycopg.connect(db_url) as conn:
        source = conn.execute("SELECT prosrc FROM pg_proc WHERE proname = 'workbench_check_chunk_rows'").fetchone()[0]
        check = re.search(r"\bIF (EXISTS .*?) THEN", source, re.S)
        assert check, source
        document, sheet = _sheet_with_rows(conn, room, n)
        # The statement's new rows as the trigger's transition table holds them (its size known to the planner).
        conn.execute(
            "CREATE TEMP TABLE new_chunks ON COMMIT DROP AS SELECT %s::bigint AS room_id, %s::bigint AS document_id,"
            " id AS row_id FROM sheet_rows WHERE sheet_id = %s",
            (room, document, sheet),
        )
        conn.execute("ANALYZE new_chunks")
        plan = conn.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) SELECT {check.group(1)}").fetchone()[0][0]["Plan"]
        conn.rollback()
    assert _work(plan) < 20 * n, json.dumps(plan, indent=1)
