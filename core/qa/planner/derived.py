"""Figures derived from a sheet's rows that no single operation gives: a share of a column's total ("what
percentage of units does the Northgate depot hold", "class X as a percentage of total shares"); a product of two
columns in a row and its total ("units times unit cost", "the stock value of an item": its quantity column times
its price-per-unit column); two columns compared in each row ("parts under their minimum stock").

The question must name a numeric column (the total's) and cell values that pick the rows of the part; every other
content word must be bound as for any table step (core.qa.planner.binding), else no figure is given.
"""

from __future__ import annotations

import re

from core.lexicon.comparison import SHARE_WORDS
from core.lexicon.questions import QUANTITY_COLUMNS, SHEET_WORDS, UNIT_PRICE_COLUMNS, VALUE_WORDS
from core.qa.planner.binding import bind
from core.qa.planner.drafting import SUMMARY_ROW
from core.qa.planner.facts import line_items_by_model, mixed_kinds
from core.qa.planner.lexicon import stem_of, words_of
from core.qa.planner.linking import link_sheet, read_question
from core.qa.planner.schema import ColumnInfo, RoomSchema, SheetInfo
from core.retrieval.plan import RowMathStep, ShareStep, TableStep
from core.retrieval.tables import Aggregate, Filter, RowMath, TableOp

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
        if sheet.page is None and sheet.columns and not line_items_by_model(sheet) and not mixed_kinds(sheet):
            step = _share_on(question, stem_of(asked.group("noun").lower()), sheet)
            if step is not None:
                return step
    return None


def _summary_rows(sheet: SheetInfo, filtered: set[str]) -> list[Filter]:
    """A "Total" row under the data is no row of the part nor of the whole: left out (as `skip_summary_rows`)."""
    texts = [c for c in sheet.columns if c.dtype == "text" and c.name not in filtered][:2]
    return [
        Filter(column=c.name, op="ne", value=v) for c in texts for v in c.values if SUMMARY_ROW.fullmatch(v.strip())
    ]


def _share_on(question: str, noun: str, sheet: SheetInfo) -> ShareStep | None:
    if any(c.dtype == "percent" or "%" in c.name for c in sheet.columns):
        return None  # the sheet's own percentages answer it (the table path reads them)
    column = next((c for c in sheet.columns if c.numeric and {stem_of(w) for w in words_of(c.name)} == {noun}), None)
    if column is None:
        return None
    link = link_sheet(read_question(question), sheet)
    mentions = [m for m in link.values if m.exact and not m.column.numeric and m.column.name != column.name]
    if not mentions:
        return None
    filters = [Filter(column=m.column.name, op="eq", value=m.values[0]) for m in mentions]
    filters += _summary_rows(sheet, {f.column for f in filters})
    op = TableOp(sheet_id=sheet.sheet_id, filters=filters, aggregate=Aggregate(func="sum", column=column.name))
    binding = bind(question, TableStep(op=op), sheet)
    if binding is None:
        return None
    unread = [w for w in binding.unbound if w not in _SHARE_GLUE]
    blocking = [
        w for w, why in binding.blocking if not set(words_of(w)) & set(SHARE_WORDS) and not why.startswith("asks ")
    ]
    if unread or blocking:
        return None
    shown = " and ".join(f"{f.column} = {f.value}" for f in filters)
    reason = f"The share of {column.name}'s total held by the rows where {shown} ({sheet.label}). {binding.text()}"
    return ShareStep(op=op, reason=reason)


# "units times unit cost", "quantity multiplied by price", "units × cost": a product of two columns named.
_TIMES = re.compile(r"\b(?:times|multiplied\s+by)\b|\s[x×]\s", re.I)
# "below their reorder level", "under the minimum", "above its target": a row's column against another of its own.
_AGAINST_OWN = re.compile(
    r"\b(?P<dir>below|under|beneath|less\s+than|lower\s+than|above|over|more\s+than|higher\s+than|exceed(?:s|ing)?)"
    r"\s+(?:their|its|the|each\s+item's|own)\s+(?P<rest>[\w\s-]+)",
    re.I,
)
_BELOW = {"below", "under", "beneath", "less", "lower"}
# Words a row-wise question carries besides its columns and values.
_ROW_GLUE = {*VALUE_WORDS, "times", "multiplied", "stock", "inventory", "held", "hold", "holds", "their", "its",
             "below", "under", "beneath", "above", "over", "exceed", "exceeds", "exceeding", "own", "total",
             *SHEET_WORDS}  # fmt: skip


def row_math_step(question: str, schema: RoomSchema) -> RowMathStep | None:
    """The row-wise step of a question asking a product of two columns or two columns compared in a row, on the
    first sheet whose columns read it wholly; else None."""
    if not (_TIMES.search(question) or _AGAINST_OWN.search(question) or set(words_of(question)) & VALUE_WORDS):
        return None
    for sheet in schema.sheets:
        if sheet.page is None and sheet.columns and not line_items_by_model(sheet) and not mixed_kinds(sheet):
            step = _row_math_on(question, sheet)
            if step is not None:
                return step
    return None


def own_comparison_unread(question: str, schema: RoomSchema) -> str:
    """Why no figure answers a question comparing each row with a figure of its own that no column holds ("items
    below their safety stock" where no column is a safety stock): "" when none is asked, or a column holds it."""
    against = _AGAINST_OWN.search(question)
    if against is None or not re.match(r"(?i)(?:their|its|own|each)\b", question[against.end("dir") :].strip()):
        return ""
    rest = against.group("rest")
    if any(_named_at(rest, c) for s in schema.sheets if s.page is None for c in s.columns if c.numeric):
        return ""
    return f"“{against.group(0).strip()}”: no column of the sheets holds that figure of each row."


def _named_at(text: str, column: ColumnInfo) -> bool:
    words = words_of(column.name)
    return bool(words) and words_of(text)[: len(words)] == words


def _quantity(sheet: SheetInfo) -> ColumnInfo | None:
    found = [c for c in sheet.columns if c.numeric and c.name.strip().lower() in QUANTITY_COLUMNS]
    return found[0] if len(found) == 1 else None


def _reading(question: str, sheet: SheetInfo) -> tuple[RowMath, ColumnInfo, ColumnInfo] | None:
    """What is asked of which two columns: (operation, first column, second column)."""
    link = link_sheet(read_question(question), sheet)
    named = [m.column for m in sorted(link.columns, key=lambda m: m.start) if m.column.numeric]
    named = list({c.name: c for c in named}.values())
    against = _AGAINST_OWN.search(question)
    if against is not None:
        second = next((c for c in sheet.columns if c.numeric and _named_at(against.group("rest"), c)), None)
        before = [c for c in named if second is not None and c.name != second.name]
        first = before[0] if len(before) == 1 else (_quantity(sheet) if not before else None)
        if second is None or first is None or first.name == second.name:
            return None
        below = against.group("dir").lower().split()[0] in _BELOW
        counted = read_question(question).wh in ("how many", "number of")
        operation: RowMath = ("count_below" if below else "count_above") if counted else ("below" if below else "above")
        return operation, first, second
    if _TIMES.search(question):
        return ("product", named[0], named[1]) if len(named) == 2 else None
    quantity = _quantity(sheet)
    names = {c.name.strip().lower(): c for c in sheet.columns if c.numeric}
    price = next((names[n] for n in UNIT_PRICE_COLUMNS if n in names), None)
    valued = any(set(words_of(c.name)) & VALUE_WORDS for c in sheet.columns)
    if quantity is None or price is None or valued:
        return None
    return "product", quantity, price


def _row_math_on(question: str, sheet: SheetInfo) -> RowMathStep | None:
    reading = _reading(question, sheet)
    if reading is None:
        return None
    operation, first, second = reading
    link = link_sheet(read_question(question), sheet)
    mentions = [m for m in link.values if m.exact and not m.column.numeric]
    filters = [Filter(column=m.column.name, op="eq", value=m.values[0]) for m in mentions]
    filters += _summary_rows(sheet, {f.column for f in filters})
    key = next((c for c in sheet.columns if not c.numeric), sheet.columns[0])
    op = TableOp(sheet_id=sheet.sheet_id, filters=filters, select=[key.name])
    binding = bind(question, TableStep(op=op.model_copy(update={"select": [key.name, first.name, second.name]})), sheet)
    if binding is None:
        return None
    unread = [w for w in binding.unbound if w not in _ROW_GLUE]
    # (the step does its own arithmetic: what a table operation's words ask of it is not asked of this one)
    blocking = [w for w, why in binding.blocking if not why.startswith("asks ")]
    if unread or blocking:
        return None
    shown = " and ".join(f"{f.column} = {f.value}" for f in filters)
    where = f" where {shown}" if shown else ""
    what = {"product": f"{first.name} x {second.name} of the rows{where}"}.get(
        operation, f"the rows{where} whose {first.name} is {'below' if 'below' in operation else 'above'} {second.name}"
    )
    reads = [w for w in words_of(question) if w in _ROW_GLUE]
    return RowMathStep(op=op, operation=operation, first=first.name, second=second.name, reads=reads,
                       reason=f"{what[:1].upper()}{what[1:]} ({sheet.label}). {binding.text()}")  # fmt: skip
