"""Ingestion as durable jobs on procrastinate's Postgres queue (migration 014), run by `workbench worker`.

The app (sidebar uploads, `workbench ingest`) inserts an `ingest_jobs` row as the user: its file's bytes,
checksum and room; a trigger defers the queue entry in the same transaction. A worker (any number, on any
machine with the same DATABASE_URL) takes the entry from procrastinate's queue through the owner's login,
and runs the job through the app role *as the job's user* (row-level security applies as it would to
them): parse in a memory-limited child, store in one transaction, embed; each stage and its progress
(n of m) is written to the job row, which members of the room read.

A run that raises (the database went away, a bug) goes back to the queue with procrastinate's retry
strategy (exponential backoff), its reason on the job row (a database outage says so, and is not counted against
the file); a worker that dies mid-job (killed, out of memory) leaves its queue entry "doing" with a stale
heartbeat, and the other workers put it back in the queue (`requeue_stalled`), counting one crash of the job.
The retry is safe because ingestion is idempotent by checksum: a file stored before the worker died is found
(`incomplete` when its worker died while embedding, migration 028) and only its missing vectors are made; a
file whose store was cut off was rolled back by Postgres. A file that kills its worker MAX_ATTEMPTS times fails
with a message saying at which stage, what was kept and what to do, instead of being tried for ever.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import shlex
import threading
import time
from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any, Literal

import psycopg
from procrastinate import App, PsycopgConnector, RetryStrategy
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb
from pydantic import BaseModel

from core.config import Settings
from core.db import Database, database_url, q
from core.errors import IngestError, WorkbenchError
from core.ingest import scratch
from core.ingest.pipeline import JobUpload, embed_pending, ingest_bytes, missing_vectors
from core.ingest.sandbox import last_peak_rss
from core.models import IngestResult
from core.providers.embeddings import Embedder
from core.rooms import access
from core.rooms.store import RoomRef

log = logging.getLogger(__name__)

# A job whose worker died this many times (the job kills it: memory, a crash in C) fails instead.
MAX_ATTEMPTS = 3
# Progress is written at most this often (each write is a transaction), and on every change of stage.
_PROGRESS_EVERY = 0.5

# Procrastinate's docs ask for the App to live in a module both the worker and the app import. The connector
# is given its URL when a worker opens it (`run_worker`); the app never talks to the queue (the trigger does).
app = App(connector=PsycopgConnector())


class IngestJob(BaseModel):
    """A job as members of its room see it: stage, progress and outcome."""

    id: int
    room_id: int
    room: str
    user_id: str
    kind: Literal["file", "embed"]
    filename: str | None
    checksum: str | None
    embed: bool
    status: Literal["queued", "running", "done", "failed"]
    stage: Literal["queued", "parsing", "storing", "embedding", "done", "failed"]
    done: int
    total: int
    attempts: int
    crashes: int = 0  # runs whose worker died (its heartbeat stopped): MAX_ATTEMPTS of them give the job up
    error: str | None
    result: dict[str, Any] | None
    document_id: int | None
    parse_peak_mb: int | None
    created_at: datetime
    updated_at: datetime

    @property
    def finished(self) -> bool:
        """Done or failed."""
        return self.status in ("done", "failed")

    @property
    def fraction(self) -> float:
        """How far the job is, 0..1 (parsing, storing and embedding each take a third)."""
        if self.finished:
            return 1.0
        base = {"queued": 0.0, "parsing": 0.0, "storing": 1 / 3, "embedding": 2 / 3}[self.stage]
        part = self.done / self.total if self.total else 0.0
        return base + min(part, 1.0) / 3

    @property
    def label(self) -> str:
        """One line: what the job is doing ("memo.pdf: embedding 128 of 512 chunks")."""
        name = self.filename or "embedding"
        if self.status == "failed":
            return f"{name}: failed"
        if self.status == "done":
            return f"{name}: ready"
        if self.stage == "embedding" and self.total:
            return f"{name}: embedding {self.done} of {self.total} chunks"
        if self.stage == "queued":
            return f"{name}: queued" + (f" (retry {self.attempts})" if self.attempts else "")
        return f"{name}: {self.stage}"


def _job(row: dict[str, Any]) -> IngestJob:
    return IngestJob(**row)


def enqueue_file(db: Database, room: RoomRef, data: bytes, filename: str, *, embed: bool = True) -> IngestJob:
    """Queue a file for ingestion into the room, as the current user (owners and editors); the pending job for
    the same bytes when there is one."""
    access.require_writer(db, room.id, room.name)
    checksum = hashlib.sha256(data).hexdigest()
    return _enqueue(db, room, kind="file", filename=filename, checksum=checksum, data=data, embed=embed)


def enqueue_embedding(db: Database, room: RoomRef) -> IngestJob:
    """Queue the embedding of the room's chunks that have no vector yet (one pending job per room)."""
    access.require_writer(db, room.id, room.name)
    return _enqueue(db, room, kind="embed", filename=None, checksum=None, data=None, embed=True)


def _enqueue(
    db: Database,
    room: RoomRef,
    *,
    kind: str,
    filename: str | None,
    checksum: str | None,
    data: bytes | None,
    embed: bool,
) -> IngestJob:
    params = {
        "room_id": room.id,
        "kind": kind,
        "filename": filename,
        "checksum": checksum,
        "data": data,
        "embed": embed,
    }
    with db.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
        row = cur.execute(q("enqueue_job"), params).fetchone() or cur.execute(q("pending_job"), params).fetchone()
        if row is None:  # the pending job finished between the two statements: queue a new one
            row = cur.execute(q("enqueue_job"), params).fetchone()
        assert row is not None
        found = cur.execute(q("get_job"), {"id": row["id"]}).fetchone()
    assert found is not None
    return _job(found)


def get_job(db: Database, job_id: int) -> IngestJob | None:
    """A job, None when it is not there or not in a room of the current user."""
    with db.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
        row = cur.execute(q("get_job"), {"id": job_id}).fetchone()
    return _job(row) if row else None


def room_jobs(
    db: Database, room_id: int, *, ids: Sequence[int] | None = None, limit: int = 50, active: bool = False
) -> list[IngestJob]:
    """The room's latest jobs (only `ids` when given), newest first; with `active`, every job not yet done or
    failed besides (whatever `limit` says), so a follower sees each one still running."""
    params = {"room_id": room_id, "ids": list(ids) if ids is not None else None, "limit": limit, "active": active}
    with db.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
        rows = cur.execute(q("room_jobs"), params).fetchall()
    return [_job(row) for row in rows]


def clear_finished(db: Database, room_id: int, ids: Sequence[int] | None = None) -> int:
    """Remove finished jobs from the room's list (yours; all of them for an owner); returns how many."""
    with db.connection() as conn:
        cur = conn.execute(q("clear_finished_jobs"), {"room_id": room_id, "ids": list(ids) if ids else None})
        return cur.rowcount


class _Progress:
    """Writes a job's stage and n of m to its row: on each change of stage, else at most every half second."""

    def __init__(self, db: Database, job_id: int) -> None:
        self.db, self.job_id = db, job_id
        self.stage, self.last = "", 0.0

    def __call__(self, stage: str, done: int, total: int) -> None:
        now = time.monotonic()
        if stage == self.stage and now - self.last < _PROGRESS_EVERY and done < total:
            return
        self.stage, self.last = stage, now
        with self.db.connection() as conn:
            conn.execute(q("job_progress"), {"id": self.job_id, "stage": stage, "done": done, "total": total})


def _finish(
    db: Database,
    job_id: int,
    status: str,
    *,
    error: str | None = None,
    result: IngestResult | None = None,
    peak: int | None = None,
) -> None:
    with db.connection() as conn:
        conn.execute(
            q("finish_job"),
            {
                "id": job_id,
                "status": status,
                "error": error,
                "result": Jsonb(result.model_dump(mode="json")) if result else None,
                "document_id": result.document_id if result else None,
                "parse_peak_mb": round(peak / 2**20) if peak else None,
            },
        )


# The piece of an upload's bytes the worker holds at a time while copying them to a file.
UPLOAD_PIECE = 8 * 1024 * 1024


@contextlib.contextmanager
def _upload_file(db: Database, settings: Settings, job_id: int) -> Iterator[JobUpload]:
    """The job's upload copied to a private file a piece at a time (UPLOAD_PIECE bytes, in binary), its checksum
    computed on the way: a 200 MB upload held whole, as Postgres' result and as Python bytes, took the worker's
    own peak from 390 MB to 947 MB (bench/worker_memory.py). The file is removed when the block ends (and by the
    next worker's sweep when this one is killed: core/ingest/scratch.py)."""
    with scratch.scratch(settings, "upload") as folder:
        path, digest = folder / "upload", hashlib.sha256()
        with db.connection() as conn, conn.cursor() as cur, path.open("wb") as out:
            found = cur.execute(q("job_data_size"), {"id": job_id}).fetchone()
            size = int(found[0] or 0) if found else 0
            for start in range(1, size + 1, UPLOAD_PIECE):
                args = {"id": job_id, "from": start, "for": UPLOAD_PIECE}
                row = cur.execute(q("job_data_piece"), args, binary=True).fetchone()
                if row is None:  # the job is gone (its room deleted): what was copied fails to parse, as it should
                    break
                digest.update(row[0])
                out.write(row[0])
        yield JobUpload(job_id=job_id, path=path, size=size, checksum=digest.hexdigest())


def run_job(db: Database, settings: Settings, embedder: Embedder | None, job_id: int, user_id: str) -> IngestJob | None:
    """Run one job as its user (`db` is turned into that user's view): parse, store, embed, and record the outcome.

    A file that cannot be ingested ends the job as failed (not retried: the same bytes fail the same way);
    anything else raised puts the job back in the queue and propagates, for the queue's retry.
    """
    db = db.as_user(user_id)
    with db.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
        started = cur.execute(q("start_job"), {"id": job_id}).fetchone()
        job_row = cur.execute(q("get_job"), {"id": job_id}).fetchone()
    if job_row is None or started is None:
        # Gone (its room deleted), no longer the user's to run, or already finished by an earlier attempt.
        log.info("job %s: nothing to run", job_id)
        return _job(job_row) if job_row else None
    job = _job(job_row)
    room = RoomRef(id=job.room_id, name=job.room)
    with db.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
        found = cur.execute(q("room_by_id"), {"id": job.room_id}).fetchone()
    if found:
        room = RoomRef(**found)
    if job.crashes >= MAX_ATTEMPTS:
        _finish(db, job_id, "failed", error=_given_up(db, room, job))
        return get_job(db, job_id)
    progress = _Progress(db, job_id)
    try:
        access.require_writer(db, room.id, room.name)
        if job.kind == "embed":
            if embedder is None:
                raise WorkbenchError("This worker cannot embed: start it without --no-embed.")
            embed_pending(db, room, embedder, progress=progress)
            _finish(db, job_id, "done")
        else:
            with _upload_file(db, settings, job_id) as upload:
                result = ingest_bytes(
                    db,
                    room,
                    upload,
                    job.filename or "upload",
                    settings,
                    embedder=embedder if job.embed else None,
                    progress=progress,
                )
            if job.attempts > 1 and result.duplicate:
                # Found because an earlier attempt of this very job stored it before its worker stopped.
                result = result.model_copy(update={"duplicate": False})
            peak = last_peak_rss() or None
            status = "done" if result.status == "ready" else "failed"
            _finish(db, job_id, status, error=result.error, result=result, peak=peak)
    except IngestError as exc:
        _finish(db, job_id, "failed", error=str(exc))
    except WorkbenchError as exc:  # access refused, a model mismatch: the user must act, a retry cannot help
        _finish(db, job_id, "failed", error=str(exc))
    except Exception as exc:
        _requeue(db, job, exc)
        raise
    return get_job(db, job_id)


def _given_up(db: Database, room: RoomRef, job: IngestJob) -> str:
    """Why a job whose worker died MAX_ATTEMPTS times is given up: at which stage, what was kept, what to do."""
    stopped = f"stopped its worker {MAX_ATTEMPTS} times (out of memory or a crash)"
    if job.kind == "embed":
        return f"Embedding {stopped} and was given up. {missing_room_vectors(room)}"
    with db.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
        stored = cur.execute(q("find_document_by_checksum"), {"room_id": room.id, "checksum": job.checksum}).fetchone()
    name = job.filename or "The file"
    if stored and stored["status"] == "incomplete":
        return f"{name} was stored, but embedding it {stopped}. {missing_vectors(db, room, stored['id'])}"
    return f"{name} {stopped} while it was read and stored, and was given up. Check the file, split it, and upload it again."


def missing_room_vectors(room: RoomRef) -> str:
    """The one command that embeds what a room lacks."""
    return f"Run `workbench embed --room {shlex.quote(room.name)}` to embed the missing chunks."


# How long a run that lost the database keeps trying to put its job back in the queue with the reason.
OUTAGE_WAIT = 60.0


def _outage(exc: BaseException) -> bool:
    """Whether `exc` is the database going away (a restart, a stop, the network), not something of the file's."""
    return isinstance(exc, psycopg.OperationalError) and not isinstance(exc, psycopg.errors.QueryCanceled)


def _requeue(db: Database, job: IngestJob, exc: BaseException) -> None:
    """Put a run that raised back in the queue with what happened; after a database outage, keep trying (up to
    OUTAGE_WAIT seconds) until the database is back, so the job says so instead of looking like a crash."""
    if _outage(exc):
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        reason = (
            f"attempt {job.attempts} could not reach the database ({first}); the job goes back to the queue once it "
            "is back, and this is not counted against the file"
        )
    else:
        reason = f"attempt {job.attempts} failed: {exc}"
    deadline = time.monotonic() + (OUTAGE_WAIT if _outage(exc) else 0.0)
    while True:
        try:
            with db.connection() as conn:
                conn.execute(q("requeue_job"), {"id": job.id, "error": reason})
            return
        except psycopg.Error as again:
            if time.monotonic() >= deadline:
                log.warning("job %s: could not record its retry (%s)", job.id, again)
                return
            time.sleep(1.0)


# ------------------------------------------------------------------------------------------------ the worker


class _WorkerState:
    """What a worker process loads once: settings, the database (app role) and the embedder."""

    db: Database | None = None
    settings: Settings | None = None
    embedder: Embedder | None = None


_state = _WorkerState()


@app.task(name="ingest", queue="ingest", retry=RetryStrategy(max_attempts=5, exponential_wait=2))
def ingest_task(job_id: int, user_id: str) -> None:
    """The queue's task: run job `job_id` as `user_id` in this worker."""
    if _state.db is None or _state.settings is None:
        raise RuntimeError("the ingest task runs in `workbench worker` only")
    run_job(_state.db, _state.settings, _state.embedder, job_id, user_id)


# Seconds without a heartbeat after which a worker is taken for dead and forgotten (at least).
FORGET_AFTER = 120.0
# The shortest silence after which a worker's job goes back to the queue, whatever its heartbeat interval: a live
# worker storing a large sheet can hold the interpreter for seconds, and with `--heartbeat 1` its own sweeper once
# requeued its own running job (it then never finished; the kill-a-worker test timed out in a full test run).
STALLED_FLOOR = 30.0


async def requeue_stalled(seconds_since_heartbeat: float) -> int:
    """Put back in the queue the jobs of workers whose heartbeat stopped (killed mid-job), then forget the workers
    silent for FORGET_AFTER (or ten times the stall time) and more (procrastinate prunes them only when a worker
    starts, so a dead one stayed listed while any other ran); returns how many jobs went back."""
    stalled = await app.job_manager.get_stalled_jobs(seconds_since_heartbeat=seconds_since_heartbeat)
    count = 0
    for job in stalled:
        log.warning("job %s of a stopped worker goes back to the queue", job.id)
        if "job_id" in job.task_kwargs:  # one crash of the ingest job (a run that raised is not one)
            # Through the queue's (the owner's) connection: the dead worker's job has one more crash.
            await app.connector.execute_query_async(q("count_crash"), id=job.task_kwargs["job_id"])
        await app.job_manager.retry_job(job)
        count += 1
    # A worker is forgotten only long after it stalled: a live one whose heartbeat lags a few seconds under load
    # (its job requeued above) must keep its row, or its job, its worker gone, would be requeued again mid-run.
    pruned = await app.job_manager.prune_stalled_workers(max(FORGET_AFTER, 10 * seconds_since_heartbeat))
    if pruned:
        log.info("forgot %d stopped worker(s): %s", len(pruned), ", ".join(map(str, pruned)))
    return count


async def _requeue_loop(every: float, seconds_since_heartbeat: float, settings: Settings) -> None:
    while True:
        try:
            await requeue_stalled(seconds_since_heartbeat)
        except psycopg.Error as exc:
            log.warning("looking for stalled jobs: %s", exc)
        scratch.sweep(settings)  # what a killed worker of this machine left in WORKBENCH_HOME/tmp
        await asyncio.sleep(every)


@contextlib.contextmanager
def _loaded(db: Database, settings: Settings, embedder: Embedder | None) -> Iterator[None]:
    _state.db, _state.settings, _state.embedder = db, settings, embedder
    try:
        yield
    finally:
        _state.db = _state.settings = _state.embedder = None


def run_worker(
    db: Database,
    settings: Settings,
    embedder: Embedder | None,
    *,
    concurrency: int = 1,
    burst: bool = False,
    heartbeat: float = 10.0,
) -> None:
    """Run jobs until stopped (SIGINT/SIGTERM), or until the queue is empty when `burst`."""
    # Stalled = no heartbeat for three intervals, and never less than STALLED_FLOOR; procrastinate prunes such
    # workers after the same time.
    stalled_after = max(3 * heartbeat, STALLED_FLOOR)

    async def main() -> None:
        connector = PsycopgConnector(conninfo=database_url(settings))
        with app.replace_connector(connector):
            async with app.open_async():
                await requeue_stalled(stalled_after)
                scratch.sweep(settings)
                sweeper = asyncio.create_task(_requeue_loop(heartbeat, stalled_after, settings))
                try:
                    await app.run_worker_async(
                        queues=["ingest"],
                        concurrency=concurrency,
                        wait=not burst,
                        update_heartbeat_interval=heartbeat,
                        stalled_worker_timeout=stalled_after,
                        delete_jobs="successful",
                    )
                finally:
                    sweeper.cancel()

    with _loaded(db, settings, embedder):
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            asyncio.run(main())
        else:
            # Called from code that has a loop running in this thread (a notebook, Playwright's sync API):
            # asyncio.run refuses to nest, so the worker's loop runs in a thread of its own.
            errors: list[BaseException] = []

            def run() -> None:
                try:
                    asyncio.run(main())
                except BaseException as exc:
                    errors.append(exc)

            thread = threading.Thread(target=run, name="ingest-worker")
            thread.start()
            thread.join()
            if errors:
                raise errors[0]
