"""The offline planner: link the question to a sheet (`linking`), let the first intent that applies draft one
exact table operation (`intents`), or do arithmetic on a statement grid's cells, or search the passages; and
rewrite follow-ups into standalone questions."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol

from core.qa.planner.binding import (
    ALIKE,
    Binding,
    bind,
    lines_left_out,
    measured_alike,
    other_sheets_named,
    unread_reason,
)
from core.qa.planner.cells import line_items_down
from core.qa.planner.derived import own_comparison_unread, row_math_step, share_step
from core.qa.planner.describe import describe_op
from core.qa.planner.facts import MAX_CHOICES, Ambiguous, asked_unit, line_items_by_model, month_range
from core.qa.planner.intents import CELLS, CLARIFY, MEASURE, MEASURE_MISSING, SEARCH, plan_table
from core.qa.planner.lexicon import AGGREGATE_WORDS, DOCUMENT_WORDS, STOP, YEAR_RE, fold, words_of
from core.qa.planner.linking import Link, Question, ValueMention, link_sheet, read_question
from core.qa.planner.measure_questions import measure_cells
from core.qa.planner.measures import Missing
from core.qa.planner.model_reading import clarify_step, model_cells
from core.qa.planner.schema import MAX_HISTORY, WEAK_SIGNAL, RoomSchema, SheetInfo
from core.qa.planner.sheets import choose_sheets, without_difference
from core.qa.planner.statements import statement_cells
from core.retrieval.cellmath import CellsStep
from core.retrieval.plan import (
    AcrossStep,
    Choice,
    ClarifyStep,
    Plan,
    RowMathStep,
    SearchStep,
    ShareStep,
    Step,
    TableStep,
)
from core.retrieval.tables import Combine, TableOp

# ---------------------------------------------------------------------------------------------
# Planners
# ---------------------------------------------------------------------------------------------


class Planner(Protocol):
    """Turns a question (and the conversation so far) into a Plan over a room's schema."""

    name: str

    def plan(self, question: str, schema: RoomSchema, history: Sequence[tuple[str, str]] = ()) -> Plan:
        """The plan of `question`; `history` holds earlier (question, answer) turns, oldest first."""
        ...


# -- follow-ups ------------------------------------------------------------------------------------

_FOLLOW_UP_RE = re.compile(
    r"^\s*(?:and\b|but\b|what about\b|how about\b|same\b|the same\b|now\b|also\b|then\b|and what about\b|"
    r"what of\b|for\b|in\b|only\b|just\b|the year (?:before|after)\b|(?:the )?(?:previous|next|following) year\b)",
    re.IGNORECASE,
)
_YEAR_SHIFT_RE = re.compile(
    r"\b(?:the\s+)?(?:year\s+(before|after|earlier|later)|(previous|prior|next|following)\s+year|(a|one)\s+year\s+(earlier|later))\b",
    re.IGNORECASE,
)


def _is_follow_up(question: str, history: Sequence[tuple[str, str]]) -> bool:
    if not history:
        return False
    words = words_of(question)
    return bool(_FOLLOW_UP_RE.match(question) or _YEAR_SHIFT_RE.search(question)) and len(words) <= 10


class OfflinePlanner:
    """Deterministic rules over the question and the schema: no model, no network, same answer every time."""

    name = "offline"

    def plan(self, question: str, schema: RoomSchema, history: Sequence[tuple[str, str]] = ()) -> Plan:
        """The plan of `question` (a follow-up is first rewritten from the conversation)."""
        standalone = self.standalone(question, schema, history)
        steps, reasoning, intent = self._steps(standalone, schema)
        steps, reasoning, intent = _accounted(standalone, schema, steps, reasoning, intent)
        if standalone != question.strip():
            reasoning = f'Read as "{standalone}". {reasoning}'
        return Plan(question=question, standalone_question=standalone, steps=steps, reasoning=reasoning,
                    planner=self.name, intent=intent)  # fmt: skip

    # -- the conversation ----------------------------------------------------------------------

    def standalone(self, question: str, schema: RoomSchema, history: Sequence[tuple[str, str]] = ()) -> str:
        """The question with a follow-up resolved against the previous questions (rules, not a model)."""
        question = question.strip()
        history = list(history)[-MAX_HISTORY:]  # a follow-up leans on the last few turns, not the whole log
        if not _is_follow_up(question, history):
            return question
        previous = history[-1][0].strip()
        # The previous question may itself have been a follow-up: resolve the chain first.
        previous = self.standalone(previous, schema, history[:-1])
        return _rewrite(question, previous, schema)

    # -- steps -----------------------------------------------------------------------------------

    def _steps(self, question: str, schema: RoomSchema) -> tuple[list[Step], str, str]:
        """The plan's steps, its reasoning and the name of the intent that decided it."""
        choice = choose_sheets(question, schema)
        side = _side_by_side(question, schema, choice.each) if choice.each else None
        if side is not None:
            return side
        versus = _variance(question, schema, *choice.versus) if choice.versus else None
        if versus is not None:
            return versus
        across = self._across(question, schema, choice.across) if choice.across else None
        if across is not None:
            return across
        if choice.refused:
            # no figure from the wrong sheet, nor from one sheet of several asked: the passages only
            search = SearchStep(query=question, reason=f"{choice.refused} Search the documents' passages.", rows=False)
            return [search], search.reason, SEARCH
        derived = share_step(question, choice.schema) or row_math_step(question, choice.schema)
        if derived is not None:
            return [derived], derived.reason, derived.kind
        unread = own_comparison_unread(question, choice.schema)
        if unread:
            search = SearchStep(query=question, reason=f"{unread} Search the documents' passages.", rows=False)
            return [search], search.reason, SEARCH
        steps, reasoning, intent = self._sheet_steps(question, choice.schema)
        if choice.named and intent != SEARCH:
            reasoning = f"Read the sheet the question names ({', '.join(choice.named)}). {reasoning}"
        return steps, reasoning, intent

    def _across(
        self, question: str, schema: RoomSchema, sheets: Sequence[SheetInfo]
    ) -> tuple[list[Step], str, str] | None:
        """ "How many units of X across both sites": the one operation each sheet of the layout reads alike, run on
        each; their figures added up when the question asks an amount in total (a sum or a count), else each one
        named by its sheet when it asks a listing or a comparison; None when the sheets are not read alike."""
        ops: list[TableOp] = []
        intent = SEARCH
        for sheet in sheets:
            one = replace(schema, sheets=(sheet,))
            steps, _, intent = _accounted(question, one, *self._sheet_steps(question, one))
            tables = [s for s in steps if isinstance(s, TableStep)]
            if len(tables) != 1:
                return None
            ops.append(tables[0].op)
        shapes = {json.dumps(op.model_dump(exclude={"sheet_id"}), sort_keys=True) for op in ops}
        combine = _combining(question, ops[0])
        if len(shapes) != 1 or combine is None:
            return None
        labels = [s.name for s in sheets]
        reason = f"{describe_op(ops[0], sheets[0]).rstrip('.')}, on each of {', '.join(labels)}"
        reason += ", added up." if combine == "sum" else ", each sheet's answer given."
        step = AcrossStep(op=ops[0], sheet_ids=[s.sheet_id for s in sheets], labels=labels, combine=combine,
                          reason=reason)  # fmt: skip
        return [step], f"The question asks across the sheets of one layout: {reason}", intent

    def _sheet_steps(self, question: str, schema: RoomSchema) -> tuple[list[Step], str, str]:
        """The steps over the sheets the question reads."""
        measured = measure_cells(question, schema)
        if isinstance(measured, Missing):
            return [], measured.reason, MEASURE_MISSING
        if measured is not None:
            step, sheet = measured
            return [step], f"{step.reason} ({sheet.label}).", MEASURE
        modelled = model_cells(question, schema)
        if isinstance(modelled, Ambiguous):  # a question back instead of a guess
            clarify = clarify_step(question, modelled)
            return [clarify], f"{clarify.reason} ({modelled.sheet.label}).", CLARIFY
        if modelled is not None:
            cells, sheet = modelled
            return [cells], f"{cells.reason} ({sheet.label}).", CELLS
        statement = statement_cells(question, schema)
        if statement is not None:
            cells, sheet = statement
            unit = asked_unit(question)[0]
            if unit and not cells.asked_scale:  # "in dollars", "in cents": the figure converted from the sheet's unit
                cells = cells.model_copy(update={"asked_scale": unit})
            return [cells], f"{cells.reason} ({sheet.label}).", CELLS
        # "X as a percentage of revenue" the cell rules did not read as two named lines: the share measure
        share = measure_cells(question, schema, shares=True)
        if share is not None and not isinstance(share, Missing):
            step, sheet = share
            return [step], f"{step.reason} ({sheet.label}).", MEASURE
        read = read_question(question)
        # A table read from a PDF is a statement grid, planned cell by cell above; as a list of records it would
        # answer passage questions from whichever of a filing's hundred tables shares a word with them.
        # A statement grid (periods across, line items down) the cell arithmetic above did not read is no list of
        # records either: "Sum of 2019 where Column A in (Prepaid expenses, Total prepaid expenses)" answered a
        # share with a sum, "1 row matched: $106.4" a year with an amount. Nor is a note's grid of line items
        # under a blank or unit-only corner with measures or maturities across: read as records, "the total
        # finance leases" took the first bucket's figure ("2031 with (In millions) Finance leases: 12") and "the
        # gross amount of trade debtors" one figure with a neighbour's. Its text is searched instead.
        links = [
            link_sheet(read, sheet)
            for sheet in schema.sheets
            if sheet.columns
            and sheet.page is None
            and not line_items_down([c.name for c in sheet.columns], sheet.grid)
            and not line_items_by_model(sheet)
        ]
        best = _bound_best(question, read, links, schema.sheets)
        # A room holding one sheet and nothing else: whatever is asked is asked of that sheet.
        only_sheet = len(links) == 1 and not schema.documents
        documents_asked = bool(set(read.words) & DOCUMENT_WORDS) or _names_document(read, schema)
        steps: list[Step] = []
        reasons: list[str] = []
        beyond = False
        intent = SEARCH
        unread = ""
        if best is not None and (best.score > 0 or only_sheet):
            intent, draft = plan_table(read, best)
            op = draft.op()
            reason = describe_op(op, best.sheet)
            if draft.unread:
                # every row's figure would answer another question: no table step, the documents' passages instead
                intent = SEARCH
                unread = f"No column of {best.sheet.label} reads “{draft.unread}”: {reason}"
                unread = unread.rstrip(".") + " would ignore it, so "
            else:
                steps.append(TableStep(op=op, reason=reason))
                reasons.append(reason)
            beyond = _asks_beyond_columns(read, best)
        weak = best is None or best.score < WEAK_SIGNAL
        if weak or documents_asked or beyond or unread:
            search_reason = _search_reason(weak, documents_asked, beyond)
            if unread:  # the documents' passages only: the sheet's rows do not say it either
                search_reason = unread + "search the documents' passages."
            search = SearchStep(query=question, reason=search_reason, rows=not unread)
            # The passages come first when they are the likelier source: the question points at the
            # documents, or asks for something no column holds and the room has documents to hold it.
            if documents_asked or (beyond and schema.documents) or not steps:
                steps.insert(0, search)
                reasons.insert(0, search.reason)
            else:
                steps.append(search)
                reasons.append(search.reason)
        return steps, " ".join(reasons), intent


def _bound_best(question: str, read: Question, links: list[Link], sheets: Sequence[SheetInfo]) -> Link | None:
    """The sheet that answers: of the sheets whose columns the question's words link to, the best linked whose
    reading binds every word it must (core.qa.planner.binding), else the best linked. The room routes the question
    by what each sheet's reading accounts for, not by the link score alone: "which department has the highest
    average salary" links best to a lookup tab of department names, and is read on the roster beside it."""
    ranked = sorted((link for link in links if link.score > 0), key=lambda link: -link.score)  # (equals keep order)
    for link in ranked if len(ranked) > 1 else ():
        _, draft = plan_table(read, link)
        if draft.unread:
            continue
        found = bind(question, TableStep(op=draft.op()), link.sheet)
        if found is not None and not found.blocking and not other_sheets_named(found, link.sheet, sheets):
            return link
    return max(links, key=lambda link: link.score, default=None)  # max keeps the first of equals


def _side_by_side(question: str, schema: RoomSchema, sheets: Sequence[SheetInfo]) -> tuple[list[Step], str, str] | None:
    """ "Actual vs plan revenue in March": the same cell reading of each sheet named, each figure named by its
    sheet; None unless every sheet gives one."""
    steps: list[Step] = []
    for sheet in sheets:
        found = statement_cells(question, replace(schema, sheets=(sheet,)))
        if found is None:
            return None
        steps.append(found[0].model_copy(update={"row_label": f"{sheet.name} {found[0].row_label}"}))
    reasons = [f"{step.reason} ({sheet.label})." for step, sheet in zip(steps, sheets, strict=True)]
    return steps, "The sheets the question sets side by side, each read alike: " + " ".join(reasons), CELLS


# A question asking the sheets' figures listed or compared, not added up ("each site", "per site", "which").
_EACH = re.compile(r"\b(?:each|per|by|respective(?:ly)?|compare[sd]?|versus|vs|which|list|side by side)\b", re.I)


def _combining(question: str, op: TableOp) -> Combine | None:
    """How an operation's figures on several sheets combine: "sum" for a total or a count the question does not ask
    per sheet, "each" for a listing or a comparison; None when neither answers (an average across sheets is not
    the sum or the list of each sheet's average)."""
    additive = op.aggregate is not None and op.aggregate.func in ("sum", "count") and op.group_by is None
    if additive and not _EACH.search(question):
        return "sum"
    if _EACH.search(question) or (op.aggregate is None and op.group_by is None):
        return "each"
    return None


def _variance(
    question: str, schema: RoomSchema, measured: SheetInfo, reference: SheetInfo
) -> tuple[list[Step], str, str] | None:
    """ "The variance of revenue against plan in May": the same line's figure of one period read on each sheet,
    the first's minus the second's (and as a percentage of it); None unless each sheet gives one figure of the
    same line and period."""
    neutral = without_difference(question)
    found = [statement_cells(neutral, replace(schema, sheets=(sheet,))) for sheet in (measured, reference)]
    steps = [f[0] for f in found if f is not None and f[0].operation == "value" and len(f[0].columns) == 1]
    if len(steps) != 2 or steps[0].cells or steps[1].cells:
        return None
    a, b = steps
    if a.row_label != b.row_label or a.columns != b.columns:
        return None
    reason = (f"The variance of {a.row_label} in {a.column_labels[0]}: {measured.label} against {reference.label}, "
              "each sheet's cell read alike.")  # fmt: skip
    step = a.model_copy(update={"operation": "variance", "row_label": f"{measured.name} {a.row_label}",
                                "other_label": f"{reference.name} {b.row_label}", "reason": reason,
                                "other_sheet_id": reference.sheet_id, "other_cells": [(b.row_id, b.columns[0])]})  # fmt: skip
    return [step], reason, CELLS


def account_plan(plan: Plan, schema: RoomSchema) -> Plan:
    """Any planner's plan checked as the offline plans are: the binding of the question's words in its reasoning,
    and no sheet step whose reading leaves a word naming something the sheet could hold unread."""
    steps, reasoning, intent = _accounted(plan.standalone_question, schema, list(plan.steps), plan.reasoning,
                                          plan.intent)  # fmt: skip
    return plan.model_copy(update={"steps": steps, "reasoning": reasoning, "intent": intent})


def _accounted(
    question: str, schema: RoomSchema, steps: list[Step], reasoning: str, intent: str
) -> tuple[list[Step], str, str]:
    """The plan with its binding of the question's words in the reasoning; a sheet's step whose reading leaves a
    word naming something the sheet could hold unread (core.qa.planner.binding) gives way to the passages."""
    sheets = {s.sheet_id: s for s in schema.sheets}
    for step in steps:
        if isinstance(
            step, AcrossStep | ShareStep | RowMathStep | ClarifyStep
        ):  # each sheet's operation was accounted for when it was planned (a question back reads none)
            return steps, reasoning, intent
        sheet_id = step.op.sheet_id if isinstance(step, TableStep) else getattr(step, "sheet_id", None)
        sheet = sheets.get(sheet_id) if isinstance(sheet_id, int) else None
        left = lines_left_out(question, step, sheet) if isinstance(step, CellsStep) and sheet is not None else []
        if left:
            named = "; ".join(f"“{label}”" for label in left)
            reason = (
                f"I read this as {step.reason.rstrip('. ')}, but the question also names {named}, which it does not "
                "read, so it gives no figure."
            )
            search = SearchStep(query=question, reason=reason, rows=False)
            return [search], reason, SEARCH
        if isinstance(step, CellsStep) and step.read_whole:  # its reading bound every word already
            return steps, reasoning, intent
        if isinstance(step, CellsStep) and month_range(question):
            # "Jul through Sep": a statement rule reads the two months named, not the months between them
            reason = (f"I read this as {step.reason.rstrip('. ')}, but the question names a range of periods, which "
                      "this reading takes as its two ends, so it gives no figure.")  # fmt: skip
            search = SearchStep(query=question, reason=reason, rows=False)
            return [search], reason, SEARCH
        binding = bind(question, step, sheet) if sheet is not None and sheet.page is None else None
        if binding is None:
            continue
        if isinstance(step, TableStep) and sheet is not None and not binding.blocking:
            binding = replace(binding, blocking=tuple(other_sheets_named(binding, sheet, schema.sheets)))
        if (
            isinstance(step, TableStep)
            and sheet is not None
            and all(why.startswith(ALIKE) for _, why in binding.blocking)
        ):
            clarify = _columns_back(question, binding, step, sheet)
            if clarify is not None:  # a question back instead of a guess between columns named alike
                return [clarify], f"{clarify.reason} {binding.text()}", CLARIFY
        if binding.blocking:
            search = SearchStep(query=question, reason=unread_reason(step.reason, binding), rows=False)
            return [search], f"{search.reason} {binding.text()}", SEARCH
        return steps, f"{reasoning} {binding.text()}", intent
    return steps, reasoning, intent


def _columns_back(question: str, binding: Binding, step: TableStep, sheet: SheetInfo) -> ClarifyStep | None:
    """The question back when a word names two or more columns of figures alike ("how many units of X": Qty On Hand
    or Qty Avail): each option is the question with one column named (asked again, it binds that column)."""
    word, alike = measured_alike(question, binding.bound, step.op, sheet)
    if len(alike) < 2 or not binding.blocking:
        return None
    asked = question.strip().rstrip("?").rstrip()
    options = [Choice(label=f"{name} ({sheet.label})", question=f"{asked} — {name}?") for name in alike[:MAX_CHOICES]]
    names = "; ".join(alike[:MAX_CHOICES])
    return ClarifyStep(
        options=options, reason=f"“{word}” names {len(alike)} columns alike ({names}): which is meant is asked."
    )


def _search_reason(weak: bool, documents: bool, beyond: bool) -> str:
    """Why the passages are searched, in one sentence."""
    if documents:
        return "Search the passages: the question points at the documents."
    if beyond:
        return "Search the passages: no sheet column holds what is asked."
    if weak:
        return "Search the passages and rows: no sheet column or value clearly matches the question."
    return "Search the passages too."


def _names_document(question: Question, schema: RoomSchema) -> bool:
    """Whether the question names a PDF by a distinctive word of its title."""
    for _, title in schema.documents:
        stem = re.sub(r"\.[a-z0-9]+$", "", title.lower())
        words = [w for w in words_of(stem) if len(w) > 3 and w not in STOP]
        if any(w in question.words for w in words):
            return True
    return False


def _asks_beyond_columns(question: Question, link: Link) -> bool:
    """ "Who is the CEO of Harvestquay?": the thing asked for ("CEO") names no column of the sheet."""
    start, end = question.head
    words = [w for w in question.words[start:end] if w not in AGGREGATE_WORDS]
    if not words or question.wh not in ("what", "which", "who", "whom", "how many", "how much", "number of"):
        return False
    if question.wh in ("who", "whom") and question.words[end : end + 1] != ["of"]:
        return False  # "who led the most rounds?" asks for a row's name
    covered = {i for m in link.columns for i in range(m.start, m.end)} | {
        i for v in link.values for i in range(v.start, v.end)
    }
    return not any(i in covered for i in range(start, end))


def _rewrite(question: str, previous: str, schema: RoomSchema) -> str:
    """The previous question with the follow-up's new values put in place of the old ones."""
    prev_q = read_question(previous)
    new_q = read_question(question)
    text = previous
    # "the year before" / "the year after": shift the previous question's year.
    shift = _YEAR_SHIFT_RE.search(question)
    if shift:
        direction = (shift.group(1) or shift.group(2) or shift.group(4) or "").lower()
        delta = -1 if direction in ("before", "earlier", "previous", "prior") else 1
        years = [w for w in prev_q.words if YEAR_RE.fullmatch(w)]
        if years:
            old = years[-1]
            return re.sub(rf"\b{old}\b", str(int(old) + delta), text, count=1)
    changed = False
    for sheet in (s for s in schema.sheets if s.page is None):
        new_link = link_sheet(new_q, sheet)
        old_link = link_sheet(prev_q, sheet)
        for mention in new_link.values:
            earlier = next((m for m in old_link.values if m.column.position == mention.column.position), None)
            new_words = _question_words(question, mention, new_q)
            if earlier is not None:
                old_text = _span_text(previous, prev_q, earlier)
                if old_text:
                    text = _replace_words(text, old_text, new_words)
                    changed = True
                    continue
            text = _append(text, f"for {new_words}")
            changed = True
        if changed:
            break
    # A new year replaces the old one ("and in 2020?").
    new_years = [w for w in new_q.words if YEAR_RE.fullmatch(w)]
    old_years = [w for w in prev_q.words if YEAR_RE.fullmatch(w)]
    if new_years:
        if old_years:
            text = re.sub(rf"\b{old_years[-1]}\b", new_years[-1], text, count=1)
        else:
            text = _append(text, f"in {new_years[-1]}")
        changed = True
    if not changed:
        # Nothing to substitute: keep the conversation's subject with the new words.
        return f"{previous.rstrip(' ?.')} — {question}"
    return text


def _question_words(question: str, mention: ValueMention, read: Question) -> str:
    """The words of the question a mention spans, as the user wrote them (the value itself if exact)."""
    if mention.exact and len(mention.values) == 1:
        return mention.values[0]
    return _span_text(question, read, mention) or " ".join(read.words[mention.start : mention.end])


def _span_text(text: str, read: Question, mention: ValueMention) -> str:
    """The original text of a mention's words (found again, case- and punctuation-insensitively)."""
    words = read.words[mention.start : mention.end]
    pattern = r"\W+".join(re.escape(w) for w in words)
    found = re.search(rf"(?<!\w){pattern}(?!\w)", fold(text))
    if found is None:
        return ""
    folded = fold(text)
    # fold keeps lengths except for dropped accents and "'s"; fall back to the folded words then.
    if len(folded) == len(text):
        return text[found.start() : found.end()]
    return found.group(0)


def _replace_words(text: str, old: str, new: str) -> str:
    return re.sub(rf"(?<!\w){re.escape(old)}(?!\w)", new.replace("\\", "\\\\"), text, count=1, flags=re.IGNORECASE)


def _append(text: str, words: str) -> str:
    stripped = text.rstrip()
    end = stripped[-1] if stripped and stripped[-1] in "?.!" else ""
    body = stripped[:-1] if end else stripped
    return f"{body} {words}{end}"
