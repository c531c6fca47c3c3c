-- totals (raw reference): the window's sessions (by start_time in [$from, $to)) with their clients (new: first
-- seen, by join date or first synced session, at or after $from), transfers (a `switch` reply at any time),
-- messages per session (question_count, empty sessions included) and durations. Means are the exact sum over
-- the count, in double precision.
WITH transfers AS (
  -- a session's messages are never older than its start: transfers before $from belong to earlier sessions
  SELECT DISTINCT project, session_id FROM messages
  WHERE is_transfer AND list_contains($projects, project) AND "timestamp" >= $from
),
s AS (
  SELECT s.project, s.session_id, s.client_id, coalesce(s.question_count, 0) AS message_count,
    s.duration_ms, (s.project, s.session_id) IN (SELECT (project, session_id) FROM transfers) AS transferred
  FROM sessions AS s
  WHERE list_contains($projects, s.project) AND s.start_time >= $from AND s.start_time < $to
    AND ($all_channels OR list_contains($channels, s.channel_type))
),
window_clients AS (
  SELECT DISTINCT project, client_id FROM s WHERE client_id IS NOT NULL
),
returning_clients AS (
  -- seen before the window: an earlier synced session, or a join date before $from
  SELECT w.project, w.client_id FROM window_clients AS w
  WHERE EXISTS (
      SELECT 1 FROM sessions AS a
      WHERE a.project = w.project AND a.client_id = w.client_id AND a.start_time < $from
    )
    OR EXISTS (
      SELECT 1 FROM clients AS k
      WHERE k.project = w.project AND k.client_id = w.client_id AND k.join_date < $from
    )
)
SELECT a.*, c.unique_clients, c.returning_clients
FROM (
  SELECT
    count(*) AS sessions,
    count(*) FILTER (WHERE message_count > 0) AS non_empty_sessions,
    count(*) FILTER (WHERE transferred) AS transferred_sessions,
    sum(message_count)::DOUBLE / nullif(count(*), 0)::DOUBLE AS messages_per_session_mean,
    quantile_cont(message_count, [0.5, 0.9, 0.99]) AS messages_per_session_quantiles,
    sum(duration_ms)::DOUBLE / nullif(count(duration_ms), 0)::DOUBLE AS duration_ms_mean,
    quantile_cont(duration_ms, [0.5, 0.9, 0.99]) AS duration_ms_quantiles
  FROM s
) AS a
CROSS JOIN (
  SELECT (SELECT count(*) FROM window_clients) AS unique_clients,
    (SELECT count(*) FROM returning_clients) AS returning_clients
) AS c
