"""Rooms and documents: reads and writes that are not ingestion or search."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import psycopg
from psycopg.rows import dict_row
from pydantic import BaseModel, ConfigDict

from core.db import Database, q
from core.errors import AccessDenied, DocumentNotFound, EmbeddingMismatch, RoomNotFound
from core.models import Filing, Room


class RoomRef(BaseModel):
    """A room's identity and the embedding model its vectors were made with."""

    id: int
    name: str
    embedding_model: str | None = None


class DocumentInfo(Filing):
    """A row of a room's document list, with what the document is (a PDF's company, form and period)."""

    model_config = ConfigDict(frozen=False)

    id: int
    kind: str | None
    title: str
    filename: str
    status: str
    error: str | None
    page_count: int | None
    n_rows: int | None
    n_chunks: int
    size_bytes: int
    embedded: bool
    created_at: datetime
    embedded_chunks: int = 0


def get_room(db: Database, name: str) -> RoomRef:
    """The room called `name`; RoomNotFound names the rooms that exist."""
    with db.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
        row = cur.execute(q("get_room"), {"name": name}).fetchone()
    if row is None:
        names = ", ".join(room.name for room in list_rooms(db)) or "none yet"
        raise RoomNotFound(
            f"No data room named {name!r} (rooms: {names}). Create it by ingesting a file: "
            f"workbench ingest FILE --room {name!r}"
        )
    return RoomRef(**row)


def ensure_room(db: Database, name: str) -> RoomRef:
    """The room called `name`, created (and owned by the current user) if it does not exist."""
    name = name.strip()
    with db.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
        row = cur.execute(q("get_room"), {"name": name}).fetchone()
        if row is None:
            try:
                with conn.transaction():
                    cur.execute(q("create_room"), {"name": name})
            except psycopg.errors.UniqueViolation:
                pass  # created meanwhile by another process of this user (names are unique per owner)
            row = cur.execute(q("get_room"), {"name": name}).fetchone()
        if row is None:
            raise RoomNotFound(f"The data room {name!r} could not be created: sign in again and retry.")
    return RoomRef(**row)


def list_rooms(db: Database) -> list[Room]:
    """Every room with its document and chunk counts."""
    with db.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
        return [Room(**row) for row in cur.execute(q("list_rooms")).fetchall()]


def list_documents(db: Database, room_id: int) -> list[DocumentInfo]:
    """The room's documents, oldest first, failed ones included."""
    with db.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
        rows = cur.execute(q("list_documents"), {"room_id": room_id}).fetchall()
    return [DocumentInfo(**row) for row in rows]


def write_filing(cur: psycopg.Cursor[Any], room_id: int, document_id: int, filing: Filing) -> bool:
    """Store what a document is (its company, form and period); False when the room holds no such document."""
    params = filing.model_dump(exclude={"period"}) | {"room_id": room_id, "document_id": document_id}
    return cur.execute(q("set_document_filing"), params).fetchone() is not None


def set_filing(db: Database, room_id: int, document_id: int, filing: Filing) -> None:
    """Correct what a document is (editors and owners; row-level security refuses viewers);
    DocumentNotFound when the room holds no such document."""
    with db.connection() as conn, conn.cursor() as cur:
        if not write_filing(cur, room_id, document_id, filing):
            raise DocumentNotFound(
                f"This room has no document {document_id}: list them with `workbench documents --room NAME`."
            )


def check_embedding_model(room: RoomRef, model: str) -> None:
    """Refuse to mix embedding models in one room."""
    if room.embedding_model and room.embedding_model != model:
        raise EmbeddingMismatch(
            f"Room {room.name!r} was indexed with {room.embedding_model}, but {model} is configured. "
            f"Set WORKBENCH_EMBEDDINGS to the room's provider, or ingest into a new room."
        )


def claim_embedding_model(db: Database, room: RoomRef, model: str) -> RoomRef:
    """Record `model` as the room's embedding model if it has none; refuse a different one."""
    with db.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
        cur.execute(q("claim_embedding_model"), {"room_id": room.id, "model": model})
        row: dict[str, Any] | None = cur.execute(q("get_room"), {"name": room.name}).fetchone()
    assert row is not None
    current = RoomRef(**row)
    check_embedding_model(current, model)
    return current


def delete_document(db: Database, room_id: int, document_id: int) -> str:
    """Delete a document with everything made from it (owners only); returns its title.

    One transaction: the room's keyword statistics (term_stats, rooms.n_chunks) lose the document's
    chunks, then the document goes and its pages, sheets, rows, chunks and vectors go with it.
    """
    with db.connection() as conn:
        if conn.execute(q("document_in_room"), {"document_id": document_id, "room_id": room_id}).fetchone() is None:
            raise DocumentNotFound(f"There is no document {document_id} in this room.")
        role = conn.execute(q("my_role"), {"room_id": room_id}).fetchone()
        if role is None or role[0] != "owner":
            raise AccessDenied("Only an owner of this room can delete its documents.")
        conn.execute(q("remove_term_stats"), {"room_id": room_id, "document_id": document_id})
        row = conn.execute(q("delete_room_document"), {"room_id": room_id, "document_id": document_id}).fetchone()
        if row is None:
            raise AccessDenied("Only an owner of this room can delete its documents.")
    return str(row[0])
