"""Row-level security: no user reads a row of a room they are not a member of; viewers cannot write.

The app's queries run as workbench_app (an ordinary role) with the user named per transaction by a token
the database verifies (migration 015); the policies of migrations 009 and 016 decide. A property-based test
builds random rooms, users, memberships, documents and conversations, then looks through every path (rooms,
search, exact table steps, ask, direct SQL on every table) as every user, checks each sees only their own
conversations, and tries raw SQL as the app role naming each user by hand.
"""

from __future__ import annotations

import uuid

import psycopg
import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from core.db import LOCAL_USER
from core.errors import RoomNotFound, WorkbenchError
from core.qa.service import ask
from core.rooms.access import AccessDenied, members, my_role, remove_member, set_member
from core.workbench import Workbench
from tests.factories import MEMO_PAGES, make_pdf

# Tables whose rows belong to a room, and how a row reaches its room.
ROOM_OF = {
    "rooms": "SELECT id FROM rooms",
    "room_members": "SELECT room_id FROM room_members",
    "documents": "SELECT room_id FROM documents",
    "document_files": "SELECT d.room_id FROM document_files f JOIN documents d ON d.id = f.document_id",
    "pages": "SELECT d.room_id FROM pages p JOIN documents d ON d.id = p.document_id",
    "sheets": "SELECT d.room_id FROM sheets s JOIN documents d ON d.id = s.document_id",
    "sheet_columns": "SELECT d.room_id FROM sheet_columns c JOIN sheets s ON s.id = c.sheet_id"
    " JOIN documents d ON d.id = s.document_id",
    "sheet_rows": "SELECT d.room_id FROM sheet_rows r JOIN sheets s ON s.id = r.sheet_id"
    " JOIN documents d ON d.id = s.document_id",
    "chunks": "SELECT room_id FROM chunks",
    "chunk_embeddings": "SELECT room_id FROM chunk_embeddings",
    "term_stats": "SELECT room_id FROM term_stats",
    "conversations": "SELECT room_id FROM conversations",
    "messages": "SELECT c.room_id FROM messages m JOIN conversations c ON c.id = m.conversation_id",
    "qa_queries": "SELECT room_id FROM qa_queries",
    "qa_citations": "SELECT q.room_id FROM qa_citations c JOIN qa_queries q ON q.id = c.query_id",
    "qa_feedback": "SELECT q.room_id FROM qa_feedback f JOIN qa_queries q ON q.id = f.query_id",
}


def admin(db) -> psycopg.Connection:
    """The owner's connection (bypasses row-level security): to set up users and to see the truth."""
    return psycopg.connect(db.conninfo, autocommit=True)


def new_user(db, name: str) -> str:
    user_id = str(uuid.uuid4())
    with admin(db) as conn:
        conn.execute("INSERT INTO users (id, display_name) VALUES (%s, %s)", (user_id, name))
    return user_id


def as_user(workbench: Workbench, user_id: str) -> Workbench:
    return Workbench(workbench.settings, db=workbench.db.as_user(user_id))


def test_every_table_of_the_schema_has_row_level_security(db) -> None:
    with admin(db) as conn:
        rows = conn.execute(
            "SELECT c.relname, c.relrowsecurity, (SELECT count(*) FROM pg_policy p WHERE p.polrelid = c.oid)"
            " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname <> 'schema_migrations'"
        ).fetchall()
    unprotected = [name for name, secured, policies in rows if not secured or policies == 0]
    assert rows and unprotected == []
    assert set(ROOM_OF) <= {name for name, *_ in rows}


def test_the_app_connects_as_an_ordinary_role(db) -> None:
    with db.connection() as conn:
        user, superuser, bypass = conn.execute(
            "SELECT current_user, rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user"
        ).fetchone()
        owners = {r[0] for r in conn.execute("SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public'")}
        assert conn.execute("SELECT session_user").fetchone()[0] == user
    assert user == "workbench_app" and not superuser and not bypass and user not in owners
    with db.connection() as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("SELECT * FROM schema_migrations")


def test_a_room_belongs_to_its_creator_and_to_no_one_else(workbench) -> None:
    alice, bob = new_user(workbench.db, "Alice"), new_user(workbench.db, "Bob")
    wa, wb_ = as_user(workbench, alice), as_user(workbench, bob)
    result = wa.ingest_upload(make_pdf(MEMO_PAGES), "memo.pdf", "Alice's room", embed=False)
    assert result.status == "ready"
    room = wa.room("Alice's room")
    assert [m.role for m in members(wa.db, room.id)] == ["owner"] and my_role(wa.db, room.id) == "owner"
    assert [r.name for r in wb_.rooms()] == []
    with pytest.raises(RoomNotFound):
        wb_.search("Acme Robotics", "Alice's room")
    # Names are unique per owner (migration 016): Bob's "Alice's room" is his own, and tells him nothing of hers.
    dan = as_user(workbench, new_user(workbench.db, "Dan"))
    dans = dan.room("Alice's room", create=True)
    assert dans.id != room.id and dan.search("Acme Robotics", "Alice's room") == []
    assert [r.id for r in dan.rooms()] == [dans.id] and room.id not in [r.id for r in wb_.rooms()]
    # Bob cannot make himself a member, nor can a viewer add anyone.
    with pytest.raises(AccessDenied):
        set_member(wb_.db, room.id, bob, "owner")
    set_member(wa.db, room.id, bob, "viewer")
    assert [r.name for r in wb_.rooms()] == ["Alice's room"] and wb_.search("Acme Robotics", "Alice's room")
    carol = new_user(workbench.db, "Carol")
    with pytest.raises(AccessDenied):
        set_member(wb_.db, room.id, carol, "viewer")
    # A viewer reads and asks, but cannot add documents.
    answer = next(
        e for e in ask(wb_, "Who is the chief executive of Acme Robotics?", "Alice's room") if e.type == "done"
    )
    assert not answer.result["abstained"]
    with pytest.raises(AccessDenied, match="a viewer of data room"):
        wb_.ingest_upload(b"a,b\n1,2\n", "more.csv", "Alice's room", embed=False)
    with admin(workbench.db) as conn:
        assert (
            conn.execute("SELECT count(*) FROM documents WHERE title = 'more.csv' AND status = 'ready'").fetchone()[0]
            == 0
        )
    # Removed, Bob sees nothing again; the local user never saw Alice's room.
    assert remove_member(wa.db, room.id, bob)
    assert [r.name for r in wb_.rooms()] == []
    assert "Alice's room" not in [r.name for r in workbench.rooms()]


def visible_rooms(db, table: str) -> set[int]:
    with db.connection() as conn:
        return {r[0] for r in conn.execute(f"SELECT DISTINCT room_id FROM ({ROOM_OF[table]}) t(room_id)")}


@hyp_settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    n_users=st.integers(2, 4),
    rooms=st.lists(st.tuples(st.integers(0, 3), st.booleans()), min_size=1, max_size=3),
    grants=st.lists(st.tuples(st.integers(0, 2), st.integers(0, 3), st.sampled_from(["viewer", "editor"])), max_size=4),
)
def test_no_user_reads_a_room_they_are_not_a_member_of(workbench, n_users: int, rooms, grants) -> None:
    tag = uuid.uuid4().hex[:8]
    users = [new_user(workbench.db, f"user{i}-{tag}") for i in range(n_users)]
    member: dict[str, dict[int, str]] = {u: {} for u in users}
    created: list[tuple[int, str, str]] = []  # room id, name, marker word
    for index, (owner_index, with_pdf) in enumerate(rooms):
        owner = users[owner_index % n_users]
        name, marker = f"room{index}-{tag}", f"zq{tag}{index}"
        wb_owner = as_user(workbench, owner)
        csv = f"Company,Amount\n{marker.title()} Ltd,100\nOther Co,200\n".encode()
        assert wb_owner.ingest_upload(csv, f"sheet{index}.csv", name, embed=False).status == "ready"
        if with_pdf:
            assert wb_owner.ingest_upload(make_pdf(MEMO_PAGES), "memo.pdf", name, embed=False).status == "ready"
        room_id = wb_owner.room(name).id
        created.append((room_id, name, marker))
        member[owner][room_id] = "owner"
        done = [e for e in ask(wb_owner, f"What is the Amount of {marker.title()} Ltd?", name) if e.type == "done"]
        assert done[0].result["values"] == ["100"]
    for room_index, user_index, role in grants:
        if room_index >= len(created):
            continue
        room_id = created[room_index][0]
        owner = next(u for u in users if member[u].get(room_id) == "owner")
        target = users[user_index % n_users]
        if member[target].get(room_id) == "owner":
            continue
        set_member(as_user(workbench, owner).db, room_id, target, role)
        member[target][room_id] = role
        # Every member asks too: conversations are private even inside a shared room.
        name, marker = created[room_index][1], created[room_index][2]
        list(ask(as_user(workbench, target), f"What is the Amount of {marker.title()} Ltd?", name))
    asked = _conversations_by_user(workbench)

    for user in users:
        wb_user = as_user(workbench, user)
        mine = set(member[user])
        ours = {room_id for room_id, *_ in created}
        assert {r.id for r in wb_user.rooms()} & ours == mine
        for table in ROOM_OF:
            assert visible_rooms(wb_user.db, table) & ours <= mine, table
        # Conversations, their messages and the query log: the user's own rows, in any room.
        own_conversations, own_queries = asked.get(user, (set(), set()))
        with wb_user.db.connection() as conn:
            for table, sql in CONVERSATION_OF.items():
                seen = {r[0] for r in conn.execute(sql)}
                assert seen <= (own_queries if table.startswith("qa_") else own_conversations), table
            assert {r[0] for r in conn.execute("SELECT conversation_id FROM messages")} == own_conversations
        # Raw SQL as the app role, naming this user the ways the database once believed: nothing.
        with psycopg.connect(workbench.db.app_url, autocommit=True) as raw:
            for forged in (
                "SELECT set_config('app.user_id', %s, false)",
                "SELECT set_config('request.jwt.claim.sub', %s, false)",
                "SELECT set_config('request.jwt.claims', json_build_object('sub', %s::text)::text, false)",
            ):
                raw.execute("RESET ALL")
                raw.execute(forged, (user,))
                for table in ROOM_OF:
                    assert raw.execute(f"SELECT count(*) FROM ({ROOM_OF[table]}) t").fetchone()[0] == 0, table
        for room_id, name, marker in created:
            if room_id in mine:
                hits = wb_user.search(marker, name)
                assert hits and {h.document_id for h in hits} <= _documents(workbench, room_id)
                with wb_user.db.connection() as conn:
                    assert conn.execute("SELECT workbench_room_has_phrase(%s, %s)", (room_id, marker)).fetchone() == (
                        True,
                    )
                if member[user][room_id] == "viewer":
                    with pytest.raises((WorkbenchError, psycopg.Error)):
                        _write_as(wb_user, room_id)
            else:
                with pytest.raises(RoomNotFound):
                    wb_user.search(marker, name)
                with pytest.raises(RoomNotFound):
                    list(ask(wb_user, f"What is the Amount of {marker.title()} Ltd?", name))
                # Even a query that names the room's rows by id finds nothing, nor do the functions that
                # search as the tables' owner (they check the membership themselves).
                with wb_user.db.connection() as conn:
                    assert conn.execute("SELECT workbench_room_has_phrase(%s, %s)", (room_id, marker)).fetchone() == (
                        False,
                    )
                    assert conn.execute(
                        "SELECT count(*) FROM workbench_keyword_candidates(%s, %s::tsquery, %s::tsquery)",
                        (room_id, marker, f"'room:{room_id}'"),
                    ).fetchone() == (0,)
                    assert conn.execute("SELECT count(*) FROM chunks WHERE room_id = %s", (room_id,)).fetchone()[0] == 0
                    assert conn.execute("UPDATE documents SET title = 'x' WHERE room_id = %s", (room_id,)).rowcount == 0


# Rows of a conversation, and the conversation (or logged query) each belongs to.
CONVERSATION_OF = {
    "conversations": "SELECT id FROM conversations",
    "messages": "SELECT conversation_id FROM messages",
    "qa_queries": "SELECT id FROM qa_queries",
    "qa_citations": "SELECT query_id FROM qa_citations",
    "qa_feedback": "SELECT query_id FROM qa_feedback",
}


def _conversations_by_user(workbench: Workbench) -> dict[str, tuple[set[int], set[int]]]:
    """Each user's conversations and logged queries, as the owner's connection sees them."""
    found: dict[str, tuple[set[int], set[int]]] = {}
    with admin(workbench.db) as conn:
        for user, conversation in conn.execute("SELECT user_id::text, id FROM conversations"):
            found.setdefault(user, (set(), set()))[0].add(conversation)
        for user, query in conn.execute("SELECT user_id::text, id FROM qa_queries"):
            found.setdefault(user, (set(), set()))[1].add(query)
    return found


def _documents(workbench: Workbench, room_id: int) -> set[int]:
    with admin(workbench.db) as conn:
        return {r[0] for r in conn.execute("SELECT id FROM documents WHERE room_id = %s", (room_id,))}


def _write_as(wb_user: Workbench, room_id: int) -> None:
    """A write a viewer must not be able to make (raises)."""
    with wb_user.db.connection() as conn:
        updated = conn.execute("UPDATE documents SET title = 'changed' WHERE room_id = %s", (room_id,)).rowcount
        if updated == 0:
            raise WorkbenchError("no row could be changed")


def test_the_local_user_owns_rooms_made_without_a_user(db) -> None:
    with admin(db) as conn:
        room_id = conn.execute("INSERT INTO rooms (name) VALUES ('made by admin') RETURNING id").fetchone()[0]
        assert conn.execute(
            "SELECT user_id::text, role FROM room_members WHERE room_id = %s", (room_id,)
        ).fetchall() == [(LOCAL_USER, "owner")]
