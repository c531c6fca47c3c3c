// Commits one window of one project in ONE transaction, a use of commitBatch: rows replaced by key (sessions,
// messages, their labels, sessionData, clients), rejects appended, first-seen statuses before the messages,
// the statistics' rollups, the watermark and the run's counters. A failure rolls all of it back; running out
// of DuckDB's memory is told apart (warehouse.commit_out_of_memory, then a CHECKPOINT) so that the sync can halve the window.
import type { DuckDBConnection } from '@duckdb/node-api';
import { EtlError } from '../errors.js';
import {
  type Batch,
  commitBatch,
  defineBatchTable,
  defineStagedRows,
  replacedCountOf,
} from './commit-batch.js';
import { rollupStatements, type WindowOrphans } from './commit-rollups-sql.js';
import { isOutOfSpace, outOfSpaceError } from './out-of-space.js';
import { findRollupBounds } from './rollup-bounds.js';
import type { WindowBatch } from './rows.js';
import { STAGING_TABLES } from './staging-tables.js';
import {
  CLIENTS_TABLE,
  ETL_REJECTS_TABLE,
  MESSAGE_LABELS_TABLE,
  MESSAGES_TABLE,
  SESSION_DATA_TABLE,
  SESSION_LABELS_TABLE,
  SESSIONS_TABLE,
} from './tables.js';
import type { WindowCommitSummary } from './warehouse.js';
import { WAREHOUSE_SQL as SQL } from './warehouse-sql.js';

export const WATERMARK_KEY = 'watermark';
/** The count of the statuses first seen, under its name in the batch's counts. */
const NEW_STATUSES = 'new_statuses';

export async function commitWindow(
  connection: DuckDBConnection,
  batch: WindowBatch,
): Promise<WindowCommitSummary> {
  const started = performance.now();
  const counts = await commitBatch(connection, describeWindowBatch(batch), (cause) =>
    describeWindowFailure(batch, cause),
  ).catch(async (error: unknown) => {
    // rows committed by earlier windows stay in the pool until a checkpoint writes them out: free them for
    // the halves of this window (a small pool otherwise stays full and every half runs out of it too)
    if (error instanceof EtlError && error.code === 'warehouse.commit_out_of_memory')
      await connection.run('CHECKPOINT').catch(() => undefined);
    throw error;
  });
  const written = (table: string) => counts[table] ?? 0;
  return {
    sessions: written(SESSIONS_TABLE.name),
    messages: written(MESSAGES_TABLE.name),
    // rows whose key was not stored before: written less those the DELETE removed (read again)
    newSessions: written(SESSIONS_TABLE.name) - written(replacedCountOf(SESSIONS_TABLE.name)),
    newMessages: written(MESSAGES_TABLE.name) - written(replacedCountOf(MESSAGES_TABLE.name)),
    rejects: counts[ETL_REJECTS_TABLE.name] ?? 0,
    newStatuses: counts[NEW_STATUSES] ?? 0,
    durationMs: Math.round(performance.now() - started),
  };
}

/** The window as a batch: its tables in the order they are written, the watermark and the run's counters. */
export function describeWindowBatch(batch: WindowBatch): Batch {
  const seenAt = new Date(batch.seenAt);
  const synced = { synced_at: seenAt };
  return {
    tables: [
      defineBatchTable({
        spec: SESSIONS_TABLE,
        stage: STAGING_TABLES.sessions,
        rows: batch.sessions,
        constants: synced,
        immutableTime: 'start_time',
      }),
      defineBatchTable({
        spec: MESSAGES_TABLE,
        stage: STAGING_TABLES.messages,
        rows: batch.messages,
        constants: synced,
        immutableTime: '"timestamp"',
        // statuses first: the inserted messages take their first-seen and READ times from the history
        before: [{ name: NEW_STATUSES, sql: SQL.insertNewStatuses, params: { seen_at: seenAt } }],
        insert: SQL.insertMessages,
      }),
      // labels are replaced for every session of the batch (and any session a label row names)
      defineBatchTable({
        spec: SESSION_LABELS_TABLE,
        stage: STAGING_TABLES.sessionLabels,
        rows: batch.sessionLabels,
        replaceKey: SESSIONS_TABLE.key,
        replaceAlso: [STAGING_TABLES.sessions.name],
      }),
      defineBatchTable({
        spec: MESSAGE_LABELS_TABLE,
        stage: STAGING_TABLES.messageLabels,
        rows: batch.messageLabels,
        replaceKey: MESSAGES_TABLE.key,
        replaceAlso: [STAGING_TABLES.messages.name],
        insert: SQL.insertMessageLabels,
      }),
      // sessionData is replaced only for the sessions whose data was read (sessionDataFor, or rows present)
      defineBatchTable({
        spec: SESSION_DATA_TABLE,
        stage: STAGING_TABLES.sessionData,
        rows: batch.sessionData,
        replaceKey: SESSIONS_TABLE.key,
        replaceAlso: [STAGING_TABLES.sessionDataFor.name],
      }),
      defineBatchTable({
        spec: CLIENTS_TABLE,
        stage: STAGING_TABLES.clients,
        rows: batch.clients,
        constants: synced,
      }),
      defineBatchTable({
        spec: ETL_REJECTS_TABLE,
        stage: STAGING_TABLES.rejects,
        rows: batch.rejects,
        constants: { rejected_at: seenAt },
      }),
    ],
    staged: [
      defineStagedRows({
        stage: STAGING_TABLES.sessionDataFor,
        rows: batch.sessionDataFor.map((session_id) => ({ project: batch.project, session_id })),
      }),
    ],
    // the statistics' rollups of what the tables now hold (migration 024), in the same transaction
    after: rollupStatements(findOrphans(batch), findRollupBounds(batch)),
    state:
      batch.watermark === undefined
        ? []
        : [{ project: batch.project, key: WATERMARK_KEY, value: new Date(batch.watermark).toISOString() }],
    run: {
      runId: batch.runId,
      add: (counts) => ({
        windows: 1,
        sessions: counts[SESSIONS_TABLE.name] ?? 0,
        messages: counts[MESSAGES_TABLE.name] ?? 0,
        requests: batch.requests,
        rejects: counts[ETL_REJECTS_TABLE.name] ?? 0,
      }),
      // a committed window is a heartbeat of the run (src/warehouse/lease.ts)
      beatAt: seenAt,
    },
    at: seenAt,
  };
}

/**
 * Labels of messages, or labels and sessionData of sessions, that the window does not hold itself; sessions
 * whose sessionData it does not replace.
 */
function findOrphans(batch: WindowBatch): WindowOrphans {
  const messages = new Set(batch.messages.map((m) => `${m.project}\u0000${m.question_id}`));
  const sessions = new Set(batch.sessions.map((s) => `${s.project}\u0000${s.session_id}`));
  const key = (project: string, id: string) => `${project}\u0000${id}`;
  const dataRead = new Set([
    ...batch.sessionDataFor.map((id) => key(batch.project, id)),
    ...batch.sessionData.map((d) => key(d.project, d.session_id)),
  ]);
  return {
    sessionsKeepingData: batch.sessions.some((s) => !dataRead.has(key(s.project, s.session_id))),
    messageLabels: batch.messageLabels.some((l) => !messages.has(key(l.project, l.question_id))),
    sessionRows:
      batch.sessionLabels.some((l) => !sessions.has(key(l.project, l.session_id))) ||
      batch.sessionData.some((d) => !sessions.has(key(d.project, d.session_id))) ||
      batch.sessionDataFor.some((id) => !sessions.has(key(batch.project, id))),
  };
}

/** The error of a window that could not be committed; running out of DuckDB's memory is told apart. */
function describeWindowFailure(batch: WindowBatch, cause: unknown): EtlError {
  const what =
    `the window ${new Date(batch.from).toISOString()} – ${new Date(batch.to).toISOString()} ` +
    `of project ${batch.project} (run ${batch.runId})`;
  // DuckDB's advice (SET threads, SET memory_limit) is not this tool's: the caller halves the window
  if (isOutOfSpace(cause)) return outOfSpaceError(`Could not commit ${what}`, cause);
  if (isOutOfMemory(cause))
    return new EtlError(
      'warehouse.commit_out_of_memory',
      `${what} did not fit in DuckDB's memory limit and was rolled back: ${firstLine(cause)}`,
      { cause },
    );
  return new EtlError(
    'warehouse.commit_failed',
    `Could not commit ${what}; nothing of it was written: ${(cause as Error).message}`,
    { cause },
  );
}

/**
 * DuckDB's buffer pool is full: "Out of Memory Error: failed to allocate ...", or the same inside COMMIT
 * ("TransactionContext Error: Failed to commit: could not allocate block of size 256.0 KiB").
 */
export function isOutOfMemory(error: unknown): boolean {
  return (
    error instanceof Error &&
    (/^Out of Memory Error\b/.test(error.message) ||
      /^TransactionContext Error: Failed to commit: (could not allocate|failed to (allocate|pin))\b/.test(
        error.message,
      ))
  );
}

function firstLine(error: unknown): string {
  return String(error instanceof Error ? error.message : error).split('\n')[0]!;
}
