// The shape of a knowledge base operation (method, path under `/api/knowledge-hub`, which key it needs,
// whether it counts against the project's rpmLimit) and its context, the path matcher, and the paging of
// lists (`pageNum` from 0, `pageSize` 1..100, default 20; answers carry `paging`).
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Emulator } from '../emulator.js';
import { kbBadRequest } from './kb-error.js';
import type { KbApiKey } from './kb-model.js';
import type { KbService } from './kb-service.js';
import type { MultipartForm } from './multipart.js';

/** `project`: a project key (its project); `admin`: the administrative key; `either`: both. */
export type KbAccess = 'project' | 'admin' | 'either';

export interface KbContext {
  emulator: Emulator;
  kb: KbService;
  method: string;
  /** Path after `/api/knowledge-hub/`, e.g. `query/500001`. */
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  /** The parts of a multipart/form-data body. */
  form?: MultipartForm;
  headers: IncomingHttpHeaders;
  /** The emulator clock when the request arrived. */
  now: number;
  /** The project key's record, or undefined for the administrative key. */
  key?: KbApiKey;
  /** The project of a project key. */
  projectId?: number;
  req: IncomingMessage;
  res: ServerResponse;
}

export interface KbResult {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** The handler wrote the answer itself (SSE). */
  raw?: boolean;
}

export interface KbRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Pattern with `{name}` segments: `query/{queryId}`. */
  path: string;
  op: string;
  access: KbAccess;
  /** A generation: limited by the project's rpmLimit (429 with Retry-After). */
  generation?: boolean;
  handler(ctx: KbContext): KbResult | Promise<KbResult>;
}

/** The project a project-key operation works on. */
export function projectOf(ctx: KbContext): number {
  return ctx.projectId!;
}

export function matchKbRoute(
  routes: readonly KbRoute[],
  path: string,
  method: string,
): { route?: KbRoute; params: Record<string, string>; pathKnown: boolean } {
  const parts = path.split('/');
  let pathKnown = false;
  let best: { route: KbRoute; params: Record<string, string>; vars: number } | undefined;
  for (const route of routes) {
    const segments = route.path.split('/');
    if (segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let vars = 0;
    const ok = segments.every((seg, n) => {
      const part = parts[n]!;
      if (!seg.startsWith('{')) return seg === part;
      vars++;
      params[seg.slice(1, -1)] = decodeURIComponent(part);
      return part !== '';
    });
    if (!ok) continue;
    pathKnown = true;
    if (route.method !== method) continue;
    if (!best || vars < best.vars) best = { route, params, vars };
  }
  return best ? { route: best.route, params: best.params, pathKnown } : { params: {}, pathKnown };
}

/** A path parameter that must be a LongId. */
export function idParam(ctx: KbContext, name: string): number {
  const raw = ctx.params[name] ?? '';
  if (!/^\d{1,18}$/.test(raw)) throw kbBadRequest(name, `expected an integer id, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

/** A path parameter that must be a LongId, exactly (ids beyond 2^53: integrations). */
export function bigIdParam(ctx: KbContext, name: string): bigint {
  const raw = ctx.params[name] ?? '';
  const value = /^\d{1,19}$/.test(raw) ? BigInt(raw) : -1n;
  if (value < 0n || value > 2n ** 63n - 1n)
    throw kbBadRequest(name, `expected an integer id, got ${JSON.stringify(raw)}`);
  return value;
}

function intParam(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^-?\d+$/.test(raw)) throw kbBadRequest(name, `expected an integer, got ${JSON.stringify(raw)}`);
  const value = Number(raw);
  if (value < min || value > max) throw kbBadRequest(name, `expected ${min}..${max}, got ${value}`);
  return value;
}

/** `waitTimeSeconds` of a status call: 0..30, default 3. */
export function waitSeconds(query: URLSearchParams): number {
  return intParam(query, 'waitTimeSeconds', 3, 0, 30);
}

/** One page of `rows` and its `paging`. */
export function kbPage<T>(
  query: URLSearchParams,
  rows: readonly T[],
): { items: T[]; paging: Record<string, number> } {
  const pageNum = intParam(query, 'pageNum', 0, 0, 1_000_000);
  const pageSize = intParam(query, 'pageSize', 20, 1, 100);
  return {
    items: rows.slice(pageNum * pageSize, (pageNum + 1) * pageSize),
    paging: { totalCount: rows.length, pageNum, pageSize },
  };
}

/** The case-insensitive substring filter `name` (or another parameter), at most `max` characters. */
export function nameFilter(query: URLSearchParams, param = 'name', max = 100): (s: string) => boolean {
  const raw = query.get(param);
  if (raw === null || raw === '') return () => true;
  if (raw.length > max) throw kbBadRequest(param, `at most ${max} characters`);
  const wanted = raw.toLowerCase();
  return (s) => s.toLowerCase().includes(wanted);
}

/** A comma-separated list of LongIds (`projectIds`), or undefined when absent. */
export function idList(query: URLSearchParams, param: string): number[] | undefined {
  const raw = query.get(param);
  if (raw === null || raw === '') return undefined;
  const parts = raw.split(',').map((p) => p.trim());
  if (!parts.every((p) => /^\d{1,18}$/.test(p)))
    throw kbBadRequest(param, 'expected ids separated by commas');
  return parts.map(Number);
}
