-- A lexicon metric's wording of words ("debt to equity", "operating earnings") must be in the room as written: a
-- phrase query skips a stop word's position but not its word, so "debt to equity" matched "debt or equity
-- securities", and the stemmer makes "operational earnings" operating earnings (core/qa/metrics.py).  The chunks the phrase query
-- finds (through the index, as workbench_room_has_query) must also match p_pattern, a case-insensitive regular
-- expression of the wording as written ('' matches every chunk).
CREATE FUNCTION workbench_room_has_written(p_room bigint, p_query tsquery, p_pattern text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp SET enable_seqscan = off AS $$
    SELECT numnode(p_query) = 0 OR (p_room IN (SELECT workbench_rooms()) AND EXISTS (
        SELECT 1 FROM chunks c
        WHERE (c.tsv || array_to_tsvector(ARRAY['room:' || c.room_id::text]))
              @@ (p_query && quote_literal('room:' || p_room::text)::tsquery)
          AND c.content ~* p_pattern
    ))
$$;
