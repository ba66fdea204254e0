-- Ingestion jobs (migration 014): enqueued by the app as the user, run by workers as the job's user.

-- name: enqueue_job
-- A second enqueue of the same bytes (or of a room's embedding) while the first is pending is that job.
INSERT INTO ingest_jobs (room_id, kind, filename, checksum, data, embed)
VALUES (%(room_id)s, %(kind)s, %(filename)s, %(checksum)s, %(data)s, %(embed)s)
ON CONFLICT (room_id, (coalesce(checksum, kind))) WHERE status IN ('queued', 'running') DO NOTHING
RETURNING id;

-- name: pending_job
SELECT id FROM ingest_jobs
WHERE room_id = %(room_id)s AND coalesce(checksum, kind) = coalesce(%(checksum)s, %(kind)s)
  AND status IN ('queued', 'running');

-- name: get_job
SELECT j.id, j.room_id, r.name AS room, j.user_id::text AS user_id, j.kind, j.filename, j.checksum, j.embed,
       j.status, j.stage, j.done, j.total, j.attempts, j.crashes, j.error, j.result, j.document_id, j.parse_peak_mb,
       j.created_at, j.updated_at
FROM ingest_jobs j JOIN rooms r ON r.id = j.room_id
WHERE j.id = %(id)s;

-- name: room_jobs
SELECT j.id, j.room_id, r.name AS room, j.user_id::text AS user_id, j.kind, j.filename, j.checksum, j.embed,
       j.status, j.stage, j.done, j.total, j.attempts, j.crashes, j.error, j.result, j.document_id, j.parse_peak_mb,
       j.created_at, j.updated_at
FROM ingest_jobs j JOIN rooms r ON r.id = j.room_id
WHERE j.room_id = %(room_id)s AND (%(ids)s::bigint[] IS NULL OR j.id = ANY(%(ids)s))
  AND j.id IN (
      (SELECT l.id FROM ingest_jobs l
       WHERE l.room_id = %(room_id)s AND (%(ids)s::bigint[] IS NULL OR l.id = ANY(%(ids)s))
       ORDER BY l.id DESC LIMIT %(limit)s)
      UNION ALL
      SELECT a.id FROM ingest_jobs a
      WHERE %(active)s AND a.room_id = %(room_id)s AND a.status NOT IN ('done', 'failed'))
ORDER BY j.id DESC;

-- name: job_data_size
SELECT octet_length(data) AS size FROM ingest_jobs WHERE id = %(id)s;

-- name: job_data_piece
-- One piece of an upload's bytes (1-based): the worker copies them to a file a piece at a time, never all at once.
SELECT substring(data FROM %(from)s FOR %(for)s) AS piece FROM ingest_jobs WHERE id = %(id)s;

-- name: start_job
-- A run begins (the first, or a retry after an error or a worker that died mid-job).
UPDATE ingest_jobs
SET status = 'running', stage = 'queued', done = 0, total = 0, attempts = attempts + 1, updated_at = now()
WHERE id = %(id)s AND status IN ('queued', 'running')
RETURNING attempts;

-- name: job_progress
UPDATE ingest_jobs SET stage = %(stage)s, done = %(done)s, total = %(total)s, updated_at = now()
WHERE id = %(id)s AND status = 'running';

-- name: finish_job
-- The bytes are dropped: a finished document keeps its own copy, a failed file is uploaded again.
UPDATE ingest_jobs
SET status = %(status)s, stage = %(status)s, error = %(error)s, result = %(result)s, document_id = %(document_id)s,
    parse_peak_mb = %(parse_peak_mb)s, data = NULL, updated_at = now()
WHERE id = %(id)s;

-- name: requeue_job
-- A run that raised: back to queued with the reason, for procrastinate's retry (with backoff).
UPDATE ingest_jobs SET status = 'queued', stage = 'queued', error = %(error)s, updated_at = now()
WHERE id = %(id)s AND status = 'running';

-- name: count_crash
-- Run by the sweeper through the queue's (the owner's) connection: a dead worker's job has one more crash.
UPDATE ingest_jobs SET crashes = crashes + 1 WHERE id = %(id)s AND status IN ('queued', 'running');

-- name: clear_finished_jobs
DELETE FROM ingest_jobs WHERE room_id = %(room_id)s AND status IN ('done', 'failed')
  AND (%(ids)s::bigint[] IS NULL OR id = ANY(%(ids)s));

-- name: room_by_id
SELECT id, name, embedding_model FROM rooms WHERE id = %(id)s;
