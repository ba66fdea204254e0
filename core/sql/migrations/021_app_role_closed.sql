-- The app role's privileges closed (issue 25).
--
-- 1. No credential through the app role. Until now workbench_app had SELECT on the whole users table, so with
--    any member's token `select email, password_hash from users` returned co-members' argon2id hashes. Now it
--    has column privileges only: id, display_name and email (what the member list shows, for yourself and
--    the members of your rooms, as the users_read policy already said), and it changes nothing in the table
--    (accounts are created and passwords replaced by the definer functions of migrations 010 and 015).
REVOKE ALL ON users FROM workbench_app;
GRANT SELECT (id, display_name, email) ON users TO workbench_app;
DROP POLICY IF EXISTS users_self ON users;

-- 2. Account lookup by e-mail (to invite a member) only by an owner of the room the invitation is for, and
--    at most 30 lookups per user and hour (counted like questions, migration 016), so a signed-in user can
--    no longer ask "has this e-mail an account here?" for a list of addresses.
ALTER TABLE rate_limits DROP CONSTRAINT IF EXISTS rate_limits_kind_check;
ALTER TABLE rate_limits ADD CONSTRAINT rate_limits_kind_check CHECK (kind IN ('question', 'search', 'lookup'));

DROP FUNCTION workbench_find_user(text);
-- `p_room` is the room the account is to join (NULL: any room the caller owns, for callers that do not say).
-- Raises insufficient_privilege for anyone but the room's owner, and SQLSTATE WB429 (detail: the time the
-- next lookup is allowed, ISO 8601) past the limit.
CREATE FUNCTION workbench_find_user(p_room bigint, user_email text) RETURNS TABLE (id uuid, display_name text)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    me uuid := workbench_user();
    ok boolean;
    at timestamptz;
    asked timestamptz[];
BEGIN
    IF me IS NULL OR NOT EXISTS (
        SELECT 1 FROM room_members m
        WHERE m.user_id = me AND m.role = 'owner' AND (p_room IS NULL OR m.room_id = p_room)
    ) THEN
        RAISE EXCEPTION 'only an owner of the room can look up accounts to add as members'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    SELECT c.counted, c.clock, c.asked INTO ok, at, asked
    FROM workbench_count_request('lookup', 30, interval '1 hour') c;
    IF NOT ok THEN
        RAISE EXCEPTION 'too many account lookups: % in the last hour (the limit is 30)', cardinality(asked)
            USING ERRCODE = 'WB429', DETAIL = to_char((asked[cardinality(asked) - 29] + interval '1 hour')
                                                     AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"');
    END IF;
    RETURN QUERY SELECT u.id, u.display_name FROM users u WHERE lower(u.email) = lower(user_email);
END
$$;
REVOKE ALL ON FUNCTION workbench_find_user(bigint, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION workbench_find_user(bigint, text) TO workbench_app;

-- 3. No other session's activity. Every role may read pg_stat_activity (other sessions of its own role with
--    their SQL) and end the sessions of its own role (pg_terminate_backend, pg_cancel_backend): app
--    connections all log in as workbench_app, so one user's SQL could end or watch another's. Those
--    functions are catalog objects owned by the bootstrap superuser; when a superuser runs the migrations
--    (the embedded server, a self-run Postgres) they are taken from PUBLIC in this database. On a server
--    where the owner is not a superuser (managed Postgres) this cannot be done by the migration: `workbench
--    setup` says so and prints the statements for the provider's superuser (docs/deployment.md, SECURITY.md).
DO $$
BEGIN
    IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        REVOKE EXECUTE ON FUNCTION pg_catalog.pg_terminate_backend(integer, bigint),
            pg_catalog.pg_cancel_backend(integer), pg_catalog.pg_stat_get_activity(integer),
            pg_catalog.pg_stat_get_backend_activity(integer) FROM PUBLIC;
        REVOKE SELECT ON pg_catalog.pg_stat_activity FROM PUBLIC;
    ELSE
        RAISE NOTICE 'not a superuser: workbench_app may still see and end its own role''s sessions; '
                     'run `workbench setup` for the statements a superuser runs';
    END IF;
END
$$;

-- 4. A failed sign-in counts from when it is recorded (clock_timestamp()), not from the start of its
--    transaction (now()): the password check in between takes 0.3 s, more on a busy server, which the backoff's
--    first 1-second wait then lost (the next guess was checked as if no wait applied).
CREATE OR REPLACE FUNCTION workbench_sign_in_result(p_email text, p_ok boolean) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
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
