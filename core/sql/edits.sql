-- Named queries of cell editing (core/ingest/edits.py).

-- name: stale_citations
-- Per assistant message of a conversation: the refs of the cells it cites that were edited after
-- it was written and whose text now differs from the text the answer cited (an edit undone is not stale).
-- The cited row ids are read out of the JSON first: joined on a bigint, sheet_rows is read through its primary key.
-- (Joined on the JSON expression itself, row-level security kept the index out, and every page run of a
-- conversation scanned all the rows of every sheet: 320 ms with a 100,000-row sheet in another room.)
WITH cited AS MATERIALIZED (
    SELECT m.id AS message_id, m.created_at, cit->>'ref' AS ref, cit->>'column' AS column_name,
           (cit->>'row_id')::bigint AS row_id, cit ? 'value' AS has_value, cit->>'value' AS value
    FROM messages m
    CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(m.citations) = 'array' THEN m.citations ELSE '[]' END) AS cit
    WHERE m.conversation_id = %(conversation_id)s
      AND m.role = 'assistant'
      AND cit->>'kind' = 'cell'
      AND jsonb_typeof(cit->'row_id') = 'number'
)
SELECT c.message_id,
       array_agg(DISTINCT coalesce(c.ref, c.column_name) ORDER BY coalesce(c.ref, c.column_name)) AS refs
FROM cited c
JOIN sheet_rows r ON r.id = c.row_id
JOIN sheet_columns sc ON sc.sheet_id = r.sheet_id AND sc.name = c.column_name
WHERE EXISTS (
      SELECT 1 FROM cell_edits e
      WHERE e.row_id = r.id AND e.column_name = sc.name AND e.edited_at > c.created_at)
  AND (NOT c.has_value OR (r.values->>sc.position) IS DISTINCT FROM c.value)
GROUP BY c.message_id
ORDER BY c.message_id

-- name: room_sheets
SELECT s.id AS sheet_id, s.document_id, d.title, s.name, s.position,
       count(*) OVER (PARTITION BY s.document_id)::int AS n_sheets, s.n_rows, s.n_cols,
       s.title AS sheet_title, s.uncalculated, s.page_number AS page, s.model, s.model_corrections AS corrections, s.tab
FROM sheets s JOIN documents d ON d.id = s.document_id
WHERE d.room_id = %(room_id)s AND d.status IN ('ready', 'incomplete')
ORDER BY d.created_at, d.id, s.position

-- name: sheet_info
SELECT s.id AS sheet_id, s.document_id, d.title, s.name, s.position,
       (SELECT count(*) FROM sheets o WHERE o.document_id = s.document_id)::int AS n_sheets, s.n_rows, s.n_cols,
       s.title AS sheet_title, s.uncalculated, s.page_number AS page, s.model, s.model_corrections AS corrections, s.tab
FROM sheets s JOIN documents d ON d.id = s.document_id
WHERE s.id = %(sheet_id)s

-- name: grid_rows
-- A window of rows by position (the (sheet_id, row_index) index); jsonb as text for one fast json.loads.
SELECT id, row_number, values::text FROM sheet_rows
WHERE sheet_id = %(sheet_id)s AND row_index >= %(start)s
  AND (%(stop)s::int IS NULL OR row_index < %(stop)s::int)
ORDER BY row_index

-- name: grid_rows_by_id
-- Some rows of a sheet by id (the rows an answer cites), in sheet order; ids of other sheets' rows match nothing.
SELECT id, row_number, values::text FROM sheet_rows
WHERE sheet_id = %(sheet_id)s AND id = ANY(%(row_ids)s::bigint[])
ORDER BY row_index

-- name: grid_find
-- The rows holding `text` in any cell (case-insensitive), a window of them, and how many there are in all.
SELECT id, row_number, values::text, count(*) OVER () AS n
FROM sheet_rows r
WHERE r.sheet_id = %(sheet_id)s
  AND EXISTS (SELECT 1 FROM jsonb_array_elements_text(r.values) AS v(cell) WHERE strpos(lower(v.cell), lower(%(text)s)) > 0)
ORDER BY r.row_index
OFFSET %(start)s LIMIT %(limit)s

-- name: row_position
SELECT row_index FROM sheet_rows WHERE id = %(row_id)s AND sheet_id = %(sheet_id)s

-- name: lock_sheet_row
SELECT r.sheet_id, r.row_number, r.values, s.name AS sheet_name, coalesce(s.tab, s.name) AS tab, s.document_id,
       d.room_id, s.page_number
FROM sheet_rows r JOIN sheets s ON s.id = r.sheet_id JOIN documents d ON d.id = s.document_id
WHERE r.id = %(row_id)s
FOR UPDATE OF r

-- name: update_sheet_row
UPDATE sheet_rows SET values = %(values)s::jsonb WHERE id = %(row_id)s

-- name: insert_cell_edit
INSERT INTO cell_edits (room_id, document_id, sheet_id, row_id, column_position, column_name, ref,
                        old_value, new_value, user_id)
VALUES (%(room_id)s, %(document_id)s, %(sheet_id)s, %(row_id)s, %(column_position)s, %(column_name)s, %(ref)s,
        %(old_value)s, %(new_value)s, %(user_id)s)
RETURNING id, edited_at

-- name: row_chunk
SELECT id FROM chunks WHERE row_id = %(row_id)s

-- name: row_chunk_pending
SELECT c.id, c.room_id, c.context, c.content FROM chunks c
WHERE c.row_id = %(row_id)s AND NOT EXISTS (SELECT 1 FROM chunk_embeddings e WHERE e.chunk_id = c.id)

-- name: chunk_lexemes
SELECT unnest(tsvector_to_array(tsv)) AS lexeme FROM chunks WHERE id = %(chunk_id)s

-- name: update_chunk_content
UPDATE chunks SET content = %(content)s WHERE id = %(chunk_id)s

-- name: term_stats_remove
UPDATE term_stats SET df = df - 1
WHERE room_id = %(room_id)s AND lexeme = ANY(%(lexemes)s::text[]) AND df > 1

-- name: term_stats_prune
-- Before term_stats_remove: a lexeme whose last chunk lost it leaves the table, as a recount would.
DELETE FROM term_stats WHERE room_id = %(room_id)s AND lexeme = ANY(%(lexemes)s::text[]) AND df <= 1

-- name: term_stats_add
INSERT INTO term_stats (room_id, lexeme, df)
SELECT %(room_id)s, lexeme, 1 FROM unnest(%(lexemes)s::text[]) AS l(lexeme) ORDER BY lexeme
ON CONFLICT (room_id, lexeme) DO UPDATE SET df = term_stats.df + 1

-- name: drop_chunk_embedding
-- The edited row is embedded again; until then keyword search finds it and the document shows as embedding.
WITH dropped AS (DELETE FROM chunk_embeddings WHERE chunk_id = %(chunk_id)s RETURNING chunk_id)
UPDATE documents SET embedded_at = NULL
WHERE id = (SELECT document_id FROM chunks WHERE id = %(chunk_id)s) AND EXISTS (SELECT 1 FROM dropped)

-- name: bump_sheet_version
UPDATE sheets SET version = version + 1 WHERE id = %(sheet_id)s

-- name: document_room
SELECT r.name FROM documents d JOIN rooms r ON r.id = d.room_id WHERE d.id = %(document_id)s

-- name: sheet_model_rows
-- The stored rows a sheet's model is re-derived from after an edit (a long list of records has no row models).
SELECT row_number, values FROM sheet_rows WHERE sheet_id = %(sheet_id)s ORDER BY row_index

-- name: sheet_model
SELECT s.model, s.model_corrections, s.page_number, d.room_id, d.id AS document_id
FROM sheets s JOIN documents d ON d.id = s.document_id WHERE s.id = %(sheet_id)s

-- name: update_sheet_model
UPDATE sheets SET model = %(model)s WHERE id = %(sheet_id)s

-- name: correct_sheet_model
-- An editor's correction, laid over the derived model; the version bump tells every reader's cache.
UPDATE sheets SET model_corrections = %(corrections)s, version = version + 1 WHERE id = %(sheet_id)s
