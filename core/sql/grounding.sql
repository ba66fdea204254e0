-- Queries of core/grounding.py: does the room mention the names a question asks about?

-- name: room_titles
SELECT d.title FROM documents d WHERE d.room_id = %(room_id)s
UNION ALL
SELECT r.name FROM rooms r WHERE r.id = %(room_id)s

-- name: room_has_phrase
-- A phrase made only of stop words names nothing to look for: it counts as found.
SELECT numnode(phraseto_tsquery('english', %(phrase)s)) = 0 OR EXISTS (
    SELECT 1 FROM chunks c
    WHERE c.room_id = %(room_id)s
      AND (c.tsv || array_to_tsvector(ARRAY['room:' || c.room_id::text]))
          @@ (phraseto_tsquery('english', %(phrase)s) && %(room_token)s::tsquery)
)
