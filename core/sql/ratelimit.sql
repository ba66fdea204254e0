-- Rate limits: a sliding window of question times per (room, user); see migration 008.
-- `at` is NULL in the app (the database's clock, the same for every process); tests pass a time.

-- name: count_question
-- Count one question if fewer than `limit` were asked in the `window` before it; no row back = refused.
WITH clock AS (SELECT coalesce(%(at)s::timestamptz, now()) AS at)
INSERT INTO rate_limits AS r (room_id, user_id, asked_at)
SELECT %(room_id)s, %(user_id)s::uuid, ARRAY[clock.at] FROM clock
ON CONFLICT ON CONSTRAINT rate_limits_one_row DO UPDATE
SET asked_at = ARRAY(
        SELECT t FROM unnest(r.asked_at) AS t, clock WHERE t > clock.at - %(window)s::interval ORDER BY t
    ) || EXCLUDED.asked_at
WHERE (SELECT count(*) FROM unnest(r.asked_at) AS t, clock WHERE t > clock.at - %(window)s::interval)
      < %(limit)s
RETURNING cardinality(r.asked_at) AS asked;

-- name: recent_questions
-- The times of a user's questions in a room in the `window` before `at`, oldest first, and the clock.
WITH clock AS (SELECT coalesce(%(at)s::timestamptz, now()) AS at)
SELECT clock.at AS now, array(
    SELECT t FROM rate_limits AS r, unnest(r.asked_at) AS t
    WHERE r.room_id = %(room_id)s AND r.user_id IS NOT DISTINCT FROM %(user_id)s::uuid
      AND t > clock.at - %(window)s::interval
    ORDER BY t
) AS asked
FROM clock;
