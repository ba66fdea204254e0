-- Does the room hold a measure the question names ("net interest margin", "revenue per user")? A filing may
-- print it with a word inside ("effective income tax rate" for "effective tax rate"), or a sheet may spread
-- it over a row's cells and its column names ("Tier 1" under "Capital ratio"), so core/qa/measures.py asks
-- a tsquery of its own (word-distance alternatives, or all words of one row) rather than a phrase. The
-- membership check and index use of workbench_room_has_phrase (migration 009), which now asks through it;
-- p_rows: table rows only.
CREATE FUNCTION workbench_room_has_query(p_room bigint, p_query tsquery, p_rows boolean) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp SET enable_seqscan = off AS $$
    SELECT numnode(p_query) = 0 OR (p_room IN (SELECT workbench_rooms()) AND EXISTS (
        SELECT 1 FROM chunks c
        WHERE (c.tsv || array_to_tsvector(ARRAY['room:' || c.room_id::text]))
              @@ (p_query && quote_literal('room:' || p_room::text)::tsquery)
          AND (NOT p_rows OR c.row_id IS NOT NULL)
    ))
$$;

CREATE OR REPLACE FUNCTION workbench_room_has_phrase(p_room bigint, p_phrase text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT workbench_room_has_query(p_room, phraseto_tsquery('english', p_phrase), false)
$$;

-- The words of each row of a table read from a PDF (its cells carry boxes; a spreadsheet's rows have row chunks
-- instead), so core/qa/measures.py finds a measure spread over a row and its table's head without parsing every
-- row's cells per question: 26 ms parsed against 10 ms stored for a room of three 10-Ks (2,393 table rows).
ALTER TABLE sheet_rows ADD COLUMN tsv tsvector
    GENERATED ALWAYS AS (CASE WHEN boxes IS NOT NULL THEN to_tsvector('english', "values"::text) END) STORED;
