"""The app started as `make run` starts it (`workbench demo --no-embed`, then `workbench serve`), in local mode:
it listens on 127.0.0.1 alone, watches no files, and shows its first page (the time is printed; bench/app_start.py measures it against the 5 s aim)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psutil
import psycopg
import pytest

from tests.browser.conftest import ROOT, _free_port
from tests.factories import run_workbench

pytestmark = pytest.mark.browser


def _inotify_watches(pid: int) -> int:
    """How many inotify watches process `pid` holds (Linux: one 'inotify wd:' line per watch in fdinfo)."""
    watches = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            if "inotify" in os.readlink(fd):
                watches += (Path(f"/proc/{pid}/fdinfo") / fd.name).read_text().count("inotify wd:")
        except OSError:  # closed meanwhile
            continue
    return watches


def test_local_mode_serves_this_computer_only_quietly_and_soon(
    pg_server, template_db: str, tmp_path: Path, chromium
) -> None:
    name = f"start_{os.getpid()}"
    with psycopg.connect(pg_server.get_uri(), autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name} TEMPLATE {template_db}")
    env = {"DATABASE_URL": pg_server.get_uri(database=name), "WORKBENCH_HOME": str(tmp_path)}
    assert run_workbench("demo", "--no-embed", "--quiet", env=env).returncode == 0
    port = _free_port()
    log = tmp_path / "serve.log"
    child_env = {**os.environ, "HF_HUB_OFFLINE": "1", **env}
    child_env.pop("WORKBENCH_AUTH", None)  # local mode
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "core", "serve", "--server.port", str(port)],
            cwd=ROOT,
            env=child_env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text()[-2000:]
            time.sleep(0.05)
        up = time.perf_counter()
        tab = chromium.new_page()
        tab.goto(url)
        tab.get_by_role("heading", name="Chat").wait_for(timeout=60_000)
        first_page = time.perf_counter() - up
        tab.close()
        print(f"\nserver up -> first page shown: {first_page:.2f} s (load average {os.getloadavg()[0]:.2f})")

        # `workbench serve` became the server (exec): its listening sockets are on the loopback address alone.
        listening = [
            c.laddr for c in psutil.Process(proc.pid).net_connections(kind="inet") if c.status == psutil.CONN_LISTEN
        ]
        assert listening and {addr.ip for addr in listening} == {"127.0.0.1"}, listening
        assert {addr.port for addr in listening} == {port}
        # No file watcher: Streamlit's watched app.py's folder recursively, .venv and .workbench included.
        assert _inotify_watches(proc.pid) == 0
        assert "Inotify" not in log.read_text()
        # The first page's modules were imported in a thread once the server was up (core/preload.py), beside the
        # page's own run: no import met another half-done (a traceback in the log, the page an error).
        assert "Traceback" not in log.read_text(), log.read_text()[-2000:]
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
        with psycopg.connect(pg_server.get_uri(), autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
