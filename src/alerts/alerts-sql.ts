// The SQL of alerts: the latest state of each (project, rule), a change appended, the newest changes (for
// `runs`), and the start of a project's newest session (metric hoursSinceLastSession).
export const ALERTS_SQL = {
  latestStates:
    'SELECT project, rule, arg_max(state, alerted_at) AS state FROM alerts GROUP BY project, rule',
  insertAlert:
    'INSERT INTO alerts (alert_id, project, rule, state, value, threshold, message, run_id, alerted_at) ' +
    'VALUES ($alert_id, $project, $rule, $state, $value, $threshold, $message, $run_id, $alerted_at)',
  recentAlerts:
    'SELECT alert_id, project, rule, state, value, threshold, message, run_id, alerted_at FROM alerts ' +
    'ORDER BY alerted_at DESC, alert_id DESC LIMIT $limit',
  lastSessionStart: 'SELECT max(start_time) AS last_start FROM sessions WHERE project = $project',
} as const;
