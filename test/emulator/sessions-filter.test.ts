// sessions/filter against the emulator's ground truth: pagination, order, the filters of the contract
// (MESSAGE_TIME, SESSION_START_TIME, WITHOUT_EMPTY_SESSIONS, MESSAGE_COUNT, CHANNEL_TYPE) and 400s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.js';
import { groundTruth } from '../../src/emulator/truth.js';
import { makeCaller, pageAll, range, TEST_NOW } from '../helpers/emulator-client.js';

let running: RunningEmulator;
let call: ReturnType<typeof makeCaller>;
const DAY = 86_400_000;
const from = TEST_NOW - 2 * DAY;
const to = TEST_NOW - DAY;

beforeAll(async () => {
  running = await startEmulator({ sessions: 3000, days: 4, now: TEST_NOW, maxPageSize: 200 });
  call = makeCaller(running.url);
});
afterAll(() => running.close());

const truth = (window: { from?: number; to?: number }) => {
  const p = running.emulator.project('shop-bot');
  return groundTruth(p, { now: running.emulator.now(), ...window });
};

describe('sessions/filter', () => {
  it('pages through every session started in a window, newest first, each once', async () => {
    // the API's ranges are inclusive: [from, to - 1 ms] equals the truth's [from, to)
    const { rows, totals } = await pageAll(
      call,
      'sessions/filter',
      'sessions',
      { filters: [range('SESSION_START_TIME', from, to - 1)] },
      500,
    );
    const expected = truth({ from, to });
    expect(expected.sessions).toBeGreaterThan(300);
    expect(new Set(totals)).toEqual(new Set([expected.sessions]));
    const ids = rows.map((s) => s.sessionId);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(expected.sessionIds);
    const starts = rows.map((s) => Date.parse(s.startTime));
    for (let n = 1; n < starts.length; n++) expect(starts[n - 1]).toBeGreaterThanOrEqual(starts[n]!);
  });

  it('caps the page size and answers fewer rows than asked', async () => {
    const r = await call('sessions/filter?size=1000', { body: {} });
    expect(r.status).toBe(200);
    expect(r.body.sessions).toHaveLength(200);
    expect(r.body.paging).toMatchObject({ pageNum: 0, pageSize: 200 });
  });

  it('defaults to page 0 of 20', async () => {
    const r = await call('sessions/filter', { body: { filters: [] } });
    expect(r.body.sessions).toHaveLength(20);
    expect(r.body.paging.pageNum).toBe(0);
  });

  it('MESSAGE_TIME matches sessions with at least one message in [from, to]', async () => {
    // noon boundaries: busy hours, so sessions straddle them
    const from = TEST_NOW - 1.5 * DAY;
    const to = TEST_NOW - 0.5 * DAY;
    const { rows } = await pageAll(call, 'sessions/filter', 'sessions', {
      filters: [range('MESSAGE_TIME', from, to - 1)],
    });
    const p = running.emulator.project('shop-bot');
    const expected = new Set<string>();
    for (let i = 0; i < p.skeleton.sessionCount; i++) {
      for (let k = 0; k < p.skeleton.msgCount.get(i); k++) {
        const t = p.skeleton.messageTime(i, k);
        if (t >= from && t < to) expected.add(p.sessionId(i));
      }
    }
    expect(new Set(rows.map((s) => s.sessionId))).toEqual(expected);
    // sessions that started before the window but talked inside it are included
    expect(rows.some((s) => Date.parse(s.startTime) < from)).toBe(true);
  });

  it('WITHOUT_EMPTY_SESSIONS drops sessions with no messages', async () => {
    const filters = [
      range('SESSION_START_TIME', from, to - 1),
      { key: 'WITHOUT_EMPTY_SESSIONS', type: 'RADIO', option: 'YES' },
    ];
    const { rows } = await pageAll(call, 'sessions/filter', 'sessions', { filters });
    expect(rows.length).toBe(truth({ from, to }).nonEmptySessions);
    expect(rows.every((s) => s.questionCount > 0)).toBe(true);
  });

  it('MESSAGE_COUNT bounds are inclusive, as numbers or numeric strings', async () => {
    const asNumbers = [
      range('SESSION_START_TIME', from, to - 1),
      { key: 'MESSAGE_COUNT', type: 'NUMERIC_RANGE', from: 3, to: 5 },
    ];
    const asStrings = [
      range('SESSION_START_TIME', from, to - 1),
      { key: 'MESSAGE_COUNT', type: 'NUMERIC_RANGE', from: '3', to: '5' },
    ];
    const a = await pageAll(call, 'sessions/filter', 'sessions', { filters: asNumbers });
    const b = await pageAll(call, 'sessions/filter', 'sessions', { filters: asStrings });
    expect(a.rows.map((s) => s.sessionId)).toEqual(b.rows.map((s) => s.sessionId));
    const counts = new Set(a.rows.map((s) => s.questionCount));
    expect(counts).toEqual(new Set([3, 4, 5]));
    const p = running.emulator.project('shop-bot');
    let expected = 0;
    const [lo, hi] = p.skeleton.sessionsStartingIn(from, to - 1);
    for (let i = lo; i < hi; i++)
      if (p.skeleton.msgCount.get(i) >= 3 && p.skeleton.msgCount.get(i) <= 5) expected++;
    expect(a.rows.length).toBe(expected);
  });

  it('CHANNEL_TYPE matches case-insensitively and CHAT_WIDGET means chatwidget', async () => {
    const expected = truth({ from, to }).byChannel['chatwidget']!.sessions;
    for (const option of ['chatwidget', 'CHAT_WIDGET', 'ChatWidget']) {
      const filters = [
        range('SESSION_START_TIME', from, to - 1),
        { key: 'CHANNEL_TYPE', type: 'CHECKBOX', options: [option] },
      ];
      const r = await call('sessions/filter?size=1', { body: { filters } });
      expect(r.body.paging.totalCount, option).toBe(expected);
    }
    const filters = [
      range('SESSION_START_TIME', from, to - 1),
      { key: 'CHANNEL_TYPE', type: 'CHECKBOX', options: ['TELEGRAM'] },
    ];
    const { rows } = await pageAll(call, 'sessions/filter', 'sessions', { filters });
    expect(rows.every((s) => s.channelType === 'telegram')).toBe(true);
    expect(rows.length).toBe(truth({ from, to }).byChannel['telegram']!.sessions);
  });

  it('returns sessionData only on v1 when asked, labels when asked', async () => {
    const body = { filters: [range('SESSION_START_TIME', from, to - 1)] };
    const v1 = await call(
      'sessions/filter?size=50&needToReturnSessionData=true&needToReturnSessionLabels=true',
      { body },
    );
    expect(
      v1.body.sessions.every((s: any) => typeof s.sessionData === 'object' && Array.isArray(s.labels)),
    ).toBe(true);
    expect(v1.body.sessions.some((s: any) => Object.keys(s.sessionData).length > 0)).toBe(true);
    const plain = await call('sessions/filter?size=50', { body });
    expect(plain.body.sessions.every((s: any) => s.sessionData === undefined && s.labels === undefined)).toBe(
      true,
    );
    const legacy = await call('sessions/filter?size=50&needToReturnSessionData=true', {
      body,
      generation: 'legacy',
    });
    expect(legacy.status).toBe(200);
    expect(legacy.body.sessions.every((s: any) => s.sessionData === undefined)).toBe(true);
    expect(legacy.body.sessions.map((s: any) => s.sessionId)).toEqual(
      plain.body.sessions.map((s: any) => s.sessionId),
    );
  });

  it('answers the seed documents’ short alias like v1', async () => {
    const body = { filters: [range('SESSION_START_TIME', from, to - 1)] };
    const alias = await call('sessions/filter?size=5', { body, generation: 'alias' });
    const v1 = await call('sessions/filter?size=5', { body });
    expect(alias.status).toBe(200);
    expect(alias.body).toEqual(v1.body);
  });

  it('rejects malformed filters with a 400 ErrorDto naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ filters: [{ key: 'MESSAGE_TIME', type: 'DATE_TIME_RANGE', from: 'yesterday' }] }, 'filters[0].from'],
      [
        {
          filters: [
            range('MESSAGE_TIME', from, to),
            { key: 'MESSAGE_COUNT', type: 'NUMERIC_RANGE', from: 'abc' },
          ],
        },
        'filters[1].from',
      ],
      [{ filters: [{ key: 'NOPE', type: 'RADIO' }] }, 'filters[0].key'],
      [{ filters: [{ key: 'CHANNEL_TYPE', type: 'RADIO' }] }, 'filters[0].type'],
      [{ filters: 'x' }, 'filters'],
    ];
    for (const [body, field] of cases) {
      const r = await call('sessions/filter', { body });
      expect(r.status, field).toBe(400);
      expect(r.body.error).toMatch(/^reporter\./);
      expect(r.body.message).toContain(field);
      expect(r.body.args.parameter).toBe(field);
    }
    const bad = await call('sessions/filter?page=-1', { body: {} });
    expect(bad.status).toBe(400);
    expect(bad.body.args.parameter).toBe('page');
  });

  it('is deterministic: the same seed gives the same data', async () => {
    const other = await startEmulator({ sessions: 3000, days: 4, now: TEST_NOW });
    try {
      const a = await call('sessions/filter?size=100&needToReturnSessionData=true', { body: {} });
      const b = await makeCaller(other.url)('sessions/filter?size=100&needToReturnSessionData=true', {
        body: {},
      });
      expect(b.body.sessions).toEqual(a.body.sessions);
    } finally {
      await other.close();
    }
  });
});
