// The emulator as a remote platform (src/emulator/remote.ts): every API answer waits latencyMs (control
// endpoints do not), and the rate limit set while running (POST /__emulator/remote) is a token bucket of one
// second's requests answering 429 with Retry-After beyond it; bad settings are refused naming the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.js';
import { makeCaller, TEST_NOW } from '../helpers/emulator-client.js';

let running: RunningEmulator;
beforeAll(async () => {
  running = await startEmulator({ sessions: 40, days: 1, now: TEST_NOW, latencyMs: 400 });
});
afterAll(() => running.close());

async function setRemote(body: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${running.url}/__emulator/remote`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: await r.json() };
}

async function timed<T>(work: () => Promise<T>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

describe('the emulator as a remote platform', () => {
  it('every API answer waits latencyMs; control endpoints do not', async () => {
    const call = makeCaller(running.url);
    expect(await timed(() => call('projects/sessions/count'))).toBeGreaterThanOrEqual(395);
    expect(await timed(() => fetch(`${running.url}/__emulator/health`))).toBeLessThan(300);
    // ten at once wait together, not one after another
    expect(
      await timed(() => Promise.all(Array.from({ length: 10 }, () => call('projects/sessions/count')))),
    ).toBeLessThan(2000);
  });

  it('a rate limit set while running: its burst passes, the next is 429 with Retry-After; null lifts it', async () => {
    expect((await setRemote({ latencyMs: 0, rateLimitRps: 5 })).body).toEqual({
      latencyMs: 0,
      rateLimitRps: 5,
    });
    const call = makeCaller(running.url);
    const answers = await Promise.all(Array.from({ length: 8 }, () => call('projects/sessions/count')));
    const refused = answers.filter((a) => a.status === 429);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    expect(refused).toHaveLength(3);
    for (const r of refused) expect(r.headers.get('retry-after')).toBe('1');
    expect(running.emulator.rateLimit?.rejectedAt).toHaveLength(3);
    expect((await fetch(`${running.url}/__emulator/remote`).then((r) => r.json())) as unknown).toEqual({
      latencyMs: 0,
      rateLimitRps: 5,
    });
    expect((await setRemote({ rateLimitRps: null })).body).toEqual({ latencyMs: 0, rateLimitRps: null });
    const after = await Promise.all(Array.from({ length: 20 }, () => call('projects/sessions/count')));
    expect(after.every((a) => a.status === 200)).toBe(true);
  });

  it('refuses a bad setting with a 400 naming it, and changes nothing', async () => {
    for (const [body, field] of [
      [{ latencyMs: -1 }, 'latencyMs'],
      [{ latencyMs: 1.5 }, 'latencyMs'],
      [{ latencyMs: 120_000 }, 'latencyMs'],
      [{ rateLimitRps: 0 }, 'rateLimitRps'],
      [{ rateLimitRps: '10' }, 'rateLimitRps'],
      [{ latency: 10 }, 'latency'],
    ] as const) {
      const r = await setRemote(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.message).toContain(`${field}:`);
    }
    expect(await fetch(`${running.url}/__emulator/remote`).then((r) => r.json())).toEqual({
      latencyMs: 0,
      rateLimitRps: null,
    });
  });
});
