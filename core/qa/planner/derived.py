"""Figures derived from a sheet's rows that no single operation gives: a share of a column's total ("what
percentage of units does the Northgate depot hold", "class X as a percentage of total shares").

The question must name a numeric column (the total's) and cell values that pick the rows of the part; every other
content word must be bound as for any table step (core.qa.planner.binding), else no figure is given.
"""

from __future__ import annotations

import re

from core.lexicon.comparison import SHARE_WORDS
from core.qa.planner.binding import bind
from core.qa.planner.lexicon import stem_of, words_of
from core.qa.planner.linking import link_sheet, read_question
from core.qa.planner.schema import RoomSchema, SheetInfo
from core.retrieval.plan import ShareStep, TableStep
from core.retrieval.tables import Aggregate, Filter, TableOp

_SHARE = "|".join(SHARE_WORDS)
# "what percentage of (all|the total) shares", "as a share of total units": the noun is the total's column.
_SHARE_OF = re.compile(rf"\b(?:{_SHARE})\s+of\s+(?:(?:all|the|total|our)\s+)*(?P<noun>[a-z][\w-]*)", re.I)
# Words the share phrase itself carries (bound to the operation).
_SHARE_GLUE = {*SHARE_WORDS, "total", "hold", "held", "holds", "own", "owns", "owned", "account", "accounts"}


def share_step(question: str, schema: RoomSchema) -> ShareStep | None:
    """The share step of a question asking one, on the first sheet whose columns and values read it; else None."""
    asked = _SHARE_OF.search(question)
    if asked is None:
        return None
    for sheet in schema.sheets:
        if sheet.page is None and sheet.columns:
            step = _share_on(question, stem_of(asked.group("noun").lower()), sheet)
            if step is not None:
                return step
    return None


def _share_on(question: str, noun: str, sheet: SheetInfo) -> ShareStep | None:
    column = next((c for c in sheet.columns if c.numeric and {stem_of(w) for w in words_of(c.name)} == {noun}), None)
    if column is None:
        return None
    link = link_sheet(read_question(question), sheet)
    mentions = [m for m in link.values if m.exact and not m.column.numeric and m.column.name != column.name]
    if not mentions:
        return None
    filters = [Filter(column=m.column.name, op="eq", value=m.values[0]) for m in mentions]
    op = TableOp(sheet_id=sheet.sheet_id, filters=filters, aggregate=Aggregate(func="sum", column=column.name))
    binding = bind(question, TableStep(op=op), sheet)
    if binding is None:
        return None
    unread = [w for w in binding.unbound if w not in _SHARE_GLUE]
    blocking = [w for w, _ in binding.blocking if not set(words_of(w)) & set(SHARE_WORDS)]
    if unread or blocking:
        return None
    shown = " and ".join(f"{f.column} = {f.value}" for f in filters)
    reason = f"The share of {column.name}'s total held by the rows where {shown} ({sheet.label}). {binding.text()}"
    return ShareStep(op=op, reason=reason)
