-- experiments: per experiment of the catalogue and branch, the window's sessions (by start_time) whose
-- sessionData holds `exp_<experiment key>` = branch, their mean messages per session (question_count; the
-- exact sum over the count) and how many of them were transferred to an agent (a `switch` reply). The
-- window's whole quarter hours come from stat_session_data_quarters (migration 024), the partial ones at its
-- edges from stat_session_data and stat_sessions.
WITH branches AS (
  SELECT project, experiment_key, status, unnest(branches) AS branch
  FROM experiments
  WHERE list_contains($projects, project)
),
edge_pairs AS (
  SELECT d.project, d.key, d.value, d.message_count, s.transferred
  FROM stat_session_data AS d
  JOIN stat_sessions AS s ON s.project = d.project AND s.session_id = d.session_id
  WHERE list_contains($projects, d.project) AND starts_with(d.key, 'exp_')
    AND ($all_channels OR list_contains($channels, d.channel_type))
    AND d.start_time >= $from AND d.start_time < $head_to AND s.start_time >= $from AND s.start_time < $head_to
  UNION ALL
  SELECT d.project, d.key, d.value, d.message_count, s.transferred
  FROM stat_session_data AS d
  JOIN stat_sessions AS s ON s.project = d.project AND s.session_id = d.session_id
  WHERE list_contains($projects, d.project) AND starts_with(d.key, 'exp_')
    AND ($all_channels OR list_contains($channels, d.channel_type))
    AND d.start_time >= $tail_from AND d.start_time < $to AND s.start_time >= $tail_from AND s.start_time < $to
),
joined AS (
  SELECT project, substr(key, 5) AS experiment_key, value AS branch, sessions, message_count_sum, transferred
  FROM stat_session_data_quarters
  WHERE list_contains($projects, project) AND starts_with(key, 'exp_') AND q >= $q_lo AND q < $q_hi
    AND ($all_channels OR list_contains($channels, channel_type))
  UNION ALL
  SELECT project, substr(key, 5), value, 1, message_count, transferred FROM edge_pairs
)
SELECT b.project, b.experiment_key, b.status, b.branch,
  coalesce(sum(j.sessions), 0)::BIGINT AS sessions,
  sum(j.message_count_sum)::DOUBLE / nullif(sum(j.sessions), 0)::DOUBLE AS messages_per_session,
  coalesce(sum(j.sessions) FILTER (WHERE j.transferred), 0)::BIGINT AS transferred_sessions
FROM branches AS b
LEFT JOIN joined AS j
  ON j.project = b.project AND j.experiment_key = b.experiment_key AND j.branch = b.branch
GROUP BY b.project, b.experiment_key, b.status, b.branch
ORDER BY b.project, b.experiment_key, b.branch
