-- The workbench's schema: rooms, documents (PDFs and sheets), searchable chunks, conversations, QA logs.
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE users (
    id uuid PRIMARY KEY,
    email text UNIQUE,
    display_name text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE rooms (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL UNIQUE CHECK (length(trim(name)) > 0),
    -- Set by the first embedded chunk: vectors of different models are not comparable.
    embedding_model text,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE room_members (
    room_id bigint NOT NULL REFERENCES rooms ON DELETE CASCADE,
    user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
    role text NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
    PRIMARY KEY (room_id, user_id)
);

CREATE TABLE documents (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    room_id bigint NOT NULL REFERENCES rooms ON DELETE CASCADE,
    -- NULL only for a failed upload whose type the workbench does not read.
    kind text CHECK (kind IN ('pdf', 'sheet')),
    title text NOT NULL,
    filename text NOT NULL,
    mime_type text,
    checksum text NOT NULL,
    size_bytes bigint NOT NULL,
    status text NOT NULL CHECK (status IN ('ingesting', 'ready', 'failed')),
    error text,
    page_count integer,
    n_rows integer,
    n_chunks integer NOT NULL DEFAULT 0,
    embedded_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (room_id, checksum),
    CHECK (status = 'failed' OR kind IS NOT NULL)
);

-- The uploaded bytes, in the database so a team server and a laptop behave the same.
CREATE TABLE document_files (
    document_id bigint PRIMARY KEY REFERENCES documents ON DELETE CASCADE,
    data bytea NOT NULL
);

CREATE TABLE pages (
    document_id bigint NOT NULL REFERENCES documents ON DELETE CASCADE,
    page_number integer NOT NULL CHECK (page_number >= 1),
    text text NOT NULL,
    width real NOT NULL,
    height real NOT NULL,
    PRIMARY KEY (document_id, page_number)
);

CREATE TABLE sheets (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    document_id bigint NOT NULL REFERENCES documents ON DELETE CASCADE,
    position integer NOT NULL,
    name text NOT NULL,
    header_row integer NOT NULL,
    n_rows integer NOT NULL,
    n_cols integer NOT NULL,
    UNIQUE (document_id, position)
);

CREATE TABLE sheet_columns (
    sheet_id bigint NOT NULL REFERENCES sheets ON DELETE CASCADE,
    position integer NOT NULL,
    name text NOT NULL,
    letter text NOT NULL,
    dtype text NOT NULL CHECK (dtype IN ('number', 'currency', 'percent', 'date', 'text')),
    PRIMARY KEY (sheet_id, position)
);

CREATE TABLE sheet_rows (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    sheet_id bigint NOT NULL REFERENCES sheets ON DELETE CASCADE,
    row_index integer NOT NULL,          -- 0-based position among the data rows
    row_number integer NOT NULL,         -- 1-based row of the original file (the A1 row)
    values jsonb NOT NULL,               -- cell texts as stored, one per column, null for empty
    UNIQUE (sheet_id, row_index)
);

-- Searchable text: PDF passages and spreadsheet rows. Immutable once written; vectors live
-- in chunk_embeddings so text is keyword-searchable before embedding finishes.
CREATE TABLE chunks (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    room_id bigint NOT NULL REFERENCES rooms ON DELETE CASCADE,
    document_id bigint NOT NULL REFERENCES documents ON DELETE CASCADE,
    chunk_index integer NOT NULL,
    page_number integer,
    start_char integer,
    end_char integer,
    boxes jsonb,
    row_id bigint REFERENCES sheet_rows ON DELETE CASCADE,
    context text NOT NULL DEFAULT '',    -- where the chunk sits (document title), searched with it
    content text NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english', context), 'B') || setweight(to_tsvector('english', content), 'A')
    ) STORED,
    UNIQUE (document_id, chunk_index),
    CHECK ((page_number IS NULL) <> (row_id IS NULL))
);
CREATE INDEX chunks_room ON chunks (room_id);
CREATE INDEX chunks_row ON chunks (row_id) WHERE row_id IS NOT NULL;
CREATE INDEX chunks_tsv ON chunks USING gin (tsv);

CREATE TABLE chunk_embeddings (
    chunk_id bigint PRIMARY KEY REFERENCES chunks ON DELETE CASCADE,
    room_id bigint NOT NULL REFERENCES rooms ON DELETE CASCADE,
    embedding vector(384) NOT NULL
);
CREATE INDEX chunk_embeddings_room ON chunk_embeddings (room_id);
CREATE INDEX chunk_embeddings_hnsw ON chunk_embeddings USING hnsw (embedding vector_cosine_ops);

CREATE TABLE conversations (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    room_id bigint NOT NULL REFERENCES rooms ON DELETE CASCADE,
    user_id uuid REFERENCES users ON DELETE SET NULL,
    title text,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE messages (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    conversation_id bigint NOT NULL REFERENCES conversations ON DELETE CASCADE,
    role text NOT NULL CHECK (role IN ('user', 'assistant')),
    content text NOT NULL,
    citations jsonb NOT NULL DEFAULT '[]',
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX messages_conversation ON messages (conversation_id, id);

CREATE TABLE qa_queries (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    room_id bigint NOT NULL REFERENCES rooms ON DELETE CASCADE,
    user_id uuid REFERENCES users ON DELETE SET NULL,
    conversation_id bigint REFERENCES conversations ON DELETE SET NULL,
    question text NOT NULL,
    answer text,
    abstained boolean NOT NULL DEFAULT false,
    error text,
    planner text,
    model text,
    retrieval_ms real,
    first_token_ms real,
    total_ms real,
    context_chars integer,
    n_citations integer NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX qa_queries_room_time ON qa_queries (room_id, created_at);

CREATE TABLE qa_citations (
    query_id bigint NOT NULL REFERENCES qa_queries ON DELETE CASCADE,
    position integer NOT NULL,
    kind text NOT NULL CHECK (kind IN ('cell', 'page')),
    document_id bigint REFERENCES documents ON DELETE SET NULL,
    citation jsonb NOT NULL,
    PRIMARY KEY (query_id, position)
);

CREATE TABLE qa_feedback (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    query_id bigint NOT NULL REFERENCES qa_queries ON DELETE CASCADE,
    user_id uuid REFERENCES users ON DELETE SET NULL,
    helpful boolean NOT NULL,
    comment text,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (query_id, user_id)
);
