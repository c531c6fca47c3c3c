// The emulator's request log (used by the benchmark's transfer floor): every API request as received,
// method, path with query and body, in arrival order; control endpoints are not recorded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.js';
import { makeCaller, range, TEST_NOW } from '../helpers/emulator-client.js';

let running: RunningEmulator;
let call: ReturnType<typeof makeCaller>;

beforeAll(async () => {
  running = await startEmulator({ sessions: 200, days: 1, now: TEST_NOW });
  call = makeCaller(running.url);
});
afterAll(() => running.close());

describe('request log', () => {
  it('records nothing until asked, then every API request with its body, and no control request', async () => {
    await call('sessions/filter?page=0&size=5', { body: { filters: [] } });
    expect(running.emulator.requestLog).toBeUndefined();

    running.emulator.requestLog = [];
    const body = { filters: [range('MESSAGE_TIME', TEST_NOW - 3_600_000, TEST_NOW)] };
    const page = await call<{ messages: { sessionId: string }[] }>('messages/filter?page=1&size=3', { body });
    expect(page.status).toBe(200);
    const sessionId = page.body.messages[0]!.sessionId;
    await call(`messages/by-session?sessionId=${sessionId}&page=0&size=500`);
    await fetch(`${running.url}/__emulator/health`);

    expect(running.emulator.requestLog).toEqual([
      { method: 'POST', url: '/api/v1/reporter/messages/filter?page=1&size=3', body: JSON.stringify(body) },
      { method: 'GET', url: `/api/v1/reporter/messages/by-session?sessionId=${sessionId}&page=0&size=500` },
    ]);
  });
});
