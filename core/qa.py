"""The QA service: one question -> plan -> evidence -> answer, as a stream of events, logged."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Literal

from psycopg.types.json import Jsonb
from pydantic import BaseModel, ConfigDict

from core.db import q
from core.errors import WorkbenchError
from core.plan import Plan
from core.planner import OfflinePlanner, Planner, load_schema
from core.retriever import Evidence, retrieve
from core.synth import Answer, synthesize_offline

if TYPE_CHECKING:
    from core.workbench import Workbench


class Event(BaseModel):
    """One thing that happened while answering: step, plan, evidence, token or done."""

    model_config = ConfigDict(frozen=True)

    type: Literal["step", "plan", "evidence", "token", "done"]
    text: str = ""
    plan: Plan | None = None
    evidence: list[Evidence] = []
    answer: Answer | None = None
    result: dict[str, Any] | None = None  # on done: the `workbench ask --json` object


class ConversationNotFound(WorkbenchError):
    """The conversation id does not exist in this room."""


def _conversation(wb: Workbench, room_id: int, conversation_id: int | None, question: str) -> tuple[int, list[tuple[str, str]]]:
    with wb.db.connection() as conn:
        if conversation_id is None:
            row = conn.execute(q("create_conversation"),
                               {"room_id": room_id, "user_id": None, "title": question[:120]}).fetchone()
            return int(row[0]), []
        found = conn.execute(q("conversation_room"), {"id": conversation_id}).fetchone()
        if found is None or found[0] != room_id:
            raise ConversationNotFound(
                f"Conversation {conversation_id} is not in this room: leave out --conversation to start one."
            )
        turns = [(r[0], r[1]) for r in conn.execute(q("conversation_turns"), {"id": conversation_id})]
    return conversation_id, turns


def ask(wb: Workbench, question: str, room: str, *, conversation_id: int | None = None,
        planner: Planner | None = None) -> Iterator[Event]:
    """Answer `question` in `room` from its documents alone, yielding events; the last is `done`."""
    started = time.perf_counter()
    ref = wb.room(room)
    planner = planner or OfflinePlanner()
    conversation_id, history = _conversation(wb, ref.id, conversation_id, question)
    yield Event(type="step", text="Reading the room's sheets and documents")
    plan = planner.plan(question, load_schema(wb.db, ref.id), history)
    yield Event(type="plan", text=plan.reasoning, plan=plan)
    for step in plan.steps:
        yield Event(type="step", text=step.reason or step.kind)
    embedder = wb.embedder if ref.embedding_model else None
    evidence = retrieve(wb.db, ref, plan, embedder=embedder)
    retrieval_ms = (time.perf_counter() - started) * 1000
    yield Event(type="evidence", evidence=evidence)
    answer = synthesize_offline(plan.standalone_question, evidence)
    first_token_ms = (time.perf_counter() - started) * 1000
    # Offline answers are whole at once; the stream has one token event so every consumer reads tokens.
    yield Event(type="token", text=answer.text)
    total_ms = (time.perf_counter() - started) * 1000
    query_id = _log(wb, ref.id, conversation_id, question, plan, answer, evidence,
                    retrieval_ms=retrieval_ms, first_token_ms=first_token_ms, total_ms=total_ms)
    result = {
        "answer": answer.text,
        "values": answer.values,
        "abstained": answer.abstained,
        "citations": [c.model_dump(mode="json") for c in answer.citations],
        "steps": [step.model_dump(mode="json") for step in plan.steps],
        "plan": plan.reasoning,
        "timings": {"retrieval_ms": round(retrieval_ms, 1), "first_token_ms": round(first_token_ms, 1),
                    "total_ms": round(total_ms, 1)},
        "query_id": query_id,
        "conversation_id": conversation_id,
    }
    yield Event(type="done", answer=answer, result=result)


def _log(wb: Workbench, room_id: int, conversation_id: int, question: str, plan: Plan, answer: Answer,
         evidence: list[Evidence], *, retrieval_ms: float, first_token_ms: float, total_ms: float) -> int:
    """Store the turn and the query log in one transaction."""
    citations = [c.model_dump(mode="json") for c in answer.citations]
    with wb.db.connection() as conn:
        conn.execute(q("insert_message"), {"conversation_id": conversation_id, "role": "user",
                                           "content": question, "citations": Jsonb([])})
        conn.execute(q("insert_message"), {"conversation_id": conversation_id, "role": "assistant",
                                           "content": answer.text, "citations": Jsonb(citations)})
        row = conn.execute(q("insert_query"), {
            "room_id": room_id, "user_id": None, "conversation_id": conversation_id, "question": question,
            "answer": answer.text, "abstained": answer.abstained, "error": None, "planner": plan.planner,
            "model": "offline", "retrieval_ms": retrieval_ms, "first_token_ms": first_token_ms,
            "total_ms": total_ms, "context_chars": sum(len(e.content) for e in evidence),
            "n_citations": len(citations),
        }).fetchone()
        query_id = int(row[0])
        with conn.cursor() as cur:
            cur.executemany(q("insert_query_citation"), [
                {"query_id": query_id, "position": i, "kind": c["kind"], "document_id": c["document_id"],
                 "citation": Jsonb(c)} for i, c in enumerate(citations)
            ])
    return query_id
