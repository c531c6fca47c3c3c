// Every SQL statement of `pushgate send` in one place. Values are bound ($name); the analyst's own query is
// placed into a statement only after it was checked to be one SELECT, and only in the read-only sandbox.

/** The columns (name, type) a SELECT returns, without running it. */
export const describePushQuery = (query: string): string =>
  `SELECT column_name, column_type FROM (DESCRIBE (\n${query}\n))`;

/** The rows the analyst chose. */
export const selectPushRows = (query: string): string => `SELECT * FROM (\n${query}\n) AS q`;

export const PUSHGATE_SENDS_SQL = {
  /** Each of these event ids: 'sent' when any run sent it, else its latest status. */
  statuses:
    "SELECT event_id, CASE WHEN bool_or(status = 'sent') THEN 'sent' ELSE arg_max(status, started_at) END AS status " +
    'FROM pushgate_sends ' +
    'WHERE event_id IN (SELECT unnest($event_ids::VARCHAR[])) GROUP BY event_id',
  insertSending:
    'INSERT INTO pushgate_sends (event_id, run_id, pushback_id, body, query, batch, batches, status, started_at) ' +
    "VALUES ($event_id, $run_id, $pushback_id, $body, $query, $batch, $batches, 'sending', $started_at)",
  settle:
    'UPDATE pushgate_sends SET status = $status, error = $error, finished_at = $finished_at ' +
    "WHERE event_id = $event_id AND run_id = $run_id AND status = 'sending'",
} as const;
