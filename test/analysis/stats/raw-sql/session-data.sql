-- session-data: per sessionData key, the window's sessions (by start_time) holding it, its number of
-- distinct values, and its $top most frequent values with their sessions.
WITH window_sessions AS (
  SELECT project, session_id FROM sessions
  WHERE list_contains($projects, project) AND start_time >= $from AND start_time < $to
    AND ($all_channels OR list_contains($channels, channel_type))
),
value_counts AS (
  SELECT d.key, d.value, count(*) AS sessions
  FROM session_data AS d
  JOIN window_sessions AS s ON s.project = d.project AND s.session_id = d.session_id
  GROUP BY d.key, d.value
)
SELECT key, value, sessions,
  sum(sessions) OVER (PARTITION BY key) AS key_sessions,
  count(*) OVER (PARTITION BY key) AS distinct_values
FROM value_counts
QUALIFY row_number() OVER (PARTITION BY key ORDER BY sessions DESC, value) <= $top
ORDER BY key, sessions DESC, value
