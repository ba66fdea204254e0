-- Rate limits: a sliding window of request times per user and kind (question, search), counted by the
-- SECURITY DEFINER function of migration 016 for the signed-in user (the app role cannot touch the table).
-- `at` is NULL in the app (the database's clock, the same for every process); tests pass a time.

-- name: count_request
SELECT counted, clock, asked
FROM workbench_count_request(%(kind)s, %(limit)s, %(window)s::interval, %(at)s::timestamptz)
