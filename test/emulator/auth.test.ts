// Authentication of both generations: 401 with an ErrorDto for a missing or wrong token (and for a token
// of the other generation), 403 for a read-only token on a write or a project it cannot see, 404 paths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_READONLY_TOKEN, defaultLegacyToken } from '../../src/emulator/emulator.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.js';
import { makeCaller, TEST_NOW } from '../helpers/emulator-client.js';

let running: RunningEmulator;
let call: ReturnType<typeof makeCaller>;

beforeAll(async () => {
  running = await startEmulator({
    sessions: 400,
    days: 2,
    now: TEST_NOW,
    projects: ['shop-bot', 'support-bot'],
    v1Tokens: [
      { token: 'emulator-v1-token', projects: ['shop-bot', 'support-bot'] },
      { token: 'shop-only', projects: ['shop-bot'] },
      { token: DEFAULT_READONLY_TOKEN, projects: ['shop-bot'], readOnly: true },
    ],
  });
  call = makeCaller(running.url);
});
afterAll(() => running.close());

describe('auth', () => {
  it('401 without a token, with a wrong one, and with a token of the other generation', async () => {
    const cases = [
      await call('sessions/filter', { body: {}, token: null }),
      await call('sessions/filter', { body: {}, token: 'wrong' }),
      await call('sessions/filter', { body: {}, token: defaultLegacyToken('shop-bot') }),
      await call('sessions/filter', { body: {}, generation: 'legacy', token: 'emulator-v1-token' }),
      await call('sessions/filter', { body: {}, generation: 'alias', token: null }),
    ];
    for (const r of cases) {
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({
        error: expect.stringMatching(/^reporter\.unauthorized/),
        message: expect.any(String),
      });
    }
  });

  it('a unified token spans projects; projectShortName selects one', async () => {
    const shop = await call('sessions/filter?size=1&projectShortName=shop-bot', { body: {} });
    const support = await call('sessions/filter?size=1&projectShortName=support-bot', { body: {} });
    expect(shop.body.sessions[0].projectShortName).toBe('shop-bot');
    expect(support.body.sessions[0].projectShortName).toBe('support-bot');
    const counts = await call('projects/sessions/count');
    expect(counts.body.map((x: any) => x.projectShortName)).toEqual(['shop-bot', 'support-bot']);
    const legacy = await call('sessions/filter?size=1', {
      body: {},
      generation: 'legacy',
      project: 'support-bot',
    });
    expect(legacy.body.sessions[0].projectShortName).toBe('support-bot');
  });

  it('403 for a project outside the token, 400 for an unknown project', async () => {
    const r = await call('sessions/filter?projectShortName=support-bot', { body: {}, token: 'shop-only' });
    expect(r.status).toBe(403);
    const u = await call('sessions/filter?projectShortName=nope', { body: {} });
    expect(u.status).toBe(400);
    expect(u.body.args.parameter).toBe('projectShortName');
  });

  it('403 for a read-only token on a write; reads are fine', async () => {
    const read = await call('sessions/filter', { body: {}, token: DEFAULT_READONLY_TOKEN });
    expect(read.status).toBe(200);
    const write = await call('logs/labels/sessions', {
      body: { name: 'x', priority: 1 },
      token: DEFAULT_READONLY_TOKEN,
    });
    expect(write.status).toBe(403);
    expect(write.body.error).toMatch(/forbidden/);
  });

  it('404 for unknown paths, 405 for a wrong method', async () => {
    const r = await call('no/such/operation', { body: {} });
    expect(r.status).toBe(404);
    expect(r.body.error).toMatch(/not_found/);
    const m = await call('sessions/filter', { method: 'DELETE' });
    expect(m.status).toBe(405);
  });
});
