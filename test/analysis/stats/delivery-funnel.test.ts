// The delivery funnel over three syncs with the clock moving between them: counts by latest status obey
// the channel rules, and the time to READ is not measured (null, "n/a" in the text): the emulator's truth
// has messages read long after they were sent, which no API exposes, so any figure the syncs derive from
// when they saw a status (0 for a message read before its first sync) would be the sync interval.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeStats } from '../../../src/analysis/stats/compute-stats.js';
import { renderStatsText } from '../../../src/analysis/stats/render-stats-text.js';
import { createHarness, type Harness } from '../../helpers/sync-harness.js';
import { quantileCont } from './expected-stats.js';

const MINUTE = 60_000;

let h: Harness;
const syncTimes: number[] = [];

beforeAll(async () => {
  // only the last hours are synced (sessions last at most 6 hours): enough for the window below
  h = await createHarness({
    emulator: { sessions: 1500, days: 1 },
    env: { REPORTER_HISTORY_DAYS: '0.35', REPORTER_LOOKBACK_HOURS: '8' },
  });
  for (const advance of [0, 30 * MINUTE, 90 * MINUTE]) {
    h.running.emulator.clock.advance(advance);
    syncTimes.push(h.running.emulator.now());
    expect((await h.sync()).status).toBe('success');
  }
}, 60_000);
afterAll(async () => {
  await h?.close();
});

describe('delivery funnel', () => {
  it('counts latest statuses per channel rules; time to READ is n/a, not the sync interval', async () => {
    const [t1] = syncTimes as [number, number, number];
    const now = h.running.emulator.now();
    // recent messages (the sync leaves the last 5 minutes): many are read only after the first sync
    const from = t1 - 40 * MINUTE;
    const to = t1 - 6 * MINUTE;
    const p = h.running.emulator.project('shop-bot');
    const sk = p.skeleton;
    const expected = new Map<string, { statuses: Map<string, number>; delays: number[] }>();
    for (let i = 0; i < sk.sessionCount && sk.start.get(i) < to; i++) {
      const channel = p.channelOf(i);
      if (!['telegram', 'viber', 'vk'].includes(channel)) continue;
      const row = expected.get(channel) ?? { statuses: new Map<string, number>(), delays: [] as number[] };
      expected.set(channel, row);
      for (let k = 0; k < sk.visibleMessageCount(i, now); k++) {
        const t = sk.messageTime(i, k);
        if (t < from || t >= to) continue;
        const status = p.statusAt(i, k, now)!;
        row.statuses.set(status, (row.statuses.get(status) ?? 0) + 1);
        if (status !== 'READ') continue;
        // the truth: when the message became READ (first minute its status is READ), from when it was sent
        let readAt = t;
        while (p.statusAt(i, k, readAt) !== 'READ') readAt += MINUTE;
        row.delays.push(readAt - t);
      }
    }
    const r = await h.withWarehouse((w) =>
      computeStats(w, {
        from,
        to,
        timeZone: 'Europe/Moscow',
        period: 'hour',
        top: 10,
        catchAllClass: '/CatchAll',
      }),
    );
    expect(r.deliveryFunnel.map((f) => f.channel)).toEqual(['telegram', 'viber', 'vk']);
    for (const f of r.deliveryFunnel) {
      const e = expected.get(f.channel)!;
      const n = (s: string) => e.statuses.get(s) ?? 0;
      expect(f).toMatchObject({
        sent: f.channel === 'viber' ? null : n('SENT'),
        delivered: n('DELIVERED'),
        read: f.channel === 'telegram' ? null : n('READ'),
        notSent: n('NOT_SENT'),
        notDelivered: n('NOT_DELIVERED'),
        unexpected: 0,
        medianMsToRead: null,
        readTimed: null,
      });
      if (f.channel === 'telegram') expect(n('READ')).toBe(0);
      // messages really were read minutes after they were sent: a 0 would have told the analyst otherwise
      else expect(quantileCont(e.delays, 0.5)).toBeGreaterThan(MINUTE);
    }
    const funnelLines = renderStatsText(r).split('\n');
    const rowOf = (channel: string) => funnelLines.filter((l) => l.startsWith(`${channel} `)).at(-1)!;
    expect(rowOf('viber')).toMatch(/ n\/a$/);
    expect(rowOf('vk')).toMatch(/ n\/a$/);
    expect(rowOf('telegram')).toMatch(/ -$/);
  });
});
