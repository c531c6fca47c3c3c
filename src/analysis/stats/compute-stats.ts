// Computes the statistics report over the warehouse: one set-based SQL statement per section
// (src/analysis/stats/sql/), all over the same window [from, to): sessions by start_time, messages by timestamp.
// Checks the selection first (projects, channels, time zone) and answers an empty window with zeros.
import { UsageError } from '../../errors.js';
import { normaliseChannel } from '../../platform/reporter/normalise-channel.js';
import { assertFromBeforeTo } from '../../time/check-period.js';
import { requireTimeZone, unknownTimeZone } from '../../time/time-zone.js';
import type { PlainRow, PlainValue, SqlParam, Warehouse } from '../../warehouse/warehouse.js';
import { loadStatsSql, paramsFor, type StatsQueryName } from './load-stats-sql.js';
import { computePrompterStats } from './prompter-stats.js';
import {
  type ChannelRow,
  type Distribution,
  type ExperimentRow,
  type FirstQuestionRow,
  type FunnelRow,
  type IntentStats,
  type PeriodRow,
  type PeriodUnit,
  type SessionDataKeyRow,
  STATS_SCHEMA_VERSION,
  type StatsQuery,
  type StatsReport,
  type StatsTotals,
} from './stats-report.js';

/** Channel types of the platform that a --channel may name even when the warehouse holds none of them. */
export const KNOWN_CHANNELS = [
  'telegram',
  'viber',
  'vk',
  'chatwidget',
  'chatapi',
  'resterisk',
  'wazzup',
  'whatsapp',
  'facebook',
  'instagram',
  'odnoklassniki',
  'slack',
  'alexa',
  'yandex',
  'marusia',
  'bitrix',
  'jivosite',
  'livetex',
  'webim',
  'incomingwebhook',
  'edna',
] as const;

/** Longest list of periods a report may hold (an hourly report of about 11 years). */
export const MAX_PERIODS = 100_000;
/** Longest window in quarter hours (about 57 years): rows find their local period through a quarter-hour map. */
export const MAX_QUARTERS = 2_000_000;

const PERIOD_MS: Record<PeriodUnit, number> = {
  hour: 3_600_000,
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 28 * 86_400_000,
};

/** The warehouse's projects and channels, to check a selection against. */
export interface WarehouseNames {
  projects: string[];
  channels: string[];
}

export async function readWarehouseNames(
  warehouse: Warehouse,
  sql: StatsSql = loadStatsSql(),
): Promise<WarehouseNames> {
  const rows = await runWith(warehouse, sql['catalogue-names'], {});
  const pick = (kind: string) => rows.filter((r) => r['kind'] === kind).map((r) => String(r['name']));
  return { projects: pick('project'), channels: pick('channel') };
}

/** --channel values as stored (lower case, no underscores); an unknown one is a UsageError naming it. */
export function normaliseChannels(values: readonly string[], present: readonly string[]): string[] {
  const known = new Set<string>([...KNOWN_CHANNELS, ...present]);
  const out: string[] = [];
  for (const raw of values) {
    const channel = normaliseChannel(raw.trim());
    if (channel === '' || !known.has(channel)) {
      throw new UsageError(
        `--channel: unknown channel "${raw}"; the warehouse holds ${present.length > 0 ? present.join(', ') : 'no channel yet'} (also accepted: ${KNOWN_CHANNELS.join(', ')})`,
      );
    }
    if (!out.includes(channel)) out.push(channel);
  }
  return out;
}

/** Checks an IANA zone name with DuckDB's ICU (the zone the periods are computed in). */
export async function checkTimeZone(warehouse: Warehouse, timeZone: string): Promise<void> {
  requireTimeZone(timeZone);
  try {
    await warehouse.query("SELECT timezone($tz, TIMESTAMPTZ '2000-01-01 00:00:00+00') AS t", {
      tz: timeZone,
    });
  } catch {
    throw unknownTimeZone(timeZone);
  }
}

/** A quarter hour in ms: the grain of the rollups (every zone's offset is whole quarter hours). */
const QUARTER_MS = 900_000;

/** The statements by name: the statistics' own (src/analysis/stats/sql/), or others of the same shape. */
export type StatsSql = Readonly<Record<StatsQueryName, string>>;

export async function computeStats(
  warehouse: Warehouse,
  query: StatsQuery,
  options: { now?: () => number; sql?: StatsSql } = {},
): Promise<StatsReport> {
  const now = options.now ?? Date.now;
  const sql = options.sql ?? loadStatsSql();
  const run = (name: StatsQueryName, params: Readonly<Record<string, SqlParam>>) =>
    runWith(warehouse, sql[name], params);
  if (query.from !== undefined && query.to !== undefined) assertFromBeforeTo(query.from, query.to);
  const names = await readWarehouseNames(warehouse, sql);
  const projects = query.projects === undefined ? names.projects : [...query.projects];
  for (const project of projects) {
    if (!names.projects.includes(project))
      throw new UsageError(
        `--project: the warehouse holds no data of project "${project}" (it holds ${names.projects.length > 0 ? names.projects.join(', ') : 'none yet: run reporter-etl sync'})`,
      );
  }
  const channels =
    query.channels === undefined ? undefined : normaliseChannels(query.channels, names.channels);
  await checkTimeZone(warehouse, query.timeZone);

  // the data's first and last instant fill a bound not given (read only then: a scan of every session's start)
  const { firstAt, lastAt } =
    query.from !== undefined && query.to !== undefined
      ? { firstAt: null, lastAt: null }
      : await readWindowBounds(warehouse, projects, sql);
  let from = query.from ?? firstAt;
  let to = query.to ?? (lastAt === null ? null : lastAt + 1);
  if (from === null && to !== null) from = to;
  if (to === null && from !== null) to = from;
  if (from !== null && to !== null && to < from) to = from;
  if (from !== null && to !== null && to > from && (to - from) / PERIOD_MS[query.period] > MAX_PERIODS)
    throw new UsageError(
      `--period ${query.period}: the window ${iso(from)} – ${iso(to)} holds more than ${MAX_PERIODS} periods; choose a longer --period or a shorter window`,
    );
  if (from !== null && to !== null && (to - from) / 900_000 > MAX_QUARTERS)
    throw new UsageError(
      `--from/--to: the window ${iso(from)} – ${iso(to)} spans more than 50 years; give a shorter one`,
    );

  const report = emptyReport(query, projects, channels, now(), from, to);
  // the Prompter's questions are not sessions: bounded by --from/--to only
  report.prompter = await computePrompterStats(warehouse, { from: query.from, to: query.to, top: query.top });
  if (from === null || to === null || from >= to || projects.length === 0) return report;

  const params: Record<string, SqlParam> = {
    projects,
    from: new Date(from),
    to: new Date(to),
    all_channels: channels === undefined,
    channels: channels ?? [],
    several_channels: channels !== undefined && channels.length > 1,
    tz: query.timeZone,
    unit: query.period,
    top: query.top,
    ...quarterParams(from, to),
  };
  report.totals = readTotals((await run('totals', params))[0]);
  const t = report.totals;
  report.byChannel = (await run('by-channel', params)).map(readChannelRow);
  t.messages = report.byChannel.reduce((sum, row) => sum + row.messages, 0);
  report.empty = t.sessions === 0 && t.messages === 0;
  const periods = await run('by-period', params);
  report.byPeriod = periods.filter((r) => r['is_total'] === true).map((r) => readPeriodRow(r, query.period));
  report.byPeriodChannel = periods
    .filter((r) => r['is_total'] !== true)
    .map((r) => ({ ...readPeriodRow(r, query.period), channel: str(r['channel']) }));

  // a label belongs to one project: its share is of its own project's sessions (messages), not of every project's
  const own = await projectTotals(warehouse, params, projects, t);
  const sessionLabels = await run('session-labels', params);
  report.sessionLabels = sessionLabels
    .filter((r) => r['is_total'] === true)
    .map((r) => ({
      ...labelRow(r),
      share: ratio(count(r['count']), own.get(String(r['project']))?.sessions ?? 0),
    }));
  report.sessionLabelsByPeriod = sessionLabels
    .filter((r) => r['is_total'] !== true)
    .map((r) => ({ ...periodOf(r, query.period), ...labelRow(r) }));
  const messageLabels = await run('message-labels', params);
  report.messageLabels = messageLabels
    .filter((r) => r['is_total'] === true)
    .map((r) => ({
      ...labelRow(r),
      group: str(r['group_name']),
      share: ratio(count(r['count']), own.get(String(r['project']))?.messages ?? 0),
    }));
  report.messageLabelsByPeriod = messageLabels
    .filter((r) => r['is_total'] !== true)
    .map((r) => ({ ...periodOf(r, query.period), ...labelRow(r), group: str(r['group_name']) }));

  report.deliveryFunnel = (await run('delivery-funnel', params)).map(readFunnelRow);
  report.intents = readIntents(await run('intents', params), query);
  report.sessionData = readSessionData(await run('session-data', params), t.sessions);
  report.experiments = (await run('experiments', params)).map(readExperimentRow);
  report.firstQuestions = (await run('first-questions', params)).map(
    (r): FirstQuestionRow => ({
      question: String(r['question']),
      sessions: count(r['sessions']),
      share: ratio(count(r['sessions']), t.sessions),
    }),
  );
  return report;
}

/**
 * Each selected project's sessions and messages of the window: the totals' and the channels' statements run for
 * the project alone (the same figures, so a project's label shares add up as in a report of that project alone).
 * One project: the report's own totals, no query.
 */
async function projectTotals(
  warehouse: Warehouse,
  params: Readonly<Record<string, SqlParam>>,
  projects: readonly string[],
  totals: StatsTotals,
): Promise<Map<string, { sessions: number; messages: number }>> {
  const own = new Map<string, { sessions: number; messages: number }>();
  if (projects.length === 1) {
    own.set(projects[0]!, { sessions: totals.sessions, messages: totals.messages });
    return own;
  }
  for (const project of projects) {
    const alone = { ...params, projects: [project] };
    const sessions = count((await run(warehouse, 'totals', alone))[0]?.['sessions']);
    const messages = (await run(warehouse, 'by-channel', alone)).reduce(
      (sum, r) => sum + count(r['messages']),
      0,
    );
    own.set(project, { sessions, messages });
  }
  return own;
}

/** Runs one statistics statement with the parameters it names. */
export async function run(
  warehouse: Warehouse,
  name: StatsQueryName,
  all: Readonly<Record<string, SqlParam>>,
): Promise<PlainRow[]> {
  return runWith(warehouse, loadStatsSql()[name], all);
}

function runWith(
  warehouse: Warehouse,
  sql: string,
  all: Readonly<Record<string, SqlParam>>,
): Promise<PlainRow[]> {
  return warehouse.query(sql, paramsFor(sql, all));
}

/**
 * How the window [from, to) splits for the rollups: its whole quarter hours [q_lo, q_hi) read from the
 * rollups, the partial quarters at its edges, [from, head_to) and [tail_from, to), from the raw rows (a
 * window inside one quarter is all head); q_from, the quarter of `from`, bounds the transfers read.
 */
export function quarterParams(from: number, to: number): Record<string, SqlParam> {
  const qLo = Math.ceil(from / QUARTER_MS);
  const qHi = Math.floor(to / QUARTER_MS);
  const whole = qLo < qHi;
  return {
    q_from: Math.floor(from / QUARTER_MS),
    q_lo: whole ? qLo : 0,
    q_hi: whole ? qHi : 0,
    head_to: new Date(whole ? qLo * QUARTER_MS : to),
    tail_from: new Date(whole ? qHi * QUARTER_MS : to),
  };
}

/**
 * The first and last instant of the projects' sessions and messages: the sessions' from window-bounds, the
 * messages' from their first and last quarter hour (message-bounds reads only those two quarters).
 */
export async function readWindowBounds(
  warehouse: Warehouse,
  projects: readonly string[],
  sql: StatsSql = loadStatsSql(),
): Promise<{ firstAt: number | null; lastAt: number | null }> {
  const bounds = (await runWith(warehouse, sql['window-bounds'], { projects: [...projects] }))[0];
  const firstQ = num(bounds?.['first_q']);
  const lastQ = num(bounds?.['last_q']);
  let firstMessage: number | null = null;
  let lastMessage: number | null = null;
  if (firstQ !== null && lastQ !== null) {
    const row = (
      await runWith(warehouse, sql['message-bounds'], {
        projects: [...projects],
        first_q_from: new Date(firstQ * QUARTER_MS),
        first_q_to: new Date((firstQ + 1) * QUARTER_MS),
        last_q_from: new Date(lastQ * QUARTER_MS),
        last_q_to: new Date((lastQ + 1) * QUARTER_MS),
      })
    )[0];
    firstMessage = num(row?.['first_message']);
    lastMessage = num(row?.['last_message']);
  }
  const pick = (values: (number | null)[], choose: (...v: number[]) => number) => {
    const present = values.filter((v): v is number => v !== null);
    return present.length === 0 ? null : choose(...present);
  };
  return {
    firstAt: pick([num(bounds?.['first_session']), firstMessage], Math.min),
    lastAt: pick([num(bounds?.['last_session']), lastMessage], Math.max),
  };
}

function emptyReport(
  query: StatsQuery,
  projects: string[],
  channels: string[] | undefined,
  generatedAt: number,
  from: number | null,
  to: number | null,
): StatsReport {
  return {
    schemaVersion: STATS_SCHEMA_VERSION,
    generatedAt: iso(generatedAt),
    window: {
      from: from === null ? null : iso(from),
      to: to === null ? null : iso(to),
      requestedFrom: query.from === undefined ? null : iso(query.from),
      requestedTo: query.to === undefined ? null : iso(query.to),
    },
    timeZone: query.timeZone,
    period: query.period,
    filters: { projects, channels: channels ?? null },
    empty: true,
    totals: {
      sessions: 0,
      nonEmptySessions: 0,
      messages: 0,
      uniqueClients: 0,
      newClients: 0,
      returningClients: 0,
      transferredSessions: 0,
      transferShare: null,
      messagesPerSession: null,
      sessionDurationMs: null,
    },
    byChannel: [],
    byPeriod: [],
    byPeriodChannel: [],
    sessionLabels: [],
    sessionLabelsByPeriod: [],
    messageLabels: [],
    messageLabelsByPeriod: [],
    deliveryFunnel: [],
    intents: {
      catchAllClass: query.catchAllClass,
      classified: 0,
      unrecognised: 0,
      unrecognisedShare: null,
      top: [],
    },
    sessionData: [],
    experiments: [],
    firstQuestions: [],
    prompter: {
      questions: 0,
      sent: 0,
      failed: 0,
      answered: 0,
      answeredRate: null,
      withOptions: 0,
      withOptionsRate: null,
      meanOptions: null,
      top1Confidence: null,
      topIntents: [],
      accuracy: { questions: 0, top1: 0, top3: 0, top1Rate: null, top3Rate: null },
      latencyMs: null,
    },
  };
}

function readTotals(row: PlainRow | undefined): StatsTotals {
  const sessions = count(row?.['sessions']);
  const uniqueClients = count(row?.['unique_clients']);
  const returningClients = count(row?.['returning_clients']);
  const transferred = count(row?.['transferred_sessions']);
  return {
    sessions,
    nonEmptySessions: count(row?.['non_empty_sessions']),
    messages: count(row?.['messages']),
    uniqueClients,
    newClients: uniqueClients - returningClients,
    returningClients,
    transferredSessions: transferred,
    transferShare: ratio(transferred, sessions),
    messagesPerSession: distribution(
      row?.['messages_per_session_mean'],
      row?.['messages_per_session_quantiles'],
    ),
    sessionDurationMs: distribution(row?.['duration_ms_mean'], row?.['duration_ms_quantiles']),
  };
}

function distribution(mean: PlainValue | undefined, quantiles: PlainValue | undefined): Distribution | null {
  const m = num(mean);
  if (m === null || !Array.isArray(quantiles)) return null;
  const [p50, p90, p99] = quantiles.map((q) => num(q) ?? 0);
  return { mean: m, p50: p50 ?? 0, p90: p90 ?? 0, p99: p99 ?? 0 };
}

function readChannelRow(r: PlainRow): ChannelRow {
  const sessions = count(r['sessions']);
  const transferred = count(r['transferred_sessions']);
  return {
    channel: str(r['channel']),
    sessions,
    nonEmptySessions: count(r['non_empty_sessions']),
    messages: count(r['messages']),
    uniqueClients: count(r['unique_clients']),
    transferredSessions: transferred,
    transferShare: ratio(transferred, sessions),
  };
}

function periodOf(r: PlainRow, unit: PeriodUnit): { period: string; start: string } {
  return { period: periodLabel(count(r['local_start']), unit), start: iso(count(r['start'])) };
}

function readPeriodRow(r: PlainRow, unit: PeriodUnit): PeriodRow {
  return {
    ...periodOf(r, unit),
    sessions: count(r['sessions']),
    messages: count(r['messages']),
    uniqueClients: count(r['unique_clients']),
    transferredSessions: count(r['transferred_sessions']),
  };
}

function labelRow(r: PlainRow): { project: string; labelId: number; label: string | null; count: number } {
  return {
    project: String(r['project']),
    labelId: count(r['label_id']),
    label: str(r['label']),
    count: count(r['count']),
  };
}

function readFunnelRow(r: PlainRow): FunnelRow {
  const withStatus = count(r['with_status']);
  const sent = num(r['sent']);
  const read = num(r['read']);
  const delivered = count(r['delivered']);
  const notSent = count(r['not_sent']);
  const notDelivered = count(r['not_delivered']);
  const reached = delivered + (read ?? 0);
  return {
    channel: String(r['channel']),
    messages: count(r['messages']),
    withStatus,
    noStatus: count(r['messages']) - withStatus,
    sent,
    delivered,
    read,
    notSent,
    notDelivered,
    other: count(r['other']),
    unexpected: count(r['unexpected']),
    deliveredRate: ratio(reached, withStatus),
    readRate: read === null ? null : ratio(read, reached),
    notSentRate: ratio(notSent, withStatus),
    notDeliveredRate: ratio(notDelivered, withStatus),
    // not measured: no API gives the time of a status change (docs/statistics.md)
    medianMsToRead: null,
    readTimed: null,
  };
}

function readIntents(rows: PlainRow[], query: StatsQuery): IntentStats {
  const classified = rows.reduce((sum, r) => sum + count(r['messages']), 0);
  const unrecognised = count(rows.find((r) => r['nlp_class'] === query.catchAllClass)?.['messages']);
  return {
    catchAllClass: query.catchAllClass,
    classified,
    unrecognised,
    unrecognisedShare: ratio(unrecognised, classified),
    top: rows.slice(0, query.top).map((r) => ({
      nlpClass: String(r['nlp_class']),
      messages: count(r['messages']),
      share: ratio(count(r['messages']), classified),
      meanConfidence: num(r['mean_confidence']),
    })),
  };
}

function readSessionData(rows: PlainRow[], sessions: number): SessionDataKeyRow[] {
  const byKey = new Map<string, SessionDataKeyRow>();
  for (const r of rows) {
    const key = String(r['key']);
    let entry = byKey.get(key);
    if (!entry) {
      const keySessions = count(r['key_sessions']);
      entry = {
        key,
        sessions: keySessions,
        share: ratio(keySessions, sessions),
        distinctValues: count(r['distinct_values']),
        values: [],
      };
      byKey.set(key, entry);
    }
    entry.values.push({
      value: str(r['value']),
      sessions: count(r['sessions']),
      share: ratio(count(r['sessions']), sessions),
    });
  }
  return [...byKey.values()];
}

function readExperimentRow(r: PlainRow): ExperimentRow {
  const sessions = count(r['sessions']);
  const transferred = count(r['transferred_sessions']);
  return {
    project: String(r['project']),
    experiment: String(r['experiment_key']),
    status: str(r['status']),
    branch: String(r['branch']),
    sessions,
    messagesPerSession: num(r['messages_per_session']),
    transferredSessions: transferred,
    transferRate: ratio(transferred, sessions),
  };
}

/** A period's name in its local time: 2026-11-20T13:00, 2026-11-20, 2026-W47 (ISO week), 2026-11. */
export function periodLabel(localStart: number, unit: PeriodUnit): string {
  const text = new Date(localStart).toISOString();
  switch (unit) {
    case 'hour':
      return `${text.slice(0, 13)}:00`;
    case 'day':
      return text.slice(0, 10);
    case 'month':
      return text.slice(0, 7);
    default: {
      // ISO 8601: the week belongs to the year of its Thursday
      const thursday = new Date(localStart + 3 * 86_400_000);
      const year = thursday.getUTCFullYear();
      const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * 86_400_000)) + 1;
      return `${year}-W${String(week).padStart(2, '0')}`;
    }
  }
}

export function ratio(part: number, whole: number): number | null {
  return whole === 0 ? null : part / whole;
}

function num(value: PlainValue | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function count(value: PlainValue | undefined): number {
  return num(value) ?? 0;
}

function str(value: PlainValue | undefined): string | null {
  return value === null || value === undefined ? null : String(value);
}

function iso(t: number): string {
  return new Date(t).toISOString();
}
