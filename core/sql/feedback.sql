-- Named queries of answer feedback and conversation history (core/qa/feedback.py).

-- name: record_feedback
-- One vote per query per user (NULLS NOT DISTINCT, migration 005): a second vote replaces the first.
INSERT INTO qa_feedback (query_id, user_id, helpful, comment)
VALUES (%(query_id)s, %(user_id)s, %(helpful)s, %(comment)s)
ON CONFLICT (query_id, user_id) DO UPDATE
    SET helpful = EXCLUDED.helpful, comment = EXCLUDED.comment, created_at = now()
RETURNING id

-- name: conversation_history
-- Each assistant message with the question before it, its logged query and the user's vote. core.qa.service
-- writes a turn's two messages and its qa_queries row in one transaction, so they share created_at
-- (now() is the transaction's time); failed questions have a query row (error set) but no messages, and an
-- answer written offline after a model failure has both (its error is the note shown with it).
SELECT a.id AS message_id, u.content AS question, a.content AS answer, a.citations::text AS citations,
       a.created_at, qq.id AS query_id, qq.abstained, qq.error AS note, f.helpful, f.comment,
       qq.steps::text AS steps, qq.waited_ms
FROM messages a
JOIN LATERAL (
    SELECT content FROM messages u
    WHERE u.conversation_id = a.conversation_id AND u.role = 'user' AND u.id < a.id
    ORDER BY u.id DESC LIMIT 1
) u ON true
LEFT JOIN LATERAL (
    SELECT id, abstained, error, steps, waited_ms FROM qa_queries qq
    -- Not matched on the question's text: the log keeps a redacted copy, the conversation the original.
    WHERE qq.conversation_id = a.conversation_id AND qq.created_at = a.created_at
    ORDER BY qq.id LIMIT 1
) qq ON true
LEFT JOIN qa_feedback f ON f.query_id = qq.id AND f.user_id IS NOT DISTINCT FROM %(user_id)s
WHERE a.conversation_id = %(conversation_id)s AND a.role = 'assistant'
ORDER BY a.id

-- name: recent_conversations
-- Conversations that hold at least one answered question, most recently active first: a room's, or (room_id
-- NULL) those of every room the user can see (row-level security filters them).
SELECT c.id, coalesce(c.title, '') AS title, c.created_at, max(m.created_at) AS last_at,
       (count(*) FILTER (WHERE m.role = 'assistant'))::int AS turns, r.name AS room
FROM conversations c
JOIN rooms r ON r.id = c.room_id
JOIN messages m ON m.conversation_id = c.id
WHERE c.room_id = %(room_id)s OR %(room_id)s::bigint IS NULL
GROUP BY c.id, r.name
HAVING count(*) FILTER (WHERE m.role = 'assistant') > 0
ORDER BY max(m.created_at) DESC, c.id DESC
LIMIT %(limit)s
