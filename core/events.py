"""Process-local notices from a lower layer to the layers above it that keep caches.

Ingestion announces that a sheet's cells changed; whoever holds a copy of something read from it (the table
cache in core.retrieval.tables, the room schema in core.qa.planner) registers a listener when it is imported.
So the layer that writes never imports the layers that read (other processes see the sheet's bumped version).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.db import Database

SheetListener = Callable[["Database", int], None]
_SHEET_EDITED: list[SheetListener] = []


def on_sheet_edited(listener: SheetListener) -> SheetListener:
    """Call `listener(db, sheet_id)` after each edit of a sheet in this process (usable as a decorator)."""
    if listener not in _SHEET_EDITED:
        _SHEET_EDITED.append(listener)
    return listener


def sheet_edited(db: Database, sheet_id: int) -> None:
    """Tell every listener that the sheet's cells changed."""
    for listener in _SHEET_EDITED:
        listener(db, sheet_id)
