-- The schema that core/sql/migrations/*.sql build, as pg_dump writes it: for reading, never applied.
-- Generated; `make schema` rewrites it and tests/integration/test_schema.py checks it is current.
--
-- PostgreSQL database dump
--



SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET transaction_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: vector; Type: EXTENSION; Schema: -; Owner: -
--

CREATE EXTENSION IF NOT EXISTS vector WITH SCHEMA public;


--
-- Name: EXTENSION vector; Type: COMMENT; Schema: -; Owner: -
--

COMMENT ON EXTENSION vector IS 'vector data type and ivfflat and hnsw access methods';


--
-- Name: workbench_create_account(uuid, text, text, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_create_account(new_id uuid, user_email text, name text, hash text) RETURNS uuid
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
    INSERT INTO users (id, email, display_name, password_hash) VALUES (new_id, user_email, name, hash)
    RETURNING id
$$;


--
-- Name: workbench_credentials(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_credentials(user_email text) RETURNS TABLE(id uuid, display_name text, password_hash text)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
    SELECT id, display_name, password_hash FROM users WHERE lower(email) = lower(user_email)
$$;


--
-- Name: workbench_ensure_user(uuid, text, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_ensure_user(user_id uuid, user_email text, name text) RETURNS uuid
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
    INSERT INTO users (id, email, display_name) VALUES (user_id, user_email, name)
    ON CONFLICT (id) DO UPDATE SET email = EXCLUDED.email
    RETURNING id
$$;


--
-- Name: workbench_find_user(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_find_user(user_email text) RETURNS TABLE(id uuid, display_name text)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
    SELECT id, display_name FROM users WHERE lower(email) = lower(user_email)
$$;


--
-- Name: workbench_keyword_candidates(bigint, tsquery, tsquery); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_keyword_candidates(p_room bigint, p_filter tsquery, p_room_token tsquery) RETURNS SETOF bigint
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
    SELECT c.id FROM chunks c
    WHERE c.room_id = p_room AND p_room IN (SELECT workbench_rooms())
      AND (c.tsv || array_to_tsvector(ARRAY['room:' || c.room_id::text])) @@ (p_filter && p_room_token)
$$;


--
-- Name: workbench_owned_rooms(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_owned_rooms() RETURNS SETOF bigint
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
    SELECT room_id FROM room_members WHERE user_id = workbench_user() AND role = 'owner'
$$;


--
-- Name: workbench_room_creator(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_room_creator() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    INSERT INTO room_members (room_id, user_id, role)
    VALUES (NEW.id, coalesce(workbench_user(), '00000000-0000-0000-0000-000000000001'), 'owner')
    ON CONFLICT DO NOTHING;
    RETURN NEW;
END
$$;


--
-- Name: workbench_room_has_phrase(bigint, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_room_has_phrase(p_room bigint, p_phrase text) RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    SET enable_seqscan TO 'off'
    AS $$
    -- No "room_id = p_room": the room:<id> token (made here from p_room, so a caller cannot ask about
    -- another room) already says it, and with that condition the planner walks the room's btree index
    -- instead of asking the full-text index.
    SELECT numnode(phraseto_tsquery('english', p_phrase)) = 0 OR (p_room IN (SELECT workbench_rooms()) AND EXISTS (
        SELECT 1 FROM chunks c
        WHERE (c.tsv || array_to_tsvector(ARRAY['room:' || c.room_id::text]))
              @@ (phraseto_tsquery('english', p_phrase) && quote_literal('room:' || p_room::text)::tsquery)
    ))
$$;


--
-- Name: workbench_rooms(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_rooms() RETURNS SETOF bigint
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
    SELECT room_id FROM room_members WHERE user_id = workbench_user()
$$;


--
-- Name: workbench_set_password_hash(uuid, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_set_password_hash(user_id uuid, hash text) RETURNS void
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
    UPDATE users SET password_hash = hash WHERE id = user_id
$$;


--
-- Name: workbench_user(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_user() RETURNS uuid
    LANGUAGE sql STABLE
    AS $$
    SELECT coalesce(
        nullif(current_setting('app.user_id', true), ''),
        nullif(current_setting('request.jwt.claim.sub', true), ''),
        nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub'
    )::uuid
$$;


--
-- Name: workbench_writable_rooms(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_writable_rooms() RETURNS SETOF bigint
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
    SELECT room_id FROM room_members WHERE user_id = workbench_user() AND role IN ('owner', 'editor')
$$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: cell_edits; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.cell_edits (
    id bigint NOT NULL,
    room_id bigint NOT NULL,
    document_id bigint NOT NULL,
    sheet_id bigint NOT NULL,
    row_id bigint NOT NULL,
    column_position integer NOT NULL,
    column_name text NOT NULL,
    ref text NOT NULL,
    old_value text,
    new_value text,
    user_id uuid,
    edited_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);


--
-- Name: cell_edits_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.cell_edits ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.cell_edits_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: chunk_embeddings; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.chunk_embeddings (
    chunk_id bigint NOT NULL,
    room_id bigint NOT NULL,
    embedding public.vector(384) NOT NULL
);


--
-- Name: chunks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.chunks (
    id bigint NOT NULL,
    room_id bigint NOT NULL,
    document_id bigint NOT NULL,
    chunk_index integer NOT NULL,
    page_number integer,
    start_char integer,
    end_char integer,
    boxes jsonb,
    row_id bigint,
    context text DEFAULT ''::text NOT NULL,
    content text NOT NULL,
    tsv tsvector GENERATED ALWAYS AS ((setweight(to_tsvector('english'::regconfig, context), 'B'::"char") || setweight(to_tsvector('english'::regconfig, content), 'A'::"char"))) STORED,
    CONSTRAINT chunks_check CHECK (((page_number IS NULL) <> (row_id IS NULL)))
);


--
-- Name: chunks_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.chunks ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.chunks_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: conversations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.conversations (
    id bigint NOT NULL,
    room_id bigint NOT NULL,
    user_id uuid,
    title text,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: conversations_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.conversations ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.conversations_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: document_files; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.document_files (
    document_id bigint NOT NULL,
    data bytea NOT NULL
);


--
-- Name: documents; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.documents (
    id bigint NOT NULL,
    room_id bigint NOT NULL,
    kind text,
    title text NOT NULL,
    filename text NOT NULL,
    mime_type text,
    checksum text NOT NULL,
    size_bytes bigint NOT NULL,
    status text NOT NULL,
    error text,
    page_count integer,
    n_rows integer,
    n_chunks integer DEFAULT 0 NOT NULL,
    embedded_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT documents_check CHECK (((status = 'failed'::text) OR (kind IS NOT NULL))),
    CONSTRAINT documents_kind_check CHECK ((kind = ANY (ARRAY['pdf'::text, 'sheet'::text]))),
    CONSTRAINT documents_status_check CHECK ((status = ANY (ARRAY['ingesting'::text, 'ready'::text, 'failed'::text])))
);


--
-- Name: documents_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.documents ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.documents_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: messages; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.messages (
    id bigint NOT NULL,
    conversation_id bigint NOT NULL,
    role text NOT NULL,
    content text NOT NULL,
    citations jsonb DEFAULT '[]'::jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT messages_role_check CHECK ((role = ANY (ARRAY['user'::text, 'assistant'::text])))
);


--
-- Name: messages_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.messages ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.messages_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: pages; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.pages (
    document_id bigint NOT NULL,
    page_number integer NOT NULL,
    text text NOT NULL,
    width real NOT NULL,
    height real NOT NULL,
    CONSTRAINT pages_page_number_check CHECK ((page_number >= 1))
);


--
-- Name: qa_citations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.qa_citations (
    query_id bigint NOT NULL,
    "position" integer NOT NULL,
    kind text NOT NULL,
    document_id bigint,
    citation jsonb NOT NULL,
    CONSTRAINT qa_citations_kind_check CHECK ((kind = ANY (ARRAY['cell'::text, 'page'::text])))
);


--
-- Name: qa_feedback; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.qa_feedback (
    id bigint NOT NULL,
    query_id bigint NOT NULL,
    user_id uuid,
    helpful boolean NOT NULL,
    comment text,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: qa_feedback_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.qa_feedback ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.qa_feedback_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: qa_queries; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.qa_queries (
    id bigint NOT NULL,
    room_id bigint NOT NULL,
    user_id uuid,
    conversation_id bigint,
    question text NOT NULL,
    answer text,
    abstained boolean DEFAULT false NOT NULL,
    error text,
    planner text,
    model text,
    retrieval_ms real,
    first_token_ms real,
    total_ms real,
    context_chars integer,
    n_citations integer DEFAULT 0 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    source text DEFAULT 'cli'::text NOT NULL,
    waited_ms real,
    steps jsonb DEFAULT '[]'::jsonb NOT NULL,
    CONSTRAINT qa_queries_source_check CHECK ((source = ANY (ARRAY['page'::text, 'cli'::text])))
);


--
-- Name: qa_queries_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.qa_queries ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.qa_queries_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: rate_limits; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.rate_limits (
    room_id bigint NOT NULL,
    user_id uuid,
    asked_at timestamp with time zone[] NOT NULL
);


--
-- Name: room_members; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.room_members (
    room_id bigint NOT NULL,
    user_id uuid NOT NULL,
    role text NOT NULL,
    CONSTRAINT room_members_role_check CHECK ((role = ANY (ARRAY['owner'::text, 'editor'::text, 'viewer'::text])))
);


--
-- Name: rooms; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.rooms (
    id bigint NOT NULL,
    name text NOT NULL,
    embedding_model text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    n_chunks bigint DEFAULT 0 NOT NULL,
    CONSTRAINT rooms_name_check CHECK ((length(TRIM(BOTH FROM name)) > 0))
);


--
-- Name: rooms_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.rooms ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.rooms_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: schema_migrations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.schema_migrations (
    version integer NOT NULL,
    name text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: sheet_columns; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sheet_columns (
    sheet_id bigint NOT NULL,
    "position" integer NOT NULL,
    name text NOT NULL,
    letter text NOT NULL,
    dtype text NOT NULL,
    CONSTRAINT sheet_columns_dtype_check CHECK ((dtype = ANY (ARRAY['number'::text, 'currency'::text, 'percent'::text, 'date'::text, 'text'::text])))
);


--
-- Name: sheet_rows; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sheet_rows (
    id bigint NOT NULL,
    sheet_id bigint NOT NULL,
    row_index integer NOT NULL,
    row_number integer NOT NULL,
    "values" jsonb NOT NULL,
    boxes jsonb
);


--
-- Name: sheet_rows_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.sheet_rows ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.sheet_rows_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: sheets; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sheets (
    id bigint NOT NULL,
    document_id bigint NOT NULL,
    "position" integer NOT NULL,
    name text NOT NULL,
    header_row integer NOT NULL,
    n_rows integer NOT NULL,
    n_cols integer NOT NULL,
    version integer DEFAULT 0 NOT NULL,
    title text,
    uncalculated jsonb DEFAULT '[]'::jsonb NOT NULL,
    page_number integer,
    CONSTRAINT sheets_page_number_check CHECK ((page_number >= 1))
);


--
-- Name: sheets_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.sheets ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.sheets_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: term_stats; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.term_stats (
    room_id bigint NOT NULL,
    lexeme text NOT NULL,
    df integer NOT NULL,
    CONSTRAINT term_stats_df_check CHECK ((df >= 0))
);


--
-- Name: users; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.users (
    id uuid NOT NULL,
    email text,
    display_name text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    password_hash text
);


--
-- Name: cell_edits cell_edits_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.cell_edits
    ADD CONSTRAINT cell_edits_pkey PRIMARY KEY (id);


--
-- Name: chunk_embeddings chunk_embeddings_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.chunk_embeddings
    ADD CONSTRAINT chunk_embeddings_pkey PRIMARY KEY (chunk_id);


--
-- Name: chunks chunks_document_id_chunk_index_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.chunks
    ADD CONSTRAINT chunks_document_id_chunk_index_key UNIQUE (document_id, chunk_index);


--
-- Name: chunks chunks_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.chunks
    ADD CONSTRAINT chunks_pkey PRIMARY KEY (id);


--
-- Name: conversations conversations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.conversations
    ADD CONSTRAINT conversations_pkey PRIMARY KEY (id);


--
-- Name: document_files document_files_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.document_files
    ADD CONSTRAINT document_files_pkey PRIMARY KEY (document_id);


--
-- Name: documents documents_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.documents
    ADD CONSTRAINT documents_pkey PRIMARY KEY (id);


--
-- Name: documents documents_room_id_checksum_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.documents
    ADD CONSTRAINT documents_room_id_checksum_key UNIQUE (room_id, checksum);


--
-- Name: messages messages_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.messages
    ADD CONSTRAINT messages_pkey PRIMARY KEY (id);


--
-- Name: pages pages_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pages
    ADD CONSTRAINT pages_pkey PRIMARY KEY (document_id, page_number);


--
-- Name: qa_citations qa_citations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.qa_citations
    ADD CONSTRAINT qa_citations_pkey PRIMARY KEY (query_id, "position");


--
-- Name: qa_feedback qa_feedback_one_vote; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.qa_feedback
    ADD CONSTRAINT qa_feedback_one_vote UNIQUE NULLS NOT DISTINCT (query_id, user_id);


--
-- Name: qa_feedback qa_feedback_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.qa_feedback
    ADD CONSTRAINT qa_feedback_pkey PRIMARY KEY (id);


--
-- Name: qa_queries qa_queries_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.qa_queries
    ADD CONSTRAINT qa_queries_pkey PRIMARY KEY (id);


--
-- Name: rate_limits rate_limits_one_row; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rate_limits
    ADD CONSTRAINT rate_limits_one_row UNIQUE NULLS NOT DISTINCT (room_id, user_id);


--
-- Name: room_members room_members_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.room_members
    ADD CONSTRAINT room_members_pkey PRIMARY KEY (room_id, user_id);


--
-- Name: rooms rooms_name_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rooms
    ADD CONSTRAINT rooms_name_key UNIQUE (name);


--
-- Name: rooms rooms_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rooms
    ADD CONSTRAINT rooms_pkey PRIMARY KEY (id);


--
-- Name: schema_migrations schema_migrations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (version);


--
-- Name: sheet_columns sheet_columns_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sheet_columns
    ADD CONSTRAINT sheet_columns_pkey PRIMARY KEY (sheet_id, "position");


--
-- Name: sheet_rows sheet_rows_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sheet_rows
    ADD CONSTRAINT sheet_rows_pkey PRIMARY KEY (id);


--
-- Name: sheet_rows sheet_rows_sheet_id_row_index_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sheet_rows
    ADD CONSTRAINT sheet_rows_sheet_id_row_index_key UNIQUE (sheet_id, row_index);


--
-- Name: sheets sheets_document_id_position_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sheets
    ADD CONSTRAINT sheets_document_id_position_key UNIQUE (document_id, "position");


--
-- Name: sheets sheets_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sheets
    ADD CONSTRAINT sheets_pkey PRIMARY KEY (id);


--
-- Name: term_stats term_stats_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.term_stats
    ADD CONSTRAINT term_stats_pkey PRIMARY KEY (room_id, lexeme);


--
-- Name: users users_email_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_email_key UNIQUE (email);


--
-- Name: users users_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_pkey PRIMARY KEY (id);


--
-- Name: cell_edits_cell; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX cell_edits_cell ON public.cell_edits USING btree (row_id, column_name, edited_at);


--
-- Name: cell_edits_sheet; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX cell_edits_sheet ON public.cell_edits USING btree (sheet_id, edited_at);


--
-- Name: chunk_embeddings_hnsw; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX chunk_embeddings_hnsw ON public.chunk_embeddings USING hnsw (embedding public.vector_cosine_ops);


--
-- Name: chunk_embeddings_room; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX chunk_embeddings_room ON public.chunk_embeddings USING btree (room_id);


--
-- Name: chunks_room; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX chunks_room ON public.chunks USING btree (room_id);


--
-- Name: chunks_room_tsv; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX chunks_room_tsv ON public.chunks USING gin (((tsv || array_to_tsvector(ARRAY[('room:'::text || (room_id)::text)]))));


--
-- Name: chunks_row; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX chunks_row ON public.chunks USING btree (row_id) WHERE (row_id IS NOT NULL);


--
-- Name: conversations_room; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX conversations_room ON public.conversations USING btree (room_id, created_at);


--
-- Name: messages_conversation; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX messages_conversation ON public.messages USING btree (conversation_id, id);


--
-- Name: qa_queries_conversation; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX qa_queries_conversation ON public.qa_queries USING btree (conversation_id, created_at);


--
-- Name: qa_queries_room_time; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX qa_queries_room_time ON public.qa_queries USING btree (room_id, created_at);


--
-- Name: users_email_lower; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX users_email_lower ON public.users USING btree (lower(email));


--
-- Name: rooms rooms_owner; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER rooms_owner AFTER INSERT ON public.rooms FOR EACH ROW EXECUTE FUNCTION public.workbench_room_creator();


--
-- Name: cell_edits cell_edits_document_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.cell_edits
    ADD CONSTRAINT cell_edits_document_id_fkey FOREIGN KEY (document_id) REFERENCES public.documents(id) ON DELETE CASCADE;


--
-- Name: cell_edits cell_edits_room_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.cell_edits
    ADD CONSTRAINT cell_edits_room_id_fkey FOREIGN KEY (room_id) REFERENCES public.rooms(id) ON DELETE CASCADE;


--
-- Name: cell_edits cell_edits_row_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.cell_edits
    ADD CONSTRAINT cell_edits_row_id_fkey FOREIGN KEY (row_id) REFERENCES public.sheet_rows(id) ON DELETE CASCADE;


--
-- Name: cell_edits cell_edits_sheet_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.cell_edits
    ADD CONSTRAINT cell_edits_sheet_id_fkey FOREIGN KEY (sheet_id) REFERENCES public.sheets(id) ON DELETE CASCADE;


--
-- Name: cell_edits cell_edits_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.cell_edits
    ADD CONSTRAINT cell_edits_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE SET NULL;


--
-- Name: chunk_embeddings chunk_embeddings_chunk_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.chunk_embeddings
    ADD CONSTRAINT chunk_embeddings_chunk_id_fkey FOREIGN KEY (chunk_id) REFERENCES public.chunks(id) ON DELETE CASCADE;


--
-- Name: chunk_embeddings chunk_embeddings_room_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.chunk_embeddings
    ADD CONSTRAINT chunk_embeddings_room_id_fkey FOREIGN KEY (room_id) REFERENCES public.rooms(id) ON DELETE CASCADE;


--
-- Name: chunks chunks_document_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.chunks
    ADD CONSTRAINT chunks_document_id_fkey FOREIGN KEY (document_id) REFERENCES public.documents(id) ON DELETE CASCADE;


--
-- Name: chunks chunks_room_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.chunks
    ADD CONSTRAINT chunks_room_id_fkey FOREIGN KEY (room_id) REFERENCES public.rooms(id) ON DELETE CASCADE;


--
-- Name: chunks chunks_row_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.chunks
    ADD CONSTRAINT chunks_row_id_fkey FOREIGN KEY (row_id) REFERENCES public.sheet_rows(id) ON DELETE CASCADE;


--
-- Name: conversations conversations_room_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.conversations
    ADD CONSTRAINT conversations_room_id_fkey FOREIGN KEY (room_id) REFERENCES public.rooms(id) ON DELETE CASCADE;


--
-- Name: conversations conversations_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.conversations
    ADD CONSTRAINT conversations_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE SET NULL;


--
-- Name: document_files document_files_document_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.document_files
    ADD CONSTRAINT document_files_document_id_fkey FOREIGN KEY (document_id) REFERENCES public.documents(id) ON DELETE CASCADE;


--
-- Name: documents documents_room_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.documents
    ADD CONSTRAINT documents_room_id_fkey FOREIGN KEY (room_id) REFERENCES public.rooms(id) ON DELETE CASCADE;


--
-- Name: messages messages_conversation_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.messages
    ADD CONSTRAINT messages_conversation_id_fkey FOREIGN KEY (conversation_id) REFERENCES public.conversations(id) ON DELETE CASCADE;


--
-- Name: pages pages_document_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pages
    ADD CONSTRAINT pages_document_id_fkey FOREIGN KEY (document_id) REFERENCES public.documents(id) ON DELETE CASCADE;


--
-- Name: qa_citations qa_citations_document_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.qa_citations
    ADD CONSTRAINT qa_citations_document_id_fkey FOREIGN KEY (document_id) REFERENCES public.documents(id) ON DELETE SET NULL;


--
-- Name: qa_citations qa_citations_query_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.qa_citations
    ADD CONSTRAINT qa_citations_query_id_fkey FOREIGN KEY (query_id) REFERENCES public.qa_queries(id) ON DELETE CASCADE;


--
-- Name: qa_feedback qa_feedback_query_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.qa_feedback
    ADD CONSTRAINT qa_feedback_query_id_fkey FOREIGN KEY (query_id) REFERENCES public.qa_queries(id) ON DELETE CASCADE;


--
-- Name: qa_feedback qa_feedback_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.qa_feedback
    ADD CONSTRAINT qa_feedback_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE SET NULL;


--
-- Name: qa_queries qa_queries_conversation_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.qa_queries
    ADD CONSTRAINT qa_queries_conversation_id_fkey FOREIGN KEY (conversation_id) REFERENCES public.conversations(id) ON DELETE SET NULL;


--
-- Name: qa_queries qa_queries_room_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.qa_queries
    ADD CONSTRAINT qa_queries_room_id_fkey FOREIGN KEY (room_id) REFERENCES public.rooms(id) ON DELETE CASCADE;


--
-- Name: qa_queries qa_queries_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.qa_queries
    ADD CONSTRAINT qa_queries_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE SET NULL;


--
-- Name: rate_limits rate_limits_room_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rate_limits
    ADD CONSTRAINT rate_limits_room_id_fkey FOREIGN KEY (room_id) REFERENCES public.rooms(id) ON DELETE CASCADE;


--
-- Name: rate_limits rate_limits_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rate_limits
    ADD CONSTRAINT rate_limits_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: room_members room_members_room_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.room_members
    ADD CONSTRAINT room_members_room_id_fkey FOREIGN KEY (room_id) REFERENCES public.rooms(id) ON DELETE CASCADE;


--
-- Name: room_members room_members_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.room_members
    ADD CONSTRAINT room_members_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: sheet_columns sheet_columns_sheet_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sheet_columns
    ADD CONSTRAINT sheet_columns_sheet_id_fkey FOREIGN KEY (sheet_id) REFERENCES public.sheets(id) ON DELETE CASCADE;


--
-- Name: sheet_rows sheet_rows_sheet_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sheet_rows
    ADD CONSTRAINT sheet_rows_sheet_id_fkey FOREIGN KEY (sheet_id) REFERENCES public.sheets(id) ON DELETE CASCADE;


--
-- Name: sheets sheets_document_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sheets
    ADD CONSTRAINT sheets_document_id_fkey FOREIGN KEY (document_id) REFERENCES public.documents(id) ON DELETE CASCADE;


--
-- Name: term_stats term_stats_room_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.term_stats
    ADD CONSTRAINT term_stats_room_id_fkey FOREIGN KEY (room_id) REFERENCES public.rooms(id) ON DELETE CASCADE;


--
-- Name: cell_edits; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.cell_edits ENABLE ROW LEVEL SECURITY;

--
-- Name: cell_edits cell_edits_add; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY cell_edits_add ON public.cell_edits FOR INSERT WITH CHECK ((room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms)));


--
-- Name: cell_edits cell_edits_delete; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY cell_edits_delete ON public.cell_edits FOR DELETE USING ((room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms)));


--
-- Name: cell_edits cell_edits_read; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY cell_edits_read ON public.cell_edits FOR SELECT USING ((room_id IN ( SELECT public.workbench_rooms() AS workbench_rooms)));


--
-- Name: cell_edits cell_edits_update; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY cell_edits_update ON public.cell_edits FOR UPDATE USING ((room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms))) WITH CHECK ((room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms)));


--
-- Name: chunk_embeddings; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.chunk_embeddings ENABLE ROW LEVEL SECURITY;

--
-- Name: chunk_embeddings chunk_embeddings_add; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY chunk_embeddings_add ON public.chunk_embeddings FOR INSERT WITH CHECK ((room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms)));


--
-- Name: chunk_embeddings chunk_embeddings_delete; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY chunk_embeddings_delete ON public.chunk_embeddings FOR DELETE USING ((room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms)));


--
-- Name: chunk_embeddings chunk_embeddings_read; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY chunk_embeddings_read ON public.chunk_embeddings FOR SELECT USING ((room_id IN ( SELECT public.workbench_rooms() AS workbench_rooms)));


--
-- Name: chunk_embeddings chunk_embeddings_update; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY chunk_embeddings_update ON public.chunk_embeddings FOR UPDATE USING ((room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms))) WITH CHECK ((room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms)));


--
-- Name: chunks; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.chunks ENABLE ROW LEVEL SECURITY;

--
-- Name: chunks chunks_add; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY chunks_add ON public.chunks FOR INSERT WITH CHECK ((room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms)));


--
-- Name: chunks chunks_delete; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY chunks_delete ON public.chunks FOR DELETE USING ((room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms)));


--
-- Name: chunks chunks_read; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY chunks_read ON public.chunks FOR SELECT USING ((room_id IN ( SELECT public.workbench_rooms() AS workbench_rooms)));


--
-- Name: chunks chunks_update; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY chunks_update ON public.chunks FOR UPDATE USING ((room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms))) WITH CHECK ((room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms)));


--
-- Name: conversations; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.conversations ENABLE ROW LEVEL SECURITY;

--
-- Name: conversations conversations_add; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY conversations_add ON public.conversations FOR INSERT WITH CHECK ((room_id IN ( SELECT public.workbench_rooms() AS workbench_rooms)));


--
-- Name: conversations conversations_delete; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY conversations_delete ON public.conversations FOR DELETE USING ((room_id IN ( SELECT public.workbench_owned_rooms() AS workbench_owned_rooms)));


--
-- Name: conversations conversations_read; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY conversations_read ON public.conversations FOR SELECT USING ((room_id IN ( SELECT public.workbench_rooms() AS workbench_rooms)));


--
-- Name: conversations conversations_update; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY conversations_update ON public.conversations FOR UPDATE USING ((room_id IN ( SELECT public.workbench_rooms() AS workbench_rooms))) WITH CHECK ((room_id IN ( SELECT public.workbench_rooms() AS workbench_rooms)));


--
-- Name: document_files; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.document_files ENABLE ROW LEVEL SECURITY;

--
-- Name: document_files document_files_read; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY document_files_read ON public.document_files FOR SELECT USING ((document_id IN ( SELECT documents.id
   FROM public.documents)));


--
-- Name: document_files document_files_write; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY document_files_write ON public.document_files USING ((document_id IN ( SELECT documents.id
   FROM public.documents
  WHERE (documents.room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms))))) WITH CHECK ((document_id IN ( SELECT documents.id
   FROM public.documents
  WHERE (documents.room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms)))));


--
-- Name: documents; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.documents ENABLE ROW LEVEL SECURITY;

--
-- Name: documents documents_add; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY documents_add ON public.documents FOR INSERT WITH CHECK ((room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms)));


--
-- Name: documents documents_delete; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY documents_delete ON public.documents FOR DELETE USING (((room_id IN ( SELECT public.workbench_owned_rooms() AS workbench_owned_rooms)) OR ((status = 'failed'::text) AND (room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms)))));


--
-- Name: documents documents_read; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY documents_read ON public.documents FOR SELECT USING ((room_id IN ( SELECT public.workbench_rooms() AS workbench_rooms)));


--
-- Name: documents documents_update; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY documents_update ON public.documents FOR UPDATE USING ((room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms))) WITH CHECK ((room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms)));


--
-- Name: room_members members_manage; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY members_manage ON public.room_members USING ((room_id IN ( SELECT public.workbench_owned_rooms() AS workbench_owned_rooms))) WITH CHECK ((room_id IN ( SELECT public.workbench_owned_rooms() AS workbench_owned_rooms)));


--
-- Name: room_members members_read; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY members_read ON public.room_members FOR SELECT USING ((room_id IN ( SELECT public.workbench_rooms() AS workbench_rooms)));


--
-- Name: messages; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.messages ENABLE ROW LEVEL SECURITY;

--
-- Name: messages messages_add; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY messages_add ON public.messages FOR INSERT WITH CHECK ((conversation_id IN ( SELECT conversations.id
   FROM public.conversations)));


--
-- Name: messages messages_read; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY messages_read ON public.messages FOR SELECT USING ((conversation_id IN ( SELECT conversations.id
   FROM public.conversations)));


--
-- Name: pages; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.pages ENABLE ROW LEVEL SECURITY;

--
-- Name: pages pages_read; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY pages_read ON public.pages FOR SELECT USING ((document_id IN ( SELECT documents.id
   FROM public.documents)));


--
-- Name: pages pages_write; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY pages_write ON public.pages USING ((document_id IN ( SELECT documents.id
   FROM public.documents
  WHERE (documents.room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms))))) WITH CHECK ((document_id IN ( SELECT documents.id
   FROM public.documents
  WHERE (documents.room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms)))));


--
-- Name: qa_citations; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.qa_citations ENABLE ROW LEVEL SECURITY;

--
-- Name: qa_citations qa_citations_add; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY qa_citations_add ON public.qa_citations FOR INSERT WITH CHECK ((query_id IN ( SELECT qa_queries.id
   FROM public.qa_queries)));


--
-- Name: qa_citations qa_citations_read; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY qa_citations_read ON public.qa_citations FOR SELECT USING ((query_id IN ( SELECT qa_queries.id
   FROM public.qa_queries)));


--
-- Name: qa_feedback; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.qa_feedback ENABLE ROW LEVEL SECURITY;

--
-- Name: qa_feedback qa_feedback_read; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY qa_feedback_read ON public.qa_feedback FOR SELECT USING ((query_id IN ( SELECT qa_queries.id
   FROM public.qa_queries)));


--
-- Name: qa_feedback qa_feedback_vote; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY qa_feedback_vote ON public.qa_feedback USING ((query_id IN ( SELECT qa_queries.id
   FROM public.qa_queries))) WITH CHECK ((query_id IN ( SELECT qa_queries.id
   FROM public.qa_queries)));


--
-- Name: qa_queries; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.qa_queries ENABLE ROW LEVEL SECURITY;

--
-- Name: qa_queries qa_queries_add; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY qa_queries_add ON public.qa_queries FOR INSERT WITH CHECK ((room_id IN ( SELECT public.workbench_rooms() AS workbench_rooms)));


--
-- Name: qa_queries qa_queries_delete; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY qa_queries_delete ON public.qa_queries FOR DELETE USING ((room_id IN ( SELECT public.workbench_owned_rooms() AS workbench_owned_rooms)));


--
-- Name: qa_queries qa_queries_read; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY qa_queries_read ON public.qa_queries FOR SELECT USING ((room_id IN ( SELECT public.workbench_rooms() AS workbench_rooms)));


--
-- Name: qa_queries qa_queries_update; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY qa_queries_update ON public.qa_queries FOR UPDATE USING ((room_id IN ( SELECT public.workbench_rooms() AS workbench_rooms))) WITH CHECK ((room_id IN ( SELECT public.workbench_rooms() AS workbench_rooms)));


--
-- Name: rate_limits; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.rate_limits ENABLE ROW LEVEL SECURITY;

--
-- Name: rate_limits rate_limits_add; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY rate_limits_add ON public.rate_limits FOR INSERT WITH CHECK ((room_id IN ( SELECT public.workbench_rooms() AS workbench_rooms)));


--
-- Name: rate_limits rate_limits_delete; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY rate_limits_delete ON public.rate_limits FOR DELETE USING ((room_id IN ( SELECT public.workbench_owned_rooms() AS workbench_owned_rooms)));


--
-- Name: rate_limits rate_limits_read; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY rate_limits_read ON public.rate_limits FOR SELECT USING ((room_id IN ( SELECT public.workbench_rooms() AS workbench_rooms)));


--
-- Name: rate_limits rate_limits_update; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY rate_limits_update ON public.rate_limits FOR UPDATE USING ((room_id IN ( SELECT public.workbench_rooms() AS workbench_rooms))) WITH CHECK ((room_id IN ( SELECT public.workbench_rooms() AS workbench_rooms)));


--
-- Name: room_members; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.room_members ENABLE ROW LEVEL SECURITY;

--
-- Name: rooms; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.rooms ENABLE ROW LEVEL SECURITY;

--
-- Name: rooms rooms_create; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY rooms_create ON public.rooms FOR INSERT WITH CHECK ((public.workbench_user() IS NOT NULL));


--
-- Name: rooms rooms_delete; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY rooms_delete ON public.rooms FOR DELETE USING ((id IN ( SELECT public.workbench_owned_rooms() AS workbench_owned_rooms)));


--
-- Name: rooms rooms_read; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY rooms_read ON public.rooms FOR SELECT USING ((id IN ( SELECT public.workbench_rooms() AS workbench_rooms)));


--
-- Name: rooms rooms_write; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY rooms_write ON public.rooms FOR UPDATE USING ((id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms))) WITH CHECK ((id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms)));


--
-- Name: sheet_columns; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.sheet_columns ENABLE ROW LEVEL SECURITY;

--
-- Name: sheet_columns sheet_columns_read; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY sheet_columns_read ON public.sheet_columns FOR SELECT USING ((sheet_id IN ( SELECT sheets.id
   FROM public.sheets)));


--
-- Name: sheet_columns sheet_columns_write; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY sheet_columns_write ON public.sheet_columns USING ((sheet_id IN ( SELECT s.id
   FROM (public.sheets s
     JOIN public.documents d ON ((d.id = s.document_id)))
  WHERE (d.room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms))))) WITH CHECK ((sheet_id IN ( SELECT s.id
   FROM (public.sheets s
     JOIN public.documents d ON ((d.id = s.document_id)))
  WHERE (d.room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms)))));


--
-- Name: sheet_rows; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.sheet_rows ENABLE ROW LEVEL SECURITY;

--
-- Name: sheet_rows sheet_rows_read; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY sheet_rows_read ON public.sheet_rows FOR SELECT USING ((sheet_id IN ( SELECT sheets.id
   FROM public.sheets)));


--
-- Name: sheet_rows sheet_rows_write; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY sheet_rows_write ON public.sheet_rows USING ((sheet_id IN ( SELECT s.id
   FROM (public.sheets s
     JOIN public.documents d ON ((d.id = s.document_id)))
  WHERE (d.room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms))))) WITH CHECK ((sheet_id IN ( SELECT s.id
   FROM (public.sheets s
     JOIN public.documents d ON ((d.id = s.document_id)))
  WHERE (d.room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms)))));


--
-- Name: sheets; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.sheets ENABLE ROW LEVEL SECURITY;

--
-- Name: sheets sheets_read; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY sheets_read ON public.sheets FOR SELECT USING ((document_id IN ( SELECT documents.id
   FROM public.documents)));


--
-- Name: sheets sheets_write; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY sheets_write ON public.sheets USING ((document_id IN ( SELECT documents.id
   FROM public.documents
  WHERE (documents.room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms))))) WITH CHECK ((document_id IN ( SELECT documents.id
   FROM public.documents
  WHERE (documents.room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms)))));


--
-- Name: term_stats; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.term_stats ENABLE ROW LEVEL SECURITY;

--
-- Name: term_stats term_stats_add; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY term_stats_add ON public.term_stats FOR INSERT WITH CHECK ((room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms)));


--
-- Name: term_stats term_stats_delete; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY term_stats_delete ON public.term_stats FOR DELETE USING ((room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms)));


--
-- Name: term_stats term_stats_read; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY term_stats_read ON public.term_stats FOR SELECT USING ((room_id IN ( SELECT public.workbench_rooms() AS workbench_rooms)));


--
-- Name: term_stats term_stats_update; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY term_stats_update ON public.term_stats FOR UPDATE USING ((room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms))) WITH CHECK ((room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms)));


--
-- Name: users; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.users ENABLE ROW LEVEL SECURITY;

--
-- Name: users users_read; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY users_read ON public.users FOR SELECT USING (((id = public.workbench_user()) OR (id IN ( SELECT room_members.user_id
   FROM public.room_members))));


--
-- Name: users users_self; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY users_self ON public.users FOR UPDATE USING ((id = public.workbench_user())) WITH CHECK ((id = public.workbench_user()));


--
-- Name: SCHEMA public; Type: ACL; Schema: -; Owner: -
--

GRANT USAGE ON SCHEMA public TO workbench_app;


--
-- Name: FUNCTION workbench_create_account(new_id uuid, user_email text, name text, hash text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.workbench_create_account(new_id uuid, user_email text, name text, hash text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.workbench_create_account(new_id uuid, user_email text, name text, hash text) TO workbench_app;


--
-- Name: FUNCTION workbench_credentials(user_email text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.workbench_credentials(user_email text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.workbench_credentials(user_email text) TO workbench_app;


--
-- Name: FUNCTION workbench_ensure_user(user_id uuid, user_email text, name text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.workbench_ensure_user(user_id uuid, user_email text, name text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.workbench_ensure_user(user_id uuid, user_email text, name text) TO workbench_app;


--
-- Name: FUNCTION workbench_find_user(user_email text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.workbench_find_user(user_email text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.workbench_find_user(user_email text) TO workbench_app;


--
-- Name: FUNCTION workbench_set_password_hash(user_id uuid, hash text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.workbench_set_password_hash(user_id uuid, hash text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.workbench_set_password_hash(user_id uuid, hash text) TO workbench_app;


--
-- Name: TABLE cell_edits; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.cell_edits TO workbench_app;


--
-- Name: SEQUENCE cell_edits_id_seq; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,USAGE ON SEQUENCE public.cell_edits_id_seq TO workbench_app;


--
-- Name: TABLE chunk_embeddings; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.chunk_embeddings TO workbench_app;


--
-- Name: TABLE chunks; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.chunks TO workbench_app;


--
-- Name: SEQUENCE chunks_id_seq; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,USAGE ON SEQUENCE public.chunks_id_seq TO workbench_app;


--
-- Name: TABLE conversations; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.conversations TO workbench_app;


--
-- Name: SEQUENCE conversations_id_seq; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,USAGE ON SEQUENCE public.conversations_id_seq TO workbench_app;


--
-- Name: TABLE document_files; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.document_files TO workbench_app;


--
-- Name: TABLE documents; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.documents TO workbench_app;


--
-- Name: SEQUENCE documents_id_seq; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,USAGE ON SEQUENCE public.documents_id_seq TO workbench_app;


--
-- Name: TABLE messages; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.messages TO workbench_app;


--
-- Name: SEQUENCE messages_id_seq; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,USAGE ON SEQUENCE public.messages_id_seq TO workbench_app;


--
-- Name: TABLE pages; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.pages TO workbench_app;


--
-- Name: TABLE qa_citations; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.qa_citations TO workbench_app;


--
-- Name: TABLE qa_feedback; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.qa_feedback TO workbench_app;


--
-- Name: SEQUENCE qa_feedback_id_seq; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,USAGE ON SEQUENCE public.qa_feedback_id_seq TO workbench_app;


--
-- Name: TABLE qa_queries; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.qa_queries TO workbench_app;


--
-- Name: SEQUENCE qa_queries_id_seq; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,USAGE ON SEQUENCE public.qa_queries_id_seq TO workbench_app;


--
-- Name: TABLE rate_limits; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.rate_limits TO workbench_app;


--
-- Name: TABLE room_members; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.room_members TO workbench_app;


--
-- Name: TABLE rooms; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.rooms TO workbench_app;


--
-- Name: SEQUENCE rooms_id_seq; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,USAGE ON SEQUENCE public.rooms_id_seq TO workbench_app;


--
-- Name: TABLE sheet_columns; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.sheet_columns TO workbench_app;


--
-- Name: TABLE sheet_rows; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.sheet_rows TO workbench_app;


--
-- Name: SEQUENCE sheet_rows_id_seq; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,USAGE ON SEQUENCE public.sheet_rows_id_seq TO workbench_app;


--
-- Name: TABLE sheets; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.sheets TO workbench_app;


--
-- Name: SEQUENCE sheets_id_seq; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,USAGE ON SEQUENCE public.sheets_id_seq TO workbench_app;


--
-- Name: TABLE term_stats; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.term_stats TO workbench_app;


--
-- Name: TABLE users; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.users TO workbench_app;


--
-- Name: DEFAULT PRIVILEGES FOR SEQUENCES; Type: DEFAULT ACL; Schema: public; Owner: -
--

ALTER DEFAULT PRIVILEGES FOR ROLE postgres IN SCHEMA public GRANT SELECT,USAGE ON SEQUENCES TO workbench_app;


--
-- Name: DEFAULT PRIVILEGES FOR TABLES; Type: DEFAULT ACL; Schema: public; Owner: -
--

ALTER DEFAULT PRIVILEGES FOR ROLE postgres IN SCHEMA public GRANT SELECT,INSERT,DELETE,UPDATE ON TABLES TO workbench_app;


--
-- PostgreSQL database dump complete
--


