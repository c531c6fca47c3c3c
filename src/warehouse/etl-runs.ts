// The etl_runs table: a row per run, started as `running`, counted up by every committed window and
// finished with its status. A running run holds a lease: its owner (host, PID, boot id, start time) and a
// heartbeat_at refreshed by every committed window and by a timer of its process (src/warehouse/lease.ts).
// The next run started closes as `failed` (abandoned) a run whose owner is known dead (same host: its PID gone,
// a zombie, another process now; src/process/process-identity.ts) at once, and any other whose heartbeat is stale (it
// hangs, or ran on another host), so no row stays `running` forever and a dead owner is never called running.
import type { DuckDBConnection } from '@duckdb/node-api';
import { EtlError } from '../errors.js';
import { judgeOwner, type ProcessOwner, thisProcess } from '../process/process-identity.js';
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
  const owner = thisProcess();
  await closeAbandonedRuns(connection, now, staleMs);
  if (run.exclusive && run.project !== null) await refuseLiveRun(connection, run, now, staleMs);
  await runStatement(connection, SQL.insertRun, {
    run_id: run.runId,
    project: run.project,
    job: run.job,
    trigger: run.trigger,
    started_at: new Date(now),
    pid: owner.pid,
    host: owner.host,
    boot_id: owner.bootId,
    start_ticks: owner.startTicks,
  });
  startedHere.add(run.runId);
}

/**
 * Throws `sync.already_running` (transient: exit 75) when another run of the same job and project holds a fresh
 * lease (a dead owner's run was closed just before). The check and the insert that follows run under the
 * warehouse's write lock, so two processes starting at once cannot both pass it.
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
  // a live owner of this host is known to run; of another host, only its heartbeat says so
  const known = judgeOwner(ownerOfRun(live)).state === 'alive';
  const host = known ? 'this host' : (live['host'] ?? 'an unknown host');
  const until = known ? '' : `, or after ${Math.round(staleMs / 1000)} s without its heartbeat if it died`;
  throw new EtlError(
    'sync.already_running',
    `another ${run.job} of project ${run.project} is running: run ${String(live['run_id'])} (PID ${live['pid'] ?? '?'} ` +
      `on ${host}, started ${since}); try again when it has finished (reporter-etl runs shows it)${until}`,
    { kind: 'transient' },
  );
}

/** The owner recorded in an etl_runs row. */
function ownerOfRun(row: PlainRow): ProcessOwner {
  const text = (key: string): string | null =>
    row[key] === null || row[key] === undefined ? null : String(row[key]);
  const number = (key: string): number | null =>
    row[key] === null || row[key] === undefined ? null : Number(row[key]);
  return {
    host: text('host'),
    pid: number('pid'),
    bootId: text('boot_id'),
    startTicks: number('start_ticks'),
  };
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
    concurrency_reached: result.concurrencyReached ?? null,
    throttled: result.throttled ?? null,
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
  // a run still `running` whose process is known dead is shown as the next run will close it, never as running
  return rows.map((row) => readRunRecord(presentDeadOwnerRun(row)));
}

/** A `running` row whose owner is known dead, as its next run will close it (failed, abandoned); others as they are. */
function presentDeadOwnerRun(row: PlainRow): PlainRow {
  if (row['status'] !== 'running' || startedHere.has(String(row['run_id']))) return row;
  const verdict = judgeOwner(ownerOfRun(row));
  return verdict.state === 'dead'
    ? { ...row, status: 'failed', error: deadOwnerError(row, verdict.reason) }
    : row;
}

/** The error of a run whose owner died: "abandoned: its process (PID 4242 on host) is no longer running; …". */
function deadOwnerError(row: PlainRow, reason: string): string {
  return `abandoned: its process (PID ${row['pid'] ?? 'unknown'} on ${row['host'] ?? 'an unknown host'}) ${reason}; the run was not finished`;
}

export async function countRejects(connection: DuckDBConnection, runId: string): Promise<number> {
  const [row] = await queryRows(connection, SQL.countRejects, { run_id: runId });
  return Number(row?.['n'] ?? 0);
}

/**
 * Marks as failed (abandoned) the `running` runs of other processes whose owner is known dead (this host: PID
 * gone, a zombie, another process now), at once, and those (of any host) whose heartbeat is older than `staleMs`.
 */
async function closeAbandonedRuns(connection: DuckDBConnection, now: number, staleMs: number): Promise<void> {
  const running = await queryRows(connection, SQL.selectRunningRuns);
  for (const row of running) {
    const runId = String(row['run_id']);
    if (startedHere.has(runId)) continue;
    const error = abandonedReason(row, now, staleMs);
    if (error === undefined) continue;
    await runStatement(connection, SQL.failAbandonedRun, {
      run_id: runId,
      finished_at: new Date(now),
      error,
    });
  }
}

/** Why a running run is abandoned (its `error`), or undefined while its owner may still be working on it. */
function abandonedReason(row: PlainRow, now: number, staleMs: number): string | undefined {
  const pid = row['pid'] ?? 'unknown';
  const host = row['host'] ?? 'an unknown host';
  const verdict = judgeOwner(ownerOfRun(row));
  if (verdict.state === 'dead') return deadOwnerError(row, verdict.reason);
  const beatAt = typeof row['heartbeat_at'] === 'number' ? row['heartbeat_at'] : undefined;
  if (beatAt !== undefined && now - beatAt <= staleMs) return undefined;
  const beat = beatAt === undefined ? '?' : new Date(beatAt).toISOString();
  return `abandoned: its process (PID ${pid} on ${host}) stopped its heartbeat at ${beat} without finishing the run`;
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
    concurrencyReached: maybe('concurrency_reached'),
    throttled: maybe('throttled'),
    unknownValues:
      typeof row['unknown_values'] === 'string'
        ? (JSON.parse(row['unknown_values']) as Record<string, Record<string, number>>)
        : null,
  };
}
