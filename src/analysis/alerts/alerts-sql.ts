// The SQL of alerts: the latest state of each (project, rule), a change appended, the newest changes (for
// `runs`), and the start of a project's newest session (metric hoursSinceLastSession).
export const ALERTS_SQL = {
  /** Two changes of one instant (a fixed clock) are ordered by insertion (rowid). */
  latestStates:
    'SELECT project, rule, state FROM alerts ' +
    'QUALIFY row_number() OVER (PARTITION BY project, rule ORDER BY alerted_at DESC, rowid DESC) = 1',
  insertAlert:
    'INSERT INTO alerts (alert_id, project, rule, state, value, threshold, message, run_id, alerted_at) ' +
    'VALUES ($alert_id, $project, $rule, $state, $value, $threshold, $message, $run_id, $alerted_at)',
  recentAlerts:
    'SELECT alert_id, project, rule, state, value, threshold, message, run_id, alerted_at FROM alerts ' +
    'ORDER BY alerted_at DESC, rowid DESC LIMIT $limit',
  lastSessionStart: 'SELECT max(start_time) AS last_start FROM sessions WHERE project = $project',
} as const;
