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
RETURNS TABLE (id bigint, room_id bigint, created_at timestamptz, abstained boolean, failed boolean,
               total_ms real, first_token_ms real, n_citations integer, votes bigint, helpful bigint)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT q.id, q.room_id, q.created_at, q.abstained, q.error IS NOT NULL, q.total_ms, q.first_token_ms,
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
