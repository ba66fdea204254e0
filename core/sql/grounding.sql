-- Queries of core/qa/grounding.py: does the room mention the names a question asks about?

-- name: room_titles
SELECT d.title FROM documents d WHERE d.room_id = %(room_id)s
UNION ALL
SELECT r.name FROM rooms r WHERE r.id = %(room_id)s

-- name: room_has_phrase
-- A phrase made only of stop words names nothing to look for: it counts as found. (Through a
-- membership-checking function so the full-text index is used under row-level security: migration 009.)
SELECT workbench_room_has_phrase(%(room_id)s, %(phrase)s)

-- name: room_has_written
-- A wording as a phrase, in a passage that also shows it as written (%(pattern)s, a regular expression: the stop
-- words inside it too, "debt to equity" is not "debt and equity"; "operational" is not "operating"). Through
-- the function of migration 020.
SELECT workbench_room_has_written(%(room_id)s, phraseto_tsquery('english', %(phrase)s), %(pattern)s)

-- name: room_has_clause
-- A measure's words in order with a few words between, within one clause of a passage (no ". " or ", "
-- between them) that also holds each of %(words)s as the start of a word as written: core/qa/measures.py.
-- Through the function of migration 019.
SELECT workbench_room_has_clause(%(room_id)s, to_tsquery('english', %(query)s), %(words)s::text[])

-- name: room_table_row_has_words
-- All of a measure's words in one row of a table read from a PDF, with the table's column names and title (a
-- PDF's tables have no row chunks; the rows' words are stored by migration 018); the row with its head must also
-- match %(text)s ("per unit" for a cost per unit; '' matches every row) and hold each of %(row_words)s as the start
-- of a word as written.
WITH heads AS MATERIALIZED (  -- each table's head once, not once per row
    SELECT s.id, concat_ws(' ', s.title, (SELECT string_agg(c.name, ' ') FROM sheet_columns c WHERE c.sheet_id = s.id))
           AS head
    FROM sheets s JOIN documents d ON d.id = s.document_id
    WHERE d.room_id = %(room_id)s AND s.page_number IS NOT NULL
), tables AS MATERIALIZED (
    SELECT id, head, to_tsvector('english', head) AS head_tsv FROM heads
)
SELECT EXISTS (
    SELECT 1 FROM tables t JOIN sheet_rows r ON r.sheet_id = t.id
    WHERE r.tsv IS NOT NULL AND (t.head_tsv || r.tsv) @@ to_tsquery('english', %(query)s)
      AND r."values"::text ~ %(figure)s  -- a ratio's row shows ratios ('' matches every row)
      AND concat_ws(' ', t.head, r."values"::text) ~* %(text)s
      -- each word as written: "Revenue from contracts" holds no contracted revenue (one stem)
      AND NOT EXISTS (SELECT 1 FROM unnest(%(row_words)s::text[]) AS w
                      WHERE concat_ws(' ', t.head, r."values"::text) !~* ('\m' || w))
)

-- name: room_row_chunk_has_words
-- All of a measure's words in one row chunk of a sheet (its cells with their column names), whose text also
-- matches %(figure)s (a ratio's row shows ratios) and %(text)s ("per unit"; '' matches every row) and holds each of
-- %(row_words)s as the start of a word as written: core/qa/measures.py.
SELECT EXISTS (
    SELECT 1 FROM chunks c
    WHERE c.room_id = %(room_id)s AND c.row_id IS NOT NULL
      AND c.tsv @@ to_tsquery('english', %(query)s) AND c.content ~ %(figure)s AND c.content ~* %(text)s
      AND NOT EXISTS (SELECT 1 FROM unnest(%(row_words)s::text[]) AS w WHERE c.content !~* ('\m' || w))
)

-- name: texts_holding_clause
-- Which of %(texts)s (the evidence retrieved for a question; NULL for a piece not tested) hold a measure in one
-- clause, as their positions from 1: the test of room_has_clause on the evidence instead of the room (clauses
-- split as migration 019 splits them).
SELECT CASE WHEN numnode(to_tsquery('english', %(query)s)) = 0
            THEN ARRAY(SELECT u.i FROM unnest(%(texts)s::text[]) WITH ORDINALITY AS u(t, i) WHERE u.t IS NOT NULL)
            ELSE ARRAY(
    SELECT DISTINCT u.i FROM unnest(%(texts)s::text[]) WITH ORDINALITY AS u(t, i)
    CROSS JOIN LATERAL regexp_split_to_table(u.t, '[.;:!?](\s|$)|,\s|\n\s*\n|\n(?=[A-Z])') AS clause
    WHERE to_tsvector('english', clause) @@ to_tsquery('english', %(query)s)
      AND NOT EXISTS (SELECT 1 FROM unnest(%(words)s::text[]) AS w WHERE clause !~* ('\m' || w))
) END

-- name: texts_holding_row_words
-- Which of %(texts)s (sheet rows with their column names; NULL for a piece not tested) hold all of a measure's
-- words, with the tests of room_row_chunk_has_words: %(figure)s, %(text)s and each of %(row_words)s as written.
SELECT ARRAY(
    SELECT u.i FROM unnest(%(texts)s::text[]) WITH ORDINALITY AS u(t, i)
    WHERE to_tsvector('english', u.t) @@ to_tsquery('english', %(query)s) AND u.t ~ %(figure)s AND u.t ~* %(text)s
      AND NOT EXISTS (SELECT 1 FROM unnest(%(row_words)s::text[]) AS w WHERE u.t !~* ('\m' || w))
)

-- name: texts_holding_phrases
-- Which of %(texts)s (NULL for a piece not tested) hold any of %(phrases)s as a phrase and as written (the
-- regular expression of %(patterns)s at the same position; '' for one word): the test of room_has_written on the
-- evidence instead of the room, for every wording of a metric in one round trip.
SELECT ARRAY(
    SELECT DISTINCT u.i FROM unnest(%(texts)s::text[]) WITH ORDINALITY AS u(t, i)
    CROSS JOIN unnest(%(phrases)s::text[], %(patterns)s::text[]) AS w(phrase, pattern)
    WHERE (numnode(phraseto_tsquery('english', w.phrase)) = 0
           OR to_tsvector('english', u.t) @@ phraseto_tsquery('english', w.phrase))
      AND u.t ~* w.pattern
)

-- name: query_text
-- A to_tsquery text (a measure's words in order, core/qa/measures.py) as a tsquery's text, its words stemmed: a
-- search step's candidates must match it (core/retrieval/search.py, `within`).
SELECT to_tsquery('english', %(query)s)::text

-- name: wordings_query_text
-- Any of %(wordings)s (a metric's, core/qa/metrics.py) as a phrase, as one tsquery's text.
SELECT string_agg('(' || t::text || ')', ' | ') FROM (
    SELECT phraseto_tsquery('english', w) AS t FROM unnest(%(wordings)s::text[]) AS w
) phrases WHERE numnode(t) > 0
