"""Identity the app role cannot forge (migration 015): SQL run as workbench_app cannot name another user.

Each test connects the way an attacker holding the app's database login would: a raw psycopg connection
as workbench_app, no Workbench in between.
"""

from __future__ import annotations

import hashlib
import hmac
import time
import uuid

import psycopg
import psycopg.sql
import pytest

from core.db import APP_ROLE
from core.rooms.auth import create_account, sign_in
from tests.factories import MEMO_PAGES, make_pdf


def raw_app(db) -> psycopg.Connection:
    """A raw connection as the app role (what any SQL the app runs could do)."""
    return psycopg.connect(db.app_url, autocommit=True)


def _login(conn: psycopg.Connection) -> str:
    return str(conn.execute("SELECT current_user").fetchone()[0])


def new_user(db, name: str) -> str:
    user_id = str(uuid.uuid4())
    with psycopg.connect(db.conninfo, autocommit=True) as conn:
        conn.execute("INSERT INTO users (id, display_name) VALUES (%s, %s)", (user_id, name))
    return user_id


@pytest.fixture
def alice_room(workbench) -> tuple[str, int]:
    """Alice, owner of a room with a PDF and a sheet; the local user is no member of it."""
    alice = new_user(workbench.db, "Alice")
    wa = workbench.as_user(alice)
    assert wa.ingest_upload(make_pdf(MEMO_PAGES), "memo.pdf", "Alice's room", embed=False).status == "ready"
    assert wa.ingest_upload(b"Company,Amount\nAcme,5\n", "a.csv", "Alice's room", embed=False).status == "ready"
    return alice, wa.room("Alice's room").id


# Every way the app role could name a user before migration 015.
FORGERIES = [
    ("SET app.user_id = '{user}'", None),
    ("SELECT set_config('app.user_id', '{user}', false)", None),
    ("SET request.jwt.claim.sub = '{user}'", None),
    ("""SET request.jwt.claims = '{{"sub": "{user}"}}'""", None),
    ("SET app.user_token = '{user}'", None),
    # A token of the right shape with a made-up signature, and one signed with a guessed key.
    ("SET app.user_token = '{user}.9999999999.{zeros}'", None),
    ("SET app.user_token = '{user}.9999999999.{guessed}'", None),
]


def test_setting_another_users_id_from_a_raw_app_connection_reads_nothing(workbench, alice_room) -> None:
    alice, room_id = alice_room
    message = f"{alice}.9999999999"
    guessed = hmac.new(b"", message.encode(), hashlib.sha256).hexdigest()
    attempts = got_through = 0
    with raw_app(workbench.db) as conn:
        assert conn.execute("SELECT current_user").fetchone()[0] == APP_ROLE
        for statement, _ in FORGERIES:
            conn.execute("RESET ALL")
            conn.execute(statement.format(user=alice, zeros="0" * 64, guessed=guessed))
            for table in ("rooms", "documents", "chunks", "pages", "sheet_rows", "room_members"):
                attempts += 1
                seen = conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                got_through += seen > 0
            attempts += 1
            got_through += conn.execute("SELECT workbench_user()").fetchone()[0] is not None
            attempts += 1
            got_through += conn.execute("UPDATE documents SET title = 'x' WHERE room_id = %s", (room_id,)).rowcount
    print(f"forged identities: {attempts} attempts, {got_through} got through")
    assert attempts == 7 * 8 and got_through == 0


def test_the_app_role_cannot_read_the_key_nor_issue_tokens(workbench) -> None:
    with raw_app(workbench.db) as conn:
        for statement in (
            "SELECT * FROM workbench_secret",
            f"SELECT workbench_issue_token('{uuid.uuid4()}')",
            "SELECT workbench_sign('x')",
            "SELECT * FROM workbench_credentials('a@b.co')",
            f"SELECT workbench_create_account('{uuid.uuid4()}', 'e@x.co', 'E', 'hash')",
            "SET ROLE workbench_login",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)


def test_a_token_is_an_hmac_sha256_the_database_checks_and_it_expires(workbench) -> None:
    user = new_user(workbench.db, "Tess")
    view = workbench.db.as_user(user)
    token = view.token()
    user_part, expiry, signature = token.split(".")
    assert user_part == user and int(expiry) > time.time() + 11 * 3600
    with psycopg.connect(workbench.db.conninfo) as conn:
        inner, outer = conn.execute("SELECT inner_key, outer_key FROM workbench_secret").fetchone()
    key = bytes(b ^ 0x36 for b in inner)
    assert bytes(b ^ 0x5C for b in key) == bytes(outer)
    assert hmac.new(key, f"{user}.{expiry}".encode(), hashlib.sha256).hexdigest() == signature
    expired = f"{user}.{int(time.time()) - 1}"
    expired += "." + hmac.new(key, expired.encode(), hashlib.sha256).hexdigest()
    with raw_app(workbench.db) as conn:
        assert conn.execute("SELECT workbench_token_user(%s)", (token,)).fetchone()[0] == uuid.UUID(user)
        assert conn.execute("SELECT workbench_token_user(%s)", (expired,)).fetchone()[0] is None
        tampered = token[:-1] + ("1" if token.endswith("0") else "0")
        assert conn.execute("SELECT workbench_token_user(%s)", (tampered,)).fetchone()[0] is None


def test_password_hashes_and_user_rows_change_only_for_the_signed_in_user(workbench) -> None:
    ann = create_account(workbench.db, "ann@example.com", "Ann", "correct horse battery")
    bob = create_account(workbench.db, "bob@example.com", "Bob", "another long password")
    as_bob = workbench.db.as_user(bob.id)
    with as_bob.connection() as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("SELECT workbench_set_password_hash(%s, 'x')", (ann.id,))
    with as_bob.connection() as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("SELECT workbench_ensure_user(%s, 'evil@example.com', 'Evil')", (ann.id,))
    with as_bob.connection() as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("SELECT workbench_ensure_user(%s, 'new@example.com', 'New')", (str(uuid.uuid4()),))
    assert sign_in(workbench.db, "ann@example.com", "correct horse battery").id == ann.id
    with as_bob.connection() as conn:
        conn.execute("SELECT workbench_set_password_hash(%s, %s)", (bob.id, "$argon2id$bob-own"))
    with psycopg.connect(workbench.db.conninfo) as conn:
        assert (
            conn.execute("SELECT password_hash FROM users WHERE id = %s", (bob.id,)).fetchone()[0]
            == "$argon2id$bob-own"
        )


def test_request_jwt_claims_count_only_for_supabases_authenticated_role(workbench, alice_room) -> None:
    alice, room_id = alice_room
    with psycopg.connect(workbench.db.conninfo, autocommit=True) as admin:
        admin.execute(
            "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'authenticated') THEN "
            "CREATE ROLE authenticated NOLOGIN; END IF; END $$"
        )
        # An owner that is not a superuser (a team server) may take only roles it was granted.
        admin.execute(psycopg.sql.SQL("GRANT authenticated TO {}").format(psycopg.sql.Identifier(_login(admin))))
        admin.execute("GRANT SELECT ON rooms TO authenticated")
        admin.execute("SET ROLE authenticated")
        admin.execute("SELECT set_config('request.jwt.claim.sub', %s, false)", (alice,))
        assert [r[0] for r in admin.execute("SELECT id FROM rooms")] == [room_id]
        admin.execute("RESET ROLE")
    # The app role cannot take Supabase's role, so the same claim means nothing to it.
    with raw_app(workbench.db) as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SET ROLE authenticated")
        conn.execute("SELECT set_config('request.jwt.claim.sub', %s, false)", (alice,))
        assert conn.execute("SELECT count(*) FROM rooms").fetchone()[0] == 0
