"""Issue 41, item 2: a document is `ready` only when every stage finished. A job cut off while embedding leaves it
`incomplete` (counted apart by `workbench rooms`), `workbench embed --room` embeds only the missing chunks; a
database outage is not counted as a crash of the file; the messages say what happened."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import psycopg
import pytest

from core.db import LOCAL_USER
from core.ingest import jobs
from core.workbench import Workbench
from tests.factories import run_workbench

ROWS = "\n".join(f"Company {i},{i * 1000},Canada" for i in range(300))
CSV = f"name,raised,country\n{ROWS}\n".encode()


class Cut:
    """An embedder that stores `steps` steps of vectors, then fails as `error` (a worker dying, the database going)."""

    def __init__(self, name: str, steps: int, error: BaseException) -> None:
        self.name, self.steps, self.error = name, steps, error

    def embed(self, texts: list[str]) -> np.ndarray:
        if self.steps == 0:
            raise self.error
        self.steps -= 1
        vectors = np.random.default_rng(len(texts)).random((len(texts), 384), dtype=np.float32)
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed([text])[0]


def _vectors(db_url: str) -> tuple[int, int]:
    with psycopg.connect(db_url) as conn:
        row = conn.execute("SELECT (SELECT count(*) FROM chunk_embeddings), (SELECT count(*) FROM chunks)").fetchone()
    return int(row[0]), int(row[1])


def _status(db_url: str) -> str:
    with psycopg.connect(db_url) as conn:
        return conn.execute("SELECT status FROM documents WHERE title = 'many.csv'").fetchone()[0]


def test_a_job_cut_off_while_embedding_leaves_the_document_incomplete_and_embed_resumes_it(
    workbench: Workbench, settings, db_url: str, tmp_path: Path
) -> None:
    job = workbench.enqueue_upload(CSV, "many.csv", "Deal")
    cut = Cut(workbench.embedder.name, 2, RuntimeError("the worker's process was killed"))
    with pytest.raises(RuntimeError):
        jobs.run_job(workbench.db, settings, cut, job.id, LOCAL_USER)
    embedded, total = _vectors(db_url)
    assert 0 < embedded < total
    assert _status(db_url) == "incomplete"
    room = next(r for r in workbench.rooms() if r.name == "Deal")
    assert (room.ready, room.incomplete, room.failed) == (0, 1, 0)
    listed = run_workbench("rooms", env={"DATABASE_URL": db_url, "WORKBENCH_HOME": str(tmp_path)}, timeout=120)
    assert "Deal: 0 documents ready, 1 incomplete (`workbench embed --room Deal` finishes them), 0 failed" in (
        listed.stdout
    ), listed.stdout + listed.stderr
    # The worker died twice more while embedding (as the stalled-job sweeper records it): the job is given up, and
    # its message says what was stored, what is missing and the one command that finishes it.
    with psycopg.connect(db_url) as conn:
        conn.execute("UPDATE ingest_jobs SET crashes = %s WHERE id = %s", (jobs.MAX_ATTEMPTS, job.id))
    given_up = jobs.run_job(workbench.db, settings, cut, job.id, LOCAL_USER)
    assert given_up is not None and given_up.status == "failed"
    assert f"{embedded} of {total} chunks have vectors" in (given_up.error or "")
    assert "`workbench embed --room Deal`" in (given_up.error or "") and "split" not in (given_up.error or "")
    assert _status(db_url) == "incomplete"
    # One command embeds only what is missing, and the document is ready.
    resumed = run_workbench("embed", "--room", "Deal", env={"DATABASE_URL": db_url, "WORKBENCH_HOME": str(tmp_path)})
    assert resumed.returncode == 0, resumed.stderr
    assert f"embedded {total - embedded} chunks" in resumed.stdout
    assert _vectors(db_url) == (total, total) and _status(db_url) == "ready"


def test_an_embedding_that_fails_leaves_the_document_incomplete_with_a_message(workbench: Workbench) -> None:
    from core.errors import WorkbenchError
    from core.ingest.pipeline import ingest_bytes

    cut = Cut(workbench.embedder.name, 1, WorkbenchError("The embedding server refused the key."))
    room = workbench.room("Deal", create=True)
    result = ingest_bytes(workbench.db, room, CSV, "many.csv", workbench.settings, embedder=cut)
    assert result.status == "incomplete" and not result.embedded
    assert "The embedding server refused the key." in (result.error or "")
    assert "`workbench embed --room Deal`" in (result.error or "")
    assert [d.status for d in workbench.documents("Deal")] == ["incomplete"]


def test_a_database_outage_is_not_counted_as_a_crash_of_the_file(workbench: Workbench, settings) -> None:
    """A connection the server ended (a restart, a 20-second stop) raised out of four runs in a row: each goes back
    to the queue saying so, none counts against the file, and the fifth run finishes the job."""
    job = workbench.enqueue_upload(CSV, "many.csv", "Deal")
    outage = psycopg.OperationalError("terminating connection due to administrator command")
    for _ in range(jobs.MAX_ATTEMPTS + 1):
        with pytest.raises(psycopg.OperationalError):
            jobs.run_job(workbench.db, settings, Cut(workbench.embedder.name, 1, outage), job.id, LOCAL_USER)
        queued = workbench.jobs("Deal", ids=[job.id])[0]
        assert queued.status == "queued" and queued.crashes == 0
        assert "could not reach the database" in (queued.error or ""), queued.error
        assert "not counted against the file" in (queued.error or "")
    done = jobs.run_job(workbench.db, settings, workbench.embedder, job.id, LOCAL_USER)
    assert done is not None and done.status == "done", done
    assert [d.status for d in workbench.documents("Deal")] == ["ready"]
