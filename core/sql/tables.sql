-- Queries of core/retrieval/tables: a stored sheet loaded whole for exact table operations.

-- Sheet metadata and the cache version in one indexed lookup.  Sheets are written once, in the same
-- transaction as their document; a cell edit (core.ingest.edits) bumps sheets.version.  So the document's
-- created_at, the sheet's shape and its version identify the stored rows without scanning them.
-- name: sheet_meta
SELECT s.document_id, s.name, s.n_rows, s.n_cols, d.title, d.created_at, s.version, s.page_number, s.title,
       s.model, s.model_corrections, s.tab
FROM sheets s JOIN documents d ON d.id = s.document_id
WHERE s.id = %(sheet_id)s;

-- jsonb as text: one json.loads over the joined rows is far faster than psycopg loading 100k jsonb values.
-- name: sheet_frame_rows
SELECT id, row_number, values::text FROM sheet_rows
WHERE sheet_id = %(sheet_id)s ORDER BY row_index;
