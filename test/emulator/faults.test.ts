// Each fault the emulator can inject, scripted per test and observed on the wire; rules that never fire
// are reported; rates are repeatable.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Faults } from '../../src/emulator/faults.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.js';
import { makeCaller, range, TEST_NOW } from '../helpers/emulator-client.js';

let running: RunningEmulator;
let call: ReturnType<typeof makeCaller>;
const DAY = 86_400_000;
const window = { filters: [range('SESSION_START_TIME', TEST_NOW - DAY, TEST_NOW)] };

beforeAll(async () => {
  running = await startEmulator({ sessions: 1000, days: 2, now: TEST_NOW });
  call = makeCaller(running.url);
});
afterEach(() => {
  running.emulator.faults.assertAllFired();
  running.emulator.faults.clear();
});
afterAll(() => running.close());

const script = (rule: Parameters<Faults['script']>[0]) => running.emulator.faults.script(rule);

describe('faults', () => {
  it('429 with Retry-After, then the request goes through', async () => {
    script({ type: 'status429', path: 'sessions/filter', retryAfter: 7 });
    const first = await call('sessions/filter', { body: window });
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('7');
    expect(first.body.error).toBe('reporter.too_many_requests');
    expect((await call('sessions/filter', { body: window })).status).toBe(200);
  });

  it('429 with Retry-After as an HTTP-date, measured on the server clock its Date header shows', async () => {
    script({ type: 'status429', path: 'sessions/filter', retryAfter: 7, retryAfterForm: 'date' });
    script({
      type: 'status429',
      path: 'sessions/filter',
      retryAfter: 3,
      retryAfterForm: 'date',
      serverClockOffsetMs: -3_600_000,
    });
    const plain = await call('sessions/filter', { body: window });
    const behind = await call('sessions/filter', { body: window });
    for (const [r, seconds] of [
      [plain, 7],
      [behind, 3],
    ] as const) {
      expect(r.status).toBe(429);
      const retryAfter = r.headers.get('retry-after')!;
      expect(retryAfter).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
      expect(Date.parse(retryAfter) - Date.parse(r.headers.get('date')!)).toBe(seconds * 1000);
    }
    expect(Math.abs(Date.parse(behind.headers.get('date')!) - (Date.now() - 3_600_000))).toBeLessThan(60_000);
    expect((await call('sessions/filter', { body: window })).status).toBe(200);
  });

  it('500 and 503 with an ErrorDto, 502 with an HTML gateway page', async () => {
    script({ type: 'status500', path: 'sessions/filter' });
    script({ type: 'status503', path: 'sessions/filter' });
    script({ type: 'status502', path: 'sessions/filter' });
    const a = await call('sessions/filter', { body: window });
    const b = await call('sessions/filter', { body: window });
    const c = await call('sessions/filter', { body: window });
    expect([a.status, b.status, c.status]).toEqual([500, 503, 502]);
    expect(a.body.message).toBeTypeOf('string');
    expect(c.body).toBeUndefined();
    expect(c.text).toContain('<html>');
  });

  it('drops the connection', async () => {
    script({ type: 'drop', path: 'messages/filter' });
    await expect(call('messages/filter', { body: window })).rejects.toThrow();
  });

  it('answers slowly', async () => {
    script({ type: 'slow', path: 'sessions/filter', delayMs: 400 });
    const started = Date.now();
    const r = await call('sessions/filter', { body: window });
    expect(r.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
  });

  it('truncates a body', async () => {
    script({ type: 'truncate', path: 'sessions/filter' });
    await expect(call('sessions/filter?size=50', { body: window })).rejects.toThrow();
  });

  it('answers a non-JSON body with status 200', async () => {
    script({ type: 'nonJson', path: 'sessions/filter' });
    const r = await call('sessions/filter', { body: window });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/html');
    expect(r.body).toBeUndefined();
  });

  it('breaks one record: wrong type or missing required field', async () => {
    script({ type: 'invalidRecord', path: 'sessions/filter', recordIndex: 2 });
    script({ type: 'invalidRecord', path: 'messages/filter', variant: 'missingField' });
    const s = await call('sessions/filter?size=5', { body: window });
    expect(s.body.sessions[2].startTime).toBe(12345);
    expect(typeof s.body.sessions[1].startTime).toBe('string');
    const m = await call('messages/filter?size=5', { body: window });
    expect(m.body.messages[0].questionId).toBeUndefined();
    expect(m.body.messages[1].questionId).toBeTypeOf('string');
  });

  it('page drift: rows arrive between pages, totalCount grows and rows shift', async () => {
    script({ type: 'pageDrift', path: 'sessions/filter', count: 4 });
    const page0 = await call('sessions/filter?page=0&size=10', { body: window });
    const page1 = await call('sessions/filter?page=1&size=10', { body: window });
    expect(page1.body.paging.totalCount).toBe(page0.body.paging.totalCount + 4);
    const ids0 = page0.body.sessions.map((s: any) => s.sessionId);
    const ids1 = page1.body.sessions.map((s: any) => s.sessionId);
    // the 4 newest were held back on page 0, so page 1 repeats 4 rows of page 0
    expect(ids1.filter((id: string) => ids0.includes(id))).toHaveLength(4);
  });

  it('reports scripted faults that never fired', () => {
    const faults = new Faults(1);
    faults.script({ type: 'status503', path: 'never/called', times: 2 });
    expect(() => faults.assertAllFired()).toThrow(/status503 never\/called \(0\/2\)/);
  });

  it('fires by rate, repeatably for a seed', () => {
    const draw = () => {
      const faults = new Faults(9);
      faults.setRates({ status503: 0.2 });
      return Array.from(
        { length: 200 },
        () => faults.take(['status503'], { path: 'x', method: 'GET' }) !== undefined,
      );
    };
    const a = draw();
    expect(a).toEqual(draw());
    const fired = a.filter(Boolean).length;
    expect(fired).toBeGreaterThan(20);
    expect(fired).toBeLessThan(65);
  });

  it('is scriptable over HTTP through /__emulator/faults', async () => {
    const r = await fetch(`${running.url}/__emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rules: [{ type: 'status503', path: 'stats/unique-clients' }] }),
    });
    expect(r.status).toBe(200);
    expect((await call('stats/unique-clients')).status).toBe(503);
    const bad = await fetch(`${running.url}/__emulator/faults`, {
      method: 'POST',
      body: JSON.stringify({ rules: [{ type: 'bogus' }] }),
    });
    expect(bad.status).toBe(400);
  });
});
