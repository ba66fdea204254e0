"""The workbench facade: one object the CLI, the pages and the tests call."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from core.config import Settings, get_settings
from core.db import Database, q
from core.ingest.pipeline import Progress, embed_pending, ingest_bytes, ingest_path
from core.models import IngestResult, Room, SearchHit
from core.providers.embeddings import Embedder, get_embedder
from core.retrieval.search import search
from core.rooms.access import require_writer
from core.rooms.store import DocumentInfo, RoomRef, ensure_room, get_room, list_documents, list_rooms

if TYPE_CHECKING:
    from core.ingest.edits import CellEdit, Grid, SheetInfo

DEMO_DIR = Path(__file__).resolve().parent.parent / "data" / "demo"
SUPPORTED_SUFFIXES = {".pdf", ".csv", ".tsv", ".xlsx", ".xlsm"}


def _quiet(stage: str, done: int, total: int) -> None:
    return None


def expand_paths(paths: Iterable[Path]) -> list[Path]:
    """Files as given, folders replaced by the supported files inside them (sorted)."""
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            out.extend(sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in SUPPORTED_SUFFIXES))
        else:
            out.append(path)
    return out


class Workbench:
    """Settings, the database and the embedder, loaded once per process."""

    def __init__(self, settings: Settings | None = None, db: Database | None = None) -> None:
        self.settings = settings or get_settings()
        self.db = db or Database.from_settings(self.settings)

    def as_user(self, user_id: str) -> Workbench:
        """This workbench (same pool, same loaded model) acting for `user_id` (row-level security applies)."""
        view = copy.copy(self)
        view.db = self.db.as_user(user_id)
        return view

    @cached_property
    def embedder(self) -> Embedder:
        """The configured embedding provider (the local model loads on first use)."""
        return get_embedder(self.settings)

    def room(self, name: str, *, create: bool = False) -> RoomRef:
        """The named room (created when `create`)."""
        return ensure_room(self.db, name) if create else get_room(self.db, name)

    def rooms(self) -> list[Room]:
        """Every room with its counts."""
        return list_rooms(self.db)

    def documents(self, room: str) -> list[DocumentInfo]:
        """A room's documents."""
        return list_documents(self.db, self.room(room).id)

    def ingest(
        self, paths: Iterable[Path], room: str, *, embed: bool = True, progress: Progress = _quiet
    ) -> Iterator[IngestResult]:
        """Ingest files into a room (created if needed), one result per file, failures included."""
        ref = self.room(room, create=True)
        require_writer(self.db, ref.id, ref.name)
        embedder = self.embedder if embed else None
        for path in expand_paths(paths):
            yield ingest_path(self.db, ref, path, self.settings, embedder=embedder, progress=progress)

    def ingest_upload(
        self, data: bytes, filename: str, room: str, *, embed: bool = True, progress: Progress = _quiet
    ) -> IngestResult:
        """Ingest one uploaded file's bytes."""
        ref = self.room(room, create=True)
        require_writer(self.db, ref.id, ref.name)
        embedder = self.embedder if embed else None
        return ingest_bytes(self.db, ref, data, filename, self.settings, embedder=embedder, progress=progress)

    def delete_document(self, room: str, document_id: int) -> str:
        """Delete a document of the room and everything made from it (owners only); returns its title."""
        from core.rooms.store import delete_document

        return delete_document(self.db, self.room(room).id, document_id)

    def embed_pending(self, room: str, *, progress: Progress = _quiet) -> int:
        """Embed whatever the room has not embedded yet."""
        ref = self.room(room)
        require_writer(self.db, ref.id, ref.name)
        return embed_pending(self.db, ref, self.embedder, progress=progress)

    def search(self, query: str, room: str, *, k: int = 10, mmr: bool = False) -> list[SearchHit]:
        """Hybrid search in a room."""
        ref = self.room(room)
        # A room with no vectors yet is searched by keywords alone: no need to load a model for it.
        embedder = self.embedder if ref.embedding_model else None
        return search(self.db, ref, query, k=k, embedder=embedder, mmr=mmr)

    def ensure_demo(self, *, embed: bool = True) -> list[IngestResult]:
        """Load the bundled demo data room (a no-op for files already there)."""
        files = sorted(p for p in DEMO_DIR.iterdir() if p.suffix.lower() in SUPPORTED_SUFFIXES)
        return list(self.ingest(files, self.settings.demo_room, embed=embed))

    # -- sheets: the grid, cell edits, stale answers (core.ingest.edits; imported here to keep this file's head as it is)

    def sheets(self, room: str) -> list[SheetInfo]:
        """The room's sheets, for a picker (one entry per workbook tab)."""
        from core.ingest.edits import room_sheets

        return room_sheets(self.db, self.room(room).id)

    def grid(self, sheet_id: int, *, offset: int = 0, limit: int | None = None, find: str | None = None) -> Grid:
        """A window of a sheet's rows (all when limit is None; only rows holding `find` when given) for the grid."""
        from core.ingest.edits import load_grid

        return load_grid(self.db, sheet_id, offset=offset, limit=limit, find=find)

    def row_position(self, sheet_id: int, row_id: int) -> int | None:
        """The 0-based position of a row in its sheet (None when it is not there)."""
        from core.ingest.edits import row_position

        return row_position(self.db, sheet_id, row_id)

    def document_room(self, document_id: int) -> str | None:
        """The name of the room holding a document (a link may point into another room)."""
        from core.ingest.edits import document_room

        return document_room(self.db, document_id)

    def edit_cell(
        self,
        sheet_id: int,
        row_id: int,
        column: str | int,
        value: str | None,
        *,
        user_id: str | None = None,
        embed: bool = True,
    ) -> CellEdit:
        """Edit one cell; then embed its row again when the room has vectors (keyword search is current at once)."""
        import logging

        from core.errors import WorkbenchError
        from core.ingest.edits import edit_cell, reembed_row

        with self.db.connection() as conn:
            found = conn.execute(q("sheet_room"), {"sheet_id": sheet_id}).fetchone()
        if found is not None:  # (an unknown sheet is edit_cell's to report)
            require_writer(self.db, found[0], found[1])  # a viewer is told so, before anything is tried
        # The edit is the current user's unless the caller says whose (the audit row names them).
        edit = edit_cell(self.db, sheet_id, row_id, column, value, user_id if user_id is not None else self.db.user_id)
        if edit.changed and embed:
            room = next((r for r in self.rooms() if r.id == edit.room_id), None)
            if room is not None and room.embedding_model:
                ref = RoomRef(id=room.id, name=room.name, embedding_model=room.embedding_model)
                try:
                    reembed_row(self.db, ref, self.embedder, row_id)
                except WorkbenchError as exc:  # the row stays keyword-searchable; `workbench embed` finishes it
                    logging.getLogger(__name__).warning("re-embedding row %s: %s", row_id, exc)
        return edit

    def stale_citations(self, conversation_id: int) -> dict[int, list[str]]:
        """Assistant message id -> refs of its cited cells edited since it was written."""
        from core.ingest.edits import stale_citations

        return stale_citations(self.db, conversation_id)
