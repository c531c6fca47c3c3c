// Live mode: as the clock advances, new sessions arrive, delivery statuses move forward and people's
// labels appear on old sessions, so that incremental sync can be tested.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.js';
import { groundTruth } from '../../src/emulator/truth.js';
import { makeCaller, pageAll, range, TEST_NOW } from '../helpers/emulator-client.js';

let running: RunningEmulator;
let call: ReturnType<typeof makeCaller>;
const HOUR = 3_600_000;

beforeAll(async () => {
  running = await startEmulator({ sessions: 2000, days: 3, now: TEST_NOW });
  call = makeCaller(running.url);
});
afterAll(() => running.close());

describe('live clock', () => {
  it('brings new sessions, later statuses and new labels as time passes', async () => {
    const p = running.emulator.project('shop-bot');
    const window = { filters: [range('SESSION_START_TIME', TEST_NOW - 6 * HOUR, TEST_NOW + 6 * HOUR)] };
    const before = await pageAll(
      call,
      'sessions/filter',
      'sessions',
      window,
      500,
      '&needToReturnSessionLabels=true',
    );
    const beforeTruth = groundTruth(p, { now: running.emulator.now(), from: TEST_NOW - 6 * HOUR });
    const statusesBefore = new Map<string, string>();
    for (const s of before.rows
      .filter((x) => x.channelType === 'viber' || x.channelType === 'vk')
      .slice(0, 60)) {
      const r = await call(`messages/by-session?sessionId=${s.sessionId}&size=100`);
      for (const m of r.body.messages) statusesBefore.set(m.questionId, m.status ?? 'none');
    }

    const moved = await fetch(`${running.url}/__emulator/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceMs: 4 * HOUR }),
    });
    expect(((await moved.json()) as { now: string }).now).toBe(new Date(TEST_NOW + 4 * HOUR).toISOString());

    const after = await pageAll(
      call,
      'sessions/filter',
      'sessions',
      window,
      500,
      '&needToReturnSessionLabels=true',
    );
    expect(after.rows.length).toBeGreaterThan(before.rows.length);
    expect(after.rows.some((s) => Date.parse(s.startTime) > TEST_NOW)).toBe(true);
    const afterTruth = groundTruth(p, { now: running.emulator.now(), from: TEST_NOW - 6 * HOUR });
    expect(after.rows.length).toBe(afterTruth.sessions);
    expect(afterTruth.sessions).toBeGreaterThan(beforeTruth.sessions);

    const labelsBefore = new Map(before.rows.map((s) => [s.sessionId, s.labels.length]));
    expect(
      after.rows.some(
        (s) => labelsBefore.has(s.sessionId) && s.labels.length > labelsBefore.get(s.sessionId)!,
      ),
    ).toBe(true);

    let changed = 0;
    for (const s of before.rows
      .filter((x) => x.channelType === 'viber' || x.channelType === 'vk')
      .slice(0, 60)) {
      const r = await call(`messages/by-session?sessionId=${s.sessionId}&size=100`);
      for (const m of r.body.messages) {
        const old = statusesBefore.get(m.questionId);
        if (old !== undefined && old !== (m.status ?? 'none')) {
          changed++;
          // statuses only move forward
          expect([
            'SENT>DELIVERED',
            'DELIVERED>READ',
            'SENT>READ',
            'none>SENT',
            'none>DELIVERED',
            'none>READ',
            'none>NOT_DELIVERED',
            'SENT>NOT_DELIVERED',
            'none>NOT_SENT',
          ]).toContain(`${old}>${m.status}`);
        }
      }
    }
    expect(changed).toBeGreaterThan(0);
  });

  it('advances by itself in live mode', async () => {
    const live = await startEmulator({ sessions: 500, days: 1, now: TEST_NOW, live: true, speed: 1000 });
    try {
      const t0 = live.emulator.now();
      await new Promise((r) => setTimeout(r, 50));
      expect(live.emulator.now() - t0).toBeGreaterThanOrEqual(40_000);
    } finally {
      await live.close();
    }
  });
});
