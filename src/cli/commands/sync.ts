// `reporter-etl sync`: incremental, exactly-once sync of every configured project into the warehouse.

import { existsSync } from 'node:fs';
import {
  CONFIG_DEFAULTS as D,
  defaultWindowMaxBytes,
  loadConfig,
  type ProjectConfig,
  SYNC_DUCKDB_MEMORY_LIMIT,
} from '../../config.js';
import { EXIT, UsageError } from '../../errors.js';
import type { Logger } from '../../log.js';
import { withConfiguredWarehouse } from '../../manage/use-warehouse.js';
import type { ChatApiHistorySummary } from '../../sources/chatapi/sync-chatapi-history.js';
import type { SyncContext, SyncProgress, SyncSummary } from '../../sources/reporter/run-sync.js';
import { escapeForTerminal } from '../../text/escape-terminal-text.js';
import { formatCount } from '../../text/format-figures.js';
import { plural } from '../../text/plural.js';
import { clearStatusLine, showStatusLine, writeAboveStatusLine } from '../../text/status-line.js';
import { assertFromBeforeTo } from '../../time/check-period.js';
import { commandTimeZone, tzHelp } from '../../time/command-time-zone.js';
import { parseZonedTime } from '../../time/parse-zoned-time.js';
import { expandPeriod, PERIOD_OPTIONS, relativePeriodHelp } from '../../time/relative-period.js';
import { parseCommandArgs } from '../args.js';
import type { Command, CommandIo } from '../command.js';
import { createCommandLogger } from '../create-command-logger.js';
import { requireDataDir } from '../require-warehouse.js';

const HELP = `reporter-etl sync [--from ISO --to ISO [--tz ZONE] | --full] [--project NAME] [--json]

Pulls sessions (with labels and sessionData), messages (with delivery statuses, labels, comments),
clients, label catalogues and experiments from the Reporter API into the DuckDB warehouse
(REPORTER_DATA_DIR/warehouse.duckdb). Safe to run every few minutes: each time window commits with its
watermark in one transaction, so an interrupted run loses nothing and duplicates nothing.

Modes:
  (default)        incremental: from the watermark minus the look-back (REPORTER_LOOKBACK_HOURS, ${D.REPORTER_LOOKBACK_HOURS})
                   up to now minus the safety lag (REPORTER_SAFETY_LAG_MINUTES, ${D.REPORTER_SAFETY_LAG_MINUTES}); the first run reads
                   REPORTER_HISTORY_DAYS (${D.REPORTER_HISTORY_DAYS}) of history; the look-back is read by its changes only
                   (REPORTER_LOOKBACK_READ, ${D.REPORTER_LOOKBACK_READ}; whole: every record again)

Delivery statuses: a window with at least 8 clients on telegram, viber or vk takes them from one platform
\`messages\` report task (created, waited for up to REPORTER_STATUS_REPORT_WAIT_SECONDS, ${D.REPORTER_STATUS_REPORT_WAIT_SECONDS}, downloaded,
deleted; in the look-back, a report of its sessions whose status can still move, and only the sessions
whose status moved are read again): a few requests instead of one messages/by-client read per client. A report that fails is logged
and its window reads per client; REPORTER_STATUS_READ=by-client (default ${D.REPORTER_STATUS_READ}) always reads per client.
  --full           re-read the whole history and move the watermark
  --from/--to ISO  backfill [from, to) without moving the watermark: an instant (2026-11-20T00:00:00Z,
                   2026-11-20T00:00+03:00) or a date or date-time without offset, read in --tz (2026-11-20)
${relativePeriodHelp(19)}
${tzHelp('a --from/--to without offset', 17)}

Options:
  --project NAME   only the configured project with this projectShortName
  --json           print the run summaries as JSON on stdout

Configuration (environment): REPORTER_TOKEN (required), REPORTER_BASE_URL (${D.REPORTER_BASE_URL}),
REPORTER_API (v1 | legacy), REPORTER_PROJECT, REPORTER_DATA_DIR (${D.REPORTER_DATA_DIR}), REPORTER_CONCURRENCY (${D.REPORTER_CONCURRENCY}),
REPORTER_MAX_CONCURRENCY (${D.REPORTER_MAX_CONCURRENCY}), REPORTER_RATE_LIMIT_RPM (none), REPORTER_TIMEOUT_MS (${D.REPORTER_TIMEOUT_MS}), REPORTER_RETRIES (${D.REPORTER_RETRIES}), REPORTER_PAGE_SIZE (${D.REPORTER_PAGE_SIZE}),
REPORTER_WINDOW_HOURS (${D.REPORTER_WINDOW_HOURS}), REPORTER_WINDOW_MAX_SESSIONS (${D.REPORTER_WINDOW_MAX_SESSIONS}), REPORTER_DURATION_UNIT (ms | s),
REPORTER_SYNC_DUCKDB_MEMORY_LIMIT (${SYNC_DUCKDB_MEMORY_LIMIT}) DuckDB's buffer pool while syncing,
REPORTER_SYNC_DUCKDB_THREADS (${D.REPORTER_SYNC_DUCKDB_THREADS}) DuckDB's threads while syncing, REPORTER_WINDOW_MAX_BYTES
(${defaultWindowMaxBytes() / 1e6}MB) a window's bytes before it is halved: by default a quarter of the sync pool,
REPORTER_MAX_REJECT_SHARE (${D.REPORTER_MAX_REJECT_SHARE}), REPORTER_LOCK_WAIT_SECONDS (${D.REPORTER_LOCK_WAIT_SECONDS}), REPORTER_CONFIG (JSON file with
{"projects": [{"baseUrl", "token", "api", "project", "durationUnit"}]} for several projects).
Requests: REPORTER_CONCURRENCY at once at first, one more each round trip while the server's answers come as
fast and without 429, up to REPORTER_MAX_CONCURRENCY; a 429 or a slower round trip takes some off. No fixed
rate unless REPORTER_RATE_LIMIT_RPM sets one. A 429 alone waits its Retry-After by itself; 429s that repeat
pause every request and lower the rate to just under what the server answered, which then recovers gradually.
--json shows the concurrency reached and the 429s (concurrencyReached, throttled), kept in etl_runs too.

Exit codes: 0 ok, 1 failed, 2 configuration, 3 partial (some records rejected: see etl_rejects),
75 try again later (the API was unavailable, the warehouse is locked by another process, or
another sync of the same project is running).

Examples (against the emulator):
  REPORTER_BASE_URL=http://127.0.0.1:4010 REPORTER_TOKEN=emulator-v1-token reporter-etl sync
  reporter-etl sync --full --json                       # re-read the whole history, summary as JSON
  reporter-etl sync --from 2026-09-01 --to 2026-10-01   # backfill September (REPORTER_TZ), watermark unchanged
`;

function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function progressLine(p: SyncProgress): string {
  const rate = p.elapsedMs > 0 ? (p.requests / p.elapsedMs) * 1000 : 0;
  const left = p.windowsPlanned - p.windowsDone;
  const eta = p.windowsDone > 0 ? (p.elapsedMs / p.windowsDone) * left : 0;
  return `${p.project}: window ${p.windowsDone}/${p.windowsPlanned} (${new Date(p.window.from).toISOString().slice(0, 16)}) · ${formatCount(p.sessions)} sessions · ${formatCount(p.messages)} messages · ${formatCount(rate)} req/s · ETA ${formatDuration(Math.round(eta))}`;
}

export const syncCommand: Command = {
  name: 'sync',
  help: HELP,
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, {
      ...PERIOD_OPTIONS,
      full: { type: 'boolean' },
      project: { type: 'string' },
      tz: { type: 'string' },
      json: { type: 'boolean' },
    });
    const periodGiven = [values.from, values.to, values.last, values.week, values.month].some(
      (v) => v !== undefined,
    );
    if (values.full && periodGiven)
      throw new UsageError(
        '--full re-reads everything: use it without --from/--to (--last, --week, --month)',
      );
    if (values.tz !== undefined && !periodGiven)
      throw new UsageError('--tz reads a local --from/--to: use it with them');
    const config = loadConfig();
    // refused here, before the warehouse or any request
    const timeZone = commandTimeZone(values.tz, config.timeZone);
    const period = expandPeriod(values, timeZone, Date.now());
    const from = period.from === undefined ? undefined : parseZonedTime(period.from, 'from', timeZone);
    const to = period.to === undefined ? undefined : parseZonedTime(period.to, 'to', timeZone);
    if (from !== undefined && to !== undefined) assertFromBeforeTo(from, to, values);
    const projects =
      values.project === undefined
        ? config.projects
        : config.projects.filter((p) => p.project === values.project);
    if (projects.length === 0)
      throw new UsageError(
        `--project ${values.project}: no configured project has this name (REPORTER_PROJECT or REPORTER_CONFIG)`,
      );
    requireDataDir(config);
    const log = createCommandLogger(config);
    // no warehouse yet: an incremental run is the first sync, which reads REPORTER_HISTORY_DAYS of history
    const firstSync = !existsSync(config.warehousePath);
    const request: SyncRequest = { projects, from, to, full: values.full === true, project: values.project };
    // fails at start on a read-only warehouse; then holds the file only while it writes (a window commit)
    const { summaries, followUps: channels } = await withConfiguredWarehouse(
      config,
      'write',
      log,
      (warehouse) =>
        withStopSignal(io, (signal) =>
          syncRequested(
            {
              config,
              warehouse,
              log,
              signal,
              onProgress: (p) => reportProgress(p, io, log, values.json === true),
            },
            request,
          ),
        ),
    );
    if (values.json)
      io.out(
        JSON.stringify({ runs: summaries, ...(channels.length > 0 ? { chatApi: channels } : {}) }, null, 2),
      );
    // the log prints a failed run's error already (unless LOG_LEVEL hides it): said once on a terminal
    else
      printRuns(
        io,
        summaries,
        channels,
        firstSync ? config.historyMs : undefined,
        !log.isLevelEnabled('error'),
        config.historyMs,
      );
    const failed = [...summaries, ...channels].find((s) => s.status === 'failed');
    if (failed) return failed.exitCode;
    return [...summaries, ...channels].some((s) => s.status === 'partial') ? EXIT.partial : EXIT.ok;
  },
};

/** What the command line asked for: the projects, the range or mode, the `--project` filter of the channels. */
interface SyncRequest {
  projects: readonly ProjectConfig[];
  from: number | undefined;
  to: number | undefined;
  full: boolean;
  project: string | undefined;
}

/**
 * The requested projects, then (not for a backfill) the Chat API channels' history of those projects. The
 * readers (undici, exceljs) are loaded here, when a sync starts: `sync --help` loads neither.
 */
async function syncRequested(ctx: SyncContext & { signal: AbortSignal }, request: SyncRequest) {
  const [{ syncProjects }, { syncChatApiHistory }] = await Promise.all([
    import('../../sources/reporter/sync-projects.js'),
    import('../../sources/chatapi/sync-chatapi-history.js'),
  ]);
  const { from, to, full } = request;
  return syncProjects(ctx, {
    projects: request.projects,
    options: {
      ...(from === undefined ? {} : { from }),
      ...(to === undefined ? {} : { to }),
      ...(full ? { full: true } : {}),
    },
    // a stop starts nothing new: the projects not begun are left for the next run
    skipProjectsAfterSignal: true,
    afterProject: () => clearStatusLine(),
    // the Chat API channels' history follows the Reporter data it is bounded by (not for a backfill)
    ...(from === undefined && to === undefined
      ? {
          followUp: (refusedProjects: string[]) =>
            syncChatApiHistory(
              {
                config: ctx.config,
                warehouse: ctx.warehouse,
                log: ctx.log,
                signal: ctx.signal,
                ...(full ? { full: true } : {}),
                // a project another sync holds: that sync reads its channels (a refused sync does no work)
                refusedProjects,
              },
              ctx.config.chatApi.channels.filter(
                (c) =>
                  request.project === undefined || c.project === undefined || c.project === request.project,
              ),
            ),
        }
      : {}),
    followUpAfterAllRefused: true,
  });
}

/** `952 sessions (3 new)`: the records committed, and how many of them the warehouse did not hold before. */
export function withNew(count: number, fresh: number, noun: string): string {
  return fresh === count ? plural(count, noun) : `${plural(count, noun)} (${formatCount(fresh)} new)`;
}

/**
 * The human output: a line per project run and per channel (stdout), their errors, rejects and unknown values
 * (stderr). `firstSyncHistoryMs` is set when the warehouse did not exist: an incremental run read that history.
 */
function printRuns(
  io: CommandIo,
  summaries: readonly SyncSummary[],
  channels: readonly ChatApiHistorySummary[],
  firstSyncHistoryMs: number | undefined,
  printErrors: boolean,
  historyMs: number,
): void {
  for (const s of summaries) {
    // a run that failed before its range was known (its project not resolved) read nothing: no mode to name
    const mode =
      s.from === null
        ? ''
        : ` (${s.firstSync ? `first sync${firstSyncHistoryMs !== undefined ? ' of an empty warehouse' : ' of the project'}: the last ${plural(historyMs / 86_400_000, 'day')}` : s.mode})`;
    io.out(
      `${s.project}: ${s.status}${mode} · ${plural(s.windows, 'window')} · ${withNew(s.sessions, s.newSessions, 'session')} · ${withNew(s.messages, s.newMessages, 'message')} · ${plural(s.requests, 'request')} (up to ${s.concurrencyReached} in flight${s.throttled > 0 ? `, ${s.throttled} answered 429` : ''}) · ${formatCount(s.rejects)} rejected · ${formatDuration(s.durationMs)}${s.watermark ? ` · watermark ${s.watermark}` : ''}`,
    );
    if (s.error && printErrors) io.err(`  error: ${s.error}`);
    if (s.rejects > 0)
      io.err(
        `  ${plural(s.rejects, 'record was', 'records were')} rejected: select * from etl_rejects where run_id = '${s.runId}'`,
      );
    for (const line of unknownValueLines(s.unknownValues)) io.err(line);
  }
  for (const c of channels) {
    const line = `Chat API ${c.channel}: ${c.status} · ${plural(c.clients, 'client')} · ${plural(c.messages, 'message')} · ${plural(c.requests, 'request')} · ${formatCount(c.rejects)} rejected`;
    io.out(c.error ? `${line} · ${c.error}` : line);
    for (const unknown of unknownValueLines(c.unknownValues)) io.err(unknown);
  }
}

/**
 * Runs `work` with a signal aborted by SIGINT, SIGTERM or the caller's signal (demo's); the stop is said at
 * once (the window in flight may take a while), unless inside demo, which says it.
 */
async function withStopSignal<T>(io: CommandIo, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  const onSignal = (signal: NodeJS.Signals) => {
    if (!controller.signal.aborted && io.signal === undefined)
      writeAboveStatusLine(() =>
        io.err(
          `reporter-etl sync: ${signal}: stopping: the requests in flight are cancelled, the window being read is left for the next run… (Ctrl-C again to stop now)`,
        ),
      );
    stop();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  if (io.signal?.aborted) stop();
  io.signal?.addEventListener('abort', stop, { once: true });
  try {
    return await work(controller.signal);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    io.signal?.removeEventListener('abort', stop);
  }
}

/** A committed window: the status line on a terminal, else a log line. */
function reportProgress(p: SyncProgress, io: CommandIo, log: Logger, json: boolean): void {
  if (io.isTty && !json) showStatusLine(escapeForTerminal(progressLine(p)));
  else
    log.info(
      {
        project: p.project,
        window: new Date(p.window.from).toISOString(),
        windowsDone: p.windowsDone,
        windowsPlanned: p.windowsPlanned,
        sessions: p.sessions,
        messages: p.messages,
        requests: p.requests,
      },
      'window committed',
    );
}

/** A line per field of values this version does not know, with each value's count (stderr). */
function unknownValueLines(counts: Record<string, Record<string, number>>): string[] {
  return Object.entries(counts).map(
    ([field, values]) =>
      `  ${field}: values this version does not know, kept as given: ${Object.entries(values)
        .map(([value, n]) => `${escapeForTerminal(value)} (${n})`)
        .join(', ')}`,
  );
}
