-- session-data: per sessionData key, the window's sessions (by start_time) holding it, its number of
-- distinct values, and its $top most frequent values with their sessions. Read from stat_session_data
-- (migration 024), whose pairs carry their session's start and channel: no join.
WITH value_counts AS (
  SELECT d.key, d.value, count(*) AS sessions
  FROM stat_session_data AS d
  WHERE list_contains($projects, d.project) AND d.start_time >= $from AND d.start_time < $to
    AND ($all_channels OR list_contains($channels, d.channel_type))
  GROUP BY d.key, d.value
)
SELECT key, value, sessions,
  sum(sessions) OVER (PARTITION BY key) AS key_sessions,
  count(*) OVER (PARTITION BY key) AS distinct_values
FROM value_counts
QUALIFY row_number() OVER (PARTITION BY key ORDER BY sessions DESC, value) <= $top
ORDER BY key, sessions DESC, value
