"""Editing stored sheets: the grid a page shows, one-cell edits written back and re-indexed, stale answers.

An edit is one transaction: the cell's text in ``sheet_rows.values``, an audit row in ``cell_edits``,
the row's search chunk rebuilt (its vector dropped so it is embedded again, ``term_stats`` moved by the
lexemes that changed) and the sheet's ``version`` bumped so every process's table cache reloads it.
Answers that cited a cell edited after they were written are "stale" (``stale_citations``).
"""

from __future__ import annotations

import datetime
import json
import logging
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

import pandas as pd
import psycopg
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from core.cells import Column, cell_ref, gc_paused, parse_date, parse_number
from core.db import Database, q
from core.errors import CellNotFound, EditError, InvalidValue, ReadOnlyTable
from core.events import sheet_edited
from core.ingest.pipeline import row_text
from core.providers.embeddings import Embedder
from core.rooms.store import RoomRef
from core.sheetmodel import ROLES, SCALES, Fact, TableModel, corrected, facts, rederive

log = logging.getLogger(__name__)

__all__ = [
    "CellEdit",
    "CellNotFound",
    "EditError",
    "Grid",
    "InvalidValue",
    "SheetInfo",
    "check_value",
    "document_room",
    "edit_cell",
    "field_of",
    "load_grid",
    "reembed_row",
    "room_sheets",
    "row_position",
    "stale_citations",
]

# Excel's own limit for the text of one cell.
MAX_CELL_CHARS = 32_767


@dataclass(frozen=True)
class SheetInfo:
    """One sheet of a room, for a picker."""

    sheet_id: int
    document_id: int
    title: str  # the document's title (file name)
    name: str  # the sheet's name (a CSV's file stem, an XLSX tab)
    position: int  # 0-based tab position in its workbook
    n_sheets: int  # sheets in the same document
    n_rows: int
    n_cols: int
    sheet_title: str | None = None  # title/note lines above the header ("Fatal accidents by year")
    # Formula cells Excel never calculated, as (A1 ref, formula): their cells are stored empty.
    uncalculated: tuple[tuple[str, str], ...] = ()
    page: int | None = None  # a table read from a PDF: its page (read-only: the PDF is the source)
    # How the table was read (core.sheetmodel), with an editor's corrections laid over it; None for a sheet stored
    # before models were.
    model: TableModel | None = None
    tab: str | None = None  # the workbook tab it stands on, when the tab holds several tables (cells cite it)

    @property
    def ref_tab(self) -> str:
        """The tab its cells' addresses name ("Dashboard" of "Dashboard › Channel mix")."""
        return self.tab or self.name

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> SheetInfo:
        """A SheetInfo from a `room_sheets` / `sheet_info` row."""
        listed = tuple((f["ref"], f["formula"]) for f in row.get("uncalculated") or ())
        stored, corrections = row.get("model"), row.get("corrections") or {}
        model = corrected(TableModel.from_json(stored), corrections) if stored else None
        fields = {k: v for k, v in row.items() if k != "corrections"}
        return cls(**{**fields, "uncalculated": listed, "model": model})

    @property
    def label(self) -> str:
        """`funding_rounds.xlsx · Funding` for a workbook tab, the file name for a single sheet."""
        return f"{self.title} · {self.name}" if self.n_sheets > 1 or self.page is not None else self.title


@dataclass(frozen=True)
class Grid:
    """A window of a sheet's rows for the grid: field `c<position>` per column, plus row_id and row_number."""

    sheet: SheetInfo
    columns: tuple[Column, ...]
    frame: pd.DataFrame  # columns: row_id, row_number, c0, c1, ... (cell texts as stored, None if empty)
    offset: int  # position of the first row in frame among the rows shown (all, or those found)
    n_rows: int  # rows in the whole sheet
    n_matching: int  # rows holding `find` (n_rows when nothing is looked for)
    find: str | None = None


@dataclass(frozen=True)
class CellEdit:
    """One edit as recorded (changed False: the new text was the old one, nothing was written)."""

    changed: bool
    room_id: int
    document_id: int
    sheet_id: int
    row_id: int
    column_position: int
    column: str
    ref: str  # Funding!E12
    old: str | None
    new: str | None
    user_id: str | None = None
    id: int | None = None
    edited_at: datetime.datetime | None = None


def field_of(column: Column) -> str:
    """The grid field of a column: `c<position>` (sheet names may hold dots, which AG Grid reads as paths)."""
    return f"c{column.position}"


# ---------------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------------


def room_sheets(db: Database, room_id: int) -> list[SheetInfo]:
    """The room's sheets (ready documents), in upload order and tab order."""
    with db.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
        rows = cur.execute(q("room_sheets"), {"room_id": room_id}).fetchall()
    return [SheetInfo.from_row(row) for row in rows]


def _sheet_info(cur: psycopg.Cursor[Any], sheet_id: int) -> SheetInfo:
    row = cur.execute(q("sheet_info"), {"sheet_id": sheet_id}).fetchone()
    if row is None:
        raise CellNotFound(f"No sheet with id {sheet_id}: its document may have been deleted. Pick another sheet.")
    return SheetInfo.from_row(row)


def load_grid(
    db: Database,
    sheet_id: int,
    *,
    offset: int = 0,
    limit: int | None = None,
    find: str | None = None,
    rows: Collection[int] | None = None,
) -> Grid:
    """Rows `offset`..`offset+limit` of a sheet (all when limit is None) with their ids and original row numbers.

    With `find`, only the rows with a cell containing that text (case-insensitive) count, across the whole sheet.
    With `rows` (sheet_rows ids), those rows alone, in sheet order, fetched by id: the rows an answer cites,
    without reading the rest of the sheet.
    """
    offset = max(offset, 0)
    find = (find or "").strip() or None
    with gc_paused(), db.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
        sheet = _sheet_info(cur, sheet_id)
        columns = tuple(
            Column(position=r["position"], name=r["name"], letter=r["letter"], dtype=r["dtype"])
            for r in cur.execute(q("sheet_columns"), {"sheet_ids": [sheet_id]})
        )
        with conn.cursor() as raw:
            if rows is not None:
                ids = sorted({int(i) for i in rows})
                stored = raw.execute(q("grid_rows_by_id"), {"sheet_id": sheet_id, "row_ids": ids}).fetchall()
                n_matching, offset, find = len(stored), 0, None
            elif find is None:
                stored = raw.execute(
                    q("grid_rows"),
                    {"sheet_id": sheet_id, "start": offset, "stop": None if limit is None else offset + limit},
                ).fetchall()
                n_matching = sheet.n_rows
            else:
                stored = raw.execute(
                    q("grid_find"), {"sheet_id": sheet_id, "text": find, "start": offset, "limit": limit}
                ).fetchall()
                n_matching = int(stored[0][3]) if stored else 0
        # jsonb as text and one json.loads: far faster than psycopg loading 100k jsonb values.
        values = json.loads("[" + ",".join(r[2] for r in stored) + "]")
    width = len(columns)
    data: dict[str, list] = {"row_id": [r[0] for r in stored], "row_number": [r[1] for r in stored]}
    by_column = list(zip(*[(v + [None] * width)[:width] for v in values], strict=True)) if values else [()] * width
    for column, texts in zip(columns, by_column, strict=True):
        data[field_of(column)] = list(texts)
    frame = pd.DataFrame(data)
    for column in columns:  # keep None as None (pandas 3 would make text a string dtype with NaN)
        frame[field_of(column)] = frame[field_of(column)].astype(object)
    return Grid(
        sheet=sheet, columns=columns, frame=frame, offset=offset, n_rows=sheet.n_rows, n_matching=n_matching, find=find
    )


def document_room(db: Database, document_id: int) -> str | None:
    """The name of the room holding a document (None when there is no such document)."""
    with db.connection() as conn:
        row = conn.execute(q("document_room"), {"document_id": document_id}).fetchone()
    return row[0] if row else None


def row_position(db: Database, sheet_id: int, row_id: int) -> int | None:
    """The 0-based row_index of a row in its sheet (None when the row is not in that sheet)."""
    with db.connection() as conn:
        row = conn.execute(q("row_position"), {"sheet_id": sheet_id, "row_id": row_id}).fetchone()
    return int(row[0]) if row else None


# ---------------------------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------------------------

_EXAMPLES = {
    "currency": ("an amount", "12000000, 12,000,000, $12.0M or (1,500)"),
    "percent": ("a percentage", "15%, 12.5% or 15"),
    "number": ("a number", "1234.5, 1,234, -7 or 1.2M"),
    "date": ("a date", "2021-03-05, 3/5/2021 or 5 Mar 2021"),
}


def check_value(column: Column, address: str, text: str | None) -> str | None:
    """The text to store for `text` typed into `column` (None: empty the cell); InvalidValue when it does not fit.

    Surrounding spaces are trimmed and an empty text empties the cell.  Number, currency and percent
    columns take any number the table math reads (`$12.0M`, `(1,500)`, `15%`), date columns any date
    it reads, text columns anything up to Excel's 32,767 characters.  The text is kept as typed, so
    the cell shows what the analyst wrote and the math reads the same value.
    """
    if text is None:
        return None
    value = str(text).replace("\x00", "").strip()
    if not value:
        return None
    if len(value) > MAX_CELL_CHARS:
        raise InvalidValue(f"{address}: {len(value):,} characters is over the {MAX_CELL_CHARS:,} a cell can hold.")
    if column.dtype == "text":
        return value
    kind, examples = _EXAMPLES[column.dtype]
    ok = parse_date(value) is not None if column.dtype == "date" else parse_number(value) is not None
    if not ok:
        shown = value if len(value) <= 40 else value[:37] + "…"
        raise InvalidValue(
            f"{address} is {'an' if column.dtype[0] in 'aeiou' else 'a'} {column.dtype} column "
            f"({column.name}): {shown!r} is not {kind}. Type {examples}, or clear the cell."
        )
    return value


# ---------------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------------


def _resolve(columns: list[Column], column: str | int, sheet: str) -> Column:
    if isinstance(column, int):
        for col in columns:
            if col.position == column:
                return col
    else:
        for col in columns:
            if col.name == column:
                return col
        for col in columns:
            if col.name.casefold() == column.strip().casefold() or col.letter == column.strip().upper():
                return col
    listed = ", ".join(f"{c.letter} · {c.name}" for c in columns)
    raise CellNotFound(f"No column {column!r} in sheet {sheet!r}. Its columns are: {listed}.")


def _lexemes(cur: psycopg.Cursor[Any], chunk_id: int) -> set[str]:
    return {r["lexeme"] for r in cur.execute(q("chunk_lexemes"), {"chunk_id": chunk_id})}


def edit_cell(
    db: Database,
    sheet_id: int,
    row_id: int,
    column: str | int,
    new_value: str | None,
    user_id: str | None = None,
) -> CellEdit:
    """Set one cell (column by name or 0-based position) and re-index its row, in one transaction.

    Raises CellNotFound for a row or column not in the sheet and InvalidValue for text that does not
    fit the column; nothing is written then.  An unchanged value writes nothing (changed=False).
    """
    with db.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
        row = cur.execute(q("lock_sheet_row"), {"row_id": row_id}).fetchone()
        if row is None or row["sheet_id"] != sheet_id:
            sheet = _sheet_info(cur, sheet_id)
            raise CellNotFound(
                f"Row id {row_id} is not in sheet {sheet.name!r} (it may have been deleted). Reload the sheet and try again."
            )
        if row["page_number"] is not None:
            raise ReadOnlyTable(
                f"{row['sheet_name']!r} was read from page {row['page_number']} of its PDF and cannot be edited here. "
                "Correct the PDF and upload it again."
            )
        columns = [
            Column(position=r["position"], name=r["name"], letter=r["letter"], dtype=r["dtype"])
            for r in cur.execute(q("sheet_columns"), {"sheet_ids": [sheet_id]})
        ]
        col = _resolve(columns, column, row["sheet_name"])
        ref = cell_ref(row["tab"], col.letter, row["row_number"])
        address = f"{col.letter}{row['row_number']}"
        new = check_value(col, address, new_value)
        values: list[str | None] = list(row["values"]) + [None] * (len(columns) - len(row["values"]))
        old = values[col.position]
        base = {
            "room_id": row["room_id"], "document_id": row["document_id"], "sheet_id": sheet_id, "row_id": row_id,
            "column_position": col.position, "column": col.name, "ref": ref, "old": old, "user_id": user_id,
        }  # fmt: skip
        if new == old:
            return CellEdit(changed=False, new=new, **base)
        values[col.position] = new
        cur.execute(q("update_sheet_row"), {"row_id": row_id, "values": json.dumps(values, ensure_ascii=False)})
        audit = {**base, "column_name": col.name, "old_value": old, "new_value": new}
        recorded = cur.execute(q("insert_cell_edit"), audit).fetchone()
        assert recorded is not None
        _reindex_row(cur, row["room_id"], row_id, row_text(columns, values))
        cur.execute(q("bump_sheet_version"), {"sheet_id": sheet_id, "document_id": row["document_id"]})
        _rederive_model(cur, sheet_id, [c.letter for c in columns])
    sheet_edited(db, sheet_id)
    return CellEdit(changed=True, new=new, id=recorded["id"], edited_at=recorded["edited_at"], **base)


def _rederive_model(cur: psycopg.Cursor[Any], sheet_id: int, letters: list[str]) -> None:
    """Read the sheet's rows again into its model after an edit (a total edited out of balance is no longer checked;
    a heading given figures is a line)."""
    found = cur.execute(q("sheet_model"), {"sheet_id": sheet_id}).fetchone()
    if found is None or not found["model"]:
        return
    model = TableModel.from_json(found["model"])
    if not model.rows:
        return
    stored = [(r["row_number"], r["values"]) for r in cur.execute(q("sheet_model_rows"), {"sheet_id": sheet_id})]
    fresh = rederive(model, stored, letters)
    cur.execute(q("update_sheet_model"), {"sheet_id": sheet_id, "model": Jsonb(fresh.to_json())})


def sheet_facts(db: Database, sheet_id: int) -> list[Fact]:
    """Each figure cell of a sheet as its model reads it: row path, column path, period, unit, role and address."""
    with db.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
        info = _sheet_info(cur, sheet_id)
        if info.model is None:
            return []
        letters = [r["letter"] for r in cur.execute(q("sheet_columns"), {"sheet_ids": [sheet_id]})]
        stored = [(r["row_number"], r["values"]) for r in cur.execute(q("sheet_model_rows"), {"sheet_id": sheet_id})]
    return list(facts(info.model, info.ref_tab, stored, letters))


def correct_model(
    db: Database,
    sheet_id: int,
    *,
    scale: str | None = None,
    fiscal_start: int | None = None,
    roles: dict[int, str] | None = None,
) -> SheetInfo:
    """Store an editor's correction of how a sheet was read: its scale ("units", "thousands", "millions",
    "billions"), its fiscal year's first month (1-12), rows' roles (A1 row -> data, heading, subtotal, total or
    note; "" takes a correction back).  Every later answer reads the corrected model.  Raises InvalidValue for a
    value it cannot take, saying which are allowed; nothing is written then."""
    if scale is not None and scale not in (*SCALES, ""):
        raise InvalidValue(f"Unknown scale {scale!r}: give one of {', '.join(SCALES)} (or '' to take it back).")
    if fiscal_start is not None and not 0 <= fiscal_start <= 12:
        raise InvalidValue(f"The fiscal year's first month is 1-12 (7 for July), not {fiscal_start} (0 takes it back).")
    for number, role in (roles or {}).items():
        if role not in (*ROLES, ""):
            raise InvalidValue(f"Row {number}: unknown role {role!r}; give one of {', '.join(ROLES)}.")
    with db.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
        found = cur.execute(q("sheet_model"), {"sheet_id": sheet_id}).fetchone()
        if found is None or not found["model"]:
            raise CellNotFound(f"No sheet with id {sheet_id} holds a model: it may have been deleted, or stored before "
                               "sheets were modelled (upload it again).")  # fmt: skip
        model = TableModel.from_json(found["model"])
        corrections = dict(found["model_corrections"] or {})
        if scale is not None:
            corrections["scale"] = scale or None
        if fiscal_start is not None:
            corrections["fiscal_start"] = fiscal_start or None
        kept = dict(corrections.get("roles") or {})
        for number, role in (roles or {}).items():
            if model.row(number) is None:
                raise CellNotFound(
                    f"Row {number} is not a row of the table; its rows are {model.rows[0].row_number}–"
                    f"{model.rows[-1].row_number}." if model.rows else
                    "This sheet is a long list of records: its rows have no roles to correct."
                )  # fmt: skip
            if role:
                kept[str(number)] = role
            else:
                kept.pop(str(number), None)
        corrections["roles"] = kept
        corrections = {k: v for k, v in corrections.items() if v}
        cur.execute(q("correct_sheet_model"), {"sheet_id": sheet_id, "corrections": Jsonb(corrections)})
        info = _sheet_info(cur, sheet_id)
    sheet_edited(db, sheet_id)
    return info


def _reindex_row(cur: psycopg.Cursor[Any], room_id: int, row_id: int, text: str) -> None:
    """Rewrite a row's chunk text; keep term_stats equal to a recount; drop its vector so it is embedded again."""
    chunk = cur.execute(q("row_chunk"), {"row_id": row_id}).fetchone()
    if chunk is None:  # every stored row has a chunk (core.ingest.pipeline); a missing one is a bug, not a user error
        raise RuntimeError(f"sheet row {row_id} has no search chunk")
    chunk_id = chunk["id"]
    before = _lexemes(cur, chunk_id)
    cur.execute(q("update_chunk_content"), {"chunk_id": chunk_id, "content": text})
    after = _lexemes(cur, chunk_id)
    # A chunk counts once per lexeme: only lexemes that appeared or vanished move a document frequency.
    # Sorted, so concurrent writers lock term_stats rows in the same order.
    gone, new = sorted(before - after), sorted(after - before)
    if gone:
        cur.execute(q("term_stats_prune"), {"room_id": room_id, "lexemes": gone})
        cur.execute(q("term_stats_remove"), {"room_id": room_id, "lexemes": gone})
    if new:
        cur.execute(q("term_stats_add"), {"room_id": room_id, "lexemes": new})
    cur.execute(q("drop_chunk_embedding"), {"chunk_id": chunk_id})


def reembed_row(db: Database, room: RoomRef, embedder: Embedder, row_id: int) -> bool:
    """Embed an edited row's chunk again (True when a vector was written); the room keeps its model."""
    if room.embedding_model and room.embedding_model != embedder.name:
        return False
    with db.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
        chunk = cur.execute(q("row_chunk_pending"), {"row_id": row_id}).fetchone()
    if chunk is None:
        return False
    [vector] = embedder.embed([f"{chunk['context']}\n{chunk['content']}"])
    with db.connection() as conn:
        conn.execute(q("insert_embedding"), {"chunk_id": chunk["id"], "room_id": chunk["room_id"], "embedding": vector})
        conn.execute(q("mark_embedded"), {"room_id": chunk["room_id"]})
    return True


# ---------------------------------------------------------------------------------------------
# Stale answers
# ---------------------------------------------------------------------------------------------


def stale_citations(db: Database, conversation_id: int) -> dict[int, list[str]]:
    """Message id -> refs of the cells it cites that were edited after it was written (and differ now)."""
    with db.connection() as conn:
        rows = conn.execute(q("stale_citations"), {"conversation_id": conversation_id}).fetchall()
    return {int(message_id): list(refs) for message_id, refs in rows}
