// `reporter-etl stats`: the analysts' weekly figures computed in DuckDB over the warehouse (tables on a TTY,
// one documented JSON object with --json), and `--reconcile`: the same window side by side with the
// platform's own statistics, exiting 1 when a difference exceeds the tolerance.

import { readTopDropOff, type TopDropOff } from '../../analysis/paths/top-drop-off.js';
import { computeStats } from '../../analysis/stats/compute-stats.js';
import type { LocalFigures, ProjectReconciliation, Tolerance } from '../../analysis/stats/reconcile-stats.js';
import { renderReconcileText, renderStatsText } from '../../analysis/stats/render-stats-text.js';
import {
  PERIOD_UNITS,
  type PeriodUnit,
  type StatsQuery,
  type StatsReport,
} from '../../analysis/stats/stats-report.js';
import { readStoredUnhandled, type StoredUnhandled } from '../../analysis/unhandled/read-stored-unhandled.js';
import { loadConfig } from '../../config.js';
import { EXIT, UsageError } from '../../errors.js';
import type { Logger } from '../../log.js';
import { withConfiguredWarehouse } from '../../manage/use-warehouse.js';
import type { ReporterHttp, ReporterHttpOptions } from '../../platform/reporter/reporter-http.js';
import { toCleanJson } from '../../text/format-figures.js';
import { assertFromBeforeTo } from '../../time/check-period.js';
import { commandTimeZone, tzHelp } from '../../time/command-time-zone.js';
import { parseZonedTime } from '../../time/parse-zoned-time.js';
import { expandPeriod, PERIOD_OPTIONS, relativePeriodHelp } from '../../time/relative-period.js';
import type { Warehouse } from '../../warehouse/warehouse.js';
import { enumOption, intOption, parseCommandArgs } from '../args.js';
import type { Command, CommandIo } from '../command.js';
import { createCommandLogger } from '../create-command-logger.js';
import { requireWarehouse } from '../require-warehouse.js';

/** Most periods the text output lists before `stats` picks a coarser period itself (no --period given). */
export const MAX_TEXT_PERIODS = 60;

/** `stats --json` computes its key `paths` up to this many messages in the window (--paths-max-messages). */
export const PATHS_MAX_MESSAGES = 5_000_000;

const HELP = `reporter-etl stats [--from T] [--to T] [--project NAME] [--channel NAME]... [--tz ZONE]
                   [--period hour|day|week|month] [--top N] [--catch-all CLASS] [--json]
reporter-etl stats --reconcile [--tolerance N | N%] [same window and filter options]

Computes, in DuckDB over the warehouse (REPORTER_DATA_DIR/warehouse.duckdb), the figures analysts ask for:
totals (sessions, non-empty sessions, messages, unique/new/returning clients, transfers to an agent,
messages per session and session duration with mean/p50/p90/p99), sessions/messages/clients/transfers by
channel and by period, session and message labels, the delivery funnel per channel, intents, sessionData
values, experiments per branch and the top first questions. Sessions are selected by start_time, messages
by timestamp: --from inclusive, --to exclusive.

Window and filters:
  --from T, --to T   an instant with its offset (2026-11-20T00:00:00Z, 2026-11-20T00:00+03:00) or a local
                     date or date-time (2026-11-20, 2026-11-20T09:30) read in --tz; default: from the first
                     to just after the last session or message of the selection
${relativePeriodHelp(21)}
  --project NAME     one projectShortName (default: every project in the warehouse)
  --channel NAME     only this channel type (repeat it, or separate with commas); case-insensitive,
                     CHAT_WIDGET = chatwidget; an unknown channel is refused
${tzHelp('the periods and of local --from/--to')}
  --period UNIT      hour, day (default), week (ISO, from Monday) or month; without it the text output
                     takes week or month when days would be more than ${MAX_TEXT_PERIODS} lines (and says so)
  --top N            length of the top lists: intents, first questions, values per sessionData key (10)
  --catch-all CLASS  the NLP class of unrecognised requests (default /CatchAll)
  --json             print one JSON object (its shape: docs/statistics.md) instead of tables
  --paths-max-messages N
                     --json's key paths (the top drop-off states) reads the window's messages, not the
                     rollups: above N messages (${PATHS_MAX_MESSAGES.toLocaleString('en-US')}; 0: no limit) it is null and
                     pathsNote says why (reporter-etl paths gives them)

Reconciliation (needs the API settings: REPORTER_TOKEN, REPORTER_BASE_URL, REPORTER_API, ...):
  --reconcile        compare with the platform's own figures for the same window, per configured project:
                     stats/sessions|messages/with-advanced-filters (in total and per channel),
                     stats/switched-sessions (whole UTC days inside the window), stats/session-labels,
                     stats/log-labels, stats/unique-clients and scenario-exeperiments/count-sessions (those
                     two count all time: they are compared with every synced session). Without --from it
                     starts at the project's first synced record, without --to it ends at its watermark.
  --tolerance N|N%   largest tolerated difference: N in absolute terms, N% of the platform's figure (0)

Exit codes: 0 ok; 1 failed, or (--reconcile) a figure differs beyond the tolerance; 2 usage or
configuration (bad --tz, --from not before --to, unknown --channel or --project, no warehouse yet);
75 try again later (the warehouse is locked by another process, or the API is unavailable).

Examples:
  reporter-etl stats --from 2026-11-16 --to 2026-11-23 --tz Europe/Moscow
  reporter-etl stats --channel telegram --channel vk --period week --json
  REPORTER_TOKEN=... reporter-etl stats --reconcile --from 2026-11-20T00:00:00Z --to 2026-11-21T00:00:00Z
`;

/** What the command needs from the world; tests pass their own. */
export interface StatsDeps {
  env: Record<string, string | undefined>;
  now: () => number;
  log?: Logger;
  /** Overrides for the Reporter API client (tests shorten the backoff). */
  http?: Partial<ReporterHttpOptions>;
}

/** `--tolerance 3` (absolute) or `--tolerance 0.5%` (of the platform's figure). */
export function parseTolerance(value: string | undefined): Tolerance {
  if (value === undefined) return { kind: 'absolute', value: 0 };
  const m = /^\s*(\d+(?:\.\d+)?)\s*(%?)\s*$/.exec(value);
  if (!m) throw new UsageError(`--tolerance expects a number (3) or a percentage (0.5%), got "${value}"`);
  return { kind: m[2] === '%' ? 'percent' : 'absolute', value: Number(m[1]) };
}

const COARSER: Partial<Record<PeriodUnit, PeriodUnit>> = { hour: 'day', day: 'week', week: 'month' };
const APPROX_PERIOD_MS: Record<PeriodUnit, number> = {
  hour: 3_600_000,
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 30.44 * 86_400_000,
};

/**
 * The report by the default period, or by a coarser one (week, then month) when the default would list more
 * than MAX_TEXT_PERIODS periods; with the one line that says so. A window given by --from/--to is measured
 * before any query; an open one is measured by its report.
 */
export async function computeReadableStats(
  query: StatsQuery,
  compute: (query: StatsQuery) => Promise<StatsReport>,
): Promise<{ report: StatsReport; note?: string }> {
  const asked = query.period;
  let period = asked;
  if (query.from !== undefined && query.to !== undefined)
    while (
      (query.to - query.from) / APPROX_PERIOD_MS[period] > MAX_TEXT_PERIODS &&
      COARSER[period] !== undefined
    )
      period = COARSER[period]!;
  let report = await compute({ ...query, period });
  while (report.byPeriod.length > MAX_TEXT_PERIODS && COARSER[period] !== undefined) {
    period = COARSER[period]!;
    report = await compute({ ...query, period });
  }
  if (period === asked) return { report };
  const span =
    query.from !== undefined && query.to !== undefined
      ? ` (${Math.ceil((query.to - query.from) / APPROX_PERIOD_MS[asked]).toLocaleString('en-US')} ${asked}s)`
      : '';
  return {
    report,
    note: `By ${period}, not by ${asked}: the window is too long for a line per ${asked}${span}; --period ${asked} lists every ${asked}.`,
  };
}

export async function runStats(argv: string[], io: CommandIo, deps: StatsDeps): Promise<number> {
  const { values } = parseCommandArgs(argv, {
    ...PERIOD_OPTIONS,
    project: { type: 'string' },
    channel: { type: 'string', multiple: true },
    tz: { type: 'string' },
    period: { type: 'string' },
    top: { type: 'string' },
    'catch-all': { type: 'string' },
    json: { type: 'boolean' },
    'paths-max-messages': { type: 'string' },
    reconcile: { type: 'boolean' },
    tolerance: { type: 'string' },
  });
  const config = loadConfig(deps.env, { requireToken: values.reconcile === true });
  const timeZone = commandTimeZone(values.tz, config.timeZone);
  const period = expandPeriod(values, timeZone, deps.now());
  const from = period.from === undefined ? undefined : parseZonedTime(period.from, 'from', timeZone);
  const to = period.to === undefined ? undefined : parseZonedTime(period.to, 'to', timeZone);
  if (from !== undefined && to !== undefined) assertFromBeforeTo(from, to, values);
  const channels = values.channel
    ?.flatMap((c) => c.split(','))
    .map((c) => c.trim())
    .filter((c) => c !== '');
  if (values.channel !== undefined && channels?.length === 0)
    throw new UsageError('--channel expects a channel type such as telegram');
  if (values.tolerance !== undefined && !values.reconcile)
    throw new UsageError('--tolerance applies to --reconcile only');
  if (values['paths-max-messages'] !== undefined && (!values.json || values.reconcile))
    throw new UsageError('--paths-max-messages applies to --json (without --reconcile) only');
  const pathsMax = intOption(values['paths-max-messages'], 'paths-max-messages', PATHS_MAX_MESSAGES, 0);
  const query: StatsQuery = {
    projects: values.project === undefined ? undefined : [values.project],
    channels,
    from,
    to,
    timeZone,
    period: enumOption<PeriodUnit>(values.period, 'period', PERIOD_UNITS, 'day'),
    top: intOption(values.top, 'top', 10, 1),
    catchAllClass: values['catch-all'] ?? '/CatchAll',
  };
  const log = deps.log ?? createCommandLogger(config);
  requireWarehouse(config, 'stats');

  if (!values.reconcile) {
    await withConfiguredWarehouse(config, 'read', log, async (warehouse) => {
      // one snapshot for every figure: the file is held (shared, READ_ONLY) for the report's queries
      if (values.json) {
        const report = await warehouse.hold(async () => {
          const stats = await computeStats(warehouse, query, { now: deps.now });
          const pathsNote = pathsSkipped(stats, pathsMax);
          return {
            ...stats,
            unhandled: await storedUnhandled(warehouse, stats, values, query.top),
            paths: pathsNote === null ? await topDropOff(warehouse, stats, query.top) : null,
            pathsNote,
          };
        });
        io.out(toCleanJson(report));
        return;
      }
      if (values.period !== undefined) {
        const report = await warehouse.hold(() => computeStats(warehouse, query, { now: deps.now }));
        io.out(renderStatsText(report));
        return;
      }
      // a table for people: a coarser period than the default day when days would be too many lines
      const { report, note } = await warehouse.hold(() =>
        computeReadableStats(query, (q) => computeStats(warehouse, q, { now: deps.now })),
      );
      if (note !== undefined) io.out(note);
      io.out(renderStatsText(report));
    });
    return EXIT.ok;
  }

  const tolerance = parseTolerance(values.tolerance);
  // the platform's client (undici) and the reconciliation are loaded by --reconcile only: `stats` stays light
  const [{ reporterHttpOptions }, { ReporterHttp }, { resolveProjectName }, reconcile] = await Promise.all([
    import('../../platform/reporter/http-options.js'),
    import('../../platform/reporter/reporter-http.js'),
    import('../../platform/reporter/resolve-project.js'),
    import('../../analysis/stats/reconcile-stats.js'),
  ]);
  const clients = config.projects.map((project) => ({
    project,
    http: new ReporterHttp({ ...reporterHttpOptions(config, project, { log }), ...deps.http }),
  }));
  try {
    const targets: { http: ReporterHttp; name: string; api: 'v1' | 'legacy' }[] = [];
    for (const { project, http } of clients) {
      const name = await resolveProjectName(http, project);
      if (http.api === 'v1') http.project = name;
      if (values.project === undefined || values.project === name)
        targets.push({ http, name, api: project.api });
    }
    if (targets.length === 0)
      throw new UsageError(
        `--project ${values.project}: no configured project has this name (REPORTER_PROJECT or REPORTER_CONFIG)`,
      );
    const locals: LocalFigures[] = [];
    await withConfiguredWarehouse(config, 'read', log, (warehouse) =>
      warehouse.hold(async () => {
        for (const target of targets)
          locals.push(await reconcile.collectLocalFigures(warehouse, target.name, target.api, query));
      }),
    );
    const results: ProjectReconciliation[] = [];
    for (const [n, local] of locals.entries())
      results.push(await reconcile.reconcileProject(targets[n]!.http, local, tolerance));
    const report = reconcile.reconcileReport(results, tolerance, locals[0]?.channels ?? null, deps.now());
    io.out(values.json ? toCleanJson(report) : renderReconcileText(report));
    return report.ok ? EXIT.ok : EXIT.failed;
  } finally {
    await Promise.all(clients.map((c) => c.http.close()));
  }
}

/**
 * `stats --json`'s key `unhandled`: the stored `reporter-etl unhandled` run of the same window, project (as
 * given), channel (one at most) and catch-all class; null when that run was not computed.
 */
function storedUnhandled(
  warehouse: Warehouse,
  report: StatsReport,
  values: { project?: string; channel?: string[] },
  top: number,
): Promise<StoredUnhandled | null> {
  const channels = report.filters.channels;
  const { from, to } = report.window;
  if (from === null || to === null || (channels !== null && channels.length !== 1))
    return Promise.resolve(null);
  return readStoredUnhandled(
    warehouse,
    {
      ...(values.project === undefined ? {} : { project: values.project }),
      ...(channels === null ? {} : { channel: channels[0]! }),
      catchAllClass: report.intents.catchAllClass,
      from: Date.parse(from),
      to: Date.parse(to),
    },
    top,
  );
}

/**
 * Why `stats --json` leaves its key `paths` null for this window (more messages than `max`, 0: no limit), or
 * null when it computes it. The rest of stats reads rollups and takes the same time at any size; the drop-off
 * reads every message of the window (minutes at 100,000,000).
 */
function pathsSkipped(report: StatsReport, max: number): string | null {
  const messages = report.totals.messages;
  if (max === 0 || messages <= max) return null;
  const count = (n: number) => n.toLocaleString('en-US');
  return (
    `not computed: the window holds ${count(messages)} messages, more than --paths-max-messages ` +
    `${count(max)} (the drop-off reads each message: minutes at 100,000,000); reporter-etl paths gives them, ` +
    'or raise --paths-max-messages (0: no limit)'
  );
}

/**
 * `stats --json`'s key `paths`: the top --top states by drop-off of the window's sessions (docs/paths.md), every
 * selected channel together; null when the window is empty and unbounded.
 */
function topDropOff(warehouse: Warehouse, report: StatsReport, top: number): Promise<TopDropOff | null> {
  const { from, to } = report.window;
  if (from === null || to === null) return Promise.resolve(null);
  return readTopDropOff(warehouse, {
    projects: report.filters.projects,
    channels: report.filters.channels,
    from: Date.parse(from),
    to: Date.parse(to),
    catchAllClass: report.intents.catchAllClass,
    top,
  });
}

export const statsCommand: Command = {
  name: 'stats',
  help: HELP,
  run: (argv, io) => runStats(argv, io, { env: process.env, now: Date.now }),
};
