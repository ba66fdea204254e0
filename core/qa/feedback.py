"""What an analyst does with answers: votes and comments, conversations redrawn, an answer exported as a memo."""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass, field
from typing import Any

import psycopg

from core.db import Database, q
from core.errors import ConversationNotInRoom, FeedbackError
from core.models import Citation
from core.qa.exports import neutralise_cell
from core.qa.synth import ABSTAIN
from core.text import MARKER

__all__ = [
    "ConversationNotInRoom",
    "ConversationSummary",
    "FeedbackError",
    "Turn",
    "answer_memo",
    "conversation_history",
    "conversation_room",
    "infer_markers",
    "recent_conversations",
    "record_feedback",
    "record_wait",
]

# Longer comments are refused rather than cut: the analyst sees why and can shorten theirs.
MAX_COMMENT_CHARS = 4000


@dataclass(frozen=True)
class Turn:
    """One question and its answer as stored, with what the page needs to draw it again."""

    message_id: int | None  # the assistant message (None for a turn not read back from the store)
    question: str
    answer: str
    citations: list[Citation]
    abstained: bool
    query_id: int | None  # the qa_queries row (None when the log row is missing)
    created_at: datetime.datetime | None
    markers: dict[int, list[int]] = field(default_factory=dict)  # [n] -> positions in citations
    stale: list[str] = field(default_factory=list)  # refs of cited cells edited since the answer
    helpful: bool | None = None  # the user's vote, if any
    comment: str | None = None
    note: str | None = None  # the model failed and this answer was written offline: what happened
    steps: list[str] = field(default_factory=list)  # the plan's lines as shown while answering (the log's)
    waited_ms: float | None = None  # submit to last token as the page drew it (None: not asked on a page)


@dataclass(frozen=True)
class ConversationSummary:
    """A conversation for a picker."""

    id: int
    title: str
    created_at: datetime.datetime
    last_at: datetime.datetime
    turns: int
    room: str = ""


def record_feedback(
    db: Database, query_id: int, helpful: bool, comment: str | None = None, *, user_id: str | None = None
) -> int:
    """Store a vote (and optional comment) on an answer; a second vote by the same user replaces the first.

    The vote is the current user's (the database view's) unless `user_id` says whose.
    """
    user_id = user_id if user_id is not None else db.user_id
    text = (comment or "").replace("\x00", "").strip() or None
    if text and len(text) > MAX_COMMENT_CHARS:
        raise FeedbackError(f"The comment has {len(text):,} characters; keep it under {MAX_COMMENT_CHARS:,}.")
    try:
        with db.connection() as conn:
            row = conn.execute(
                q("record_feedback"),
                {"query_id": query_id, "user_id": user_id, "helpful": bool(helpful), "comment": text},
            ).fetchone()
    except (psycopg.errors.ForeignKeyViolation, psycopg.errors.InsufficientPrivilege) as exc:
        # Row-level security refuses a vote on a question of a room the user cannot see, as if it did not exist.
        raise FeedbackError(f"No logged question has id {query_id}: reload the conversation and vote again.") from exc
    assert row is not None
    return int(row[0])


def infer_markers(text: str, citations: list[Citation]) -> dict[int, list[int]]:
    """Which citations each `[n]` of a stored answer points at ({} when the store does not say).

    The store keeps an answer's citations in marker order but not the marker of each. It is exact when
    the answer has one marker, or one citation per marker; otherwise citations are grouped into
    sources (a page passage; a run of cells of one sheet) and matched when there is one source a marker.
    """
    order = list(dict.fromkeys(int(m) for m in MARKER.findall(text)))
    if not order or not citations:
        return {}
    if len(order) == 1:
        return {order[0]: list(range(len(citations)))}
    if len(order) == len(citations):
        return {n: [i] for i, n in enumerate(order)}
    groups: list[list[int]] = []
    previous: tuple | None = None
    for i, c in enumerate(citations):
        key = ("cell", c.document_id, c.sheet) if c.kind == "cell" else None
        if key is None or key != previous:
            groups.append([])
        groups[-1].append(i)
        previous = key
    return dict(zip(order, groups, strict=True)) if len(groups) == len(order) else {}


def _room_of(conn: psycopg.Connection[Any], conversation_id: int) -> int | None:
    row = conn.execute(q("conversation_room"), {"id": conversation_id}).fetchone()
    return int(row[0]) if row else None


def conversation_history(db: Database, room_id: int, conversation_id: int, *, user_id: str | None = None) -> list[Turn]:
    """The answered turns of a conversation, oldest first, with citations, votes and stale cells."""
    from core.ingest.edits import stale_citations  # edits imports the ingest stack; only needed here

    with db.connection() as conn:
        if _room_of(conn, conversation_id) != room_id:
            raise ConversationNotInRoom(
                f"Conversation {conversation_id} is not in this data room: start a new conversation "
                "or pick the room it was asked in."
            )
        rows = conn.execute(
            q("conversation_history"),
            {"conversation_id": conversation_id, "user_id": user_id if user_id is not None else db.user_id},
        ).fetchall()
    stale = stale_citations(db, conversation_id) if rows else {}
    turns = []
    for (
        message_id,
        question,
        answer,
        cited,
        created_at,
        query_id,
        abstained,
        note,
        helpful,
        comment,
        steps,
        waited,
    ) in rows:
        citations = [Citation.model_validate(c) for c in json.loads(cited)]
        turns.append(Turn(
            message_id=message_id, question=question, answer=answer, citations=citations,
            abstained=bool(abstained) if abstained is not None else answer.strip() == ABSTAIN,
            query_id=query_id, created_at=created_at, markers=infer_markers(answer, citations),
            stale=stale.get(message_id, []), helpful=helpful, comment=comment, note=note,
            steps=[str(line) for line in json.loads(steps)] if steps else [], waited_ms=waited,
        ))  # fmt: skip
    return turns


def recent_conversations(db: Database, room_id: int | None, *, limit: int = 20) -> list[ConversationSummary]:
    """Conversations with at least one answer, most recently active first: a room's, or every visible room's."""
    with db.connection() as conn:
        rows = conn.execute(q("recent_conversations"), {"room_id": room_id, "limit": limit}).fetchall()
    return [
        ConversationSummary(id=r[0], title=r[1], created_at=r[2], last_at=r[3], turns=r[4], room=r[5]) for r in rows
    ]


def record_wait(db: Database, query_id: int, waited_ms: float) -> None:
    """Mark a logged question as asked on a page, with what its user waited (submit to last token drawn)."""
    with db.connection() as conn:
        row = conn.execute(
            q("record_wait"), {"query_id": query_id, "waited_ms": float(waited_ms), "user_id": db.user_id}
        ).fetchone()
    if row is None:
        raise FeedbackError(f"No question of yours has id {query_id}: the wait was not recorded.")


def conversation_room(db: Database, conversation_id: int) -> str | None:
    """The name of the room a conversation was asked in (None when it is not in a room the user can see)."""
    with db.connection() as conn:
        row = conn.execute(q("conversation_room_name"), {"id": conversation_id}).fetchone()
    return str(row[0]) if row else None


def _cited(citation: Citation) -> str:
    if citation.kind == "cell":
        column = f", {citation.column}" if citation.column else ""
        # neutralise_cell: a memo pasted into a spreadsheet must not run a cell's "=HYPERLINK(...)" (OWASP).
        return f"{citation.label} ({citation.title}{column}) = {neutralise_cell(citation.value) or '(empty)'}"
    quote = " ".join((citation.quote or "").split())
    if len(quote) > 400:
        quote = quote[:399].rstrip() + "…"
    return f"{citation.label} ({citation.title}, page {citation.page}): “{quote}”"


def answer_memo(turn: Turn, room: str) -> str:
    """The answer and its sources as a Markdown memo: each [n] with its cells' values or passages' quotes."""
    when = turn.created_at.astimezone(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC") if turn.created_at else ""
    lines = [
        f"# {turn.question.strip()}",
        "",
        f"_Data room: {room}"
        + (f" · asked {when}" if when else "")
        + (f" · query {turn.query_id}" if turn.query_id else "")
        + "_",
        "",
    ]
    if turn.abstained:
        lines += [f"> {turn.answer.strip()}", "", "No source in the data room answers this question.", ""]
        return _neutral_lines(lines)
    lines += [turn.answer.strip(), ""]
    if turn.stale:
        changed = ", ".join(turn.stale)
        lines += [f"> **Stale:** {changed} changed after this answer was written; ask again for current figures.", ""]
    lines += ["## Sources", ""]
    listed: set[int] = set()
    for n, positions in sorted(turn.markers.items()):
        cited = [turn.citations[i] for i in positions if i < len(turn.citations)]
        listed.update(positions)
        if len(cited) == 1:
            lines.append(f"* **[{n}]** {_cited(cited[0])}")
            continue
        lines.append(f"* **[{n}]** {len(cited)} sources:")
        lines += [f"  * {_cited(c)}" for c in cited]
    rest = [c for i, c in enumerate(turn.citations) if i not in listed]
    lines += [f"* {_cited(c)}" for c in rest]
    return _neutral_lines(lines) + "\n"


def _neutral_lines(lines: list[str]) -> str:
    """The memo's lines joined, every line neutralised: pasted into a spreadsheet each line is a cell, and a
    line a question, an answer or a cell value starts with "=", "+", "-" or "@" (on any line of a multi-line
    value) would run as a formula. Bullets are "*" for the same reason."""
    text = "\n".join(lines).replace("\r\n", "\n").replace("\r", "\n")
    return "\n".join(neutralise_cell(line) or "" for line in text.split("\n"))
