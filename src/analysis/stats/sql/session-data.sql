-- session-data: per sessionData key, the window's sessions (by start_time) holding it, its number of
-- distinct values, and its $top most frequent values with their sessions. The window's whole quarter hours
-- come from stat_session_data_quarters (migration 024), the partial ones at its edges from stat_session_data,
-- whose pairs carry their session's start and channel: no join.
WITH pairs AS (
  SELECT key, value, sessions FROM stat_session_data_quarters
  WHERE list_contains($projects, project) AND q >= $q_lo AND q < $q_hi
    AND ($all_channels OR list_contains($channels, channel_type))
  UNION ALL
  SELECT key, value, 1 FROM stat_session_data
  WHERE list_contains($projects, project) AND start_time >= $from AND start_time < $head_to
    AND ($all_channels OR list_contains($channels, channel_type))
  UNION ALL
  SELECT key, value, 1 FROM stat_session_data
  WHERE list_contains($projects, project) AND start_time >= $tail_from AND start_time < $to
    AND ($all_channels OR list_contains($channels, channel_type))
),
value_counts AS (
  SELECT key, value, sum(sessions)::BIGINT AS sessions FROM pairs GROUP BY key, value
)
SELECT key, value, sessions,
  sum(sessions) OVER (PARTITION BY key) AS key_sessions,
  count(*) OVER (PARTITION BY key) AS distinct_values
FROM value_counts
QUALIFY row_number() OVER (PARTITION BY key ORDER BY sessions DESC, value) <= $top
ORDER BY key, sessions DESC, value
