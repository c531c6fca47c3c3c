// Every SQL statement of the label write-back in one place, so an analyst can run them in the DuckDB CLI.
// Values are bound ($name). The analyst's own query is the one piece of text placed into a statement: it is
// checked first by DuckDB's parser to be exactly one SELECT (checkTargetQuery), then used as a subquery,
// always in the read-only sandbox (use-query-sandbox.ts), never on the warehouse's own connection.

/** `parsed` is DuckDB's JSON of the statement: {error, statements[]} (non-SELECT statements are errors). */
export const PARSE_QUERY = 'SELECT json_serialize_sql($sql::VARCHAR) AS parsed';

/** The columns (name, type) a SELECT returns, without running it. */
export const describeQuery = (query: string): string =>
  `SELECT column_name, column_type FROM (DESCRIBE (\n${query}\n))`;

/**
 * The distinct session ids the analyst's query returns, with the session's start time (null: not in the
 * warehouse for this project) and whether the warehouse already shows the label on it.
 */
export const selectSessionTargets = (query: string): string => `
WITH picked AS (
  SELECT DISTINCT CAST(q.session_id AS VARCHAR) AS id FROM (
${query}
  ) AS q WHERE q.session_id IS NOT NULL
)
SELECT p.id, s.start_time AS time, s.session_id AS session_id,
  EXISTS (
    SELECT 1 FROM session_labels l
    WHERE l.project = $project AND l.session_id = p.id AND l.label_id = $label_id
  ) AS labelled
FROM picked p
LEFT JOIN sessions s ON s.project = $project AND s.session_id = p.id
ORDER BY s.start_time NULLS LAST, p.id`;

/** The same for message ids (question_id), with the message's time and session. */
export const selectMessageTargets = (query: string): string => `
WITH picked AS (
  SELECT DISTINCT CAST(q.question_id AS VARCHAR) AS id FROM (
${query}
  ) AS q WHERE q.question_id IS NOT NULL
)
SELECT p.id, m."timestamp" AS time, m.session_id AS session_id,
  EXISTS (
    SELECT 1 FROM message_labels l
    WHERE l.project = $project AND l.question_id = p.id AND l.label_id = $label_id
  ) AS labelled
FROM picked p
LEFT JOIN messages m ON m.project = $project AND m.question_id = p.id
ORDER BY m."timestamp" NULLS LAST, p.id`;

/** What the dry run shows of a few sessions. */
export const SAMPLE_SESSIONS = `
SELECT session_id, start_time, channel_type, bot_id, client_id, question_count, first_question
FROM sessions WHERE project = $project AND session_id IN (SELECT unnest($ids))
ORDER BY start_time, session_id`;

/** What the dry run shows of a few messages. */
export const SAMPLE_MESSAGES = `
SELECT question_id, session_id, "timestamp", question, text_answer, nlp_class
FROM messages WHERE project = $project AND question_id IN (SELECT unnest($ids))
ORDER BY "timestamp", question_id`;

export const INSERT_LABEL_WRITE = `
INSERT INTO label_writes (write_id, run_id, project, target, label_id, label_name, group_name, query, batch,
  batches, requested, already_labelled, missing, written, object_ids, first_time, last_time, status, error,
  started_at, finished_at, os_user, host)
VALUES ($write_id, $run_id, $project, $target, $label_id, $label_name, $group_name, $query, $batch, $batches,
  $requested, $already_labelled, $missing, $written, $object_ids, $first_time, $last_time, $status, $error,
  $started_at, $finished_at, $os_user, $host)`;

/** Settles a batch recorded as `sending` once its request has answered: success or failed. */
export const SETTLE_LABEL_WRITE = `
UPDATE label_writes SET status = $status, error = $error, written = $written, finished_at = $finished_at
WHERE write_id = $write_id AND status = 'sending'
RETURNING write_id`;

/** Batches recorded as sent whose result was never recorded (the run stopped between request and record). */
export const SELECT_UNSETTLED_WRITES = `
SELECT run_id, batch, batches, label_name, group_name, written, started_at
FROM label_writes WHERE project = $project AND target = $target AND status = 'sending'
ORDER BY started_at, run_id, batch`;
