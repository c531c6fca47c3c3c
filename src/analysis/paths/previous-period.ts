// The previous period (of the same length, just before) and how much of it the synced data covers: each
// selected project is held from its first synced session's start to its sync watermark (its last session's
// start without one); the period's coverage is the least of the projects'. Only a fully covered previous period
// gets the routes' change (docs/paths.md#against-the-previous-period); otherwise the note says how much it is.
import type { PlainRow, PlainValue, SqlParam, Warehouse } from '../../warehouse/warehouse.js';
import { type PathsSql, pickParams } from './load-paths-sql.js';
import type { PreviousPeriod, RouteRow } from './paths-report.js';
import { EVERY_CHANNEL, type RouteCount, ratio } from './read-flows.js';

const time = (v: PlainValue | undefined): number | null => (typeof v === 'number' ? v : null);

/** The share of [from, to) inside [held.from, held.to). */
function overlap(from: number, to: number, held: { from: number; to: number }): number {
  const inside = Math.min(to, held.to) - Math.max(from, held.from);
  return to > from ? Math.max(0, inside) / (to - from) : 0;
}

/** The part of [from, to) every project's synced data covers (the least of them; 0 without a project). */
export function coverageOf(rows: readonly PlainRow[], from: number, to: number): number {
  if (rows.length === 0) return 0;
  let least = 1;
  for (const r of rows) {
    const first = time(r['first_start']);
    const watermark = typeof r['watermark'] === 'string' ? Date.parse(r['watermark']) : Number.NaN;
    const end = Number.isFinite(watermark) ? watermark : time(r['last_start']);
    least = Math.min(least, first === null || end === null ? 0 : overlap(from, to, { from: first, to: end }));
  }
  return least;
}

/** "n/a: the previous period is 40 % covered": whole percents, rounded down (99.9 % is not 100 %). */
export function coverageNote(coverage: number): string {
  return `n/a: the previous period is ${Math.floor(coverage * 100)} % covered`;
}

export async function readPreviousPeriod(
  warehouse: Warehouse,
  sql: PathsSql,
  params: Readonly<Record<string, SqlParam>>,
  period: { from: number; to: number },
): Promise<PreviousPeriod> {
  const from = period.from - (period.to - period.from);
  const rows = await warehouse.query(sql.coverage, pickParams(sql.coverage, params));
  const coverage = coverageOf(rows, from, period.from);
  const covered = coverage >= 1;
  return {
    from: new Date(from).toISOString(),
    to: new Date(period.from).toISOString(),
    coverage,
    covered,
    note: covered ? null : coverageNote(coverage),
    withPath: null,
  };
}

/** The previous period's sessions on each route (by channel, '' every channel) and with a path. */
export interface PreviousCounts {
  routes: Map<string, Map<string, number>>;
  withPath: Map<string, number>;
}

export async function readPreviousRoutes(
  warehouse: Warehouse,
  sql: PathsSql,
  params: Readonly<Record<string, SqlParam>>,
  routes: readonly string[],
): Promise<PreviousCounts> {
  const rows = await warehouse.query(
    sql.previous,
    pickParams(sql.previous, { ...params, routes: [...routes] }),
  );
  const counts: PreviousCounts = { routes: new Map(), withPath: new Map() };
  for (const r of rows) {
    const channel = r['every_channel'] === true ? EVERY_CHANNEL : String(r['channel']);
    const sessions = Number(r['sessions']);
    if (r['kind'] === 'total') counts.withPath.set(channel, sessions);
    else {
      let byRoute = counts.routes.get(channel);
      if (!byRoute) counts.routes.set(channel, (byRoute = new Map()));
      byRoute.set(String(r['route']), sessions);
    }
  }
  return counts;
}

/** A channel's top routes with their share and, where the previous period is covered, its figures. */
export function withPrevious(
  routes: readonly RouteCount[],
  withPath: number,
  previous: { counts: PreviousCounts; channel: string } | null,
): RouteRow[] {
  return routes.map((r) => {
    const row: RouteRow = {
      route: r.route,
      states: r.states,
      sessions: r.sessions,
      share: ratio(r.sessions, withPath),
      previous: { sessions: null, share: null, change: null },
    };
    if (previous) {
      const sessions = previous.counts.routes.get(previous.channel)?.get(r.route) ?? 0;
      row.previous = {
        sessions,
        share: ratio(sessions, previous.counts.withPath.get(previous.channel) ?? 0),
        change: sessions === 0 ? null : r.sessions / sessions - 1,
      };
    }
    return row;
  });
}
