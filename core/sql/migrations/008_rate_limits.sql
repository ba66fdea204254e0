-- Rate limits (WORKBENCH_RATE_LIMIT questions per user per room per sliding hour), enforced by the database
-- so they hold across processes. One row per (room, user) holds the times of that user's questions in
-- the last hour; `count_question` (core/sql/ratelimit.sql) prunes, checks and appends in one
-- INSERT ... ON CONFLICT DO UPDATE, which locks the row: concurrent questions queue on it and each sees
-- the times the one before it wrote. The array never holds more than the limit's worth of times.
CREATE TABLE rate_limits (
    room_id bigint NOT NULL REFERENCES rooms ON DELETE CASCADE,
    user_id uuid REFERENCES users ON DELETE CASCADE,   -- NULL: the single local user (no sign-in)
    asked_at timestamptz[] NOT NULL,                   -- questions within the window, oldest first
    CONSTRAINT rate_limits_one_row UNIQUE NULLS NOT DISTINCT (room_id, user_id)
);
