// Statistics operations reconcile exactly with the emulator's ground truth of the same window, and
// bucket by the Timezone header.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.js';
import { groundTruth } from '../../src/emulator/truth.js';
import { makeCaller, range, TEST_NOW } from '../helpers/emulator-client.js';

let running: RunningEmulator;
let call: ReturnType<typeof makeCaller>;
const DAY = 86_400_000;
const from = TEST_NOW - 3 * DAY;
const to = TEST_NOW - DAY;

beforeAll(async () => {
  running = await startEmulator({ sessions: 3000, days: 5, now: TEST_NOW });
  call = makeCaller(running.url);
});
afterAll(() => running.close());

const truth = (window: { from?: number; to?: number } = { from, to }) =>
  groundTruth(running.emulator.project('shop-bot'), { now: running.emulator.now(), ...window });
const nonZero = (o: Record<string, number>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v > 0));
const sum = (stats: { value: number }[]) => stats.reduce((a, s) => a + s.value, 0);

describe('statistics', () => {
  it('sessions and messages with advanced filters equal the truth, by day', async () => {
    const s = await call('stats/sessions/with-advanced-filters?intervalType=DAY', {
      body: { filters: [range('SESSION_START_TIME', from, to - 1)] },
    });
    expect(s.status).toBe(200);
    expect(s.body.totalCount).toBe(truth().sessions);
    expect(s.body.stats.map((x: any) => x.ts)).toEqual([from, from + DAY]);
    expect(sum(s.body.stats)).toBe(truth().sessions);
    const firstDay = truth({ from, to: from + DAY }).sessions;
    expect(s.body.stats[0].value).toBe(firstDay);

    const m = await call('stats/messages/with-advanced-filters?intervalType=HOUR&step=6', {
      body: { filters: [range('MESSAGE_TIME', from, to - 1)] },
    });
    expect(m.body.totalCount).toBe(truth().messages);
    expect(m.body.stats).toHaveLength(8);
    expect(m.body.stats[1].value).toBe(
      truth({ from: from + 6 * 3_600_000, to: from + 12 * 3_600_000 }).messages,
    );
  });

  it('buckets in the local day of the Timezone header', async () => {
    const s = await call('stats/sessions/with-advanced-filters?intervalType=DAY', {
      body: { filters: [range('SESSION_START_TIME', from, to - 1)] },
      headers: { Timezone: '180' },
    });
    expect(s.body.stats[0].ts).toBe(from - 3 * 3_600_000);
    expect(s.body.stats[0].value).toBe(truth({ from, to: from + 21 * 3_600_000 }).sessions);
    const bad = await call('stats/sessions/with-advanced-filters', {
      body: {},
      headers: { Timezone: 'Europe/Moscow' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.args.parameter).toBe('Timezone');
  });

  it('session and log label statistics equal the truth', async () => {
    const sl = await call('stats/session-labels', {
      body: { filters: [range('SESSION_START_TIME', from, to - 1)] },
    });
    const sessionLabels = Object.fromEntries(sl.body.stats.map((x: any) => [x.label.name, x.totalCount]));
    expect(nonZero(sessionLabels)).toEqual(truth().sessionLabels);
    const ll = await call('stats/log-labels', { body: { filters: [range('MESSAGE_TIME', from, to - 1)] } });
    const messageLabels = Object.fromEntries(ll.body.stats.map((x: any) => [x.label.name, x.totalCount]));
    expect(nonZero(messageLabels)).toEqual(truth().messageLabels);
    expect(ll.body.stats[0].label.group.name).toBeTypeOf('string');
  });

  it('switched sessions per day equal the transferred sessions of the truth', async () => {
    const day = (t: number) => new Date(t).toISOString().slice(0, 10);
    const r = await call(
      `stats/switched-sessions?dateFrom=${day(from)}&dateTo=${day(to - DAY)}&transferToOperatorMethod=SWITCH`,
    );
    expect(r.status).toBe(200);
    expect(r.body.totalCount).toBe(truth().transferredSessions);
    expect(r.body.stats).toHaveLength(2);
    const text = await call(
      `stats/switched-sessions?dateFrom=${day(from)}&dateTo=${day(to - DAY)}&transferToOperatorMethod=TEXT&textForTransfer=${encodeURIComponent('Перевожу вас на оператора, пожалуйста, подождите.')}`,
    );
    expect(text.body.totalCount).toBe(truth().transferredSessions);
    const missing = await call(`stats/switched-sessions?dateFrom=${day(from)}&dateTo=${day(to)}`);
    expect(missing.status).toBe(400);
    expect(missing.body.args.parameter).toBe('transferToOperatorMethod');
  });

  it('unique clients, project session counts and telephony', async () => {
    const all = truth({});
    const u = await call('stats/unique-clients');
    expect(u.body).toEqual([{ projectShortName: 'shop-bot', totalCount: all.uniqueClients }]);
    const c = await call('projects/sessions/count');
    expect(c.body).toEqual([{ projectShortName: 'shop-bot', amount: all.sessions }]);
    const day = (t: number) => new Date(t).toISOString().slice(0, 10);
    const t = await call(`stats/telephony?dateFrom=${day(from)}&dateTo=${day(to - DAY)}`);
    const calls = sum(t.body.incomingCount) + sum(t.body.outgoingCount);
    expect(calls).toBe(truth().byChannel['resterisk']!.sessions);
    expect(t.body.averageCallDurationInSeconds).toBeGreaterThan(0);
  });

  it('telephony per day equals the truth of its calls: incoming, outgoing, billed, average duration', async () => {
    const day = (t: number) => new Date(t).toISOString().slice(0, 10);
    const t = await call(`stats/telephony?dateFrom=${day(from)}&dateTo=${day(from)}`);
    const calls = truth({ from, to: from + DAY }).calls;
    expect(calls.incoming + calls.outgoing).toBeGreaterThan(0);
    expect(sum(t.body.incomingCount)).toBe(calls.incoming);
    expect(sum(t.body.outgoingCount)).toBe(calls.outgoing);
    expect(sum(t.body.billingCount)).toBe(calls.billed);
    const average = calls.durationMs / (calls.incoming + calls.outgoing) / 1000;
    expect(t.body.averageCallDurationInSeconds).toBeCloseTo(average, 2);
  });

  it('state routes of a day equal the truth: every route and result with its session count', async () => {
    const answer = await call('state-routes/filter?page=0&size=500', {
      body: { filters: [range('SESSION_START_TIME', from, from + DAY - 1)] },
    });
    expect(answer.status).toBe(200);
    const byRoute: Record<string, number> = {};
    for (const r of answer.body.routes)
      byRoute[`${r.stateRoutes.join(' > ')}|${r.stateRouteResult}`] =
        (byRoute[`${r.stateRoutes.join(' > ')}|${r.stateRouteResult}`] ?? 0) + r.sessionsCount;
    const expected: Record<string, number> = {};
    for (const [key, count] of Object.entries(truth({ from, to: from + DAY }).stateRoutes)) {
      const route = key.slice(key.indexOf('|') + 1);
      expected[route] = (expected[route] ?? 0) + count;
    }
    expect(answer.body.paging.totalCount).toBe(answer.body.routes.length);
    expect(byRoute).toEqual(expected);
  });
});
