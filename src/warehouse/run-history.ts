// The scheduler's reads and writes of etl_runs beyond startRun/finishRun: the last successful run of each job
// (catch-up), and a finished run written in one statement with its own times (a run that could not open
// the warehouse is recorded at the next run that can); used by the scheduler, the sync job and runSync.
import { hostname } from 'node:os';
import type { Warehouse } from './warehouse.js';

export const RUN_HISTORY_SQL = {
  lastSuccesses:
    "SELECT job, max(started_at) AS last_success FROM etl_runs WHERE status IN ('success', 'partial') GROUP BY job",
  insertFinishedRun:
    'INSERT INTO etl_runs (run_id, project, job, trigger, started_at, finished_at, status, duration_ms, error, pid, host, requests) ' +
    'VALUES ($run_id, $project, $job, $trigger, $started_at, $finished_at, $status, $duration_ms, $error, $pid, $host, $requests)',
  finishRunAt:
    'UPDATE etl_runs SET status = $status, error = $error, duration_ms = $duration_ms, finished_at = $finished_at ' +
    'WHERE run_id = $run_id',
  countRun: 'SELECT count(*) AS n FROM etl_runs WHERE run_id = $run_id',
  setNotification:
    'UPDATE etl_runs SET notification = $notification WHERE run_id IN (SELECT unnest($run_ids::VARCHAR[]))',
} as const;

/** Records the outcome of the runs' notification (`sent` or `failed: <reason>`) in etl_runs. */
export async function recordNotification(
  warehouse: Warehouse,
  runIds: readonly string[],
  notification: string,
): Promise<void> {
  await warehouse.query(RUN_HISTORY_SQL.setNotification, { run_ids: [...runIds], notification });
}

/** job id -> start (epoch ms) of its latest run that ended success or partial (any trigger). */
export async function readLastSuccesses(warehouse: Warehouse): Promise<Map<string, number>> {
  const rows = await warehouse.query(RUN_HISTORY_SQL.lastSuccesses);
  return new Map(rows.map((r) => [String(r['job']), Number(r['last_success'])]));
}

export interface FinishedRun {
  runId: string;
  project: string | null;
  job: string;
  trigger: string;
  startedAt: number;
  finishedAt: number;
  status: 'success' | 'partial' | 'failed';
  error: string | null;
  /** The requests it made before it failed (a sync refused at its first), 0 when none is said. */
  requests?: number;
}

/** Writes a run that is already over (it never had a `running` row). */
export async function insertFinishedRun(warehouse: Warehouse, run: FinishedRun): Promise<void> {
  await warehouse.query(RUN_HISTORY_SQL.insertFinishedRun, {
    run_id: run.runId,
    project: run.project,
    job: run.job,
    trigger: run.trigger,
    started_at: new Date(run.startedAt),
    finished_at: new Date(run.finishedAt),
    status: run.status,
    duration_ms: Math.round(run.finishedAt - run.startedAt),
    error: run.error,
    pid: process.pid,
    host: hostname(),
    requests: run.requests ?? 0,
  });
}

export async function hasRun(warehouse: Warehouse, runId: string): Promise<boolean> {
  const [row] = await warehouse.query(RUN_HISTORY_SQL.countRun, { run_id: runId });
  return Number(row?.['n'] ?? 0) > 0;
}

/** A run id that sorts by time and says when it started: 2026-11-21T07-00-00-012Z-1a2b3c4d. */
export function makeRunId(started: number, random: string): string {
  return `${new Date(started).toISOString().replace(/[:.]/g, '-')}-${random.slice(0, 8)}`;
}
