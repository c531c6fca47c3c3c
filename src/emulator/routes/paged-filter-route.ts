// A paged filter operation (sessions/filter, messages/filter, clients/filter, ...): POST, read the filters,
// select the matching rows, page them, answer `{paging, <key>: records}`. Invariant: with page drift
// scripted, page 0 holds back the sessions of the first rows before the selection is paged.
import { type CompiledFilters, compileFilters } from '../filters.js';
import { pageOf, type Route, type RouteContext, type RouteOptions } from '../route.js';

export interface PagedFilterRoute<R> extends RouteOptions {
  path: string;
  op: string;
  /** The key of the page's records in the answer: `sessions`, `messages`, `clients`, `routes`. */
  key: string;
  /** The filters of the request: by default the body's FiltersDto. */
  filters?(ctx: RouteContext): CompiledFilters;
  /** The matching rows in the API's order. */
  select(ctx: RouteContext, filters: CompiledFilters): ArrayLike<R>;
  /** The session of a row: the operation has scripted page drift (sessions held back) when given. */
  sessionOf?(row: R): number;
  /** Reads the record options of the request (after the page parameters); returns the row-to-record map. */
  record(ctx: RouteContext): (row: R) => unknown;
}

/**
 * Scripted page drift for paged filter operations: on page 0 the newest matching sessions are held back
 * (and left out of totalCount); any later page releases them, as if they had just arrived.
 */
function applyPageDrift<R>(
  ctx: RouteContext,
  select: () => ArrayLike<R>,
  sessionOf: (row: R) => number,
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
  for (let n = 0; n < rows.length && p.withheld.size < wanted; n++) p.withheld.add(sessionOf(rows[n] as R));
}

export function pagedFilterRoute<R>(spec: PagedFilterRoute<R>): Route {
  const { path, op, key, select, sessionOf, record } = spec;
  const filtersOf = spec.filters ?? ((ctx: RouteContext) => compileFilters(ctx.body));
  return {
    method: 'POST',
    path,
    op,
    ...(spec.needsProject === undefined ? {} : { needsProject: spec.needsProject }),
    ...(spec.generations === undefined ? {} : { generations: spec.generations }),
    handler(ctx) {
      const filters = filtersOf(ctx);
      if (sessionOf) applyPageDrift(ctx, () => select(ctx, filters), sessionOf);
      const { paging, items } = pageOf(ctx, select(ctx, filters));
      return { body: { paging, [key]: items.map(record(ctx)) } };
    },
  };
}
