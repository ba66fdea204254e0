-- A document is `ready` only when every stage finished (issue 41). It was stored `ready` before its chunks were
-- embedded, so a job cut off while embedding left it `ready` with 128 of 4,000 chunks embedded, and `workbench
-- rooms` counted it ready. Now a file stored to be embedded is `incomplete` until its last chunk has a vector:
-- readable and keyword-searchable, counted apart, and finished by `workbench embed --room NAME` (or a retry of
-- its job), which embeds only the missing chunks and then marks it ready.
ALTER TABLE documents DROP CONSTRAINT documents_status_check;
ALTER TABLE documents ADD CONSTRAINT documents_status_check
    CHECK (status IN ('ingesting', 'ready', 'incomplete', 'failed'));

-- Documents already left half-embedded: some chunks with a vector, some without (a file stored on purpose with
-- --no-embed has none, and stays ready).
UPDATE documents d SET status = 'incomplete', embedded_at = NULL
WHERE d.status = 'ready'
  AND EXISTS (SELECT 1 FROM chunks c JOIN chunk_embeddings e ON e.chunk_id = c.id WHERE c.document_id = d.id)
  AND EXISTS (SELECT 1 FROM chunks c WHERE c.document_id = d.id
              AND NOT EXISTS (SELECT 1 FROM chunk_embeddings e WHERE e.chunk_id = c.id));

-- Only an owner changes a document's status (migration 016), except the one step the worker takes as an editor's
-- job: incomplete to ready, and only once every chunk of it has its vector.
CREATE OR REPLACE FUNCTION workbench_document_status_guard() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF NEW.status IS DISTINCT FROM OLD.status AND workbench_user() IS NOT NULL
       AND OLD.room_id NOT IN (SELECT workbench_owned_rooms())
       AND NOT (OLD.status = 'incomplete' AND NEW.status = 'ready'
                AND NOT EXISTS (SELECT 1 FROM chunks c WHERE c.document_id = OLD.id
                                AND NOT EXISTS (SELECT 1 FROM chunk_embeddings e WHERE e.chunk_id = c.id))) THEN
        RAISE EXCEPTION 'only an owner of the room may change a document''s status'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END
$$;

-- A job's crashes: runs whose worker died (its heartbeat stopped and another worker's sweep put the job back in
-- the queue). `attempts` counts every run, and a run that raised (the database went away) is not a crash: a
-- 20-second database stop counted as one of the three strikes that gave a file up.
ALTER TABLE ingest_jobs ADD COLUMN crashes integer NOT NULL DEFAULT 0 CHECK (crashes >= 0);
