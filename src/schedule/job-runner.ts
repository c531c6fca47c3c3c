// Runs jobs one at a time, each recorded in etl_runs with its job id and trigger. A run of a job that is
// already running or waiting is skipped and logged (schedule ticks, catch-up and manual runs alike); other
// jobs wait their turn, so two jobs of one process never compete for the warehouse file. A failed run is
// logged and recorded with its error, and the runner goes on. stop() starts no new run and aborts the current one.
// After a run that failed, a daily-report that completed or a run whose alerts changed, it sends the run's
// notification to REPORTER_PUSHGATE_URL and records its outcome in etl_runs.notification (never the run's status).
import { randomUUID } from 'node:crypto';
import type { Config } from '../config.js';
import { notificationOf } from '../destinations/pushgate/notification-event.js';
import type { NotificationOutcome } from '../destinations/pushgate/send-notification.js';
import { EtlError, EXIT } from '../errors.js';
import type { Logger } from '../log.js';
import type { UseWarehouse } from '../manage/use-warehouse.js';
import { beatRun } from '../warehouse/etl-runs.js';
import { type Heartbeat, type LeaseTiming, leaseTiming, startHeartbeat } from '../warehouse/lease.js';
import {
  type FinishedRun,
  insertFinishedRun,
  makeRunId,
  RUN_HISTORY_SQL,
  recordNotification,
} from '../warehouse/run-history.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import type { Job, JobResult, JobTrigger } from './job.js';

export interface JobRunnerOptions {
  config: Config;
  log: Logger;
  useWarehouse: UseWarehouse;
  now?: () => number;
  /** Test hook: the heartbeat interval of the runs it records (default LEASE, src/warehouse/lease.ts). */
  lease?: Partial<LeaseTiming>;
  /** Test hook: the backoff base of a notification's retries (ms). */
  notifyBackoffBaseMs?: number;
}

export interface SkippedRun {
  ran: false;
  job: string;
  trigger: JobTrigger;
  reason: string;
}

export interface FinishedJobRun {
  ran: true;
  job: string;
  trigger: JobTrigger;
  runId: string;
  startedAt: number;
  durationMs: number;
  status: JobResult['status'];
  summary: string;
  error: string | null;
  exitCode: number;
  /** The run was told to stop (shutdown) before it finished. */
  interrupted: boolean;
  /** Written to etl_runs now (false: kept in memory and written by the next run that opens the warehouse). */
  recorded: boolean;
  /** Its Pushgate notification (REPORTER_PUSHGATE_URL): `sent`, `failed: <reason>`; absent when none was due. */
  notification?: NotificationOutcome;
  details?: unknown;
}

export type RunOutcome = SkippedRun | FinishedJobRun;

type DeferredWrite = { describe: string; write: (warehouse: Warehouse) => Promise<void> };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const isLocked = (error: unknown) => error instanceof EtlError && error.code === 'warehouse.locked';

export class JobRunner {
  private readonly controller = new AbortController();
  /** Jobs running or waiting to run. */
  private readonly pending = new Set<string>();
  private current: string | undefined;
  private tail: Promise<unknown> = Promise.resolve();
  private deferred: DeferredWrite[] = [];
  private readonly now: () => number;

  constructor(private readonly options: JobRunnerOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Aborted by stop(): jobs receive it as ctx.signal. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get stopping(): boolean {
    return this.controller.signal.aborted;
  }

  /** The job running now, if any. */
  get running(): string | undefined {
    return this.current;
  }

  /** Writes the runner could not make yet (the warehouse was locked); written by the next run. */
  get unrecorded(): number {
    return this.deferred.length;
  }

  /** Runs `job` once, after the runs already waiting; skipped when it is already running or waiting. */
  run(job: Job, trigger: JobTrigger): Promise<RunOutcome> {
    if (this.stopping) return Promise.resolve(this.skip(job, trigger, 'the process is stopping'));
    if (this.pending.has(job.id))
      return Promise.resolve(
        this.skip(
          job,
          trigger,
          this.current === job.id
            ? 'a run of this job is still running'
            : 'a run of this job is already waiting to start',
        ),
      );
    this.pending.add(job.id);
    const outcome = this.tail
      .then(() => this.execute(job, trigger))
      .finally(() => this.pending.delete(job.id));
    this.tail = outcome.catch(() => undefined);
    return outcome;
  }

  /** No new run starts; the running one sees its signal aborted; waiting ones are skipped. */
  stop(reason = 'stopping'): void {
    if (!this.stopping) this.controller.abort(new EtlError('job.interrupted', reason, { kind: 'transient' }));
  }

  /** Resolves when no run is running or waiting. */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await this.tail;
  }

  private skip(job: Job, trigger: JobTrigger, reason: string): SkippedRun {
    this.options.log.warn({ job: job.id, trigger, reason }, 'job run skipped');
    return { ran: false, job: job.id, trigger, reason };
  }

  private async execute(job: Job, trigger: JobTrigger): Promise<RunOutcome> {
    if (this.stopping) return this.skip(job, trigger, 'the process is stopping');
    const { config, useWarehouse } = this.options;
    const startedAt = this.now();
    const runId = makeRunId(startedAt, randomUUID());
    // a job that records its own runs binds its own job and runId to its log lines (pino repeats duplicate keys)
    const jobLog = this.options.log.child(job.recordsOwnRuns ? { trigger } : { job: job.id, runId, trigger });
    const log = job.recordsOwnRuns ? jobLog.child({ job: job.id }) : jobLog;
    this.current = job.id;
    try {
      await this.writeDeferred(log);
      let result: JobResult;
      let thrown: unknown;
      let started = false;
      let heartbeat: Heartbeat | undefined;
      try {
        if (!job.recordsOwnRuns) {
          await useWarehouse((w) => w.startRun({ runId, project: null, job: job.id, trigger }));
          started = true;
          // the run's lease: a short open-write-close every beat (a beat the job's own use blocks is skipped)
          heartbeat = startHeartbeat(
            () => useWarehouse((w) => beatRun(w, runId, this.now())),
            leaseTiming(this.options.lease).beatMs,
            log,
          );
        }
        log.info('job started');
        result = await job.run({
          config,
          log: jobLog,
          runId,
          trigger,
          now: this.now,
          useWarehouse,
          signal: this.signal,
        });
      } catch (error) {
        thrown = error;
        const message = messageOf(error);
        result = {
          status: 'failed',
          summary: `failed: ${message}`,
          error: message,
          exitCode: error instanceof EtlError ? error.exitCode : EXIT.failed,
        };
      } finally {
        await heartbeat?.stop();
      }
      const finishedAt = this.now();
      const error = result.status === 'failed' ? (result.error ?? result.summary) : null;
      const finished: FinishedRun = {
        runId,
        project: null,
        job: job.id,
        trigger,
        startedAt,
        finishedAt,
        status: result.status,
        error,
      };
      let recorded = true;
      if (started) {
        recorded = await this.record(log, {
          describe: `finish of run ${runId}`,
          now: (w) =>
            w.finishRun(runId, { status: finished.status, error, durationMs: finishedAt - startedAt }),
          // written later, it keeps the run's own finish time
          later: (w) =>
            w.query(RUN_HISTORY_SQL.finishRunAt, {
              run_id: runId,
              status: finished.status,
              error,
              duration_ms: Math.round(finishedAt - startedAt),
              finished_at: new Date(finishedAt),
            }),
          deferAtOnce: isLocked(thrown),
        });
      } else if (!job.recordsOwnRuns || (result.recordedRunIds ?? []).length === 0) {
        // no row was written for this run (its start could not be recorded, or the job failed before it could)
        recorded = await this.record(log, {
          describe: `failed run ${runId}`,
          now: (w) => insertFinishedRun(w, finished),
          later: (w) => insertFinishedRun(w, finished),
          deferAtOnce: isLocked(thrown),
        });
      }
      const outcome: FinishedJobRun = {
        ran: true,
        job: job.id,
        trigger,
        runId: job.recordsOwnRuns && result.recordedRunIds?.length ? result.recordedRunIds[0]! : runId,
        startedAt,
        durationMs: finishedAt - startedAt,
        status: result.status,
        summary: result.summary,
        error,
        exitCode: result.exitCode,
        interrupted: this.stopping,
        recorded,
        ...(result.details === undefined ? {} : { details: result.details }),
      };
      const notification = await this.notify(log, outcome, finishedAt, result, recorded);
      if (notification !== undefined) outcome.notification = notification;
      const fields = {
        ...(job.recordsOwnRuns ? { runIds: result.recordedRunIds ?? [] } : {}),
        status: outcome.status,
        durationMs: outcome.durationMs,
        summary: outcome.summary,
        ...(this.stopping ? { interrupted: true } : {}),
      };
      if (result.status === 'failed') log.error({ ...fields, err: error }, 'job failed');
      else log.info(fields, 'job finished');
      return outcome;
    } finally {
      this.current = undefined;
    }
  }

  /**
   * Sends the run's notification when one is due and REPORTER_PUSHGATE_URL is set, and records its outcome
   * in etl_runs (of every row of the run). A notification that cannot be delivered never changes the run.
   */
  private async notify(
    log: Logger,
    outcome: FinishedJobRun,
    finishedAt: number,
    result: JobResult,
    recorded: boolean,
  ): Promise<NotificationOutcome | undefined> {
    const { config } = this.options;
    if (!config.pushgate.notify) return undefined;
    const event = notificationOf({
      runId: outcome.runId,
      job: outcome.job,
      status: outcome.status,
      startedAt: outcome.startedAt,
      finishedAt,
      summary: outcome.summary,
      reportPath: result.reportPath,
      alerts: result.alerts,
    });
    if (!event) return undefined;
    // the Pushgate client (undici) is loaded when a notification is sent, not by every command that runs a job
    const { sendNotification } = await import('../destinations/pushgate/send-notification.js');
    const sent = await sendNotification(config, event, log, {
      ...(this.options.notifyBackoffBaseMs === undefined
        ? {}
        : { backoffBaseMs: this.options.notifyBackoffBaseMs }),
    });
    if (sent === undefined) return undefined;
    const runIds = result.recordedRunIds?.length ? [...result.recordedRunIds] : [outcome.runId];
    const write = (w: Warehouse) => recordNotification(w, runIds, sent);
    if (recorded)
      await this.record(log, {
        describe: `notification of run ${outcome.runId}`,
        now: write,
        later: write,
        deferAtOnce: false,
      });
    else this.deferred.push({ describe: `notification of run ${outcome.runId}`, write });
    return sent;
  }

  /** Writes now, or (when the warehouse is locked) keeps the write for the next run. */
  private async record(
    log: Logger,
    write: {
      describe: string;
      now: (w: Warehouse) => Promise<unknown>;
      later: (w: Warehouse) => Promise<unknown>;
      deferAtOnce: boolean;
    },
  ): Promise<boolean> {
    if (!write.deferAtOnce) {
      try {
        await this.options.useWarehouse(write.now);
        return true;
      } catch (error) {
        log.warn({ err: messageOf(error) }, `could not record the ${write.describe}; the next run will`);
      }
    }
    this.deferred.push({ describe: write.describe, write: async (w) => void (await write.later(w)) });
    return false;
  }

  private async writeDeferred(log: Logger): Promise<void> {
    if (this.deferred.length === 0) return;
    const writes = this.deferred;
    try {
      await this.options.useWarehouse(async (w) => {
        while (writes.length > 0) {
          await writes[0]!.write(w);
          writes.shift();
        }
      });
      log.info('recorded the runs that could not be recorded earlier');
    } catch (error) {
      log.warn({ err: messageOf(error), left: writes.length }, 'could not record earlier runs yet');
    }
  }
}
