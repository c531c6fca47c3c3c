// The contract between the scheduler and a job (jobs/<id>.ts): what a job is, what one run of it gets (the
// injected world: config, clock, logger, warehouse access, the abort signal of a shutdown) and what it returns.
// Invariant: the scheduler and `reporter-etl run <job>` call the same `run(ctx)`; only `ctx.trigger` differs.
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { UseWarehouse } from '../manage/use-warehouse.js';
import type { AlertChange } from '../settings/alert-rules.js';

export type JobTrigger = 'schedule' | 'manual';

/** A setting a job needs and does not have: its name and what to set it to. */
export interface MissingSetting {
  setting: string;
  /** What the setting holds, for the message: "the folder of the Parquet lake". */
  meaning: string;
}

export interface JobContext {
  config: Config;
  /** Child logger bound with { job, runId, trigger }. */
  log: Logger;
  /** The run's id in etl_runs (jobs that record their own runs, like sync, write theirs instead). */
  runId: string;
  trigger: JobTrigger;
  /** Epoch ms; tests pass a fixed clock. */
  now: () => number;
  /** Opens the warehouse for one step and closes it after (waits REPORTER_LOCK_WAIT_SECONDS for another process). */
  useWarehouse: UseWarehouse;
  /** Aborted when the process is asked to stop: finish the current step or roll it back, then return. */
  signal: AbortSignal;
}

export interface JobResult {
  status: 'success' | 'partial' | 'failed';
  /** One line for people: what the run did. */
  summary: string;
  /** The error of a failed run (also written to etl_runs.error). */
  error?: string;
  /** The exit code of `reporter-etl run <job>` (0 ok, 1 failed, 3 partial, 75 try again later). */
  exitCode: number;
  /** What the run did, for `run <job> --json` and the log (files written, rows deleted, per-project runs). */
  details?: unknown;
  /** Rows the job wrote to etl_runs itself (jobs with recordsOwnRuns); the runner writes none for them. */
  recordedRunIds?: readonly string[];
  /** The report the run wrote (daily-report): in its notification. */
  reportPath?: string;
  /** Alert rules that changed state after the run (sync): in its notification, and `runs` shows them. */
  alerts?: readonly AlertChange[];
}

export interface Job {
  /** Lower-case words joined by dashes; REPORTER_SCHEDULE_<ID> overrides the schedule. */
  id: string;
  description: string;
  /** node-cron expression, read in REPORTER_TZ. */
  defaultSchedule: string;
  /** It talks to the Reporter API: needs REPORTER_TOKEN (or REPORTER_CONFIG). */
  needsApi: boolean;
  /**
   * The setting without which the job has nothing to do (REPORTER_LAKE_DIR, ...), when it is missing. Such a
   * job is off: `schedule --list` shows "off: needs <setting>", `schedule` never runs it (no run record),
   * `run <job>` exits 2 naming the setting. Undefined: the job needs nothing beyond needsApi.
   */
  missingSetting?(config: Config): MissingSetting | undefined;
  /**
   * It writes its own etl_runs rows (sync: one per project, with this job id and trigger): the runner
   * then records nothing for a run that returned, so `runs --job <id>` shows each run once.
   */
  recordsOwnRuns?: boolean;
  run(ctx: JobContext): Promise<JobResult>;
}
