-- experiments: per experiment of the catalogue and branch, the window's sessions (by start_time) whose
-- sessionData holds `exp_<experiment key>` = branch, their mean messages per session (question_count)
-- and how many of them were transferred to an agent (a `switch` reply). Read from stat_session_data
-- (migration 024: the pairs carry their session's start, channel and messages) and stat_transfers.
WITH transfers AS (
  -- a session's messages are never older than its start: transfers before $from belong to earlier sessions
  SELECT project, session_id FROM stat_transfers
  WHERE list_contains($projects, project) AND q >= $q_from
),
branches AS (
  SELECT project, experiment_key, status, unnest(branches) AS branch
  FROM experiments
  WHERE list_contains($projects, project)
),
joined AS (
  SELECT d.project, substr(d.key, 5) AS experiment_key, d.value AS branch, d.message_count,
    (d.project, d.session_id) IN (SELECT (project, session_id) FROM transfers) AS transferred
  FROM stat_session_data AS d
  WHERE list_contains($projects, d.project) AND starts_with(d.key, 'exp_')
    AND d.start_time >= $from AND d.start_time < $to
    AND ($all_channels OR list_contains($channels, d.channel_type))
)
SELECT b.project, b.experiment_key, b.status, b.branch,
  count(j.branch) AS sessions,
  avg(j.message_count) AS messages_per_session,
  count(*) FILTER (WHERE j.transferred) AS transferred_sessions
FROM branches AS b
LEFT JOIN joined AS j
  ON j.project = b.project AND j.experiment_key = b.experiment_key AND j.branch = b.branch
GROUP BY b.project, b.experiment_key, b.status, b.branch
ORDER BY b.project, b.experiment_key, b.branch
