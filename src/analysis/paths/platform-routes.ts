// The platform's routes (state_routes, per UTC day) beside the same routes made from the warehouse's messages
// by the platform's rule (flows.sql's kinds 'platform' and 'platform-days'), over the whole UTC days of the
// period: the reconciliation of the paths with the platform (docs/paths.md#the-platforms-routes). Where the two
// definitions agree the counts must be equal; the columns cut, agent and same say where our paths and the
// platform's routes differ by definition. Pure: flows.sql's rows in, the figures out.
import type { PlainRow } from '../../warehouse/warehouse.js';
import type { PlatformRouteRow, PlatformRoutes } from './paths-report.js';

const DAY_MS = 86_400_000;

/** The whole UTC days inside [from, to), as instants; null when there is none. */
export function wholeUtcDays(from: number, to: number): { from: number; to: number } | null {
  const first = Math.ceil(from / DAY_MS) * DAY_MS;
  const end = Math.floor(to / DAY_MS) * DAY_MS;
  return first < end ? { from: first, to: end } : null;
}

function emptyRoutes(days: { from: number; to: number } | null): PlatformRoutes {
  return {
    dayFrom: days === null ? null : new Date(days.from).toISOString().slice(0, 10),
    dayTo: days === null ? null : new Date(days.to).toISOString().slice(0, 10),
    daysCompared: 0,
    daysNotSynced: 0,
    sessionsNotSynced: 0,
    routes: 0,
    routesDiffering: 0,
    platformSessions: 0,
    ourSessions: 0,
    sameSessions: 0,
    cutSessions: 0,
    agentSessions: 0,
    rows: [],
  };
}

const n = (r: PlainRow, key: string): number => Number(r[key] ?? 0);

function routeRow(r: PlainRow): PlatformRouteRow {
  return {
    channel: String(r['channel']),
    route: String(r['route']),
    result: String(r['result']),
    platform: n(r, 'platform'),
    ours: n(r, 'ours'),
    differing: n(r, 'differing'),
    cut: n(r, 'cut'),
    agent: n(r, 'agent'),
    same: n(r, 'same'),
  };
}

/**
 * flows.sql's bounds of the compared days ($day_from, $day_to): the whole UTC days inside the period, or an
 * empty range at its start when there is none (no session is compared then).
 */
export function comparedDays(period: { from: number; to: number }): { day_from: Date; day_to: Date } {
  const days = wholeUtcDays(period.from, period.to) ?? { from: period.from, to: period.from };
  return { day_from: new Date(days.from), day_to: new Date(days.to) };
}

/** The platform's routes beside ours, from flows.sql's rows of kinds 'platform' and 'platform-days'. */
export function readPlatformRoutes(
  rows: readonly PlainRow[],
  period: { from: number; to: number },
): PlatformRoutes {
  const days = wholeUtcDays(period.from, period.to);
  const out = emptyRoutes(days);
  if (days === null) return out;
  for (const r of rows) {
    if (r['kind'] === 'platform-days') {
      out.daysCompared = n(r, 'days_compared');
      out.daysNotSynced = n(r, 'days_not_synced');
      out.sessionsNotSynced = n(r, 'sessions_not_synced');
      continue;
    }
    if (r['kind'] !== 'platform') continue;
    out.routes = n(r, 'routes');
    out.routesDiffering = n(r, 'routes_differing');
    out.platformSessions = n(r, 'platform_sessions');
    out.ourSessions = n(r, 'our_sessions');
    out.sameSessions = n(r, 'same_sessions');
    out.cutSessions = n(r, 'cut_sessions');
    out.agentSessions = n(r, 'agent_sessions');
    out.rows.push(routeRow(r));
  }
  return out;
}
