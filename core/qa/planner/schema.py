"""The room's schema as the offline planner reads it: sheets, columns, their values and trends; PDFs. Cached
per process and keyed on the room's documents and the sheets' edit versions."""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from functools import cached_property
from typing import Literal

from core.cells import Dtype, parse_date, parse_measure
from core.db import Database, q
from core.events import on_sheet_edited
from core.qa.planner.cells import GridRow
from core.qa.planner.lexicon import CLOCK_RE, NUMBER_RE, OUTCOME_CELLS, stem_of, words_of
from core.sheetmodel import TableModel, corrected

# A column's distinct values are kept (and matched against questions) up to this many.
MAX_VALUES = 500
# First values of every column, shown to planners as examples.
N_SAMPLES = 5
# Rows read first to find the columns with too many values to list (and all rows of a shorter sheet).
PROBE_ROWS = 2000
# Row-order trends (a Year or No. column that follows the rows) are looked for in sheets up to this size.
TREND_MAX_ROWS = 20_000
# A lookup lists at most this many matching rows.
LOOKUP_LIMIT = 20
# Below this link score the table may not hold the answer, so the passages are searched too.
WEAK_SIGNAL = 1.0
# Earlier turns a follow-up is resolved against.
MAX_HISTORY = 10

Trend = Literal["up", "down", ""]

# Every row of the short sheets: statement-like grids are planned cell by cell (core.qa.planner.cells).
GRID_MAX_ROWS = 200

# ---------------------------------------------------------------------------------------------
# The schema
# ---------------------------------------------------------------------------------------------


# What separates the items of a list written in one cell.
_LIST_SEPARATORS = re.compile(r"\s*(?:[,;/&\n]|\band\b)\s*")


@dataclass(frozen=True)
class ColumnInfo:
    """One column of a stored sheet, with its distinct values when they are few enough to match."""

    name: str
    letter: str
    dtype: Dtype
    position: int
    samples: tuple[str, ...] = ()  # the first few distinct values, in sheet order
    values: tuple[str, ...] = ()  # every distinct non-empty value when there are <= MAX_VALUES, else ()
    n_distinct: int = 0
    n_filled: int = 0
    # "up"/"down" when the column's numbers or ISO dates never decrease/increase down the rows.
    trend: Trend = ""
    strict: bool = False  # the trend never repeats a value: sorting by it IS the row order

    @property
    def numeric(self) -> bool:
        """Whether the column holds quantities (number, currency or percent cells)."""
        return self.dtype in ("number", "currency", "percent")

    @property
    def repeats(self) -> bool:
        """Whether some value occurs in more than one row."""
        return self.n_distinct < self.n_filled

    @property
    def one_a_row(self) -> bool:
        """Whether the column holds one distinct text value a row (an ID, a name): its header names the rows."""
        return self.dtype == "text" and self.n_filled > 1 and self.n_distinct == self.n_filled

    @cached_property
    def words(self) -> tuple[str, ...]:
        """The stems of the column name."""
        return tuple(stem_of(t) for t in words_of(self.name))

    @cached_property
    def index(self) -> dict[tuple[str, ...], tuple[str, ...]]:
        """Folded token stems of each value -> the values written that way (the lower-cased index)."""
        found: dict[tuple[str, ...], list[str]] = {}
        for value in self.values:
            key = tuple(stem_of(t) for t in words_of(value))
            if key:
                found.setdefault(key, []).append(value)
        return {k: tuple(v) for k, v in found.items()}

    @cached_property
    def outcomes(self) -> dict[str, tuple[str, ...]]:
        """A column of game results ("W 31–17", "L", "Winner"/"Runner-up"): outcome -> the values recording it."""
        found: dict[str, list[str]] = {}
        for value in self.values:
            first = re.match(r"[A-Za-z]+", value.strip())
            outcome = OUTCOME_CELLS.get(first.group(0).lower()) if first else None
            if outcome is not None:
                found.setdefault(outcome, []).append(value)
        if len(found) < 2 or sum(map(len, found.values())) * 5 < len(self.values) * 4:
            return {}
        return {k: tuple(v) for k, v in found.items()}

    @cached_property
    def items(self) -> dict[tuple[str, ...], tuple[str, ...]]:
        """Lists in cells ("Pashto, Dari Persian", "Rock / Pop"): each item's stems -> the values listing it."""
        found: dict[tuple[str, ...], list[str]] = {}
        for value in self.values:
            parts = [p for p in _LIST_SEPARATORS.split(value) if p.strip()]
            if len(parts) < 2:
                continue
            for part in parts:
                key = tuple(stem_of(t) for t in words_of(part))
                if key and value not in found.setdefault(key, []):
                    found[key].append(value)
        return {k: tuple(v) for k, v in found.items()}

    @cached_property
    def ngrams(self) -> dict[tuple[str, ...], tuple[str, ...]]:
        """Every run of up to four stems inside the values -> the values holding it (for "contains")."""
        found: dict[tuple[str, ...], list[str]] = {}
        for key, values in self.index.items():
            seen: set[tuple[str, ...]] = set()
            for n in range(1, min(4, len(key)) + 1):
                for i in range(len(key) - n + 1):
                    gram = key[i : i + n]
                    if gram != key and gram not in seen:
                        seen.add(gram)
                        found.setdefault(gram, []).extend(values)
        return {k: tuple(v) for k, v in found.items()}

    @cached_property
    def prose(self) -> bool:
        """Whether the values are sentences (notes, remarks) rather than names: words inside them are no filter."""
        if not self.values:
            return False
        return sum(len(words_of(v)) for v in self.values) > 6 * len(self.values)

    @cached_property
    def dates_share(self) -> float:
        """The share of the values that read as dates."""
        return sum(1 for v in self.values if parse_date(v) is not None) / len(self.values) if self.values else 0.0

    @cached_property
    def clock_times(self) -> bool:
        """Whether the values are times written alike ("1:17.41"), which sort as text in the right order."""
        clocks = [v for v in self.values if CLOCK_RE.fullmatch(v)]
        return bool(clocks) and len(clocks) * 10 >= len(self.values) * 9 and len({len(v) for v in clocks}) == 1

    @cached_property
    def numbers(self) -> tuple[float, ...]:
        """The values that are numbers: plain, or a measure with its unit ("88 m")."""
        out = []
        for value in self.values:
            text = value.replace(",", "").strip()
            if NUMBER_RE.fullmatch(text.lstrip("-")):
                out.append(float(text))
            elif (measure := parse_measure(value)) is not None:
                out.append(measure[0])  # "14,505 ft", "3 acts": compared and ranked by their number
        return tuple(out)


@dataclass(frozen=True)
class SheetInfo:
    """One stored sheet of a ready document."""

    sheet_id: int
    document_id: int
    title: str
    name: str
    n_rows: int
    columns: tuple[ColumnInfo, ...]
    grid: tuple[
        GridRow, ...
    ] = ()  # every row of a short sheet (<= GRID_MAX_ROWS), for the cell reader (core.qa.planner.cells)
    page: int | None = None  # a table read from a PDF: its page (the planner reads it as a statement grid only)
    page_text: str = ""  # that page's text (names a question gives must be on it)
    document_text: str = ""  # the whole text of a short document (<= 30 pages) whose only table this is, else ""
    fiscal_year: int | None = None  # the fiscal year of the filing it was read from (None when not known)
    period_end: date | None = None  # and the end of that filing's period
    fiscal_quarter: int | None = None  # and its quarter (None for a whole year's filing, or when not known)
    # How the table was read at ingestion (core.sheetmodel), an editor's corrections laid over it; None for a sheet
    # stored before sheets were modelled.
    model: TableModel | None = None

    def scheduled(self, years: Iterable[int]) -> set[int]:
        """Of the years a table of this filing heads its columns with, those that schedule later amounts (what is
        due or matures then), not that year's figure: when the filing's period is known and the table holds no year
        of its own or before (a schedule of payments; a table also heading earlier years is a history, or the
        period was misread), the years after the next (a fiscal year may be named by the year it began)."""
        years = set(years)
        if self.fiscal_year is None or not years or min(years) <= self.fiscal_year:
            return set()
        return {year for year in years if year > self.fiscal_year + 1}

    @property
    def label(self) -> str:
        """How the sheet is named to people: the file, and the tab when it is not the file."""
        return (
            self.title
            if self.name in (self.title, "") or self.title.startswith(self.name)
            else f"{self.title} › {self.name}"
        )


@dataclass(frozen=True)
class RoomSchema:
    """What a planner may know of a room: its sheets' shapes and values, and its PDFs' titles."""

    room_id: int
    sheets: tuple[SheetInfo, ...]
    documents: tuple[tuple[int, str], ...] = ()  # (id, title) of ready PDFs


# Schemas kept per process (a room's schema is small: at most MAX_VALUES values per column).
SCHEMA_CACHE_SIZE = 256
SCHEMA_CACHE: OrderedDict[tuple[str, int], tuple[tuple[int, int, int], RoomSchema]] = OrderedDict()
SCHEMA_LOCK = threading.Lock()


def clear_schema_cache() -> None:
    """Forget every loaded schema."""
    with SCHEMA_LOCK:
        SCHEMA_CACHE.clear()


@on_sheet_edited
def _sheet_edited(db: Database, sheet_id: int) -> None:
    # A schema holds columns' distinct values, keyed on the room's documents, not on a sheet's version.
    clear_schema_cache()


def load_schema(db: Database, room_id: int) -> RoomSchema:
    """The room's schema, read once per process until its ready documents change."""
    with db.connection() as conn:
        n_ready, last_id, edits = conn.execute(q("schema_version"), {"room_id": room_id}).fetchone()  # type: ignore[misc]
    # The server is part of the key: every test database numbers its rooms from 1.
    key, version = (db.conninfo, room_id), (int(n_ready), int(last_id), int(edits))
    with SCHEMA_LOCK:
        cached = SCHEMA_CACHE.get(key)
        if cached is not None and cached[0] == version:
            SCHEMA_CACHE.move_to_end(key)
            return cached[1]
    schema = read_schema(db, room_id)
    with SCHEMA_LOCK:
        SCHEMA_CACHE[key] = (version, schema)
        SCHEMA_CACHE.move_to_end(key)
        while len(SCHEMA_CACHE) > SCHEMA_CACHE_SIZE:
            SCHEMA_CACHE.popitem(last=False)
    return schema


def read_schema(db: Database, room_id: int) -> RoomSchema:
    with db.connection() as conn:
        sheets = conn.execute(q("schema_sheets"), {"room_id": room_id}).fetchall()
        pdfs = conn.execute(q("schema_pdfs"), {"room_id": room_id}).fetchall()
        ids = [row[0] for row in sheets]
        n_rows = {row[0]: int(row[4]) for row in sheets}
        columns = conn.execute(q("sheet_columns"), {"sheet_ids": ids}).fetchall() if ids else []
        probe = {
            (r[0], r[1]): (int(r[2]), int(r[3]), tuple(r[4] or ()))
            for r in conn.execute(
                q("schema_probe"), {"sheet_ids": ids, "probe_rows": PROBE_ROWS, "n_samples": N_SAMPLES}
            ).fetchall()
        }
        # The probe is the whole story for short sheets and for columns it already shows to be long.
        full = [
            (sheet_id, pos)
            for sheet_id, pos, *_ in columns
            if n_rows[sheet_id] > PROBE_ROWS and probe.get((sheet_id, pos), (0,))[0] <= MAX_VALUES
        ]
        short = [(s, p) for s, p, *_ in columns if n_rows[s] <= PROBE_ROWS]
        stats: dict[tuple[int, int], tuple[int, int, tuple[str, ...]]] = {}
        pairs = full + short
        if pairs:
            params = {"sheet_ids": [s for s, _ in pairs], "positions": [p for _, p in pairs],
                      "max_values": MAX_VALUES, "n_samples": N_SAMPLES}  # fmt: skip
            for r in conn.execute(q("schema_values"), params).fetchall():
                stats[(r[0], r[1])] = (int(r[2]), int(r[3]), tuple(r[4] or ()))
        short_sheets = [s for s in ids if n_rows[s] <= GRID_MAX_ROWS]
        grids: dict[int, list[GridRow]] = {}
        if short_sheets:
            for sheet_id, row_id, values, number in conn.execute(q("schema_grid_rows"), {"sheet_ids": short_sheets}):
                grids.setdefault(sheet_id, []).append(
                    GridRow(row_id=int(row_id), values=tuple(json.loads(values)), row_number=int(number))
                )
        ordered = [s for s in ids if n_rows[s] <= TREND_MAX_ROWS]
        trends = conn.execute(q("schema_trends"), {"sheet_ids": ordered}).fetchall() if ordered else []
    trend_of: dict[tuple[int, int], tuple[int, Trend, bool]] = {}
    for sheet_id, pos, n_keyed, up_strict, up, down_strict, down in trends:
        if up or down:
            trend_of[(sheet_id, pos)] = (int(n_keyed), "up" if up else "down", bool(up_strict or down_strict))
    by_sheet: dict[int, list[ColumnInfo]] = {}
    for sheet_id, pos, name, letter, dtype in columns:
        if (sheet_id, pos) in stats:
            n_distinct, n_filled, texts = stats[(sheet_id, pos)]
        else:
            # Too many values to list (found in the first rows): counts are estimates from those rows —
            # distinct everywhere if no value repeated there, else more than MAX_VALUES.
            seen, filled, texts = probe.get((sheet_id, pos), (0, 0, ()))
            n_filled = n_rows[sheet_id]
            n_distinct = n_filled if seen == filled else MAX_VALUES + 1
        n_keyed, trend, strict = trend_of.get((sheet_id, pos), (0, "", False))
        if n_keyed < max(2, n_filled):  # a trend must hold over every filled cell
            trend, strict = "", False
        by_sheet.setdefault(sheet_id, []).append(
            ColumnInfo(
                name=name, letter=letter, dtype=dtype, position=pos, samples=texts[:N_SAMPLES],
                values=texts if n_distinct <= MAX_VALUES else (), n_distinct=n_distinct, n_filled=n_filled,
                trend=trend, strict=strict,
            )
        )  # fmt: skip
    infos = tuple(
        SheetInfo(
            sheet_id=s,
            document_id=d,
            title=t,
            name=n,
            n_rows=rows,
            columns=tuple(by_sheet.get(s, ())),
            grid=tuple(grids.get(s, ())),
            page=page,
            page_text=text,
            document_text=whole,
            fiscal_year=year,
            period_end=end,
            fiscal_quarter=quarter,
            model=corrected(TableModel.from_json(model), corrections or {}) if model else None,
        )
        for s, d, t, n, rows, page, text, whole, year, end, quarter, model, corrections in sheets
    )
    return RoomSchema(room_id=room_id, sheets=infos, documents=tuple((int(i), t) for i, t in pdfs))
