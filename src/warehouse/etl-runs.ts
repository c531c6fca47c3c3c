// The etl_runs table: a row per run, started as `running`, counted up by every committed window and
// finished with its status. A running run holds a lease: its heartbeat_at is refreshed by every committed
// window and by a timer of its process (src/warehouse/lease.ts). A run whose heartbeat is stale (its process
// died, hangs as a zombie, or ran in a container since recreated on another host) is closed as `failed` by
// the next run started, on any host, so no row stays `running` forever; a PID is never trusted for this.
import { hostname } from 'node:os';
import type { DuckDBConnection } from '@duckdb/node-api';
import { EtlError } from '../errors.js';
import { LEASE } from './lease.js';
import { queryRows, runStatement } from './query-rows.js';
import type {
  ListRunsOptions,
  PlainRow,
  RunFinish,
  RunRecord,
  RunStart,
  RunStatus,
  Warehouse,
} from './warehouse.js';
import { WAREHOUSE_SQL as SQL } from './warehouse-sql.js';

/** Runs started by this process: never closed as abandoned by it, whatever their heartbeat says. */
const startedHere = new Set<string>();

export async function startRun(
  connection: DuckDBConnection,
  run: RunStart,
  now: number,
  staleMs: number = LEASE.staleMs,
): Promise<void> {
  const host = hostname();
  await closeAbandonedRuns(connection, now, staleMs);
  if (run.exclusive && run.project !== null) await refuseLiveRun(connection, run, now, staleMs);
  await runStatement(connection, SQL.insertRun, {
    run_id: run.runId,
    project: run.project,
    job: run.job,
    trigger: run.trigger,
    started_at: new Date(now),
    pid: process.pid,
    host,
  });
  startedHere.add(run.runId);
}

/**
 * Throws `sync.already_running` (transient: exit 75) when another run of the same job and project holds a fresh
 * lease. The check and the insert that follows run under the warehouse's write lock, so two processes
 * starting at once cannot both pass it.
 */
async function refuseLiveRun(
  connection: DuckDBConnection,
  run: RunStart,
  now: number,
  staleMs: number,
): Promise<void> {
  const [live] = await queryRows(connection, SQL.selectLiveRunOf, {
    job: run.job,
    project: run.project,
    run_id: run.runId,
    stale_before: new Date(now - staleMs),
  });
  if (!live) return;
  const since = new Date(Number(live['started_at'])).toISOString();
  throw new EtlError(
    'sync.already_running',
    `another ${run.job} of project ${run.project} is running: run ${String(live['run_id'])} (PID ${live['pid'] ?? '?'} ` +
      `on ${live['host'] ?? 'an unknown host'}, started ${since}); try again when it has finished ` +
      `(reporter-etl runs shows it), or after ${Math.round(staleMs / 1000)} s without its heartbeat if it died`,
    { kind: 'transient' },
  );
}

/** Refreshes the heartbeat (lease) of a running run: one short UPDATE through the Warehouse. */
export async function beatRun(warehouse: Warehouse, runId: string, now: number): Promise<void> {
  await warehouse.query(SQL.beatRun, { run_id: runId, now: new Date(now) });
}

export async function finishRun(
  connection: DuckDBConnection,
  runId: string,
  result: RunFinish,
  now: number,
  staleMs: number = LEASE.staleMs,
): Promise<void> {
  // a run that started while a killed one still held its lease closes it at its end, once it is stale
  await closeAbandonedRuns(connection, now, staleMs);
  await runStatement(connection, SQL.finishRun, {
    run_id: runId,
    status: result.status,
    error: result.error ?? null,
    duration_ms: Math.round(result.durationMs),
    finished_at: new Date(now),
    requests: result.requests ?? null,
    unknown_values:
      result.unknownValues === undefined || Object.keys(result.unknownValues).length === 0
        ? null
        : JSON.stringify(result.unknownValues),
  });
  startedHere.delete(runId);
}

export async function listRuns(connection: DuckDBConnection, options: ListRunsOptions): Promise<RunRecord[]> {
  const rows = await queryRows(connection, SQL.selectRuns, {
    project: options.project ?? null,
    job: options.job ?? null,
    limit: Math.max(0, Math.floor(options.limit)),
  });
  return rows.map(readRunRecord);
}

export async function countRejects(connection: DuckDBConnection, runId: string): Promise<number> {
  const [row] = await queryRows(connection, SQL.countRejects, { run_id: runId });
  return Number(row?.['n'] ?? 0);
}

/** Marks as failed the `running` runs (of any host) whose heartbeat is older than `staleMs`. */
async function closeAbandonedRuns(connection: DuckDBConnection, now: number, staleMs: number): Promise<void> {
  const stale = await queryRows(connection, SQL.selectStaleRunningRuns, {
    stale_before: new Date(now - staleMs),
  });
  for (const row of stale) {
    const runId = String(row['run_id']);
    if (startedHere.has(runId)) continue;
    const pid = row['pid'] ?? 'unknown';
    const host = row['host'] ?? 'an unknown host';
    const beat = typeof row['heartbeat_at'] === 'number' ? new Date(row['heartbeat_at']).toISOString() : '?';
    await runStatement(connection, SQL.failAbandonedRun, {
      run_id: runId,
      finished_at: new Date(now),
      error: `abandoned: its process (PID ${pid} on ${host}) stopped its heartbeat at ${beat} without finishing the run`,
    });
  }
}

function readRunRecord(row: PlainRow): RunRecord {
  const text = (key: string): string | null => (row[key] === null ? null : String(row[key]));
  const count = (key: string): number => Number(row[key] ?? 0);
  const maybe = (key: string): number | null => (row[key] === null ? null : Number(row[key]));
  return {
    runId: String(row['run_id']),
    project: text('project'),
    job: String(row['job']),
    trigger: text('trigger'),
    startedAt: count('started_at'),
    finishedAt: maybe('finished_at'),
    status: String(row['status']) as RunStatus,
    windows: count('windows'),
    sessions: count('sessions'),
    messages: count('messages'),
    requests: count('requests'),
    rejects: count('rejects'),
    durationMs: maybe('duration_ms'),
    error: text('error'),
    pid: maybe('pid'),
    host: text('host'),
    notification: text('notification'),
    unknownValues:
      typeof row['unknown_values'] === 'string'
        ? (JSON.parse(row['unknown_values']) as Record<string, Record<string, number>>)
        : null,
  };
}
