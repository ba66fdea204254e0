-- Identity the app role cannot forge. Until now a transaction named its user with `app.user_id`, a setting
-- any SQL run as workbench_app could set to anyone. Now it carries a token, `<user id>.<expiry>.<HMAC>`,
-- signed with a key kept in workbench_secret, which neither workbench_app nor workbench_login can read;
-- workbench_user() (what every policy reads) returns the token's user only when the HMAC-SHA256 matches
-- and the token has not expired. Tokens are issued by workbench_issue_token(), which only the
-- workbench_login role may run: the app takes that role for signing in and nothing else. The request
-- JWT (`request.jwt.*`, what Supabase's auth.uid() reads) counts only when the transaction runs as
-- Supabase's `authenticated` role, the role PostgREST takes after verifying the JWT; a role can be taken
-- only by its members, so workbench_app can never make the database read a claim it wrote itself.

DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'workbench_login') THEN
        CREATE ROLE workbench_login LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS;
    END IF;
END
$$;
DO $$
BEGIN
    EXECUTE format('GRANT workbench_login TO %I', current_user);
EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'could not grant workbench_login to %: set WORKBENCH_LOGIN_DATABASE_URL', current_user;
END
$$;
GRANT USAGE ON SCHEMA public TO workbench_login;

-- One row: the HMAC key, stored as the two padded keys of RFC 2104 (key XOR ipad, key XOR opad), so a
-- signature is two sha256() calls (Postgres has sha256 built in; pgcrypto is not available everywhere).
CREATE TABLE workbench_secret (
    id boolean PRIMARY KEY DEFAULT true CHECK (id),
    inner_key bytea NOT NULL CHECK (length(inner_key) = 64),
    outer_key bytea NOT NULL CHECK (length(outer_key) = 64)
);
-- Migration 009's default privileges granted it to workbench_app: take them back. Row-level security with
-- a policy that admits nothing, so even a grant added by mistake reads no key.
REVOKE ALL ON workbench_secret FROM PUBLIC, workbench_app, workbench_login;
ALTER TABLE workbench_secret ENABLE ROW LEVEL SECURITY;
CREATE POLICY workbench_secret_none ON workbench_secret FOR ALL USING (false) WITH CHECK (false);

DO $$
DECLARE
    -- gen_random_uuid() draws from the server's strong random source (pg_strong_random): 4 x 122 bits.
    k bytea := decode(replace(gen_random_uuid()::text || gen_random_uuid()::text
                              || gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex');
    i bytea := k;
    o bytea := k;
BEGIN
    FOR n IN 0..63 LOOP
        i := set_byte(i, n, get_byte(k, n) # 54);   -- 0x36
        o := set_byte(o, n, get_byte(k, n) # 92);   -- 0x5c
    END LOOP;
    INSERT INTO workbench_secret (id, inner_key, outer_key) VALUES (true, i, o);
END
$$;

-- HMAC-SHA256 of a message, hex. Only the definer functions below call it.
CREATE FUNCTION workbench_sign(message text) RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT encode(sha256(s.outer_key || sha256(s.inner_key || convert_to(message, 'UTF8'))), 'hex')
    FROM workbench_secret s
$$;
REVOKE ALL ON FUNCTION workbench_sign(text) FROM PUBLIC;

-- A token for a user, valid for `ttl` (at most a day). Run by the sign-in role only.
CREATE FUNCTION workbench_issue_token(p_user uuid, p_ttl interval DEFAULT interval '12 hours') RETURNS text
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT t.m || '.' || workbench_sign(t.m)
    FROM (SELECT p_user::text || '.'
                 || floor(extract(epoch FROM now() + least(p_ttl, interval '1 day')))::bigint::text AS m) t
    WHERE p_user IS NOT NULL
$$;
REVOKE ALL ON FUNCTION workbench_issue_token(uuid, interval) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION workbench_issue_token(uuid, interval) TO workbench_login;

-- The user a token names, NULL when it is malformed, expired or its signature does not match.
CREATE FUNCTION workbench_token_user(token text) RETURNS uuid
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
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
$$;

-- What every policy reads. SECURITY DEFINER so it may call the verifier; `current_setting('role')` is the
-- role the session took (SET ROLE), which a definer call does not change.
CREATE OR REPLACE FUNCTION workbench_user() RETURNS uuid
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT CASE
        WHEN current_setting('role', true) = 'authenticated' THEN coalesce(
            nullif(current_setting('request.jwt.claim.sub', true), ''),
            nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub'
        )::uuid
        ELSE workbench_token_user(nullif(current_setting('app.user_token', true), ''))
    END
$$;

-- The membership functions read the user once per call, not once per membership row they scan.
CREATE OR REPLACE FUNCTION workbench_rooms() RETURNS SETOF bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT room_id FROM room_members WHERE user_id = (SELECT workbench_user())
$$;

CREATE OR REPLACE FUNCTION workbench_writable_rooms() RETURNS SETOF bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT room_id FROM room_members WHERE user_id = (SELECT workbench_user()) AND role IN ('owner', 'editor')
$$;

CREATE OR REPLACE FUNCTION workbench_owned_rooms() RETURNS SETOF bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT room_id FROM room_members WHERE user_id = (SELECT workbench_user()) AND role = 'owner'
$$;
CREATE INDEX IF NOT EXISTS room_members_user ON room_members (user_id);

ALTER POLICY users_read ON users
    USING (id = (SELECT workbench_user()) OR id IN (SELECT user_id FROM room_members));
ALTER POLICY users_self ON users
    USING (id = (SELECT workbench_user())) WITH CHECK (id = (SELECT workbench_user()));

-- Credentials: reading a password hash and creating an account belong to the sign-in role alone.
REVOKE EXECUTE ON FUNCTION workbench_credentials(text), workbench_create_account(uuid, text, text, text)
    FROM workbench_app;
GRANT EXECUTE ON FUNCTION workbench_credentials(text), workbench_create_account(uuid, text, text, text)
    TO workbench_login;

-- A password hash is replaced (rehashed at sign-in) only by the user it belongs to.
CREATE OR REPLACE FUNCTION workbench_set_password_hash(user_id uuid, hash text) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF user_id IS DISTINCT FROM workbench_user() THEN
        RAISE EXCEPTION 'only the signed-in user may change their password' USING ERRCODE = 'insufficient_privilege';
    END IF;
    UPDATE users u SET password_hash = hash WHERE u.id = user_id;
END
$$;

-- A Supabase user records themselves, and nobody else, on sign-in.
CREATE OR REPLACE FUNCTION workbench_ensure_user(user_id uuid, user_email text, name text) RETURNS uuid
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF user_id IS DISTINCT FROM workbench_user() THEN
        RAISE EXCEPTION 'only the signed-in user may record themselves' USING ERRCODE = 'insufficient_privilege';
    END IF;
    INSERT INTO users (id, email, display_name) VALUES (user_id, user_email, name)
    ON CONFLICT (id) DO UPDATE SET email = EXCLUDED.email;
    RETURN user_id;
END
$$;

-- Finding a user by e-mail (to add a member) needs a signed-in user.
CREATE OR REPLACE FUNCTION workbench_find_user(user_email text) RETURNS TABLE (id uuid, display_name text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT u.id, u.display_name FROM users u
    WHERE lower(u.email) = lower(user_email) AND (SELECT workbench_user()) IS NOT NULL
$$;
