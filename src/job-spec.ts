// A job a source or destination unit offers, declared (id, schedule, run): generic over the warehouse type so
// both contracts (src/sources/source-unit.ts, src/destinations/destination-unit.ts) share one shape;
// jobs/registry.ts adapts it into a scheduler Job (src/schedule/job.ts's JobContext and JobResult fit it).
import type { Config } from './config.js';
import type { Logger } from './log.js';

/** What one run of a job gets: the injected world. */
export interface JobSpecContext<W> {
  readonly config: Config;
  /** Bound with { job, runId, trigger }. */
  readonly log: Logger;
  /** Epoch ms; tests pass a fixed clock. */
  readonly now: () => number;
  readonly trigger: 'schedule' | 'manual';
  /** Aborted when the process is asked to stop. */
  readonly signal: AbortSignal;
  /** The run's id in etl_runs. */
  readonly runId: string;
  /** Opens the warehouse for one step and closes it after. */
  readonly useWarehouse: <T>(fn: (warehouse: W) => Promise<T>) => Promise<T>;
}

/** What a job run returns. */
export interface JobSpecResult {
  readonly status: 'success' | 'partial' | 'failed';
  readonly summary: string;
  readonly error?: string;
  /** 0 ok, 1 failed, 3 partial, 75 try again later. */
  readonly exitCode: number;
  readonly details?: unknown;
  readonly recordedRunIds?: readonly string[];
}

export interface JobSpec<W> {
  /** Lower-case words joined by dashes; REPORTER_SCHEDULE_<ID> overrides the schedule. */
  readonly id: string;
  readonly describe: string;
  /** node-cron expression, read in REPORTER_TZ. */
  readonly defaultSchedule: string;
  /** It talks to the Reporter API (needs REPORTER_TOKEN or REPORTER_CONFIG). */
  readonly needsApi: boolean;
  /** The setting without which the job is off, when it is missing. */
  readonly missingSetting?: (config: Config) => { setting: string; meaning: string } | undefined;
  /** It writes its own etl_runs rows. */
  readonly recordsOwnRuns?: boolean;
  run(ctx: JobSpecContext<W>): Promise<JobSpecResult>;
}
