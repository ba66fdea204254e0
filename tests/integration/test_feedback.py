"""Feedback on answers, conversations redrawn from the store, stale marks and the Markdown memo."""

from __future__ import annotations

import psycopg
import pytest

from core.ingest.edits import edit_cell
from core.models import Citation
from core.qa.feedback import (
    ConversationNotInRoom,
    FeedbackError,
    Turn,
    answer_memo,
    conversation_history,
    infer_markers,
    recent_conversations,
    record_feedback,
)
from core.qa.service import ask
from core.qa.synth import ABSTAIN


def done(wb, question: str, conversation_id: int | None = None) -> tuple[dict, object]:
    event = list(ask(wb, question, "Demo", conversation_id=conversation_id))[-1]
    assert event.type == "done"
    return event.result, event.answer


def votes(db, query_id: int) -> list[tuple]:
    with db.connection() as conn:
        return conn.execute("SELECT helpful, comment FROM qa_feedback WHERE query_id = %s", (query_id,)).fetchall()


def test_a_second_vote_replaces_the_first(demo) -> None:
    first, _ = done(demo, "How much was raised in Canada in 2021?")
    second, _ = done(demo, "Who is the CEO of Harvestquay?", first["conversation_id"])
    record_feedback(demo.db, first["query_id"], True)
    assert votes(demo.db, first["query_id"]) == [(True, None)]
    record_feedback(demo.db, first["query_id"], False, "  Missed the Series B in Toronto.  ")
    assert votes(demo.db, first["query_id"]) == [(False, "Missed the Series B in Toronto.")]
    record_feedback(demo.db, second["query_id"], True, "")
    assert votes(demo.db, second["query_id"]) == [(True, None)]
    # A vote is its voter's: the local user cannot cast one in another user's name (migration 016).
    with psycopg.connect(demo.db.conninfo, autocommit=True) as conn:  # accounts are made by the owner's connection
        conn.execute("INSERT INTO users (id, display_name) VALUES ('00000000-0000-0000-0000-0000000000a1', 'Ann')")
    with pytest.raises(FeedbackError):
        record_feedback(demo.db, first["query_id"], True, user_id="00000000-0000-0000-0000-0000000000a1")
    assert votes(demo.db, first["query_id"]) == [(False, "Missed the Series B in Toronto.")]


def test_feedback_errors_say_what_to_do(demo) -> None:
    result, _ = done(demo, "How much was raised in Canada in 2021?")
    with pytest.raises(FeedbackError, match="No logged question has id 999999"):
        record_feedback(demo.db, 999_999, True)
    with pytest.raises(FeedbackError, match="keep it under"):
        record_feedback(demo.db, result["query_id"], False, "x" * 5000)
    assert votes(demo.db, result["query_id"]) == []


def test_conversation_history_redraws_every_turn(demo) -> None:
    cell, cell_answer = done(demo, "How much was raised in Canada in 2021?")
    cid = cell["conversation_id"]
    # A question whose answer failed is logged with its error but has no messages: it must not shift the pairing.
    with demo.db.connection() as conn:
        conn.execute(
            "INSERT INTO qa_queries (room_id, conversation_id, question, error) "
            "SELECT room_id, id, 'broken', 'model down' FROM conversations WHERE id = %s",
            (cid,),
        )
    page, page_answer = done(demo, "Who is the CEO of Harvestquay?", cid)
    off, _ = done(demo, "What is the boiling point of mercury on Mars?", cid)
    record_feedback(demo.db, page["query_id"], False, "Wrong person")

    turns = conversation_history(demo.db, demo.room("Demo").id, cid)

    assert [t.question for t in turns] == [
        "How much was raised in Canada in 2021?",
        "Who is the CEO of Harvestquay?",
        "What is the boiling point of mercury on Mars?",
    ]
    assert [t.query_id for t in turns] == [cell["query_id"], page["query_id"], off["query_id"]]
    assert [t.answer for t in turns] == [cell["answer"], page["answer"], off["answer"]]
    assert [c.model_dump(mode="json") for c in turns[0].citations] == cell["citations"]
    assert [c.model_dump(mode="json") for c in turns[1].citations] == page["citations"]
    assert turns[0].citations[0].kind == "cell" and turns[1].citations[0].kind == "page"
    # The markers the store cannot hold are inferred back exactly for these answers.
    assert turns[0].markers == cell_answer.markers and turns[1].markers == page_answer.markers
    assert [t.abstained for t in turns] == [False, False, True] and turns[2].answer == ABSTAIN
    assert turns[2].citations == [] and turns[2].markers == {}
    assert (turns[1].helpful, turns[1].comment) == (False, "Wrong person") and turns[0].helpful is None
    assert all(t.stale == [] for t in turns)
    assert turns[0].created_at <= turns[1].created_at <= turns[2].created_at


def test_an_edited_cited_cell_marks_the_answer_stale(demo) -> None:
    result, _ = done(demo, "How much was raised in Canada in 2021?")
    cited = next(c for c in result["citations"] if c["column"] == "Amount Raised (USD)")
    room_id = demo.room("Demo").id
    with demo.db.connection() as conn:
        sheet_id = conn.execute("SELECT sheet_id FROM sheet_rows WHERE id = %s", (cited["row_id"],)).fetchone()[0]
    edit_cell(demo.db, sheet_id, cited["row_id"], cited["column"], "1")
    [turn] = conversation_history(demo.db, room_id, result["conversation_id"])
    assert turn.stale == [cited["ref"]]
    memo = answer_memo(turn, "Demo")
    assert f"**Stale:** {cited['ref']} changed after this answer" in memo


def test_conversations_belong_to_their_room(demo) -> None:
    result, _ = done(demo, "How much was raised in Canada in 2021?")
    other = demo.room("Other", create=True)
    with pytest.raises(ConversationNotInRoom, match="not in this data room"):
        conversation_history(demo.db, other.id, result["conversation_id"])
    with pytest.raises(ConversationNotInRoom):
        conversation_history(demo.db, other.id, 987_654)
    assert recent_conversations(demo.db, other.id) == []


def test_recent_conversations_most_recent_first(demo) -> None:
    first, _ = done(demo, "How much was raised in Canada in 2021?")
    second, _ = done(demo, "Who is the CEO of Harvestquay?")
    done(demo, "How many seed rounds were there?", first["conversation_id"])
    listed = recent_conversations(demo.db, demo.room("Demo").id)
    assert [(c.id, c.turns) for c in listed] == [(first["conversation_id"], 2), (second["conversation_id"], 1)]
    assert listed[0].title == "How much was raised in Canada in 2021?"


def test_the_memo_lists_each_marker_with_its_values_and_quotes(demo) -> None:
    cell, _ = done(demo, "How much was raised in Canada in 2021?")
    page, _ = done(demo, "Who is the CEO of Harvestquay?", cell["conversation_id"])
    cell_turn, page_turn = conversation_history(demo.db, demo.room("Demo").id, cell["conversation_id"])

    memo = answer_memo(cell_turn, "Demo")
    assert memo.startswith("# How much was raised in Canada in 2021?\n")
    assert cell["answer"] in memo and "[1]" in cell["answer"]
    assert f"* **[1]** {len(cell['citations'])} sources:" in memo
    for c in cell["citations"]:
        assert f"  * {c['ref']} (funding_rounds.csv, {c['column']}) = {c['value']}" in memo

    memo = answer_memo(page_turn, "Demo")
    first = page["citations"][0]
    assert f"* **[1]** portfolio_memo · p. {first['page']} (portfolio_memo.pdf, page {first['page']}): “" in memo
    assert "Nikhil Yarborough" in memo


def test_infer_markers() -> None:
    def cell(sheet: str, row: int) -> Citation:
        return Citation(
            kind="cell",
            document_id=1,
            title="f.xlsx",
            sheet=sheet,
            row_id=row,
            column="A",
            ref=f"{sheet}!A{row}",
            value="1",
        )

    page = Citation(kind="page", document_id=2, title="m.pdf", page=3, quote="q")
    assert infer_markers("Total [1].", [cell("S", 1), cell("S", 2)]) == {1: [0, 1]}
    assert infer_markers("A [2]. B [1].", [page, cell("S", 1)]) == {2: [0], 1: [1]}
    assert infer_markers("A [1]. B [2].", [cell("S", 1), cell("S", 2), page]) == {1: [0, 1], 2: [2]}
    # Two runs of cells of one sheet cannot be told apart: no guess.
    assert infer_markers("A [1]. B [2]. C [3].", [cell("S", 1), cell("S", 2), cell("S", 3), page]) == {}
    assert infer_markers("No markers.", [page]) == {}


def test_an_abstention_memo_says_so() -> None:
    turn = Turn(
        message_id=1,
        question="Capital of France?",
        answer=ABSTAIN,
        citations=[],
        abstained=True,
        query_id=7,
        created_at=None,
    )
    memo = answer_memo(turn, "Demo")
    assert f"> {ABSTAIN}" in memo and "No source in the data room answers this question." in memo
    assert "## Sources" not in memo


def test_a_reopened_conversation_has_its_plan_steps_and_wait(demo) -> None:
    result, _ = done(demo, "How much was raised in Canada in 2021?")
    [turn] = conversation_history(demo.db, demo.room("Demo").id, result["conversation_id"])
    # The lines a page shows while answering: the service's steps, the plan's reasoning, the evidence found.
    assert turn.steps[0] == "- Reading the room's sheets and documents"
    assert result["plan"] in turn.steps
    assert any(line.endswith("of evidence found") for line in turn.steps)
    assert turn.waited_ms is None  # not asked on a page
    demo.record_wait(result["query_id"], 812.0)
    [turn] = conversation_history(demo.db, demo.room("Demo").id, result["conversation_id"])
    assert turn.waited_ms == pytest.approx(812.0)
    with pytest.raises(FeedbackError, match="wait was not recorded"):
        demo.record_wait(987_654, 1.0)


def test_recent_conversations_of_every_room_name_their_room(demo) -> None:
    first, _ = done(demo, "How much was raised in Canada in 2021?")
    demo.ingest_upload(b"Company,Amount\nBocorp,7\n", "bo.csv", "Other", embed=False)
    other = next(e.result for e in ask(demo, "What is the amount of Bocorp?", "Other") if e.type == "done")
    everywhere = recent_conversations(demo.db, None)
    assert [(c.id, c.room) for c in everywhere] == [
        (other["conversation_id"], "Other"),
        (first["conversation_id"], "Demo"),
    ]
    assert [c.id for c in recent_conversations(demo.db, demo.room("Demo").id)] == [first["conversation_id"]]
    assert demo.conversation_room(other["conversation_id"]) == "Other"
    assert demo.conversation_room(987_654) is None
