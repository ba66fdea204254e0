"""Loading a sheet from Postgres, once per process and version: an LRU cache of SheetFrames."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import Any

from core.cells import Column, gc_paused
from core.db import Database, q
from core.errors import SheetNotFound
from core.events import on_sheet_edited
from core.retrieval.tables.frame import SheetFrame
from core.sheetmodel import TableModel, corrected

# Loaded sheets kept per process: a 100,000 x 20 sheet holds ~2M Python strings, so keep few.
CACHE_SIZE = 4


_CACHE: OrderedDict[tuple[str, int], tuple[tuple[Any, ...], SheetFrame]] = OrderedDict()
_CACHE_LOCK = threading.Lock()
_LOAD_LOCKS: dict[tuple[str, int], threading.Lock] = {}
_CACHE_STATS = {"hits": 0, "misses": 0}


def sheet_cache_info() -> dict[str, int]:
    """Hits, misses and size of the per-process sheet cache."""
    with _CACHE_LOCK:
        return {**_CACHE_STATS, "size": len(_CACHE)}


def clear_sheet_cache() -> None:
    """Forget every loaded sheet."""
    with _CACHE_LOCK:
        _CACHE.clear()
        _CACHE_STATS.update(hits=0, misses=0)


@on_sheet_edited
def invalidate_sheet(db: Database, sheet_id: int) -> None:
    """Forget this process's copy of one sheet (after an edit; other processes see sheets.version change)."""
    with _CACHE_LOCK:
        _CACHE.pop((db.conninfo, sheet_id), None)


def _cached(key: tuple[str, int], version: tuple[Any, ...]) -> SheetFrame | None:
    with _CACHE_LOCK:
        entry = _CACHE.get(key)
        if entry is None or entry[0] != version:
            return None
        _CACHE.move_to_end(key)
        _CACHE_STATS["hits"] += 1
        return entry[1]


def load_sheet(db: Database, sheet_id: int) -> SheetFrame:
    """The stored sheet `sheet_id`, loaded once per process and version (SheetNotFound if absent)."""
    with db.connection() as conn, conn.cursor() as cur:
        meta = cur.execute(q("sheet_meta"), {"sheet_id": sheet_id}).fetchone()
    if meta is None:
        raise SheetNotFound(f"No sheet with id {sheet_id}: its document may have been deleted. Re-run the search.")
    document_id, name, n_rows, n_cols, title, created_at, edits, page, caption, stored_model, corrections, tab = meta
    # The server too: every test database numbers its sheets from 1.
    key = (db.conninfo, sheet_id)
    version = (document_id, name, n_rows, n_cols, title, created_at, edits, page, caption)
    found = _cached(key, version)
    if found is not None:
        return found
    with _CACHE_LOCK:
        lock = _LOAD_LOCKS.setdefault(key, threading.Lock())
    with lock:  # two threads asking for the same cold sheet load it once
        found = _cached(key, version)
        if found is not None:
            return found
        with gc_paused():
            with db.connection() as conn, conn.cursor() as cur:
                col_rows = cur.execute(q("sheet_columns"), {"sheet_ids": [sheet_id]}).fetchall()
                stored = cur.execute(q("sheet_frame_rows"), {"sheet_id": sheet_id}).fetchall()
            # sheet_columns rows: (sheet_id, position, name, letter, dtype)
            columns = tuple(Column(position=r[1], name=r[2], letter=r[3], dtype=r[4]) for r in col_rows)
            ids = [r[0] for r in stored]
            numbers = [r[1] for r in stored]
            values = json.loads("[" + ",".join(r[2] for r in stored) + "]")
            del stored
            frame = SheetFrame.from_rows(
                columns, values, row_numbers=numbers, row_ids=ids,
                sheet=name, sheet_id=sheet_id, document_id=document_id, title=title, page=page,
                caption=caption, model=corrected(TableModel.from_json(stored_model), corrections or {})
                if stored_model else None, tab=tab,
            )  # fmt: skip
        with _CACHE_LOCK:
            _CACHE_STATS["misses"] += 1
            _CACHE[key] = (version, frame)
            _CACHE.move_to_end(key)
            while len(_CACHE) > CACHE_SIZE:
                evicted, _ = _CACHE.popitem(last=False)
                _LOAD_LOCKS.pop(evicted, None)
    return frame
