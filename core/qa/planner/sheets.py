"""Which sheets of a workbook a question reads: the tab it names ("in the Plan sheet", "at the Elmford site"),
or, when it asks across sheets of one layout ("across both sites") or names a sheet the room does not have
("the Forecast sheet"), why no single sheet answers it.

A workbook kept as analysts keep it holds sheets of one layout side by side (Actual and Plan, one per site);
reading the first of them when the question names another is a cited wrong figure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from core.lexicon.periods import RELATIVE_PERIOD_WORDS, month_of
from core.lexicon.questions import SHEET_QUANTIFIERS, SHEET_WORDS
from core.lexicon.stop import QUESTION_GLUE
from core.qa.planner.lexicon import stem_of, words_of
from core.qa.planner.schema import RoomSchema, SheetInfo

# "the Forecast sheet", "at the Northgate site": the word naming a sheet (the one before a sheet word).
_NAMED_BEFORE = re.compile(rf"\b([\w-]+)\s+(?:{'|'.join(sorted(SHEET_WORDS))})\b", re.I)
# "across both sites", "all sheets", "across sites", "in total across the tabs".
_ACROSS = re.compile(
    rf"\b(?:across|both|all|each|every|combined)\s+(?:(?:of\s+)?(?:the|our|my)\s+)?(?:\w+\s+)?"
    rf"(?:{'|'.join(sorted(w for w in SHEET_WORDS if w.endswith('s')))})\b"
    rf"|\b(?:each|every|per)\s+(?:{'|'.join(sorted(w for w in SHEET_WORDS if not w.endswith('s')))})\b",
    re.I,
)


# Words before a sheet's name that compare it with another ("against plan", "vs budget", "compared with Plan").
_AGAINST = r"against|vs\.?|versus|compared?\s+(?:with|to)|differ(?:ed|s)?\s+from|relative\s+to|than"


# Two sheets' figures set side by side ("actual vs plan", "compare actual with plan"), not their difference.
_SIDE_BY_SIDE = re.compile(r"\b(?:vs\.?|versus|compared?|against|side by side|and)\b", re.I)
_DIFFERENCE = re.compile(
    r"\b(?:variance|differ\w*|gap|by how much|how much (?:more|less|higher|lower)|over|under|above|below|"
    r"percent\w*|change|more|less|higher|lower|beat|miss\w*)\b",
    re.I,
)


def without_difference(question: str) -> str:
    """The question with its words asking a difference left out ("the variance of revenue against plan in May" ->
    "the of revenue against plan in May"): what remains reads each sheet's figure."""
    return " ".join(_DIFFERENCE.sub(" ", question).split())


def _name_pattern(sheet: SheetInfo) -> str:
    """The tab's name as a question writes it (any ending: "plan", "planned")."""
    return r"\W+".join(re.escape(w) + r"\w*" for w in words_of(sheet.name))


def _forms(word: str) -> set[str]:
    """A question word's forms a sheet name may be written in: "plans" and "planned" name "Plan"."""
    forms = {word, stem_of(word)}
    if word.endswith("ned") and len(word) > 5:
        forms.add(word[:-3])
    elif word.endswith("ed") and len(word) > 4:
        forms.update({word[:-2], word[:-1]})
    return forms


def _name_words(sheet: SheetInfo) -> set[str]:
    """The words of a tab's name that may name it: none for a file's only sheet or a default "Sheet1"."""
    if sheet.name in ("", sheet.title) or re.fullmatch(r"(?i)sheet\s*\d*", sheet.name.strip()):
        return set()
    return {stem_of(w) for w in words_of(sheet.name)} - QUESTION_GLUE


def sheets_named(question: str, sheets: Sequence[SheetInfo]) -> list[SheetInfo]:
    """The sheets whose tab name the question writes (every word of it)."""
    asked = set().union(*(_forms(w) for w in words_of(question)))
    return [s for s in sheets if (words := _name_words(s)) and words <= asked]


def naming_words(question: str, sheet: SheetInfo) -> list[str]:
    """The question's words that name the tab ("planned" of "Plan"): where the cells read, not a measure."""
    words = _name_words(sheet)
    return [w for w in words_of(question) if _forms(w) & words]


@dataclass(frozen=True)
class SheetChoice:
    """The room as the question reads it (only the sheets it names), or why no sheet answers it."""

    schema: RoomSchema
    refused: str = ""  # why no sheet is read ("" when the schema is read)
    named: tuple[str, ...] = ()  # the labels of the sheets the question names
    # Sheets of one layout set side by side ("actual vs plan revenue in March"): the same reading of each, when
    # every one of them gives a figure (else `refused` says why).
    each: tuple[SheetInfo, ...] = ()
    # Two sheets of one layout, the first against the second ("actual revenue against plan", "the variance of
    # marketing vs plan"): the difference of the same reading of each, when both give one figure.
    versus: tuple[SheetInfo, SheetInfo] | None = None
    # Every sheet of one layout, when the question asks across them ("across both sites"): one operation on each,
    # combined (`refused` says why no single sheet answers when they cannot be).
    across: tuple[SheetInfo, ...] = ()


def _layout(sheet: SheetInfo) -> tuple[str, ...]:
    return tuple(c.name.lower() for c in sheet.columns)


_AGAINST_WORD = re.compile(rf"\b(?:{_AGAINST})\s+(?:the\s+|our\s+)?([a-z][\w-]*)", re.I)


def _against_unnamed(question: str, tabs: Sequence[SheetInfo]) -> str:
    """ "Revenue against budget" in a workbook of tabs of one layout (Actual, Plan) none named "budget": the words
    of the comparison with a sheet the room does not have ("" when none)."""
    layouts = [_layout(s) for s in tabs]
    if not any(layouts.count(lay) > 1 for lay in layouts):
        return ""
    names = set().union(*(_name_words(s) for s in tabs))
    held = {stem_of(w) for s in tabs for label in _labels(s) for w in words_of(label)}
    for m in _AGAINST_WORD.finditer(question):
        word = m.group(1).lower()
        if word in QUESTION_GLUE or word in SHEET_QUANTIFIERS or month_of(word) or not word.isalpha():
            continue
        if not _forms(word) & names and stem_of(word) not in held and word not in RELATIVE_PERIOD_WORDS:
            return m.group(0)
    return ""


def _labels(sheet: SheetInfo) -> list[str]:
    """A tab's column names and the labels down its first column (a grid's line items)."""
    return [c.name for c in sheet.columns] + [row.values[0] for row in sheet.grid if row.values and row.values[0]]


def _position(question: str, sheet: SheetInfo) -> int:
    found = re.search(rf"\b{_name_pattern(sheet)}", question, re.I)
    return found.start() if found else len(question)


def _versus(question: str, tabs: Sequence[SheetInfo], named: Sequence[SheetInfo]) -> tuple[SheetInfo, SheetInfo] | None:
    """ "Actual revenue against plan", "marketing variance vs budget": (the sheet measured, the sheet it is measured
    against), when the question asks their difference and one sheet is named after "against", "vs", "differ from"
    and exactly one other of its layout is the other side (named, or the only other one)."""
    if not _DIFFERENCE.search(question):
        return None
    against = [s for s in named if re.search(rf"\b(?:{_AGAINST})\s+(?:the\s+)?{_name_pattern(s)}", question, re.I)]
    if not against and len(named) == 2 and re.search(r"\bbetween\b", question, re.I):
        # "the gap between actual and plan revenue": the first named against the second
        first, second = sorted(named, key=lambda s: _position(question, s))
        return (first, second) if _layout(first) == _layout(second) else None
    if len(against) != 1:
        return None
    reference = against[0]
    same = [s for s in tabs if s.sheet_id != reference.sheet_id and _layout(s) == _layout(reference)]
    measured = [s for s in same if s in named] or same
    return (measured[0], reference) if len(measured) == 1 else None


def choose_sheets(question: str, schema: RoomSchema) -> SheetChoice:
    """The sheets the question reads (see the module's docstring)."""
    tabs = [s for s in schema.sheets if s.page is None]
    named = sheets_named(question, tabs) if len(tabs) > 1 else []
    labels = tuple(s.label for s in named)
    if len({_layout(s) for s in named}) < len(named):
        why = (f"The question names {len(named)} sheets of one layout ({', '.join(labels)}); "
               "no single sheet's figure answers it.")  # fmt: skip
        side_by_side = _SIDE_BY_SIDE.search(question) and not _DIFFERENCE.search(question)
        versus = None if side_by_side else _versus(question, tabs, named)
        return SheetChoice(schema, why, labels, each=tuple(named) if side_by_side else (), versus=versus)
    against = [s for s in named if re.search(rf"\b(?:{_AGAINST})\s+(?:the\s+)?{_name_pattern(s)}", question, re.I)]
    if against and len(tabs) > 1:
        return SheetChoice(schema, f"The question compares sheets ({', '.join(labels)} against the other); "
                                   "one sheet's figure does not answer it.", labels,
                           versus=_versus(question, tabs, named))  # fmt: skip
    unnamed = _against_unnamed(question, tabs)
    if unnamed:
        return SheetChoice(schema, f"“{unnamed}”: no sheet of this room is named so; one sheet's figure does not "
                                   "answer a comparison with it.")  # fmt: skip
    if named:
        keep = {s.sheet_id for s in named}
        others = tuple(s for s in schema.sheets if s.sheet_id in keep or s.page is not None)
        return SheetChoice(replace(schema, sheets=others), "", labels)
    for m in _NAMED_BEFORE.finditer(question):
        word = m.group(1).lower()
        if word not in QUESTION_GLUE and word not in SHEET_QUANTIFIERS and word[:1].isalpha() and len(tabs) > 1:
            return SheetChoice(schema, f"“{m.group(0)}”: no sheet of this room is named “{m.group(1)}”.")
    layouts = [_layout(s) for s in tabs]
    if _ACROSS.search(question) and any(layouts.count(lay) > 1 for lay in layouts):
        largest = max(layouts, key=layouts.count)
        across = tuple(s for s in tabs if _layout(s) == largest) if layouts.count(largest) * 2 > len(tabs) else ()
        return SheetChoice(schema, "The question asks across sheets of one layout; their figures could not be "
                                   "combined.", across=across)  # fmt: skip
    return SheetChoice(schema)
