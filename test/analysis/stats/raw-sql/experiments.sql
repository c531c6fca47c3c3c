-- experiments (raw reference; the mean is the exact sum over the count): per experiment of the catalogue and branch, the window's sessions (by start_time) whose
-- sessionData holds `exp_<experiment key>` = branch, their mean messages per session (question_count)
-- and how many of them were transferred to an agent (a `switch` reply).
WITH transfers AS (
  -- a session's messages are never older than its start: transfers before $from belong to earlier sessions
  SELECT DISTINCT project, session_id FROM messages
  WHERE is_transfer AND list_contains($projects, project) AND "timestamp" >= $from
),
branches AS (
  SELECT project, experiment_key, status, unnest(branches) AS branch
  FROM experiments
  WHERE list_contains($projects, project)
),
joined AS (
  SELECT d.project, substr(d.key, 5) AS experiment_key, d.value AS branch,
    coalesce(s.question_count, 0) AS message_count, (s.project, s.session_id) IN (SELECT (project, session_id) FROM transfers) AS transferred
  FROM session_data AS d
  JOIN sessions AS s ON s.project = d.project AND s.session_id = d.session_id
  WHERE list_contains($projects, d.project) AND starts_with(d.key, 'exp_')
    AND s.start_time >= $from AND s.start_time < $to
    AND ($all_channels OR list_contains($channels, s.channel_type))
)
SELECT b.project, b.experiment_key, b.status, b.branch,
  count(j.branch) AS sessions,
  sum(j.message_count)::DOUBLE / nullif(count(j.branch), 0)::DOUBLE AS messages_per_session,
  count(*) FILTER (WHERE j.transferred) AS transferred_sessions
FROM branches AS b
LEFT JOIN joined AS j
  ON j.project = b.project AND j.experiment_key = b.experiment_key AND j.branch = b.branch
GROUP BY b.project, b.experiment_key, b.status, b.branch
ORDER BY b.project, b.experiment_key, b.branch
