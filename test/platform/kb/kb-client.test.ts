// The knowledge base client against a scripted server whose answers the test writes (the emulator never
// returns a key value in a list, nor records that break the contract): Authorization: Bearer, paging to the
// last page, an API key's `key` value parsed away (also from a quarantined record), unknown statuses kept,
// `{code, description}` in messages, 404/400 codes, and the admin operations refused without the admin key;
// then retrieval and generation against the emulator's questions (the source first, the expected text).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { DEFAULT_KB_PROJECT_KEY } from '../../../src/emulator/kb/kb-options.js';
import { kbQuestions } from '../../../src/emulator/kb/kb-truth.js';
import { type RunningEmulator, startEmulator } from '../../../src/emulator/server.js';
import { EtlError } from '../../../src/errors.js';
import { createKbClient } from '../../../src/platform/kb/kb-client.js';
import { KB_FINAL_QUERY_STATUSES } from '../../../src/platform/kb/kb-schemas.js';

const KEY = 'project-key-0123456789';
const ADMIN = 'admin-key-0123456789';
const SECRET = 'sk-live-THE-SECRET-VALUE';
let server: Server;
let base: string;
const seen: { path: string; authorization: string | undefined }[] = [];

function apiKey(id: number, extra: Record<string, unknown> = {}) {
  return {
    id,
    projectId: 1,
    name: `key ${id}`,
    key: SECRET,
    status: id === 3 ? 'SUSPENDED' : 'ACTIVE',
    ownerLogin: 'owner',
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    expiredAt: id === 2 ? '' : '2027-01-01T00:00:00Z',
    ...extra,
  };
}

function answer(req: IncomingMessage): [number, unknown] {
  const url = new URL(req.url ?? '/', 'http://x');
  const path = url.pathname.replace('/base/api/knowledge-hub/', '');
  if (path === 'projects/1/api-keys') {
    const page = Number(url.searchParams.get('pageNum'));
    // 5 keys, 2 a page whatever was asked; the 4th has no name
    const all = [apiKey(1), apiKey(2), apiKey(3), apiKey(4, { name: 42 }), apiKey(5)];
    return [
      200,
      { content: all.slice(page * 2, page * 2 + 2), paging: { totalCount: 5, pageNum: page, pageSize: 2 } },
    ];
  }
  if (path === 'sources/9') return [404, { code: 'kb.not_found.source', description: 'source 9 not found' }];
  if (path === 'sources')
    return [
      200,
      {
        sources: [
          { id: 1, name: 'a.txt', status: 'REINDEXING_SOON', createdAt: '2026-01-01T00:00:00Z' },
          { id: 2, name: 'b.txt', status: 'INGESTED', createdAt: 'yesterday' },
        ],
      },
    ];
  if (path === 'integrations') return [400, { code: 'kb.bad_request.x', description: 'no such thing' }];
  return [500, { code: 'kb.internal', description: 'unexpected path' }];
}

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', authorization: req.headers.authorization });
    const [status, body] = answer(req);
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/base`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const client = (admin = true) =>
  createKbClient({
    config: loadConfig(
      {
        REPORTER_KB_BASE_URL: base,
        REPORTER_KB_KEY: KEY,
        ...(admin ? { REPORTER_KB_ADMIN_KEY: ADMIN } : {}),
      },
      { requireToken: false },
    ).kb,
    retries: 0,
  });

describe('the knowledge base client', () => {
  it('pages the API keys with the admin key, parses the key value away, keeps unknown statuses', async () => {
    const kb = client();
    const keys = await kb.apiKeys(1);
    await kb.close();
    expect(keys.records.map((k) => [k.id, k.status])).toEqual([
      [1, 'ACTIVE'],
      [2, 'ACTIVE'],
      [3, 'SUSPENDED'],
      [5, 'ACTIVE'],
    ]);
    expect(JSON.stringify(keys)).not.toContain(SECRET);
    expect(keys.rejects).toHaveLength(1);
    expect(keys.rejects[0]).toMatchObject({ endpoint: 'projects/1/api-keys', recordId: '4' });
    expect(keys.rejects[0]!.reason).toMatch(/name/);
    expect((keys.rejects[0]!.raw as Record<string, unknown>)['key']).toBe('(removed)');
    const asked = seen.filter((s) => s.path.includes('api-keys'));
    expect(asked.map((s) => new URL(s.path, 'http://x').searchParams.get('pageNum'))).toEqual([
      '0',
      '1',
      '2',
    ]);
    expect(asked.every((s) => s.authorization === `Bearer ${ADMIN}`)).toBe(true);
  });

  it('sends the project key; keeps an unknown source status; quarantines a date that is not one', async () => {
    const kb = client();
    const sources = await kb.sources();
    await kb.close();
    expect(sources.records.map((s) => s.status)).toEqual(['REINDEXING_SOON']);
    expect(sources.rejects[0]).toMatchObject({ recordId: '2' });
    expect(sources.rejects[0]!.reason).toMatch(/createdAt/);
    expect(seen.at(-1)!.authorization).toBe(`Bearer ${KEY}`);
  });

  it('maps 404 and 400 to kb.not_found and kb.bad_request quoting {code, description}', async () => {
    const kb = client();
    await expect(kb.source(9)).rejects.toMatchObject({
      code: 'kb.not_found',
      message: expect.stringMatching(
        /GET knowledge base sources\/9 answered 404: kb\.not_found\.source source 9 not found/,
      ),
    });
    await expect(kb.integrations()).rejects.toMatchObject({
      code: 'kb.bad_request',
      message: expect.stringMatching(/kb\.bad_request\.x no such thing/),
    });
    await kb.close();
  });

  it('a host that does not resolve fails at once with kb.unreachable naming REPORTER_KB_BASE_URL', async () => {
    const kb = createKbClient({
      config: loadConfig(
        { REPORTER_KB_BASE_URL: 'http://no-such-host.invalid/kb', REPORTER_KB_KEY: KEY },
        { requireToken: false },
      ).kb,
      retries: 3,
      backoffBaseMs: 1,
    });
    const error = await kb.info().catch((e: unknown) => e);
    await kb.close();
    // the first request of the client: nothing was ever answered, so the address is what to check
    expect(error).toMatchObject({ code: 'kb.unreachable', kind: 'transient' });
    expect((error as Error).message).toMatch(
      /^the host no-such-host\.invalid of REPORTER_KB_BASE_URL http:\/\/no-such-host\.invalid\/kb is not known: is the address right, does this machine reach its DNS\? \(ENOTFOUND; GET knowledge base info, 1 try\)$/,
    );
    expect(kb.requests).toBe(1); // not retried: DNS said the name does not exist
  });

  it('nothing listening at REPORTER_KB_BASE_URL: two tries, then kb.unreachable saying what to check', async () => {
    const kb = createKbClient({
      config: { baseUrl: 'http://127.0.0.1:1/kb', key: KEY, adminKey: undefined },
      retries: 6,
      backoffBaseMs: 1,
    });
    const error = await kb.info().catch((e: unknown) => e);
    await kb.close();
    expect(error).toMatchObject({ code: 'kb.unreachable', kind: 'transient' });
    expect((error as Error).message).toContain(
      'nothing answers at REPORTER_KB_BASE_URL http://127.0.0.1:1/kb: is the address right, is the server running?',
    );
    expect(kb.requests).toBe(2);
  });

  it('a key no header can carry (a line break) fails each request at once, unsent, never hangs', async () => {
    // config validation refuses such a key at load; this is the client's own guard: each refused request
    // used to keep one of the agent's connections busy, so the 5th (concurrency 4) waited forever
    const kb = createKbClient({
      config: { baseUrl: base, key: 'SECRETA\nB', adminKey: undefined },
      concurrency: 4,
      retries: 3,
      backoffBaseMs: 1,
    });
    for (let i = 0; i < 6; i++) {
      const error = await kb.info().catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'kb.request_failed' });
      expect((error as Error).message).not.toContain('SECRETA');
    }
    expect(kb.requests).toBe(0); // refused before sending: nothing reached the service
    await kb.close();
  });

  it('says "1 attempt" when retries are used up after one', async () => {
    // the scripted server answers 500 to `info`
    const kb = createKbClient({ config: { baseUrl: base, key: KEY, adminKey: undefined }, retries: 0 });
    const error = await kb.info().catch((e: unknown) => e);
    await kb.close();
    expect(error).toMatchObject({ code: 'kb.unavailable' });
    expect((error as Error).message).toMatch(/GET knowledge base info failed after 1 attempt: /);
  });

  it('refuses the admin operations without REPORTER_KB_ADMIN_KEY, naming it', async () => {
    const kb = client(false);
    expect(kb.hasAdminKey).toBe(false);
    const error = await kb.apiKeys(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EtlError);
    expect(error).toMatchObject({ code: 'kb.not_configured', kind: 'usage' });
    expect((error as Error).message).toMatch(/REPORTER_KB_ADMIN_KEY is not set/);
    await kb.close();
  });
});

describe('the knowledge base client: retrieval and generation against the emulator', () => {
  let running: RunningEmulator;
  beforeAll(async () => {
    running = await startEmulator({ sessions: 100, days: 1, kb: { queryProcessingMs: 50 } });
  });
  afterAll(() => running.close());

  it('retrieves the chunks of a question’s source first and generates its answer (sync and async)', async () => {
    const kb = createKbClient({
      config: loadConfig(
        { REPORTER_KB_BASE_URL: running.kbUrl, REPORTER_KB_KEY: DEFAULT_KB_PROJECT_KEY },
        { requireToken: false },
      ).kb,
    });
    try {
      const question = kbQuestions(running.emulator).find((q) => q.answerable)!;
      const chunks = await kb.retrieve({ query: question.question });
      expect(chunks[0]!.source?.id).toBe(question.sourceId);
      const answered = await kb.generate({ query: question.question });
      expect(answered.status).toBe('FINISHED');
      expect(answered.response).toContain(question.expectedAnswerContains);
      const started = await kb.generateAsync({ query: question.question });
      let record = started;
      for (let i = 0; i < 10 && !KB_FINAL_QUERY_STATUSES.includes(record.status); i++)
        record = await kb.queryStatus(started.id, 5);
      expect(record).toMatchObject({ id: started.id, status: 'FINISHED' });
      expect(record.response).toContain(question.expectedAnswerContains);
    } finally {
      await kb.close();
    }
  });
});
