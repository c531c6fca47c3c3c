// Every SQL statement of the warehouse module except the schema (migrations/*.sql), in one place, so an
// analyst can read and run it in the DuckDB CLI. Parameters are bound ($name), never concatenated.
// The window's own statements (messages with their status times, labels with their message's time, statuses
// first seen) read the TEMP stage_* tables; its plain delete-by-key and inserts are commitBatch's (commit-batch-sql.ts).
import { latestOfKey } from './commit-batch-sql.js';

const MESSAGE_COLUMNS = [
  'project',
  'question_id',
  'session_id',
  '"timestamp"',
  'question',
  'text_answer',
  'event',
  'nlp_class',
  'nlp_state',
  'confidence',
  'status',
  'is_livechat',
  'comment',
  'processing_time',
  'exception',
  'operator_id',
  'is_transfer',
  'channel_type',
];

/**
 * The earliest first_seen_at a staged message's history rows can have: a message is seen after it was sent, so
 * its rows are never older than its timestamp (a day earlier still, for a platform clock ahead of ours). Lets
 * the history look-ups skip the older rows of a large message_status_history.
 */
const HISTORY_FROM = `(SELECT min("timestamp") - INTERVAL 1 DAY FROM stage_messages)`;

const MESSAGE_KEY = ['project', 'question_id'];

export const WAREHOUSE_SQL = {
  // --- migrations -------------------------------------------------------------------------------------
  createSchemaMigrations:
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER NOT NULL, name VARCHAR NOT NULL, applied_at TIMESTAMPTZ NOT NULL)',
  selectAppliedMigrations: 'SELECT version FROM schema_migrations ORDER BY version',
  /** The rows of `count` migrations applied at once: $version_N, $name_N, one $applied_at. */
  insertAppliedMigrations: (count: number) =>
    `INSERT INTO schema_migrations (version, name, applied_at) VALUES ${Array.from(
      { length: count },
      (_, i) => `($version_${i}, $name_${i}, CAST($applied_at AS TIMESTAMPTZ))`,
    ).join(', ')}`,

  // --- window commit: rows ----------------------------------------------------------------------------
  /**
   * With first_status_at / read_at from message_status_history (so insertNewStatuses runs first): the first
   * time a sync saw the message in any status and in READ, which the delivery funnel reads without a join.
   */
  insertMessages:
    `INSERT INTO messages (${MESSAGE_COLUMNS.join(', ')}, synced_at, first_status_at, read_at) ` +
    `SELECT ${MESSAGE_COLUMNS.map((c) => `s.${c}`).join(', ')}, $synced_at, h.first_status_at, h.read_at ` +
    'FROM stage_messages AS s LEFT JOIN (SELECT project, question_id, min(first_seen_at) AS first_status_at, ' +
    "min(first_seen_at) FILTER (WHERE status = 'READ') AS read_at FROM message_status_history " +
    `WHERE first_seen_at >= ${HISTORY_FROM} AND question_id IN (SELECT question_id FROM stage_messages) ` +
    'GROUP BY project, question_id) AS h ' +
    'ON h.project = s.project AND h.question_id = s.question_id ' +
    `WHERE ${latestOfKey('s.', 'stage_messages', MESSAGE_KEY)}`,

  /** With the labelled message's own timestamp and channel (the message labels statistics read no join). */
  insertMessageLabels:
    'INSERT INTO message_labels (project, question_id, label_id, label_name, group_name, "timestamp", channel_type) ' +
    'SELECT l.project, l.question_id, l.label_id, l.label_name, l.group_name, m."timestamp", m.channel_type ' +
    'FROM stage_message_labels AS l LEFT JOIN (SELECT project, question_id, "timestamp", channel_type ' +
    'FROM stage_messages QUALIFY row_number() OVER (PARTITION BY project, question_id ORDER BY seq DESC) = 1) AS m ' +
    'ON m.project = l.project AND m.question_id = l.question_id ' +
    'QUALIFY row_number() OVER (PARTITION BY l.project, l.question_id, l.label_id ORDER BY l.seq DESC) = 1',

  /** Each (message, status) seen for the first time gets a row; existing rows keep their first-seen time. */
  insertNewStatuses:
    'INSERT INTO message_status_history (project, question_id, status, first_seen_at) ' +
    'SELECT DISTINCT s.project, s.question_id, s.status, $seen_at FROM stage_messages AS s ' +
    'WHERE s.status IS NOT NULL AND NOT EXISTS (SELECT 1 FROM message_status_history AS h ' +
    `WHERE h.first_seen_at >= ${HISTORY_FROM} AND h.project = s.project AND h.question_id = s.question_id ` +
    'AND h.status = s.status)',

  // --- state ------------------------------------------------------------------------------------------
  selectState: 'SELECT value FROM etl_state WHERE project = $project AND key = $key',

  // --- runs -------------------------------------------------------------------------------------------
  insertRun:
    'INSERT INTO etl_runs (run_id, project, job, trigger, started_at, status, windows, sessions, messages, ' +
    'requests, rejects, pid, host, boot_id, start_ticks, heartbeat_at) VALUES ($run_id, $project, $job, $trigger, ' +
    "$started_at, 'running', 0, 0, 0, 0, 0, $pid, $host, $boot_id, $start_ticks, $started_at)",
  /** Running runs (any host) with their owner and last beat (or, before their first beat, their start). */
  selectRunningRuns:
    'SELECT run_id, pid, host, boot_id, start_ticks, coalesce(heartbeat_at, started_at) AS heartbeat_at ' +
    "FROM etl_runs WHERE status = 'running'",
  /** Another run of the same job and project whose lease is fresh: it is working on that project now. */
  selectLiveRunOf:
    'SELECT run_id, pid, host, boot_id, start_ticks, started_at, coalesce(heartbeat_at, started_at) AS heartbeat_at ' +
    'FROM etl_runs ' +
    "WHERE status = 'running' AND job = $job AND project = $project AND run_id <> $run_id " +
    'AND coalesce(heartbeat_at, started_at) >= $stale_before ORDER BY started_at LIMIT 1',
  /** A running run's heartbeat (its lease); one short statement. */
  beatRun: "UPDATE etl_runs SET heartbeat_at = $now WHERE run_id = $run_id AND status = 'running'",
  failAbandonedRun:
    "UPDATE etl_runs SET status = 'failed', finished_at = $finished_at, error = $error " +
    "WHERE run_id = $run_id AND status = 'running'",
  finishRun:
    'UPDATE etl_runs SET status = $status, error = $error, duration_ms = $duration_ms, finished_at = $finished_at, ' +
    'requests = greatest(requests, coalesce($requests, requests)), ' +
    'concurrency_reached = coalesce($concurrency_reached, concurrency_reached), ' +
    'throttled = coalesce($throttled, throttled), ' +
    'unknown_values = coalesce(CAST($unknown_values AS JSON), unknown_values) WHERE run_id = $run_id',
  selectRuns:
    'SELECT run_id, project, job, trigger, started_at, finished_at, status, windows, sessions, messages, ' +
    'requests, rejects, duration_ms, error, pid, host, notification, CAST(unknown_values AS VARCHAR) AS unknown_values, ' +
    'concurrency_reached, throttled, boot_id, start_ticks FROM etl_runs ' +
    'WHERE ($project IS NULL OR project = $project) AND ($job IS NULL OR job = $job) ' +
    'ORDER BY started_at DESC, run_id DESC LIMIT $limit',
  countRejects: 'SELECT count(*) AS n FROM etl_rejects WHERE run_id = $run_id',

  // --- reads for the sync -----------------------------------------------------------------------------
  selectLatestStatuses:
    'SELECT question_id, status FROM messages ' +
    'WHERE project = $project AND session_id IN (SELECT unnest($session_ids))',
  /** The same within [from, to] (inclusive): zone maps skip the rest of a large messages table. */
  selectLatestStatusesBetween:
    'SELECT question_id, status FROM messages WHERE project = $project AND "timestamp" >= $from ' +
    'AND "timestamp" <= $to AND session_id IN (SELECT unnest($session_ids))',
} as const;
