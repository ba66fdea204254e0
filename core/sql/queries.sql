-- Named queries: each block starts with a `-- name: x` line (parsed by core.db.load_queries).

-- name: get_room
-- Names are unique per owner (migration 016): one's own room first, then the oldest shared with one.
SELECT id, name, embedding_model FROM rooms WHERE name = %(name)s
ORDER BY owner_id IS NOT DISTINCT FROM workbench_user() DESC, id LIMIT 1

-- name: create_room
-- No RETURNING (nor ON CONFLICT, which checks read access to the row): the new row is readable once
-- the trigger has made its creator a member.
INSERT INTO rooms (name) VALUES (%(name)s)

-- name: list_rooms
SELECT r.id, r.name, r.embedding_model,
       count(d.id) AS documents,
       count(d.id) FILTER (WHERE d.status = 'ready') AS ready,
       count(d.id) FILTER (WHERE d.status = 'incomplete') AS incomplete,
       count(d.id) FILTER (WHERE d.status = 'failed') AS failed,
       coalesce(sum(d.n_chunks) FILTER (WHERE d.status IN ('ready', 'incomplete')), 0) AS chunks,
       (SELECT count(*) FROM chunk_embeddings e WHERE e.room_id = r.id) AS embedded_chunks
FROM rooms r LEFT JOIN documents d ON d.room_id = r.id
GROUP BY r.id ORDER BY r.name

-- name: claim_embedding_model
UPDATE rooms SET embedding_model = %(model)s
WHERE id = %(room_id)s AND embedding_model IS NULL

-- name: find_document_by_checksum
SELECT id, status, kind, title, page_count, n_rows, n_chunks, embedded_at,
       company, form, fiscal_year, fiscal_quarter, period_end, fiscal_convention
FROM documents WHERE room_id = %(room_id)s AND checksum = %(checksum)s

-- name: delete_document
DELETE FROM documents WHERE id = %(id)s

-- name: insert_document
INSERT INTO documents (room_id, kind, title, filename, mime_type, checksum, size_bytes, status, error,
                       page_count, n_rows, n_chunks)
VALUES (%(room_id)s, %(kind)s, %(title)s, %(filename)s, %(mime_type)s, %(checksum)s, %(size_bytes)s,
        %(status)s, %(error)s, %(page_count)s, %(n_rows)s, %(n_chunks)s)
RETURNING id

-- name: set_document_filing
-- What a filing is (core/ingest/filing.py): written at ingestion, and when an editor corrects it.
UPDATE documents
SET company = %(company)s, form = %(form)s, fiscal_year = %(fiscal_year)s, fiscal_quarter = %(fiscal_quarter)s,
    period_end = %(period_end)s, fiscal_convention = %(fiscal_convention)s
WHERE id = %(document_id)s AND room_id = %(room_id)s
RETURNING id

-- name: insert_document_file
INSERT INTO document_files (document_id, data) VALUES (%(document_id)s, %(data)s)

-- name: insert_document_file_from_job
-- The bytes of a queued upload, copied by Postgres itself (the worker never holds them).
INSERT INTO document_files (document_id, data) SELECT %(document_id)s, data FROM ingest_jobs WHERE id = %(job_id)s

-- name: insert_sheet
INSERT INTO sheets (document_id, position, name, header_row, n_rows, n_cols, title, uncalculated, page_number,
                    model, tab)
VALUES (%(document_id)s, %(position)s, %(name)s, %(header_row)s, %(n_rows)s, %(n_cols)s, %(title)s,
        %(uncalculated)s, %(page_number)s, %(model)s, %(tab)s)
RETURNING id

-- name: sheet_row_ids
SELECT id, row_index FROM sheet_rows WHERE sheet_id = %(sheet_id)s ORDER BY row_index

-- name: list_documents
SELECT d.id, d.kind, d.title, d.filename, d.status, d.error, d.page_count, d.n_rows, d.n_chunks, d.size_bytes,
       d.embedded_at IS NOT NULL AS embedded, d.created_at,
       d.company, d.form, d.fiscal_year, d.fiscal_quarter, d.period_end, d.fiscal_convention,
       -- Counted only while a document is being embedded ("embedding 128 of 512 chunks").
       CASE WHEN d.embedded_at IS NOT NULL THEN d.n_chunks
            ELSE (SELECT count(*) FROM chunk_embeddings e JOIN chunks c ON c.id = e.chunk_id WHERE c.document_id = d.id)
       END AS embedded_chunks
FROM documents d WHERE d.room_id = %(room_id)s ORDER BY d.created_at, d.id

-- name: pending_chunks
SELECT c.id, c.context, c.content
FROM chunks c
WHERE c.room_id = %(room_id)s
  AND (%(document_id)s::bigint IS NULL OR c.document_id = %(document_id)s)
  AND NOT EXISTS (SELECT 1 FROM chunk_embeddings e WHERE e.chunk_id = c.id)
ORDER BY c.id
LIMIT %(limit)s

-- name: count_pending_chunks
SELECT count(*)
FROM chunks c
WHERE c.room_id = %(room_id)s
  AND (%(document_id)s::bigint IS NULL OR c.document_id = %(document_id)s)
  AND NOT EXISTS (SELECT 1 FROM chunk_embeddings e WHERE e.chunk_id = c.id)

-- name: insert_embedding
INSERT INTO chunk_embeddings (chunk_id, room_id, embedding)
VALUES (%(chunk_id)s, %(room_id)s, %(embedding)s)
ON CONFLICT (chunk_id) DO NOTHING

-- name: document_vectors
-- Chunks of a document with a vector, and all its chunks.
SELECT count(e.chunk_id), count(*) FROM chunks c LEFT JOIN chunk_embeddings e ON e.chunk_id = c.id
WHERE c.document_id = %(id)s

-- name: mark_embedded
-- Every chunk of a document has its vector: it is embedded, and an incomplete one is ready (migration 028).
UPDATE documents d SET embedded_at = coalesce(d.embedded_at, now()), status = 'ready'
WHERE d.room_id = %(room_id)s AND d.status IN ('ready', 'incomplete')
  AND (d.embedded_at IS NULL OR d.status = 'incomplete')
  AND NOT EXISTS (
      SELECT 1 FROM chunks c
      WHERE c.document_id = d.id
        AND NOT EXISTS (SELECT 1 FROM chunk_embeddings e WHERE e.chunk_id = c.id))

-- name: search_hybrid
-- Reciprocal-rank fusion of the nearest vectors and the best keyword matches, in one round trip.
-- Chunks of the documents the query names (%(named_documents)s, e.g. the filing whose title holds
-- the year asked about) get a bonus.
-- Keyword score: sum over query terms of idf(term) * ts_rank(chunk, term) (BM25-like: rare terms
-- weigh more, ts_rank saturates term frequency and normalisation 1 damps long chunks); candidates
-- are the chunks holding at least one informative term (%(filter)s).
WITH vec AS (
    -- The top-N cut runs on chunk_embeddings alone (room index + exact sort, or HNSW with an
    -- iterative scan); joining chunks inside it made the planner pick a slower, lossier plan.
    SELECT nearest.id, c.document_id, row_number() OVER (ORDER BY nearest.distance, nearest.id) AS rank
    FROM (
        SELECT e.chunk_id AS id, e.embedding <=> %(embedding)s AS distance
        FROM chunk_embeddings e
        WHERE e.room_id = %(room_id)s AND %(use_vector)s
        ORDER BY e.embedding <=> %(embedding)s
        LIMIT %(candidates)s
    ) nearest
    JOIN chunks c ON c.id = nearest.id
    -- Only these documents when given (a question scoped to a filing or a period: core/qa/planner/periods.py).
    WHERE cardinality(%(only_documents)s::bigint[]) = 0 OR c.document_id = ANY(%(only_documents)s::bigint[])
),
terms AS (
    SELECT t.lexeme::tsquery AS query, t.idf
    FROM unnest(%(lexemes)s::text[], %(idfs)s::float8[]) AS t(lexeme, idf)
),
kw AS (
    SELECT id, document_id, row_number() OVER (ORDER BY score DESC, id) AS rank
    FROM (
        -- One scan of chunks_room_tsv finds the room's chunks holding an informative term (the index
        -- holds each chunk's lexemes plus a room:<id> token); see workbench_keyword_candidates.
        SELECT c.id, c.document_id,
               (SELECT sum(t.idf * ts_rank(c.tsv, t.query, 1)) FROM terms t WHERE c.tsv @@ t.query) AS score
        FROM chunks c
        WHERE c.room_id = %(room_id)s AND %(use_keywords)s
          AND (cardinality(%(only_documents)s::bigint[]) = 0 OR c.document_id = ANY(%(only_documents)s::bigint[]))
          AND c.id IN (SELECT workbench_keyword_candidates(%(room_id)s, %(filter)s::tsquery, %(room_token)s::tsquery))
        ORDER BY score DESC, c.id
        LIMIT %(candidates)s
    ) matched
)
SELECT coalesce(vec.id, kw.id) AS id, vec.rank AS vec_rank, kw.rank AS kw_rank,
       coalesce(%(vector_weight)s / (%(rrf_k)s + vec.rank), 0)
         + coalesce(%(keyword_weight)s / (%(rrf_k)s + kw.rank), 0)
         + CASE WHEN coalesce(vec.document_id, kw.document_id) = ANY(%(named_documents)s::bigint[])
                THEN %(title_boost)s ELSE 0 END AS score
FROM vec FULL OUTER JOIN kw ON vec.id = kw.id
ORDER BY score DESC, id
LIMIT %(limit)s

-- name: chunk_details
SELECT c.id, c.document_id, d.title, d.kind, d.fiscal_year, d.fiscal_quarter, c.chunk_index, c.page_number, c.start_char, c.end_char,
       c.content, c.row_id, r.row_number, r.values, r.sheet_id, s.name AS sheet_name, coalesce(s.tab, s.name) AS tab,
       e.embedding
FROM chunks c
JOIN documents d ON d.id = c.document_id
LEFT JOIN sheet_rows r ON r.id = c.row_id
LEFT JOIN sheets s ON s.id = r.sheet_id
LEFT JOIN chunk_embeddings e ON e.chunk_id = c.id
WHERE c.id = ANY(%(ids)s)

-- name: sheet_columns
SELECT sheet_id, position, name, letter, dtype FROM sheet_columns
WHERE sheet_id = ANY(%(sheet_ids)s) ORDER BY sheet_id, position

-- name: add_term_stats
-- Called in the ingesting transaction, after the document's chunks are written.
WITH added AS (
    INSERT INTO term_stats (room_id, lexeme, df)
    SELECT %(room_id)s, word, ndoc
    FROM ts_stat(format('SELECT tsv FROM chunks WHERE document_id = %%s', %(document_id)s::bigint))
    ORDER BY word
    ON CONFLICT (room_id, lexeme) DO UPDATE SET df = term_stats.df + EXCLUDED.df
    RETURNING 1
)
UPDATE rooms SET n_chunks = n_chunks + %(n_chunks)s WHERE id = %(room_id)s

-- name: remove_term_stats
-- Called in the deleting transaction, before the document (and by cascade its chunks) goes.
WITH removed AS (
    UPDATE term_stats t SET df = t.df - s.ndoc
    FROM ts_stat(format('SELECT tsv FROM chunks WHERE document_id = %%s', %(document_id)s::bigint)) s
    WHERE t.room_id = %(room_id)s AND t.lexeme = s.word
    RETURNING 1
)
UPDATE rooms SET n_chunks = n_chunks - (SELECT count(*) FROM chunks WHERE document_id = %(document_id)s)
WHERE id = %(room_id)s

-- name: document_in_room
SELECT 1 FROM documents WHERE id = %(document_id)s AND room_id = %(room_id)s

-- name: delete_room_document
DELETE FROM documents WHERE id = %(document_id)s AND room_id = %(room_id)s RETURNING title

-- name: query_terms
SELECT t.lexeme, coalesce(s.df, 0) AS df, r.n_chunks
FROM unnest(tsvector_to_array(to_tsvector('english', %(text)s))) AS t(lexeme)
JOIN rooms r ON r.id = %(room_id)s
LEFT JOIN term_stats s ON s.room_id = r.id AND s.lexeme = t.lexeme

-- name: room_document_names
SELECT id, filename FROM documents WHERE room_id = %(room_id)s AND status IN ('ready', 'incomplete')

-- name: room_filing_periods
-- The room's ready documents with their stored fiscal period (core/qa/planner/periods.py scopes questions by it).
SELECT id AS document_id, fiscal_year, fiscal_quarter FROM documents
WHERE room_id = %(room_id)s AND status IN ('ready', 'incomplete') ORDER BY id

-- name: create_conversation
INSERT INTO conversations (room_id, user_id, title) VALUES (%(room_id)s, %(user_id)s, %(title)s) RETURNING id

-- name: conversation_room
SELECT room_id FROM conversations WHERE id = %(id)s

-- name: conversation_room_name
SELECT r.name FROM conversations c JOIN rooms r ON r.id = c.room_id WHERE c.id = %(id)s

-- name: conversation_turns
-- The earlier (question, answer) pairs of a conversation, oldest first.
SELECT q.content AS question, a.content AS answer
FROM messages q
JOIN LATERAL (
    SELECT content FROM messages a
    WHERE a.conversation_id = q.conversation_id AND a.role = 'assistant' AND a.id > q.id
    ORDER BY a.id LIMIT 1
) a ON true
WHERE q.conversation_id = %(id)s AND q.role = 'user'
ORDER BY q.id

-- name: insert_message
INSERT INTO messages (conversation_id, role, content, citations)
VALUES (%(conversation_id)s, %(role)s, %(content)s, %(citations)s)

-- name: insert_query
INSERT INTO qa_queries (room_id, user_id, conversation_id, question, answer, abstained, error, planner, model,
                        retrieval_ms, first_token_ms, total_ms, context_chars, n_citations, steps)
VALUES (%(room_id)s, %(user_id)s, %(conversation_id)s, %(question)s, %(answer)s, %(abstained)s, %(error)s,
        %(planner)s, %(model)s, %(retrieval_ms)s, %(first_token_ms)s, %(total_ms)s, %(context_chars)s,
        %(n_citations)s, %(steps)s)
RETURNING id

-- name: record_wait
-- The page's own question: what the user waited (submit to last token drawn). Only the asker's own row.
UPDATE qa_queries SET source = 'page', waited_ms = %(waited_ms)s
WHERE id = %(query_id)s AND user_id IS NOT DISTINCT FROM %(user_id)s
RETURNING id

-- name: insert_query_citation
INSERT INTO qa_citations (query_id, position, kind, document_id, citation)
VALUES (%(query_id)s, %(position)s, %(kind)s, %(document_id)s, %(citation)s)

-- name: lookup_pages
SELECT d.id, d.title, p.page_number, p.text
FROM pages p JOIN documents d ON d.id = p.document_id
WHERE d.room_id = %(room_id)s AND (d.id, p.page_number) IN (SELECT * FROM unnest(%(docs)s::bigint[], %(pages)s::int[]));

-- name: statement_pages
-- The first chunk of each PDF page of the room (of %(documents)s when given) whose first characters, spaces
-- removed, match %(pattern)s: a statement's heading (core/retrieval/rerank.py adds them as candidates).
SELECT DISTINCT ON (p.document_id, p.page_number) c.id, p.document_id, p.page_number, p.text
FROM pages p
JOIN documents d ON d.id = p.document_id
JOIN chunks c ON c.document_id = p.document_id AND c.page_number = p.page_number
WHERE d.room_id = %(room_id)s AND d.status IN ('ready', 'incomplete')
  AND (cardinality(%(documents)s::bigint[]) = 0 OR d.id = ANY(%(documents)s::bigint[]))
  AND lower(left(regexp_replace(left(p.text, 2 * %(chars)s), '\s+', '', 'g'), %(chars)s)) ~ %(pattern)s
ORDER BY p.document_id, p.page_number, c.chunk_index
LIMIT %(limit)s;

-- name: page_chunk_ids
-- The passages of each PDF page asked (pairs of document id and page number), in their order on the page.
SELECT c.id FROM chunks c
WHERE c.room_id = %(room_id)s AND c.row_id IS NULL
  AND (c.document_id, c.page_number) IN (SELECT * FROM unnest(%(docs)s::bigint[], %(pages)s::int[]))
ORDER BY c.document_id, c.page_number, c.chunk_index;

-- name: page_texts
-- The whole text of each page asked (pairs of document id and page number).
SELECT document_id, page_number, text FROM pages
WHERE (document_id, page_number) IN (SELECT * FROM unnest(%(docs)s::bigint[], %(pages)s::int[]));

-- Bulk loads under row-level security (COPY FROM is refused there): COPY into an empty temporary twin of the
-- table, then INSERT ... SELECT, which applies the policies.  {stage}, {table} and {cols} are identifiers
-- filled by psycopg.sql (core/ingest/pipeline.py).
-- name: stage_create
CREATE TEMP TABLE IF NOT EXISTS {stage} ON COMMIT DELETE ROWS AS SELECT {cols} FROM {table} WITH NO DATA;

-- name: stage_copy
COPY {stage} ({cols}) FROM STDIN;

-- name: stage_insert
INSERT INTO {table} ({cols}) SELECT {cols} FROM {stage};

-- name: stage_truncate
TRUNCATE {stage};
