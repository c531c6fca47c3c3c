// The etl_runs table: a row per run, started as `running`, counted up by every committed window and
// finished with its status. A run whose process died (kill -9, power loss) is closed as `failed` by the
// next run started on the same host, so no row stays `running` forever.
import { hostname } from 'node:os';
import type { DuckDBConnection } from '@duckdb/node-api';
import { queryRows, runStatement } from './query-rows.js';
import type { ListRunsOptions, PlainRow, RunFinish, RunRecord, RunStart, RunStatus } from './warehouse.js';
import { WAREHOUSE_SQL as SQL } from './warehouse-sql.js';

/** Runs started by this process: with PID 1 in containers, a dead run's PID can be our own. */
const startedHere = new Set<string>();

export async function startRun(connection: DuckDBConnection, run: RunStart, now: number): Promise<void> {
  const host = hostname();
  await closeAbandonedRuns(connection, host, now);
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

export async function finishRun(
  connection: DuckDBConnection,
  runId: string,
  result: RunFinish,
  now: number,
): Promise<void> {
  await runStatement(connection, SQL.finishRun, {
    run_id: runId,
    status: result.status,
    error: result.error ?? null,
    duration_ms: Math.round(result.durationMs),
    finished_at: new Date(now),
    requests: result.requests ?? null,
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

/** Marks as failed the `running` runs of this host whose process no longer runs them. */
async function closeAbandonedRuns(connection: DuckDBConnection, host: string, now: number): Promise<void> {
  const running = await queryRows(connection, SQL.selectRunningRunsOfHost, { host });
  for (const row of running) {
    const runId = String(row['run_id']);
    const pid = typeof row['pid'] === 'number' ? row['pid'] : undefined;
    const abandoned =
      pid === process.pid ? !startedHere.has(runId) : pid === undefined || !isProcessAlive(pid);
    if (!abandoned) continue;
    await runStatement(connection, SQL.failAbandonedRun, {
      run_id: runId,
      finished_at: new Date(now),
      error: `abandoned: its process (PID ${pid ?? 'unknown'} on ${host}) ended without finishing the run`,
    });
  }
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
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
  };
}
