// One sync run of one project: works out the range (incremental from the watermark with a look-back,
// a full re-sync, or a backfill that leaves the watermark alone; its end on the platform's clock once an
// answer's Date header tells it: platform-clock.ts), reads it window by window and commits
// each window with its watermark and run counters in one transaction (while the next window is read; a
// window whose commit runs out of DuckDB's memory is halved and read again), then refreshes the catalogues.
// Killing the process at any moment loses at most the window in flight; the next run reads it again.
import { randomUUID } from 'node:crypto';
import type { Config, ProjectConfig } from '../../config.js';
import { EtlError, EXIT } from '../../errors.js';
import type { Logger } from '../../log.js';
import {
  countExperimentSessions,
  listExperiments,
  listMessageLabels,
  listSessionLabels,
} from '../../platform/reporter/catalogues.js';
import { reporterHttpOptions } from '../../platform/reporter/http-options.js';
import { ReporterHttp } from '../../platform/reporter/reporter-http.js';
import { resolveProjectName } from '../../platform/reporter/resolve-project.js';
import { type UnknownValueCounts, UnknownValues } from '../../platform/reporter/unknown-values.js';
import { collectGarbage } from '../../process/collect-garbage.js';
import { beatRun } from '../../warehouse/etl-runs.js';
import { type Heartbeat, type LeaseTiming, leaseTiming, startHeartbeat } from '../../warehouse/lease.js';
import { limitSyncResources } from '../../warehouse/limit-sync-resources.js';
import type { WindowBatch } from '../../warehouse/rows.js';
import { insertFinishedRun } from '../../warehouse/run-history.js';
import type { Warehouse } from '../../warehouse/warehouse.js';
import { planWindows, splitWindow, type TimeWindow } from './plan-windows.js';
import { endOnPlatformClock, repairFutureWatermark } from './platform-clock.js';
import { WindowReadAhead } from './read-ahead.js';
import { readLookbackWindow } from './read-lookback-window.js';
import { ClientStatusCache } from './read-statuses.js';
import { assembleWindow, fetchWindow, type ReadWindowOptions, type WindowRead } from './read-window.js';
import { REPORTS_AHEAD, StatusReports } from './status-reports.js';
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
  /** Session and message records committed, new or read again (a look-back re-reads its hours). */
  sessions: number;
  messages: number;
  /** Of the committed sessions and messages, those the warehouse did not hold before the run. */
  newSessions: number;
  newMessages: number;
  requests: number;
  /** The most requests in flight the client grew to (REPORTER_CONCURRENCY up to REPORTER_MAX_CONCURRENCY). */
  concurrencyReached: number;
  /** Answers that were 429 (Too Many Requests), each waited out and asked again. */
  throttled: number;
  rejects: number;
  /** Values of enumerated fields this version does not know, per field and value (kept as given). */
  unknownValues: UnknownValueCounts;
  durationMs: number;
  watermark: string | null;
  /**
   * An incremental run of a project with no watermark yet (an empty warehouse, or one whose first sync failed
   * before a window committed): it reads REPORTER_HISTORY_DAYS of history, so it is called a first sync.
   */
  firstSync: boolean;
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

/** One project's run as it goes: what its steps, its summary and the record of its failure read and move. */
interface ProjectRun {
  /** The project had no watermark when the run began (set once read). */
  noWatermark?: boolean;
  ctx: SyncContext;
  config: Config;
  warehouse: Warehouse;
  projectConfig: ProjectConfig;
  options: SyncOptions;
  http: ReporterHttp;
  log: Logger;
  now: () => number;
  started: number;
  runId: string;
  mode: SyncSummary['mode'];
  totals: {
    windows: number;
    sessions: number;
    messages: number;
    newSessions: number;
    newMessages: number;
    rejects: number;
  };
  unknownValues: UnknownValues;
  project: string;
  range?: { from: number; to: number };
  resolvedProject?: string;
  runStarted: boolean;
  /** The run's lease between window commits (each commit beats too): long reads, catalogues. */
  heartbeat?: Heartbeat;
  finalWatermark?: number;
  /** The commit of the last window read, running while the next window is read. */
  pendingCommit?: Promise<void>;
  /** The window of pendingCommit. */
  pendingWindow?: TimeWindow;
  /** Windows' statuses from report tasks (REPORTER_STATUS_READ=report), once the project is resolved. */
  statusReports?: StatusReports;
  /** The next window's reads, started while the one before waits (read-ahead.ts). */
  readAhead: WindowReadAhead;
  /** Whether the range's end was checked against the platform's clock (an answer's Date header). */
  clockChecked?: boolean;
  /** The run's requests added to its record by the windows committed so far. */
  requestsCommitted: number;
}

/** Requests of the run: its reads and its statuses reports. */
const requestsOf = (run: ProjectRun): number => run.http.requests + (run.statusReports?.requests ?? 0);

/** The windows still to read, and what reading them decides as it goes. */
interface WindowQueue {
  windows: TimeWindow[];
  planned: number;
  /** The watermark the run started from. */
  watermark: number | undefined;
  /** The watermark the next window's commit moves to (a backfill's never moves). */
  highWater: number;
  /** An incremental run reads its look-back (before the watermark) by its changes, the rest whole. */
  lookbackUntil: number;
  lookbackByChanges: boolean;
  statusCache: ClientStatusCache;
}

async function syncProjectRange(
  ctx: SyncContext,
  projectConfig: ProjectConfig,
  options: SyncOptions,
): Promise<SyncSummary> {
  const run = createProjectRun(ctx, projectConfig, options);
  try {
    return await runProject(run);
  } catch (error) {
    return await recordFailure(run, error);
  } finally {
    await run.heartbeat?.stop();
    await run.http.close();
    await run.statusReports?.close();
  }
}

/** The run's id, HTTP client, logger and mode, before any request. */
function createProjectRun(ctx: SyncContext, projectConfig: ProjectConfig, options: SyncOptions): ProjectRun {
  const { config } = ctx;
  const now = ctx.now ?? Date.now;
  const started = now();
  const runId = `${new Date(started).toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}`;
  const http = new ReporterHttp(
    reporterHttpOptions(config, projectConfig, {
      log: ctx.log,
      backoffBaseMs: ctx.backoffBaseMs,
      stop: ctx.signal,
    }),
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
  return {
    ctx,
    config,
    warehouse: ctx.warehouse,
    projectConfig,
    options,
    http,
    log,
    now,
    started,
    runId,
    mode,
    totals: { windows: 0, sessions: 0, messages: 0, newSessions: 0, newMessages: 0, rejects: 0 },
    requestsCommitted: 0,
    unknownValues: new UnknownValues(log),
    project: projectConfig.project ?? `project not resolved (${hostOf(projectConfig.baseUrl)})`,
    runStarted: false,
    readAhead: new WindowReadAhead(),
  };
}

/** Resolves the project, works out its range, starts its run record, syncs its windows and its catalogues. */
async function runProject(run: ProjectRun): Promise<SyncSummary> {
  const { config, warehouse, http, log, options, now } = run;
  // a backfill's range is checked before any request
  const backfill =
    run.mode === 'backfill'
      ? checkBackfillRange(options, now() - config.safetyLagMs, config.historyMs)
      : undefined;
  run.project = await resolveProjectName(http, run.projectConfig);
  run.resolvedProject = run.project;
  if (http.api === 'v1') http.project = run.project;
  if (config.statusRead === 'report') run.statusReports = openStatusReports(run);
  // on the platform's clock when an answer told it already (else checked at the first window's answers)
  const end = endOfRun(run);
  const stored = await warehouse.getWatermark(run.project);
  const watermark =
    run.mode === 'backfill' ? stored : await repairFutureWatermark(warehouse, run.project, stored, end, log);
  run.noWatermark = watermark === undefined || watermark === null;
  const range = backfill ?? planRange(run, end, watermark);
  run.range = range;
  await warehouse.startRun({
    runId: run.runId,
    project: run.project,
    job: options.job ?? 'sync',
    trigger: options.trigger ?? 'manual',
    exclusive: true,
  });
  run.runStarted = true;
  const heartbeat = startHeartbeat(
    () => beatRun(warehouse, run.runId, now()),
    leaseTiming(run.ctx.lease).beatMs,
    log,
  );
  run.heartbeat = heartbeat;
  log.info(
    {
      project: run.project,
      mode: run.mode,
      from: new Date(range.from).toISOString(),
      to: new Date(range.to).toISOString(),
    },
    'sync started',
  );
  await syncWindows(run, planWindowQueue(run, range, watermark, backfill !== undefined));

  await refreshCatalogues(http, warehouse, run.project, run.runId, run.unknownValues);
  await run.statusReports?.settle();
  const status = run.totals.rejects > 0 ? 'partial' : 'success';
  const durationMs = now() - run.started;
  await heartbeat.stop();
  await warehouse.finishRun(run.runId, {
    status,
    durationMs,
    requests: requestsOf(run),
    ...requestPacing(run),
    unknownValues: run.unknownValues.toJSON(),
  });
  log.info(
    {
      ...run.totals,
      requests: requestsOf(run),
      ...requestPacing(run),
      ...statusReportFigures(run),
      durationMs,
      status,
    },
    'sync finished',
  );
  return summarize(run, status, null, status === 'partial' ? EXIT.partial : EXIT.ok);
}

/** The reports' own transports, two requests in flight each: JSON answers, and the file read as bytes. */
function openStatusReports(run: ProjectRun): StatusReports {
  const { config, projectConfig, ctx } = run;
  const options = {
    ...reporterHttpOptions(config, projectConfig, {
      log: run.log,
      backoffBaseMs: ctx.backoffBaseMs,
      stop: ctx.signal,
    }),
    project: run.project,
    concurrency: 2,
    // one server, one limit: the reports are paced with the reads
    rateLimiter: run.http.limiter,
  };
  return new StatusReports({
    http: new ReporterHttp(options),
    fileHttp: new ReporterHttp({ ...options, bodyAs: 'bytes' }),
    log: run.log,
    waitMs: config.statusReportWaitMs,
    signal: ctx.signal,
  });
}

/** What the statuses reports did, for the run's last log line. */
function statusReportFigures(run: ProjectRun): Record<string, number> {
  const reports = run.statusReports;
  if (!reports) return {};
  return {
    statusReports: reports.completed,
    statusReportsFailed: reports.failed,
    ...(reports.unmatched > 0 ? { statusReportsUnmatched: reports.unmatched } : {}),
  };
}

/** A backfill's [from, to): to at most now minus the safety lag; an empty one is refused before any request. */
function checkBackfillRange(
  options: SyncOptions,
  end: number,
  historyMs: number,
): { from: number; to: number } {
  const from = options.from ?? end - historyMs;
  const to = Math.min(options.to ?? end, end);
  if (from >= to)
    throw new EtlError(
      'sync.empty_range',
      `--from must be before --to (and before now minus the safety lag); got ${new Date(from).toISOString()} – ${new Date(to).toISOString()}`,
      { kind: 'usage' },
    );
  return { from, to };
}

/** A full or first run's range is the history; an incremental one starts the look-back before the watermark. */
function planRange(
  run: ProjectRun,
  end: number,
  watermark: number | undefined,
): { from: number; to: number } {
  const { config } = run;
  if (run.mode === 'full' || watermark === undefined) return { from: end - config.historyMs, to: end };
  return { from: Math.min(watermark - config.lookbackMs, end), to: end };
}

/**
 * The run's end (now minus the safety lag) on the platform's clock, when an answer has told it (its Date
 * header): this machine's clock in the platform's future is not believed (platform-clock.ts), and said once.
 */
function endOfRun(run: ProjectRun): number {
  const serverNow = run.http.serverTime();
  if (serverNow !== undefined) run.clockChecked = true;
  const { end, aheadMs } = endOnPlatformClock(run.now(), serverNow, run.config.safetyLagMs);
  if (aheadMs !== undefined)
    run.log.warn(
      { aheadMs: Math.round(aheadMs), end: new Date(end).toISOString() },
      `this machine's clock is ${formatDuration(aheadMs)} ahead of the platform's (its Date header): the sync reads up to the platform's now minus the safety lag, and its watermark goes no further`,
    );
  return end;
}

/**
 * Once the first answer tells the platform's clock: a range planned on a clock in the platform's future is
 * planned again from the platform's now (the window read is dropped, and read again if still in the range).
 * True when it was planned again.
 */
async function replanOnPlatformClock(run: ProjectRun, queue: WindowQueue): Promise<boolean> {
  if (run.clockChecked || run.mode === 'backfill' || run.http.serverTime() === undefined) return false;
  const planned = run.range!.to;
  const end = endOfRun(run);
  if (end >= planned) return false;
  run.readAhead.drop();
  const watermark = await repairFutureWatermark(run.warehouse, run.project, queue.watermark, end, run.log);
  run.range = planRange(run, end, watermark);
  Object.assign(queue, planWindowQueue(run, run.range, watermark, false));
  return true;
}

/** A duration in words for a log line: days, hours, minutes or seconds. */
function formatDuration(ms: number): string {
  const units: [number, string][] = [
    [86_400_000, 'days'],
    [3_600_000, 'hours'],
    [60_000, 'minutes'],
  ];
  for (const [size, name] of units) if (ms >= size) return `${(ms / size).toFixed(1)} ${name}`;
  return `${(ms / 1000).toFixed(1)} seconds`;
}

/** Windows on the grid; those of the look-back marked (for the changes read, or its whole read after it). */
function gridWindows(windowMs: number, from: number, to: number, lookback: boolean): TimeWindow[] {
  return planWindows(from, to, windowMs).map((w) => (lookback ? { ...w, lookback } : w));
}

/** The range's windows: the look-back (read by its changes, or whole on the grid), then the grid to its end. */
function planWindowQueue(
  run: ProjectRun,
  range: { from: number; to: number },
  watermark: number | undefined,
  backfill: boolean,
): WindowQueue {
  const { config } = run;
  // an incremental run reads its look-back (before the watermark) by its changes, the rest whole
  const lookbackUntil =
    !backfill && run.mode !== 'full' && watermark !== undefined
      ? Math.max(range.from, Math.min(watermark, range.to))
      : range.from;
  const lookbackByChanges = config.lookbackRead === 'changes';
  const windows: TimeWindow[] = [
    // its changes are few: the whole look-back is one window (on the grid again where it must be read whole)
    ...(lookbackByChanges && lookbackUntil > range.from
      ? [{ from: range.from, to: lookbackUntil, lookback: true }]
      : gridWindows(config.windowMs, range.from, lookbackUntil, true)),
    ...gridWindows(config.windowMs, lookbackUntil, range.to, false),
  ];
  return {
    windows,
    planned: windows.length,
    watermark,
    highWater: watermark ?? Number.NEGATIVE_INFINITY,
    lookbackUntil,
    lookbackByChanges,
    statusCache: new ClientStatusCache(),
  };
}

/**
 * Reads the queue's windows one after another. The commit of window N runs while window N+1 is read (DuckDB
 * works while the requests wait); a window is committed only after the one before it, so watermarks still
 * move in order.
 */
async function syncWindows(run: ProjectRun, queue: WindowQueue): Promise<void> {
  const { config } = run;
  for (;;) {
    if (queue.windows.length === 0) {
      if (await settleCommit(run, queue)) continue;
      break;
    }
    if (run.ctx.signal?.aborted) {
      await run.pendingCommit;
      throw new EtlError(
        'sync.interrupted',
        'stopped by a signal between windows; the next run resumes from the last committed window',
        { kind: 'transient' },
      );
    }
    const window = queue.windows.shift()!;
    const read = await readQueuedWindow(run, queue, window);
    if (await replanOnPlatformClock(run, queue)) continue;
    if (read === undefined) continue;
    if (read.tooLarge) {
      queue.windows.unshift(...splitWindow(window));
      queue.planned++;
      run.log.debug(
        { sessions: read.sessions, bytes: read.bytes, from: new Date(window.from).toISOString() },
        'window split',
      );
      continue;
    }
    // a stop asked while the window was read: its read is dropped (the next run reads it again) and the
    // loop stops at its top, after the window committing now
    if (run.ctx.signal?.aborted) {
      queue.windows.unshift(window);
      continue;
    }
    const batch = read.batch;
    checkRejectShare(config.maxRejectShare, batch, window);
    // the window before must be committed first; if it ran out of memory, it is read again halved, then this one
    if (await settleCommit(run, queue, window)) continue;
    if (run.mode !== 'backfill') queue.highWater = Math.max(queue.highWater, window.to);
    // the window before is committed: its rows, pages and DuckDB chunks are garbage now; collecting it
    // keeps the peak at about two windows instead of letting V8 grow its heap (bench/README.md)
    collectGarbage();
    run.pendingCommit = commitInOrder(
      run,
      queue,
      batch,
      window,
      run.mode !== 'backfill' ? queue.highWater : undefined,
    );
    run.pendingWindow = window;
    // awaited before the next commit or at the end; this keeps a failure from being unhandled meanwhile
    run.pendingCommit.catch(() => undefined);
  }
}

/** How a window is read: its bounds, its size limits, what the run knows and shares across windows. */
function windowReadOptions(run: ProjectRun, queue: WindowQueue, window: TimeWindow): ReadWindowOptions {
  const { config, warehouse, project } = run;
  return {
    project,
    runId: run.runId,
    from: window.from,
    to: window.to,
    pageSize: config.pageSize,
    maxSessions:
      window.to - window.from > MIN_WINDOW_MS ? config.windowMaxSessions : Number.POSITIVE_INFINITY,
    maxBytes: window.to - window.from > MIN_WINDOW_MS ? config.windowMaxBytes : Number.POSITIVE_INFINITY,
    durationUnit: run.projectConfig.durationUnit,
    // the window's messages only (messages/filter's MESSAGE_TIME bounds are inclusive)
    knownStatuses: (ids: string[]) => warehouse.latestStatuses(project, ids, window),
    rangeTo: run.range!.to,
    statusCache: queue.statusCache,
    statusReports: run.statusReports,
    now: run.now,
  };
}

/** A window read by its changes (an incremental run's look-back), not whole. */
const byChanges = (queue: WindowQueue, window: TimeWindow): boolean =>
  window.lookback === true && queue.lookbackByChanges;

/**
 * Reads one window: a look-back window by its changes when it can, else whole. Undefined when the window went
 * back to the queue on the grid instead (a look-back longer than a grid window that must be read whole).
 */
async function readQueuedWindow(
  run: ProjectRun,
  queue: WindowQueue,
  window: TimeWindow,
): Promise<WindowRead | undefined> {
  const { config, warehouse, project, http } = run;
  const readOptions = windowReadOptions(run, queue, window);
  if (byChanges(queue, window)) {
    const stored = await readStoredWindow(warehouse, project, window);
    const changes = await readLookbackWindow(http, { ...readOptions, since: queue.lookbackUntil, stored });
    if (!('wholeWindow' in changes)) return changes;
    run.log.info(
      { from: new Date(window.from).toISOString(), why: changes.wholeWindow },
      'look-back window read whole',
    );
    if (changes.refused) queue.lookbackByChanges = false;
    // longer than a grid window: each window of the grid is checked (or read whole) on its own
    if (window.to - window.from > config.windowMs) {
      const grid = gridWindows(config.windowMs, window.from, window.to, true);
      queue.windows.unshift(...grid);
      queue.planned += grid.length - 1;
      return undefined;
    }
  }
  return await readWholeWindow(run, queue, window, readOptions);
}

/**
 * Reads a window whole, the next window's reads (and the reports of the ones after) started meanwhile: they
 * run while this one waits for its statuses and for the commit before it (read-ahead.ts).
 */
async function readWholeWindow(
  run: ProjectRun,
  queue: WindowQueue,
  window: TimeWindow,
  readOptions: ReadWindowOptions,
): Promise<WindowRead> {
  const { http } = run;
  const fetched = run.readAhead.take(window) ?? fetchWindow(http, readOptions);
  const next = queue.windows[0];
  if (next !== undefined && !byChanges(queue, next) && !run.ctx.signal?.aborted) {
    // not before the window before this one is committed: the rows held stay two windows' worth (this one's,
    // and the committing one's or the next one's), as without reading ahead (peak RSS at 1M messages)
    const committed = run.pendingCommit?.catch(() => undefined) ?? Promise.resolve();
    run.readAhead.start(next, () =>
      committed.then(() => fetchWindow(http, windowReadOptions(run, queue, next))),
    );
  }
  run.statusReports?.beginAhead(queue.windows.filter((w) => !byChanges(queue, w)).slice(0, REPORTS_AHEAD));
  const read = await fetched;
  if (read.tooLarge) return read;
  return await assembleWindow(http, readOptions, read.records, read.reported);
}

/** A window with more rejected records than REPORTER_MAX_REJECT_SHARE allows fails the run. */
function checkRejectShare(maxRejectShare: number, batch: WindowBatch, window: TimeWindow): void {
  const records = batch.sessions.length + batch.messages.length + batch.clients.length + batch.rejects.length;
  if (batch.rejects.length > 0 && batch.rejects.length / Math.max(1, records) > maxRejectShare) {
    const sample = batch.rejects[0]!;
    throw new EtlError(
      'sync.too_many_rejects',
      `${batch.rejects.length} of ${records} records of window ${new Date(window.from).toISOString()} failed validation, above REPORTER_MAX_REJECT_SHARE=${maxRejectShare} (first: ${sample.endpoint} ${sample.record_id ?? ''}: ${sample.error})`,
    );
  }
}

/** Commits one window with its watermark, then counts it and says the progress. */
async function commitInOrder(
  run: ProjectRun,
  queue: WindowQueue,
  batch: WindowBatch,
  window: TimeWindow,
  mark: number | undefined,
): Promise<void> {
  const { warehouse, totals } = run;
  // the run's requests since the last commit, not the window's own count: the next window, read ahead while
  // this one was read, made some of those, and its own count would hold them again (the record said more)
  const requests = requestsOf(run) - run.requestsCommitted;
  run.requestsCommitted += requests;
  const committed = await warehouse.commitWindow({
    ...batch,
    requests,
    ...(mark !== undefined ? { watermark: mark } : {}),
  });
  if (mark !== undefined) run.finalWatermark = mark;
  totals.windows++;
  totals.newSessions += committed.newSessions;
  totals.newMessages += committed.newMessages;
  totals.sessions += batch.sessions.length;
  totals.messages += batch.messages.length;
  totals.rejects += batch.rejects.length;
  for (const row of batch.messages) run.unknownValues.check('message.status', row.status);
  run.ctx.onProgress?.({
    project: run.project,
    window,
    windowsDone: totals.windows,
    windowsPlanned: queue.planned,
    sessions: totals.sessions,
    messages: totals.messages,
    requests: requestsOf(run),
    rejects: totals.rejects,
    elapsedMs: run.now() - run.started,
  });
}

/**
 * Waits for the commit in flight. One that ran out of DuckDB's memory was rolled back: its window goes back
 * to the queue halved (and `next`, read meanwhile, after it again) and this returns true.
 */
async function settleCommit(run: ProjectRun, queue: WindowQueue, next?: TimeWindow): Promise<boolean> {
  const { config } = run;
  const commit = run.pendingCommit;
  const window = run.pendingWindow;
  run.pendingCommit = undefined;
  run.pendingWindow = undefined;
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
    queue.windows.unshift(...splitWindow(window), ...(next ? [next] : []));
    queue.planned++;
    // memory is short: the windows read again come first, the next one is read again after them
    run.readAhead.drop();
    // the last watermark committed (or the one the run started from)
    queue.highWater = run.finalWatermark ?? queue.watermark ?? Number.NEGATIVE_INFINITY;
    run.log.info(
      {
        from: new Date(window.from).toISOString(),
        to: new Date(window.to).toISOString(),
        err: error.message,
      },
      'window halved: its commit ran out of memory',
    );
    return true;
  }
}

/** A failed run: its record finished as failed (or written, when it failed before it had one), its summary. */
async function recordFailure(run: ProjectRun, failure: unknown): Promise<SyncSummary> {
  const { warehouse, http, log, options, now } = run;
  // asked to stop: its cancelled requests (or whatever they broke) are not the run's failure, the stop is
  const error =
    run.ctx.signal?.aborted && !(failure instanceof EtlError && failure.code === 'sync.interrupted')
      ? new EtlError(
          'sync.interrupted',
          'stopped by a signal: the requests in flight were cancelled and the window being read was not committed; the next run resumes from the last committed window',
          { kind: 'transient' },
        )
      : failure;
  // a window still committing when the read of the next one failed counts (or fails) first
  await run.pendingCommit?.catch(() => undefined);
  await run.statusReports?.settle();
  const message = http.redact(error instanceof Error ? error.message : String(error));
  const durationMs = now() - run.started;
  await run.heartbeat?.stop();
  if (run.runStarted)
    await warehouse
      .finishRun(run.runId, {
        status: 'failed',
        error: message,
        durationMs,
        requests: requestsOf(run),
        ...requestPacing(run),
        unknownValues: run.unknownValues.toJSON(),
      })
      .catch(() => undefined);
  // failed before its row existed (refused token, unreachable API): recorded all the same, under the
  // configured project name when there is one (the project was never resolved otherwise)
  else
    await insertFinishedRun(warehouse, {
      runId: run.runId,
      project: run.resolvedProject ?? run.projectConfig.project ?? null,
      job: options.job ?? 'sync',
      trigger: options.trigger ?? 'manual',
      startedAt: run.started,
      finishedAt: now(),
      status: 'failed',
      error: message,
      requests: requestsOf(run),
    }).catch((recordError: unknown) =>
      log.warn({ err: String(recordError) }, 'could not record the failed run in etl_runs'),
    );
  log.error({ err: message, ...run.totals }, 'sync failed');
  return error instanceof EtlError
    ? summarize(run, 'failed', message, error.exitCode, error.code)
    : summarize(run, 'failed', message, EXIT.failed);
}

function summarize(
  run: ProjectRun,
  status: SyncSummary['status'],
  error: string | null,
  exitCode: number,
  errorCode: string | null = null,
): SyncSummary {
  const { range } = run;
  return {
    runId: run.runId,
    project: run.project,
    status,
    mode: run.mode,
    from: range ? new Date(range.from).toISOString() : null,
    to: range ? new Date(range.to).toISOString() : null,
    ...run.totals,
    unknownValues: run.unknownValues.toJSON(),
    requests: requestsOf(run),
    ...requestPacing(run),
    durationMs: run.now() - run.started,
    watermark: run.finalWatermark === undefined ? null : new Date(run.finalWatermark).toISOString(),
    firstSync: run.mode === 'incremental' && run.noWatermark === true,
    error,
    errorCode,
    exitCode,
  };
}

/**
 * How the run's client paced its requests: the most in flight its reads grew to, and the 429s it was answered
 * (its statuses reports' requests included).
 */
function requestPacing(run: ProjectRun): { concurrencyReached: number; throttled: number } {
  const throttled = run.http.throttled + (run.statusReports?.throttled ?? 0);
  return { concurrencyReached: run.http.concurrency.reached, throttled };
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
