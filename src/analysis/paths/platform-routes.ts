// The platform's routes (state_routes, per UTC day) beside the same routes made from the warehouse's messages
// by the platform's rule (platform.sql), over the whole UTC days of the period: the reconciliation of the paths
// with the platform (docs/paths.md#the-platforms-routes). Where the two definitions agree the counts must be
// equal; the columns cut, agent and same say where our paths and the platform's routes differ by definition.
import type { PlainRow, SqlParam, Warehouse } from '../../warehouse/warehouse.js';
import { type PathsSql, pickParams } from './load-paths-sql.js';
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

export async function reconcileRoutes(
  warehouse: Warehouse,
  sql: PathsSql,
  params: Readonly<Record<string, SqlParam>>,
  period: { from: number; to: number },
): Promise<PlatformRoutes> {
  const days = wholeUtcDays(period.from, period.to);
  const out = emptyRoutes(days);
  if (days === null) return out;
  const rows = await warehouse.query(
    sql.platform,
    pickParams(sql.platform, { ...params, day_from: new Date(days.from), day_to: new Date(days.to) }),
  );
  for (const r of rows) {
    if (r['kind'] === 'days') {
      out.daysCompared = n(r, 'days_compared');
      out.daysNotSynced = n(r, 'days_not_synced');
      out.sessionsNotSynced = n(r, 'sessions_not_synced');
      continue;
    }
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
