-- Queries of core/qa/grounding.py: does the room mention the names a question asks about?

-- name: room_titles
SELECT d.title FROM documents d WHERE d.room_id = %(room_id)s
UNION ALL
SELECT r.name FROM rooms r WHERE r.id = %(room_id)s

-- name: room_has_phrase
-- A phrase made only of stop words names nothing to look for: it counts as found. (Through a
-- membership-checking function so the full-text index is used under row-level security: migration 009.)
SELECT workbench_room_has_phrase(%(room_id)s, %(phrase)s)
