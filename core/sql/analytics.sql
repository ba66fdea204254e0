-- Named queries of the QA analytics (core/rooms/analytics.py). Days are UTC calendar days; a range is inclusive.
-- Every query takes %(room_ids)s (bigint[]) and %(start)s, %(end)s (dates). The figures come from
-- workbench_query_figures() (migration 016): a room's owners count every member's questions without
-- reading them; everyone else counts their own. The attention list reads qa_queries itself, so it shows
-- the asker's own questions only (conversations are private).
-- The report's queries also take %(sources)s (text[]: 'page', 'cli'): where the questions were asked. Latency is
-- what the user waited (workbench_query_figures' total_ms: the page's submit-to-last-token time for a page's
-- question, the service's total for one from the command line).

-- name: analytics_span
SELECT min(created_at AT TIME ZONE 'UTC')::date AS first_day, max(created_at AT TIME ZONE 'UTC')::date AS last_day,
       count(*) AS questions
FROM workbench_query_figures(%(room_ids)s)

-- name: analytics_daily
WITH q AS (
    SELECT id, (created_at AT TIME ZONE 'UTC')::date AS day, abstained, failed, total_ms, first_token_ms,
           n_citations, votes, helpful
    FROM workbench_query_figures(%(room_ids)s)
    WHERE source = ANY(%(sources)s) AND created_at >= %(start)s::date::timestamp AT TIME ZONE 'UTC'
      AND created_at < (%(end)s::date + 1)::timestamp AT TIME ZONE 'UTC'
), per_day AS (
    SELECT day,
           count(*) AS questions,
           count(*) FILTER (WHERE abstained) AS abstained,
           count(*) FILTER (WHERE failed) AS errors,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY total_ms) AS total_p50,
           percentile_cont(0.95) WITHIN GROUP (ORDER BY total_ms) AS total_p95,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY first_token_ms) AS first_token_p50,
           percentile_cont(0.95) WITHIN GROUP (ORDER BY first_token_ms) AS first_token_p95,
           avg(n_citations) FILTER (WHERE NOT abstained AND NOT failed) AS citations_mean,
           sum(votes) AS votes,
           sum(helpful) AS helpful
    FROM q GROUP BY day
)
SELECT s.day::date AS day,
       coalesce(d.questions, 0) AS questions,
       coalesce(d.abstained, 0) AS abstained,
       coalesce(d.errors, 0) AS errors,
       d.abstained::float8 / nullif(d.questions, 0) AS abstention_rate,
       d.total_p50, d.total_p95, d.first_token_p50, d.first_token_p95,
       d.citations_mean::float8 AS citations_mean,
       coalesce(d.votes, 0)::bigint AS votes,
       coalesce(d.helpful, 0)::bigint AS helpful,
       d.helpful::float8 / nullif(d.votes, 0) AS helpful_rate
FROM generate_series(%(start)s::date, %(end)s::date, interval '1 day') AS s(day)
LEFT JOIN per_day d ON d.day = s.day::date
ORDER BY s.day

-- name: analytics_totals
WITH q AS (
    SELECT id, abstained, failed, total_ms, first_token_ms, n_citations, votes, helpful
    FROM workbench_query_figures(%(room_ids)s)
    WHERE source = ANY(%(sources)s) AND created_at >= %(start)s::date::timestamp AT TIME ZONE 'UTC'
      AND created_at < (%(end)s::date + 1)::timestamp AT TIME ZONE 'UTC'
)
SELECT count(*) AS questions,
       count(*) FILTER (WHERE abstained) AS abstained,
       count(*) FILTER (WHERE failed) AS errors,
       count(*) FILTER (WHERE abstained)::float8 / nullif(count(*), 0) AS abstention_rate,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY total_ms) AS total_p50,
       percentile_cont(0.95) WITHIN GROUP (ORDER BY total_ms) AS total_p95,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY first_token_ms) AS first_token_p50,
       percentile_cont(0.95) WITHIN GROUP (ORDER BY first_token_ms) AS first_token_p95,
       (avg(n_citations) FILTER (WHERE NOT abstained AND NOT failed))::float8 AS citations_mean,
       coalesce(sum(votes), 0)::bigint AS votes,
       coalesce(sum(helpful), 0)::bigint AS helpful
FROM q

-- name: analytics_citation_counts
SELECT n_citations, count(*) AS answers
FROM workbench_query_figures(%(room_ids)s)
WHERE source = ANY(%(sources)s) AND created_at >= %(start)s::date::timestamp AT TIME ZONE 'UTC'
  AND created_at < (%(end)s::date + 1)::timestamp AT TIME ZONE 'UTC'
  AND NOT abstained AND NOT failed
GROUP BY n_citations
ORDER BY n_citations

-- name: analytics_attention
SELECT q.id, r.name AS room, q.created_at, q.question, q.answer, q.abstained, q.error, q.source,
       count(f.id) FILTER (WHERE NOT f.helpful) AS thumbs_down,
       string_agg(nullif(trim(f.comment), ''), ' | ' ORDER BY f.created_at) FILTER (WHERE NOT f.helpful) AS comment
FROM qa_queries q
JOIN rooms r ON r.id = q.room_id
LEFT JOIN qa_feedback f ON f.query_id = q.id
WHERE q.room_id = ANY(%(room_ids)s) AND q.source = ANY(%(sources)s)
  AND q.created_at >= %(start)s::date::timestamp AT TIME ZONE 'UTC'
  AND q.created_at < (%(end)s::date + 1)::timestamp AT TIME ZONE 'UTC'
GROUP BY q.id, r.name, q.source
HAVING q.abstained OR q.error IS NOT NULL OR count(f.id) FILTER (WHERE NOT f.helpful) > 0
ORDER BY q.created_at DESC, q.id DESC
LIMIT %(limit)s
