-- No other session's metadata through the app role (issue 41). Migration 021 took pg_stat_activity,
-- pg_stat_get_activity, pg_stat_get_backend_activity and the signalling functions from PUBLIC, but
-- pg_stat_get_backend_idset() with the other pg_stat_get_backend_* functions still listed every session's pid, start
-- times, wait events and client address, and pg_locks (pg_lock_status) who holds what. Now every function of
-- pg_catalog that reports on another backend is taken from PUBLIC (whatever this server's version names them),
-- and the pg_stat_activity and pg_locks views. Catalog objects are the bootstrap superuser's: when the migrations
-- run as a superuser (the embedded server, a self-run Postgres) this is done here; otherwise `workbench setup`
-- prints the same two statements (core.db.SUPERUSER_STATEMENTS, checked equal by a test) for the provider's
-- superuser, and docs/deployment.md puts them in the superuser's step 1.
DO $outer$
BEGIN
    IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        EXECUTE $stmt$DO $$ DECLARE f regprocedure; BEGIN FOR f IN SELECT p.oid::regprocedure FROM pg_proc p WHERE p.pronamespace = 'pg_catalog'::regnamespace AND (p.proname LIKE 'pg\_stat\_get\_backend\_%' OR p.proname IN ('pg_stat_get_activity', 'pg_stat_get_progress_info', 'pg_lock_status', 'pg_blocking_pids', 'pg_safe_snapshot_blocking_pids', 'pg_stat_get_wal_senders', 'pg_stat_get_wal_receiver', 'pg_stat_get_subscription', 'pg_terminate_backend', 'pg_cancel_backend')) LOOP EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f); END LOOP; END $$$stmt$;
        EXECUTE $stmt$REVOKE SELECT ON pg_catalog.pg_stat_activity, pg_catalog.pg_locks FROM PUBLIC$stmt$;
    ELSE
        RAISE NOTICE 'not a superuser: workbench_app may still read other sessions'' metadata; '
                     'run `workbench setup` for the statements a superuser runs';
    END IF;
END
$outer$;
