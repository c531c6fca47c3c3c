// The emulator's server-side limits: every paged operation answers at most maxPageSize rows whatever `size`
// asks, with paging fields a client can page by (compared with an uncapped emulator of the same seed), and
// the rate limit (a token bucket) answers 429 with Retry-After beyond it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServerRateLimit } from '../../src/emulator/rate-limit.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.js';
import { makeCaller, pageAll, TEST_NOW } from '../helpers/emulator-client.js';

const DATA = { sessions: 40, days: 1, now: TEST_NOW };

describe('maxPageSize', () => {
  let capped: RunningEmulator;
  let uncapped: RunningEmulator;
  beforeAll(async () => {
    [capped, uncapped] = await Promise.all([
      startEmulator({ ...DATA, maxPageSize: 4 }),
      startEmulator({ ...DATA, maxPageSize: 10_000 }),
    ]);
  });
  afterAll(() => Promise.all([capped.close(), uncapped.close()]));

  const OPERATIONS = [
    ['sessions/filter', 'sessions', 'sessionId'],
    ['messages/filter', 'messages', 'questionId'],
    ['clients/filter', 'clients', 'id'],
  ] as const;

  for (const [path, key, id] of OPERATIONS) {
    it(`${path}: pages of at most 4 rows for size=500, paging.pageSize 4, every row once`, async () => {
      const call = makeCaller(capped.url);
      const first = await call(`${path}?page=0&size=500`, { body: {} });
      expect(first.status).toBe(200);
      expect(first.body[key]).toHaveLength(4);
      expect(first.body.paging).toMatchObject({ pageNum: 0, pageSize: 4 });
      const all = await pageAll(call, path, key, {}, 500);
      const whole = await pageAll(makeCaller(uncapped.url), path, key, {}, 10_000);
      expect(whole.rows.length).toBeGreaterThan(8);
      expect(new Set(all.totals)).toEqual(new Set([whole.rows.length]));
      const ids = all.rows.map((r) => String(r[id]));
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.sort()).toEqual(whole.rows.map((r) => String(r[id])).sort());
    });
  }

  it('messages/by-session: capped too', async () => {
    const call = makeCaller(capped.url);
    // a session with more messages than a page holds
    const { rows } = await pageAll(call, 'messages/filter', 'messages', {}, 500);
    const perSession = new Map<string, number>();
    for (const m of rows) perSession.set(m.sessionId, (perSession.get(m.sessionId) ?? 0) + 1);
    const [sessionId, count] = [...perSession].sort((a, b) => b[1] - a[1])[0]!;
    expect(count).toBeGreaterThan(4);
    const r = await call(`messages/by-session?sessionId=${sessionId}&page=0&size=500`);
    expect(r.status).toBe(200);
    expect(r.body.messages).toHaveLength(4);
    expect(r.body.paging).toMatchObject({ pageSize: 4, totalCount: count });
  });
});

describe('rateLimit', () => {
  it('a token bucket: bursts up to its size, then the rate; the Retry-After is when a token is back', () => {
    let clock = 0;
    const limit = new ServerRateLimit({ requests: 10, perMs: 1000 }, () => clock);
    for (let n = 0; n < 10; n++) expect(limit.take()).toBeUndefined();
    expect(limit.take()).toBe(1);
    clock = 100; // one token back
    expect(limit.take()).toBeUndefined();
    expect(limit.take()).toBe(1);
    // hammering for 10 s lets through one request per 100 ms
    let passed = 0;
    for (clock = 110; clock <= 10_100; clock += 5) if (limit.take() === undefined) passed++;
    expect(passed).toBeGreaterThanOrEqual(99);
    expect(passed).toBeLessThanOrEqual(101);
    const slow = new ServerRateLimit({ requests: 1, perMs: 30_000 }, () => clock);
    expect(slow.take()).toBeUndefined();
    expect(slow.take()).toBe(30);
  });

  let running: RunningEmulator;
  beforeAll(async () => {
    // 3 requests per minute: a fourth at once is refused for 20 s
    running = await startEmulator({ ...DATA, rateLimit: { requests: 3, perMs: 60_000 } });
  });
  afterAll(() => running.close());

  it('answers 429 with Retry-After beyond the limit; control endpoints are not limited', async () => {
    const call = makeCaller(running.url);
    for (let n = 0; n < 3; n++) expect((await call('projects/sessions/count')).status).toBe(200);
    const refused = await call('sessions/filter', { body: {} });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('20');
    expect(refused.body).toMatchObject({ error: 'reporter.too_many_requests' });
    expect((await fetch(`${running.url}/__emulator/health`)).status).toBe(200);
    expect(running.emulator.rateLimit?.rejectedAt).toHaveLength(1);
  });
});
