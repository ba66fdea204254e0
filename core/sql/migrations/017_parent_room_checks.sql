-- The last two references that could point into another room (issue 12, item 5): a row chunk's sheet row and a
-- logged citation's document. Foreign keys are checked without row-level security, and neither table holds the
-- columns a composite key would need (a sheet row knows its sheet, a citation its query), so each is checked by a
-- statement-level trigger that reads the inserted or updated rows once (one anti-join per statement: ingestion
-- writes thousands of row chunks at a time). The functions are SECURITY DEFINER: they check that the parent really
-- is in the same room, not merely that the writer cannot see it. Rows that already break the rule go first.
DELETE FROM chunks c
WHERE c.row_id IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM sheet_rows r JOIN sheets s ON s.id = r.sheet_id
                  WHERE r.id = c.row_id AND s.document_id = c.document_id);
DELETE FROM qa_citations c
WHERE c.document_id IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM documents d JOIN qa_queries q ON q.room_id = d.room_id
                  WHERE d.id = c.document_id AND q.id = c.query_id);

CREATE FUNCTION workbench_check_chunk_rows() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM new_chunks n
               WHERE n.row_id IS NOT NULL
                 AND NOT EXISTS (SELECT 1 FROM sheet_rows r JOIN sheets s ON s.id = r.sheet_id
                                 WHERE r.id = n.row_id AND s.document_id = n.document_id)) THEN
        RAISE EXCEPTION 'a chunk may only name a row of its own document'
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER chunks_rows_insert AFTER INSERT ON chunks REFERENCING NEW TABLE AS new_chunks
    FOR EACH STATEMENT EXECUTE FUNCTION workbench_check_chunk_rows();
CREATE TRIGGER chunks_rows_update AFTER UPDATE ON chunks REFERENCING NEW TABLE AS new_chunks
    FOR EACH STATEMENT EXECUTE FUNCTION workbench_check_chunk_rows();

CREATE FUNCTION workbench_check_citation_documents() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM new_citations n
               WHERE n.document_id IS NOT NULL
                 AND NOT EXISTS (SELECT 1 FROM documents d JOIN qa_queries q ON q.room_id = d.room_id
                                 WHERE d.id = n.document_id AND q.id = n.query_id)) THEN
        RAISE EXCEPTION 'a citation may only name a document of its question''s room'
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER qa_citations_documents_insert AFTER INSERT ON qa_citations REFERENCING NEW TABLE AS new_citations
    FOR EACH STATEMENT EXECUTE FUNCTION workbench_check_citation_documents();
CREATE TRIGGER qa_citations_documents_update AFTER UPDATE ON qa_citations REFERENCING NEW TABLE AS new_citations
    FOR EACH STATEMENT EXECUTE FUNCTION workbench_check_citation_documents();

-- The functions are the triggers' only: nobody calls them directly.
REVOKE ALL ON FUNCTION workbench_check_chunk_rows() FROM PUBLIC;
REVOKE ALL ON FUNCTION workbench_check_citation_documents() FROM PUBLIC;
