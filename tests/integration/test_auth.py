"""Accounts (argon2id), sign-in, and Supabase Auth sign-in over HTTP; a signed-in user is subject to RLS."""

from __future__ import annotations

import psycopg
import pytest

from core.config import Settings
from core.errors import AuthError
from core.rooms.auth import create_account, find_user, sign_in, supabase_sign_in
from core.workbench import Workbench
from tests.supabase_server import SupabaseAuthServer


def test_accounts_sign_in_with_an_argon2id_hash(workbench) -> None:
    ann = create_account(workbench.db, "Ann@Example.com", "Ann", "correct horse battery")
    assert sign_in(workbench.db, "ann@example.com", "correct horse battery").id == ann.id
    with psycopg.connect(workbench.db.conninfo) as conn:
        stored = conn.execute("SELECT password_hash FROM users WHERE id = %s", (ann.id,)).fetchone()[0]
    assert stored.startswith("$argon2id$") and "correct horse" not in stored
    # The same message whatever was wrong: no probing for accounts.
    for email, password in [("ann@example.com", "wrong password!"), ("nobody@example.com", "correct horse battery")]:
        with pytest.raises(AuthError, match=r"^Wrong e-mail or password.$"):
            sign_in(workbench.db, email, password)
    with pytest.raises(AuthError, match="already an account"):
        create_account(workbench.db, "ann@example.com", "Ann again", "another long password")
    with pytest.raises(AuthError, match="at least 10 characters"):
        create_account(workbench.db, "bo@example.com", "Bo", "short")
    with pytest.raises(AuthError, match="not an e-mail"):
        create_account(workbench.db, "bo at example", "Bo", "long enough password")
    room_id = workbench.room("Local room", create=True).id  # looking accounts up is for room owners
    assert find_user(workbench.db, "ANN@example.com", room_id).id == ann.id
    assert find_user(workbench.db, "x@y.z", room_id) is None


def test_the_app_role_cannot_read_password_hashes(workbench) -> None:
    create_account(workbench.db, "cy@example.com", "Cy", "a long password here")
    with workbench.db.connection() as conn:
        assert conn.execute("SELECT count(*) FROM users WHERE email = 'cy@example.com'").fetchone()[0] == 0


def test_supabase_sign_in_makes_the_supabase_user_the_database_user(workbench) -> None:
    with SupabaseAuthServer({"dee@example.com": "supabase password"}) as server:
        settings = Settings.from_env({"SUPABASE_URL": server.url, "SUPABASE_ANON_KEY": "anon.key.value"})
        assert settings.auth_mode == "supabase"
        user = supabase_sign_in(workbench.db, settings, "dee@example.com", "supabase password")
        assert user.id == server.ids["dee@example.com"] and user.display_name == "Dee"
        assert server.requests[-1]["apikey"] == "anon.key.value"
        with pytest.raises(AuthError, match="Wrong e-mail or password"):
            supabase_sign_in(workbench.db, settings, "dee@example.com", "wrong")
    # The Supabase user owns what they create and sees nothing else.
    dee = Workbench(workbench.settings, db=workbench.db.as_user(user.id))
    assert dee.ingest_upload(b"Company,Amount\nAcme,5\n", "a.csv", "Dee's room", embed=False).status == "ready"
    assert [r.name for r in dee.rooms()] == ["Dee's room"]
    assert "Dee's room" not in [r.name for r in workbench.rooms()]


def test_supabase_mode_needs_its_settings(workbench) -> None:
    with pytest.raises(AuthError, match="SUPABASE_URL and SUPABASE_ANON_KEY"):
        supabase_sign_in(workbench.db, Settings.from_env({"WORKBENCH_AUTH": "supabase"}), "a@b.co", "x")


def test_sign_in_backs_off_after_repeated_failures_whether_or_not_the_account_exists(workbench) -> None:
    import time

    create_account(workbench.db, "eve@example.com", "Eve", "the right password")
    checked = refused = 0
    started = time.monotonic()
    for n in range(30):  # a guessing script: as fast as the server answers
        try:
            sign_in(workbench.db, "eve@example.com", f"guess number {n}")
        except AuthError as exc:
            if str(exc).startswith("Too many failed sign-ins"):
                refused += 1
            else:
                checked += 1
    print(f"password guesses in {time.monotonic() - started:.1f} s: 30 attempts, {checked} checked")
    assert checked <= 7 and refused >= 23
    # The right password is refused too while the wait lasts (nothing is checked), with how long to wait.
    with pytest.raises(AuthError, match=r"Too many failed sign-ins for eve@example\.com: wait \d+ seconds?"):
        sign_in(workbench.db, "eve@example.com", "the right password")
    # An e-mail with no account backs off the same way: the wait tells nothing about who exists.
    for _ in range(5):
        with pytest.raises(AuthError, match=r"^Wrong e-mail or password\.$"):
            sign_in(workbench.db, "nobody@example.com", "a guess of mine")
    with pytest.raises(AuthError, match="Too many failed sign-ins"):
        sign_in(workbench.db, "nobody@example.com", "a guess of mine")
    # Once the wait is over a right password signs in and the count starts again.
    with psycopg.connect(workbench.db.conninfo, autocommit=True) as conn:
        conn.execute("UPDATE sign_in_failures SET last_failed_at = now() - interval '1 hour'")
    assert sign_in(workbench.db, "eve@example.com", "the right password").email == "eve@example.com"
    with psycopg.connect(workbench.db.conninfo) as conn:
        assert conn.execute("SELECT count(*) FROM sign_in_failures WHERE email = 'eve@example.com'").fetchone() == (0,)


def test_a_room_name_tells_no_one_that_another_users_room_exists(workbench) -> None:
    from tests.integration.test_identity import new_user

    alice, bob = (workbench.as_user(new_user(workbench.db, name)) for name in ("Alice", "Bob"))
    assert alice.ingest_upload(b"Company,Amount\nAcme,5\n", "a.csv", "Project Falcon", embed=False).status == "ready"
    probes = ["Project Falcon", "Project Eagle", "project falcon"]
    answers = set()
    for name in probes:  # Bob creates a room by each name: the same outcome whether Alice has one or not
        room = bob.room(name, create=True)
        answers.add((room.name == name, bob.search("Acme", name) == []))
    print(f"room-name existence probes: {len(probes)} attempts, {len(answers) - 1} told apart")
    assert answers == {(True, True)}
    assert {r.name for r in alice.rooms()} == {"Project Falcon"}
