-- One vote per query per user, a second vote replacing the first. The original UNIQUE (query_id, user_id)
-- let any number of anonymous (NULL user) votes pile up, since NULLs are distinct by default (PG 15+ syntax).
ALTER TABLE qa_feedback
    DROP CONSTRAINT qa_feedback_query_id_user_id_key,
    ADD CONSTRAINT qa_feedback_one_vote UNIQUE NULLS NOT DISTINCT (query_id, user_id);

-- Redrawing a conversation finds its logged queries; the chat page lists a room's recent conversations.
CREATE INDEX qa_queries_conversation ON qa_queries (conversation_id, created_at);
CREATE INDEX conversations_room ON conversations (room_id, created_at);
