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
-- Name: procrastinate_job_event_type; Type: TYPE; Schema: public; Owner: -
--

CREATE TYPE public.procrastinate_job_event_type AS ENUM (
    'deferred',
    'started',
    'deferred_for_retry',
    'failed',
    'succeeded',
    'cancelled',
    'abort_requested',
    'aborted',
    'scheduled',
    'retried'
);


--
-- Name: procrastinate_job_status; Type: TYPE; Schema: public; Owner: -
--

CREATE TYPE public.procrastinate_job_status AS ENUM (
    'todo',
    'doing',
    'succeeded',
    'failed',
    'cancelled',
    'aborting',
    'aborted'
);


--
-- Name: procrastinate_job_to_defer_v1; Type: TYPE; Schema: public; Owner: -
--

CREATE TYPE public.procrastinate_job_to_defer_v1 AS (
	queue_name character varying,
	task_name character varying,
	priority integer,
	lock text,
	queueing_lock text,
	args jsonb,
	scheduled_at timestamp with time zone
);


--
-- Name: procrastinate_cancel_job_v1(bigint, boolean, boolean); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.procrastinate_cancel_job_v1(job_id bigint, abort boolean, delete_job boolean) RETURNS bigint
    LANGUAGE plpgsql
    AS $$
DECLARE
    _job_id bigint;
BEGIN
    IF delete_job THEN
        DELETE FROM procrastinate_jobs
        WHERE id = job_id AND status = 'todo'
        RETURNING id INTO _job_id;
    END IF;
    IF _job_id IS NULL THEN
        IF abort THEN
            UPDATE procrastinate_jobs
            SET abort_requested = true,
                status = CASE status
                    WHEN 'todo' THEN 'cancelled'::procrastinate_job_status ELSE status
                END
            WHERE id = job_id AND status IN ('todo', 'doing')
            RETURNING id INTO _job_id;
        ELSE
            UPDATE procrastinate_jobs
            SET status = 'cancelled'::procrastinate_job_status
            WHERE id = job_id AND status = 'todo'
            RETURNING id INTO _job_id;
        END IF;
    END IF;
    RETURN _job_id;
END;
$$;


--
-- Name: procrastinate_defer_jobs_v1(public.procrastinate_job_to_defer_v1[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.procrastinate_defer_jobs_v1(jobs public.procrastinate_job_to_defer_v1[]) RETURNS bigint[]
    LANGUAGE plpgsql
    AS $$
DECLARE
    job_ids bigint[];
BEGIN
    WITH inserted_jobs AS (
        INSERT INTO procrastinate_jobs (queue_name, task_name, priority, lock, queueing_lock, args, scheduled_at)
        SELECT (job).queue_name,
               (job).task_name,
               (job).priority,
               (job).lock,
               (job).queueing_lock,
               (job).args,
               (job).scheduled_at
        FROM unnest(jobs) AS job
        RETURNING id
    )
    SELECT array_agg(id) FROM inserted_jobs INTO job_ids;

    RETURN job_ids;
END;
$$;


--
-- Name: procrastinate_defer_periodic_job_v2(character varying, character varying, character varying, character varying, integer, character varying, bigint, jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.procrastinate_defer_periodic_job_v2(_queue_name character varying, _lock character varying, _queueing_lock character varying, _task_name character varying, _priority integer, _periodic_id character varying, _defer_timestamp bigint, _args jsonb) RETURNS bigint
    LANGUAGE plpgsql
    AS $$
DECLARE
	_job_id bigint;
	_defer_id bigint;
BEGIN
    INSERT
        INTO procrastinate_periodic_defers (task_name, periodic_id, defer_timestamp)
        VALUES (_task_name, _periodic_id, _defer_timestamp)
        ON CONFLICT DO NOTHING
        RETURNING id into _defer_id;

    IF _defer_id IS NULL THEN
        RETURN NULL;
    END IF;

    UPDATE procrastinate_periodic_defers
        SET job_id = (
            SELECT COALESCE((
                SELECT unnest(procrastinate_defer_jobs_v1(
                    ARRAY[
                        ROW(
                            _queue_name,
                            _task_name,
                            _priority,
                            _lock,
                            _queueing_lock,
                            _args,
                            NULL::timestamptz
                        )
                    ]::procrastinate_job_to_defer_v1[]
                ))
            ), NULL)
        )
        WHERE id = _defer_id
        RETURNING job_id INTO _job_id;

    DELETE
        FROM procrastinate_periodic_defers
        USING (
            SELECT id
            FROM procrastinate_periodic_defers
            WHERE procrastinate_periodic_defers.task_name = _task_name
            AND procrastinate_periodic_defers.periodic_id = _periodic_id
            AND procrastinate_periodic_defers.defer_timestamp < _defer_timestamp
            ORDER BY id
            FOR UPDATE
        ) to_delete
        WHERE procrastinate_periodic_defers.id = to_delete.id;

    RETURN _job_id;
END;
$$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: procrastinate_jobs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.procrastinate_jobs (
    id bigint NOT NULL,
    queue_name character varying(128) NOT NULL,
    task_name character varying(128) NOT NULL,
    priority integer DEFAULT 0 NOT NULL,
    lock text,
    queueing_lock text,
    args jsonb DEFAULT '{}'::jsonb NOT NULL,
    status public.procrastinate_job_status DEFAULT 'todo'::public.procrastinate_job_status NOT NULL,
    scheduled_at timestamp with time zone,
    attempts integer DEFAULT 0 NOT NULL,
    abort_requested boolean DEFAULT false NOT NULL,
    worker_id bigint,
    CONSTRAINT check_not_todo_abort_requested CHECK ((NOT ((status = 'todo'::public.procrastinate_job_status) AND (abort_requested = true))))
);


--
-- Name: procrastinate_fetch_job_v2(character varying[], bigint); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.procrastinate_fetch_job_v2(target_queue_names character varying[], p_worker_id bigint) RETURNS public.procrastinate_jobs
    LANGUAGE plpgsql
    AS $$
DECLARE
	found_jobs procrastinate_jobs;
BEGIN
    WITH candidate AS (
        SELECT jobs.*
            FROM procrastinate_jobs AS jobs
            WHERE
                -- reject the job if its lock has earlier or higher priority jobs
                NOT EXISTS (
                    SELECT 1
                        FROM procrastinate_jobs AS other_jobs
                        WHERE
                            jobs.lock IS NOT NULL
                            AND other_jobs.lock = jobs.lock
                            AND (
                                -- job with same lock is already running
                                other_jobs.status = 'doing'
                                OR
                                -- job with same lock is waiting and has higher priority (or same priority but was queued first)
                                (
                                    other_jobs.status = 'todo'
                                    AND (
                                        other_jobs.priority > jobs.priority
                                        OR (
                                        other_jobs.priority = jobs.priority
                                        AND other_jobs.id < jobs.id
                                        )
                                    )
                                )
                            )
                )
                AND jobs.status = 'todo'
                AND (target_queue_names IS NULL OR jobs.queue_name = ANY( target_queue_names ))
                AND (jobs.scheduled_at IS NULL OR jobs.scheduled_at <= now())
            ORDER BY jobs.priority DESC, jobs.id ASC LIMIT 1
            FOR UPDATE OF jobs SKIP LOCKED
    )
    UPDATE procrastinate_jobs
        SET status = 'doing', worker_id = p_worker_id
        FROM candidate
        WHERE procrastinate_jobs.id = candidate.id
        RETURNING procrastinate_jobs.* INTO found_jobs;

 RETURN found_jobs;
END;
$$;


--
-- Name: procrastinate_finish_job_v1(bigint, public.procrastinate_job_status, boolean); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.procrastinate_finish_job_v1(job_id bigint, end_status public.procrastinate_job_status, delete_job boolean) RETURNS void
    LANGUAGE plpgsql
    AS $$
DECLARE
    _job_id bigint;
BEGIN
    IF end_status NOT IN ('succeeded', 'failed', 'aborted') THEN
        RAISE 'End status should be either "succeeded", "failed" or "aborted" (job id: %)', job_id;
    END IF;
    IF delete_job THEN
        DELETE FROM procrastinate_jobs
        WHERE id = job_id AND status IN ('todo', 'doing')
        RETURNING id INTO _job_id;
    ELSE
        UPDATE procrastinate_jobs
        SET status = end_status,
            abort_requested = false,
            attempts = CASE status
                WHEN 'doing' THEN attempts + 1 ELSE attempts
            END
        WHERE id = job_id AND status IN ('todo', 'doing')
        RETURNING id INTO _job_id;
    END IF;
    IF _job_id IS NULL THEN
        RAISE 'Job was not found or not in "doing" or "todo" status (job id: %)', job_id;
    END IF;
END;
$$;


--
-- Name: procrastinate_notify_queue_abort_job_v1(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.procrastinate_notify_queue_abort_job_v1() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    payload TEXT;
BEGIN
    SELECT json_build_object('type', 'abort_job_requested', 'job_id', NEW.id)::text INTO payload;
	PERFORM pg_notify('procrastinate_queue_v1#' || NEW.queue_name, payload);
	PERFORM pg_notify('procrastinate_any_queue_v1', payload);
	RETURN NEW;
END;
$$;


--
-- Name: procrastinate_notify_queue_job_inserted_v1(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.procrastinate_notify_queue_job_inserted_v1() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    payload TEXT;
BEGIN
    SELECT json_build_object('type', 'job_inserted', 'job_id', NEW.id)::text INTO payload;
	PERFORM pg_notify('procrastinate_queue_v1#' || NEW.queue_name, payload);
	PERFORM pg_notify('procrastinate_any_queue_v1', payload);
	RETURN NEW;
END;
$$;


--
-- Name: procrastinate_prune_stalled_workers_v1(double precision); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.procrastinate_prune_stalled_workers_v1(seconds_since_heartbeat double precision) RETURNS TABLE(worker_id bigint)
    LANGUAGE plpgsql
    AS $$
BEGIN
    RETURN QUERY
    DELETE FROM procrastinate_workers
    WHERE last_heartbeat < NOW() - (seconds_since_heartbeat || 'SECOND')::INTERVAL
    RETURNING procrastinate_workers.id;
END;
$$;


--
-- Name: procrastinate_register_worker_v1(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.procrastinate_register_worker_v1() RETURNS TABLE(worker_id bigint)
    LANGUAGE plpgsql
    AS $$
BEGIN
    RETURN QUERY
    INSERT INTO procrastinate_workers DEFAULT VALUES
    RETURNING procrastinate_workers.id;
END;
$$;


--
-- Name: procrastinate_retry_job_v1(bigint, timestamp with time zone, integer, character varying, character varying); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.procrastinate_retry_job_v1(job_id bigint, retry_at timestamp with time zone, new_priority integer, new_queue_name character varying, new_lock character varying) RETURNS void
    LANGUAGE plpgsql
    AS $$
DECLARE
    _job_id bigint;
    _abort_requested boolean;
BEGIN
    SELECT abort_requested FROM procrastinate_jobs
    WHERE id = job_id AND status = 'doing'
    FOR UPDATE
    INTO _abort_requested;
    IF _abort_requested THEN
        UPDATE procrastinate_jobs
        SET status = 'failed'::procrastinate_job_status
        WHERE id = job_id AND status = 'doing'
        RETURNING id INTO _job_id;
    ELSE
        UPDATE procrastinate_jobs
        SET status = 'todo'::procrastinate_job_status,
            attempts = attempts + 1,
            scheduled_at = retry_at,
            priority = COALESCE(new_priority, priority),
            queue_name = COALESCE(new_queue_name, queue_name),
            lock = COALESCE(new_lock, lock)
        WHERE id = job_id AND status = 'doing'
        RETURNING id INTO _job_id;
    END IF;

    IF _job_id IS NULL THEN
        RAISE 'Job was not found or not in "doing" status (job id: %)', job_id;
    END IF;
END;
$$;


--
-- Name: procrastinate_retry_job_v2(bigint, timestamp with time zone, integer, character varying, character varying); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.procrastinate_retry_job_v2(job_id bigint, retry_at timestamp with time zone, new_priority integer, new_queue_name character varying, new_lock character varying) RETURNS void
    LANGUAGE plpgsql
    AS $$
DECLARE
    _job_id bigint;
    _abort_requested boolean;
    _current_status procrastinate_job_status;
BEGIN
    SELECT status, abort_requested FROM procrastinate_jobs
    WHERE id = job_id AND status IN ('doing', 'failed')
    FOR UPDATE
    INTO _current_status, _abort_requested;
    IF _current_status = 'doing' AND _abort_requested THEN
        UPDATE procrastinate_jobs
        SET status = 'failed'::procrastinate_job_status
        WHERE id = job_id AND status = 'doing'
        RETURNING id INTO _job_id;
    ELSE
        UPDATE procrastinate_jobs
        SET status = 'todo'::procrastinate_job_status,
            attempts = attempts + 1,
            scheduled_at = retry_at,
            priority = COALESCE(new_priority, priority),
            queue_name = COALESCE(new_queue_name, queue_name),
            lock = COALESCE(new_lock, lock)
        WHERE id = job_id AND status IN ('doing', 'failed')
        RETURNING id INTO _job_id;
    END IF;

    IF _job_id IS NULL THEN
        RAISE 'Job was not found or has an invalid status to retry (job id: %)', job_id;
    END IF;

END;
$$;


--
-- Name: procrastinate_trigger_abort_requested_events_procedure_v1(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.procrastinate_trigger_abort_requested_events_procedure_v1() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO procrastinate_events(job_id, type)
        VALUES (NEW.id, 'abort_requested'::procrastinate_job_event_type);
    RETURN NEW;
END;
$$;


--
-- Name: procrastinate_trigger_function_scheduled_events_v1(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.procrastinate_trigger_function_scheduled_events_v1() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO procrastinate_events(job_id, type, at)
        VALUES (NEW.id, 'scheduled'::procrastinate_job_event_type, NEW.scheduled_at);

	RETURN NEW;
END;
$$;


--
-- Name: procrastinate_trigger_function_status_events_insert_v1(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.procrastinate_trigger_function_status_events_insert_v1() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO procrastinate_events(job_id, type)
        VALUES (NEW.id, 'deferred'::procrastinate_job_event_type);
	RETURN NEW;
END;
$$;


--
-- Name: procrastinate_trigger_function_status_events_update_v1(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.procrastinate_trigger_function_status_events_update_v1() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    WITH t AS (
        SELECT CASE
            WHEN OLD.status = 'todo'::procrastinate_job_status
                AND NEW.status = 'doing'::procrastinate_job_status
                THEN 'started'::procrastinate_job_event_type
            WHEN OLD.status = 'doing'::procrastinate_job_status
                AND NEW.status = 'todo'::procrastinate_job_status
                THEN 'deferred_for_retry'::procrastinate_job_event_type
            WHEN OLD.status = 'doing'::procrastinate_job_status
                AND NEW.status = 'failed'::procrastinate_job_status
                THEN 'failed'::procrastinate_job_event_type
            WHEN OLD.status = 'doing'::procrastinate_job_status
                AND NEW.status = 'succeeded'::procrastinate_job_status
                THEN 'succeeded'::procrastinate_job_event_type
            WHEN OLD.status = 'todo'::procrastinate_job_status
                AND (
                    NEW.status = 'cancelled'::procrastinate_job_status
                    OR NEW.status = 'failed'::procrastinate_job_status
                    OR NEW.status = 'succeeded'::procrastinate_job_status
                )
                THEN 'cancelled'::procrastinate_job_event_type
            WHEN OLD.status = 'doing'::procrastinate_job_status
                AND NEW.status = 'aborted'::procrastinate_job_status
                THEN 'aborted'::procrastinate_job_event_type
            WHEN OLD.status = 'failed'::procrastinate_job_status
                AND NEW.status = 'todo'::procrastinate_job_status
                THEN 'retried'::procrastinate_job_event_type
            ELSE NULL
        END as event_type
    )
    INSERT INTO procrastinate_events(job_id, type)
        SELECT NEW.id, t.event_type
        FROM t
        WHERE t.event_type IS NOT NULL;
	RETURN NEW;
END;
$$;


--
-- Name: procrastinate_unlink_periodic_defers_v1(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.procrastinate_unlink_periodic_defers_v1() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    UPDATE procrastinate_periodic_defers
    SET job_id = NULL
    WHERE job_id = OLD.id;
    RETURN OLD;
END;
$$;


--
-- Name: procrastinate_unregister_worker_v1(bigint); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.procrastinate_unregister_worker_v1(worker_id bigint) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
    DELETE FROM procrastinate_workers
    WHERE id = worker_id;
END;
$$;


--
-- Name: procrastinate_update_heartbeat_v1(bigint); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.procrastinate_update_heartbeat_v1(worker_id bigint) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
    UPDATE procrastinate_workers
    SET last_heartbeat = NOW()
    WHERE id = worker_id;
END;
$$;


--
-- Name: workbench_check_chunk_rows(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_check_chunk_rows() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
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


--
-- Name: workbench_check_citation_documents(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_check_citation_documents() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
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


--
-- Name: workbench_count_request(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_count_request(p_kind text) RETURNS TABLE(counted boolean, clock timestamp with time zone, asked timestamp with time zone[], max_requests integer, per interval)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    me uuid := workbench_user();
BEGIN
    IF me IS NULL THEN
        RAISE EXCEPTION 'no signed-in user to count' USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN QUERY SELECT * FROM workbench_count_request_at(me, p_kind, NULL);
END
$$;


--
-- Name: workbench_count_request_at(uuid, text, timestamp with time zone); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_count_request_at(p_user uuid, p_kind text, p_at timestamp with time zone) RETURNS TABLE(counted boolean, clock timestamp with time zone, asked timestamp with time zone[], max_requests integer, per interval)
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    rule rate_limit_rules%ROWTYPE;
    now_at timestamptz;
    kept timestamptz[];
BEGIN
    SELECT * INTO STRICT rule FROM rate_limit_rules r WHERE r.kind = p_kind;
    IF rule.max_requests = 0 THEN
        RETURN QUERY SELECT true, coalesce(p_at, clock_timestamp()), '{}'::timestamptz[], 0, rule.per;
        RETURN;
    END IF;
    INSERT INTO rate_limits (user_id, kind, asked_at) VALUES (p_user, p_kind, '{}') ON CONFLICT DO NOTHING;
    PERFORM 1 FROM rate_limits r WHERE r.user_id = p_user AND r.kind = p_kind FOR UPDATE;
    now_at := coalesce(p_at, clock_timestamp());
    SELECT ARRAY(SELECT t FROM unnest(r.asked_at) AS t WHERE t > now_at - rule.per ORDER BY t) INTO kept
    FROM rate_limits r WHERE r.user_id = p_user AND r.kind = p_kind;
    IF cardinality(kept) >= rule.max_requests THEN
        RETURN QUERY SELECT false, now_at, kept, rule.max_requests, rule.per;
        RETURN;
    END IF;
    UPDATE rate_limits r SET asked_at = kept || now_at WHERE r.user_id = p_user AND r.kind = p_kind;
    RETURN QUERY SELECT true, now_at, kept || now_at, rule.max_requests, rule.per;
END
$$;


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
-- Name: workbench_defer_ingest_job(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_defer_ingest_job() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    -- Files before room embeddings (the demo's, `embed` jobs): an upload never waits behind a whole room.
    PERFORM procrastinate_defer_jobs_v1(ARRAY[ROW(
        'ingest', 'ingest', CASE WHEN NEW.kind = 'embed' THEN -1 ELSE 0 END, NULL, NULL,
        jsonb_build_object('job_id', NEW.id, 'user_id', NEW.user_id), NULL
    )::procrastinate_job_to_defer_v1]);
    RETURN NULL;
END
$$;


--
-- Name: workbench_document_status_guard(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_document_status_guard() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    IF NEW.status IS DISTINCT FROM OLD.status AND workbench_user() IS NOT NULL
       AND OLD.room_id NOT IN (SELECT workbench_owned_rooms())
       AND NOT (OLD.status = 'incomplete' AND NEW.status = 'ready'
                AND NOT EXISTS (SELECT 1 FROM chunks c WHERE c.document_id = OLD.id
                                AND NOT EXISTS (SELECT 1 FROM chunk_embeddings e WHERE e.chunk_id = c.id))) THEN
        RAISE EXCEPTION 'only an owner of the room may change a document''s status'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END
$$;


--
-- Name: workbench_ensure_user(uuid, text, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_ensure_user(user_id uuid, user_email text, name text) RETURNS uuid
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    IF user_id IS DISTINCT FROM workbench_user() THEN
        RAISE EXCEPTION 'only the signed-in user may record themselves' USING ERRCODE = 'insufficient_privilege';
    END IF;
    INSERT INTO users (id, email, display_name) VALUES (user_id, user_email, name)
    ON CONFLICT (id) DO UPDATE SET email = EXCLUDED.email;
    RETURN user_id;
END
$$;


--
-- Name: workbench_find_user(bigint, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_find_user(p_room bigint, user_email text) RETURNS TABLE(id uuid, display_name text)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
DECLARE
    me uuid := workbench_user();
    c record;
BEGIN
    IF me IS NULL OR NOT EXISTS (
        SELECT 1 FROM room_members m
        WHERE m.user_id = me AND m.role = 'owner' AND (p_room IS NULL OR m.room_id = p_room)
    ) THEN
        RAISE EXCEPTION 'only an owner of the room can look up accounts to add as members'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    SELECT * INTO c FROM workbench_count_request_at(me, 'lookup', NULL);
    IF NOT c.counted THEN
        RAISE EXCEPTION 'too many account lookups: % in the last % (the limit is %)',
            cardinality(c.asked), c.per, c.max_requests
            USING ERRCODE = 'WB429', HINT = c.max_requests || '/' || extract(epoch FROM c.per)::bigint,
                  DETAIL = to_char((c.asked[cardinality(c.asked) - c.max_requests + 1] + c.per)
                                   AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"');
    END IF;
    RETURN QUERY SELECT u.id, u.display_name FROM users u WHERE lower(u.email) = lower(user_email);
END
$$;


--
-- Name: workbench_issue_token(uuid, interval); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_issue_token(p_user uuid, p_ttl interval DEFAULT '12:00:00'::interval) RETURNS text
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
    SELECT t.m || '.' || workbench_sign(t.m)
    FROM (SELECT p_user::text || '.'
                 || floor(extract(epoch FROM now() + least(p_ttl, interval '1 day')))::bigint::text AS m) t
    WHERE p_user IS NOT NULL
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
    SELECT room_id FROM room_members WHERE user_id = (SELECT workbench_user()) AND role = 'owner'
$$;


--
-- Name: workbench_query_figures(bigint[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_query_figures(rooms bigint[]) RETURNS TABLE(id bigint, room_id bigint, created_at timestamp with time zone, source text, abstained boolean, failed boolean, total_ms real, first_token_ms real, n_citations integer, votes bigint, helpful bigint)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
    -- total_ms is what the user waited (migration 013): the page's submit-to-last-token time for a question
    -- asked on a page, the service's own total for one from the command line.
    SELECT q.id, q.room_id, q.created_at, q.source, q.abstained, q.error IS NOT NULL,
           coalesce(q.waited_ms, q.total_ms), q.first_token_ms,
           q.n_citations,
           (SELECT count(*) FROM qa_feedback f WHERE f.query_id = q.id),
           (SELECT count(*) FROM qa_feedback f WHERE f.query_id = q.id AND f.helpful)
    FROM qa_queries q
    WHERE q.room_id = ANY(rooms)
      AND (q.room_id IN (SELECT workbench_owned_rooms())
           OR (q.user_id = (SELECT workbench_user()) AND q.room_id IN (SELECT workbench_rooms())))
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
-- Name: workbench_room_has_clause(bigint, tsquery, text[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_room_has_clause(p_room bigint, p_query tsquery, p_words text[]) RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    SET enable_seqscan TO 'off'
    AS $_$
    SELECT numnode(p_query) = 0 OR (p_room IN (SELECT workbench_rooms()) AND EXISTS (
        SELECT 1 FROM chunks c
        CROSS JOIN LATERAL regexp_split_to_table(c.content, '[.;:!?](\s|$)|,\s|\n\s*\n|\n(?=[A-Z])') AS clause
        WHERE (c.tsv || array_to_tsvector(ARRAY['room:' || c.room_id::text]))
              @@ (p_query && quote_literal('room:' || p_room::text)::tsquery)
          AND to_tsvector('english', clause) @@ p_query
          AND NOT EXISTS (SELECT 1 FROM unnest(p_words) AS w WHERE clause !~* ('\m' || w))
    ))
$_$;


--
-- Name: workbench_room_has_phrase(bigint, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_room_has_phrase(p_room bigint, p_phrase text) RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
    SELECT workbench_room_has_query(p_room, phraseto_tsquery('english', p_phrase), false)
$$;


--
-- Name: workbench_room_has_query(bigint, tsquery, boolean); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_room_has_query(p_room bigint, p_query tsquery, p_rows boolean) RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    SET enable_seqscan TO 'off'
    AS $$
    SELECT numnode(p_query) = 0 OR (p_room IN (SELECT workbench_rooms()) AND EXISTS (
        SELECT 1 FROM chunks c
        WHERE (c.tsv || array_to_tsvector(ARRAY['room:' || c.room_id::text]))
              @@ (p_query && quote_literal('room:' || p_room::text)::tsquery)
          AND (NOT p_rows OR c.row_id IS NOT NULL)
    ))
$$;


--
-- Name: workbench_room_has_written(bigint, tsquery, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_room_has_written(p_room bigint, p_query tsquery, p_pattern text) RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    SET enable_seqscan TO 'off'
    AS $$
    SELECT numnode(p_query) = 0 OR (p_room IN (SELECT workbench_rooms()) AND EXISTS (
        SELECT 1 FROM chunks c
        WHERE (c.tsv || array_to_tsvector(ARRAY['room:' || c.room_id::text]))
              @@ (p_query && quote_literal('room:' || p_room::text)::tsquery)
          AND c.content ~* p_pattern
    ))
$$;


--
-- Name: workbench_room_owner_guard(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_room_owner_guard() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    IF NEW.owner_id IS DISTINCT FROM OLD.owner_id AND workbench_user() IS NOT NULL THEN
        RAISE EXCEPTION 'a room''s creator does not change' USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END
$$;


--
-- Name: workbench_rooms(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_rooms() RETURNS SETOF bigint
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
    SELECT room_id FROM room_members WHERE user_id = (SELECT workbench_user())
$$;


--
-- Name: workbench_set_password_hash(uuid, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_set_password_hash(user_id uuid, hash text) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    IF user_id IS DISTINCT FROM workbench_user() THEN
        RAISE EXCEPTION 'only the signed-in user may change their password' USING ERRCODE = 'insufficient_privilege';
    END IF;
    UPDATE users u SET password_hash = hash WHERE u.id = user_id;
END
$$;


--
-- Name: workbench_sign(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_sign(message text) RETURNS text
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
    SELECT encode(sha256(s.outer_key || sha256(s.inner_key || convert_to(message, 'UTF8'))), 'hex')
    FROM workbench_secret s
$$;


--
-- Name: workbench_sign_in_result(text, boolean); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_sign_in_result(p_email text, p_ok boolean) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
BEGIN
    IF p_ok THEN
        DELETE FROM sign_in_failures WHERE email = lower(p_email);
    ELSE
        INSERT INTO sign_in_failures AS f (email, failures, last_failed_at)
        VALUES (lower(p_email), 1, clock_timestamp())
        ON CONFLICT (email) DO UPDATE
        SET failures = CASE WHEN f.last_failed_at < clock_timestamp() - interval '1 day' THEN 1 ELSE f.failures + 1 END,
            last_failed_at = clock_timestamp();
    END IF;
END
$$;


--
-- Name: workbench_sign_in_wait(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_sign_in_wait(p_email text) RETURNS double precision
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
    SELECT coalesce((
        SELECT greatest(0, extract(epoch FROM f.last_failed_at
               + least(interval '15 minutes', make_interval(secs => 2 ^ least(f.failures - 5, 10))) - now()))
        FROM sign_in_failures f
        WHERE f.email = lower(p_email) AND f.failures >= 5 AND f.last_failed_at > now() - interval '1 day'
    ), 0)::double precision
$$;


--
-- Name: workbench_token_user(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_token_user(token text) RETURNS uuid
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $_$
DECLARE
    parts text[] := string_to_array(token, '.');
BEGIN
    IF token IS NULL OR cardinality(parts) <> 3
       OR parts[1] !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
       OR parts[2] !~ '^[0-9]{1,12}$' OR parts[3] !~ '^[0-9a-f]{64}$' THEN
        RETURN NULL;
    END IF;
    IF parts[2]::bigint < extract(epoch FROM now()) THEN
        RETURN NULL;
    END IF;
    IF workbench_sign(parts[1] || '.' || parts[2]) IS DISTINCT FROM parts[3] THEN
        RETURN NULL;
    END IF;
    RETURN parts[1]::uuid;
END
$_$;


--
-- Name: workbench_user(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_user() RETURNS uuid
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
    SELECT CASE
        WHEN current_setting('role', true) = 'authenticated' THEN coalesce(
            nullif(current_setting('request.jwt.claim.sub', true), ''),
            nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub'
        )::uuid
        ELSE workbench_token_user(nullif(current_setting('app.user_token', true), ''))
    END
$$;


--
-- Name: workbench_writable_rooms(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.workbench_writable_rooms() RETURNS SETOF bigint
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $$
    SELECT room_id FROM room_members WHERE user_id = (SELECT workbench_user()) AND role IN ('owner', 'editor')
$$;


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
    user_id uuid DEFAULT public.workbench_user(),
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
    company text,
    form text,
    fiscal_year integer,
    fiscal_quarter smallint,
    period_end date,
    fiscal_convention text,
    CONSTRAINT documents_check CHECK (((status = 'failed'::text) OR (kind IS NOT NULL))),
    CONSTRAINT documents_fiscal_quarter_check CHECK (((fiscal_quarter >= 1) AND (fiscal_quarter <= 4))),
    CONSTRAINT documents_fiscal_year_check CHECK (((fiscal_year >= 1900) AND (fiscal_year <= 2099))),
    CONSTRAINT documents_form_check CHECK ((form = ANY (ARRAY['10-K'::text, '10-Q'::text, '8-K'::text, 'earnings release'::text, 'annual report'::text, 'other'::text]))),
    CONSTRAINT documents_kind_check CHECK ((kind = ANY (ARRAY['pdf'::text, 'sheet'::text]))),
    CONSTRAINT documents_status_check CHECK ((status = ANY (ARRAY['ingesting'::text, 'ready'::text, 'incomplete'::text, 'failed'::text])))
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
-- Name: ingest_jobs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ingest_jobs (
    id bigint NOT NULL,
    room_id bigint NOT NULL,
    user_id uuid DEFAULT public.workbench_user() NOT NULL,
    kind text DEFAULT 'file'::text NOT NULL,
    filename text,
    checksum text,
    data bytea,
    embed boolean DEFAULT true NOT NULL,
    status text DEFAULT 'queued'::text NOT NULL,
    stage text DEFAULT 'queued'::text NOT NULL,
    done integer DEFAULT 0 NOT NULL,
    total integer DEFAULT 0 NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    error text,
    result jsonb,
    document_id bigint,
    parse_peak_mb integer,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    crashes integer DEFAULT 0 NOT NULL,
    CONSTRAINT ingest_jobs_check CHECK (((kind = 'embed'::text) OR (length(TRIM(BOTH FROM filename)) > 0))),
    CONSTRAINT ingest_jobs_crashes_check CHECK ((crashes >= 0)),
    CONSTRAINT ingest_jobs_kind_check CHECK ((kind = ANY (ARRAY['file'::text, 'embed'::text]))),
    CONSTRAINT ingest_jobs_stage_check CHECK ((stage = ANY (ARRAY['queued'::text, 'parsing'::text, 'storing'::text, 'embedding'::text, 'done'::text, 'failed'::text]))),
    CONSTRAINT ingest_jobs_status_check CHECK ((status = ANY (ARRAY['queued'::text, 'running'::text, 'done'::text, 'failed'::text])))
);


--
-- Name: ingest_jobs_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.ingest_jobs ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.ingest_jobs_id_seq
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
-- Name: procrastinate_events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.procrastinate_events (
    id bigint NOT NULL,
    job_id bigint NOT NULL,
    type public.procrastinate_job_event_type,
    at timestamp with time zone DEFAULT now()
);


--
-- Name: procrastinate_events_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.procrastinate_events_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: procrastinate_events_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.procrastinate_events_id_seq OWNED BY public.procrastinate_events.id;


--
-- Name: procrastinate_jobs_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.procrastinate_jobs_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: procrastinate_jobs_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.procrastinate_jobs_id_seq OWNED BY public.procrastinate_jobs.id;


--
-- Name: procrastinate_periodic_defers; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.procrastinate_periodic_defers (
    id bigint NOT NULL,
    task_name character varying(128) NOT NULL,
    defer_timestamp bigint,
    job_id bigint,
    periodic_id character varying(128) DEFAULT ''::character varying NOT NULL
);


--
-- Name: procrastinate_periodic_defers_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.procrastinate_periodic_defers_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: procrastinate_periodic_defers_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.procrastinate_periodic_defers_id_seq OWNED BY public.procrastinate_periodic_defers.id;


--
-- Name: procrastinate_workers; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.procrastinate_workers (
    id bigint NOT NULL,
    last_heartbeat timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: procrastinate_workers_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.procrastinate_workers ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.procrastinate_workers_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
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
    user_id uuid DEFAULT public.workbench_user(),
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
    user_id uuid DEFAULT public.workbench_user(),
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
-- Name: rate_limit_rules; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.rate_limit_rules (
    kind text NOT NULL,
    max_requests integer NOT NULL,
    per interval NOT NULL,
    CONSTRAINT rate_limit_rules_check CHECK (((max_requests >= 0) AND ((max_requests > 0) OR (kind <> 'lookup'::text)))),
    CONSTRAINT rate_limit_rules_kind_check CHECK ((kind = ANY (ARRAY['question'::text, 'search'::text, 'lookup'::text]))),
    CONSTRAINT rate_limit_rules_per_check CHECK ((per >= '00:01:00'::interval))
);


--
-- Name: rate_limits; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.rate_limits (
    user_id uuid NOT NULL,
    kind text NOT NULL,
    asked_at timestamp with time zone[] NOT NULL,
    CONSTRAINT rate_limits_kind_check CHECK ((kind = ANY (ARRAY['question'::text, 'search'::text, 'lookup'::text])))
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
    owner_id uuid DEFAULT COALESCE(public.workbench_user(), '00000000-0000-0000-0000-000000000001'::uuid),
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
    boxes jsonb,
    tsv tsvector GENERATED ALWAYS AS (
CASE
    WHEN (boxes IS NOT NULL) THEN to_tsvector('english'::regconfig, ("values")::text)
    ELSE NULL::tsvector
END) STORED
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
    model jsonb,
    model_corrections jsonb DEFAULT '{}'::jsonb NOT NULL,
    tab text,
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
-- Name: sign_in_failures; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sign_in_failures (
    email text NOT NULL,
    failures integer NOT NULL,
    last_failed_at timestamp with time zone NOT NULL
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
-- Name: workbench_secret; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.workbench_secret (
    id boolean DEFAULT true NOT NULL,
    inner_key bytea NOT NULL,
    outer_key bytea NOT NULL,
    CONSTRAINT workbench_secret_id_check CHECK (id),
    CONSTRAINT workbench_secret_inner_key_check CHECK ((length(inner_key) = 64)),
    CONSTRAINT workbench_secret_outer_key_check CHECK ((length(outer_key) = 64))
);


--
-- Name: procrastinate_events id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.procrastinate_events ALTER COLUMN id SET DEFAULT nextval('public.procrastinate_events_id_seq'::regclass);


--
-- Name: procrastinate_jobs id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.procrastinate_jobs ALTER COLUMN id SET DEFAULT nextval('public.procrastinate_jobs_id_seq'::regclass);


--
-- Name: procrastinate_periodic_defers id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.procrastinate_periodic_defers ALTER COLUMN id SET DEFAULT nextval('public.procrastinate_periodic_defers_id_seq'::regclass);


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
-- Name: chunks chunks_room_id; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.chunks
    ADD CONSTRAINT chunks_room_id UNIQUE (room_id, id);


--
-- Name: conversations conversations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.conversations
    ADD CONSTRAINT conversations_pkey PRIMARY KEY (id);


--
-- Name: conversations conversations_room_id; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.conversations
    ADD CONSTRAINT conversations_room_id UNIQUE (room_id, id);


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
-- Name: documents documents_room_id; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.documents
    ADD CONSTRAINT documents_room_id UNIQUE (room_id, id);


--
-- Name: documents documents_room_id_checksum_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.documents
    ADD CONSTRAINT documents_room_id_checksum_key UNIQUE (room_id, checksum);


--
-- Name: ingest_jobs ingest_jobs_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ingest_jobs
    ADD CONSTRAINT ingest_jobs_pkey PRIMARY KEY (id);


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
-- Name: procrastinate_events procrastinate_events_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.procrastinate_events
    ADD CONSTRAINT procrastinate_events_pkey PRIMARY KEY (id);


--
-- Name: procrastinate_jobs procrastinate_jobs_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.procrastinate_jobs
    ADD CONSTRAINT procrastinate_jobs_pkey PRIMARY KEY (id);


--
-- Name: procrastinate_periodic_defers procrastinate_periodic_defers_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.procrastinate_periodic_defers
    ADD CONSTRAINT procrastinate_periodic_defers_pkey PRIMARY KEY (id);


--
-- Name: procrastinate_periodic_defers procrastinate_periodic_defers_unique; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.procrastinate_periodic_defers
    ADD CONSTRAINT procrastinate_periodic_defers_unique UNIQUE (task_name, periodic_id, defer_timestamp);


--
-- Name: procrastinate_workers procrastinate_workers_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.procrastinate_workers
    ADD CONSTRAINT procrastinate_workers_pkey PRIMARY KEY (id);


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
-- Name: rate_limit_rules rate_limit_rules_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rate_limit_rules
    ADD CONSTRAINT rate_limit_rules_pkey PRIMARY KEY (kind);


--
-- Name: rate_limits rate_limits_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rate_limits
    ADD CONSTRAINT rate_limits_pkey PRIMARY KEY (user_id, kind);


--
-- Name: room_members room_members_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.room_members
    ADD CONSTRAINT room_members_pkey PRIMARY KEY (room_id, user_id);


--
-- Name: rooms rooms_owner_name; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rooms
    ADD CONSTRAINT rooms_owner_name UNIQUE (owner_id, name);


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
-- Name: sheet_rows sheet_rows_sheet_id; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sheet_rows
    ADD CONSTRAINT sheet_rows_sheet_id UNIQUE (sheet_id, id);


--
-- Name: sheet_rows sheet_rows_sheet_id_row_index_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sheet_rows
    ADD CONSTRAINT sheet_rows_sheet_id_row_index_key UNIQUE (sheet_id, row_index);


--
-- Name: sheets sheets_document_id; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sheets
    ADD CONSTRAINT sheets_document_id UNIQUE (document_id, id);


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
-- Name: sign_in_failures sign_in_failures_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sign_in_failures
    ADD CONSTRAINT sign_in_failures_pkey PRIMARY KEY (email);


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
-- Name: workbench_secret workbench_secret_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.workbench_secret
    ADD CONSTRAINT workbench_secret_pkey PRIMARY KEY (id);


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
-- Name: idx_procrastinate_jobs_worker_not_null; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX idx_procrastinate_jobs_worker_not_null ON public.procrastinate_jobs USING btree (worker_id) WHERE ((worker_id IS NOT NULL) AND (status = 'doing'::public.procrastinate_job_status));


--
-- Name: idx_procrastinate_workers_last_heartbeat; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX idx_procrastinate_workers_last_heartbeat ON public.procrastinate_workers USING btree (last_heartbeat);


--
-- Name: ingest_jobs_pending; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX ingest_jobs_pending ON public.ingest_jobs USING btree (room_id, COALESCE(checksum, kind)) WHERE (status = ANY (ARRAY['queued'::text, 'running'::text]));


--
-- Name: ingest_jobs_room; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ingest_jobs_room ON public.ingest_jobs USING btree (room_id, id DESC);


--
-- Name: messages_conversation; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX messages_conversation ON public.messages USING btree (conversation_id, id);


--
-- Name: procrastinate_events_job_id_fkey_v1; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX procrastinate_events_job_id_fkey_v1 ON public.procrastinate_events USING btree (job_id);


--
-- Name: procrastinate_jobs_id_lock_idx_v1; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX procrastinate_jobs_id_lock_idx_v1 ON public.procrastinate_jobs USING btree (id, lock) WHERE (status = ANY (ARRAY['todo'::public.procrastinate_job_status, 'doing'::public.procrastinate_job_status]));


--
-- Name: procrastinate_jobs_lock_idx_v1; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX procrastinate_jobs_lock_idx_v1 ON public.procrastinate_jobs USING btree (lock) WHERE (status = 'doing'::public.procrastinate_job_status);


--
-- Name: procrastinate_jobs_priority_idx_v1; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX procrastinate_jobs_priority_idx_v1 ON public.procrastinate_jobs USING btree (priority DESC, id) WHERE (status = 'todo'::public.procrastinate_job_status);


--
-- Name: procrastinate_jobs_queue_name_idx_v1; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX procrastinate_jobs_queue_name_idx_v1 ON public.procrastinate_jobs USING btree (queue_name);


--
-- Name: procrastinate_jobs_queueing_lock_idx_v1; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX procrastinate_jobs_queueing_lock_idx_v1 ON public.procrastinate_jobs USING btree (queueing_lock) WHERE (status = 'todo'::public.procrastinate_job_status);


--
-- Name: procrastinate_periodic_defers_job_id_fkey_v1; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX procrastinate_periodic_defers_job_id_fkey_v1 ON public.procrastinate_periodic_defers USING btree (job_id);


--
-- Name: qa_queries_conversation; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX qa_queries_conversation ON public.qa_queries USING btree (conversation_id, created_at);


--
-- Name: qa_queries_room_time; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX qa_queries_room_time ON public.qa_queries USING btree (room_id, created_at);


--
-- Name: room_members_user; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX room_members_user ON public.room_members USING btree (user_id);


--
-- Name: users_email_lower; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX users_email_lower ON public.users USING btree (lower(email));


--
-- Name: chunks chunks_rows_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER chunks_rows_insert AFTER INSERT ON public.chunks REFERENCING NEW TABLE AS new_chunks FOR EACH STATEMENT EXECUTE FUNCTION public.workbench_check_chunk_rows();


--
-- Name: chunks chunks_rows_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER chunks_rows_update AFTER UPDATE ON public.chunks REFERENCING NEW TABLE AS new_chunks FOR EACH STATEMENT EXECUTE FUNCTION public.workbench_check_chunk_rows();


--
-- Name: documents documents_status_guard; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER documents_status_guard BEFORE UPDATE OF status ON public.documents FOR EACH ROW EXECUTE FUNCTION public.workbench_document_status_guard();


--
-- Name: ingest_jobs ingest_jobs_defer; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ingest_jobs_defer AFTER INSERT ON public.ingest_jobs FOR EACH ROW EXECUTE FUNCTION public.workbench_defer_ingest_job();


--
-- Name: procrastinate_jobs procrastinate_jobs_notify_queue_job_aborted_v1; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER procrastinate_jobs_notify_queue_job_aborted_v1 AFTER UPDATE OF abort_requested ON public.procrastinate_jobs FOR EACH ROW WHEN (((old.abort_requested = false) AND (new.abort_requested = true) AND (new.status = 'doing'::public.procrastinate_job_status))) EXECUTE FUNCTION public.procrastinate_notify_queue_abort_job_v1();


--
-- Name: procrastinate_jobs procrastinate_jobs_notify_queue_job_inserted_v1; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER procrastinate_jobs_notify_queue_job_inserted_v1 AFTER INSERT ON public.procrastinate_jobs FOR EACH ROW WHEN ((new.status = 'todo'::public.procrastinate_job_status)) EXECUTE FUNCTION public.procrastinate_notify_queue_job_inserted_v1();


--
-- Name: procrastinate_jobs procrastinate_trigger_abort_requested_events_v1; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER procrastinate_trigger_abort_requested_events_v1 AFTER UPDATE OF abort_requested ON public.procrastinate_jobs FOR EACH ROW WHEN ((new.abort_requested = true)) EXECUTE FUNCTION public.procrastinate_trigger_abort_requested_events_procedure_v1();


--
-- Name: procrastinate_jobs procrastinate_trigger_delete_jobs_v1; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER procrastinate_trigger_delete_jobs_v1 BEFORE DELETE ON public.procrastinate_jobs FOR EACH ROW EXECUTE FUNCTION public.procrastinate_unlink_periodic_defers_v1();


--
-- Name: procrastinate_jobs procrastinate_trigger_scheduled_events_v1; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER procrastinate_trigger_scheduled_events_v1 AFTER INSERT OR UPDATE ON public.procrastinate_jobs FOR EACH ROW WHEN (((new.scheduled_at IS NOT NULL) AND (new.status = 'todo'::public.procrastinate_job_status))) EXECUTE FUNCTION public.procrastinate_trigger_function_scheduled_events_v1();


--
-- Name: procrastinate_jobs procrastinate_trigger_status_events_insert_v1; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER procrastinate_trigger_status_events_insert_v1 AFTER INSERT ON public.procrastinate_jobs FOR EACH ROW WHEN ((new.status = 'todo'::public.procrastinate_job_status)) EXECUTE FUNCTION public.procrastinate_trigger_function_status_events_insert_v1();


--
-- Name: procrastinate_jobs procrastinate_trigger_status_events_update_v1; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER procrastinate_trigger_status_events_update_v1 AFTER UPDATE OF status ON public.procrastinate_jobs FOR EACH ROW EXECUTE FUNCTION public.procrastinate_trigger_function_status_events_update_v1();


--
-- Name: qa_citations qa_citations_documents_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER qa_citations_documents_insert AFTER INSERT ON public.qa_citations REFERENCING NEW TABLE AS new_citations FOR EACH STATEMENT EXECUTE FUNCTION public.workbench_check_citation_documents();


--
-- Name: qa_citations qa_citations_documents_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER qa_citations_documents_update AFTER UPDATE ON public.qa_citations REFERENCING NEW TABLE AS new_citations FOR EACH STATEMENT EXECUTE FUNCTION public.workbench_check_citation_documents();


--
-- Name: rooms rooms_owner; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER rooms_owner AFTER INSERT ON public.rooms FOR EACH ROW EXECUTE FUNCTION public.workbench_room_creator();


--
-- Name: rooms rooms_owner_guard; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER rooms_owner_guard BEFORE UPDATE OF owner_id ON public.rooms FOR EACH ROW EXECUTE FUNCTION public.workbench_room_owner_guard();


--
-- Name: cell_edits cell_edits_document_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.cell_edits
    ADD CONSTRAINT cell_edits_document_id_fkey FOREIGN KEY (document_id) REFERENCES public.documents(id) ON DELETE CASCADE;


--
-- Name: cell_edits cell_edits_document_room; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.cell_edits
    ADD CONSTRAINT cell_edits_document_room FOREIGN KEY (room_id, document_id) REFERENCES public.documents(room_id, id) ON DELETE CASCADE;


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
-- Name: cell_edits cell_edits_row_sheet; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.cell_edits
    ADD CONSTRAINT cell_edits_row_sheet FOREIGN KEY (sheet_id, row_id) REFERENCES public.sheet_rows(sheet_id, id) ON DELETE CASCADE;


--
-- Name: cell_edits cell_edits_sheet_document; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.cell_edits
    ADD CONSTRAINT cell_edits_sheet_document FOREIGN KEY (document_id, sheet_id) REFERENCES public.sheets(document_id, id) ON DELETE CASCADE;


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
-- Name: chunk_embeddings chunk_embeddings_chunk_room; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.chunk_embeddings
    ADD CONSTRAINT chunk_embeddings_chunk_room FOREIGN KEY (room_id, chunk_id) REFERENCES public.chunks(room_id, id) ON DELETE CASCADE;


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
-- Name: chunks chunks_document_room; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.chunks
    ADD CONSTRAINT chunks_document_room FOREIGN KEY (room_id, document_id) REFERENCES public.documents(room_id, id) ON DELETE CASCADE;


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
-- Name: ingest_jobs ingest_jobs_document_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ingest_jobs
    ADD CONSTRAINT ingest_jobs_document_id_fkey FOREIGN KEY (document_id) REFERENCES public.documents(id) ON DELETE SET NULL;


--
-- Name: ingest_jobs ingest_jobs_room_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ingest_jobs
    ADD CONSTRAINT ingest_jobs_room_id_fkey FOREIGN KEY (room_id) REFERENCES public.rooms(id) ON DELETE CASCADE;


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
-- Name: procrastinate_events procrastinate_events_job_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.procrastinate_events
    ADD CONSTRAINT procrastinate_events_job_id_fkey FOREIGN KEY (job_id) REFERENCES public.procrastinate_jobs(id) ON DELETE CASCADE;


--
-- Name: procrastinate_jobs procrastinate_jobs_worker_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.procrastinate_jobs
    ADD CONSTRAINT procrastinate_jobs_worker_id_fkey FOREIGN KEY (worker_id) REFERENCES public.procrastinate_workers(id) ON DELETE SET NULL;


--
-- Name: procrastinate_periodic_defers procrastinate_periodic_defers_job_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.procrastinate_periodic_defers
    ADD CONSTRAINT procrastinate_periodic_defers_job_id_fkey FOREIGN KEY (job_id) REFERENCES public.procrastinate_jobs(id);


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
-- Name: qa_queries qa_queries_conversation_room; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.qa_queries
    ADD CONSTRAINT qa_queries_conversation_room FOREIGN KEY (room_id, conversation_id) REFERENCES public.conversations(room_id, id) ON DELETE SET NULL (conversation_id);


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
-- Name: rooms rooms_owner_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rooms
    ADD CONSTRAINT rooms_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES public.users(id) ON DELETE SET NULL;


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
-- Name: cell_edits cell_edits_delete_owner; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY cell_edits_delete_owner ON public.cell_edits AS RESTRICTIVE FOR DELETE USING ((room_id IN ( SELECT public.workbench_owned_rooms() AS workbench_owned_rooms)));


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
-- Name: chunks chunks_delete_owner; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY chunks_delete_owner ON public.chunks AS RESTRICTIVE FOR DELETE USING ((room_id IN ( SELECT public.workbench_owned_rooms() AS workbench_owned_rooms)));


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
-- Name: conversations conversations_own; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY conversations_own ON public.conversations USING (((user_id = ( SELECT public.workbench_user() AS workbench_user)) AND (room_id IN ( SELECT public.workbench_rooms() AS workbench_rooms)))) WITH CHECK (((user_id = ( SELECT public.workbench_user() AS workbench_user)) AND (room_id IN ( SELECT public.workbench_rooms() AS workbench_rooms))));


--
-- Name: document_files; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.document_files ENABLE ROW LEVEL SECURITY;

--
-- Name: document_files document_files_delete_owner; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY document_files_delete_owner ON public.document_files AS RESTRICTIVE FOR DELETE USING ((document_id IN ( SELECT documents.id
   FROM public.documents
  WHERE (documents.room_id IN ( SELECT public.workbench_owned_rooms() AS workbench_owned_rooms)))));


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
-- Name: ingest_jobs; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.ingest_jobs ENABLE ROW LEVEL SECURITY;

--
-- Name: ingest_jobs ingest_jobs_add; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY ingest_jobs_add ON public.ingest_jobs FOR INSERT WITH CHECK (((user_id = public.workbench_user()) AND (room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms))));


--
-- Name: ingest_jobs ingest_jobs_delete; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY ingest_jobs_delete ON public.ingest_jobs FOR DELETE USING ((((user_id = public.workbench_user()) AND (status = ANY (ARRAY['done'::text, 'failed'::text]))) OR (room_id IN ( SELECT public.workbench_owned_rooms() AS workbench_owned_rooms))));


--
-- Name: ingest_jobs ingest_jobs_read; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY ingest_jobs_read ON public.ingest_jobs FOR SELECT USING ((room_id IN ( SELECT public.workbench_rooms() AS workbench_rooms)));


--
-- Name: ingest_jobs ingest_jobs_update; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY ingest_jobs_update ON public.ingest_jobs FOR UPDATE USING (((user_id = public.workbench_user()) AND (room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms)))) WITH CHECK (((user_id = public.workbench_user()) AND (room_id IN ( SELECT public.workbench_writable_rooms() AS workbench_writable_rooms))));


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
-- Name: pages pages_delete_owner; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY pages_delete_owner ON public.pages AS RESTRICTIVE FOR DELETE USING ((document_id IN ( SELECT documents.id
   FROM public.documents
  WHERE (documents.room_id IN ( SELECT public.workbench_owned_rooms() AS workbench_owned_rooms)))));


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
-- Name: procrastinate_events; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.procrastinate_events ENABLE ROW LEVEL SECURITY;

--
-- Name: procrastinate_events procrastinate_events_not_the_app; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY procrastinate_events_not_the_app ON public.procrastinate_events TO workbench_app USING (false) WITH CHECK (false);


--
-- Name: procrastinate_jobs; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.procrastinate_jobs ENABLE ROW LEVEL SECURITY;

--
-- Name: procrastinate_jobs procrastinate_jobs_not_the_app; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY procrastinate_jobs_not_the_app ON public.procrastinate_jobs TO workbench_app USING (false) WITH CHECK (false);


--
-- Name: procrastinate_periodic_defers; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.procrastinate_periodic_defers ENABLE ROW LEVEL SECURITY;

--
-- Name: procrastinate_periodic_defers procrastinate_periodic_defers_not_the_app; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY procrastinate_periodic_defers_not_the_app ON public.procrastinate_periodic_defers TO workbench_app USING (false) WITH CHECK (false);


--
-- Name: procrastinate_workers; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.procrastinate_workers ENABLE ROW LEVEL SECURITY;

--
-- Name: procrastinate_workers procrastinate_workers_not_the_app; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY procrastinate_workers_not_the_app ON public.procrastinate_workers TO workbench_app USING (false) WITH CHECK (false);


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
-- Name: qa_feedback qa_feedback_own; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY qa_feedback_own ON public.qa_feedback USING (((user_id = ( SELECT public.workbench_user() AS workbench_user)) AND (query_id IN ( SELECT qa_queries.id
   FROM public.qa_queries)))) WITH CHECK (((user_id = ( SELECT public.workbench_user() AS workbench_user)) AND (query_id IN ( SELECT qa_queries.id
   FROM public.qa_queries))));


--
-- Name: qa_queries; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.qa_queries ENABLE ROW LEVEL SECURITY;

--
-- Name: qa_queries qa_queries_own; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY qa_queries_own ON public.qa_queries USING (((user_id = ( SELECT public.workbench_user() AS workbench_user)) AND (room_id IN ( SELECT public.workbench_rooms() AS workbench_rooms)))) WITH CHECK (((user_id = ( SELECT public.workbench_user() AS workbench_user)) AND (room_id IN ( SELECT public.workbench_rooms() AS workbench_rooms))));


--
-- Name: rate_limit_rules; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.rate_limit_rules ENABLE ROW LEVEL SECURITY;

--
-- Name: rate_limit_rules rate_limit_rules_none; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY rate_limit_rules_none ON public.rate_limit_rules USING (false) WITH CHECK (false);


--
-- Name: rate_limits; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.rate_limits ENABLE ROW LEVEL SECURITY;

--
-- Name: rate_limits rate_limits_none; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY rate_limits_none ON public.rate_limits USING (false) WITH CHECK (false);


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

CREATE POLICY rooms_create ON public.rooms FOR INSERT WITH CHECK (((( SELECT public.workbench_user() AS workbench_user) IS NOT NULL) AND (owner_id = ( SELECT public.workbench_user() AS workbench_user))));


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
-- Name: sheet_columns sheet_columns_delete_owner; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY sheet_columns_delete_owner ON public.sheet_columns AS RESTRICTIVE FOR DELETE USING ((sheet_id IN ( SELECT s.id
   FROM (public.sheets s
     JOIN public.documents d ON ((d.id = s.document_id)))
  WHERE (d.room_id IN ( SELECT public.workbench_owned_rooms() AS workbench_owned_rooms)))));


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
-- Name: sheet_rows sheet_rows_delete_owner; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY sheet_rows_delete_owner ON public.sheet_rows AS RESTRICTIVE FOR DELETE USING ((sheet_id IN ( SELECT s.id
   FROM (public.sheets s
     JOIN public.documents d ON ((d.id = s.document_id)))
  WHERE (d.room_id IN ( SELECT public.workbench_owned_rooms() AS workbench_owned_rooms)))));


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
-- Name: sheets sheets_delete_owner; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY sheets_delete_owner ON public.sheets AS RESTRICTIVE FOR DELETE USING ((document_id IN ( SELECT documents.id
   FROM public.documents
  WHERE (documents.room_id IN ( SELECT public.workbench_owned_rooms() AS workbench_owned_rooms)))));


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
-- Name: sign_in_failures; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.sign_in_failures ENABLE ROW LEVEL SECURITY;

--
-- Name: sign_in_failures sign_in_failures_none; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY sign_in_failures_none ON public.sign_in_failures USING (false) WITH CHECK (false);


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

CREATE POLICY users_read ON public.users FOR SELECT USING (((id = ( SELECT public.workbench_user() AS workbench_user)) OR (id IN ( SELECT room_members.user_id
   FROM public.room_members))));


--
-- Name: workbench_secret; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.workbench_secret ENABLE ROW LEVEL SECURITY;

--
-- Name: workbench_secret workbench_secret_none; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY workbench_secret_none ON public.workbench_secret USING (false) WITH CHECK (false);


--
-- Name: SCHEMA public; Type: ACL; Schema: -; Owner: -
--

GRANT USAGE ON SCHEMA public TO workbench_app;
GRANT USAGE ON SCHEMA public TO workbench_login;


--
-- Name: FUNCTION pg_blocking_pids(integer); Type: ACL; Schema: pg_catalog; Owner: -
--

REVOKE ALL ON FUNCTION pg_catalog.pg_blocking_pids(integer) FROM PUBLIC;


--
-- Name: FUNCTION pg_cancel_backend(integer); Type: ACL; Schema: pg_catalog; Owner: -
--

REVOKE ALL ON FUNCTION pg_catalog.pg_cancel_backend(integer) FROM PUBLIC;


--
-- Name: FUNCTION pg_lock_status(OUT locktype text, OUT database oid, OUT relation oid, OUT page integer, OUT tuple smallint, OUT virtualxid text, OUT transactionid xid, OUT classid oid, OUT objid oid, OUT objsubid smallint, OUT virtualtransaction text, OUT pid integer, OUT mode text, OUT granted boolean, OUT fastpath boolean, OUT waitstart timestamp with time zone); Type: ACL; Schema: pg_catalog; Owner: -
--

REVOKE ALL ON FUNCTION pg_catalog.pg_lock_status(OUT locktype text, OUT database oid, OUT relation oid, OUT page integer, OUT tuple smallint, OUT virtualxid text, OUT transactionid xid, OUT classid oid, OUT objid oid, OUT objsubid smallint, OUT virtualtransaction text, OUT pid integer, OUT mode text, OUT granted boolean, OUT fastpath boolean, OUT waitstart timestamp with time zone) FROM PUBLIC;


--
-- Name: FUNCTION pg_safe_snapshot_blocking_pids(integer); Type: ACL; Schema: pg_catalog; Owner: -
--

REVOKE ALL ON FUNCTION pg_catalog.pg_safe_snapshot_blocking_pids(integer) FROM PUBLIC;


--
-- Name: FUNCTION pg_stat_get_activity(pid integer, OUT datid oid, OUT pid integer, OUT usesysid oid, OUT application_name text, OUT state text, OUT query text, OUT wait_event_type text, OUT wait_event text, OUT xact_start timestamp with time zone, OUT query_start timestamp with time zone, OUT backend_start timestamp with time zone, OUT state_change timestamp with time zone, OUT client_addr inet, OUT client_hostname text, OUT client_port integer, OUT backend_xid xid, OUT backend_xmin xid, OUT backend_type text, OUT ssl boolean, OUT sslversion text, OUT sslcipher text, OUT sslbits integer, OUT ssl_client_dn text, OUT ssl_client_serial numeric, OUT ssl_issuer_dn text, OUT gss_auth boolean, OUT gss_princ text, OUT gss_enc boolean, OUT gss_delegation boolean, OUT leader_pid integer, OUT query_id bigint); Type: ACL; Schema: pg_catalog; Owner: -
--

REVOKE ALL ON FUNCTION pg_catalog.pg_stat_get_activity(pid integer, OUT datid oid, OUT pid integer, OUT usesysid oid, OUT application_name text, OUT state text, OUT query text, OUT wait_event_type text, OUT wait_event text, OUT xact_start timestamp with time zone, OUT query_start timestamp with time zone, OUT backend_start timestamp with time zone, OUT state_change timestamp with time zone, OUT client_addr inet, OUT client_hostname text, OUT client_port integer, OUT backend_xid xid, OUT backend_xmin xid, OUT backend_type text, OUT ssl boolean, OUT sslversion text, OUT sslcipher text, OUT sslbits integer, OUT ssl_client_dn text, OUT ssl_client_serial numeric, OUT ssl_issuer_dn text, OUT gss_auth boolean, OUT gss_princ text, OUT gss_enc boolean, OUT gss_delegation boolean, OUT leader_pid integer, OUT query_id bigint) FROM PUBLIC;


--
-- Name: FUNCTION pg_stat_get_backend_activity(integer); Type: ACL; Schema: pg_catalog; Owner: -
--

REVOKE ALL ON FUNCTION pg_catalog.pg_stat_get_backend_activity(integer) FROM PUBLIC;


--
-- Name: FUNCTION pg_stat_get_backend_activity_start(integer); Type: ACL; Schema: pg_catalog; Owner: -
--

REVOKE ALL ON FUNCTION pg_catalog.pg_stat_get_backend_activity_start(integer) FROM PUBLIC;


--
-- Name: FUNCTION pg_stat_get_backend_client_addr(integer); Type: ACL; Schema: pg_catalog; Owner: -
--

REVOKE ALL ON FUNCTION pg_catalog.pg_stat_get_backend_client_addr(integer) FROM PUBLIC;


--
-- Name: FUNCTION pg_stat_get_backend_client_port(integer); Type: ACL; Schema: pg_catalog; Owner: -
--

REVOKE ALL ON FUNCTION pg_catalog.pg_stat_get_backend_client_port(integer) FROM PUBLIC;


--
-- Name: FUNCTION pg_stat_get_backend_dbid(integer); Type: ACL; Schema: pg_catalog; Owner: -
--

REVOKE ALL ON FUNCTION pg_catalog.pg_stat_get_backend_dbid(integer) FROM PUBLIC;


--
-- Name: FUNCTION pg_stat_get_backend_idset(); Type: ACL; Schema: pg_catalog; Owner: -
--

REVOKE ALL ON FUNCTION pg_catalog.pg_stat_get_backend_idset() FROM PUBLIC;


--
-- Name: FUNCTION pg_stat_get_backend_io(backend_pid integer, OUT backend_type text, OUT object text, OUT context text, OUT reads bigint, OUT read_bytes numeric, OUT read_time double precision, OUT writes bigint, OUT write_bytes numeric, OUT write_time double precision, OUT writebacks bigint, OUT writeback_time double precision, OUT extends bigint, OUT extend_bytes numeric, OUT extend_time double precision, OUT hits bigint, OUT evictions bigint, OUT reuses bigint, OUT fsyncs bigint, OUT fsync_time double precision, OUT stats_reset timestamp with time zone); Type: ACL; Schema: pg_catalog; Owner: -
--

REVOKE ALL ON FUNCTION pg_catalog.pg_stat_get_backend_io(backend_pid integer, OUT backend_type text, OUT object text, OUT context text, OUT reads bigint, OUT read_bytes numeric, OUT read_time double precision, OUT writes bigint, OUT write_bytes numeric, OUT write_time double precision, OUT writebacks bigint, OUT writeback_time double precision, OUT extends bigint, OUT extend_bytes numeric, OUT extend_time double precision, OUT hits bigint, OUT evictions bigint, OUT reuses bigint, OUT fsyncs bigint, OUT fsync_time double precision, OUT stats_reset timestamp with time zone) FROM PUBLIC;


--
-- Name: FUNCTION pg_stat_get_backend_pid(integer); Type: ACL; Schema: pg_catalog; Owner: -
--

REVOKE ALL ON FUNCTION pg_catalog.pg_stat_get_backend_pid(integer) FROM PUBLIC;


--
-- Name: FUNCTION pg_stat_get_backend_start(integer); Type: ACL; Schema: pg_catalog; Owner: -
--

REVOKE ALL ON FUNCTION pg_catalog.pg_stat_get_backend_start(integer) FROM PUBLIC;


--
-- Name: FUNCTION pg_stat_get_backend_subxact(bid integer, OUT subxact_count integer, OUT subxact_overflowed boolean); Type: ACL; Schema: pg_catalog; Owner: -
--

REVOKE ALL ON FUNCTION pg_catalog.pg_stat_get_backend_subxact(bid integer, OUT subxact_count integer, OUT subxact_overflowed boolean) FROM PUBLIC;


--
-- Name: FUNCTION pg_stat_get_backend_userid(integer); Type: ACL; Schema: pg_catalog; Owner: -
--

REVOKE ALL ON FUNCTION pg_catalog.pg_stat_get_backend_userid(integer) FROM PUBLIC;


--
-- Name: FUNCTION pg_stat_get_backend_wait_event(integer); Type: ACL; Schema: pg_catalog; Owner: -
--

REVOKE ALL ON FUNCTION pg_catalog.pg_stat_get_backend_wait_event(integer) FROM PUBLIC;


--
-- Name: FUNCTION pg_stat_get_backend_wait_event_type(integer); Type: ACL; Schema: pg_catalog; Owner: -
--

REVOKE ALL ON FUNCTION pg_catalog.pg_stat_get_backend_wait_event_type(integer) FROM PUBLIC;


--
-- Name: FUNCTION pg_stat_get_backend_wal(backend_pid integer, OUT wal_records bigint, OUT wal_fpi bigint, OUT wal_bytes numeric, OUT wal_buffers_full bigint, OUT stats_reset timestamp with time zone); Type: ACL; Schema: pg_catalog; Owner: -
--

REVOKE ALL ON FUNCTION pg_catalog.pg_stat_get_backend_wal(backend_pid integer, OUT wal_records bigint, OUT wal_fpi bigint, OUT wal_bytes numeric, OUT wal_buffers_full bigint, OUT stats_reset timestamp with time zone) FROM PUBLIC;


--
-- Name: FUNCTION pg_stat_get_backend_xact_start(integer); Type: ACL; Schema: pg_catalog; Owner: -
--

REVOKE ALL ON FUNCTION pg_catalog.pg_stat_get_backend_xact_start(integer) FROM PUBLIC;


--
-- Name: FUNCTION pg_stat_get_progress_info(cmdtype text, OUT pid integer, OUT datid oid, OUT relid oid, OUT param1 bigint, OUT param2 bigint, OUT param3 bigint, OUT param4 bigint, OUT param5 bigint, OUT param6 bigint, OUT param7 bigint, OUT param8 bigint, OUT param9 bigint, OUT param10 bigint, OUT param11 bigint, OUT param12 bigint, OUT param13 bigint, OUT param14 bigint, OUT param15 bigint, OUT param16 bigint, OUT param17 bigint, OUT param18 bigint, OUT param19 bigint, OUT param20 bigint); Type: ACL; Schema: pg_catalog; Owner: -
--

REVOKE ALL ON FUNCTION pg_catalog.pg_stat_get_progress_info(cmdtype text, OUT pid integer, OUT datid oid, OUT relid oid, OUT param1 bigint, OUT param2 bigint, OUT param3 bigint, OUT param4 bigint, OUT param5 bigint, OUT param6 bigint, OUT param7 bigint, OUT param8 bigint, OUT param9 bigint, OUT param10 bigint, OUT param11 bigint, OUT param12 bigint, OUT param13 bigint, OUT param14 bigint, OUT param15 bigint, OUT param16 bigint, OUT param17 bigint, OUT param18 bigint, OUT param19 bigint, OUT param20 bigint) FROM PUBLIC;


--
-- Name: FUNCTION pg_stat_get_subscription(subid oid, OUT subid oid, OUT relid oid, OUT pid integer, OUT leader_pid integer, OUT received_lsn pg_lsn, OUT last_msg_send_time timestamp with time zone, OUT last_msg_receipt_time timestamp with time zone, OUT latest_end_lsn pg_lsn, OUT latest_end_time timestamp with time zone, OUT worker_type text); Type: ACL; Schema: pg_catalog; Owner: -
--

REVOKE ALL ON FUNCTION pg_catalog.pg_stat_get_subscription(subid oid, OUT subid oid, OUT relid oid, OUT pid integer, OUT leader_pid integer, OUT received_lsn pg_lsn, OUT last_msg_send_time timestamp with time zone, OUT last_msg_receipt_time timestamp with time zone, OUT latest_end_lsn pg_lsn, OUT latest_end_time timestamp with time zone, OUT worker_type text) FROM PUBLIC;


--
-- Name: FUNCTION pg_stat_get_wal_receiver(OUT pid integer, OUT status text, OUT receive_start_lsn pg_lsn, OUT receive_start_tli integer, OUT written_lsn pg_lsn, OUT flushed_lsn pg_lsn, OUT received_tli integer, OUT last_msg_send_time timestamp with time zone, OUT last_msg_receipt_time timestamp with time zone, OUT latest_end_lsn pg_lsn, OUT latest_end_time timestamp with time zone, OUT slot_name text, OUT sender_host text, OUT sender_port integer, OUT conninfo text); Type: ACL; Schema: pg_catalog; Owner: -
--

REVOKE ALL ON FUNCTION pg_catalog.pg_stat_get_wal_receiver(OUT pid integer, OUT status text, OUT receive_start_lsn pg_lsn, OUT receive_start_tli integer, OUT written_lsn pg_lsn, OUT flushed_lsn pg_lsn, OUT received_tli integer, OUT last_msg_send_time timestamp with time zone, OUT last_msg_receipt_time timestamp with time zone, OUT latest_end_lsn pg_lsn, OUT latest_end_time timestamp with time zone, OUT slot_name text, OUT sender_host text, OUT sender_port integer, OUT conninfo text) FROM PUBLIC;


--
-- Name: FUNCTION pg_stat_get_wal_senders(OUT pid integer, OUT state text, OUT sent_lsn pg_lsn, OUT write_lsn pg_lsn, OUT flush_lsn pg_lsn, OUT replay_lsn pg_lsn, OUT write_lag interval, OUT flush_lag interval, OUT replay_lag interval, OUT sync_priority integer, OUT sync_state text, OUT reply_time timestamp with time zone); Type: ACL; Schema: pg_catalog; Owner: -
--

REVOKE ALL ON FUNCTION pg_catalog.pg_stat_get_wal_senders(OUT pid integer, OUT state text, OUT sent_lsn pg_lsn, OUT write_lsn pg_lsn, OUT flush_lsn pg_lsn, OUT replay_lsn pg_lsn, OUT write_lag interval, OUT flush_lag interval, OUT replay_lag interval, OUT sync_priority integer, OUT sync_state text, OUT reply_time timestamp with time zone) FROM PUBLIC;


--
-- Name: FUNCTION pg_terminate_backend(pid integer, timeout bigint); Type: ACL; Schema: pg_catalog; Owner: -
--

REVOKE ALL ON FUNCTION pg_catalog.pg_terminate_backend(pid integer, timeout bigint) FROM PUBLIC;


--
-- Name: FUNCTION workbench_check_chunk_rows(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.workbench_check_chunk_rows() FROM PUBLIC;


--
-- Name: FUNCTION workbench_check_citation_documents(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.workbench_check_citation_documents() FROM PUBLIC;


--
-- Name: FUNCTION workbench_count_request(p_kind text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.workbench_count_request(p_kind text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.workbench_count_request(p_kind text) TO workbench_app;


--
-- Name: FUNCTION workbench_count_request_at(p_user uuid, p_kind text, p_at timestamp with time zone); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.workbench_count_request_at(p_user uuid, p_kind text, p_at timestamp with time zone) FROM PUBLIC;


--
-- Name: FUNCTION workbench_create_account(new_id uuid, user_email text, name text, hash text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.workbench_create_account(new_id uuid, user_email text, name text, hash text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.workbench_create_account(new_id uuid, user_email text, name text, hash text) TO workbench_login;


--
-- Name: FUNCTION workbench_credentials(user_email text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.workbench_credentials(user_email text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.workbench_credentials(user_email text) TO workbench_login;


--
-- Name: FUNCTION workbench_defer_ingest_job(); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.workbench_defer_ingest_job() FROM PUBLIC;


--
-- Name: FUNCTION workbench_ensure_user(user_id uuid, user_email text, name text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.workbench_ensure_user(user_id uuid, user_email text, name text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.workbench_ensure_user(user_id uuid, user_email text, name text) TO workbench_app;


--
-- Name: FUNCTION workbench_find_user(p_room bigint, user_email text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.workbench_find_user(p_room bigint, user_email text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.workbench_find_user(p_room bigint, user_email text) TO workbench_app;


--
-- Name: FUNCTION workbench_issue_token(p_user uuid, p_ttl interval); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.workbench_issue_token(p_user uuid, p_ttl interval) FROM PUBLIC;
GRANT ALL ON FUNCTION public.workbench_issue_token(p_user uuid, p_ttl interval) TO workbench_login;


--
-- Name: FUNCTION workbench_set_password_hash(user_id uuid, hash text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.workbench_set_password_hash(user_id uuid, hash text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.workbench_set_password_hash(user_id uuid, hash text) TO workbench_app;


--
-- Name: FUNCTION workbench_sign(message text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.workbench_sign(message text) FROM PUBLIC;


--
-- Name: FUNCTION workbench_sign_in_result(p_email text, p_ok boolean); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.workbench_sign_in_result(p_email text, p_ok boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION public.workbench_sign_in_result(p_email text, p_ok boolean) TO workbench_login;


--
-- Name: FUNCTION workbench_sign_in_wait(p_email text); Type: ACL; Schema: public; Owner: -
--

REVOKE ALL ON FUNCTION public.workbench_sign_in_wait(p_email text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.workbench_sign_in_wait(p_email text) TO workbench_login;


--
-- Name: TABLE pg_locks; Type: ACL; Schema: pg_catalog; Owner: -
--

REVOKE SELECT ON TABLE pg_catalog.pg_locks FROM PUBLIC;


--
-- Name: TABLE pg_stat_activity; Type: ACL; Schema: pg_catalog; Owner: -
--

REVOKE SELECT ON TABLE pg_catalog.pg_stat_activity FROM PUBLIC;


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
-- Name: TABLE ingest_jobs; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.ingest_jobs TO workbench_app;


--
-- Name: SEQUENCE ingest_jobs_id_seq; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,USAGE ON SEQUENCE public.ingest_jobs_id_seq TO workbench_app;


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
-- Name: COLUMN users.id; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT(id) ON TABLE public.users TO workbench_app;


--
-- Name: COLUMN users.email; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT(email) ON TABLE public.users TO workbench_app;


--
-- Name: COLUMN users.display_name; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT(display_name) ON TABLE public.users TO workbench_app;


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


