// The statistics' rollups (migration 024) kept by every window commit, inside its transaction, after its tables
// are written: each quarter hour a staged message falls in (every quarter of the staged messages' span, where the
// window's rows give it: rollup-bounds.ts) is counted again from the raw rows of that quarter;
// each staged session's row, labels and sessionData are replaced, the transfer flag of every session whose
// transfers changed is set again, the client pointers of every client the window touched are computed again,
// and each quarter hour such a session starts in is counted again from the per-session rows.
// Invariant: each rollup row equals what the fill of 024 gives for its rows.
import type { BatchStatement } from './commit-batch.js';
import {
  boundSessionStarts,
  FIRST_STAGED_START,
  LAST_STAGED_START,
  type RollupBounds,
  spanScope,
} from './rollup-bounds.js';

/** A quarter hour of UTC: epoch ms // 900,000 (every zone's offset is whole quarter hours). */
const QUARTER = (column: string) => `epoch_ms(${column}) // 900000`;

/** The instant bounds of the touched quarters of a TEMP table of (project, q): the raw rows are read between them. */
const quartersBetween = (column: string, touched: string) =>
  `${column} >= to_timestamp((SELECT min(q) FROM ${touched}) * 900) ` +
  `AND ${column} < to_timestamp(((SELECT max(q) FROM ${touched}) + 1) * 900)`;

const inQuarters = (alias: string, column: string, touched: string) =>
  `EXISTS (SELECT 1 FROM ${touched} AS k WHERE k.project = ${alias}.project AND k.q = ${QUARTER(column)})`;

const deleteQuarters = (table: string, touched: string) =>
  `DELETE FROM ${table} AS t WHERE t.q >= (SELECT min(q) FROM ${touched}) AND t.q <= (SELECT max(q) FROM ${touched}) ` +
  `AND EXISTS (SELECT 1 FROM ${touched} AS k WHERE k.project = t.project AND k.q = t.q)`;

/**
 * Which quarter hours the message rollups count again: conditions on raw rows' instants (alias, column) and on
 * rollup rows' quarters (alias.q), each of a project too.
 */
export interface QuarterScope {
  instants(alias: string, column: string): string;
  quarters(alias: string): string;
}

/** The quarters of a TEMP table of touched (project, q). */
const touchedScope = (touched: string): QuarterScope => ({
  instants: (alias, column) =>
    `${quartersBetween(column, touched)} AND ${inQuarters(alias, column, touched)}`,
  quarters: (alias) =>
    `${alias}.q >= (SELECT min(q) FROM ${touched}) AND ${alias}.q <= (SELECT max(q) FROM ${touched}) ` +
    `AND EXISTS (SELECT 1 FROM ${touched} AS k WHERE k.project = ${alias}.project AND k.q = ${alias}.q)`,
});

/**
 * The message quarters, the transfers (and the sessions whose transfers may change: those with a transfer in
 * the quarters, before and after) and the labelled messages' quarters, counted again over `messages`' and
 * `labels`' quarters.
 */
export function messageRollupSql(messages: QuarterScope, labels: QuarterScope) {
  const transferSessions = `SELECT t.project, t.session_id FROM stat_transfers AS t WHERE ${messages.quarters('t')}`;
  return {
    deleteMessageQuarters: `DELETE FROM stat_message_quarters AS t WHERE ${messages.quarters('t')}`,
    insertMessageQuarters: `INSERT INTO stat_message_quarters
    SELECT m.project, ${QUARTER('m."timestamp"')} AS q, m.channel_type, m.status, m.nlp_class, count(*),
      count(m.confidence), sum(m.confidence::DECIMAL(38, 18))
    FROM messages AS m WHERE ${messages.instants('m', 'm."timestamp"')}
    GROUP BY m.project, q, m.channel_type, m.status, m.nlp_class`,
    touchedTransferSessions: `CREATE OR REPLACE TEMP TABLE ${TRANSFERS_TOUCHED} AS ${transferSessions}`,
    deleteTransfers: `DELETE FROM stat_transfers AS t WHERE ${messages.quarters('t')}`,
    insertTransfers: `INSERT INTO stat_transfers
    SELECT DISTINCT m.project, ${QUARTER('m."timestamp"')}, m.session_id
    FROM messages AS m WHERE m.is_transfer AND ${messages.instants('m', 'm."timestamp"')}`,
    touchedTransferSessionsAfter: `INSERT INTO ${TRANSFERS_TOUCHED} ${transferSessions}`,
    deleteLabelQuarters: `DELETE FROM stat_label_quarters AS t WHERE ${labels.quarters('t')}`,
    insertLabelQuarters: `INSERT INTO stat_label_quarters
    SELECT l.project, ${QUARTER('l."timestamp"')} AS q, l.channel_type, l.label_id, any_value(l.label_name),
      any_value(l.group_name), count(*)
    FROM message_labels AS l WHERE ${labels.instants('l', 'l."timestamp"')}
    GROUP BY l.project, q, l.channel_type, l.label_id`,
  };
}

const MESSAGES_TOUCHED = 'stat_touched_quarters';
const LABELS_TOUCHED = 'stat_touched_label_quarters';
const CLIENTS_TOUCHED = 'stat_touched_clients';
const TRANSFERS_TOUCHED = 'stat_touched_transfer_sessions';
const SESSIONS_TOUCHED = 'stat_touched_session_quarters';
const TRANSFERS_CHANGED = 'stat_changed_transfer_sessions';

/** The sessions that carry a transfer, as a condition on alias `s`. */
const HAS_TRANSFER = (alias: string) =>
  `EXISTS (SELECT 1 FROM stat_transfers AS x WHERE x.project = ${alias}.project AND x.session_id = ${alias}.session_id)`;

/** Rows of `table` (alias t, with start_time) in the touched session quarters. */
const inSessionQuarters = (alias: string) =>
  `${quartersBetween(`${alias}.start_time`, SESSIONS_TOUCHED)} AND ${inQuarters(alias, `${alias}.start_time`, SESSIONS_TOUCHED)}`;

/** Rows (alias, with start_time) whose start lies in the staged sessions' span: zone maps skip the rest. */
const inStagedStarts = (alias: string) =>
  `${alias}.start_time >= ${FIRST_STAGED_START} AND ${alias}.start_time <= ${LAST_STAGED_START}`;

/** The sessions whose sessionData the window read (its pairs are replaced). */
const DATA_READ =
  '(SELECT project, session_id FROM stage_session_data_for UNION ALL SELECT project, session_id FROM stage_session_data)';

/** The client pointers of stat_sessions (docs/statistics.md), computed over every session of a client. */
const POINTERS = `
  lag(s.start_time) OVER (PARTITION BY s.project, s.client_id ORDER BY s.start_time, s.session_id) AS prev_any,
  lag(s.start_time) OVER (PARTITION BY s.project, s.client_id, s.channel_type ORDER BY s.start_time, s.session_id) AS prev_channel,
  CASE WHEN s.client_id IS NOT NULL THEN
    least(min(s.start_time) OVER (PARTITION BY s.project, s.client_id), c.join_date) END AS first_seen`;

export const ROLLUP_SQL = {
  // --- messages: the quarters of the staged messages (a message's time never changes) -----------------
  touchedQuarters: `CREATE OR REPLACE TEMP TABLE ${MESSAGES_TOUCHED} AS
    SELECT DISTINCT project, ${QUARTER('"timestamp"')} AS q FROM stage_messages`,
  touchedLabelQuarters: `CREATE OR REPLACE TEMP TABLE ${LABELS_TOUCHED} AS SELECT project, q FROM ${MESSAGES_TOUCHED}`,
  /** Label rows also for messages not staged (their message's quarter, from messages: a scan of it). */
  touchedLabelQuartersOfOrphans: `INSERT INTO ${LABELS_TOUCHED}
    SELECT m.project, ${QUARTER('m."timestamp"')} FROM messages AS m
    WHERE EXISTS (SELECT 1 FROM stage_message_labels AS l
      WHERE l.project = m.project AND l.question_id = m.question_id
        AND NOT EXISTS (SELECT 1 FROM stage_messages AS s WHERE s.project = l.project AND s.question_id = l.question_id))`,
  ...messageRollupSql(touchedScope(MESSAGES_TOUCHED), touchedScope(LABELS_TOUCHED)),

  // --- sessions: the staged sessions' rows, then the pointers of their clients (old and new) -----------
  touchedClients: `CREATE OR REPLACE TEMP TABLE ${CLIENTS_TOUCHED} AS
    SELECT t.project, t.client_id FROM stat_sessions AS t
    WHERE ${inStagedStarts('t')}
      AND EXISTS (SELECT 1 FROM stage_sessions AS s WHERE s.project = t.project AND s.session_id = t.session_id)
    UNION SELECT project, client_id FROM stage_sessions
    UNION SELECT project, client_id FROM stage_clients`,
  deleteSessions: `DELETE FROM stat_sessions AS t
    WHERE ${inStagedStarts('t')}
      AND EXISTS (SELECT 1 FROM stage_sessions AS s WHERE s.project = t.project AND s.session_id = t.session_id)`,
  insertSessions: `INSERT INTO stat_sessions (project, session_id, start_time, channel_type, client_id, message_count,
      duration_ms, transferred)
    SELECT s.project, s.session_id, s.start_time, s.channel_type, s.client_id, coalesce(s.question_count, 0),
      s.duration_ms, ${HAS_TRANSFER('s')}
    FROM stage_sessions AS s WHERE s.seq IN (SELECT max(seq) FROM stage_sessions GROUP BY project, session_id)
    ORDER BY s.start_time`,
  /** The sessions whose transfer flag changed (one scan of stat_sessions), then their flag set again. */
  changedTransfers: `CREATE OR REPLACE TEMP TABLE ${TRANSFERS_CHANGED} AS
    SELECT s.project, s.session_id, s.start_time FROM stat_sessions AS s
    WHERE EXISTS (SELECT 1 FROM ${TRANSFERS_TOUCHED} AS k WHERE k.project = s.project AND k.session_id = s.session_id)
      AND s.transferred IS DISTINCT FROM ${HAS_TRANSFER('s')}`,
  updateTransferred: `UPDATE stat_sessions AS s SET transferred = NOT s.transferred
    WHERE s.start_time >= (SELECT min(start_time) FROM ${TRANSFERS_CHANGED})
      AND s.start_time <= (SELECT max(start_time) FROM ${TRANSFERS_CHANGED})
      AND EXISTS (SELECT 1 FROM ${TRANSFERS_CHANGED} AS k WHERE k.project = s.project AND k.session_id = s.session_id)`,
  updatePointers: `UPDATE stat_sessions AS t
    SET prev_start_any = r.prev_any, prev_start_channel = r.prev_channel, client_first_seen = r.first_seen
    FROM (
      SELECT s.project, s.session_id, ${POINTERS}
      FROM stat_sessions AS s
      JOIN ${CLIENTS_TOUCHED} AS a ON a.project = s.project AND a.client_id IS NOT DISTINCT FROM s.client_id
      LEFT JOIN clients AS c ON c.project = s.project AND c.client_id = s.client_id
    ) AS r
    WHERE t.project = r.project AND t.session_id = r.session_id
      AND (t.prev_start_any IS DISTINCT FROM r.prev_any OR t.prev_start_channel IS DISTINCT FROM r.prev_channel
        OR t.client_first_seen IS DISTINCT FROM r.first_seen)`,

  // --- a session's labels: replaced for every staged session and every session a label row names; a window
  //     without labels of sessions it does not hold reads only its sessions' span of starts (a session's start
  //     never changes), and the rows stored while their session was not (no start) apart
  deleteSessionLabels: `DELETE FROM stat_session_labels AS t WHERE ${inStagedStarts('t')}
      AND EXISTS (SELECT 1 FROM stage_sessions AS s WHERE s.project = t.project AND s.session_id = t.session_id)`,
  deleteSessionLabelsWithoutStart: `DELETE FROM stat_session_labels AS t WHERE t.start_time IS NULL
      AND EXISTS (SELECT 1 FROM stage_sessions AS s WHERE s.project = t.project AND s.session_id = t.session_id)`,
  deleteSessionLabelsOfOrphans: `DELETE FROM stat_session_labels AS t WHERE EXISTS (
      SELECT 1 FROM stage_session_labels AS s WHERE s.project = t.project AND s.session_id = t.session_id)`,
  insertSessionLabels: `INSERT INTO stat_session_labels
    SELECT l.project, l.session_id, l.label_id, l.label_name, s.start_time, s.channel_type
    FROM stage_session_labels AS l
    LEFT JOIN stat_sessions AS s ON s.project = l.project AND s.session_id = l.session_id
    WHERE l.seq IN (SELECT max(seq) FROM stage_session_labels GROUP BY project, session_id, label_id)`,

  // --- sessionData: pairs replaced for the sessions whose data was read; the pairs a staged session keeps (its
  //     data not read) take its new start, channel and messages
  deleteSessionData: `DELETE FROM stat_session_data AS t WHERE ${inStagedStarts('t')} AND EXISTS (
      SELECT 1 FROM ${DATA_READ} AS s WHERE s.project = t.project AND s.session_id = t.session_id)`,
  deleteSessionDataWithoutStart: `DELETE FROM stat_session_data AS t WHERE t.start_time IS NULL AND EXISTS (
      SELECT 1 FROM ${DATA_READ} AS s WHERE s.project = t.project AND s.session_id = t.session_id)`,
  deleteSessionDataOfOrphans: `DELETE FROM stat_session_data AS t WHERE EXISTS (
      SELECT 1 FROM ${DATA_READ} AS s WHERE s.project = t.project AND s.session_id = t.session_id)`,
  updateSessionData: `UPDATE stat_session_data AS t
    SET start_time = s.start_time, channel_type = s.channel_type, message_count = s.message_count
    FROM stat_sessions AS s
    WHERE s.project = t.project AND s.session_id = t.session_id
      AND ${inStagedStarts('s')}
      AND EXISTS (SELECT 1 FROM stage_sessions AS k WHERE k.project = s.project AND k.session_id = s.session_id)`,
  insertSessionData: `INSERT INTO stat_session_data
    SELECT d.project, d.session_id, d.key, d.value, s.start_time, s.channel_type, coalesce(s.message_count, 0)
    FROM stage_session_data AS d
    LEFT JOIN stat_sessions AS s ON s.project = d.project AND s.session_id = d.session_id
    WHERE d.seq IN (SELECT max(seq) FROM stage_session_data GROUP BY project, session_id, key)`,

  // --- the quarters of every session touched: staged, its transfers, labels or sessionData changed -------
  touchedSessionQuarters: `CREATE OR REPLACE TEMP TABLE ${SESSIONS_TOUCHED} AS
    SELECT DISTINCT project, ${QUARTER('start_time')} AS q FROM stage_sessions
    UNION SELECT project, ${QUARTER('start_time')} FROM ${TRANSFERS_CHANGED}`,
  /** Labels and sessionData also of sessions not staged (their session's quarter: a scan of stat_sessions). */
  touchedSessionQuartersOfOrphans: `INSERT INTO ${SESSIONS_TOUCHED}
    SELECT s.project, ${QUARTER('s.start_time')} FROM stat_sessions AS s
    WHERE EXISTS (SELECT 1 FROM (
        SELECT project, session_id FROM stage_session_labels
        UNION ALL SELECT project, session_id FROM stage_session_data
        UNION ALL SELECT project, session_id FROM stage_session_data_for
      ) AS k WHERE k.project = s.project AND k.session_id = s.session_id)`,
  deleteSessionQuarters: deleteQuarters('stat_session_quarters', SESSIONS_TOUCHED),
  insertSessionQuarters: `INSERT INTO stat_session_quarters
    SELECT t.project, ${QUARTER('t.start_time')} AS q, t.channel_type, t.message_count, t.transferred, count(*),
      count(t.duration_ms), sum(t.duration_ms::HUGEINT)
    FROM stat_sessions AS t WHERE ${inSessionQuarters('t')}
    GROUP BY t.project, q, t.channel_type, t.message_count, t.transferred`,
  deleteDurationQuarters: deleteQuarters('stat_duration_quarters', SESSIONS_TOUCHED),
  insertDurationQuarters: `INSERT INTO stat_duration_quarters
    SELECT t.project, ${QUARTER('t.start_time')} AS q, t.channel_type, t.duration_ms // 60000 AS duration_minute, count(*)
    FROM stat_sessions AS t WHERE t.duration_ms IS NOT NULL AND ${inSessionQuarters('t')}
    GROUP BY t.project, q, t.channel_type, duration_minute`,
  deleteSessionLabelQuarters: deleteQuarters('stat_session_label_quarters', SESSIONS_TOUCHED),
  insertSessionLabelQuarters: `INSERT INTO stat_session_label_quarters
    SELECT t.project, ${QUARTER('t.start_time')} AS q, t.channel_type, t.label_id, any_value(t.label_name), count(*)
    FROM stat_session_labels AS t WHERE ${inSessionQuarters('t')}
    GROUP BY t.project, q, t.channel_type, t.label_id`,
  deleteSessionDataQuarters: deleteQuarters('stat_session_data_quarters', SESSIONS_TOUCHED),
  insertSessionDataQuarters: `INSERT INTO stat_session_data_quarters
    SELECT t.project, ${QUARTER('t.start_time')} AS q, t.channel_type, t.key, t.value, s.transferred, count(*),
      sum(t.message_count)
    FROM stat_session_data AS t
    JOIN stat_sessions AS s ON s.project = t.project AND s.session_id = t.session_id
    WHERE ${inSessionQuarters('t')} AND ${quartersBetween('s.start_time', SESSIONS_TOUCHED)}
    GROUP BY t.project, q, t.channel_type, t.key, t.value, s.transferred`,
} as const;

/** The statements that look up rows of a batch whose message or session is not in it (scans of a table). */
const ORPHANS: Partial<Record<keyof typeof ROLLUP_SQL, keyof WindowOrphans>> = {
  touchedLabelQuartersOfOrphans: 'messageLabels',
  touchedSessionQuartersOfOrphans: 'sessionRows',
  deleteSessionLabelsOfOrphans: 'sessionRows',
  deleteSessionDataOfOrphans: 'sessionRows',
  updateSessionData: 'sessionsKeepingData',
};

/** Whether a window holds labels of messages, or labels or sessionData of sessions, that it does not hold. */
export interface WindowOrphans {
  messageLabels: boolean;
  sessionRows: boolean;
  /** Staged sessions whose sessionData was not read: their stored pairs stay and follow the session. */
  sessionsKeepingData: boolean;
}

/** What joins the rollup statements into the one text a window commit runs. */
export const ROLLUP_STATEMENT_SEPARATOR = ';\n';

/** Each statement's name in a comment before it (the bench's profile reads it). */
export const ROLLUP_NAME = /^\/\* rollup (\w+) \*\/ /;

/**
 * The statements a window commit runs after its tables, in this order; the look-ups of rows whose message or
 * session is not in the window only when it has such rows (a sync's window never has: its labels and
 * sessionData come with their message or session); with the bounds its rows give as constants (rollup-bounds.ts).
 */
export function rollupStatementList(orphans: WindowOrphans, bounds: RollupBounds = {}): string[] {
  const span = orphans.messageLabels ? undefined : bounds.messages;
  // over the span no table of touched quarters is needed
  const spanned: Partial<Record<keyof typeof ROLLUP_SQL, string | null>> =
    span === undefined
      ? {}
      : {
          touchedQuarters: null,
          touchedLabelQuarters: null,
          ...messageRollupSql(spanScope(span), spanScope(span)),
        };
  return (Object.entries(ROLLUP_SQL) as [keyof typeof ROLLUP_SQL, string][])
    .filter(([name]) => {
      const needs = ORPHANS[name];
      return needs === undefined || orphans[needs];
    })
    .flatMap(([name, sql]) => {
      const text = name in spanned ? spanned[name] : sql;
      return text === null || text === undefined
        ? []
        : [`/* rollup ${name} */ ${boundSessionStarts(text, bounds.sessionStarts)}`];
    });
}

/**
 * The same statements as one text run at once (they take no parameters): one round trip to DuckDB per window
 * instead of one per statement, which was a fifth of the rollups' CPU time at the emulator's windows.
 */
export function rollupStatements(orphans: WindowOrphans, bounds: RollupBounds = {}): BatchStatement[] {
  return [{ sql: rollupStatementList(orphans, bounds).join(ROLLUP_STATEMENT_SEPARATOR) }];
}
