-- Private conversations: a conversation, its messages, the query log and the votes are their own user's.
-- Until now every member of a room read (and could rewrite) every other member's questions and answers.
-- Room owners keep the Analytics figures through workbench_query_figures() below: timings, abstentions,
-- errors, citation counts and votes, never a question's text or who asked it.
DROP POLICY conversations_read ON conversations;
DROP POLICY conversations_add ON conversations;
DROP POLICY conversations_update ON conversations;
DROP POLICY conversations_delete ON conversations;
CREATE POLICY conversations_own ON conversations FOR ALL
    USING (user_id = (SELECT workbench_user()) AND room_id IN (SELECT workbench_rooms()))
    WITH CHECK (user_id = (SELECT workbench_user()) AND room_id IN (SELECT workbench_rooms()));

DROP POLICY qa_queries_read ON qa_queries;
DROP POLICY qa_queries_add ON qa_queries;
DROP POLICY qa_queries_update ON qa_queries;
DROP POLICY qa_queries_delete ON qa_queries;
CREATE POLICY qa_queries_own ON qa_queries FOR ALL
    USING (user_id = (SELECT workbench_user()) AND room_id IN (SELECT workbench_rooms()))
    WITH CHECK (user_id = (SELECT workbench_user()) AND room_id IN (SELECT workbench_rooms()));

-- Messages and citations follow their (now private) conversation and query; a vote is its voter's.
DROP POLICY qa_feedback_read ON qa_feedback;
DROP POLICY qa_feedback_vote ON qa_feedback;
CREATE POLICY qa_feedback_own ON qa_feedback FOR ALL
    USING (user_id = (SELECT workbench_user()) AND query_id IN (SELECT id FROM qa_queries))
    WITH CHECK (user_id = (SELECT workbench_user()) AND query_id IN (SELECT id FROM qa_queries));

-- A query's conversation is in the query's room (composite key: no row points into another room).
ALTER TABLE conversations ADD CONSTRAINT conversations_room_id UNIQUE (room_id, id);
ALTER TABLE qa_queries DROP CONSTRAINT qa_queries_conversation_id_fkey,
    ADD CONSTRAINT qa_queries_conversation_room FOREIGN KEY (room_id, conversation_id)
        REFERENCES conversations (room_id, id) ON DELETE SET NULL (conversation_id);

-- The Analytics figures of the queries in `rooms`: every query of a room the caller owns, and the caller's
-- own questions elsewhere. No text and no user: owners see how the room is served, not what was asked.
CREATE FUNCTION workbench_query_figures(rooms bigint[])
RETURNS TABLE (id bigint, room_id bigint, created_at timestamptz, source text, abstained boolean, failed boolean,
               total_ms real, first_token_ms real, n_citations integer, votes bigint, helpful bigint)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    -- total_ms is what the user waited (migration 013): the page's submit-to-last-token time for a question
    -- asked on a page, the service's own total for one from the command line.
    SELECT q.id, q.room_id, q.created_at, q.source, q.abstained, q.error IS NOT NULL,
           coalesce(q.waited_ms, q.total_ms), q.first_token_ms,
           q.n_citations,
           (SELECT count(*) FROM qa_feedback f WHERE f.query_id = q.id),
           (SELECT count(*) FROM qa_feedback f WHERE f.query_id = q.id AND f.helpful)
    FROM qa_queries q
    WHERE q.room_id = ANY(rooms)
      AND (q.room_id IN (SELECT workbench_owned_rooms())
           OR (q.user_id = (SELECT workbench_user()) AND q.room_id IN (SELECT workbench_rooms())))
$$;

-- A row the app writes without naming its user is the current user's (the policies admit no other).
ALTER TABLE conversations ALTER COLUMN user_id SET DEFAULT workbench_user();
ALTER TABLE qa_queries ALTER COLUMN user_id SET DEFAULT workbench_user();
ALTER TABLE qa_feedback ALTER COLUMN user_id SET DEFAULT workbench_user();

-- Policy gaps. Foreign keys are checked without row-level security, so a row could name another room's
-- parent: an embedding planted in one's own room for another room's chunk made that chunk look embedded
-- to nobody and pending to its room, and `embed_pending` looped on it forever. Composite keys now tie
-- every child to a parent of its own room. Rows that already break the rule are removed first.
DELETE FROM chunk_embeddings e USING chunks c WHERE c.id = e.chunk_id AND c.room_id <> e.room_id;
DELETE FROM chunks c USING documents d WHERE d.id = c.document_id AND d.room_id <> c.room_id;
DELETE FROM cell_edits e USING documents d WHERE d.id = e.document_id AND d.room_id <> e.room_id;
DELETE FROM cell_edits e USING sheets s WHERE s.id = e.sheet_id AND s.document_id <> e.document_id;
DELETE FROM cell_edits e USING sheet_rows r WHERE r.id = e.row_id AND r.sheet_id <> e.sheet_id;
UPDATE qa_queries q SET conversation_id = NULL FROM conversations c
WHERE c.id = q.conversation_id AND c.room_id <> q.room_id;

ALTER TABLE documents ADD CONSTRAINT documents_room_id UNIQUE (room_id, id);
ALTER TABLE chunks ADD CONSTRAINT chunks_room_id UNIQUE (room_id, id);
ALTER TABLE sheets ADD CONSTRAINT sheets_document_id UNIQUE (document_id, id);
ALTER TABLE sheet_rows ADD CONSTRAINT sheet_rows_sheet_id UNIQUE (sheet_id, id);

ALTER TABLE chunks ADD CONSTRAINT chunks_document_room
    FOREIGN KEY (room_id, document_id) REFERENCES documents (room_id, id) ON DELETE CASCADE;
ALTER TABLE chunk_embeddings ADD CONSTRAINT chunk_embeddings_chunk_room
    FOREIGN KEY (room_id, chunk_id) REFERENCES chunks (room_id, id) ON DELETE CASCADE;
ALTER TABLE cell_edits ADD CONSTRAINT cell_edits_document_room
        FOREIGN KEY (room_id, document_id) REFERENCES documents (room_id, id) ON DELETE CASCADE,
    ADD CONSTRAINT cell_edits_sheet_document
        FOREIGN KEY (document_id, sheet_id) REFERENCES sheets (document_id, id) ON DELETE CASCADE,
    ADD CONSTRAINT cell_edits_row_sheet
        FOREIGN KEY (sheet_id, row_id) REFERENCES sheet_rows (sheet_id, id) ON DELETE CASCADE;

-- Deleting content is an owner's. Editors could delete a ready document by first marking it failed (the
-- delete policy lets an editor replace a failed upload's record), and could delete a document's pages,
-- sheets, rows and chunks directly. A document's status is set when it is stored and never changes in
-- the app: only an owner may change it now; the restrictive policies below leave DELETE of a document's
-- content to owners (deleting the document itself cascades, which row-level security does not filter).
CREATE FUNCTION workbench_document_status_guard() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF NEW.status IS DISTINCT FROM OLD.status AND workbench_user() IS NOT NULL
       AND OLD.room_id NOT IN (SELECT workbench_owned_rooms()) THEN
        RAISE EXCEPTION 'only an owner of the room may change a document''s status'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER documents_status_guard BEFORE UPDATE OF status ON documents
    FOR EACH ROW EXECUTE FUNCTION workbench_document_status_guard();

CREATE POLICY chunks_delete_owner ON chunks AS RESTRICTIVE FOR DELETE
    USING (room_id IN (SELECT workbench_owned_rooms()));
CREATE POLICY cell_edits_delete_owner ON cell_edits AS RESTRICTIVE FOR DELETE
    USING (room_id IN (SELECT workbench_owned_rooms()));
CREATE POLICY pages_delete_owner ON pages AS RESTRICTIVE FOR DELETE
    USING (document_id IN (SELECT id FROM documents WHERE room_id IN (SELECT workbench_owned_rooms())));
CREATE POLICY document_files_delete_owner ON document_files AS RESTRICTIVE FOR DELETE
    USING (document_id IN (SELECT id FROM documents WHERE room_id IN (SELECT workbench_owned_rooms())));
CREATE POLICY sheets_delete_owner ON sheets AS RESTRICTIVE FOR DELETE
    USING (document_id IN (SELECT id FROM documents WHERE room_id IN (SELECT workbench_owned_rooms())));
CREATE POLICY sheet_columns_delete_owner ON sheet_columns AS RESTRICTIVE FOR DELETE
    USING (sheet_id IN (SELECT s.id FROM sheets s JOIN documents d ON d.id = s.document_id
                        WHERE d.room_id IN (SELECT workbench_owned_rooms())));
CREATE POLICY sheet_rows_delete_owner ON sheet_rows AS RESTRICTIVE FOR DELETE
    USING (sheet_id IN (SELECT s.id FROM sheets s JOIN documents d ON d.id = s.document_id
                        WHERE d.room_id IN (SELECT workbench_owned_rooms())));

-- Rate limits: one count per user across every room (a user with many rooms gets no more questions),
-- kept in a table the app role cannot touch: a viewer could rewrite or delete anyone's row of the old one.
-- workbench_count_request() is the only way in; it counts for the signed-in user alone. `kind` is
-- 'question', or 'search' (counted when the room's embeddings come from a paid server).
DROP TABLE rate_limits;
CREATE TABLE rate_limits (
    user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
    kind text NOT NULL CHECK (kind IN ('question', 'search')),
    asked_at timestamptz[] NOT NULL,                   -- requests within the window, oldest first
    PRIMARY KEY (user_id, kind)
);
REVOKE ALL ON rate_limits FROM PUBLIC, workbench_app, workbench_login;
ALTER TABLE rate_limits ENABLE ROW LEVEL SECURITY;
CREATE POLICY rate_limits_none ON rate_limits FOR ALL USING (false) WITH CHECK (false);

-- Count one request of the signed-in user if fewer than `p_limit` were made in the `p_window` before it.
-- Returns whether it was counted, the clock, and the request times in the window (oldest first). The row
-- lock (FOR UPDATE) queues concurrent requests, so the limit holds across processes. `p_at` is for tests.
CREATE FUNCTION workbench_count_request(p_kind text, p_limit integer, p_window interval, p_at timestamptz DEFAULT NULL)
RETURNS TABLE (counted boolean, clock timestamptz, asked timestamptz[])
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    me uuid := workbench_user();
    now_at timestamptz := coalesce(p_at, now());
    kept timestamptz[];
BEGIN
    IF me IS NULL THEN
        RAISE EXCEPTION 'no signed-in user to count' USING ERRCODE = 'insufficient_privilege';
    END IF;
    INSERT INTO rate_limits (user_id, kind, asked_at) VALUES (me, p_kind, '{}') ON CONFLICT DO NOTHING;
    SELECT ARRAY(SELECT t FROM unnest(r.asked_at) AS t WHERE t > now_at - p_window ORDER BY t) INTO kept
    FROM rate_limits r WHERE r.user_id = me AND r.kind = p_kind FOR UPDATE;
    IF cardinality(kept) >= p_limit THEN
        RETURN QUERY SELECT false, now_at, kept;
        RETURN;
    END IF;
    UPDATE rate_limits r SET asked_at = kept || now_at WHERE r.user_id = me AND r.kind = p_kind;
    RETURN QUERY SELECT true, now_at, kept || now_at;
END
$$;

-- Room names are unique per owner, not across the server: creating "Acme diligence" no longer tells a user
-- that someone else has a room of that name (the old message was an existence oracle). A room records
-- its creator, who cannot be anyone but the signed-in user (the local user for rooms made by the admin
-- connection), and who never changes.
ALTER TABLE rooms ADD COLUMN owner_id uuid REFERENCES users ON DELETE SET NULL
    DEFAULT coalesce(workbench_user(), '00000000-0000-0000-0000-000000000001');
UPDATE rooms r SET owner_id = coalesce(
    (SELECT m.user_id FROM room_members m WHERE m.room_id = r.id AND m.role = 'owner' ORDER BY m.user_id LIMIT 1),
    '00000000-0000-0000-0000-000000000001');
ALTER TABLE rooms DROP CONSTRAINT rooms_name_key, ADD CONSTRAINT rooms_owner_name UNIQUE (owner_id, name);
ALTER POLICY rooms_create ON rooms
    WITH CHECK ((SELECT workbench_user()) IS NOT NULL AND owner_id = (SELECT workbench_user()));
CREATE FUNCTION workbench_room_owner_guard() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF NEW.owner_id IS DISTINCT FROM OLD.owner_id AND workbench_user() IS NOT NULL THEN
        RAISE EXCEPTION 'a room''s creator does not change' USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER rooms_owner_guard BEFORE UPDATE OF owner_id ON rooms
    FOR EACH ROW EXECUTE FUNCTION workbench_room_owner_guard();

-- Sign-in backs off after repeated failures for one e-mail (whether or not it has an account, so the
-- back-off tells nothing about which exist): 5 free failures, then 1 s, 2 s, 4 s ... up to 15 minutes
-- between attempts; a day without failures starts the count again. Only the sign-in role reaches it.
CREATE TABLE sign_in_failures (
    email text PRIMARY KEY,                -- lower-cased
    failures integer NOT NULL,
    last_failed_at timestamptz NOT NULL
);
REVOKE ALL ON sign_in_failures FROM PUBLIC, workbench_app, workbench_login;
ALTER TABLE sign_in_failures ENABLE ROW LEVEL SECURITY;
CREATE POLICY sign_in_failures_none ON sign_in_failures FOR ALL USING (false) WITH CHECK (false);

-- Seconds before this e-mail may try again (0: now).
CREATE FUNCTION workbench_sign_in_wait(p_email text) RETURNS double precision
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT coalesce((
        SELECT greatest(0, extract(epoch FROM f.last_failed_at
               + least(interval '15 minutes', make_interval(secs => 2 ^ least(f.failures - 5, 10))) - now()))
        FROM sign_in_failures f
        WHERE f.email = lower(p_email) AND f.failures >= 5 AND f.last_failed_at > now() - interval '1 day'
    ), 0)::double precision
$$;

CREATE FUNCTION workbench_sign_in_result(p_email text, p_ok boolean) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF p_ok THEN
        DELETE FROM sign_in_failures WHERE email = lower(p_email);
    ELSE
        INSERT INTO sign_in_failures AS f (email, failures, last_failed_at) VALUES (lower(p_email), 1, now())
        ON CONFLICT (email) DO UPDATE
        SET failures = CASE WHEN f.last_failed_at < now() - interval '1 day' THEN 1 ELSE f.failures + 1 END,
            last_failed_at = now();
    END IF;
END
$$;
REVOKE ALL ON FUNCTION workbench_sign_in_wait(text), workbench_sign_in_result(text, boolean) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION workbench_sign_in_wait(text), workbench_sign_in_result(text, boolean) TO workbench_login;
