// The shape of an emulator operation: method, path pattern (relative to the generation's prefix),
// whether it writes, and a handler that gets one RouteContext and returns a JSON answer (or writes raw);
// with the factories of the common shapes: a read (`readRoute`), a state change (`writeRoute`), a page.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Emulator } from './emulator.js';
import { queryInt } from './params.js';
import type { ProjectData } from './project-data.js';

export type Generation = 'v1' | 'legacy';

export interface RouteContext {
  emulator: Emulator;
  project: ProjectData;
  /** True when the request named its project (v1 `projectShortName`, or any legacy token). */
  projectNamed: boolean;
  generation: Generation;
  token: string;
  /** Every project the token may read (v1 tokens can span several). */
  tokenProjects: string[];
  method: string;
  /** Path after the generation prefix, e.g. `sessions/filter`. */
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  headers: IncomingHttpHeaders;
  /** The emulator clock when the request arrived. */
  now: number;
  /** Absolute base URL of this server, e.g. `http://127.0.0.1:4010`. */
  baseUrl: string;
  /** Prefix of reporter operations for this generation, e.g. `/api/v1/reporter`. */
  prefix: string;
  req: IncomingMessage;
  res: ServerResponse;
}

export interface RouteResult {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** The handler wrote the response itself (files, long polls). */
  raw?: boolean;
}

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Pattern with `{name}` segments, relative to the prefix: `message/labels/{id}`. */
  path: string;
  /** The operationId of the vendor's spec (or ours for v1-only operations). */
  op: string;
  write?: boolean;
  /** Operations that need `projectShortName` on v1 (experiments, clients/all-for-bot). */
  needsProject?: boolean;
  /** Where the operation exists: both generations by default. */
  generations?: readonly Generation[];
  handler(ctx: RouteContext): RouteResult | undefined | Promise<RouteResult | undefined>;
}

/** Where an operation exists and whether it needs a named project (see Route). */
export type RouteOptions = Pick<Route, 'needsProject' | 'generations'>;

/** An operation that answers the body `answer` returns (undefined: no body). */
export function readRoute(
  method: Route['method'],
  path: string,
  op: string,
  answer: (ctx: RouteContext) => unknown,
): Route {
  return { method, path, op, handler: (ctx) => ({ body: answer(ctx) }) };
}

/**
 * An operation that changes the project's state (`write`: refused to read-only tokens): `change` checks the
 * whole request before it changes anything, then returns the body (undefined: none); the state's version is
 * bumped once it returned, so later reads (and their caches) see the change.
 */
export function writeRoute(
  method: Route['method'],
  path: string,
  op: string,
  change: (ctx: RouteContext) => unknown,
): Route {
  return {
    method,
    path,
    op,
    write: true,
    handler(ctx) {
      const body = change(ctx);
      ctx.project.state.touch();
      return { body };
    },
  };
}

/** The page size of a request: `size` (default 20), capped by the server (fewer rows than asked). */
export function pageSizeOf(ctx: RouteContext): number {
  const size = queryInt(ctx.query, 'size', { default: 20, min: 1 })!;
  return Math.min(size, ctx.emulator.options.maxPageSize);
}

/** Page parameters of the API: `page` from 0, `size` default 20, capped by the server (fewer rows than asked). */
export function pageOf<T>(
  ctx: RouteContext,
  rows: ArrayLike<T>,
): { paging: { pageNum: number; pageSize: number; totalCount: number }; items: T[]; page: number } {
  const page = queryInt(ctx.query, 'page', { default: 0, min: 0 })!;
  const pageSize = pageSizeOf(ctx);
  const from = page * pageSize;
  const items: T[] = [];
  for (let n = from; n < Math.min(rows.length, from + pageSize); n++) items.push(rows[n] as T);
  return { paging: { pageNum: page, pageSize, totalCount: rows.length }, items, page };
}
