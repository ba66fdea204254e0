-- Per-room access enforced by Postgres: the app connects as workbench_app (not a superuser, not the
-- tables' owner, no BYPASSRLS) and names its user per transaction (app.user_id); on Supabase the
-- user comes from the request's JWT (what auth.uid() reads). Every table holding room data has row
-- level security: a member reads the room's rows, an owner or editor writes them, a viewer reads and
-- asks (conversations, messages, query logs, feedback), an owner manages members and deletes.
-- tests/integration/test_rls.py checks that no table of the schema is left without a policy.

DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'workbench_app') THEN
        CREATE ROLE workbench_app LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS;
    END IF;
END
$$;
-- The migrating role may act as the app role (a managed server without trusted local logins).
DO $$
BEGIN
    EXECUTE format('GRANT workbench_app TO %I', current_user);
EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'could not grant workbench_app to %: connect the app with WORKBENCH_APP_DATABASE_URL', current_user;
END
$$;

-- The single user of a laptop: the implicit owner of every room until accounts are used.
INSERT INTO users (id, email, display_name)
VALUES ('00000000-0000-0000-0000-000000000001', NULL, 'Local user')
ON CONFLICT (id) DO NOTHING;
INSERT INTO room_members (room_id, user_id, role)
SELECT id, '00000000-0000-0000-0000-000000000001', 'owner' FROM rooms
ON CONFLICT DO NOTHING;

CREATE FUNCTION workbench_user() RETURNS uuid
LANGUAGE sql STABLE AS $$
    SELECT coalesce(
        nullif(current_setting('app.user_id', true), ''),
        nullif(current_setting('request.jwt.claim.sub', true), ''),
        nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub'
    )::uuid
$$;

-- SECURITY DEFINER: they read room_members without recursing into its own policies.
CREATE FUNCTION workbench_rooms() RETURNS SETOF bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT room_id FROM room_members WHERE user_id = workbench_user()
$$;

CREATE FUNCTION workbench_writable_rooms() RETURNS SETOF bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT room_id FROM room_members WHERE user_id = workbench_user() AND role IN ('owner', 'editor')
$$;

CREATE FUNCTION workbench_owned_rooms() RETURNS SETOF bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT room_id FROM room_members WHERE user_id = workbench_user() AND role = 'owner'
$$;

-- Keyword candidates of a room, for members only. Row-level security would keep the planner from
-- using the room-scoped full-text index (the @@ operator is not leakproof, so the policy's filter must
-- run first: a sequential scan, ~20x slower at 50k chunks); this function checks the membership
-- itself and runs the index scan as the tables' owner.
CREATE FUNCTION workbench_keyword_candidates(p_room bigint, p_filter tsquery, p_room_token tsquery)
RETURNS SETOF bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT c.id FROM chunks c
    WHERE c.room_id = p_room AND p_room IN (SELECT workbench_rooms())
      AND (c.tsv || array_to_tsvector(ARRAY['room:' || c.room_id::text])) @@ (p_filter && p_room_token)
$$;

-- Does the room's text hold this phrase (core/grounding.py's name check)? Same reason as above:
-- under row-level security the phrase query would scan every chunk instead of using the index. And
-- for EXISTS the planner bets on a sequential scan finding a match early, which for a name the room
-- lacks reads every chunk (240 ms at 50k chunks against 1 ms through the index): no sequential scan.
CREATE FUNCTION workbench_room_has_phrase(p_room bigint, p_phrase text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp SET enable_seqscan = off AS $$
    -- No "room_id = p_room": the room:<id> token (made here from p_room, so a caller cannot ask about
    -- another room) already says it, and with that condition the planner walks the room's btree index
    -- instead of asking the full-text index.
    SELECT numnode(phraseto_tsquery('english', p_phrase)) = 0 OR (p_room IN (SELECT workbench_rooms()) AND EXISTS (
        SELECT 1 FROM chunks c
        WHERE (c.tsv || array_to_tsvector(ARRAY['room:' || c.room_id::text]))
              @@ (phraseto_tsquery('english', p_phrase) && quote_literal('room:' || p_room::text)::tsquery)
    ))
$$;

-- Whoever creates a room owns it (a room made by the admin connection: the local user).
CREATE FUNCTION workbench_room_creator() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    INSERT INTO room_members (room_id, user_id, role)
    VALUES (NEW.id, coalesce(workbench_user(), '00000000-0000-0000-0000-000000000001'), 'owner')
    ON CONFLICT DO NOTHING;
    RETURN NEW;
END
$$;
CREATE TRIGGER rooms_owner AFTER INSERT ON rooms FOR EACH ROW EXECUTE FUNCTION workbench_room_creator();

GRANT USAGE ON SCHEMA public TO workbench_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO workbench_app;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO workbench_app;
REVOKE ALL ON schema_migrations FROM workbench_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO workbench_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO workbench_app;

-- users: yourself and the members of your rooms; accounts are created by the admin connection.
ALTER TABLE users ENABLE ROW LEVEL SECURITY;
CREATE POLICY users_read ON users FOR SELECT
    USING (id = workbench_user() OR id IN (SELECT user_id FROM room_members));
CREATE POLICY users_self ON users FOR UPDATE USING (id = workbench_user()) WITH CHECK (id = workbench_user());

ALTER TABLE rooms ENABLE ROW LEVEL SECURITY;
CREATE POLICY rooms_read ON rooms FOR SELECT USING (id IN (SELECT workbench_rooms()));
CREATE POLICY rooms_create ON rooms FOR INSERT WITH CHECK (workbench_user() IS NOT NULL);
CREATE POLICY rooms_write ON rooms FOR UPDATE
    USING (id IN (SELECT workbench_writable_rooms())) WITH CHECK (id IN (SELECT workbench_writable_rooms()));
CREATE POLICY rooms_delete ON rooms FOR DELETE USING (id IN (SELECT workbench_owned_rooms()));

ALTER TABLE room_members ENABLE ROW LEVEL SECURITY;
CREATE POLICY members_read ON room_members FOR SELECT USING (room_id IN (SELECT workbench_rooms()));
CREATE POLICY members_manage ON room_members FOR ALL
    USING (room_id IN (SELECT workbench_owned_rooms())) WITH CHECK (room_id IN (SELECT workbench_owned_rooms()));

-- Tables with a room_id written by ingestion and edits: members read, owners and editors write.
DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['documents', 'chunks', 'chunk_embeddings', 'term_stats', 'cell_edits'] LOOP
        IF to_regclass(t) IS NULL THEN CONTINUE; END IF;
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY %I ON %I FOR SELECT USING (room_id IN (SELECT workbench_rooms()))',
                       t || '_read', t);
        EXECUTE format('CREATE POLICY %I ON %I FOR INSERT WITH CHECK (room_id IN (SELECT workbench_writable_rooms()))',
                       t || '_add', t);
        EXECUTE format('CREATE POLICY %I ON %I FOR UPDATE USING (room_id IN (SELECT workbench_writable_rooms()))'
                       ' WITH CHECK (room_id IN (SELECT workbench_writable_rooms()))', t || '_update', t);
        -- Deleting a document is an owner's (its term statistics move with it: owners write too), except
        -- that an editor's re-upload of a failed file replaces the failed record.
        EXECUTE format('CREATE POLICY %I ON %I FOR DELETE USING (%s)', t || '_delete', t,
                       CASE WHEN t = 'documents'
                            THEN 'room_id IN (SELECT workbench_owned_rooms()) OR (status = ''failed'''
                                 || ' AND room_id IN (SELECT workbench_writable_rooms()))'
                            ELSE 'room_id IN (SELECT workbench_writable_rooms())' END);
    END LOOP;
END
$$;

-- Tables with a room_id that asking writes: every member (viewers too) reads and adds; owners delete.
DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['conversations', 'qa_queries', 'rate_limits'] LOOP
        IF to_regclass(t) IS NULL THEN CONTINUE; END IF;
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY %I ON %I FOR SELECT USING (room_id IN (SELECT workbench_rooms()))',
                       t || '_read', t);
        EXECUTE format('CREATE POLICY %I ON %I FOR INSERT WITH CHECK (room_id IN (SELECT workbench_rooms()))',
                       t || '_add', t);
        EXECUTE format('CREATE POLICY %I ON %I FOR UPDATE USING (room_id IN (SELECT workbench_rooms()))'
                       ' WITH CHECK (room_id IN (SELECT workbench_rooms()))', t || '_update', t);
        EXECUTE format('CREATE POLICY %I ON %I FOR DELETE USING (room_id IN (SELECT workbench_owned_rooms()))',
                       t || '_delete', t);
    END LOOP;
END
$$;

-- Tables reached through a document: the parent's own policy filters the subquery.
ALTER TABLE document_files ENABLE ROW LEVEL SECURITY;
CREATE POLICY document_files_read ON document_files FOR SELECT USING (document_id IN (SELECT id FROM documents));
CREATE POLICY document_files_write ON document_files FOR ALL
    USING (document_id IN (SELECT id FROM documents WHERE room_id IN (SELECT workbench_writable_rooms())))
    WITH CHECK (document_id IN (SELECT id FROM documents WHERE room_id IN (SELECT workbench_writable_rooms())));

ALTER TABLE pages ENABLE ROW LEVEL SECURITY;
CREATE POLICY pages_read ON pages FOR SELECT USING (document_id IN (SELECT id FROM documents));
CREATE POLICY pages_write ON pages FOR ALL
    USING (document_id IN (SELECT id FROM documents WHERE room_id IN (SELECT workbench_writable_rooms())))
    WITH CHECK (document_id IN (SELECT id FROM documents WHERE room_id IN (SELECT workbench_writable_rooms())));

ALTER TABLE sheets ENABLE ROW LEVEL SECURITY;
CREATE POLICY sheets_read ON sheets FOR SELECT USING (document_id IN (SELECT id FROM documents));
CREATE POLICY sheets_write ON sheets FOR ALL
    USING (document_id IN (SELECT id FROM documents WHERE room_id IN (SELECT workbench_writable_rooms())))
    WITH CHECK (document_id IN (SELECT id FROM documents WHERE room_id IN (SELECT workbench_writable_rooms())));

-- Reached through a sheet.
ALTER TABLE sheet_columns ENABLE ROW LEVEL SECURITY;
CREATE POLICY sheet_columns_read ON sheet_columns FOR SELECT USING (sheet_id IN (SELECT id FROM sheets));
CREATE POLICY sheet_columns_write ON sheet_columns FOR ALL
    USING (sheet_id IN (SELECT s.id FROM sheets s JOIN documents d ON d.id = s.document_id
                        WHERE d.room_id IN (SELECT workbench_writable_rooms())))
    WITH CHECK (sheet_id IN (SELECT s.id FROM sheets s JOIN documents d ON d.id = s.document_id
                             WHERE d.room_id IN (SELECT workbench_writable_rooms())));

ALTER TABLE sheet_rows ENABLE ROW LEVEL SECURITY;
CREATE POLICY sheet_rows_read ON sheet_rows FOR SELECT USING (sheet_id IN (SELECT id FROM sheets));
CREATE POLICY sheet_rows_write ON sheet_rows FOR ALL
    USING (sheet_id IN (SELECT s.id FROM sheets s JOIN documents d ON d.id = s.document_id
                        WHERE d.room_id IN (SELECT workbench_writable_rooms())))
    WITH CHECK (sheet_id IN (SELECT s.id FROM sheets s JOIN documents d ON d.id = s.document_id
                             WHERE d.room_id IN (SELECT workbench_writable_rooms())));

-- Reached through a conversation or a logged query: members read and add (asking, voting).
ALTER TABLE messages ENABLE ROW LEVEL SECURITY;
CREATE POLICY messages_read ON messages FOR SELECT USING (conversation_id IN (SELECT id FROM conversations));
CREATE POLICY messages_add ON messages FOR INSERT WITH CHECK (conversation_id IN (SELECT id FROM conversations));

ALTER TABLE qa_citations ENABLE ROW LEVEL SECURITY;
CREATE POLICY qa_citations_read ON qa_citations FOR SELECT USING (query_id IN (SELECT id FROM qa_queries));
CREATE POLICY qa_citations_add ON qa_citations FOR INSERT WITH CHECK (query_id IN (SELECT id FROM qa_queries));

ALTER TABLE qa_feedback ENABLE ROW LEVEL SECURITY;
CREATE POLICY qa_feedback_read ON qa_feedback FOR SELECT USING (query_id IN (SELECT id FROM qa_queries));
CREATE POLICY qa_feedback_vote ON qa_feedback FOR ALL
    USING (query_id IN (SELECT id FROM qa_queries)) WITH CHECK (query_id IN (SELECT id FROM qa_queries));
