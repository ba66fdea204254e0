-- Accounts for the multi-user mode (WORKBENCH_AUTH=accounts): a password hash (argon2id, computed by
-- the app) per user. The app role cannot read other users' rows (row-level security on users), so
-- signing in, creating an account and finding a user by e-mail go through these functions; they
-- return no more than each step needs.
ALTER TABLE users ADD COLUMN password_hash text;
CREATE UNIQUE INDEX users_email_lower ON users (lower(email));

CREATE FUNCTION workbench_credentials(user_email text) RETURNS TABLE (id uuid, display_name text, password_hash text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT id, display_name, password_hash FROM users WHERE lower(email) = lower(user_email)
$$;

CREATE FUNCTION workbench_create_account(new_id uuid, user_email text, name text, hash text) RETURNS uuid
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    INSERT INTO users (id, email, display_name, password_hash) VALUES (new_id, user_email, name, hash)
    RETURNING id
$$;

CREATE FUNCTION workbench_set_password_hash(user_id uuid, hash text) RETURNS void
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    UPDATE users SET password_hash = hash WHERE id = user_id
$$;

-- A user known by e-mail (to add as a member): the id and name only.
CREATE FUNCTION workbench_find_user(user_email text) RETURNS TABLE (id uuid, display_name text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT id, display_name FROM users WHERE lower(email) = lower(user_email)
$$;

-- Supabase Auth: the user signed in with Supabase gets a row here on first sign-in (no password kept).
CREATE FUNCTION workbench_ensure_user(user_id uuid, user_email text, name text) RETURNS uuid
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    INSERT INTO users (id, email, display_name) VALUES (user_id, user_email, name)
    ON CONFLICT (id) DO UPDATE SET email = EXCLUDED.email
    RETURNING id
$$;

REVOKE ALL ON FUNCTION workbench_credentials(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION workbench_create_account(uuid, text, text, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION workbench_set_password_hash(uuid, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION workbench_find_user(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION workbench_ensure_user(uuid, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION workbench_credentials(text), workbench_create_account(uuid, text, text, text),
    workbench_set_password_hash(uuid, text), workbench_find_user(text), workbench_ensure_user(uuid, text, text)
    TO workbench_app;
