// Reads the state routes of one UTC day: the channels that had sessions that day (filter-options of
// CHANNEL_TYPE), then state-routes/filter per channel, every page. A day whose pages do not add up (the
// total changed while paging) is an error, never a partial day: the day is replaced whole when it is stored.
import { z } from 'zod';
import { EtlError } from '../../errors.js';
import { type ReporterFilter, sessionStartFilter } from '../../platform/reporter/filters.js';
import { normaliseChannel } from '../../platform/reporter/normalise-channel.js';
import { readAllPages } from '../../platform/reporter/paging.js';
import { parseAnswer } from '../../platform/reporter/parse-answer.js';
import type { ReporterHttp } from '../../platform/reporter/reporter-http.js';
import { dayBounds } from '../daily-days.js';
import type { DayRow } from '../daily-source.js';

/** One route of a day and channel: a row of state_routes. */
export interface DayRoute extends DayRow {
  channel_type: string;
  states: string[];
  /** The states joined with ' > '. */
  route: string;
  result: string;
  sessions: number;
}

const channelOptions = z.array(z.object({ value: z.string(), frequency: z.number().optional() }));
const routeRecord = z.object({
  stateRoutes: z.array(z.string()).optional(),
  states: z.array(z.string()).optional(),
  stateRouteResult: z.string().nullish(),
  sessionsCount: z.number().int().nonnegative(),
});

const OPTIONS_PAGE = 100;
const ROUTES_PAGE = 500;

/** The channel values (as the platform spells them) with sessions started in [from, to). */
export async function readDayChannels(http: ReporterHttp, day: ReporterFilter): Promise<string[]> {
  const op = 'filter-options';
  const values: string[] = [];
  for (let page = 0; ; page++) {
    const answer = await http.json({
      method: 'POST',
      read: true,
      op,
      query: { filterKey: 'CHANNEL_TYPE', analyticsSection: 'SESSIONS', page, size: OPTIONS_PAGE },
      body: { filters: [day] },
    });
    const options = parseAnswer(op, channelOptions, answer);
    for (const o of options) if (o.frequency === undefined || o.frequency > 0) values.push(o.value);
    if (options.length < OPTIONS_PAGE) return values;
  }
}

function channelFilter(value: string): ReporterFilter {
  return { key: 'CHANNEL_TYPE', type: 'CHECKBOX', comparisonType: 'CONTAINS', options: [value] };
}

/** Every route of the sessions started in [from, to) on one channel. */
async function readChannelRoutes(
  http: ReporterHttp,
  at: DayRow & { filter: ReporterFilter },
  value: string,
): Promise<DayRoute[]> {
  const op = 'state-routes/filter';
  const read = await readAllPages(http, {
    op,
    key: 'routes',
    body: { filters: [at.filter, channelFilter(value)] },
    pageSize: ROUTES_PAGE,
    idOf: () => undefined,
    transform: (record) => parseAnswer(op, routeRecord, record),
  });
  if (!read.complete)
    throw new EtlError('source.incomplete', `${op} of ${at.day}, channel ${value}: ${read.problem}`, {
      kind: 'transient',
    });
  const channel = normaliseChannel(value);
  return read.records.map((r) => {
    const states = r.stateRoutes ?? r.states ?? [];
    return {
      project: at.project,
      day: at.day,
      channel_type: channel,
      states,
      route: states.join(' > '),
      result: r.stateRouteResult ?? '',
      sessions: r.sessionsCount,
    };
  });
}

/** The routes of every channel of the sessions started on `day` (yyyy-MM-dd, UTC). */
export async function readDayRoutes(http: ReporterHttp, project: string, day: string): Promise<DayRoute[]> {
  const { from, to } = dayBounds(day);
  const at = { project, day, filter: sessionStartFilter(from, to) };
  const routes: DayRoute[] = [];
  for (const value of await readDayChannels(http, at.filter))
    routes.push(...(await readChannelRoutes(http, at, value)));
  return routes;
}
