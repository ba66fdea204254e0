-- Rate limits the app connection cannot reset (issue 41). Migration 016's workbench_count_request(kind, limit,
-- window, at) was SECURITY DEFINER and took its window, size and clock from the caller: with one user's token,
-- `workbench_count_request('lookup', 1000000, interval '0 seconds')` pruned that user's whole history, so 300 of
-- 300 account lookups were answered under a limit of 30. Now each kind's size and window are rows of
-- rate_limit_rules, written by the owner alone (this migration's defaults; `workbench limits` changes them),
-- the request time is the database's clock, and the one function the app role may run takes the kind alone.

CREATE TABLE rate_limit_rules (
    kind text PRIMARY KEY CHECK (kind IN ('question', 'search', 'lookup')),
    -- Requests one user may make per window; 0: no limit (never for lookups: they find accounts by e-mail).
    max_requests integer NOT NULL CHECK (max_requests >= 0 AND (max_requests > 0 OR kind <> 'lookup')),
    per interval NOT NULL CHECK (per >= interval '1 minute')
);
INSERT INTO rate_limit_rules (kind, max_requests, per) VALUES
    ('question', 60, interval '1 hour'),
    ('search', 600, interval '1 hour'),
    ('lookup', 30, interval '1 hour');
-- Migration 009's default privileges give the app role every new table: not this one.
REVOKE ALL ON rate_limit_rules FROM PUBLIC, workbench_app, workbench_login;
ALTER TABLE rate_limit_rules ENABLE ROW LEVEL SECURITY;
CREATE POLICY rate_limit_rules_none ON rate_limit_rules FOR ALL USING (false) WITH CHECK (false);

DROP FUNCTION workbench_count_request(text, integer, interval, timestamptz);

-- Count one request of `p_user` at `p_at` under the owner's rule for `p_kind`. Not SECURITY DEFINER and run by
-- no one but the owner: the definer function below (the clock: clock_timestamp() once the row is locked, so
-- times are appended in order across sessions) and the tests (a clock of their own).
CREATE FUNCTION workbench_count_request_at(p_user uuid, p_kind text, p_at timestamptz)
RETURNS TABLE (counted boolean, clock timestamptz, asked timestamptz[], max_requests integer, per interval)
LANGUAGE plpgsql VOLATILE SET search_path = public, pg_temp AS $$
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
REVOKE ALL ON FUNCTION workbench_count_request_at(uuid, text, timestamptz) FROM PUBLIC;

-- The app's way in: one request of the signed-in user, now, under the owner's rule. Returns whether it was
-- counted, the clock, the request times in the window (oldest first), and the rule.
CREATE FUNCTION workbench_count_request(p_kind text)
RETURNS TABLE (counted boolean, clock timestamptz, asked timestamptz[], max_requests integer, per interval)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    me uuid := workbench_user();
BEGIN
    IF me IS NULL THEN
        RAISE EXCEPTION 'no signed-in user to count' USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN QUERY SELECT * FROM workbench_count_request_at(me, p_kind, NULL);
END
$$;
REVOKE ALL ON FUNCTION workbench_count_request(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION workbench_count_request(text) TO workbench_app;

-- Account lookups under the 'lookup' rule. Past it: SQLSTATE WB429, DETAIL the time the next lookup is allowed
-- (ISO 8601), HINT the limit and its window in seconds ('30/3600'; the app's message is built from both).
CREATE OR REPLACE FUNCTION workbench_find_user(p_room bigint, user_email text) RETURNS TABLE (id uuid, display_name text)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
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
