-- all-time-figures: what the platform counts over all time rather than a window, for the reconciliation:
-- distinct clients over all synced sessions of one project (stats/unique-clients), and sessions per
-- experiment branch from the `exp_<experiment key>` sessionData keys (scenario-exeperiments/count-sessions).
SELECT 'uniqueClients' AS figure, NULL AS experiment_key, NULL AS branch,
  count(DISTINCT client_id) AS count
FROM sessions
WHERE project = $project
UNION ALL
SELECT 'experimentSessions', substr(d.key, 5), d.value, count(*)
FROM session_data AS d
WHERE d.project = $project AND starts_with(d.key, 'exp_')
GROUP BY d.key, d.value
ORDER BY figure DESC, experiment_key, branch
