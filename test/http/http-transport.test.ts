// The transport alone (src/http/), against a node:http server on port 0: each profile's auth is applied (bearer,
// a header of its own, the path, none), a Retry-After is honoured, an error body is read by the profile's
// shapes and mapped to its codes, and the secret is never in an error's text, even when the server quotes it.

import { getEventListeners } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EtlError } from '../../src/errors.js';
import {
  codeDescriptionErrorShape,
  type ErrorShape,
  messageErrorShape,
} from '../../src/http/error-shapes.js';
import type { HttpAuth, HttpProfile } from '../../src/http/http-profile.js';
import { HttpTransport } from '../../src/http/http-transport.js';

const SECRET = 's3cret-T0ken/with+chars';

interface Seen {
  url: string;
  headers: IncomingMessage['headers'];
  at: number;
}

/** What the server answers next, per request, in order; then 200 {"ok":true}. */
let script: { status: number; headers?: Record<string, string>; body: string }[] = [];
let seen: Seen[] = [];
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers, at: Date.now() });
    req.resume();
    req.on('end', () => {
      const next = script.shift() ?? { status: 200, body: '{"ok":true}' };
      res.writeHead(next.status, { 'content-type': 'application/json', ...next.headers });
      // an answer may quote the request's URL, as some servers' errors do: {url} is replaced with it
      res.end(next.body.replaceAll('{url}', req.url ?? ''));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  script = [];
  seen = [];
});

function profile(auth: HttpAuth, extra: Partial<HttpProfile> = {}): HttpProfile {
  return {
    name: 'Test API',
    auth,
    secretName: 'key',
    baseUrlSetting: 'TEST_BASE_URL',
    urlPrefix: () =>
      auth.kind === 'path' ? `${baseUrl}/api/${encodeURIComponent(SECRET)}` : `${baseUrl}/api`,
    errorShapes: [messageErrorShape],
    authError: (status, detail) =>
      new EtlError('kb.auth', `Test API refused TEST_KEY with ${status}${detail}`),
    ...extra,
  };
}

function transport(auth: HttpAuth, extra: Partial<HttpProfile> = {}, sleep?: (ms: number) => Promise<void>) {
  return new HttpTransport({
    baseUrl,
    secret: auth.kind === 'none' ? undefined : SECRET,
    profile: profile(auth, extra),
    retries: 2,
    backoffBaseMs: 1,
    ...(sleep ? { sleep } : {}),
  });
}

/** The error a request fails with. */
async function failure(promise: Promise<unknown>): Promise<EtlError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EtlError);
  return error as EtlError;
}

describe('HttpTransport: auth per profile', () => {
  it('bearer: the secret in Authorization, not in the URL', async () => {
    const http = transport({ kind: 'bearer' });
    expect(await http.json({ method: 'GET', op: 'info', query: { a: 1 } })).toEqual({ ok: true });
    await http.close();
    expect(seen[0]?.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(seen[0]?.url).toBe('/api/info?a=1');
  });

  it('a header of its own: the secret there, no Authorization', async () => {
    const http = transport({ kind: 'header', name: 'x-api-key' });
    await http.json({ method: 'GET', op: 'info' });
    await http.close();
    expect(seen[0]?.headers['x-api-key']).toBe(SECRET);
    expect(seen[0]?.headers.authorization).toBeUndefined();
  });

  it('in the path: the prefix carries it URL-encoded, no auth header', async () => {
    const http = transport({ kind: 'path' });
    await http.json({ method: 'GET', op: 'events' });
    await http.close();
    expect(seen[0]?.url).toBe(`/api/${encodeURIComponent(SECRET)}/events`);
    expect(seen[0]?.headers.authorization).toBeUndefined();
  });

  it('none: no secret anywhere', async () => {
    const http = transport({ kind: 'none' });
    await http.json({ method: 'GET', op: 'health' });
    await http.close();
    expect(seen[0]?.headers.authorization).toBeUndefined();
    expect(JSON.stringify(seen[0])).not.toContain(SECRET);
  });
});

describe('HttpTransport: Retry-After', () => {
  it('waits the seconds the server asks before the next try, and counts the retry', async () => {
    script = [{ status: 503, headers: { 'retry-after': '1' }, body: '{"message":"busy"}' }];
    const waits: number[] = [];
    const http = transport({ kind: 'bearer' }, {}, (ms) => {
      waits.push(ms);
      return new Promise((resolve) => setTimeout(resolve, ms));
    });
    expect(await http.json({ method: 'GET', op: 'info' })).toEqual({ ok: true });
    await http.close();
    expect(seen).toHaveLength(2);
    expect(http.retried).toBe(1);
    expect(Math.max(...waits)).toBeGreaterThanOrEqual(900);
    expect((seen[1]?.at ?? 0) - (seen[0]?.at ?? 0)).toBeGreaterThanOrEqual(900);
  });

  it('a Retry-After beyond what a request waits fails at once with the profile code', async () => {
    script = [{ status: 429, headers: { 'retry-after': '3600' }, body: '' }];
    const http = transport({ kind: 'bearer' }, { codes: { retryAfterTooLong: 'kb.retry_after_too_long' } });
    const error = await failure(http.json({ method: 'GET', op: 'info' }));
    await http.close();
    expect(error.code).toBe('kb.retry_after_too_long');
    expect(error.kind).toBe('transient');
    expect(seen).toHaveLength(1);
  });
});

describe('HttpTransport: error shapes and codes', () => {
  it("reads an error body with the profile's shape and maps the status to its code", async () => {
    script = [{ status: 400, body: '{"code":"E_RANGE","description":"pageSize  too   big"}' }];
    const http = transport(
      { kind: 'bearer' },
      { errorShapes: [codeDescriptionErrorShape], codes: { badRequest: 'kb.bad_request' } },
    );
    const error = await failure(http.json({ method: 'GET', op: 'segments' }));
    await http.close();
    expect(error.code).toBe('kb.bad_request');
    expect(error.message).toBe('GET Test API segments answered 400: E_RANGE pageSize too big');
  });

  it('takes a shape of its own, and the platform codes by default (404)', async () => {
    const firstIssue: ErrorShape = (body) => {
      const issues = body['issues'];
      return Array.isArray(issues) ? `: ${String((issues[0] as { title?: unknown })?.title)}` : undefined;
    };
    script = [{ status: 404, body: '{"issues":[{"title":"no such channel"}]}' }];
    const http = transport({ kind: 'bearer' }, { errorShapes: [firstIssue] });
    const error = await failure(http.json({ method: 'GET', op: 'channels/9' }));
    await http.close();
    expect(error.code).toBe('reporter.not_found');
    expect(error.message).toBe('GET Test API channels/9 answered 404: no such channel');
  });

  it("a 401 is the profile's auth error, with the server's detail", async () => {
    script = [{ status: 401, body: '{"error":"unauthorized","message":"expired"}' }];
    const http = transport({ kind: 'bearer' });
    const error = await failure(http.json({ method: 'GET', op: 'info' }));
    await http.close();
    expect(error.code).toBe('kb.auth');
    expect(error.message).toBe('Test API refused TEST_KEY with 401: unauthorized expired');
  });

  it('retries used up: the unavailable code, transient, after retries + 1 attempts', async () => {
    script = [0, 1, 2].map(() => ({ status: 502, body: '<html>bad gateway</html>' }));
    const http = transport({ kind: 'bearer' }, { codes: { unavailable: 'kb.unavailable' } });
    const error = await failure(http.json({ method: 'GET', op: 'info' }));
    await http.close();
    expect(error.code).toBe('kb.unavailable');
    expect(error.kind).toBe('transient');
    expect(error.message).toContain('failed after 3 attempts: GET Test API info answered 502 (an HTML page)');
    expect(seen).toHaveLength(3);
  });
});

describe('HttpTransport: the secret never in an error', () => {
  it('a server quoting the URL (the secret in its path) in its error: masked', async () => {
    script = [{ status: 404, body: '{"error":"not found","message":"nothing at {url}"}' }];
    const http = transport({ kind: 'path' });
    const error = await failure(http.json({ method: 'GET', op: 'events' }));
    await http.close();
    expect(seen[0]?.url).toContain(encodeURIComponent(SECRET));
    expect(error.message).toContain('nothing at /api/***/events');
    expect(error.message).not.toContain(SECRET);
    expect(error.message).not.toContain(encodeURIComponent(SECRET));
  });

  it('a 401 quoting the bearer secret: masked in the auth error', async () => {
    script = [{ status: 401, body: JSON.stringify({ error: 'bad key', message: `key ${SECRET} revoked` }) }];
    const http = transport({ kind: 'bearer' });
    const error = await failure(http.json({ method: 'GET', op: 'info' }));
    await http.close();
    expect(error.message).toBe('Test API refused TEST_KEY with 401: bad key key *** revoked');
  });

  it('a secret no header can carry: refused before sending, in words without it', async () => {
    const http = new HttpTransport({
      baseUrl,
      secret: `${SECRET}\n`,
      profile: profile({ kind: 'bearer' }, { codes: { requestFailed: 'kb.request_failed' } }),
    });
    const error = await failure(http.json({ method: 'GET', op: 'info' }));
    await http.close();
    expect(error.code).toBe('kb.request_failed');
    expect(error.message).toContain('the key holds a control character');
    expect(error.message).not.toContain(SECRET);
    expect(seen).toHaveLength(0);
  });
});

describe("HttpTransport: the caller's stop (Ctrl-C)", () => {
  it('cancels the requests in flight at once: none retried nor warned about, none sent after it', async () => {
    let received = 0;
    // a server that never answers: the requests stay in flight until cancelled
    const silent = createServer(() => {
      received++;
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const lines: string[] = [];
    const log = pino(
      { level: 'debug' },
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    const stop = new AbortController();
    const http = new HttpTransport({
      baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
      secret: SECRET,
      profile: {
        ...profile({ kind: 'bearer' }),
        urlPrefix: () => `http://127.0.0.1:${(silent.address() as AddressInfo).port}/api`,
      },
      retries: 5,
      backoffBaseMs: 1,
      timeoutMs: 30_000,
      log,
      stop: stop.signal,
    });
    try {
      const requests = [1, 2, 3].map((n) => failure(http.json({ method: 'GET', op: `page${n}` })));
      while (received < 3) await new Promise((resolve) => setTimeout(resolve, 10));
      const stoppedAt = performance.now();
      stop.abort();
      for (const error of await Promise.all(requests)) {
        expect(error.code).toBe('http.stopped');
        expect(error.kind).toBe('transient');
      }
      expect(performance.now() - stoppedAt).toBeLessThan(1000);
      expect((await failure(http.json({ method: 'GET', op: 'after' }))).code).toBe('http.stopped');
      expect(received).toBe(3);
      expect(lines.join('')).not.toMatch(/retrying/);
    } finally {
      await http.close();
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('a transport closed gives its listener back: one stop signal outlives many (the scheduler runs)', async () => {
    const stop = new AbortController();
    for (let n = 0; n < 20; n++) {
      const http = new HttpTransport({
        baseUrl,
        secret: SECRET,
        profile: profile({ kind: 'bearer' }),
        stop: stop.signal,
      });
      await http.close();
    }
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });
});

describe('HttpTransport: bodies as bytes', () => {
  it("bodyAs 'bytes': a 2xx body as it came (no decoding, a BOM and invalid UTF-8 kept); an error still classified", async () => {
    const t = new HttpTransport({
      baseUrl,
      secret: SECRET,
      profile: profile({ kind: 'bearer' }),
      retries: 0,
      bodyAs: 'bytes',
    });
    // latin1 carries the bytes 0xef 0xbb 0xbf (a UTF-8 BOM) and 0xff (never UTF-8) through the test server
    script = [
      { status: 200, body: '\u00ef\u00bb\u00bfPK\u00ff' },
      { status: 404, body: '{"message":"no such file"}' },
    ];
    const sent = server.listeners('request')[0] as (...args: unknown[]) => void;
    server.removeAllListeners('request');
    server.on('request', (req: IncomingMessage, res: import('node:http').ServerResponse) => {
      const next = script[0];
      if (next?.status !== 200) return sent(req, res);
      script.shift();
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(Buffer.from(next.body, 'latin1'));
    });
    try {
      const answer = await t.raw({ method: 'GET', op: 'file' });
      expect([...(answer.value as Uint8Array)]).toEqual([0xef, 0xbb, 0xbf, 0x50, 0x4b, 0xff]);
      const error = await failure(t.raw({ method: 'GET', op: 'file' }));
      expect(error.code).toBe('reporter.not_found');
      expect(error.message).toContain('no such file');
    } finally {
      server.removeAllListeners('request');
      server.on('request', sent);
      await t.close();
    }
  });
});
