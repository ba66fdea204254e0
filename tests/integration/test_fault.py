"""Nothing lost (issue 5, item 6): an ingestion killed with SIGKILL leaves the room consistent and a retry
succeeds; concurrent uploads of one file make one document; questions asked while files are ingested
are all logged. Real embedded Postgres; the CLI in a subprocess."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import psycopg
import pytest

from core.qa.service import ask
from core.workbench import Workbench
from tests.factories import FUNDING_CSV, make_pdf, run_workbench

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "data" / "demo"
ROWS = 150_000


def _big_csv(path: Path, rows: int = ROWS) -> Path:
    countries = ["Canada", "France", "Germany", "Japan", "Brazil", "Kenya"]
    with path.open("w", encoding="utf-8") as handle:
        handle.write("Company,Country,Round,Date,Amount Raised (USD),Notes\n")
        for i in range(rows):
            handle.write(
                f"Company {i},{countries[i % 6]},Series {'ABC'[i % 3]},20{10 + i % 15}-0{1 + i % 9}-1{i % 10},"
                f"{(i * 7919) % 90_000_000 + 100_000},note {i} about growth plan {i % 97} and hires {i % 31}\n"
            )
    return path


def _env(db_url: str, home: Path) -> dict[str, str]:
    return {**os.environ, "DATABASE_URL": db_url, "WORKBENCH_HOME": str(home), "HF_HUB_OFFLINE": "1"}


def _busy_backends(conn: psycopg.Connection) -> list[str]:
    """Queries other sessions of this database are running (or holding a transaction open on)."""
    return [
        r[0]
        for r in conn.execute(
            "SELECT query FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
            " AND state IS DISTINCT FROM 'idle'"
        )
    ]


def _assert_room_consistent(conn: psycopg.Connection, room: str) -> None:
    """No chunk, row or page without a ready document; term_stats and rooms.n_chunks match the chunks present."""
    room_id = conn.execute("SELECT id FROM rooms WHERE name = %s", (room,)).fetchone()[0]
    orphans = conn.execute(
        "SELECT count(*) FROM chunks c JOIN documents d ON d.id = c.document_id"
        " WHERE c.room_id = %s AND d.status <> 'ready'",
        (room_id,),
    ).fetchone()[0]
    assert orphans == 0
    for table, key in (("sheets", "document_id"), ("pages", "document_id"), ("document_files", "document_id")):
        stray = conn.execute(
            f"SELECT count(*) FROM {table} t JOIN documents d ON d.id = t.{key}"
            " WHERE d.room_id = %s AND d.status <> 'ready'",
            (room_id,),
        ).fetchone()[0]
        assert stray == 0, table
    # A ready document holds exactly the chunks it says it has.
    mismatched = conn.execute(
        "SELECT d.title, d.n_chunks, count(c.id) FROM documents d LEFT JOIN chunks c ON c.document_id = d.id"
        " WHERE d.room_id = %s AND d.status = 'ready' GROUP BY d.id HAVING d.n_chunks <> count(c.id)",
        (room_id,),
    ).fetchall()
    assert mismatched == []
    n_chunks, counted = conn.execute(
        "SELECT r.n_chunks, (SELECT count(*) FROM chunks c WHERE c.room_id = r.id) FROM rooms r WHERE r.id = %s",
        (room_id,),
    ).fetchone()
    assert n_chunks == counted
    diff = conn.execute(
        "SELECT count(*) FROM (SELECT lexeme, df FROM term_stats WHERE room_id = %(r)s AND df > 0"
        " EXCEPT SELECT word, ndoc FROM ts_stat(format('SELECT tsv FROM chunks WHERE room_id = %%s', %(r)s::bigint))"
        " ) a",
        {"r": room_id},
    ).fetchone()[0]
    extra = conn.execute(
        "SELECT count(*) FROM (SELECT word, ndoc FROM ts_stat(format('SELECT tsv FROM chunks WHERE room_id = %%s',"
        " %(r)s::bigint)) EXCEPT SELECT lexeme, df FROM term_stats WHERE room_id = %(r)s) a",
        {"r": room_id},
    ).fetchone()[0]
    assert diff == extra == 0


@pytest.mark.slow
def test_an_ingestion_killed_mid_write_leaves_the_room_consistent_and_a_retry_succeeds(
    workbench: Workbench, db_url: str, tmp_path: Path
) -> None:
    # The room already holds a document, so its statistics are not trivially empty.
    assert workbench.ingest_upload(FUNDING_CSV, "funding.csv", "Deal", embed=False).status == "ready"
    path = _big_csv(tmp_path / "big.csv")
    env = _env(db_url, tmp_path / "home")
    proc = subprocess.Popen(
        [sys.executable, "-m", "core", "ingest", str(path), "--room", "Deal", "--no-embed", "--wait"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    seen: list[str] = []
    with psycopg.connect(db_url, autocommit=True) as conn:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and proc.poll() is None:
            seen = [q for q in _busy_backends(conn) if q.lstrip().upper().startswith("COPY")]
            if seen:
                break
            time.sleep(0.02)
        assert seen, "the ingestion never reached its COPY of rows (or ended first)"
        time.sleep(0.3)  # well inside the write: rows and chunks are being copied
        assert proc.poll() is None, "the ingestion finished before it could be killed"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        assert proc.returncode == -signal.SIGKILL
        # The server rolls the dead client's transaction back as soon as it sees the socket closed.
        deadline = time.monotonic() + 60
        while _busy_backends(conn) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _busy_backends(conn)
        titles = conn.execute("SELECT title, status FROM documents ORDER BY id").fetchall()
        assert ("big.csv", "ready") not in titles  # absent (or failed), never ready with part of its rows
        assert conn.execute("SELECT count(*) FROM sheet_rows").fetchone()[0] == 4
        _assert_room_consistent(conn, "Deal")
    retry = run_workbench("ingest", str(path), "--room", "Deal", "--no-embed", "--json", "--wait", env=env, timeout=600)
    assert retry.returncode == 0, retry.stderr
    assert '"status": "ready"' in retry.stdout and f'"rows": {ROWS}' in retry.stdout
    with psycopg.connect(db_url, autocommit=True) as conn:
        assert (
            conn.execute("SELECT count(*) FROM documents WHERE title = 'big.csv' AND status = 'ready'").fetchone()[0]
            == 1
        )
        assert conn.execute("SELECT count(*) FROM sheet_rows").fetchone()[0] == ROWS + 4
        _assert_room_consistent(conn, "Deal")
    hits = workbench.search("Company 149999", "Deal", k=3)
    assert any(h.value == "Company 149999" for h in hits)


def test_concurrent_uploads_of_one_file_make_exactly_one_document(workbench: Workbench) -> None:
    data = (DEMO / "funding_rounds.csv").read_bytes()
    pdf = make_pdf(["Board minutes. The board approved the Series B on 4 March."] * 3)
    barrier = threading.Barrier(6)
    results, errors = [], []

    def upload(payload: bytes, name: str) -> None:
        barrier.wait()
        try:
            results.append(workbench.ingest_upload(payload, name, "Deal", embed=False))
        except Exception as exc:
            errors.append(exc)

    threads = [threading.Thread(target=upload, args=(data, f"copy{i}.csv")) for i in range(4)]
    threads += [threading.Thread(target=upload, args=(pdf, f"minutes{i}.pdf")) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert all(r.status == "ready" for r in results) and len(results) == 6
    sheets = [r for r in results if r.kind == "sheet"]
    assert sum(not r.duplicate for r in sheets) == 1 and len({r.document_id for r in sheets}) == 1
    with workbench.db.connection() as conn:
        assert conn.execute("SELECT count(*) FROM documents").fetchone()[0] == 2
        assert conn.execute("SELECT count(*) FROM sheet_rows").fetchone()[0] == 307
        _assert_room_consistent(conn, "Deal")


def test_questions_asked_while_files_are_ingested_are_all_logged(workbench: Workbench) -> None:
    for name in ("funding_rounds.csv", "portfolio_memo.pdf"):
        assert workbench.ingest_upload((DEMO / name).read_bytes(), name, "Demo", embed=False).status == "ready"
    questions = [
        "How much was raised in Canada in 2021?",
        "Which company raised the most?",
        "Who leads Harvestquay?",
        "How many rounds were there in France?",
        "What are the risks?",
    ]
    answered, errors = [], []
    stop = threading.Event()

    def asker(n: int) -> None:
        conversation = None
        for i in range(8):
            try:
                events = list(ask(workbench, questions[(n + i) % len(questions)], "Demo", conversation_id=conversation))
                conversation = events[-1].result["conversation_id"]
                answered.append(events[-1].result["query_id"])
            except Exception as exc:
                errors.append(exc)

    def ingester() -> None:
        i = 0
        while not stop.is_set():
            rows = "".join(f"Extra {i}-{j},Canada,Seed,2021-05-0{1 + j % 9},{1000 + j}\n" for j in range(2000))
            data = f"Company,Country,Round,Date,Amount Raised (USD)\n{rows}".encode()
            result = workbench.ingest_upload(data, f"extra{i}.csv", "Demo", embed=False)
            if result.status != "ready":
                errors.append(result.error)
            i += 1

    feeder = threading.Thread(target=ingester)
    feeder.start()
    threads = [threading.Thread(target=asker, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stop.set()
    feeder.join()
    assert errors == []
    assert len(answered) == 32 and len(set(answered)) == 32
    with workbench.db.connection() as conn:
        assert conn.execute("SELECT count(*) FROM qa_queries").fetchone()[0] == 32
        assert conn.execute("SELECT count(*) FROM messages").fetchone()[0] == 64
        assert conn.execute("SELECT count(DISTINCT conversation_id) FROM qa_queries").fetchone()[0] == 4
        assert conn.execute("SELECT count(*) FROM documents WHERE status = 'ready'").fetchone()[0] >= 3
        _assert_room_consistent(conn, "Demo")
