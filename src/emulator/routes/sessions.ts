// Session operations: sessions/filter (paged, optional labels and sessionData), projects/sessions/count,
// state-routes/filter. Page drift is scripted here: sessions held back on page 0 arrive before page 1.
import { compileFilters } from '../filters.js';
import { queryBool } from '../params.js';
import type { ProjectData } from '../project-data.js';
import { selectSessions } from '../query.js';
import { pageOf, type Route, type RouteContext } from '../route.js';

/** SessionInfo with the duration in the server's configured unit. */
export function sessionForWire(
  ctx: RouteContext,
  p: ProjectData,
  i: number,
  options: { data?: boolean; labels?: boolean },
): Record<string, unknown> {
  const record = p.sessionRecord(i, ctx.now, options);
  if (ctx.emulator.options.durationUnit === 's')
    record['duration'] = Math.round((record['duration'] as number) / 1000);
  return record;
}

/**
 * Scripted page drift for paged filter operations: on page 0 the newest matching sessions are held back
 * (and left out of totalCount); any later page releases them, as if they had just arrived.
 */
export function applyPageDrift(
  ctx: RouteContext,
  select: () => ArrayLike<number>,
  sessionOf: (row: number) => number = (x) => x,
): void {
  const p = ctx.project;
  const page = Number(ctx.query.get('page') ?? '0');
  if (page > 0 && p.withheld.size > 0) {
    p.withheld.clear();
    return;
  }
  if (page !== 0) return;
  const fault = ctx.emulator.faults.take(['pageDrift'], { path: ctx.path, method: ctx.method });
  if (!fault) return;
  const rows = select();
  const wanted = fault.count ?? 3;
  for (let n = 0; n < rows.length && p.withheld.size < wanted; n++)
    p.withheld.add(sessionOf(rows[n] as number));
}

function stateRoute(p: ProjectData, i: number, now: number): string[] {
  const states: string[] = [];
  const visible = p.skeleton.visibleMessageCount(i, now);
  for (let k = 0; k < visible && states.length < 5; k++) {
    const state = p.messageFacts(i, k).nlpState ?? '/';
    if (states[states.length - 1] !== state) states.push(state);
  }
  return states;
}

export function sessionRoutes(): Route[] {
  return [
    {
      method: 'POST',
      path: 'sessions/filter',
      op: 'getSessionDataByFilter',
      handler(ctx) {
        const filters = compileFilters(ctx.body);
        applyPageDrift(ctx, () => selectSessions(ctx.project, filters, ctx.now));
        const rows = selectSessions(ctx.project, filters, ctx.now);
        const { paging, items } = pageOf(ctx, rows);
        const labels = queryBool(ctx.query, 'needToReturnSessionLabels');
        // the previous generation has no needToReturnSessionData: sessionData never comes back there
        const data = ctx.generation === 'v1' && queryBool(ctx.query, 'needToReturnSessionData');
        const sessions = items.map((i) => sessionForWire(ctx, ctx.project, i, { data, labels }));
        return { body: { paging, sessions } };
      },
    },
    {
      method: 'GET',
      path: 'projects/sessions/count',
      op: 'countAllProjectsSessions',
      handler(ctx) {
        const body = ctx.tokenProjects.map((name) => {
          const p = ctx.emulator.project(name);
          return {
            projectShortName: name,
            amount: p.skeleton.sessionsStartingIn(Number.NEGATIVE_INFINITY, ctx.now)[1],
          };
        });
        return { body };
      },
    },
    {
      method: 'POST',
      path: 'state-routes/filter',
      op: 'getStateRoutesDataByFilter',
      handler(ctx) {
        const filters = compileFilters(ctx.body);
        const groups = new Map<string, { states: string[]; result: string; count: number }>();
        for (const i of selectSessions(ctx.project, filters, ctx.now)) {
          const states = stateRoute(ctx.project, i, ctx.now);
          const result = ctx.project.sessionResult(i);
          const key = `${states.join('>')}|${result}`;
          const group = groups.get(key);
          if (group) group.count++;
          else groups.set(key, { states, result, count: 1 });
        }
        const rows = [...groups.values()].sort(
          (a, b) => b.count - a.count || (a.states.join() < b.states.join() ? -1 : 1),
        );
        const { paging, items } = pageOf(ctx, rows);
        const routes = items.map((g) => ({
          states: g.states,
          stateRoutes: g.states,
          stateRouteResult: g.result,
          sessionsCount: g.count,
        }));
        return { body: { paging, routes } };
      },
    },
  ];
}
