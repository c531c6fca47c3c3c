// The emulator over HTTP: routes both generations (v1 with a bearer token, legacy with the token in the
// path), the seed documents' short aliases, the async operations and the /__emulator control endpoints;
// hands `/kb` to the knowledge base service (kb/kb-http.ts); applies auth, scripted faults, the optional
// server-side rate limit (429 with Retry-After) and ErrorDto answers. startEmulator() is the one entry point.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError } from './api-error.js';
import { prompterRoutes } from './chatapi/prompter-routes.js';
import { chatApiRoutes } from './chatapi/routes.js';
import { controlRoutes } from './control.js';
import { Emulator, type EmulatorOptions, type V1Token } from './emulator.js';
import { type FaultState, REQUEST_FAULTS } from './faults.js';
import { KbHttp } from './kb/kb-http.js';
import { KB_BASE_PATH } from './kb/kb-options.js';
import { pushgateRoutes } from './pushgate/routes.js';
import type { Generation, Route, RouteContext, RouteResult } from './route.js';
import { reporterRoutes } from './routes/index.js';
import { sendJson } from './send-json.js';

export interface RunningEmulator {
  url: string;
  /** The knowledge base service's base URL (`{url}/kb`; operations under `{kbUrl}/api/knowledge-hub`). */
  kbUrl: string;
  port: number;
  emulator: Emulator;
  server: Server;
  close(): Promise<void>;
}

interface CompiledRoute {
  route: Route;
  segments: string[];
  params: number;
}

type Scope = 'reporter' | 'async' | 'control' | 'chatapi' | 'prompter' | 'pushgate';

function compile(routes: Route[]): CompiledRoute[] {
  return routes.map((route) => {
    const segments = route.path.split('/');
    return { route, segments, params: segments.filter((s) => s.startsWith('{')).length };
  });
}

function match(
  routes: CompiledRoute[],
  path: string,
  method: string,
): { route?: Route; params: Record<string, string>; pathKnown: boolean } {
  const parts = path.split('/');
  let best: { route: Route; params: Record<string, string>; score: number } | undefined;
  let pathKnown = false;
  for (const candidate of routes) {
    if (candidate.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let n = 0; n < parts.length; n++) {
      const seg = candidate.segments[n]!;
      const part = parts[n]!;
      if (seg.startsWith('{')) {
        if (part === '') ok = false;
        else params[seg.slice(1, -1)] = decodeURIComponent(part);
      } else if (seg !== part) ok = false;
      if (!ok) break;
    }
    if (!ok) continue;
    pathKnown = true;
    if (candidate.route.method !== method) continue;
    if (!best || candidate.params < best.score)
      best = { route: candidate.route, params, score: candidate.params };
  }
  return best ? { route: best.route, params: best.params, pathKnown } : { params: {}, pathKnown };
}

/** Splits a URL path into scope, generation, token (legacy) and the rest. */
function locate(
  pathname: string,
): { scope: Scope; generation: Generation; token?: string; rest: string; prefix: string } | undefined {
  let m = /^\/api\/v1\/reporter\/(.+)$/.exec(pathname);
  if (m) return { scope: 'reporter', generation: 'v1', rest: m[1]!, prefix: '/api/v1/reporter' };
  m = /^\/api\/reporter\/p\/([^/]+)\/(.+)$/.exec(pathname);
  if (m) {
    const token = decodeURIComponent(m[1]!);
    return { scope: 'reporter', generation: 'legacy', token, rest: m[2]!, prefix: `/api/reporter/p/${m[1]}` };
  }
  m = /^\/api\/v1\/async\/(.+)$/.exec(pathname);
  if (m) return { scope: 'async', generation: 'v1', rest: m[1]!, prefix: '/api/v1/async' };
  m = /^\/reporter\/(.+)$/.exec(pathname);
  if (m) return { scope: 'reporter', generation: 'v1', rest: m[1]!, prefix: '/api/v1/reporter' };
  // the Prompter API: the token comes last; its one path is `webhook/prompter_api` (faults match
  // `chatapi/webhook/prompter_api`)
  m = /^(\/chatadapter)?\/chatapi\/webhook\/prompter_api\/([^/]+)$/.exec(pathname);
  if (m) {
    const token = decodeURIComponent(m[2]!);
    return {
      scope: 'prompter',
      generation: 'v1',
      token,
      rest: 'webhook/prompter_api',
      prefix: `${m[1] ?? ''}/chatapi/webhook/prompter_api/${m[2]}`,
    };
  }
  m = /^(\/chatadapter)?\/chatapi\/([^/]+)(?:\/(.*))?$/.exec(pathname);
  if (m) {
    const token = decodeURIComponent(m[2]!);
    return {
      scope: 'chatapi',
      generation: 'v1',
      token,
      rest: m[3] ?? '',
      prefix: `${m[1] ?? ''}/chatapi/${m[2]}`,
    };
  }
  m = /^\/pushgate\/push_([^/]+)$/.exec(pathname);
  if (m) {
    const token = decodeURIComponent(m[1]!);
    return { scope: 'pushgate', generation: 'v1', token, rest: '', prefix: `/pushgate/push_${m[1]}` };
  }
  m = /^\/__emulator\/(.+)$/.exec(pathname);
  if (m) return { scope: 'control', generation: 'v1', rest: m[1]!, prefix: '/__emulator' };
  return undefined;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return undefined;
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, 'reporter.bad_request.malformed_json', 'body: not valid JSON', {
      parameter: 'body',
    });
  }
}

const GATEWAY_PAGE =
  '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>';

/** Whether an answer carries a page of records that a fault can break. */
function hasRecords(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  return ['sessions', 'messages', 'clients'].some((key) => {
    const rows = (body as Record<string, unknown>)[key];
    return Array.isArray(rows) && rows.length > 0;
  });
}

/** Breaks one record of a page: a required field removed or given the wrong type. */
export function corruptRecord(body: unknown, rule: FaultState): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const container = body as Record<string, unknown>;
  for (const key of ['sessions', 'messages', 'clients']) {
    const rows = container[key];
    if (!Array.isArray(rows) || rows.length === 0) continue;
    const row = rows[Math.min(rule.recordIndex ?? 0, rows.length - 1)] as Record<string, unknown>;
    const field = key === 'sessions' ? 'startTime' : key === 'messages' ? 'timestamp' : 'joinDate';
    if (rule.variant === 'missingField')
      delete row[key === 'clients' ? 'id' : key === 'sessions' ? 'sessionId' : 'questionId'];
    else row[field] = 12345;
    return true;
  }
  return false;
}

/** The service of a request to the Chat API or Pushgate (their errors answer `{error, message}` only). */
function siblingService(req: IncomingMessage): 'chatapi' | 'pushgate' | undefined {
  const url = req.url ?? '';
  if (/^(\/chatadapter)?\/chatapi\//.test(url)) return 'chatapi';
  if (/^\/pushgate\//.test(url)) return 'pushgate';
  return undefined;
}

/** The error body of the Chat API or Pushgate: `{error, message}`, the error named in their own service. */
function siblingErrorBody(error: ApiError, service: string): { error: string; message: string } {
  return { error: error.error.replace(/^reporter\./, `${service}.`), message: error.message };
}

class EmulatorServer {
  readonly emulator: Emulator;
  private readonly reporter: CompiledRoute[];
  private readonly async: CompiledRoute[];
  private readonly control: CompiledRoute[];
  private readonly chatapi: CompiledRoute[];
  private readonly prompter: CompiledRoute[];
  private readonly pushgate: CompiledRoute[];
  private readonly kb: KbHttp;
  baseUrl = '';

  constructor(emulator: Emulator) {
    this.emulator = emulator;
    const reportRoutes = emulator.reports.routes();
    this.reporter = compile([
      ...reporterRoutes(),
      ...reportRoutes.filter((r) => !r.path.startsWith('async:')),
    ]);
    this.async = compile(
      reportRoutes
        .filter((r) => r.path.startsWith('async:'))
        .map((r) => ({ ...r, path: r.path.slice('async:'.length) })),
    );
    this.control = compile(controlRoutes());
    this.chatapi = compile(chatApiRoutes());
    this.prompter = compile(prompterRoutes());
    this.pushgate = compile(pushgateRoutes());
    this.kb = new KbHttp(emulator);
  }

  handle = (req: IncomingMessage, res: ServerResponse): void => {
    // the platform's clock is the emulator's (fixed in tests, or live), and its Date header says it
    res.setHeader('date', new Date(this.emulator.now()).toUTCString());
    this.serve(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof ApiError) {
        const service = siblingService(req);
        sendJson(
          res,
          error.status,
          service ? siblingErrorBody(error, service) : error.toDto(),
          error.headers,
        );
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      sendJson(res, 500, { error: 'reporter.internal_error', message });
    });
  };

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://emulator.local');
    const method = (req.method ?? 'GET').toUpperCase();
    // a platform that far away: every API request waits (remote.ts); control endpoints do not
    if (this.emulator.latencyMs > 0 && !url.pathname.startsWith('/__emulator/'))
      await new Promise((resolve) => setTimeout(resolve, this.emulator.latencyMs));
    // the knowledge base is a separate service with its own keys and error bodies
    if (url.pathname === KB_BASE_PATH || url.pathname.startsWith(`${KB_BASE_PATH}/`))
      return this.kb.serve(req, res, url);
    const where = locate(url.pathname);
    if (!where) throw new ApiError(404, 'reporter.not_found.path', `no operation at ${url.pathname}`);
    const table = {
      reporter: this.reporter,
      async: this.async,
      control: this.control,
      chatapi: this.chatapi,
      prompter: this.prompter,
      pushgate: this.pushgate,
    }[where.scope];
    const { route, params, pathKnown } = match(table, where.rest, method);
    if (!route) {
      if (pathKnown)
        throw new ApiError(405, 'reporter.method_not_allowed', `${method} is not allowed on ${where.rest}`);
      throw new ApiError(
        404,
        'reporter.not_found.path',
        `no operation at ${where.scope === 'control' ? url.pathname : where.rest}`,
      );
    }
    if (route.generations && !route.generations.includes(where.generation)) {
      throw new ApiError(
        404,
        'reporter.not_found.path',
        `${where.rest} does not exist in the ${where.generation} API`,
      );
    }

    let slowed: FaultState | undefined;
    // Chat API faults match `chatapi/<path after the token>`, e.g. `chatapi/events`; Pushgate's `pushgate/push`
    const faultPath =
      where.scope === 'chatapi' || where.scope === 'prompter'
        ? `chatapi/${where.rest}`
        : where.scope === 'pushgate'
          ? 'pushgate/push'
          : where.rest;
    if (where.scope !== 'control') {
      this.emulator.requestCount++;
      const fault = this.emulator.faults.take(REQUEST_FAULTS, { path: faultPath, method });
      if (fault) {
        if (fault.type === 'slow') slowed = fault;
        else if (fault.type !== 'truncate') return this.applyFault(fault, req, res);
        else slowed = fault;
      }
      // the gateway's rate limit, for requests no scripted fault answered
      const retryAfter = fault ? undefined : this.emulator.rateLimit?.take();
      if (retryAfter !== undefined) {
        req.resume();
        sendJson(
          res,
          429,
          { error: 'reporter.too_many_requests', message: 'Rate limit exceeded, retry later' },
          { 'retry-after': String(retryAfter) },
        );
        return;
      }
      if (slowed?.type === 'slow') await new Promise((r) => setTimeout(r, slowed?.delayMs ?? 2000));
    }

    const body = await readBody(req);
    if (where.scope !== 'control' && this.emulator.requestLog)
      this.emulator.requestLog.push({
        method,
        url: req.url ?? '/',
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const now = this.emulator.now();
    const ctx = this.context(where, route, params, url, method, body, now, req, res);
    const result: RouteResult | undefined = await route.handler(ctx);
    // the request was handled (and its effect kept) but its answer is lost on the way back
    if (where.scope !== 'control' && this.emulator.faults.take(['dropAnswer'], { path: faultPath, method })) {
      req.socket.destroy();
      return;
    }
    if (result?.raw) return;
    const status = result?.status ?? 200;
    let payload = result?.body;
    if (where.scope === 'reporter' && status === 200 && hasRecords(payload)) {
      const broken = this.emulator.faults.take(['invalidRecord'], { path: where.rest, method });
      if (broken) corruptRecord(payload, broken);
    }
    if (slowed?.type === 'truncate') {
      const text = JSON.stringify(payload ?? {});
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(text),
      });
      res.write(text.slice(0, Math.max(1, Math.floor(text.length / 2))));
      setTimeout(() => res.destroy(), 10);
      return;
    }
    if (payload === undefined && status === 200 && method === 'GET') payload = undefined;
    sendJson(res, status, payload, result?.headers ?? {});
  }

  private applyFault(fault: FaultState, req: IncomingMessage, res: ServerResponse): void {
    switch (fault.type) {
      case 'status429': {
        req.resume();
        const seconds = fault.retryAfter ?? 1;
        // the date form is measured on the server's (real, possibly offset) clock, sent as its Date header too
        const serverNow = Date.now() + (fault.serverClockOffsetMs ?? 0);
        const headers: Record<string, string> =
          fault.retryAfterForm === 'date'
            ? {
                date: new Date(serverNow).toUTCString(),
                'retry-after': new Date(serverNow + seconds * 1000).toUTCString(),
              }
            : { 'retry-after': String(seconds) };
        sendJson(
          res,
          429,
          { error: 'reporter.too_many_requests', message: 'Rate limit exceeded, retry later' },
          headers,
        );
        return;
      }
      case 'status502':
        req.resume();
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end(GATEWAY_PAGE);
        return;
      case 'status500':
      case 'status503': {
        req.resume();
        const status = fault.type === 'status500' ? 500 : 503;
        sendJson(res, status, {
          error: status === 500 ? 'reporter.internal_error' : 'reporter.service_unavailable',
          message: `emulated ${status}`,
        });
        return;
      }
      case 'nonJson':
        req.resume();
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><html><body>Maintenance in progress</body></html>');
        return;
      case 'drop':
        req.socket.destroy();
        return;
      default:
        return;
    }
  }

  private context(
    where: { scope: Scope; generation: Generation; token?: string; prefix: string; rest: string },
    route: Route,
    params: Record<string, string>,
    url: URL,
    method: string,
    body: unknown,
    now: number,
    req: IncomingMessage,
    res: ServerResponse,
  ): RouteContext {
    const e = this.emulator;
    const base = {
      emulator: e,
      generation: where.generation,
      method,
      path: where.rest,
      params,
      query: url.searchParams,
      body,
      headers: req.headers,
      now,
      baseUrl: this.baseUrl,
      prefix: where.prefix,
      req,
      res,
    };
    return { ...base, ...resolveAccess(e, where, route, url, req) };
  }
}

/** Who the request reads as: its project, whether it named it, its token and the token's projects. */
type RouteAccess = Pick<RouteContext, 'project' | 'projectNamed' | 'token' | 'tokenProjects'>;

/** The access of a request by its scope: control and Pushgate, a Chat API channel, a legacy or a v1 token. */
function resolveAccess(
  e: Emulator,
  where: { scope: Scope; generation: Generation; token?: string },
  route: Route,
  url: URL,
  req: IncomingMessage,
): RouteAccess {
  if (where.scope === 'control') {
    const first = e.projects.values().next().value!;
    return {
      project: first,
      projectNamed: false,
      token: '',
      tokenProjects: [...e.projects.keys()],
    };
  }
  if (where.scope === 'pushgate') {
    const first = e.projects.values().next().value!;
    return {
      project: first,
      projectNamed: false,
      token: where.token ?? '',
      tokenProjects: [],
    };
  }
  if (where.scope === 'chatapi' || where.scope === 'prompter') {
    const channel = e.chatApi.channel(where.token ?? '');
    return {
      project: channel.project,
      projectNamed: true,
      token: channel.token,
      tokenProjects: [channel.project.name],
    };
  }
  if (where.generation === 'legacy') return resolveLegacyAccess(e, where.token);
  return resolveV1Access(e, route, url, req);
}

/** A legacy request: the token in its path names one project. */
function resolveLegacyAccess(e: Emulator, token: string | undefined): RouteAccess {
  const entry = e.options.legacyTokens.find((t) => t.token === token);
  if (!entry)
    throw new ApiError(
      401,
      'reporter.unauthorized.invalid_token',
      'The token in the path is not a valid analytics token of the previous API generation',
    );
  return {
    project: e.project(entry.project),
    projectNamed: true,
    token: entry.token,
    tokenProjects: [entry.project],
  };
}

/** A v1 request: its bearer token, its scope, and the project it names (`projectShortName`) or the token's first. */
function resolveV1Access(e: Emulator, route: Route, url: URL, req: IncomingMessage): RouteAccess {
  const header = req.headers.authorization;
  if (!header)
    throw new ApiError(
      401,
      'reporter.unauthorized.missing_token',
      'Authorization header with a Bearer token is required',
    );
  const m = /^Bearer\s+(.+)$/i.exec(header);
  const entry: V1Token | undefined = m ? e.options.v1Tokens.find((t) => t.token === m[1]!.trim()) : undefined;
  if (!entry)
    throw new ApiError(
      401,
      'reporter.unauthorized.invalid_token',
      'The bearer token is not valid for this API',
    );
  if (route.write && entry.readOnly)
    throw new ApiError(403, 'reporter.forbidden.scope', `The token lacks the scope to call ${route.op}`);
  const named = url.searchParams.get('projectShortName');
  if (named) {
    if (!entry.projects.includes(named)) {
      if (!e.projects.has(named))
        throw new ApiError(
          400,
          'reporter.bad_request.invalid_parameter',
          `projectShortName: unknown project ${named}`,
          { parameter: 'projectShortName' },
        );
      throw new ApiError(403, 'reporter.forbidden.project', `The token has no access to project ${named}`, {
        projectShortName: named,
      });
    }
    return {
      project: e.project(named),
      projectNamed: true,
      token: entry.token,
      tokenProjects: entry.projects,
    };
  }
  if (route.needsProject) {
    throw new ApiError(
      400,
      'reporter.bad_request.invalid_parameter',
      'projectShortName: required parameter is missing for this operation',
      { parameter: 'projectShortName' },
    );
  }
  return {
    project: e.project(entry.projects[0]!),
    projectNamed: false,
    token: entry.token,
    tokenProjects: entry.projects,
  };
}

export async function startEmulator(
  options: Partial<EmulatorOptions> & { port?: number; host?: string } = {},
): Promise<RunningEmulator> {
  const emulator = new Emulator(options);
  const handler = new EmulatorServer(emulator);
  const server = createServer({ keepAlive: true, keepAliveTimeout: 30_000 }, handler.handle);
  server.headersTimeout = 60_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
    });
  } catch (error) {
    // a taken port (EADDRINUSE) or an address that is not ours: nothing of this emulator may stay running
    await emulator.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  handler.baseUrl = url;
  return {
    url,
    kbUrl: `${url}${KB_BASE_PATH}`,
    port: address.port,
    emulator,
    server,
    async close() {
      await emulator.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
