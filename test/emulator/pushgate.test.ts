// The emulated Pushgate: GET and POST fire a pushback and are recorded as received, an unknown or deleted
// pushback is 404 `{error, message}`, sessions' pushback ids are in their sessionData, faults apply.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PUSHBACK_ID } from '../../src/emulator/pushgate/pushgate.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.js';
import { TEST_NOW } from '../helpers/emulator-client.js';

let running: RunningEmulator;

beforeAll(async () => {
  running = await startEmulator({ sessions: 400, days: 2, now: TEST_NOW, pushbackShare: 0.5 });
});
afterEach(() => {
  running.emulator.faults.assertAllFired();
  running.emulator.faults.clear();
});
afterAll(() => running.close());

async function push(id: string, body?: unknown, contentType = 'application/json') {
  const response = await fetch(`${running.url}/pushgate/push_${encodeURIComponent(id)}`, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body === undefined
      ? {}
      : {
          body: typeof body === 'string' ? body : JSON.stringify(body),
          headers: { 'content-type': contentType },
        }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function received(id?: string): Promise<Record<string, unknown>[]> {
  const query = id === undefined ? '' : `?pushbackId=${encodeURIComponent(id)}`;
  const answer = await fetch(`${running.url}/__emulator/pushgate/received${query}`);
  return ((await answer.json()) as { received: Record<string, unknown>[] }).received;
}

describe('Pushgate (emulated)', () => {
  it('GET and POST fire the pushback: 200 {} and recorded with the body', async () => {
    const before = (await received(DEFAULT_PUSHBACK_ID)).length;
    expect(await push(DEFAULT_PUSHBACK_ID)).toEqual({ status: 200, body: {} });
    expect(await push(DEFAULT_PUSHBACK_ID, { eventId: 'e1', n: 2 })).toEqual({ status: 200, body: {} });
    const got = (await received(DEFAULT_PUSHBACK_ID)).slice(before);
    expect(got.map((r) => [r['method'], r['body']])).toEqual([
      ['GET', undefined],
      ['POST', { eventId: 'e1', n: 2 }],
    ]);
  });

  it('an unknown or deleted pushback is 404 {error, message}, and nothing is recorded', async () => {
    const before = (await received()).length;
    const unknown = await push('no-such-pushback', { a: 1 });
    expect(unknown.status).toBe(404);
    expect(Object.keys(unknown.body).sort()).toEqual(['error', 'message']);
    await fetch(`${running.url}/__emulator/pushgate/pushbacks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pushbackId: 'temp-1' }),
    });
    expect((await push('temp-1')).status).toBe(200);
    await fetch(`${running.url}/__emulator/pushgate/pushbacks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pushbackId: 'temp-1', delete: true }),
    });
    expect((await push('temp-1')).status).toBe(404);
    expect((await received()).length).toBe(before + 1);
  });

  it('a body that is not JSON, or not an object, is 400', async () => {
    expect((await push(DEFAULT_PUSHBACK_ID, '{broken')).status).toBe(400);
    expect((await push(DEFAULT_PUSHBACK_ID, [1, 2])).status).toBe(400);
    expect((await push(DEFAULT_PUSHBACK_ID, { a: 1 }, 'text/plain')).status).toBe(400);
  });

  it("a session's pushback id (sessionData) fires into that session's dialog", async () => {
    const project = running.emulator.project('shop-bot');
    let found: number | undefined;
    for (let i = 0; i < project.skeleton.sessionCount && found === undefined; i++)
      if (project.sessionData(i)['pushbackId']) found = i;
    expect(found).toBeDefined();
    const id = project.sessionData(found!)['pushbackId']!;
    expect((await push(id, { hello: 1 })).status).toBe(200);
    const [receipt] = await received(id);
    expect(receipt?.['sessionId']).toBe(project.sessionId(found!));
    // a forged check suffix is not a pushback
    expect((await push(`${id.slice(0, -1)}${id.endsWith('0') ? '1' : '0'}`)).status).toBe(404);
  });

  it('faults on path `pushgate` answer before anything is recorded', async () => {
    running.emulator.faults.script({ type: 'status503', path: 'pushgate' });
    running.emulator.faults.script({ type: 'status429', path: 'pushgate', retryAfter: 2 });
    const before = (await received()).length;
    expect((await push(DEFAULT_PUSHBACK_ID, { a: 1 })).status).toBe(503);
    expect((await push(DEFAULT_PUSHBACK_ID, { a: 1 })).status).toBe(429);
    expect((await push(DEFAULT_PUSHBACK_ID, { a: 1 })).status).toBe(200);
    expect((await received()).length).toBe(before + 1);
  });
});
