"""An operation with its columns resolved and its filters applied, shared by the ways of running it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from core.cells import Column
from core.retrieval.tables.frame import SheetFrame
from core.retrieval.tables.model import Filter, TableOp

# Filter (and group) columns' cells are cited too when this few rows contribute: enough to check by eye.
FILTER_CELLS_MAX_ROWS = 20
# A row listing returns at most this many rows (the description says how many matched).
MAX_LISTED_ROWS = 1000


# Groups, rows or distinct values named in a description before "… and N more".
_DESCRIBED = 10


@dataclass
class _Ctx:
    """An operation with its columns resolved and its filters applied."""

    sheet: SheetFrame
    op: TableOp
    filters: list[tuple[Filter, Column]]
    rows: np.ndarray  # positions of the matching rows, in sheet order
    where: str

    @property
    def filter_columns(self) -> list[Column]:
        return [col for _, col in self.filters]

    def key_column(self, select: Sequence[Column] = ()) -> Column:
        """What a lookup answers with: the first text column (of `select` if given), else its first column."""
        pool = list(select) or list(self.sheet.columns)
        return next((c for c in pool if c.dtype == "text"), pool[0])


def _top_positions(key: np.ndarray, descending: bool, limit: int | None, drop_missing: bool) -> np.ndarray:
    """Indices of `key` ordered (stable, NaN last), cut to `limit` keeping ties at the boundary."""
    index = np.arange(len(key))
    if drop_missing:
        index = index[~np.isnan(key)]
    sort_key = -key[index] if descending else key[index]
    ordered = index[np.argsort(sort_key, kind="stable")]
    if limit is not None and len(ordered) > limit:
        boundary = key[ordered[limit - 1]]
        extra = ordered[limit:]
        ties = extra[key[extra] == boundary] if not np.isnan(boundary) else extra[:0]
        # Ties are adjacent after a stable sort, so the kept rows stay in order.
        ordered = np.concatenate([ordered[:limit], ties])
    return ordered
