-- Rate limits: a sliding window of request times per user and kind (question, search, lookup), counted by the
-- SECURITY DEFINER function of migration 027 for the signed-in user, now, under the owner's rule for the kind
-- (rate_limit_rules: size and window). The app role can touch neither table and passes nothing but the kind.

-- name: count_request
SELECT counted, clock, asked, max_requests, per FROM workbench_count_request(%(kind)s)

-- name: rate_limit_rules
SELECT kind, max_requests, per FROM rate_limit_rules ORDER BY kind

-- name: set_rate_limit_rule
UPDATE rate_limit_rules SET max_requests = %(max_requests)s, per = %(per)s WHERE kind = %(kind)s
