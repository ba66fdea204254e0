-- Document frequency of every lexeme per room: Postgres full-text ranking has no IDF, so keyword
-- search weighs each query term by its rarity in the room (BM25-style) from this table.
CREATE TABLE term_stats (
    room_id bigint NOT NULL REFERENCES rooms ON DELETE CASCADE,
    lexeme text NOT NULL,
    df integer NOT NULL CHECK (df >= 0),
    PRIMARY KEY (room_id, lexeme)
);

INSERT INTO term_stats (room_id, lexeme, df)
SELECT r.id, s.word, s.ndoc
FROM rooms r, LATERAL ts_stat(format('SELECT tsv FROM chunks WHERE room_id = %s', r.id)) s;

-- Chunk counts per room without scanning chunks: the N of the IDF.
ALTER TABLE rooms ADD COLUMN n_chunks bigint NOT NULL DEFAULT 0;
UPDATE rooms r SET n_chunks = (SELECT count(*) FROM chunks c WHERE c.room_id = r.id);
