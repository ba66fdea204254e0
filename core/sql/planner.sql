-- Queries of core/qa/planner: the room's schema as the offline planner reads it (sheets, columns, values, trends).

-- Ready documents: the schema cache key.  A new, failed-then-fixed or deleted document changes it.
-- The schema's cache key: the ready documents, and the sheets' edit versions (a cell edit bumps one).
-- name: schema_version
SELECT count(*), coalesce(max(d.id), 0),
       coalesce((SELECT sum(s.version) FROM sheets s JOIN documents e ON e.id = s.document_id
                 WHERE e.room_id = %(room_id)s), 0)
FROM documents d WHERE d.room_id = %(room_id)s AND d.status IN ('ready', 'incomplete');

-- A table read from a PDF comes with its page's text: the names a question gives must be on that page.
-- name: schema_sheets
-- The eighth column: the whole document's text when the sheet is its only table and the document is short (30
-- pages or fewer: a memo's or an excerpt's paragraphs are that table's context; a long filing's are not), else '';
-- then the document's fiscal year (a filing's columns of later years are a schedule of what is due) and its
-- period's end (a fiscal year named by another year than its end date's: its columns are dated by the end), and
-- its quarter (a 10-Q's balance sheet is dated by the quarter's end).
SELECT s.id, s.document_id, d.title, s.name, s.n_rows, s.page_number, coalesce(p.text, ''),
       CASE WHEN s.page_number IS NOT NULL
                 AND (SELECT count(*) FROM sheets t WHERE t.document_id = s.document_id) = 1
                 AND (SELECT count(*) FROM pages c WHERE c.document_id = s.document_id) <= 30
            THEN coalesce((SELECT string_agg(a.text, ' ' ORDER BY a.page_number) FROM pages a
                           WHERE a.document_id = s.document_id), '')
            ELSE '' END,
       d.fiscal_year, d.period_end, d.fiscal_quarter, s.model, s.model_corrections
FROM sheets s JOIN documents d ON d.id = s.document_id
LEFT JOIN pages p ON p.document_id = s.document_id AND p.page_number = s.page_number
WHERE d.room_id = %(room_id)s AND d.status IN ('ready', 'incomplete')
ORDER BY d.created_at, d.id, s.position;

-- name: schema_grid_rows
SELECT r.sheet_id, r.id, r.values::text, r.row_number FROM sheet_rows r
WHERE r.sheet_id = ANY(%(sheet_ids)s) ORDER BY r.sheet_id, r.row_index;

-- name: schema_pdfs
SELECT id, title FROM documents
WHERE room_id = %(room_id)s AND status IN ('ready', 'incomplete') AND kind = 'pdf'
ORDER BY created_at, id;

-- First rows of each sheet, per column: filled cells, distinct (trimmed) texts and the first few of them.
-- A column with more than MAX_VALUES distinct texts here has more overall: its values are not listed
-- and the full pass below skips it (on a 100,000-row sheet that pass is what costs).
-- name: schema_probe
WITH cells AS (
    SELECT r.sheet_id, (e.i - 1)::int AS position, r.row_index, btrim(e.v) AS v
    FROM sheet_rows r
    CROSS JOIN LATERAL jsonb_array_elements_text(r.values) WITH ORDINALITY AS e(v, i)
    WHERE r.sheet_id = ANY(%(sheet_ids)s) AND r.row_index < %(probe_rows)s
),
firsts AS (
    SELECT sheet_id, position, v, min(row_index) AS first_row, count(*) AS n
    FROM cells WHERE v <> ''
    GROUP BY sheet_id, position, v
)
SELECT sheet_id, position, count(*) AS n_distinct, sum(n)::bigint AS n_filled,
       (array_agg(v ORDER BY first_row, v))[1:%(n_samples)s]
FROM firsts
GROUP BY sheet_id, position;

-- Every row, for the (sheet, column) pairs asked: filled cells, distinct texts and — up to
-- max_values of them — the texts in order of first appearance (jsonb ->> position per pair).
-- name: schema_values
WITH wanted AS (
    SELECT * FROM unnest(%(sheet_ids)s::bigint[], %(positions)s::int[]) AS w(sheet_id, position)
),
cells AS (
    SELECT w.sheet_id, w.position, r.row_index, btrim(r.values ->> w.position) AS v
    FROM wanted w JOIN sheet_rows r ON r.sheet_id = w.sheet_id
),
firsts AS (
    SELECT sheet_id, position, v, min(row_index) AS first_row, count(*) AS n
    FROM cells WHERE v <> ''
    GROUP BY sheet_id, position, v
),
ranked AS (
    SELECT sheet_id, position, v, n,
           count(*) OVER (PARTITION BY sheet_id, position) AS n_distinct,
           row_number() OVER (PARTITION BY sheet_id, position ORDER BY first_row, v) AS rank
    FROM firsts
)
SELECT sheet_id, position, n_distinct, sum(n)::bigint AS n_filled,
       array_agg(v ORDER BY rank) FILTER (WHERE n_distinct <= %(max_values)s OR rank <= %(n_samples)s)
FROM ranked
GROUP BY sheet_id, position, n_distinct;

-- Whether a column's numbers (or ISO dates) only ever go up or down the rows: such a column stands
-- in for the row order ("the last one") since a TableOp sorts by columns, not by row positions.
-- Only for sheets of at most TREND_MAX_ROWS rows: questions about row order are asked of short lists.
-- name: schema_trends
WITH cells AS (
    SELECT r.sheet_id, (e.i - 1)::int AS position, r.row_index, btrim(e.v) AS v
    FROM sheet_rows r
    CROSS JOIN LATERAL jsonb_array_elements_text(r.values) WITH ORDINALITY AS e(v, i)
    WHERE r.sheet_id = ANY(%(sheet_ids)s)
),
keyed AS (
    SELECT sheet_id, position, row_index,
           CASE WHEN v ~ '^-?[0-9]{1,3}(,[0-9]{3})*(\.[0-9]+)?$' OR v ~ '^-?[0-9]+(\.[0-9]+)?$'
                THEN replace(v, ',', '')::numeric
                WHEN v ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' THEN replace(v, '-', '')::numeric
           END AS x
    FROM cells WHERE v <> ''
),
steps AS (
    SELECT sheet_id, position, x - lag(x) OVER (PARTITION BY sheet_id, position ORDER BY row_index) AS step
    FROM keyed WHERE x IS NOT NULL
)
SELECT sheet_id, position, count(*) + 1 AS n_keyed,
       bool_and(step > 0), bool_and(step >= 0), bool_and(step < 0), bool_and(step <= 0)
FROM steps WHERE step IS NOT NULL
GROUP BY sheet_id, position;
