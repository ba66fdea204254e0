-- Queries of core/db.py: applying migrations, and what every pooled connection and transaction sets.

-- One migrator at a time (a session-level advisory lock; its key is a parameter).
-- name: migration_lock
SELECT pg_advisory_lock(%(key)s);

-- name: migration_unlock
SELECT pg_advisory_unlock(%(key)s);

-- name: create_migrations_table
CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
);

-- name: applied_migrations
SELECT version FROM schema_migrations;

-- name: record_migration
INSERT INTO schema_migrations (version, name) VALUES (%(version)s, %(name)s);

-- Every pooled connection.  Iterative index scans keep a room-filtered HNSW search from returning fewer
-- rows than asked; ef_search 100 let a query land in the wrong neighbourhood in bench/search_latency.py
-- and 200 cost nothing measurable; generic plans of the prepared search query were ~2x slower (and went
-- parallel) than custom plans, while planning the search afresh costs ~0.4 ms.
-- name: session_settings
SET hnsw.iterative_scan = relaxed_order;
SET hnsw.ef_search = 200;
SET plan_cache_mode = force_custom_plan;
-- A statement whose client is gone (a worker killed mid-job, a closed page) stops within 2 s: Postgres noticed only
-- when the statement ended, and a killed worker's INSERT of a large sheet ran on for minutes holding its locks,
-- with the job's retry waiting behind it.
SET client_connection_check_interval = '2s';

-- The user every row-level security policy reads, for this transaction only: a token the database
-- verifies (migration 015), never a bare user id.
-- name: set_user
SELECT set_config('app.user_token', %(token)s, true);

-- A signed token for a user; only the sign-in role (workbench_login) may run it.
-- name: issue_token
SELECT workbench_issue_token(%(user_id)s::uuid);

-- What this connection's login could become (core.db.role_escapes): superuser, owner of the database, and
-- every role it is a member of (SET ROLE takes any of them), its own excepted.
-- name: login_escapes
SELECT session_user::text, r.rolsuper,
       pg_has_role(session_user, (SELECT datdba FROM pg_database WHERE datname = current_database()), 'MEMBER'),
       ARRAY(SELECT o.rolname::text FROM pg_roles o
             WHERE o.rolname <> session_user AND pg_has_role(session_user, o.oid, 'MEMBER') ORDER BY 1)
FROM pg_roles r WHERE r.rolname = session_user

-- The roles `role` was granted (workbench setup takes each back).
-- name: role_grants
SELECT g.rolname::text FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid JOIN pg_roles r ON r.oid = m.member
WHERE r.rolname = %(role)s

-- Can `role` still read other sessions' activity or end them (migration 021 could not take it away)?
-- name: app_sees_activity
SELECT has_function_privilege(%(role)s, 'pg_catalog.pg_terminate_backend(integer, bigint)', 'EXECUTE')
    OR has_function_privilege(%(role)s, 'pg_catalog.pg_stat_get_backend_idset()', 'EXECUTE')
    OR has_function_privilege(%(role)s, 'pg_catalog.pg_lock_status()', 'EXECUTE')
    OR has_table_privilege(%(role)s, 'pg_catalog.pg_stat_activity', 'SELECT')
    OR has_table_privilege(%(role)s, 'pg_catalog.pg_locks', 'SELECT')

-- workbench setup: a role's login and password (its SCRAM verifier, composed in by psycopg.sql), a grant taken back.
-- name: set_role_password
ALTER ROLE {} WITH LOGIN PASSWORD {}

-- name: revoke_role
REVOKE {} FROM {}

-- What a superuser runs for an extension the migrations need (named in core.db's message; never run by the app).
-- name: create_extension
CREATE EXTENSION IF NOT EXISTS {}
