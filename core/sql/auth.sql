-- Queries of core/rooms/auth.py (accounts and sign-in), through the SECURITY DEFINER functions of migration 010.

-- name: credentials
SELECT id::text, display_name, password_hash FROM workbench_credentials(%(email)s)

-- name: create_account
SELECT workbench_create_account(%(id)s, %(email)s, %(name)s, %(hash)s)::text

-- name: set_password_hash
SELECT workbench_set_password_hash(%(id)s, %(hash)s)

-- name: find_user
SELECT id::text, display_name FROM workbench_find_user(%(room_id)s, %(email)s)

-- name: ensure_user
SELECT workbench_ensure_user(%(id)s, %(email)s, %(name)s)::text

-- Seconds this e-mail must wait before another sign-in attempt (migration 016), and an attempt's outcome.
-- name: sign_in_wait
SELECT workbench_sign_in_wait(%(email)s)

-- name: sign_in_result
SELECT workbench_sign_in_result(%(email)s, %(ok)s)
