"""Private conversations (migration 016): a member's questions, answers and votes are theirs alone.

Room owners keep the Analytics figures (counts, timings, votes) without reading what was asked.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import psycopg
import pytest

from core.errors import ConversationNotFound, WorkbenchError
from core.qa.feedback import ConversationNotInRoom
from tests.integration.test_identity import new_user

# Tables of a conversation, and the SQL that reads each as the current user.
PRIVATE = {
    "conversations": "SELECT id, title FROM conversations",
    "messages": "SELECT id, content FROM messages",
    "qa_queries": "SELECT id, question FROM qa_queries",
    "qa_citations": "SELECT query_id, citation::text FROM qa_citations",
    "qa_feedback": "SELECT id, comment FROM qa_feedback",
}


def answer(wb, question: str, room: str, **kwargs) -> dict:
    """The `done` result of asking."""
    return next(e for e in wb.ask(question, room, **kwargs) if e.type == "done").result


@pytest.fixture
def shared_room(demo):
    """The demo room with Vic (viewer) and Ed (editor); each asks a question and votes on it."""
    vic, ed = new_user(demo.db, "Vic"), new_user(demo.db, "Ed")
    demo.set_member("Demo", vic, "viewer")
    demo.set_member("Demo", ed, "editor")
    asked = {}
    questions = ((vic, "How much did Acme Robotics raise? mail vic@example.com"), (ed, "Which rounds closed in 2021?"))
    for user, question in questions:
        wb = demo.as_user(user)
        result = answer(wb, question, "Demo")
        wb.record_feedback(result["query_id"], helpful=False, comment=f"secret note of {user}")
        asked[user] = result
    owner = answer(demo, "How many funding rounds are there?", "Demo")
    asked["owner"] = owner
    return demo, vic, ed, asked


def test_members_read_and_change_only_their_own_conversations(shared_room) -> None:
    demo, vic, ed, asked = shared_room
    attempts = got_through = 0
    for reader, other in ((vic, ed), (ed, vic), (vic, "owner"), (None, vic), (None, ed)):
        db = demo.db if reader is None else demo.db.as_user(reader)
        theirs = asked[other]
        with db.connection() as conn:
            for table, sql in PRIVATE.items():
                attempts += 1
                text = " ".join(str(v) for row in conn.execute(sql) for v in row)
                got_through += (
                    str(theirs["query_id"]) in {str(r[0]) for r in conn.execute(sql)} and table == "qa_queries"
                )
                got_through += f"secret note of {other}" in text
            for statement in (
                "UPDATE qa_queries SET answer = 'rewritten' WHERE id = %(q)s",
                "UPDATE conversations SET title = 'rewritten' WHERE id = %(c)s",
                "DELETE FROM qa_feedback WHERE query_id = %(q)s",
                "DELETE FROM conversations WHERE id = %(c)s",
                "DELETE FROM qa_queries WHERE id = %(q)s",
            ):
                attempts += 1
                got_through += conn.execute(
                    statement, {"q": theirs["query_id"], "c": theirs["conversation_id"]}
                ).rowcount
        # Writing into another's conversation, or voting on another's answer, is refused.
        wb = demo.as_user(reader) if reader else demo
        conversation, query = theirs["conversation_id"], theirs["query_id"]
        for write in (
            lambda wb=wb, conversation=conversation: answer(wb, "And in 2022?", "Demo", conversation_id=conversation),
            lambda wb=wb, query=query: wb.record_feedback(query, helpful=True),
            lambda wb=wb, conversation=conversation: wb.conversation_history("Demo", conversation),
        ):
            attempts += 1
            try:
                write()
                got_through += 1
            except (ConversationNotFound, ConversationNotInRoom, WorkbenchError):
                pass
    print(f"reading or changing another member's conversation: {attempts} attempts, {got_through} got through")
    assert got_through == 0
    # Each still reads their own, with their own vote.
    for user in (vic, ed):
        turns = demo.as_user(user).conversation_history("Demo", asked[user]["conversation_id"])
        assert len(turns) == 1 and turns[0].helpful is False and turns[0].comment == f"secret note of {user}"


def test_owners_see_the_rooms_figures_but_not_the_questions(shared_room) -> None:
    demo, vic, _, asked = shared_room
    room_id = demo.room("Demo").id
    today = datetime.now(UTC).date()
    report = demo.analytics_report([room_id], today - timedelta(days=1), today + timedelta(days=1))
    assert report.totals.questions == 3 and report.totals.votes == 2 and report.totals.helpful == 0
    # The attention list holds text: the owner's own questions only, never a member's.
    assert all(a.query_id == asked["owner"]["query_id"] for a in report.attention)
    # A viewer's figures are their own.
    mine = demo.as_user(vic).analytics_report([room_id], today - timedelta(days=1), today + timedelta(days=1))
    assert mine.totals.questions == 1 and mine.totals.votes == 1
    assert [a.query_id for a in mine.attention] == [asked[vic]["query_id"]]
    # The figures function gives no text and nothing of a room the caller is not in.
    stranger = new_user(demo.db, "Stranger")
    with demo.db.as_user(stranger).connection() as conn:
        assert conn.execute("SELECT count(*) FROM workbench_query_figures(%s)", ([room_id],)).fetchone()[0] == 0
    with demo.db.connection() as conn:
        columns = [d.name for d in conn.execute("SELECT * FROM workbench_query_figures(%s)", ([room_id],)).description]
    assert not {"question", "answer", "user_id", "error", "comment"} & set(columns)


def test_conversation_titles_are_redacted_like_the_log(shared_room) -> None:
    demo, vic, _, asked = shared_room
    with psycopg.connect(demo.db.conninfo) as conn:
        title = conn.execute(
            "SELECT title FROM conversations WHERE id = %s", (asked[vic]["conversation_id"],)
        ).fetchone()[0]
    assert "vic@example.com" not in title and "[email]" in title
    # The conversation itself keeps what the user typed.
    turns = demo.as_user(vic).conversation_history("Demo", asked[vic]["conversation_id"])
    assert "vic@example.com" in turns[0].question
