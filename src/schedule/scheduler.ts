// The scheduler: one cron ticker per enabled job (node-cron, in REPORTER_TZ) whose tick hands the job to the
// JobRunner, the catch-up at start, and stop() within a grace period. The decisions live in the runner and in
// decideCatchUp; the tickers only fire, so tests pass their own ticker factory and call tick() directly.
import { schedule } from 'node-cron';
import { EtlError } from '../errors.js';
import type { Logger } from '../log.js';
import type { UseWarehouse } from '../manage/use-warehouse.js';
import { readLastSuccesses } from '../warehouse/run-history.js';
import { type CatchUpDecision, decideCatchUp } from './catch-up.js';
import type { Job } from './job.js';
import type { JobRunner, RunOutcome } from './job-runner.js';

export interface ScheduledJob {
  job: Job;
  /** The cron expression in force. */
  expression: string;
  /** The setting that replaced the default schedule (REPORTER_SCHEDULE_SYNC, ...); null: the default. */
  setting: string | null;
  /** Listed in REPORTER_JOBS (or every job when it is unset) and not lacking a setting it needs. */
  enabled: boolean;
  /** The setting the job needs and does not have (then it is not enabled); null: nothing missing. */
  needs: string | null;
}

export interface CronTicker {
  stop(): void;
}

/** Starts calling onTick at the expression's fire times in the zone. */
export type StartTicker = (
  expression: string,
  timeZone: string,
  name: string,
  onTick: () => void,
) => CronTicker;

/**
 * node-cron's ticker. Overlap is decided by the JobRunner (which logs the skip and covers catch-up and
 * manual runs too), so the tick returns at once and node-cron's own noOverlap never has to act.
 */
export const nodeCronTicker: StartTicker = (expression, timeZone, name, onTick) => {
  const task = schedule(expression, () => onTick(), { timezone: timeZone, name });
  return { stop: () => void task.destroy() };
};

export interface SchedulerOptions {
  jobs: readonly ScheduledJob[];
  runner: JobRunner;
  log: Logger;
  timeZone: string;
  useWarehouse: UseWarehouse;
  now?: () => number;
  startTicker?: StartTicker;
}

export interface StopResult {
  /** The run in flight ended within the grace period (false: it was left behind). */
  clean: boolean;
  /** The job still running when the grace period ran out. */
  leftRunning?: string;
}

export class Scheduler {
  private tickers: CronTicker[] = [];
  private readonly now: () => number;
  private readonly jobs: readonly ScheduledJob[];

  constructor(private readonly options: SchedulerOptions) {
    this.now = options.now ?? Date.now;
    this.jobs = options.jobs.filter((j) => j.enabled);
  }

  /** Starts the tickers, then (unless told not to) starts the runs missed while no scheduler was up. */
  async start(options: { catchUp?: boolean } = {}): Promise<CatchUpDecision[]> {
    const startTicker = this.options.startTicker ?? nodeCronTicker;
    for (const { job, expression } of this.jobs)
      this.tickers.push(
        startTicker(expression, this.options.timeZone, job.id, () => {
          void this.tick(job.id);
        }),
      );
    this.options.log.info(
      {
        timeZone: this.options.timeZone,
        jobs: this.jobs.map((j) => `${j.job.id} (${j.expression})`),
      },
      'scheduler started',
    );
    if (options.catchUp === false) return [];
    return this.catchUp();
  }

  /** What a cron tick does: one scheduled run of the job (skipped while it is still running). */
  tick(jobId: string): Promise<RunOutcome> {
    const scheduled = this.jobs.find((j) => j.job.id === jobId);
    if (!scheduled) throw new EtlError('schedule.unknown_job', `no enabled job "${jobId}"`);
    return this.options.runner.run(scheduled.job, 'schedule');
  }

  /** Runs, once, every enabled job whose last success is older than one interval (or that never succeeded). */
  async catchUp(): Promise<CatchUpDecision[]> {
    let lastSuccesses: Map<string, number>;
    try {
      lastSuccesses = await this.options.useWarehouse(readLastSuccesses);
    } catch (error) {
      this.options.log.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'catch-up skipped: the run history could not be read',
      );
      return [];
    }
    const decisions = decideCatchUp(
      this.jobs.map((j) => ({ jobId: j.job.id, expression: j.expression })),
      lastSuccesses,
      this.now(),
      this.options.timeZone,
    );
    for (const d of decisions) {
      this.options.log.info({ job: d.jobId, due: d.due, reason: d.reason }, 'catch-up');
      if (d.due) void this.tick(d.jobId);
    }
    return decisions;
  }

  /** Stops the tickers and the runner, then waits up to graceMs for the run in flight to end. */
  async stop(graceMs: number): Promise<StopResult> {
    for (const t of this.tickers) t.stop();
    this.tickers = [];
    const { runner } = this.options;
    runner.stop('the scheduler is stopping');
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([
      runner.idle().then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), graceMs);
      }),
    ]);
    clearTimeout(timer);
    if (ended) return { clean: true };
    const leftRunning = runner.running;
    return leftRunning === undefined ? { clean: false } : { clean: false, leftRunning };
  }
}
