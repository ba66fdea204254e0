"""Ingestion as durable jobs (issue 12, items 1 and 2): queued by the app as the user, run by `workbench worker`
processes as that user; stages and progress visible to the room's members; a worker killed mid-job leaves the
job retried by another, never a half document; hostile files fail alone with the worker's memory bounded."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest

from core.errors import AccessDenied
from core.workbench import Workbench
from tests.bombs import pdf_bomb, xlsx_bomb
from tests.factories import FUNDING_CSV, MEMO_PAGES, make_pdf
from tests.integration.test_fault import _assert_room_consistent, _big_csv

ROOT = Path(__file__).resolve().parents[2]
ANN = "00000000-0000-0000-0000-0000000000a1"
BOB = "00000000-0000-0000-0000-0000000000b2"


def _env(db_url: str, home: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "DATABASE_URL": db_url, "WORKBENCH_HOME": str(home), "HF_HUB_OFFLINE": "1", **extra}


@contextmanager
def worker(db_url: str, home: Path, *args: str, **env: str) -> Iterator[subprocess.Popen[bytes]]:
    """`workbench worker` in a child process (killed at the end if still running)."""
    log = (home.parent / f"worker-{time.monotonic_ns()}.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "core", "worker", *args],
        cwd=ROOT,
        env=_env(db_url, home, **env),
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        log.close()


def _wait(condition: Callable[[], bool], timeout: float, what: str, state: Callable[[], object] | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}" + (f"; then: {state()}" if state else ""))


def _queue_state(db_url: str, job_id: int) -> dict:
    """The job as the ingest table and the queue hold it, and the queue's workers: what a timed-out wait says."""
    with psycopg.connect(db_url, autocommit=True) as conn:
        job = conn.execute(
            "SELECT status, stage, done, total, attempts, updated_at FROM ingest_jobs WHERE id = %s", (job_id,)
        ).fetchone()
        queue = conn.execute("SELECT id, status, attempts, worker_id, scheduled_at FROM procrastinate_jobs").fetchall()
        workers = conn.execute("SELECT id, last_heartbeat FROM procrastinate_workers").fetchall()
        sessions = (
            conn.execute(
                "SELECT state, wait_event_type, wait_event, left(query, 80) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).fetchall()
            if _reads_activity(conn)
            else "not readable by this login (migration 021)"
        )
    return {"job": job, "queue": queue, "workers": workers, "sessions": sessions}


def _reads_activity(conn: psycopg.Connection) -> bool:
    """Whether this login may read other sessions in pg_stat_activity: a team server's owner may not (migration
    021 revokes it from PUBLIC), the embedded server's superuser may."""
    return bool(
        conn.execute(
            "SELECT has_table_privilege('pg_catalog.pg_stat_activity', 'SELECT') "
            "AND pg_has_role('pg_read_all_stats', 'MEMBER')"
        ).fetchone()[0]
    )


def _add_user(db_url: str, user_id: str, email: str) -> None:
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute("INSERT INTO users (id, email, display_name) VALUES (%s, %s, %s)", (user_id, email, email))


def test_jobs_run_in_a_worker_with_stages_results_and_one_job_per_file(workbench: Workbench) -> None:
    first = workbench.enqueue_upload(FUNDING_CSV, "funding.csv", "Deal")
    again = workbench.enqueue_upload(FUNDING_CSV, "funding.csv", "Deal")
    assert again.id == first.id and first.status == "queued" and first.label == "funding.csv: queued"
    memo = workbench.enqueue_upload(make_pdf(MEMO_PAGES), "memo.pdf", "Deal", embed=False)
    broken = workbench.enqueue_upload(b"%PDF-1.7\nnot really\n", "broken.pdf", "Deal")
    workbench.run_worker(burst=True)
    jobs = {job.id: job for job in workbench.jobs("Deal")}
    assert len(jobs) == 3
    assert jobs[first.id].status == "done" and jobs[first.id].result is not None
    assert jobs[first.id].result["rows"] == 4 and jobs[first.id].result["embedded"] is True
    assert jobs[first.id].parse_peak_mb is not None and 0 < jobs[first.id].parse_peak_mb < 1536
    assert jobs[memo.id].status == "done" and jobs[memo.id].result["embedded"] is False
    assert jobs[broken.id].status == "failed" and jobs[broken.id].stage == "failed"
    assert "cannot be read as a PDF" in (jobs[broken.id].error or "")
    assert jobs[broken.id].label == "broken.pdf: failed"
    docs = {doc.title: doc for doc in workbench.documents("Deal")}
    assert docs["funding.csv"].status == "ready" and docs["funding.csv"].embedded
    assert docs["broken.pdf"].status == "failed"
    # Queued again after it finished: a new job, and a no-op (idempotent by checksum).
    redo = workbench.enqueue_upload(FUNDING_CSV, "funding.csv", "Deal")
    assert redo.id != first.id
    workbench.run_worker(burst=True)
    finished = workbench.jobs("Deal", ids=[redo.id])[0]
    assert finished.status == "done" and finished.result is not None and finished.result["duplicate"] is True
    assert len([d for d in workbench.documents("Deal") if d.title == "funding.csv"]) == 1
    assert workbench.clear_jobs("Deal") == 4 and workbench.jobs("Deal") == []


def test_an_embedding_job_embeds_what_the_room_lacks(workbench: Workbench) -> None:
    assert workbench.ingest_upload(FUNDING_CSV, "funding.csv", "Deal", embed=False).status == "ready"
    job = workbench.enqueue_embedding("Deal")
    assert workbench.enqueue_embedding("Deal").id == job.id
    workbench.run_worker(burst=True)
    assert workbench.jobs("Deal")[0].status == "done"
    assert all(doc.embedded for doc in workbench.documents("Deal"))


def test_only_writers_enqueue_members_read_and_the_app_role_never_sees_the_queue(
    workbench: Workbench, db_url: str
) -> None:
    _add_user(db_url, ANN, "ann@example.com")
    _add_user(db_url, BOB, "bob@example.com")
    workbench.room("Deal", create=True)
    workbench.set_member("Deal", ANN, "viewer")
    job = workbench.enqueue_upload(FUNDING_CSV, "funding.csv", "Deal")
    ann, bob = workbench.as_user(ANN), workbench.as_user(BOB)
    with pytest.raises(AccessDenied):
        ann.enqueue_upload(make_pdf(MEMO_PAGES), "memo.pdf", "Deal")
    assert [j.id for j in ann.jobs("Deal")] == [job.id]  # a member reads the room's jobs
    with workbench.db.as_user(BOB).connection() as conn:
        assert conn.execute("SELECT count(*) FROM ingest_jobs").fetchone()[0] == 0
        # Naming another user as the job's owner, or a room one does not write to, is refused by the policy.
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute(
                "INSERT INTO ingest_jobs (room_id, user_id, filename) VALUES (%s, %s, 'x.csv')",
                (job.room_id, BOB),
            )
    with workbench.db.as_user(ANN).connection() as conn:
        assert conn.execute("UPDATE ingest_jobs SET status = 'failed'").rowcount == 0  # not Ann's job
    for table in ("procrastinate_jobs", "procrastinate_workers", "procrastinate_events"):
        with workbench.db.connection() as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute(f"SELECT count(*) FROM {table}")
    with psycopg.connect(db_url) as conn:  # the owner's login, as workers use it: the queue entry names the user
        args = conn.execute("SELECT args FROM procrastinate_jobs").fetchone()[0]
    assert args == {"job_id": job.id, "user_id": "00000000-0000-0000-0000-000000000001"}
    del bob


@pytest.mark.slow
@pytest.mark.parametrize("stage", ["storing", "embedding"])
def test_a_worker_killed_mid_job_leaves_it_retried_by_another_and_the_document_whole_and_single(
    workbench: Workbench, db_url: str, tmp_path: Path, stage: str
) -> None:
    rows = 150_000 if stage == "storing" else 3_000
    data = _big_csv(tmp_path / "big.csv", rows).read_bytes()
    job = workbench.enqueue_upload(data, "big.csv", "Deal", embed=stage == "embedding")
    home = tmp_path / "home"

    def current() -> str:
        found = workbench.jobs("Deal", ids=[job.id])[0]
        return found.stage if not (found.stage == "embedding" and found.done == 0) else "embedding-started"

    with worker(db_url, home, "--heartbeat", "1") as first:
        _wait(lambda: current() == stage, 300, f"the job to reach {stage}")
        time.sleep(0.3)  # inside the stage: rows being copied, or chunks being embedded
        assert workbench.jobs("Deal", ids=[job.id])[0].status == "running"
        first.send_signal(signal.SIGKILL)
        first.wait(30)
    killed = workbench.jobs("Deal", ids=[job.id])[0]
    assert killed.status == "running" and killed.attempts == 1
    # The killed worker's copy of the upload is left in WORKBENCH_HOME/tmp (issue 41: 18 MB over 8 kills) ...
    assert any(entry.name.startswith("upload-") for entry in (home / "tmp").iterdir())
    with psycopg.connect(db_url, autocommit=True) as conn:
        titles = conn.execute("SELECT status FROM documents WHERE title = 'big.csv'").fetchall()
        if stage == "storing":
            # Postgres rolls the dead worker's transaction back: no document, or never a ready half of one.
            _wait(lambda: conn.execute("SELECT count(*) FROM sheet_rows").fetchone()[0] == 0, 60, "the rollback")
            # And its statement stops (client_connection_check_interval): it ran on for minutes, the retry behind it.
            running = (
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' "
                "AND pid <> pg_backend_pid() AND query ILIKE '%%insert%%'"
            )
            if _reads_activity(conn):
                _wait(lambda: conn.execute(running).fetchone()[0] == 0, 30, "the dead worker's statement to stop")
            # Analysed now (as autovacuum may), sheet_rows reads as empty while it holds pages: the retry's checks
            # must not be planned from that as if the table were one row (migration 023).
            conn.execute("ANALYZE sheet_rows")
            assert titles in ([], [("failed",)])
    with worker(db_url, home, "--heartbeat", "1"):
        _wait(
            lambda: workbench.jobs("Deal", ids=[job.id])[0].finished, 600, "another worker to finish the job",
            lambda: _queue_state(db_url, job.id),
        )  # fmt: skip
    done = workbench.jobs("Deal", ids=[job.id])[0]
    assert done.status == "done" and done.attempts == 2 and done.crashes == 1, done
    # ... and the next worker swept it; its own folders went when its job ended.
    assert list((home / "tmp").iterdir()) == []
    assert done.result is not None and done.result["rows"] == rows and done.result["duplicate"] is False
    with psycopg.connect(db_url, autocommit=True) as conn:
        docs = conn.execute("SELECT id, status, n_rows FROM documents WHERE title = 'big.csv'").fetchall()
        assert len(docs) == 1 and docs[0][1:] == ("ready", rows)
        assert conn.execute("SELECT count(*) FROM sheet_rows").fetchone()[0] == rows
        _assert_room_consistent(conn, "Deal")
        if stage == "embedding":
            missing = conn.execute(
                "SELECT count(*) FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM chunk_embeddings e WHERE e.chunk_id = c.id)"
            ).fetchone()[0]
            assert missing == 0
            assert conn.execute("SELECT embedded_at IS NOT NULL FROM documents").fetchone()[0]


def _vm_hwm(pid: int) -> int:
    """Peak resident memory (bytes) of a running process."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM")


@pytest.mark.slow
def test_bombs_fail_clearly_under_a_worker_whose_memory_stays_bounded(
    workbench: Workbench, db_url: str, tmp_path: Path
) -> None:
    limit = 1536 * 1024 * 1024
    good = workbench.enqueue_upload(FUNDING_CSV, "funding.csv", "Deal")  # embedded: the model is loaded
    pdf = workbench.enqueue_upload(pdf_bomb(60), "bomb.pdf", "Deal")
    xlsx = workbench.enqueue_upload(xlsx_bomb(1_000_000, 2_000), "bomb.xlsx", "Deal")
    ids = [good.id, pdf.id, xlsx.id]
    with worker(db_url, tmp_path / "home") as proc:
        _wait(lambda: all(j.finished for j in workbench.jobs("Deal", ids=ids)), 600, "the jobs to finish")
        peak = _vm_hwm(proc.pid)
    jobs = {j.id: j for j in workbench.jobs("Deal", ids=ids)}
    children = {j.filename: j.parse_peak_mb for j in jobs.values()}
    print(f"\nworker peak RSS {peak / 2**20:.0f} MB (model loaded); parser children peak MB: {json.dumps(children)}")
    assert jobs[good.id].status == "done" and jobs[good.id].result["embedded"] is True
    assert jobs[pdf.id].status == "failed" and "drawing instructions unpack to 60 MB" in (jobs[pdf.id].error or "")
    assert jobs[xlsx.id].status == "failed" and "Split it into smaller files" in (jobs[xlsx.id].error or "")
    assert peak <= limit
    assert all(mb is not None and mb * 2**20 <= limit for mb in children.values())
    with psycopg.connect(db_url, autocommit=True) as conn:
        statuses = dict(conn.execute("SELECT title, status FROM documents").fetchall())
        assert statuses == {"funding.csv": "ready", "bomb.pdf": "failed", "bomb.xlsx": "failed"}
        assert conn.execute("SELECT count(*) FROM chunks").fetchone()[0] == 4  # nothing of the bombs written
        _assert_room_consistent(conn, "Deal")


def test_a_worker_runs_under_a_caller_whose_event_loop_is_running(workbench: Workbench) -> None:
    """A notebook, or Playwright's sync API in the same test session, keeps an event loop running in the thread:
    the worker still runs (asyncio.run refused to nest before)."""
    import asyncio
    import threading

    job = workbench.enqueue_upload(FUNDING_CSV, "funding.csv", "Loop", embed=False)
    errors: list[BaseException] = []

    async def caller() -> None:
        workbench.run_worker(burst=True)

    def with_a_running_loop() -> None:  # a thread of its own: this test's thread may hold Playwright's loop
        try:
            asyncio.run(caller())
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=with_a_running_loop)
    thread.start()
    thread.join(timeout=300)
    assert not thread.is_alive() and errors == []
    assert workbench.jobs("Loop", ids=[job.id])[0].status == "done"


def test_a_queued_upload_is_copied_a_piece_at_a_time_and_stored_whole(
    workbench: Workbench, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker copies a queued upload to a file in pieces (its bytes are never all in its memory: 947 -> 418 MB
    peak for a 190 MB file, bench/worker_memory.py) and Postgres copies them into document_files itself: the
    stored bytes are the upload's, and its checksum is theirs (the same bytes uploaded again are a duplicate)."""
    from core.ingest import jobs as job_queue

    monkeypatch.setattr(job_queue, "UPLOAD_PIECE", 1000)
    data = FUNDING_CSV + b"".join(b"Company %d,Chile,Seed,%d\n" % (i, i * 1000) for i in range(300))
    assert len(data) > 5 * 1000 and len(data) % 1000
    job = workbench.enqueue_upload(data, "funding.csv", "Pieces", embed=False)
    workbench.run_worker(burst=True)
    done = workbench.jobs("Pieces", ids=[job.id])[0]
    assert done.status == "done", done.error
    with psycopg.connect(db_url) as conn:
        stored, size = conn.execute(
            "SELECT f.data, d.size_bytes FROM document_files f JOIN documents d ON d.id = f.document_id"
        ).fetchone()  # type: ignore[misc]
    assert bytes(stored) == data and size == len(data)
    assert workbench.ingest_upload(data, "again.csv", "Pieces", embed=False).duplicate
