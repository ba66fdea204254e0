"""Browser fixtures: the real app (`streamlit run app.py`) on a fresh database, driven by headless Chromium.

Debian's `chromium` package is used (`.ci/run` installs it); Playwright never downloads a browser here.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("WORKBENCH_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = ROOT / ".workbench" / "screenshots"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def running_app(pg_server, template_db: str, home: Path, name: str, **extra_env: str) -> Iterator[str]:
    """`streamlit run app.py` (as the README starts it) on a fresh database `name`; yields its URL."""
    with psycopg.connect(pg_server.get_uri(), autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name} TEMPLATE {template_db}")
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": pg_server.get_uri(database=name),
        "WORKBENCH_HOME": str(home),
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        **extra_env,
    }
    env.pop("OPENAI_API_KEY", None)
    log = (home / "streamlit.log").open("wb")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            str(ROOT / "app.py"),
            "--server.headless",
            "true",
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--browser.gatherUsageStats",
            "false",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    # One ingestion worker beside the app, as `make run` starts it.
    worker_log = (home / "worker.log").open("wb")
    worker = subprocess.Popen(
        [sys.executable, "-m", "core", "worker"], cwd=ROOT, env=env, stdout=worker_log, stderr=subprocess.STDOUT
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                if resp.status == 200:
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            worker.kill()
            raise RuntimeError(f"streamlit did not start: {(home / 'streamlit.log').read_text()[-2000:]}")
        time.sleep(0.3)
    try:
        yield url
    finally:
        for child in (proc, worker):
            child.terminate()
            try:
                child.wait(timeout=15)
            except subprocess.TimeoutExpired:
                child.kill()
        log.close()
        worker_log.close()
        with psycopg.connect(pg_server.get_uri(), autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture(scope="session")
def app_url(pg_server, template_db: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app started as the README starts it (`streamlit run app.py`), on its own fresh database."""
    with running_app(pg_server, template_db, tmp_path_factory.mktemp("app_home"), f"browser_{os.getpid()}") as url:
        yield url


@pytest.fixture(scope="session")
def chromium() -> Iterator:
    """Headless Debian Chromium through Playwright."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium), as .ci/run does.")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(chromium, app_url: str, request: pytest.FixtureRequest) -> Iterator:
    """A fresh browser tab (1400 x 900); a screenshot of it is kept under .workbench/screenshots/."""
    context = chromium.new_context(viewport={"width": 1400, "height": 900})
    tab = context.new_page()
    tab.set_default_timeout(60_000)
    yield tab
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    try:
        tab.screenshot(path=str(SCREENSHOTS / f"{request.node.name}.png"))
    finally:
        context.close()


def wait_idle(tab, timeout: float = 60.0) -> None:
    """Wait until the Streamlit script run has finished (no 'running' status widget) and a title shows."""
    tab.wait_for_selector("h1", timeout=timeout * 1000)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if tab.locator('[data-testid="stStatusWidget"]').count() == 0:
            return
        time.sleep(0.1)
    raise AssertionError(f"the app kept running for over {timeout:.0f} s")


@pytest.fixture(scope="session")
def app_database_url(pg_server, app_url: str) -> str:
    """The DATABASE_URL of the app under test, to look up ids or log questions as the app does."""
    return pg_server.get_uri(database=f"browser_{os.getpid()}")


@pytest.fixture
def app_workbench(app_database_url: str, page, app_url: str, tmp_path: Path) -> Iterator:
    """A Workbench on the app's database, after a first page load (which loads the demo room)."""
    from core.config import Settings
    from core.workbench import Workbench

    page.goto(app_url)
    wait_idle(page)
    settings = Settings.from_env({"DATABASE_URL": app_database_url, "WORKBENCH_HOME": str(tmp_path / "home")})
    wb = Workbench(settings)
    yield wb
    wb.db.close()


# What the browser tests look for and ask (views/_shared/grid.py paints cited cells with the class).
GRID = 'iframe[title="st_aggrid.AgGrid.agGrid"]'
CITED_CELL = ".ag-cell.sheet-cited"  # views/sheet.py paints the cited cell with this class
HIGHLIGHTED_PAGE = 'img[alt$="with the cited passage highlighted"]'  # views/documents.py's page image
CELL_QUESTION = "How much was raised in Canada in 2021?"
PAGE_QUESTION = "Who is the CEO of Harvestquay?"


@pytest.fixture
def app_db(pg_server, app_url: str) -> Iterator:
    """A Database on the running app's own database (app_url's fixture names it browser_<pid>)."""
    from core.db import Database

    database = Database(pg_server.get_uri(database=f"browser_{os.getpid()}"), max_size=2, run_migrations=False)
    yield database
    database.close()
