// Commits one window of one project in ONE transaction: stage the batch with the appender, then replace
// rows by key (sessions, messages, their labels, sessionData, clients), add rejects and first-seen
// statuses, move the watermark and add to the run's counters. A failure rolls all of it back; running out
// of DuckDB's memory is told apart (warehouse.commit_out_of_memory) so that the sync can halve the window.
import type { DuckDBConnection } from '@duckdb/node-api';
import { EtlError } from '../errors.js';
import { runStatement } from './query-rows.js';
import type { WindowBatch } from './rows.js';
import { runInTransaction } from './run-in-transaction.js';
import { stageRows } from './stage-rows.js';
import { STAGING_TABLES } from './staging-tables.js';
import type { WindowCommitSummary } from './warehouse.js';
import { WAREHOUSE_SQL as SQL } from './warehouse-sql.js';

export const WATERMARK_KEY = 'watermark';

export async function commitWindow(
  connection: DuckDBConnection,
  batch: WindowBatch,
): Promise<WindowCommitSummary> {
  const started = performance.now();
  const counts = await commitBatch(connection, batch).catch(async (error: unknown) => {
    // rows committed by earlier windows stay in the pool until a checkpoint writes them out: free them for
    // the halves of this window (a small pool otherwise stays full and every half runs out of it too)
    if (error instanceof EtlError && error.code === 'warehouse.commit_out_of_memory')
      await connection.run('CHECKPOINT').catch(() => undefined);
    throw error;
  });
  return { ...counts, durationMs: Math.round(performance.now() - started) };
}

function commitBatch(connection: DuckDBConnection, batch: WindowBatch) {
  return runInTransaction(
    connection,
    async () => {
      await stageBatch(connection, batch);
      const seenAt = new Date(batch.seenAt);
      const synced = { synced_at: seenAt };

      await runStatement(connection, SQL.deleteSessions);
      const sessions = await runStatement(connection, SQL.insertSessions, synced);
      // statuses first: the inserted messages take their first-seen and READ times from the history
      const newStatuses = await runStatement(connection, SQL.insertNewStatuses, { seen_at: seenAt });
      await runStatement(connection, SQL.deleteMessages);
      const messages = await runStatement(connection, SQL.insertMessages, synced);

      await runStatement(connection, SQL.deleteSessionLabels);
      await runStatement(connection, SQL.insertSessionLabels);
      await runStatement(connection, SQL.deleteMessageLabels);
      await runStatement(connection, SQL.insertMessageLabels);
      await runStatement(connection, SQL.deleteSessionData);
      await runStatement(connection, SQL.insertSessionData);
      await runStatement(connection, SQL.deleteClients);
      await runStatement(connection, SQL.insertClients, synced);

      const rejects = await runStatement(connection, SQL.insertRejects, { rejected_at: seenAt });

      if (batch.watermark !== undefined) {
        const state = { project: batch.project, key: WATERMARK_KEY };
        await runStatement(connection, SQL.deleteState, state);
        await runStatement(connection, SQL.insertState, {
          ...state,
          value: new Date(batch.watermark).toISOString(),
          updated_at: seenAt,
        });
      }
      await runStatement(connection, SQL.addWindowToRun, {
        run_id: batch.runId,
        sessions,
        messages,
        requests: batch.requests,
        rejects,
        // a committed window is a heartbeat of the run (src/warehouse/lease.ts)
        seen_at: seenAt,
      });
      return { sessions, messages, rejects, newStatuses };
    },
    (cause) => {
      const what =
        `the window ${new Date(batch.from).toISOString()} – ${new Date(batch.to).toISOString()} ` +
        `of project ${batch.project} (run ${batch.runId})`;
      // DuckDB's advice (SET threads, SET memory_limit) is not this tool's: the caller halves the window
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
    },
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

async function stageBatch(connection: DuckDBConnection, batch: WindowBatch): Promise<void> {
  await stageRows(connection, STAGING_TABLES.sessions, batch.sessions);
  await stageRows(connection, STAGING_TABLES.messages, batch.messages);
  await stageRows(connection, STAGING_TABLES.sessionLabels, batch.sessionLabels);
  await stageRows(connection, STAGING_TABLES.messageLabels, batch.messageLabels);
  await stageRows(connection, STAGING_TABLES.sessionData, batch.sessionData);
  await stageRows(
    connection,
    STAGING_TABLES.sessionDataFor,
    batch.sessionDataFor.map((session_id) => ({ project: batch.project, session_id })),
  );
  await stageRows(connection, STAGING_TABLES.clients, batch.clients);
  await stageRows(connection, STAGING_TABLES.rejects, batch.rejects);
}
