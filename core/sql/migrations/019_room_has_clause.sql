-- A measure's words must be in one clause of a passage (core/qa/measures.py): a tsvector knows word positions
-- but not punctuation, so "transactions.\nFair Value" held "transaction value" and "advertising accruals, sales"
-- held "advertising sales".  The passages the tsquery finds (through the index) are split at the ends of
-- sentences and clauses (". ", "; ", ": ", ", "), at blank lines and at a line that starts a capitalised heading
-- or sentence, and a clause must match on its own.  A wrapped line ("… income tax\nrate …") stays whole.
-- p_words: the beginnings of words the clause must also hold as written (a word starting with each), since the
-- stemmer makes "utilizing" and "utilization", "manage" and "management" one word.
CREATE FUNCTION workbench_room_has_clause(p_room bigint, p_query tsquery, p_words text[]) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp SET enable_seqscan = off AS $$
    SELECT numnode(p_query) = 0 OR (p_room IN (SELECT workbench_rooms()) AND EXISTS (
        SELECT 1 FROM chunks c
        CROSS JOIN LATERAL regexp_split_to_table(c.content, '[.;:!?](\s|$)|,\s|\n\s*\n|\n(?=[A-Z])') AS clause
        WHERE (c.tsv || array_to_tsvector(ARRAY['room:' || c.room_id::text]))
              @@ (p_query && quote_literal('room:' || p_room::text)::tsquery)
          AND to_tsvector('english', clause) @@ p_query
          AND NOT EXISTS (SELECT 1 FROM unnest(p_words) AS w WHERE clause !~* ('\m' || w))
    ))
$$;
