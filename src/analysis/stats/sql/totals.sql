-- totals: the window's sessions (by start_time in [$from, $to)) with their clients (new: first seen, by join
-- date or first synced session, at or after $from), transfers (a `switch` reply at any time), messages per
-- session (question_count, empty sessions included) and durations. Read from stat_sessions (migration 024):
-- a client is counted at its first session of the window (no earlier one since $from by the pointer of the
-- selection: any channel, its one channel, or for several channels a distinct count). (The window's messages
-- are counted per channel by by-channel.sql.)
WITH transfers AS (
  -- a session's messages are never older than its start: transfers before $from belong to earlier sessions
  SELECT project, session_id FROM stat_transfers
  WHERE list_contains($projects, project) AND q >= $q_from
),
s AS (
  SELECT s.project, s.client_id, s.message_count, s.duration_ms, s.client_first_seen,
    CASE WHEN $all_channels THEN s.prev_start_any ELSE s.prev_start_channel END AS prev_start,
    (s.project, s.session_id) IN (SELECT (project, session_id) FROM transfers) AS transferred
  FROM stat_sessions AS s
  WHERE list_contains($projects, s.project) AND s.start_time >= $from AND s.start_time < $to
    AND ($all_channels OR list_contains($channels, s.channel_type))
)
SELECT
  count(*) AS sessions,
  count(*) FILTER (WHERE message_count > 0) AS non_empty_sessions,
  count(*) FILTER (WHERE transferred) AS transferred_sessions,
  avg(message_count) AS messages_per_session_mean,
  quantile_cont(message_count, [0.5, 0.9, 0.99]) AS messages_per_session_quantiles,
  avg(duration_ms) AS duration_ms_mean,
  quantile_cont(duration_ms, [0.5, 0.9, 0.99]) AS duration_ms_quantiles,
  CASE WHEN $several_channels THEN count(DISTINCT (project, client_id)) FILTER (WHERE client_id IS NOT NULL)
    ELSE count(*) FILTER (WHERE client_id IS NOT NULL AND coalesce(prev_start < $from, true)) END AS unique_clients,
  CASE WHEN $several_channels
    THEN count(DISTINCT (project, client_id)) FILTER (WHERE client_id IS NOT NULL AND client_first_seen < $from)
    ELSE count(*) FILTER (WHERE client_id IS NOT NULL AND coalesce(prev_start < $from, true)
      AND client_first_seen < $from) END AS returning_clients
FROM s
