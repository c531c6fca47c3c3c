// Session operations: sessions/filter (paged, optional labels and sessionData), projects/sessions/count,
// state-routes/filter. Both filter operations page one selection; sessions/filter has scripted page drift.
import { queryBool } from '../params.js';
import type { ProjectData } from '../project-data.js';
import { selectSessions } from '../query.js';
import { type Route, type RouteContext, readRoute } from '../route.js';
import { stateRoute } from '../state-route.js';
import { pagedFilterRoute } from './paged-filter-route.js';

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

export function sessionRoutes(): Route[] {
  return [
    pagedFilterRoute({
      path: 'sessions/filter',
      op: 'getSessionDataByFilter',
      key: 'sessions',
      select: (ctx, filters) => selectSessions(ctx.project, filters, ctx.now),
      sessionOf: (i) => i,
      record(ctx) {
        const labels = queryBool(ctx.query, 'needToReturnSessionLabels');
        // the previous generation has no needToReturnSessionData: sessionData never comes back there
        const data = ctx.generation === 'v1' && queryBool(ctx.query, 'needToReturnSessionData');
        return (i) => sessionForWire(ctx, ctx.project, i, { data, labels });
      },
    }),
    readRoute('GET', 'projects/sessions/count', 'countAllProjectsSessions', (ctx) =>
      ctx.tokenProjects.map((name) => ({
        projectShortName: name,
        amount: ctx.emulator.project(name).skeleton.sessionsStartingIn(Number.NEGATIVE_INFINITY, ctx.now)[1],
      })),
    ),
    pagedFilterRoute({
      path: 'state-routes/filter',
      op: 'getStateRoutesDataByFilter',
      key: 'routes',
      select(ctx, filters) {
        const groups = new Map<string, { states: string[]; result: string; count: number }>();
        for (const i of selectSessions(ctx.project, filters, ctx.now)) {
          const states = stateRoute(ctx.project, i, ctx.now);
          const result = ctx.project.sessionResult(i);
          const key = `${states.join('>')}|${result}`;
          const group = groups.get(key);
          if (group) group.count++;
          else groups.set(key, { states, result, count: 1 });
        }
        return [...groups.values()].sort(
          (a, b) => b.count - a.count || (a.states.join() < b.states.join() ? -1 : 1),
        );
      },
      record: () => (g) => ({
        states: g.states,
        stateRoutes: g.states,
        stateRouteResult: g.result,
        sessionsCount: g.count,
      }),
    }),
  ];
}
