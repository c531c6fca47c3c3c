// The knowledge base service over HTTP, mounted by the emulator's server at `/kb`: operations under
// `/kb/api/knowledge-hub/...`, the emulator's request faults (matched on `kb/<path>`, answered in the
// service's `{code, description}` form), the server-wide rate limit, the project's rpmLimit on generations
// (429 with Retry-After in seconds), JSON or multipart bodies, key checks, then the operation.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../api-error.js';
import type { Emulator } from '../emulator.js';
import { type FaultState, REQUEST_FAULTS } from '../faults.js';
import { jsonText } from '../json-text.js';
import { sendJson } from '../send-json.js';
import { authenticateKb } from './kb-auth.js';
import { KbError, kbBody } from './kb-error.js';
import { KB_API_PREFIX, KB_BASE_PATH } from './kb-options.js';
import { type KbContext, type KbRoute, matchKbRoute } from './kb-router.js';
import { type MultipartForm, parseMultipart } from './multipart.js';
import { adminRoutes } from './routes-admin.js';
import { catalogRoutes } from './routes-catalog.js';
import { generationRoutes } from './routes-generation.js';
import { projectRoutes } from './routes-projects.js';
import { sourceRoutes } from './routes-sources.js';
import { streamRoutes } from './routes-stream.js';

export function kbRoutes(): KbRoute[] {
  return [
    ...projectRoutes(),
    ...sourceRoutes(),
    ...catalogRoutes(),
    ...adminRoutes(),
    ...generationRoutes(),
    ...streamRoutes(),
  ];
}

async function readRaw(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function parseBody(raw: Buffer, contentType: string): { body?: unknown; form?: MultipartForm } {
  if (/^multipart\/form-data/i.test(contentType)) return { form: parseMultipart(raw, contentType) };
  const text = raw.toString('utf8').trim();
  if (text === '') return {};
  try {
    return { body: JSON.parse(text) };
  } catch {
    throw new KbError(400, 'kb.bad_request.malformed_json', 'body: not valid JSON');
  }
}

export class KbHttp {
  private readonly routes = kbRoutes();

  constructor(private readonly emulator: Emulator) {}

  /** Serves one request whose path starts with `/kb`. */
  async serve(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    try {
      await this.handle(req, res, url);
    } catch (error) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof ApiError) sendJson(res, error.status, kbBody(error), error.headers);
      else
        sendJson(res, 500, {
          code: 'kb.internal_error',
          description: error instanceof Error ? error.message : String(error),
        });
    }
  }

  private async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const e = this.emulator;
    const method = (req.method ?? 'GET').toUpperCase();
    const prefix = `${KB_BASE_PATH}${KB_API_PREFIX}/`;
    if (!url.pathname.startsWith(prefix))
      throw new KbError(
        404,
        'kb.not_found.path',
        `no operation at ${url.pathname} (operations live under ${prefix})`,
      );
    const path = url.pathname.slice(prefix.length);
    e.requestCount++;
    const fault = e.faults.take(REQUEST_FAULTS, { path: `kb/${path}`, method });
    if (fault && fault.type !== 'slow' && fault.type !== 'truncate') return this.applyFault(fault, req, res);
    const retryAfter = fault ? undefined : e.rateLimit?.take();
    if (retryAfter !== undefined) {
      req.resume();
      sendJson(
        res,
        429,
        { code: 'kb.too_many_requests', description: 'Rate limit exceeded, retry later' },
        {
          'retry-after': String(retryAfter),
        },
      );
      return;
    }
    if (fault?.type === 'slow') await new Promise((r) => setTimeout(r, fault.delayMs ?? 2000));
    const { route, params, pathKnown } = matchKbRoute(this.routes, path, method);
    if (!route) {
      req.resume();
      // the contract's errors are 400, 401, 403, 404, 429 and 5xx: a wrong method is a path without that operation
      if (pathKnown) throw new KbError(404, 'kb.not_found.path', `no ${method} operation at ${path}`);
      throw new KbError(404, 'kb.not_found.path', `no operation at ${path}`);
    }
    const raw = await readRaw(req);
    if (e.requestLog)
      e.requestLog.push({
        method,
        url: req.url ?? '/',
        ...(raw.length === 0 ? {} : { body: raw.toString('utf8') }),
      });
    const now = e.now();
    const caller = authenticateKb(e.kb, req.headers, route.access, now);
    if (route.generation && caller.projectId !== undefined) {
      const wait = e.kb.takeGeneration(caller.projectId);
      if (wait !== undefined)
        throw new KbError(
          429,
          'kb.too_many_requests.rpm_limit',
          "the project's rpmLimit of generations is reached",
          undefined,
          {
            'retry-after': String(wait),
          },
        );
    }
    const parsed = parseBody(raw, String(req.headers['content-type'] ?? ''));
    const ctx: KbContext = {
      emulator: e,
      kb: e.kb,
      method,
      path,
      params,
      query: url.searchParams,
      body: parsed.body,
      ...(parsed.form === undefined ? {} : { form: parsed.form }),
      headers: req.headers,
      now,
      ...(caller.key === undefined ? {} : { key: caller.key }),
      ...(caller.projectId === undefined ? {} : { projectId: caller.projectId }),
      req,
      res,
    };
    const result = await route.handler(ctx);
    if (e.faults.take(['dropAnswer'], { path: `kb/${path}`, method })) {
      req.socket.destroy();
      return;
    }
    if (result.raw) return;
    if (fault?.type === 'truncate') {
      const text = jsonText(result.body ?? {});
      res.writeHead(result.status ?? 200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(text),
      });
      res.write(text.slice(0, Math.max(1, Math.floor(text.length / 2))));
      setTimeout(() => res.destroy(), 10);
      return;
    }
    sendJson(res, result.status ?? 200, result.body, result.headers ?? {});
  }

  private applyFault(fault: FaultState, req: IncomingMessage, res: ServerResponse): void {
    req.resume();
    switch (fault.type) {
      case 'status429':
        sendJson(
          res,
          429,
          { code: 'kb.too_many_requests', description: 'Rate limit exceeded, retry later' },
          {
            'retry-after': String(fault.retryAfter ?? 1),
          },
        );
        return;
      case 'status500':
      case 'status503': {
        const status = fault.type === 'status500' ? 500 : 503;
        sendJson(res, status, {
          code: status === 500 ? 'kb.internal_error' : 'kb.service_unavailable',
          description: `emulated ${status}`,
        });
        return;
      }
      case 'status502':
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
        return;
      case 'nonJson':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><html><body>Maintenance in progress</body></html>');
        return;
      default:
        req.socket.destroy();
    }
  }
}
