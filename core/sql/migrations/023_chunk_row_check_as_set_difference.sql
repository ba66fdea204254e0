-- The check of migration 017 (a row chunk names a row of its own document) as a set difference: the new chunks'
-- (document, row) pairs less the rows of their documents' sheets. Written as an anti-join, its plan followed the
-- statistics of sheet_rows: analysed while it held pages but no live row (after a large upload rolled back, or
-- every sheet deleted), the table read as one row, and the check of the next large sheet became a nested loop over
-- a materialised scan of every row, for each chunk: a 150,000-row sheet's chunks held their transaction for
-- minutes. A set difference is hashed or sorted whatever the estimates: its work grows with the rows, not their
-- square.
CREATE OR REPLACE FUNCTION workbench_check_chunk_rows() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF EXISTS (SELECT n.document_id, n.row_id FROM new_chunks n WHERE n.row_id IS NOT NULL
               EXCEPT
               SELECT s.document_id, r.id FROM sheets s JOIN sheet_rows r ON r.sheet_id = s.id
               WHERE s.document_id IN (SELECT n.document_id FROM new_chunks n WHERE n.row_id IS NOT NULL)) THEN
        RAISE EXCEPTION 'a chunk may only name a row of its own document'
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END $$;
