// One sync run of one project: works out the range (incremental from the watermark with a look-back,
// a full re-sync, or a backfill that leaves the watermark alone), reads it window by window and commits
// each window with its watermark and run counters in one transaction (while the next window is read; a
// window whose commit runs out of DuckDB's memory is halved and read again), then refreshes the catalogues.
// Killing the process at any moment loses at most the window in flight; the next run reads it again.
import { randomUUID } from 'node:crypto';
import { collectGarbage } from '../collect-garbage.js';
import type { Config, ProjectConfig } from '../config.js';
import { EtlError, EXIT } from '../errors.js';
import type { Logger } from '../log.js';
import {
  countExperimentSessions,
  listExperiments,
  listMessageLabels,
  listSessionLabels,
} from '../reporter/catalogues.js';
import { reporterHttpOptions } from '../reporter/http-options.js';
import { ReporterHttp } from '../reporter/reporter-http.js';
import { resolveProjectName } from '../reporter/resolve-project.js';
import { type UnknownValueCounts, UnknownValues } from '../reporter/unknown-values.js';
import { beatRun } from '../warehouse/etl-runs.js';
import { type Heartbeat, type LeaseTiming, leaseTiming, startHeartbeat } from '../warehouse/lease.js';
import { limitSyncResources } from '../warehouse/limit-sync-resources.js';
import type { WindowBatch } from '../warehouse/rows.js';
import { insertFinishedRun } from '../warehouse/run-history.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import { planWindows, splitWindow, type TimeWindow } from './plan-windows.js';
import { readLookbackWindow } from './read-lookback-window.js';
import { ClientStatusCache } from './read-statuses.js';
import { readWindow, type WindowRead } from './read-window.js';
import { readStoredWindow } from './stored-window.js';

export interface SyncOptions {
  /** Backfill [from, to): the watermark does not move. */
  from?: number;
  to?: number;
  /** Re-read the whole history (REPORTER_HISTORY_DAYS) and move the watermark. */
  full?: boolean;
  trigger?: string;
  job?: string;
}

export interface SyncProgress {
  project: string;
  window: TimeWindow;
  windowsDone: number;
  windowsPlanned: number;
  sessions: number;
  messages: number;
  requests: number;
  rejects: number;
  elapsedMs: number;
}

export interface SyncContext {
  config: Config;
  warehouse: Warehouse;
  log: Logger;
  now?: () => number;
  onProgress?: (p: SyncProgress) => void;
  /** Stops between windows when aborted (graceful shutdown). */
  signal?: AbortSignal;
  /** Test hook: backoff of the HTTP client. */
  backoffBaseMs?: number;
  /** Test hook: the run's heartbeat interval (default LEASE, src/warehouse/lease.ts). */
  lease?: Partial<LeaseTiming>;
}

export interface SyncSummary {
  runId: string;
  project: string;
  status: 'success' | 'partial' | 'failed';
  mode: 'incremental' | 'full' | 'backfill';
  from: string | null;
  to: string | null;
  windows: number;
  sessions: number;
  messages: number;
  requests: number;
  rejects: number;
  /** Values of enumerated fields this version does not know, per field and value (kept as given). */
  unknownValues: UnknownValueCounts;
  durationMs: number;
  watermark: string | null;
  error: string | null;
  /** The EtlError code of a failed run (`sync.already_running`: refused by another sync's lease), else null. */
  errorCode: string | null;
  exitCode: number;
}

/** A sync that another sync of its project kept out (its lease): it did nothing, and nothing follows it. */
export function isRefusedByLease(summary: SyncSummary): boolean {
  return summary.errorCode === 'sync.already_running';
}

const MIN_WINDOW_MS = 60_000;

export async function syncProject(
  ctx: SyncContext,
  projectConfig: ProjectConfig,
  options: SyncOptions = {},
): Promise<SyncSummary> {
  // a smaller DuckDB buffer pool while syncing (with 1,500-session windows: 951k messages in 401 MB peak RSS),
  // and fewer DuckDB threads (limit-sync-resources.ts says why)
  const restoreDefaults = await limitSyncResources(ctx.warehouse, {
    memoryLimit: ctx.config.syncMemoryLimit,
    threads: ctx.config.syncThreads,
  });
  try {
    return await syncProjectRange(ctx, projectConfig, options);
  } finally {
    await restoreDefaults();
  }
}

async function syncProjectRange(
  ctx: SyncContext,
  projectConfig: ProjectConfig,
  options: SyncOptions,
): Promise<SyncSummary> {
  const { config, warehouse } = ctx;
  const now = ctx.now ?? Date.now;
  const started = now();
  const runId = `${new Date(started).toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}`;
  const http = new ReporterHttp(
    reporterHttpOptions(config, projectConfig, { log: ctx.log, backoffBaseMs: ctx.backoffBaseMs }),
  );
  // a job runner's logger names the job already (pino would write the key twice)
  const log = ctx.log.child({
    ...('job' in ctx.log.bindings() ? {} : { job: options.job ?? 'sync' }),
    runId,
  });
  const mode: SyncSummary['mode'] =
    options.from !== undefined || options.to !== undefined
      ? 'backfill'
      : options.full
        ? 'full'
        : 'incremental';
  const totals = { windows: 0, sessions: 0, messages: 0, rejects: 0 };
  const unknownValues = new UnknownValues(log);
  let project = projectConfig.project ?? `project not resolved (${hostOf(projectConfig.baseUrl)})`;
  let range: { from: number; to: number } | undefined;
  let resolvedProject: string | undefined;
  let runStarted = false;
  /** The run's lease between window commits (each commit beats too): long reads, catalogues. */
  let heartbeat: Heartbeat | undefined;
  let finalWatermark: number | undefined;
  /** The commit of the last window read, running while the next window is read. */
  let pendingCommit: Promise<void> | undefined;
  /** The window of pendingCommit. */
  let pendingWindow: TimeWindow | undefined;
  try {
    const end = now() - config.safetyLagMs;
    // a backfill's range is checked before any request
    let backfill: { from: number; to: number } | undefined;
    if (mode === 'backfill') {
      const from = options.from ?? end - config.historyMs;
      const to = Math.min(options.to ?? end, end);
      if (from >= to)
        throw new EtlError(
          'sync.empty_range',
          `--from must be before --to (and before now minus the safety lag); got ${new Date(from).toISOString()} – ${new Date(to).toISOString()}`,
          { kind: 'usage' },
        );
      backfill = { from, to };
    }
    project = await resolveProjectName(http, projectConfig);
    resolvedProject = project;
    if (http.api === 'v1') http.project = project;
    const watermark = await warehouse.getWatermark(project);
    if (backfill) {
      range = backfill;
    } else if (mode === 'full' || watermark === undefined) {
      range = { from: end - config.historyMs, to: end };
    } else {
      if (watermark > end)
        log.warn(
          { watermark: new Date(watermark).toISOString(), end: new Date(end).toISOString() },
          'the watermark is later than now minus the safety lag: is the clock of this machine behind?',
        );
      range = { from: Math.min(watermark - config.lookbackMs, end), to: end };
    }
    await warehouse.startRun({
      runId,
      project,
      job: options.job ?? 'sync',
      trigger: options.trigger ?? 'manual',
      exclusive: true,
    });
    runStarted = true;
    heartbeat = startHeartbeat(() => beatRun(warehouse, runId, now()), leaseTiming(ctx.lease).beatMs, log);
    log.info(
      { project, mode, from: new Date(range.from).toISOString(), to: new Date(range.to).toISOString() },
      'sync started',
    );

    // an incremental run reads its look-back (before the watermark) by its changes, the rest whole
    const lookbackUntil =
      !backfill && mode !== 'full' && watermark !== undefined
        ? Math.max(range.from, Math.min(watermark, range.to))
        : range.from;
    let lookbackByChanges = config.lookbackRead === 'changes';
    /** Windows on the grid; those of the look-back marked (for the changes read, or its whole read after it). */
    const gridWindows = (from: number, to: number, lookback: boolean): TimeWindow[] =>
      planWindows(from, to, config.windowMs).map((w) => (lookback ? { ...w, lookback } : w));
    const queue: TimeWindow[] = [
      // its changes are few: the whole look-back is one window (on the grid again where it must be read whole)
      ...(lookbackByChanges && lookbackUntil > range.from
        ? [{ from: range.from, to: lookbackUntil, lookback: true }]
        : gridWindows(range.from, lookbackUntil, true)),
      ...gridWindows(lookbackUntil, range.to, false),
    ];
    const statusCache = new ClientStatusCache();
    let planned = queue.length;
    let highWater: number = watermark ?? Number.NEGATIVE_INFINITY;
    // The commit of window N runs while window N+1 is read (DuckDB works while the requests wait); a
    // window is committed only after the one before it, so watermarks still move in order.
    const commitInOrder = async (batch: WindowBatch, window: TimeWindow, mark: number | undefined) => {
      await warehouse.commitWindow({ ...batch, ...(mark !== undefined ? { watermark: mark } : {}) });
      if (mark !== undefined) finalWatermark = mark;
      totals.windows++;
      totals.sessions += batch.sessions.length;
      totals.messages += batch.messages.length;
      totals.rejects += batch.rejects.length;
      for (const row of batch.messages) unknownValues.check('message.status', row.status);
      ctx.onProgress?.({
        project,
        window,
        windowsDone: totals.windows,
        windowsPlanned: planned,
        sessions: totals.sessions,
        messages: totals.messages,
        requests: http.requests,
        rejects: totals.rejects,
        elapsedMs: now() - started,
      });
    };
    /** The last watermark committed (or the one the run started from). */
    const committedMark = () => finalWatermark ?? watermark ?? Number.NEGATIVE_INFINITY;
    /**
     * Waits for the commit in flight. One that ran out of DuckDB's memory was rolled back: its window goes back
     * to the queue halved (and `next`, read meanwhile, after it again) and this returns true.
     */
    const settleCommit = async (next?: TimeWindow): Promise<boolean> => {
      const commit = pendingCommit;
      const window = pendingWindow;
      pendingCommit = undefined;
      pendingWindow = undefined;
      if (commit === undefined || window === undefined) return false;
      try {
        await commit;
        return false;
      } catch (error) {
        if (!(error instanceof EtlError && error.code === 'warehouse.commit_out_of_memory')) throw error;
        if (window.to - window.from <= MIN_WINDOW_MS)
          throw new EtlError(
            'sync.window_out_of_memory',
            `${error.message}; windows are halved down to one minute whatever REPORTER_WINDOW_MAX_SESSIONS ` +
              `(${config.windowMaxSessions}) and REPORTER_WINDOW_MAX_BYTES (${config.windowMaxBytes}) allow, and this ` +
              `one still does not fit: raise REPORTER_SYNC_DUCKDB_MEMORY_LIMIT (now ${config.syncMemoryLimit})`,
            { cause: error },
          );
        queue.unshift(...splitWindow(window), ...(next ? [next] : []));
        planned++;
        highWater = committedMark();
        log.info(
          {
            from: new Date(window.from).toISOString(),
            to: new Date(window.to).toISOString(),
            err: error.message,
          },
          'window halved: its commit ran out of memory',
        );
        return true;
      }
    };
    for (;;) {
      if (queue.length === 0) {
        if (await settleCommit()) continue;
        break;
      }
      if (ctx.signal?.aborted) {
        await pendingCommit;
        throw new EtlError(
          'sync.interrupted',
          'stopped by a signal between windows; the next run resumes from the last committed window',
          { kind: 'transient' },
        );
      }
      const window = queue.shift()!;
      const readOptions = {
        project,
        runId,
        from: window.from,
        to: window.to,
        pageSize: config.pageSize,
        maxSessions:
          window.to - window.from > MIN_WINDOW_MS ? config.windowMaxSessions : Number.POSITIVE_INFINITY,
        maxBytes: window.to - window.from > MIN_WINDOW_MS ? config.windowMaxBytes : Number.POSITIVE_INFINITY,
        durationUnit: projectConfig.durationUnit,
        // the window's messages only (messages/filter's MESSAGE_TIME bounds are inclusive)
        knownStatuses: (ids: string[]) => warehouse.latestStatuses(project, ids, window),
        rangeTo: range.to,
        statusCache,
        now,
      };
      let read: WindowRead | undefined;
      if (window.lookback && lookbackByChanges) {
        const stored = await readStoredWindow(warehouse, project, window);
        const changes = await readLookbackWindow(http, { ...readOptions, since: lookbackUntil, stored });
        if ('wholeWindow' in changes) {
          log.info(
            { from: new Date(window.from).toISOString(), why: changes.wholeWindow },
            'look-back window read whole',
          );
          if (changes.refused) lookbackByChanges = false;
          // longer than a grid window: each window of the grid is checked (or read whole) on its own
          if (window.to - window.from > config.windowMs) {
            const grid = gridWindows(window.from, window.to, true);
            queue.unshift(...grid);
            planned += grid.length - 1;
            continue;
          }
        } else read = changes;
      }
      read ??= await readWindow(http, readOptions);
      if (read.tooLarge) {
        queue.unshift(...splitWindow(window));
        planned++;
        log.debug(
          { sessions: read.sessions, bytes: read.bytes, from: new Date(window.from).toISOString() },
          'window split',
        );
        continue;
      }
      // a stop asked while the window was read: its read is dropped (the next run reads it again) and the
      // loop stops at its top, after the window committing now
      if (ctx.signal?.aborted) {
        queue.unshift(window);
        continue;
      }
      const batch = read.batch;
      const records =
        batch.sessions.length + batch.messages.length + batch.clients.length + batch.rejects.length;
      if (batch.rejects.length > 0 && batch.rejects.length / Math.max(1, records) > config.maxRejectShare) {
        const sample = batch.rejects[0]!;
        throw new EtlError(
          'sync.too_many_rejects',
          `${batch.rejects.length} of ${records} records of window ${new Date(window.from).toISOString()} failed validation, above REPORTER_MAX_REJECT_SHARE=${config.maxRejectShare} (first: ${sample.endpoint} ${sample.record_id ?? ''}: ${sample.error})`,
        );
      }
      // the window before must be committed first; if it ran out of memory, it is read again halved, then this one
      if (await settleCommit(window)) continue;
      if (mode !== 'backfill') highWater = Math.max(highWater, window.to);
      // the window before is committed: its rows, pages and DuckDB chunks are garbage now; collecting it
      // keeps the peak at about two windows instead of letting V8 grow its heap (bench/README.md)
      collectGarbage();
      pendingCommit = commitInOrder(batch, window, mode !== 'backfill' ? highWater : undefined);
      pendingWindow = window;
      // awaited before the next commit or at the end; this keeps a failure from being unhandled meanwhile
      pendingCommit.catch(() => undefined);
    }

    await refreshCatalogues(http, warehouse, project, runId, unknownValues);
    const status = totals.rejects > 0 ? 'partial' : 'success';
    const durationMs = now() - started;
    await heartbeat.stop();
    await warehouse.finishRun(runId, {
      status,
      durationMs,
      requests: http.requests,
      unknownValues: unknownValues.toJSON(),
    });
    log.info({ ...totals, requests: http.requests, durationMs, status }, 'sync finished');
    return summary(status, null, status === 'partial' ? EXIT.partial : EXIT.ok);
  } catch (error) {
    // a window still committing when the read of the next one failed counts (or fails) first
    await pendingCommit?.catch(() => undefined);
    const message = http.redact(error instanceof Error ? error.message : String(error));
    const durationMs = now() - started;
    await heartbeat?.stop();
    if (runStarted)
      await warehouse
        .finishRun(runId, {
          status: 'failed',
          error: message,
          durationMs,
          requests: http.requests,
          unknownValues: unknownValues.toJSON(),
        })
        .catch(() => undefined);
    // failed before its row existed (refused token, unreachable API): recorded all the same, under the
    // configured project name when there is one (the project was never resolved otherwise)
    else
      await insertFinishedRun(warehouse, {
        runId,
        project: resolvedProject ?? projectConfig.project ?? null,
        job: options.job ?? 'sync',
        trigger: options.trigger ?? 'manual',
        startedAt: started,
        finishedAt: now(),
        status: 'failed',
        error: message,
      }).catch((recordError: unknown) =>
        log.warn({ err: String(recordError) }, 'could not record the failed run in etl_runs'),
      );
    log.error({ err: message, ...totals }, 'sync failed');
    return error instanceof EtlError
      ? summary('failed', message, error.exitCode, error.code)
      : summary('failed', message, EXIT.failed);
  } finally {
    await heartbeat?.stop();
    await http.close();
  }

  function summary(
    status: SyncSummary['status'],
    error: string | null,
    exitCode: number,
    errorCode: string | null = null,
  ): SyncSummary {
    return {
      runId,
      project,
      status,
      mode,
      from: range ? new Date(range.from).toISOString() : null,
      to: range ? new Date(range.to).toISOString() : null,
      ...totals,
      unknownValues: unknownValues.toJSON(),
      requests: http.requests,
      durationMs: now() - started,
      watermark: finalWatermark === undefined ? null : new Date(finalWatermark).toISOString(),
      error,
      errorCode,
      exitCode,
    };
  }
}

/** The host of a base URL, to name a project that was never resolved (a refused token, an unreachable API). */
function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

async function refreshCatalogues(
  http: ReporterHttp,
  warehouse: Warehouse,
  project: string,
  runId: string,
  unknownValues: UnknownValues,
): Promise<void> {
  const [sessionLabels, messageLabels, experiments, counts] = await Promise.all([
    listSessionLabels(http),
    listMessageLabels(http),
    listExperiments(http),
    countExperimentSessions(http).catch(() => []),
  ]);
  const countOf = new Map(counts.map((c) => [c.key, c.count]));
  for (const e of experiments) unknownValues.check('experiment.status', e.status);
  await warehouse.commitCatalogues({
    project,
    runId,
    sessionLabels: sessionLabels.map((l) => ({
      project,
      label_id: l.id,
      name: l.name,
      priority: l.priority ?? null,
    })),
    messageLabels: messageLabels.map((l) => ({
      project,
      label_id: l.id,
      name: l.name,
      priority: l.priority ?? null,
      group_id: l.group?.id ?? null,
      group_name: l.group?.name ?? null,
      group_priority: l.group?.priority ?? null,
    })),
    experiments: experiments.map((e) => ({
      project,
      experiment_key: e.key,
      description: e.description ?? null,
      status: e.status ?? null,
      branches: e.branches.map((b) => b.key),
      session_count: countOf.get(e.key) ?? null,
    })),
  });
}
