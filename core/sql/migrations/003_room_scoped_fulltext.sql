-- Full-text candidates of one room in one index scan: the indexed tsvector carries a room:<id>
-- token next to the chunk's lexemes (the english parser never makes a lexeme with a colon), so
-- "term AND room:<id>" is answered by the GIN index alone instead of scanning every room's matches
-- and intersecting with the room index (btree_gin is not available in the embedded server).
DROP INDEX IF EXISTS chunks_tsv;
CREATE INDEX chunks_room_tsv ON chunks
    USING gin ((tsv || array_to_tsvector(ARRAY['room:' || room_id::text])));
