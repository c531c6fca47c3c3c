// Reconciliation of the warehouse with the platform's own statistics for one project and window: the local
// figures (read while the warehouse is open), then the platform's (over HTTP, after it is closed), side by
// side with the difference (local - platform) and whether it stays within the tolerance.

import { UsageError } from '../../errors.js';
import type { ReporterFilter } from '../../platform/reporter/filters.js';
import type { ReporterHttp } from '../../platform/reporter/reporter-http.js';
import type { Warehouse } from '../../warehouse/warehouse.js';
import { computeStats, quarterParams, readWarehouseNames, readWindowBounds, run } from './compute-stats.js';
import {
  channelFilter,
  fetchAdvancedCount,
  fetchExperimentCounts,
  fetchLabelCounts,
  fetchSwitchedSessions,
  fetchUniqueClients,
  WITH_TRANSFER,
  WITHOUT_EMPTY_SESSIONS,
} from './fetch-platform-figures.js';
import { STATS_SCHEMA_VERSION, type StatsQuery, type StatsReport } from './stats-report.js';

const DAY = 86_400_000;

/** A difference is tolerated up to `value` (absolute) or `value` % of the platform's figure (percent). */
export type Tolerance = { kind: 'absolute'; value: number } | { kind: 'percent'; value: number };

export type ReconcileScope = 'window' | 'whole UTC days' | 'all time';

export interface ReconcileRow {
  figure: string;
  /** The channel, label or experiment (branch) the figure is about; null for the whole window. */
  subject: string | null;
  endpoint: string;
  scope: ReconcileScope;
  local: number;
  platform: number | null;
  /** local - platform; null when the row was skipped. */
  difference: number | null;
  withinTolerance: boolean | null;
  note: string | null;
}

export interface ProjectReconciliation {
  project: string;
  window: { from: string; to: string };
  ok: boolean;
  rows: ReconcileRow[];
}

export interface ReconcileReport {
  schemaVersion: number;
  generatedAt: string;
  tolerance: Tolerance;
  filters: { channels: string[] | null };
  ok: boolean;
  projects: ProjectReconciliation[];
}

/** What the warehouse says about one project, gathered before the platform is asked. */
export interface LocalFigures {
  project: string;
  api: 'v1' | 'legacy';
  channels: string[] | null;
  window: { from: number; to: number };
  stats: StatsReport;
  /** Transferred sessions on the whole UTC days inside the window; null when there is none. */
  switchedDays: { from: number; to: number; local: number } | null;
  uniqueClientsAllTime: number;
  /** experiment key -> branch -> sessions (all time, from `exp_<key>` sessionData). */
  experimentSessions: Map<string, Map<string, number>>;
}

/**
 * The local side of one project. Without --from, the window starts at the project's first synced session
 * or message; without --to it ends at its watermark (what the sync has read completely).
 */
export async function collectLocalFigures(
  warehouse: Warehouse,
  project: string,
  api: 'v1' | 'legacy',
  query: StatsQuery,
): Promise<LocalFigures> {
  if (!(await readWarehouseNames(warehouse)).projects.includes(project))
    throw new UsageError(
      `project ${project} has no data in the warehouse yet: run reporter-etl sync before reconciling it`,
    );
  let from = query.from;
  let to = query.to;
  if (from === undefined || to === undefined) {
    const bounds = await readWindowBounds(warehouse, [project]);
    const first = bounds.firstAt ?? undefined;
    const last = bounds.lastAt === null ? undefined : bounds.lastAt + 1;
    const watermark = await warehouse.getWatermark(project);
    to ??= watermark ?? last ?? from ?? 0;
    from ??= Math.min(first ?? to, to);
    if (from >= to)
      throw new UsageError(
        `--from (${new Date(from).toISOString()}) must be before the end of what project ${project} has synced (${new Date(to).toISOString()}); give --to`,
      );
  }
  const stats = await computeStats(warehouse, { ...query, projects: [project], from, to });
  const dayFrom = Math.ceil(from / DAY) * DAY;
  const dayTo = Math.floor(to / DAY) * DAY;
  let switchedDays: LocalFigures['switchedDays'] = null;
  if (dayTo > dayFrom) {
    const rows = await run(warehouse, 'transferred-sessions', {
      project,
      from: new Date(dayFrom),
      to: new Date(dayTo),
      ...quarterParams(dayFrom, dayTo),
    });
    switchedDays = { from: dayFrom, to: dayTo, local: Number(rows[0]?.['transferred_sessions'] ?? 0) };
  }
  let uniqueClientsAllTime = 0;
  const experimentSessions = new Map<string, Map<string, number>>();
  for (const row of await run(warehouse, 'all-time-figures', { project })) {
    const n = Number(row['count'] ?? 0);
    if (row['figure'] === 'uniqueClients') uniqueClientsAllTime = n;
    else {
      const key = String(row['experiment_key']);
      const branches = experimentSessions.get(key) ?? new Map<string, number>();
      branches.set(String(row['branch']), n);
      experimentSessions.set(key, branches);
    }
  }
  return {
    project,
    api,
    channels: stats.filters.channels,
    window: { from, to },
    stats,
    switchedDays,
    uniqueClientsAllTime,
    experimentSessions,
  };
}

/**
 * The rows of one project's reconciliation, in the order they are asked for: `add` takes rows (or their
 * promise), `compare` one local figure against the platform's (skipped when the platform did not report it).
 */
function createRowCollector(tolerance: Tolerance) {
  const pending: Promise<ReconcileRow[]>[] = [];
  const add = (rows: ReconcileRow[] | Promise<ReconcileRow[]>) => pending.push(Promise.resolve(rows));
  const compare = (
    figure: string,
    subject: string | null,
    endpoint: string,
    scope: ReconcileScope,
    localValue: number,
    platform: Promise<number | undefined>,
    note: string | null = null,
  ) =>
    add(
      platform.then((p) => [
        p === undefined
          ? skipped(figure, subject, endpoint, scope, localValue, 'the platform did not report this figure')
          : { ...row(figure, subject, endpoint, scope, localValue, p, tolerance), note },
      ]),
    );
  return { add, compare, collect: async () => (await Promise.all(pending)).flat() };
}

type RowCollector = ReturnType<typeof createRowCollector>;

/** Asks the platform for the same figures and compares them with the local ones. */
export async function reconcileProject(
  http: ReporterHttp,
  local: LocalFigures,
  tolerance: Tolerance,
): Promise<ProjectReconciliation> {
  const window = local.window;
  const channelFilters: ReporterFilter[] = local.channels === null ? [] : [channelFilter(local.channels)];
  const stats = local.stats;
  const rows = createRowCollector(tolerance);
  compareWindowCounts(http, local, channelFilters, rows);
  compareSwitchedDays(http, local, rows);
  rows.add(
    fetchLabelCounts(http, 'session', window, channelFilters).then((platform) =>
      compareLabels('sessionLabel', 'stats/session-labels', stats.sessionLabels, platform, tolerance),
    ),
  );
  rows.add(
    fetchLabelCounts(http, 'message', window, channelFilters).then((platform) =>
      compareLabels('messageLabel', 'stats/log-labels', stats.messageLabels, platform, tolerance),
    ),
  );
  compareAllTime(http, local, tolerance, rows);
  const out = await rows.collect();
  return {
    project: local.project,
    window: { from: new Date(window.from).toISOString(), to: new Date(window.to).toISOString() },
    ok: out.every((r) => r.withinTolerance !== false),
    rows: out,
  };
}

/** The window's sessions (all, non-empty, transferred) and messages, in total and per channel. */
function compareWindowCounts(
  http: ReporterHttp,
  local: LocalFigures,
  channelFilters: ReporterFilter[],
  { compare }: RowCollector,
): void {
  const window = local.window;
  const stats = local.stats;
  const sessionsEndpoint = 'stats/sessions/with-advanced-filters';
  const messagesEndpoint = 'stats/messages/with-advanced-filters';
  const sessions = (extra: ReporterFilter[]) => fetchAdvancedCount(http, 'sessions', window, extra);
  const messages = (extra: ReporterFilter[]) => fetchAdvancedCount(http, 'messages', window, extra);
  const totals = stats.totals;

  compare('sessions', null, sessionsEndpoint, 'window', totals.sessions, sessions(channelFilters));
  compare(
    'nonEmptySessions',
    null,
    sessionsEndpoint,
    'window',
    totals.nonEmptySessions,
    sessions([...channelFilters, WITHOUT_EMPTY_SESSIONS]),
  );
  compare(
    'transferredSessions',
    null,
    sessionsEndpoint,
    'window',
    totals.transferredSessions,
    sessions([...channelFilters, WITH_TRANSFER]),
  );
  compare('messages', null, messagesEndpoint, 'window', totals.messages, messages(channelFilters));

  const channels = new Set<string>(local.channels ?? []);
  for (const c of stats.byChannel) if (c.channel !== null) channels.add(c.channel);
  for (const channel of [...channels].sort()) {
    const c = stats.byChannel.find((r) => r.channel === channel);
    const only = [channelFilter([channel])];
    compare('sessions', channel, sessionsEndpoint, 'window', c?.sessions ?? 0, sessions(only));
    compare('messages', channel, messagesEndpoint, 'window', c?.messages ?? 0, messages(only));
  }
}

/** Transferred sessions by whole UTC day (stats/switched-sessions), or why they cannot be compared. */
function compareSwitchedDays(http: ReporterHttp, local: LocalFigures, { add, compare }: RowCollector): void {
  const totals = local.stats.totals;
  const switchedEndpoint = 'stats/switched-sessions';
  const switched = local.switchedDays;
  const byDay = (localValue: number, note: string) =>
    skipped('transferredSessions', 'by day', switchedEndpoint, 'whole UTC days', localValue, note);
  if (local.channels !== null)
    add([byDay(totals.transferredSessions, 'stats/switched-sessions cannot filter by channel')]);
  else if (switched === null)
    add([byDay(0, 'the window holds no whole UTC day (stats/switched-sessions counts by day)')]);
  else {
    const dateFrom = isoDate(switched.from);
    const dateTo = isoDate(switched.to - DAY);
    compare(
      'transferredSessions',
      'by day',
      switchedEndpoint,
      'whole UTC days',
      switched.local,
      fetchSwitchedSessions(http, dateFrom, dateTo),
      dateFrom === dateTo
        ? `sessions started on the UTC day ${dateFrom}`
        : `sessions started on the UTC days ${dateFrom} to ${dateTo}`,
    );
  }
}

/** The all-time figures: unique clients, and experiment joins (not on the legacy API: no sessionData). */
function compareAllTime(
  http: ReporterHttp,
  local: LocalFigures,
  tolerance: Tolerance,
  { add, compare }: RowCollector,
): void {
  compare(
    'uniqueClients',
    null,
    'stats/unique-clients',
    'all time',
    local.uniqueClientsAllTime,
    fetchUniqueClients(http, local.project),
    'distinct clients of every synced session of the project, whatever the window and --channel',
  );
  add(
    local.api === 'legacy'
      ? [
          skipped(
            'experimentSessions',
            null,
            'scenario-exeperiments/count-sessions',
            'all time',
            0,
            'the legacy API returns no sessionData, so the warehouse cannot count experiment joins',
          ),
        ]
      : compareExperiments(http, local, tolerance),
  );
}

function compareLabels(
  figure: 'sessionLabel' | 'messageLabel',
  endpoint: string,
  local: readonly { labelId: number; label: string | null; count: number; group?: string | null }[],
  platform: readonly { id: number; name: string | null; group: string | null; count: number }[],
  tolerance: Tolerance,
): ReconcileRow[] {
  const ids = new Set<number>([...local.map((l) => l.labelId), ...platform.map((p) => p.id)]);
  return [...ids]
    .sort((a, b) => a - b)
    .map((id) => {
      const l = local.find((x) => x.labelId === id);
      const p = platform.find((x) => x.id === id);
      const name = p?.name ?? l?.label ?? '?';
      const group = p?.group ?? l?.group ?? null;
      const subject = `${group ? `${group} / ` : ''}${name} #${id}`;
      return p === undefined
        ? skipped(figure, subject, endpoint, 'window', l?.count ?? 0, 'the platform does not list this label')
        : row(figure, subject, endpoint, 'window', l?.count ?? 0, p.count, tolerance);
    });
}

async function compareExperiments(
  http: ReporterHttp,
  local: LocalFigures,
  tolerance: Tolerance,
): Promise<ReconcileRow[]> {
  const endpoint = 'scenario-exeperiments/count-sessions';
  const note = 'synced sessions whose sessionData holds exp_<experiment> = branch, whatever the window';
  const experiments = await fetchExperimentCounts(http);
  const keys = new Set<string>([...experiments.map((e) => e.key), ...local.experimentSessions.keys()]);
  const out: ReconcileRow[] = [];
  for (const key of [...keys].sort()) {
    const branches = local.experimentSessions.get(key) ?? new Map<string, number>();
    const localTotal = [...branches.values()].reduce((a, b) => a + b, 0);
    const platform = experiments.find((e) => e.key === key);
    if (platform === undefined) {
      out.push(
        skipped(
          'experimentSessions',
          key,
          endpoint,
          'all time',
          localTotal,
          'the platform does not list this experiment',
        ),
      );
      continue;
    }
    out.push({
      ...row('experimentSessions', key, endpoint, 'all time', localTotal, platform.count, tolerance),
      note,
    });
    const perBranch = await fetchExperimentCounts(http, key);
    const names = new Set<string>([...perBranch.map((b) => b.key), ...branches.keys()]);
    for (const branch of [...names].sort()) {
      const p = perBranch.find((b) => b.key === branch);
      const subject = `${key} / ${branch}`;
      out.push(
        p === undefined
          ? skipped(
              'experimentSessions',
              subject,
              endpoint,
              'all time',
              branches.get(branch) ?? 0,
              'the platform does not list this branch',
            )
          : {
              ...row(
                'experimentSessions',
                subject,
                endpoint,
                'all time',
                branches.get(branch) ?? 0,
                p.count,
                tolerance,
              ),
              note,
            },
      );
    }
  }
  return out;
}

export function withinTolerance(difference: number, platform: number, tolerance: Tolerance): boolean {
  const allowed =
    tolerance.kind === 'absolute' ? tolerance.value : (Math.abs(platform) * tolerance.value) / 100;
  return Math.abs(difference) <= allowed + 1e-9;
}

function row(
  figure: string,
  subject: string | null,
  endpoint: string,
  scope: ReconcileScope,
  local: number,
  platform: number,
  tolerance: Tolerance,
): ReconcileRow {
  const difference = local - platform;
  return {
    figure,
    subject,
    endpoint,
    scope,
    local,
    platform,
    difference,
    withinTolerance: withinTolerance(difference, platform, tolerance),
    note: null,
  };
}

function skipped(
  figure: string,
  subject: string | null,
  endpoint: string,
  scope: ReconcileScope,
  local: number,
  note: string,
): ReconcileRow {
  return {
    figure,
    subject,
    endpoint,
    scope,
    local,
    platform: null,
    difference: null,
    withinTolerance: null,
    note,
  };
}

function isoDate(t: number): string {
  return new Date(t).toISOString().slice(0, 10);
}

/** The whole report over several projects. */
export function reconcileReport(
  projects: ProjectReconciliation[],
  tolerance: Tolerance,
  channels: string[] | null,
  generatedAt: number,
): ReconcileReport {
  return {
    schemaVersion: STATS_SCHEMA_VERSION,
    generatedAt: new Date(generatedAt).toISOString(),
    tolerance,
    filters: { channels },
    ok: projects.every((p) => p.ok),
    projects,
  };
}
