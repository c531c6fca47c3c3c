// Every SQL statement of the warehouse module except the schema (migrations/*.sql), in one place, so an
// analyst can read and run it in the DuckDB CLI. Parameters are bound ($name), never concatenated.
// Window loads are set-based over the TEMP stage_* tables: delete by key, then insert deduplicated
// (the row staged last wins), so keys stay unique without UNIQUE constraints.

/** DELETE of the target rows whose key appears in any of the given staging tables. */
function deleteByKey(
  target: string,
  keys: readonly string[],
  stages: readonly string[],
  /** A column that never changes for a key (a session's start, a message's time) and is in the one stage: the
   * target is read only between its staged min and max, so zone maps skip the rest of a large table. */
  immutableTime?: string,
): string {
  const union = stages.map((s) => `SELECT ${keys.join(', ')} FROM ${s}`).join(' UNION ALL ');
  const match = keys.map((k) => `s.${k} = t.${k}`).join(' AND ');
  const range =
    immutableTime === undefined
      ? ''
      : ` AND t.${immutableTime} >= (SELECT min(${immutableTime}) FROM ${stages[0]}) ` +
        `AND t.${immutableTime} <= (SELECT max(${immutableTime}) FROM ${stages[0]})`;
  return `DELETE FROM ${target} AS t WHERE EXISTS (SELECT 1 FROM (${union}) AS s WHERE ${match})${range}`;
}

/**
 * The staged rows that win, one per key (the last staged): a semi-join on the keys' highest `seq`, which
 * streams the rows through. (A `QUALIFY row_number() OVER (PARTITION BY ...)` would materialise every column
 * of the stage, long texts and all, next to the stage and the inserted rows: with 1,000-character messages
 * that ran out of a 96 MB pool.)
 */
function latestOfKey(alias: string, stage: string, keys: readonly string[]): string {
  return `${alias}seq IN (SELECT max(seq) FROM ${stage} GROUP BY ${keys.join(', ')})`;
}

/** INSERT of a staging table's rows, one per key (the last staged), with extra trailing values. */
function insertLatest(
  target: string,
  stage: string,
  columns: readonly string[],
  keys: readonly string[],
  extra: Readonly<Record<string, string>> = {},
): string {
  const names = [...columns, ...Object.keys(extra)];
  const values = [...columns, ...Object.values(extra)];
  return (
    `INSERT INTO ${target} (${names.join(', ')}) SELECT ${values.join(', ')} FROM ${stage} ` +
    `WHERE ${latestOfKey('', stage, keys)}`
  );
}

const SESSION_COLUMNS = [
  'project',
  'session_id',
  'bot_id',
  'channel_type',
  'client_id',
  'client_first_name',
  'client_last_name',
  'client_username',
  'start_time',
  'duration_ms',
  'question_count',
  'first_question',
  'last_question',
  'is_livechat',
  'session_result',
  'call_task_id',
  'is_call_incoming',
];

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

const CLIENT_COLUMNS = [
  'project',
  'client_id',
  'channel_type',
  'bot_id',
  'first_name',
  'last_name',
  'username',
  'join_date',
  'last_visit_date',
  'last_session_id',
  'is_blocked',
  'block_reason',
  'blocked_by',
  'block_date',
];

/**
 * The earliest first_seen_at a staged message's history rows can have: a message is seen after it was sent, so
 * its rows are never older than its timestamp (a day earlier still, for a platform clock ahead of ours). Lets
 * the history look-ups skip the older rows of a large message_status_history.
 */
const HISTORY_FROM = `(SELECT min("timestamp") - INTERVAL 1 DAY FROM stage_messages)`;

const SESSION_KEY = ['project', 'session_id'];
const MESSAGE_KEY = ['project', 'question_id'];
const SYNCED_AT = { synced_at: '$synced_at' };

export const WAREHOUSE_SQL = {
  // --- migrations -------------------------------------------------------------------------------------
  createSchemaMigrations:
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER NOT NULL, name VARCHAR NOT NULL, applied_at TIMESTAMPTZ NOT NULL)',
  selectAppliedMigrations: 'SELECT version FROM schema_migrations ORDER BY version',
  insertAppliedMigration:
    'INSERT INTO schema_migrations (version, name, applied_at) VALUES ($version, $name, CAST($applied_at AS TIMESTAMPTZ))',

  // --- window commit: rows ----------------------------------------------------------------------------
  deleteSessions: deleteByKey('sessions', SESSION_KEY, ['stage_sessions'], 'start_time'),
  insertSessions: insertLatest('sessions', 'stage_sessions', SESSION_COLUMNS, SESSION_KEY, SYNCED_AT),
  deleteMessages: deleteByKey('messages', MESSAGE_KEY, ['stage_messages'], '"timestamp"'),
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

  /** Labels are replaced for every session of the batch (and any session a label row names). */
  deleteSessionLabels: deleteByKey('session_labels', SESSION_KEY, ['stage_sessions', 'stage_session_labels']),
  insertSessionLabels: insertLatest(
    'session_labels',
    'stage_session_labels',
    ['project', 'session_id', 'label_id', 'label_name'],
    [...SESSION_KEY, 'label_id'],
  ),
  deleteMessageLabels: deleteByKey('message_labels', MESSAGE_KEY, ['stage_messages', 'stage_message_labels']),
  /** With the labelled message's own timestamp and channel (the message labels statistics read no join). */
  insertMessageLabels:
    'INSERT INTO message_labels (project, question_id, label_id, label_name, group_name, "timestamp", channel_type) ' +
    'SELECT l.project, l.question_id, l.label_id, l.label_name, l.group_name, m."timestamp", m.channel_type ' +
    'FROM stage_message_labels AS l LEFT JOIN (SELECT project, question_id, "timestamp", channel_type ' +
    'FROM stage_messages QUALIFY row_number() OVER (PARTITION BY project, question_id ORDER BY seq DESC) = 1) AS m ' +
    'ON m.project = l.project AND m.question_id = l.question_id ' +
    'QUALIFY row_number() OVER (PARTITION BY l.project, l.question_id, l.label_id ORDER BY l.seq DESC) = 1',

  /** sessionData is replaced only for the sessions whose data was read (sessionDataFor, or rows present). */
  deleteSessionData: deleteByKey('session_data', SESSION_KEY, [
    'stage_session_data_for',
    'stage_session_data',
  ]),
  insertSessionData: insertLatest(
    'session_data',
    'stage_session_data',
    ['project', 'session_id', 'key', 'value'],
    [...SESSION_KEY, 'key'],
  ),

  deleteClients: deleteByKey('clients', ['project', 'client_id'], ['stage_clients']),
  insertClients: insertLatest(
    'clients',
    'stage_clients',
    CLIENT_COLUMNS,
    ['project', 'client_id'],
    SYNCED_AT,
  ),

  insertRejects:
    'INSERT INTO etl_rejects (run_id, project, endpoint, record_id, raw_json, error, rejected_at) ' +
    'SELECT run_id, project, endpoint, record_id, raw_json, error, $rejected_at FROM stage_rejects ORDER BY seq',

  /** Each (message, status) seen for the first time gets a row; existing rows keep their first-seen time. */
  insertNewStatuses:
    'INSERT INTO message_status_history (project, question_id, status, first_seen_at) ' +
    'SELECT DISTINCT s.project, s.question_id, s.status, $seen_at FROM stage_messages AS s ' +
    'WHERE s.status IS NOT NULL AND NOT EXISTS (SELECT 1 FROM message_status_history AS h ' +
    `WHERE h.first_seen_at >= ${HISTORY_FROM} AND h.project = s.project AND h.question_id = s.question_id ` +
    'AND h.status = s.status)',

  // --- state ------------------------------------------------------------------------------------------
  selectState: 'SELECT value FROM etl_state WHERE project = $project AND key = $key',
  deleteState: 'DELETE FROM etl_state WHERE project = $project AND key = $key',
  insertState:
    'INSERT INTO etl_state (project, key, value, updated_at) VALUES ($project, $key, $value, $updated_at)',

  // --- runs -------------------------------------------------------------------------------------------
  insertRun:
    'INSERT INTO etl_runs (run_id, project, job, trigger, started_at, status, windows, sessions, messages, ' +
    "requests, rejects, pid, host, heartbeat_at) VALUES ($run_id, $project, $job, $trigger, $started_at, 'running', " +
    '0, 0, 0, 0, 0, $pid, $host, $started_at)',
  /** Running runs (any host) whose lease is stale: no heartbeat since $stale_before (or no beat and started before). */
  selectStaleRunningRuns:
    'SELECT run_id, pid, host, coalesce(heartbeat_at, started_at) AS heartbeat_at FROM etl_runs ' +
    "WHERE status = 'running' AND coalesce(heartbeat_at, started_at) < $stale_before",
  /** Another run of the same job and project whose lease is fresh: it is working on that project now. */
  selectLiveRunOf:
    'SELECT run_id, pid, host, started_at, coalesce(heartbeat_at, started_at) AS heartbeat_at FROM etl_runs ' +
    "WHERE status = 'running' AND job = $job AND project = $project AND run_id <> $run_id " +
    'AND coalesce(heartbeat_at, started_at) >= $stale_before ORDER BY started_at LIMIT 1',
  /** A running run's heartbeat (its lease); one short statement. */
  beatRun: "UPDATE etl_runs SET heartbeat_at = $now WHERE run_id = $run_id AND status = 'running'",
  failAbandonedRun:
    "UPDATE etl_runs SET status = 'failed', finished_at = $finished_at, error = $error " +
    "WHERE run_id = $run_id AND status = 'running'",
  addWindowToRun:
    'UPDATE etl_runs SET windows = windows + 1, sessions = sessions + $sessions, messages = messages + $messages, ' +
    'requests = requests + $requests, rejects = rejects + $rejects, ' +
    'heartbeat_at = greatest(coalesce(heartbeat_at, $seen_at), $seen_at) WHERE run_id = $run_id',
  finishRun:
    'UPDATE etl_runs SET status = $status, error = $error, duration_ms = $duration_ms, finished_at = $finished_at, ' +
    'requests = greatest(requests, coalesce($requests, requests)), ' +
    'unknown_values = coalesce(CAST($unknown_values AS JSON), unknown_values) WHERE run_id = $run_id',
  selectRuns:
    'SELECT run_id, project, job, trigger, started_at, finished_at, status, windows, sessions, messages, ' +
    'requests, rejects, duration_ms, error, pid, host, notification, CAST(unknown_values AS VARCHAR) AS unknown_values ' +
    'FROM etl_runs ' +
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

  // --- catalogues -------------------------------------------------------------------------------------
  deleteSessionLabelCatalogue: 'DELETE FROM session_label_catalogue WHERE project = $project',
  insertSessionLabelCatalogue: insertLatest(
    'session_label_catalogue',
    'stage_session_label_catalogue',
    ['project', 'label_id', 'name', 'priority'],
    ['project', 'label_id'],
  ),
  deleteMessageLabelCatalogue: 'DELETE FROM message_label_catalogue WHERE project = $project',
  insertMessageLabelCatalogue: insertLatest(
    'message_label_catalogue',
    'stage_message_label_catalogue',
    ['project', 'label_id', 'name', 'priority', 'group_id', 'group_name', 'group_priority'],
    ['project', 'label_id'],
  ),
  deleteExperiments: 'DELETE FROM experiments WHERE project = $project',
  insertExperiments: insertLatest(
    'experiments',
    'stage_experiments',
    ['project', 'experiment_key', 'description', 'status', 'branches', 'session_count'],
    ['project', 'experiment_key'],
    SYNCED_AT,
  ),
} as const;
