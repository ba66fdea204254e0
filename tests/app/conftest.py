"""Fixtures of the AppTest page tests: the app (or the sidebar alone) on a fresh database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import streamlit as st
from streamlit import config
from streamlit.testing.v1 import AppTest

from core.config import get_settings

APP = Path(__file__).resolve().parents[2] / "app.py"


def wait_for_background_embedding() -> None:
    """Run the queued ingestion jobs (uploads, the demo's embedding) as `workbench worker --burst` would."""
    from core.workbench import Workbench

    worker = Workbench()
    try:
        worker.run_worker(burst=True)
    finally:
        worker.db.close()


def app_test(script: Path, settings, monkeypatch) -> Iterator[AppTest]:
    """An AppTest of `script` on the test's database, with fresh settings and resources before and after."""
    monkeypatch.setenv("DATABASE_URL", settings.database_url)
    monkeypatch.setenv("WORKBENCH_HOME", str(settings.home))
    get_settings.cache_clear()
    st.cache_resource.clear()
    # As `workbench serve` starts it: local mode refuses any other address (app.py's guard).
    previous = config.get_option("server.address")
    config.set_option("server.address", "127.0.0.1")
    yield AppTest.from_file(str(script), default_timeout=120)
    config.set_option("server.address", previous)
    st.cache_resource.clear()
    get_settings.cache_clear()


@pytest.fixture
def app(settings, monkeypatch) -> Iterator[AppTest]:
    """The whole app (app.py with its navigation)."""
    yield from app_test(APP, settings, monkeypatch)


@pytest.fixture
def sidebar_app(settings, monkeypatch) -> Iterator[AppTest]:
    """The sidebar alone (see sidebar_app.py for why)."""
    yield from app_test(Path(__file__).resolve().parent / "sidebar_app.py", settings, monkeypatch)
