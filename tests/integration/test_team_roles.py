"""Issue 25, the database side: in the team modes every connection the app makes logs in as its own role and can
become nothing else; the app role reads no credential, looks accounts up only as a room's owner (rate-limited)
and sees or ends no other session; a missing extension says who must create it; stopped workers are forgotten;
`jobs --follow` shows every active job. Run against the embedded server and (CI) a server with password logins
and an owner that is not a superuser (WORKBENCH_TEST_DATABASE_URL)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from click.testing import CliRunner

from core.cli import cli, follow_line
from core.config import Settings
from core.db import (
    APP_ROLE,
    LOGIN_ROLE,
    Database,
    app_conninfo,
    check_own_login,
    migrate,
    q,
    setup_roles,
    with_login,
)
from core.errors import AccessDenied, ConfigError, RateLimited
from core.ingest import jobs
from core.rooms.auth import LOOKUP_LIMIT, create_account, find_user
from core.workbench import Workbench
from tests.conftest import TEAM_PASSWORDS, team_urls


def _settings(tmp_path, db_url: str, **extra: str) -> Settings:
    return Settings.from_env(
        {"WORKBENCH_HOME": str(tmp_path / "home"), "DATABASE_URL": db_url, "WORKBENCH_AUTH": "accounts", **extra}
    )


def _owner_taking(db_url: str, role: str) -> str:
    """The README's old default: the owner's login taking `role` at connection start."""
    return psycopg.conninfo.make_conninfo(db_url, options=f"-c role={role}")


@pytest.fixture
def team_db(tmp_path, db_url: str) -> Iterator[Database]:
    """The database as the team modes open it: own logins, checked at start."""
    database = Database.from_settings(_settings(tmp_path, db_url, **team_urls(db_url)))
    yield database
    database.close()


@pytest.fixture
def restores_passwords(db_url: str) -> Iterator[None]:
    """Roles are the server's: give them back the session's passwords (team_urls) after a test that sets others."""
    yield
    setup_roles(db_url, dict(TEAM_PASSWORDS))


def test_setup_gives_each_role_a_login_that_cannot_leave_it(db_url: str, restores_passwords: None) -> None:
    done = setup_roles(db_url, {APP_ROLE: "app password 1", LOGIN_ROLE: None})
    assert "app password 1" not in done.login_url and done.app_url != done.login_url
    for url, role in ((done.app_url, APP_ROLE), (done.login_url, LOGIN_ROLE)):
        with psycopg.connect(url, autocommit=True) as conn:
            assert conn.execute("SELECT session_user, current_user").fetchone() == (role, role)
            conn.execute("SET ROLE NONE")  # back to the login itself: still the role
            assert conn.execute("SELECT current_user").fetchone() == (role,)
            owner = psycopg.conninfo.conninfo_to_dict(db_url).get("user") or "postgres"
            for other in {APP_ROLE, LOGIN_ROLE, owner} - {role}:
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    conn.execute(psycopg.sql.SQL("SET ROLE {}").format(psycopg.sql.Identifier(other)))
    # Run again: new passwords, the same guarantees.
    again = setup_roles(db_url)
    assert again.app_url != done.app_url
    check_own_login(again.app_url, APP_ROLE, "WORKBENCH_APP_DATABASE_URL")
    check_own_login(again.login_url, LOGIN_ROLE, "WORKBENCH_LOGIN_DATABASE_URL")


def _superuser(conn: psycopg.Connection) -> bool:
    return bool(conn.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").fetchone()[0])


def test_team_mode_refuses_a_connection_that_could_take_another_role(tmp_path, db_url: str) -> None:
    # No own logins at all.
    with pytest.raises(ConfigError, match=r"WORKBENCH_APP_DATABASE_URL is not set.*workbench setup"):
        Database.from_settings(_settings(tmp_path, db_url))
    # The owner's login taking the role: SET ROLE NONE would make it the owner.
    taking = {**team_urls(db_url), "WORKBENCH_APP_DATABASE_URL": _owner_taking(db_url, APP_ROLE)}
    with pytest.raises(ConfigError, match=r"logs in as .*not as workbench_app.*workbench setup"):
        Database.from_settings(_settings(tmp_path, db_url, **taking))
    taking = {**team_urls(db_url), "WORKBENCH_LOGIN_DATABASE_URL": _owner_taking(db_url, LOGIN_ROLE)}
    with pytest.raises(ConfigError, match="WORKBENCH_LOGIN_DATABASE_URL logs in as"):
        Database.from_settings(_settings(tmp_path, db_url, **taking))
    # The app's own login made a member of the sign-in role: one SET ROLE from issuing anyone's token.
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute("GRANT workbench_login TO workbench_app")
        try:
            with pytest.raises(ConfigError, match=r"could take other roles with SET ROLE \(workbench_login\)"):
                Database.from_settings(_settings(tmp_path, db_url, **team_urls(db_url)))
        finally:
            conn.execute("REVOKE workbench_login FROM workbench_app")


def test_team_mode_with_own_logins_works_and_its_connections_stay_in_role(team_db: Database) -> None:
    ann = create_account(team_db, "ann@example.com", "Ann", "ann's long password")
    create_account(team_db, "carl@example.com", "Carl", "carl's long password")
    Workbench(db=team_db.as_user(ann.id)).ingest_upload(b"Company,Amount\nAcme,5\n", "a.csv", "Ann's", embed=False)
    carl = team_db.as_user(find_user(team_db.as_user(ann.id), "carl@example.com").id)
    with carl.connection() as conn:
        conn.execute("SET LOCAL ROLE NONE")
        assert conn.execute("SELECT current_user").fetchone() == (APP_ROLE,)
        assert conn.execute("SELECT count(*) FROM rooms").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM chunks").fetchone() == (0,)
    with team_db.login_connection() as conn:
        conn.execute("SET ROLE NONE")
        assert conn.execute("SELECT current_user").fetchone() == (LOGIN_ROLE,)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT count(*) FROM rooms")


def test_the_app_role_reads_no_password_hash_and_only_co_members(db: Database) -> None:
    ann = create_account(db, "ann@example.com", "Ann", "ann's long password")
    bo = create_account(db, "bo@example.com", "Bo", "bo's long password")
    create_account(db, "carl@example.com", "Carl", "carl's long password")
    ann_wb = Workbench(db=db.as_user(ann.id))
    ann_wb.ingest_upload(b"Company,Amount\nAcme,5\n", "a.csv", "Ann's", embed=False)
    ann_wb.set_member("Ann's", bo.id, "viewer")
    with db.as_user(bo.id).connection() as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT email, password_hash FROM users")
    with db.as_user(bo.id).connection() as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("UPDATE users SET display_name = 'x' WHERE id = %s", (bo.id,))
    with db.as_user(bo.id).connection() as conn:
        seen = {r[0] for r in conn.execute("SELECT email FROM users")}
    assert seen == {"ann@example.com", "bo@example.com"}  # yourself and co-members, never Carl
    assert [m.display_name for m in ann_wb.members("Ann's")] == ["Ann", "Bo"]


def test_account_lookup_is_for_room_owners_only_and_rate_limited(db: Database) -> None:
    ann = create_account(db, "ann@example.com", "Ann", "ann's long password")
    bo = create_account(db, "bo@example.com", "Bo", "bo's long password")
    ann_wb = Workbench(db=db.as_user(ann.id))
    ann_wb.ingest_upload(b"Company,Amount\nAcme,5\n", "a.csv", "Ann's", embed=False)
    room_id = ann_wb.room("Ann's").id
    # Bo owns no room: neither the workbench nor raw SQL on his connection tells him who has an account.
    with pytest.raises(AccessDenied, match="Only an owner"):
        find_user(db.as_user(bo.id), "ann@example.com")
    with db.as_user(bo.id).connection() as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("SELECT * FROM workbench_find_user(%s, 'ann@example.com')", (room_id,))
    ann_wb.set_member("Ann's", bo.id, "editor")
    with pytest.raises(AccessDenied):  # an editor is not an owner
        find_user(db.as_user(bo.id), "ann@example.com", room_id)
    assert ann_wb.find_user("bo@example.com", "Ann's").id == bo.id
    assert ann_wb.find_user("nobody@example.com") is None  # any room Ann owns
    for _ in range(LOOKUP_LIMIT - 2):
        ann_wb.find_user("x@example.com", "Ann's")
    with pytest.raises(RateLimited, match="looked up 30 accounts in the last hour") as refused:
        ann_wb.find_user("bo@example.com", "Ann's")
    assert refused.value.limit == LOOKUP_LIMIT
    with db.as_user(ann.id).connection() as conn, pytest.raises(psycopg.Error, match="too many account lookups"):
        conn.execute("SELECT * FROM workbench_find_user(NULL, 'bo@example.com')")


def test_an_app_connection_neither_sees_nor_ends_another_session(db: Database) -> None:
    with db.connection() as first, db.pool.connection() as second:
        other = second.execute("SELECT pg_backend_pid()").fetchone()[0]
        second.execute("SELECT 'secret text of another user'").fetchone()
        assert first.execute("SELECT current_user").fetchone() == (APP_ROLE,)
        for statement in (
            "SELECT query FROM pg_stat_activity",
            "SELECT pg_stat_get_backend_activity(s) FROM pg_stat_get_backend_idset() s",
            f"SELECT pg_cancel_backend({other})",
            f"SELECT pg_terminate_backend({other})",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege), first.transaction():
                first.execute(statement)
        assert second.execute("SELECT 1").fetchone() == (1,)


# Every way found for one session to read another's metadata (issue 41: pids, start times, wait events and client
# addresses through pg_stat_get_backend_idset() and pg_stat_get_backend_*, lock holders through pg_locks).
_OTHER_SESSIONS = (
    "SELECT s FROM pg_stat_get_backend_idset() s",
    "SELECT pg_stat_get_backend_pid(1)",
    "SELECT pg_stat_get_backend_start(1)",
    "SELECT pg_stat_get_backend_activity_start(1)",
    "SELECT pg_stat_get_backend_xact_start(1)",
    "SELECT pg_stat_get_backend_wait_event(1)",
    "SELECT pg_stat_get_backend_wait_event_type(1)",
    "SELECT pg_stat_get_backend_client_addr(1)",
    "SELECT pg_stat_get_backend_client_port(1)",
    "SELECT pg_stat_get_backend_userid(1)",
    "SELECT pg_stat_get_backend_dbid(1)",
    "SELECT * FROM pg_stat_get_backend_subxact(1)",
    "SELECT * FROM pg_locks",
    "SELECT * FROM pg_lock_status()",
    "SELECT pg_blocking_pids(pg_backend_pid())",
    "SELECT pg_safe_snapshot_blocking_pids(pg_backend_pid())",
    "SELECT * FROM pg_stat_get_progress_info('VACUUM')",
    "SELECT * FROM pg_stat_activity",
    "SELECT * FROM pg_stat_ssl",
    "SELECT * FROM pg_stat_gssapi",
)


def test_an_app_connection_reads_no_other_sessions_metadata(db: Database) -> None:
    with db.connection() as conn, db.pool.connection() as other:
        other.execute("SELECT 1").fetchone()
        readable = []
        for statement in _OTHER_SESSIONS:
            try:
                with conn.transaction():
                    conn.execute(statement).fetchall()
                readable.append(statement)
            except psycopg.errors.InsufficientPrivilege:
                pass
    print(f"ways to read another session's metadata as workbench_app: {len(_OTHER_SESSIONS)}, open: {len(readable)}")
    assert readable == []


def test_setup_prints_the_statements_the_migration_runs_as_a_superuser() -> None:
    """What `workbench setup` prints for a provider's superuser (and docs/deployment.md's step 1) is what migration
    029 runs when it runs as one: the statements the test above proves on the embedded server."""
    from core.db import MIGRATIONS_DIR, SUPERUSER_STATEMENTS

    migration = (MIGRATIONS_DIR / "029_no_other_sessions.sql").read_text()
    deployment = (Path(__file__).resolve().parents[2] / "docs" / "deployment.md").read_text()
    for statement in SUPERUSER_STATEMENTS:
        assert f"EXECUTE $stmt${statement}$stmt$;" in migration
        assert statement in deployment, statement
    assert "pg\\_stat\\_get\\_backend\\_%" in SUPERUSER_STATEMENTS[0] and "pg_lock_status" in SUPERUSER_STATEMENTS[0]


def test_a_missing_vector_extension_says_a_superuser_must_create_it(pg_server) -> None:
    name = f"noext_{uuid.uuid4().hex[:8]}"
    admin = pg_server.get_uri()
    with psycopg.connect(admin, autocommit=True) as conn:
        if _superuser(conn):  # the embedded server: an owner that is not a superuser, as managed Postgres gives
            conn.execute("DROP ROLE IF EXISTS wb_noext_owner")
            conn.execute("CREATE ROLE wb_noext_owner LOGIN CREATEDB CREATEROLE")
            conn.execute(f"CREATE DATABASE {name} OWNER wb_noext_owner TEMPLATE template0")
            url = psycopg.conninfo.make_conninfo(pg_server.get_uri(database=name), user="wb_noext_owner")
        else:
            conn.execute(f"CREATE DATABASE {name} TEMPLATE template0")
            url = pg_server.get_uri(database=name)
    try:
        with pytest.raises(ConfigError, match=r"no 'vector' extension.*A superuser must run `CREATE EXTENSION"):
            migrate(url)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def test_stopped_workers_are_forgotten_by_the_running_ones(db_url: str) -> None:
    from procrastinate import PsycopgConnector

    with psycopg.connect(db_url, autocommit=True) as conn:
        dead = conn.execute(
            "INSERT INTO procrastinate_workers (last_heartbeat) VALUES (now() - interval '1 hour') RETURNING id"
        ).fetchone()[0]
        alive = conn.execute("INSERT INTO procrastinate_workers DEFAULT VALUES RETURNING id").fetchone()[0]

    async def sweep() -> int:
        with jobs.app.replace_connector(PsycopgConnector(conninfo=db_url)):
            async with jobs.app.open_async():
                return await jobs.requeue_stalled(30)

    # In a thread of its own: an earlier test of the session may leave this thread's event loop running.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(lambda: asyncio.run(sweep())).result()
    with psycopg.connect(db_url) as conn:
        left = {r[0] for r in conn.execute("SELECT id FROM procrastinate_workers")}
    assert dead not in left and alive in left


def test_jobs_follow_shows_every_active_job_of_the_room(workbench: Workbench) -> None:
    for i in range(7):
        workbench.enqueue_upload(f"Company,Amount\nCo{i},{i}\n".encode(), f"f{i}.csv", "Queue")
    listed = workbench.jobs("Queue", limit=2, active=True)
    assert len(listed) == 7
    line = follow_line(listed)
    assert line.startswith("7 active: ") and all(f"f{i}.csv" in line for i in range(7))
    assert len(workbench.jobs("Queue", limit=2)) == 2  # without --follow, --limit still says how many


def test_the_setup_command_prints_the_three_urls(db_url: str, tmp_path, monkeypatch, restores_passwords: None) -> None:
    from core.config import get_settings

    monkeypatch.setenv("DATABASE_URL", db_url)
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "home"))
    get_settings.cache_clear()
    try:
        result = CliRunner().invoke(cli, ["setup", "--app-password", "the app's password"])
    finally:
        get_settings.cache_clear()
    assert result.exit_code == 0, result.output
    lines = dict(line.split("=", 1) for line in result.output.splitlines() if "=" in line and line[0] != "#")
    assert set(lines) == {"DATABASE_URL", "WORKBENCH_APP_DATABASE_URL", "WORKBENCH_LOGIN_DATABASE_URL"}
    app_url = lines["WORKBENCH_APP_DATABASE_URL"].strip("'")
    check_own_login(app_url, APP_ROLE, "WORKBENCH_APP_DATABASE_URL")
    with psycopg.connect(app_url) as conn:
        assert conn.execute(q("login_escapes")).fetchone()[3] == []


def test_a_url_with_a_password_is_never_tried_as_the_roles(db_url: str) -> None:
    """Trying the owner's password as workbench_app's logged a failed password login at every start (local mode
    with a DATABASE_URL): a URL carrying a password now takes the role at connection start, no login attempt."""
    owner = psycopg.conninfo.conninfo_to_dict(db_url).get("user") or "postgres"
    password = psycopg.conninfo.conninfo_to_dict(db_url).get("password") or "the owner's password"
    with_password = with_login(db_url, owner, password)
    app_conninfo.cache_clear()
    for role in (APP_ROLE, LOGIN_ROLE):
        chosen = psycopg.conninfo.conninfo_to_dict(app_conninfo(with_password, role))
        assert chosen["user"] == owner and chosen["options"] == f"-c role={role}"
