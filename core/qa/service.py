"""The QA service: one question -> plan -> evidence -> answer, as a stream of events, logged."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import replace
from typing import Any, Literal, Protocol

import psycopg
from psycopg.types.json import Jsonb
from pydantic import BaseModel, ConfigDict

from core.config import Settings
from core.db import Database, q, returned
from core.errors import BadInput, ConversationNotFound, ModelError
from core.ingest.filing import parse_period
from core.inputs import MAX_QUESTION_CHARS, checked_text
from core.lexicon.drivers import CAUSE_WORDS, MOVE_NOUNS, MOVE_VERBS, PART_WORDS
from core.providers.embeddings import Embedder
from core.qa.grounding import missing_names, question_names
from core.qa.measures import measure_queries, measures_held, unlinked_measures
from core.qa.metrics import metric_queries, metrics_held, unlinked_metrics
from core.qa.passage_drivers import line_of, section
from core.qa.pii import caught, redact_citation, redact_stored
from core.qa.planner import OfflinePlanner, Planner, RoomSchema, load_schema
from core.qa.planner.changes import asks_driver, direction_asked, topic, yes_no_asked
from core.qa.planner.intents import MEASURE_MISSING
from core.qa.planner.periods import FilingPeriod, FilingScope, PeriodAsked, filings_for, read_period
from core.qa.planner.sheets import naming_words
from core.qa.planner.statements import RELATIVE, statement_cells
from core.qa.rerank import hints_for, model_scorer
from core.qa.synth import ABSTAIN, Answer, OfflineSynthesizer, Synthesizer
from core.retrieval.cellmath import CellsStep
from core.retrieval.plan import AcrossStep, ClarifyStep, Plan, RowMathStep, SearchStep, ShareStep, TableStep
from core.retrieval.retriever import Evidence, retrieve
from core.retrieval.tables import TableOp, load_sheet, run_table_op
from core.rooms.ratelimit import check_and_count
from core.rooms.store import RoomRef
from core.text import STOP_WORDS

log = logging.getLogger(__name__)


class Context(Protocol):
    """What answering uses of the workbench (core.workbench.Workbench is one): the settings, the database acting
    for the signed-in user, the embedder (loaded on first use) and a room looked up by name."""

    @property
    def settings(self) -> Settings: ...

    @property
    def db(self) -> Database: ...

    @property
    def embedder(self) -> Embedder: ...

    def room(self, name: str) -> RoomRef: ...


class Event(BaseModel):
    """One thing that happened while answering: step, plan, evidence, token or done."""

    model_config = ConfigDict(frozen=True)

    type: Literal["step", "plan", "evidence", "token", "done"]
    text: str = ""
    plan: Plan | None = None
    evidence: list[Evidence] = []
    answer: Answer | None = None
    result: dict[str, Any] | None = None  # on done: the `workbench ask --json` object


def _conversation(
    wb: Context, room_id: int, conversation_id: int | None, question: str
) -> tuple[int, list[tuple[str, str]]]:
    with wb.db.connection() as conn:
        if conversation_id is None:
            row = returned(
                conn.execute(
                    q("create_conversation"),
                    # The title is listed beside the room like the log: PII redacted as the log is.
                    {"room_id": room_id, "user_id": wb.db.user_id, "title": _logged(wb, question)[:120]},
                )
            )
            return int(row[0]), []
        found = conn.execute(q("conversation_room"), {"id": conversation_id}).fetchone()
        if found is None or found[0] != room_id:
            raise ConversationNotFound(
                f"Conversation {conversation_id} is not in this room: leave out --conversation to start one."
            )
        turns = [(r[0], r[1]) for r in conn.execute(q("conversation_turns"), {"id": conversation_id})]
    return conversation_id, turns


def providers(
    wb: Context, planner: Planner | None = None, synthesizer: Synthesizer | None = None
) -> tuple[Planner, Synthesizer]:
    """The configured planner and synthesizer (WORKBENCH_LLM, else openai when OPENAI_API_KEY is set)."""
    if wb.settings.llm_provider == "openai":
        from core.qa.llm_planner import LLMPlanner
        from core.qa.llm_synth import LLMSynthesizer

        def check_op(op: TableOp) -> None:
            # A model's table step must run before it is accepted: its error goes back to the model.
            run_table_op(load_sheet(wb.db, op.sheet_id), op)

        return (planner or LLMPlanner(wb.settings, check_op=check_op),
                synthesizer or LLMSynthesizer(wb.settings))  # fmt: skip
    return planner or OfflinePlanner(), synthesizer or OfflineSynthesizer()


def _table_labels(plan: Plan, schema: RoomSchema) -> list[str]:
    """The rows the plan's table steps pick by name with the columns they read ("Asset Land 2022": the Land row's
    2022), and the sheet's name and file (what its rows are: "customers.csv")."""
    sheets = {sheet.sheet_id: sheet for sheet in schema.sheets}
    labels = []
    for step in plan.steps:
        if isinstance(step, RowMathStep):  # the two columns and the words read as their product or comparison
            sheet = sheets.get(step.op.sheet_id)
            where = [sheet.name, sheet.title] if sheet is not None else []
            labels.append(" ".join([step.first, step.second, *step.reads, *where]))
        if not isinstance(step, TableStep | AcrossStep | ShareStep):
            continue
        op = step.op
        named = [
            f"{f.column} {' '.join(map(str, f.value)) if isinstance(f.value, list) else f.value}"
            for f in op.filters
            if f.op in ("eq", "in")
        ]
        if named:
            read = [*op.select, *([op.aggregate.column] if op.aggregate and op.aggregate.column else [])]
            sheet = sheets.get(op.sheet_id)
            where = [sheet.name, sheet.title] if sheet is not None and sheet.page is None else []
            labels.append(" ".join([*named, *read, *where]))
    return labels


def _cell_places(plan: Plan, schema: RoomSchema, *, table: bool = True) -> list[str]:
    """Where the plan's cell steps read: each cell's line items and columns ("Net Income per Share: Basic",
    "2019") with the heading of its section (the nearest line above with no figures) and, with `table`, its
    sheet's name (a PDF table's heading) and columns. The "Total" line under "Assets not allocated:" holds total
    assets; a "Cost of products sold" line holds no cost of sales, however many other lines of its page say
    "sales"."""
    sheets = {sheet.sheet_id: sheet for sheet in schema.sheets}
    places = []
    for step in plan.steps:
        sheet = sheets.get(step.sheet_id) if isinstance(step, CellsStep) else None
        if not isinstance(step, CellsStep) or sheet is None:
            continue
        headings = []
        rows = list(sheet.grid)
        for row_id in (step.row_id, step.other_row_id):
            at = next((i for i, row in enumerate(rows) if row.row_id == row_id), None)
            above = rows[:at] if at is not None else []
            heading = next((r for r in reversed(above) if r.values and not any(v for v in r.values[1:])), None)
            if heading is not None and heading.values[0]:
                headings.append(heading.values[0])
        place = [step.row_label, step.other_label, *step.column_labels, *headings]

        if sheet.page is None:  # a workbook's tab the question names ("the planned revenue": the Plan tab)
            place += naming_words(plan.standalone_question, sheet)
        if table:  # the sheet's name: a PDF table's page and heading ("p2 ASSETS ALLOCATED TO SEGMENTS"), or a tab
            place += [sheet.name, *(c.name for c in sheet.columns)]
        places.append(" ".join(place))
    return places


# The steps saying a metric or measure the question names is not in the room, or not in what was retrieved.
UNLINKED = "This room has no column or passage about"
UNHELD = "No passage found names"
# How many passages and rows naming what is asked each search step gathers when none of those retrieved names it.
FOCUS_DEPTH = 40
# The pages a driver or yes/no question reads whole (see _whole_pages): its first pages found.
WHOLE_PAGES = 5
# The passages naming the line and a reason's word a driver question gathers besides (see _stating).
STATING_DEPTH = 8


def _holders(wb: Context, question: str, evidence: list[Evidence]) -> dict[str, set[int]]:
    """Each metric and measure `question` names -> the positions of the pieces of `evidence` that hold it."""
    texts = [e.content for e in evidence]
    passages = [None if e.kind == "row" else e.content for e in evidence]
    rows = [e.content if e.kind == "row" else None for e in evidence]
    return {**metrics_held(wb.db, question, texts), **measures_held(wb.db, question, passages, rows)}


# The nouns naming a part of the company by its segment ("segment", "division"; not "business", as in "business
# development expense") in a driver question.
_PART_NOUN = re.compile(
    rf"\b(?:{'|'.join(w for w in PART_WORDS if w.startswith(('segment', 'division')))})(?![\w'])", re.IGNORECASE
)


def _focused(wb: Context, question: str, evidence: list[Evidence], most: int) -> tuple[list[Evidence], list[str]]:
    """The pieces of `evidence` (passages and rows) that hold every metric and measure `question` names, at most
    `most` of them, renumbered from 1 (all of them when no piece holds every one), and the names no piece holds."""
    holders = _holders(wb, question, evidence)
    unheld = [name for name, at in holders.items() if not at]
    if unheld or not holders:
        return evidence, unheld
    every = set.intersection(*holders.values())
    kept = [e for i, e in enumerate(evidence) if i in every][:most] or evidence
    return [e.model_copy(update={"n": n}) for n, e in enumerate(kept, start=1)], []


def _naming(wb: Context, question: str, names: list[str]) -> str:
    """A tsquery's text that passages naming each of `names` (metrics and measures `question` names) match."""
    queries = {**metric_queries(wb.db, question), **measure_queries(wb.db, question)}
    parts = [queries.get(name, "") for name in names]
    return " & ".join(f"({part})" for part in parts) if all(parts) else ""


def _whole_pages(plan: Plan) -> Plan:
    """`plan` with its search steps reading their first WHOLE_PAGES pages whole when the question asks what drove
    a change or whether a line rose: the sentence stating it may sit in a page's passage after a table, beside a
    passage that ranked the page (core.qa.passage_drivers reads them all)."""
    question = plan.standalone_question
    if not (asks_driver(question) or yes_no_asked(question) is not None):
        return plan
    steps = [s.model_copy(update={"whole_pages": WHOLE_PAGES}) if isinstance(s, SearchStep) else s for s in plan.steps]
    return plan.model_copy(update={"steps": steps})


def _deeper(plan: Plan) -> Plan:
    """`plan` with each search step gathering FOCUS_DEPTH passages and rows."""
    steps = [s.model_copy(update={"k": max(s.k, FOCUS_DEPTH)}) if isinstance(s, SearchStep) else s for s in plan.steps]
    return plan.model_copy(update={"steps": steps})


def _evidence(
    wb: Context, ref: RoomRef, plan: Plan, schema: RoomSchema, step: Callable[[str], Event]
) -> Generator[Event, None, list[Evidence]]:
    """The plan's evidence, yielding a step for each reason it has none; returns the evidence."""
    embedder = wb.embedder if ref.embedding_model else None
    # A question naming something the room never mentions (another company, a person) cannot be answered
    # here, however well its other words match; an exact cell step has already matched the room's grid.
    missing = (
        [] if any(s.kind == "cells" for s in plan.steps) else missing_names(wb.db, ref.id, plan.standalone_question)
    )
    # Likewise a metric the room holds in no wording (EBITDA in a room of revenue figures): answering from
    # the columns its other words match would cite a figure of another metric.
    # And a measure named by a compound the room never prints ("net promoter score"): its words one by one are
    # on every page.
    # A measure step reads the question's measure through the registry, every input bound to a cell (its words
    # were checked in planning: core/qa/planner/measures.py), "CAGR" and "steady" included: nothing unlinked.
    measured = any(isinstance(s, CellsStep) and (s.operation == "measure" or s.read_whole) for s in plan.steps)
    # a driver of a part's line ("the Retail segment's SG&A") asks of the line: the part's own passages are read
    # under its heading (core.qa.passage_drivers), and "segment SG&A" is no measure the room must print
    asked = plan.standalone_question
    asked = _PART_NOUN.sub(" ", asked) if asks_driver(asked) else asked
    unlinked = (
        []
        if missing or measured
        else unlinked_metrics(wb.db, ref.id, asked, _cell_places(plan, schema))
        or unlinked_measures(
            wb.db, ref.id, asked, _cell_places(plan, schema, table=False) + _table_labels(plan, schema)
        )
    )
    if missing:
        yield step(f"This room never mentions {', '.join(missing)}: nothing to answer from")
        return []
    if unlinked:
        yield step(f"{UNLINKED} {', '.join(unlinked)}")
        return []
    hints = hints_for(wb.db, ref.id, plan.standalone_question) if wb.settings.rerank != "off" else None
    plan = _whole_pages(plan)
    evidence = retrieve(wb.db, ref, plan, embedder=embedder, rerank=hints, scorer=model_scorer(wb.settings))
    if not evidence or any(e.kind == "table" for e in evidence):
        return evidence
    # The room holding a metric somewhere ("cost of funding" in a risk factor) does not make the passages
    # retrieved about it: when they are the answer (no table step computed it), the answer is drawn from those
    # that hold what the question names, searched for further when none does; found nowhere, it abstains.
    focused, unheld = _focused(wb, asked, evidence, len(evidence))
    if unheld:  # the room's passages that name them, ranked by the question's words
        within = _naming(wb, asked, unheld)
        deeper = retrieve(wb.db, ref, _deeper(plan), embedder=embedder, within=within) if within else []
        focused, unheld = _focused(wb, asked, deeper, len(evidence))
    if unheld:
        yield step(f"{UNHELD} {', '.join(unheld)}: nothing to answer from")
        return []
    found = _sectioned(wb, plan.standalone_question, focused + _stating(wb, ref, plan, focused))
    return found + _premise(wb, ref, plan, schema, len(found))


def _premise(wb: Context, ref: RoomRef, plan: Plan, schema: RoomSchema, numbered: int) -> list[Evidence]:
    """For a question asking what drove a change of one direction ("What drove the increase in revenue in FY2027?"):
    the line's change between its statement columns, from the filings in scope, marked `premise` (numbered after
    `numbered`): no answer by itself, but when no sentence gives the reason, or the filing states the move the other
    way, the answer says which way the line went ("Revenue fell, not rose: … [n]")."""
    question = plan.standalone_question
    way = direction_asked(question)
    if not asks_driver(question) or way is None or not (subject := topic(question)):
        return []
    if RELATIVE.search(subject.lower()):
        return []  # a rate, margin or share ("SG&A as a percent of sales") moves apart from its amount's line
    asked = read_period(question)
    whose = question_names(question)
    owner = f"{whose[0]}'s " if whose else ""
    checked = (
        f"Did {owner}{subject} {'increase' if way == 'up' else 'decrease'}{f' in {asked.label}' if asked else ''}?"
    )
    scope = {d for s in plan.steps if isinstance(s, SearchStep) for d in s.document_ids}
    sheets = tuple(sheet for sheet in schema.sheets if not scope or sheet.document_id in scope)
    found = statement_cells(checked, replace(schema, sheets=sheets))
    if found is None:
        return []
    try:
        computed = retrieve(wb.db, ref, plan.model_copy(update={"steps": [found[0]]}), embedder=None)
    except (LookupError, ValueError, ArithmeticError):
        return []  # a cell edited away since the schema was read: no premise to check
    return [e.model_copy(update={"n": numbered + 1, "premise": True}) for e in computed[:1] if e.kind == "table"]


def _words_of(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in STOP_WORDS]


def _sectioned(wb: Context, question: str, evidence: list[Evidence]) -> list[Evidence]:
    """For a question asking what drove a change: each passage with the segment whose part of its filing's
    discussion it sits in (`Evidence.section`), read from the text before it on its page and the page before
    (core.qa.passage_drivers.section): "Our revenue decreased …" under "Domestic Segment" is that segment's."""
    if not asks_driver(question):
        return evidence
    cited = [c for e in evidence if e.kind == "passage" and e.citations for c in e.citations[:1]]
    keys = {(c.document_id, p) for c in cited if c.page and c.start_char is not None for p in (c.page - 1, c.page)}
    if not keys:
        return evidence
    with wb.db.connection() as conn:
        rows = conn.execute(q("page_texts"), {"docs": [d for d, _ in keys], "pages": [p for _, p in keys]}).fetchall()
    text = {(int(d), int(p)): t or "" for d, p, t in rows}
    out = []
    for e in evidence:
        c = e.citations[0] if e.citations else None
        if e.kind == "passage" and c is not None and c.page and c.start_char is not None:
            before = text.get((c.document_id, c.page), "")[: c.start_char]
            e = e.model_copy(update={"section": section(f"{text.get((c.document_id, c.page - 1), '')}\n{before}")})
        out.append(e)
    return out


def _stating(wb: Context, ref: RoomRef, plan: Plan, evidence: list[Evidence]) -> list[Evidence]:
    """For a question asking what drove a line's change: the passages of the plan's documents holding the line's
    words and a word of a reason ("due", "driven", "primarily" …), ranked by the question's words, numbered after
    `evidence` and not in it. The sentence stating the driver may be on a page the search ranked low (an overview's
    "Member loans increased 22 percent, driven by …" below pages of risk factors naming loans)."""
    question = plan.standalone_question
    if not asks_driver(question):
        return []
    subject = topic(question)
    words = _words_of(subject)
    if not words:
        return []
    cause = f"({' | '.join(CAUSE_WORDS)})"
    with wb.db.connection() as conn:
        # the line's name as a phrase, its small words kept in place ("cost of sales")
        name = returned(conn.execute(q("wordings_query_text"), {"wordings": [subject]}))[0] or " <-> ".join(words)
        # first the passages where the name stands just before a verb of change ("Card Member loans increased") or
        # just after a noun of one ("The decrease in revenue was …"), then any holding its words and a reason's
        queries = [
            f"(({name}) <-> ({' | '.join(MOVE_VERBS)}) | ({' | '.join(MOVE_NOUNS)}) <2> ({name})) & {cause}",
            f"{' & '.join(words)} & {cause}",
        ]
        # a part's line ("Retail segment revenue"): also its pages under the part's heading, read whole, where "Our
        # revenue decreased …" names no part (each passage is read with its section: `_sectioned`)
        line = _words_of(line_of(subject))
        queries += [f"{' & '.join(line)} & {cause}"] if line != words else []
        withins = [returned(conn.execute(q("query_text"), {"query": query}))[0] or "" for query in queries]
    found = []
    for i, within in enumerate(withins):
        steps = [
            s.model_copy(update={"k": STATING_DEPTH, "whole_pages": STATING_DEPTH if i == 2 else 0, "rows": False})
            for s in plan.steps
            if isinstance(s, SearchStep)
        ]
        found += (
            retrieve(wb.db, ref, plan.model_copy(update={"steps": steps}), embedder=None, within=within)
            if within
            else []
        )
    held = {(c.document_id, c.page, c.chunk_index) for e in evidence for c in e.citations}
    extra = []
    for e in found:
        place = (e.citations[0].document_id, e.citations[0].page, e.citations[0].chunk_index)
        if place not in held:
            held.add(place)
            extra.append(e)
    return [e.model_copy(update={"n": len(evidence) + i}) for i, e in enumerate(extra, start=1)]


# How a question back begins (the chat page tells it from an abstention by it).
CLARIFY_LEAD = "The question reads more than one way here:"


def _said_abstention(plan: Plan, lacking: FilingScope | None) -> tuple[str, str] | None:
    """The step shown and the sentence said after the abstention when the product itself abstains: the room's
    filings lack the period asked, or a measure's input is in none of its statements (no ingredient is given as
    the measure); None when the evidence is gathered and the synthesizer answers."""
    if plan.intent == MEASURE_MISSING and not plan.steps:
        return plan.reasoning, plan.reasoning
    if lacking is not None:
        held = ", ".join(lacking.held)
        return (f"This room's filings cover {held}: none covers {lacking.missing}",
                f"Its filings cover {held}, not {lacking.missing}.")  # fmt: skip
    return None


def question_back(clarify: ClarifyStep) -> str:
    """The answer that asks which reading is meant, each named."""
    listed = "; ".join(f"({i}) {o.label}" for i, o in enumerate(clarify.options, start=1))
    return f"{CLARIFY_LEAD} {listed}. Which did you mean?"


def _period_asked(question: str, period: str | None) -> PeriodAsked | None:
    """The period a question is scoped to: `period` when given ("FY2022", "Q3 FY2023"), else its own words."""
    if period:
        read = parse_period(period)
        if read is None:
            raise BadInput(f"{period!r} is not a period: write it as FY2022, Q3 FY2023 or fiscal 2022.")
        return PeriodAsked((read[0],), quarter=read[1])
    return read_period(question)


def _scoped(
    wb: Context, ref: RoomRef, plan: Plan, documents: Sequence[int], period: str | None
) -> tuple[Plan, FilingScope | None]:
    """`plan` with its search steps limited to the documents given, else to the filings of the period asked
    (core/qa/planner/periods.py); and that scope (its `missing` says the room lacks the period asked)."""
    asked = _period_asked(plan.standalone_question, period)
    scope: FilingScope | None = None
    if asked is not None:
        with wb.db.connection() as conn:
            rows = conn.execute(q("room_filing_periods"), {"room_id": ref.id}).fetchall()
        scope = filings_for(asked, [FilingPeriod(*row) for row in rows])
    only = list(documents) or (list(scope.documents) if scope is not None else [])
    if not only:
        return plan, scope
    steps = [
        s.model_copy(update={"document_ids": [d for d in s.document_ids if d in only] or only})
        if isinstance(s, SearchStep)
        else s
        for s in plan.steps
    ]
    return plan.model_copy(update={"steps": steps}), scope


def ask(
    wb: Context,
    question: str,
    room: str,
    *,
    conversation_id: int | None = None,
    planner: Planner | None = None,
    synthesizer: Synthesizer | None = None,
    documents: Sequence[int] = (),
    period: str | None = None,
) -> Iterator[Event]:
    """Answer `question` in `room` from its documents alone, yielding events; the last is `done`.

    When the model fails while writing the answer, the answer is written offline from the same evidence and
    says so (result "note", qa_queries.error): a model outage is not a dead chat. `documents` and `period`
    ("FY2022") limit the passages searched to those documents, or to the filings of that period; a question
    naming a fiscal period the room's filings lack abstains naming the periods they cover.
    """
    started = time.perf_counter()
    question = checked_text(question, "question", max_chars=MAX_QUESTION_CHARS)
    ref = wb.room(room)
    if wb.settings.rate_limit:  # the size and window are the database owner's (`workbench limits`)
        check_and_count(wb.db)  # RateLimited says when to ask again
    planner, synthesizer = providers(wb, planner, synthesizer)
    conversation_id, history = _conversation(wb, ref.id, conversation_id, question)
    trace: list[str] = []  # the lines a page shows while answering, logged so a reopened conversation shows them

    def step(text: str) -> Event:
        trace.append(f"- {text}")
        return Event(type="step", text=text)

    yield step("Reading the room's sheets and documents")
    schema = load_schema(wb.db, ref.id)
    plan = planner.plan(question, schema, history)
    if plan.reasoning:
        trace.append(plan.reasoning)
    plan, scope = _scoped(wb, ref, plan, documents, period)
    # The period asked beside the question (`--period`): the answer's passages are of it, labelled with it.
    beside = _period_asked("", period) if period else None
    yield Event(type="plan", text=plan.reasoning, plan=plan)
    for planned in plan.steps:
        yield step(planned.reason or planned.kind)
    # A statement's cells step found the period in its columns: the room holds it, whatever its covers say.
    computed = any(isinstance(s, CellsStep | TableStep | AcrossStep | ShareStep | RowMathStep) for s in plan.steps)
    lacking = None if documents or computed or scope is None or scope.missing is None else scope
    clarify = next((s for s in plan.steps if isinstance(s, ClarifyStep)), None)
    said = _said_abstention(plan, lacking) if clarify is None else (clarify.reason, question_back(clarify))
    if said is not None:  # said here, not by a model: the room lacks the period asked, or a measure's input
        yield step(said[0])
        evidence: list[Evidence] = []
    else:
        evidence = yield from _evidence(wb, ref, plan, schema, step)
    retrieval_ms = (time.perf_counter() - started) * 1000
    trace.append(f"- {len(evidence)} piece{'s' if len(evidence) != 1 else ''} of evidence found")
    yield Event(type="evidence", evidence=evidence)
    if synthesizer.name != "offline":
        yield step(f"Writing the answer ({synthesizer.name})")
    answer: Answer | None = None
    first_token_ms: float | None = None
    parts: list[str] = []
    note: str | None = None
    try:
        if said is not None:
            # a question back is no abstention's sentence: it asks which reading is meant
            answer = Answer(text=said[1] if clarify else f"{ABSTAIN} {said[1]}", abstained=True)
            parts.append(answer.text)
            yield Event(type="token", text=answer.text)
        for item in () if said is not None else synthesizer.stream(plan.standalone_question, evidence, asked=question,
                                                                   period=beside):  # fmt: skip
            if isinstance(item, Answer):
                answer = item
                continue
            if first_token_ms is None:
                first_token_ms = (time.perf_counter() - started) * 1000
            parts.append(item)
            yield Event(type="token", text=item)
    except ModelError as exc:
        log.warning("Answer failed for query in room %s: %s", room, exc)
        note = f"{exc} This answer was written offline from the same evidence."
        yield step(f"The model failed; writing the answer offline. {exc}")
        offline = OfflineSynthesizer()
        synthesizer, answer = offline, None
        if parts:  # what the model had streamed stays on screen above the offline answer
            yield Event(type="token", text="\n\n")
        for item in offline.stream(plan.standalone_question, evidence, asked=question, period=beside):
            if isinstance(item, Answer):
                answer = item
                continue
            yield Event(type="token", text=item)
    assert answer is not None, "a synthesizer ends its stream with the Answer"
    first_token_ms = first_token_ms if first_token_ms is not None else (time.perf_counter() - started) * 1000
    total_ms = (time.perf_counter() - started) * 1000
    query_id = _log(
        wb,
        ref.id,
        conversation_id,
        question,
        plan,
        answer,
        evidence,
        model=synthesizer.name,
        retrieval_ms=retrieval_ms,
        first_token_ms=first_token_ms,
        total_ms=total_ms,
        error=note,
        steps=trace,
    )
    result = {
        "answer": answer.text,
        "values": answer.values,
        "abstained": answer.abstained,
        "citations": [c.model_dump(mode="json") for c in answer.citations],
        "steps": [step.model_dump(mode="json") for step in plan.steps],
        "plan": plan.reasoning,
        "planner": plan.planner,
        "intent": plan.intent,
        "model": synthesizer.name,
        "timings": {
            "retrieval_ms": round(retrieval_ms, 1),
            "first_token_ms": round(first_token_ms, 1),
            "total_ms": round(total_ms, 1),
        },
        "query_id": query_id,
        "conversation_id": conversation_id,
        "note": note,
        # a question back: the readings to choose from, each with the question that asks it (one click answers)
        "clarify": [o.model_dump(mode="json") for o in clarify.options] if clarify else [],
    }
    yield Event(type="done", answer=answer, result=result)


def _logged(wb: Context, text: str, seen: Sequence[tuple[str, str]] = ()) -> str:
    """The stored copy of a question, answer, plan step or title: PII redacted when WORKBENCH_REDACT_PII (documents
    and the user's own conversation keep it), with the values `seen` in the question however written again."""
    return redact_stored(text, seen=seen) if wb.settings.redact_pii else text


def _insert_query(conn: psycopg.Connection[Any], wb: Context, *, question: str, **fields: Any) -> int:
    """One qa_queries row for the current user, the question redacted as the settings say; its id."""
    row = returned(
        conn.execute(q("insert_query"), {"user_id": wb.db.user_id, "question": _logged(wb, question), **fields})
    )
    return int(row[0])


def _log(
    wb: Context,
    room_id: int,
    conversation_id: int,
    question: str,
    plan: Plan,
    answer: Answer,
    evidence: list[Evidence],
    *,
    model: str,
    retrieval_ms: float,
    first_token_ms: float,
    total_ms: float,
    error: str | None = None,
    steps: list[str] | None = None,
) -> int:
    """Store the turn and the query log in one transaction (`error`: a model failure the answer recovered from)."""
    citations = [c.model_dump(mode="json") for c in answer.citations]
    seen = caught(question) if wb.settings.redact_pii else []  # caught in the answer, steps and citations too
    with wb.db.connection() as conn:
        conn.execute(
            q("insert_message"),
            {"conversation_id": conversation_id, "role": "user", "content": question, "citations": Jsonb([])},
        )
        conn.execute(
            q("insert_message"),
            {
                "conversation_id": conversation_id,
                "role": "assistant",
                "content": answer.text,
                "citations": Jsonb(citations),
            },
        )
        query_id = _insert_query(
            conn, wb, room_id=room_id, conversation_id=conversation_id, question=question,
            answer=_logged(wb, answer.text, seen), abstained=answer.abstained, error=error, planner=plan.planner,
            model=model, retrieval_ms=retrieval_ms, first_token_ms=first_token_ms, total_ms=total_ms,
            context_chars=sum(len(e.content) for e in evidence), n_citations=len(citations),
            steps=Jsonb([_logged(wb, line, seen) for line in steps or []]),
        )  # fmt: skip
        with conn.cursor() as cur:
            cur.executemany(
                q("insert_query_citation"),
                [
                    {
                        "query_id": query_id,
                        "position": i,
                        "kind": c["kind"],
                        "document_id": c["document_id"],
                        "citation": Jsonb(redact_citation(c, seen=seen) if wb.settings.redact_pii else c),
                    }
                    for i, c in enumerate(citations)
                ],
            )
    return query_id
