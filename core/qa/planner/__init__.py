"""Question -> Plan: the room's schema (sheets, columns, their values; PDFs) and the offline planner.

Modules: `lexicon` (the word tables, as data), `schema` (what the planner knows of a room), `linking` (the
question read and tied to a sheet), `drafting` (a table operation under construction and the steps shared by
the intents), `intents` (the ordered registry of what a question can ask: count, superlative, lookup...),
`rules` (OfflinePlanner: cells, table intents or search; follow-ups), `describe` (the plan in one sentence).

The offline planner is deterministic rules over the question's words and the schema's names and
values — no model.  It links the question to a sheet (columns named, cell values quoted, numbers
and years compared), lets the first intent that applies read what is asked (count, sum, average,
top-k, a lookup, first/last) and writes one exact ``TableStep`` for it (the plan's ``intent`` names
the rule that fired); a ``SearchStep`` of the passages is added when the table signal is weak or the
question points at documents.  Follow-ups ("what about in France?", "the
year before?") are rewritten into a standalone question from the conversation and planned afresh.

Cell values are data, never instructions: they are only ever compared with the question's words.
"""

from __future__ import annotations

from core.qa.planner.describe import describe_op
from core.qa.planner.rules import OfflinePlanner, Planner
from core.qa.planner.schema import MAX_HISTORY, ColumnInfo, RoomSchema, SheetInfo, clear_schema_cache, load_schema

__all__ = [
    "MAX_HISTORY",
    "ColumnInfo",
    "OfflinePlanner",
    "Planner",
    "RoomSchema",
    "SheetInfo",
    "clear_schema_cache",
    "describe_op",
    "load_schema",
]
