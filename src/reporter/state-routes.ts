// State routes: the paths of script states that sessions took, grouped, with how many sessions took each
// (state-routes/filter, paged, over the sessions matching the filters).
import { z } from 'zod';
import type { ReporterFilter } from './filters.js';
import type { ReporterHttp } from './http.js';
import { parseAnswer } from './parse-answer.js';
import { paging } from './schemas.js';

const stateRoute = z
  .object({
    stateRoutes: z.array(z.string()).nullish(),
    states: z.array(z.string()).nullish(),
    stateRouteResult: z.string().nullish(),
    sessionsCount: z.number().int().nonnegative(),
  })
  .transform((r) => ({
    states: r.stateRoutes ?? r.states ?? [],
    result: r.stateRouteResult ?? null,
    sessions: r.sessionsCount,
  }));
export type StateRoute = z.infer<typeof stateRoute>;

const stateRoutesData = z.object({ paging, routes: z.array(stateRoute) });
export type StateRoutesPage = z.infer<typeof stateRoutesData>;

export async function filterStateRoutes(
  http: ReporterHttp,
  filters: ReporterFilter[],
  request: { page?: number; size?: number } = {},
): Promise<StateRoutesPage> {
  const op = 'state-routes/filter';
  const answer = await http.json({
    method: 'POST',
    op,
    query: { page: request.page ?? 0, size: request.size ?? 20 },
    body: { filters },
  });
  return parseAnswer(op, stateRoutesData, answer);
}
