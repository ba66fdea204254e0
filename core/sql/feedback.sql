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
       a.created_at, qq.id AS query_id, qq.abstained, qq.error AS note, f.helpful, f.comment
FROM messages a
JOIN LATERAL (
    SELECT content FROM messages u
    WHERE u.conversation_id = a.conversation_id AND u.role = 'user' AND u.id < a.id
    ORDER BY u.id DESC LIMIT 1
) u ON true
LEFT JOIN LATERAL (
    SELECT id, abstained, error FROM qa_queries qq
    -- Not matched on the question's text: the log keeps a redacted copy, the conversation the original.
    WHERE qq.conversation_id = a.conversation_id AND qq.created_at = a.created_at
    ORDER BY qq.id LIMIT 1
) qq ON true
LEFT JOIN qa_feedback f ON f.query_id = qq.id AND f.user_id IS NOT DISTINCT FROM %(user_id)s
WHERE a.conversation_id = %(conversation_id)s AND a.role = 'assistant'
ORDER BY a.id

-- name: recent_conversations
-- A room's conversations that hold at least one answered question, most recently active first.
SELECT c.id, coalesce(c.title, '') AS title, c.created_at, max(m.created_at) AS last_at,
       (count(*) FILTER (WHERE m.role = 'assistant'))::int AS turns
FROM conversations c
JOIN messages m ON m.conversation_id = c.id
WHERE c.room_id = %(room_id)s
GROUP BY c.id
HAVING count(*) FILTER (WHERE m.role = 'assistant') > 0
ORDER BY max(m.created_at) DESC, c.id DESC
LIMIT %(limit)s
