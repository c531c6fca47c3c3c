// The platform's own statistics, read for the reconciliation: advanced stats (sessions, messages, session
// and log labels) with the same filters as the local window, switched sessions per UTC day, unique clients
// and experiment joins. Each answer is checked with zod; only the totals are used.
import { z } from 'zod';
import { EtlError } from '../../errors.js';
import {
  messageTimeFilter,
  type ReporterFilter,
  sessionStartFilter,
} from '../../platform/reporter/filters.js';
import type { ReporterHttp } from '../../platform/reporter/reporter-http.js';
import { describeZodError } from '../../platform/reporter/schemas.js';

const totalAnswer = z.object({ totalCount: z.number() });
const labelStatsAnswer = z.object({
  stats: z.array(
    z.object({
      label: z.object({
        id: z.number(),
        name: z.string().nullish(),
        group: z.object({ name: z.string().nullish() }).nullish(),
      }),
      totalCount: z.number(),
    }),
  ),
});
const uniqueClientsAnswer = z.array(z.object({ projectShortName: z.string(), totalCount: z.number() }));
const keyCountAnswer = z.array(z.object({ key: z.string(), count: z.number() }));

/** Official channel-type names where they differ from the upper-cased stored name. */
const CHANNEL_API_NAMES: Readonly<Record<string, string>> = {
  chatwidget: 'CHAT_WIDGET',
  chatapi: 'CHAT_API',
  incomingwebhook: 'INCOMING_WEBHOOK',
};

/** CHANNEL_TYPE filter of stored channel names (the API matches them case-insensitively). */
export function channelFilter(channels: readonly string[]): ReporterFilter {
  return {
    key: 'CHANNEL_TYPE',
    type: 'CHECKBOX',
    comparisonType: 'CONTAINS',
    options: channels.map((c) => CHANNEL_API_NAMES[c] ?? c.toUpperCase()),
  };
}

export const WITHOUT_EMPTY_SESSIONS: ReporterFilter = {
  key: 'WITHOUT_EMPTY_SESSIONS',
  type: 'RADIO',
  option: 'YES',
};
export const WITH_TRANSFER: ReporterFilter = {
  key: 'TRANSFER_TO_OPERATOR',
  type: 'RADIO',
  option: 'WITH_TRANSFER',
};

function parse<T extends z.ZodType>(schema: T, answer: unknown, op: string): z.infer<T> {
  const parsed = schema.safeParse(answer);
  if (!parsed.success)
    throw new EtlError(
      'reporter.invalid_answer',
      `${op}: unexpected answer (${describeZodError(parsed.error)})`,
    );
  return parsed.data;
}

const STATS_QUERY = { intervalType: 'DAY', step: 1 } as const;

/** POSTs an advanced statistics operation for [from, to): sessions by start time, messages by timestamp. */
function postStats(
  http: ReporterHttp,
  op: string,
  selectBy: 'session' | 'message',
  window: { from: number; to: number },
  extra: readonly ReporterFilter[],
): Promise<unknown> {
  const time =
    selectBy === 'session'
      ? sessionStartFilter(window.from, window.to)
      : messageTimeFilter(window.from, window.to);
  return http.json({
    method: 'POST',
    read: true,
    op,
    query: STATS_QUERY,
    body: { filters: [time, ...extra] },
  });
}

/** totalCount of stats/sessions|messages/with-advanced-filters for sessions (or messages) in [from, to). */
export async function fetchAdvancedCount(
  http: ReporterHttp,
  kind: 'sessions' | 'messages',
  window: { from: number; to: number },
  extra: readonly ReporterFilter[],
): Promise<number> {
  const op = `stats/${kind}/with-advanced-filters`;
  const answer = await postStats(http, op, kind === 'sessions' ? 'session' : 'message', window, extra);
  return parse(totalAnswer, answer, op).totalCount;
}

export interface PlatformLabelCount {
  id: number;
  name: string | null;
  group: string | null;
  count: number;
}

/** Per label: sessions (stats/session-labels, by start) or messages (stats/log-labels, by timestamp). */
export async function fetchLabelCounts(
  http: ReporterHttp,
  kind: 'session' | 'message',
  window: { from: number; to: number },
  extra: readonly ReporterFilter[],
): Promise<PlatformLabelCount[]> {
  const op = kind === 'session' ? 'stats/session-labels' : 'stats/log-labels';
  const answer = await postStats(http, op, kind, window, extra);
  return parse(labelStatsAnswer, answer, op).stats.map((s) => ({
    id: s.label.id,
    name: s.label.name ?? null,
    group: s.label.group?.name ?? null,
    count: s.totalCount,
  }));
}

/** Sessions with a `switch` reply that started on the UTC days [dateFrom, dateTo] (both yyyy-MM-dd). */
export async function fetchSwitchedSessions(
  http: ReporterHttp,
  dateFrom: string,
  dateTo: string,
): Promise<number> {
  const op = 'stats/switched-sessions';
  const answer = await http.json({
    method: 'GET',
    op,
    query: { dateFrom, dateTo, transferToOperatorMethod: 'SWITCH' },
  });
  return parse(totalAnswer, answer, op).totalCount;
}

/** Every client the project has had (all time); undefined when the answer does not list the project. */
export async function fetchUniqueClients(http: ReporterHttp, project: string): Promise<number | undefined> {
  const op = 'stats/unique-clients';
  const answer = await http.json({ method: 'GET', op });
  return parse(uniqueClientsAnswer, answer, op).find((p) => p.projectShortName === project)?.totalCount;
}

/** Joined sessions per experiment, or per branch of one experiment (all time). */
export async function fetchExperimentCounts(
  http: ReporterHttp,
  experimentKey?: string,
): Promise<{ key: string; count: number }[]> {
  const op = 'scenario-exeperiments/count-sessions';
  const answer = await http.json({
    method: 'GET',
    op,
    ...(experimentKey === undefined ? {} : { query: { experimentKey } }),
  });
  return parse(keyCountAnswer, answer, op);
}
