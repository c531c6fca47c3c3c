-- all-time-figures: what the platform counts over all time rather than a window, for the reconciliation:
-- distinct clients over all synced sessions of one project (stats/unique-clients: a client's first session
-- is the one without a previous, stat_sessions), and sessions per experiment branch from the
-- `exp_<experiment key>` sessionData keys (scenario-exeperiments/count-sessions).
SELECT 'uniqueClients' AS figure, NULL AS experiment_key, NULL AS branch,
  -- a client's first session has no previous one; sessions without a client id have no first-seen time
  count(*) FILTER (WHERE prev_start_any IS NULL AND client_first_seen IS NOT NULL) AS count
FROM stat_sessions
WHERE project = $project
UNION ALL
SELECT 'experimentSessions', substr(d.key, 5), d.value, count(*)
FROM stat_session_data AS d
WHERE d.project = $project AND starts_with(d.key, 'exp_')
GROUP BY d.key, d.value
ORDER BY figure DESC, experiment_key, branch
