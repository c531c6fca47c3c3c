// Every statistics figure from the rollups (migration 024, kept by each window commit) equals the same figure
// computed from the raw rows (raw-sql/, the statements before the rollups), to the last digit: windows that
// cut days and quarter hours, in UTC, Moscow, the half-hour Kolkata, the 45-minute Kathmandu, New York across
// its autumn hour and Lord Howe (a half-hour DST), by hour, day, week and month, with and without channels;
// after incremental syncs whose look-back rewrote labels and statuses, after a rebuild, and after the
// migration filled the rollups of a warehouse that had none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeStats } from '../../../src/analysis/stats/compute-stats.js';
import { ROLLUP_TABLES } from '../../../src/warehouse/rebuild-rollups.js';
import { createHarness, type Harness } from '../../helpers/sync-harness.js';
import { expectRollupsEqualRaw, expectRollupsEqualRebuild, type ReportCase } from './rollup-reference.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
let h: Harness;
let now: number;

/** A labelled session and a labelled message of the look-back get one more label; five READ messages unread. */
async function changeTheLookBack(harness: Harness): Promise<void> {
  const at = harness.running.emulator.now();
  const p = harness.running.emulator.project('shop-bot');
  const range = { from: new Date(at - 20 * HOUR), to: new Date(at - 10 * HOUR) };
  const [session] = await harness.withWarehouse((w) =>
    w.query(
      `select s.session_id from sessions s join session_labels l using (project, session_id)
       where s.start_time between $from and $to order by 1 limit 1`,
      range,
    ),
  );
  const [message] = await harness.withWarehouse((w) =>
    w.query(
      `select question_id from message_labels where "timestamp" between $from and $to order by 1 limit 1`,
      range,
    ),
  );
  const sessionAt = p.sessionIndex(String(session?.['session_id']))!;
  const labels = new Set(p.sessionLabelIds(sessionAt, at));
  const extra = [...p.state.sessionLabels.keys()].find((id) => !labels.has(id))!;
  p.state.sessionLabelSets.set(sessionAt, new Set([...labels, extra]));
  const messageAt = p.messageIndex(String(message?.['question_id']))!;
  const messageLabels = new Set(p.messageLabelIds(messageAt.i, messageAt.k, at));
  const extraMessage = [...p.state.messageLabels.keys()].find((id) => !messageLabels.has(id))!;
  p.state.messageLabelSets.set(
    p.skeleton.msgOffset.get(messageAt.i) + messageAt.k,
    new Set([...messageLabels, extraMessage]),
  );
  // as if the last sync had seen them before they were read: the next look-back moves them to READ again
  await harness.withWarehouse((w) =>
    w.query(
      `update messages set status = 'DELIVERED' where question_id in (select question_id from messages
         where status = 'READ' and "timestamp" between $from and $to order by 1 limit 5)`,
      range,
    ),
  );
}

beforeAll(async () => {
  h = await createHarness({ emulator: { sessions: 1500 }, env: { REPORTER_WINDOW_HOURS: '5' } });
  expect((await h.sync()).status).toBe('success');
  for (const advance of [6.5 * HOUR, 4 * HOUR]) {
    h.running.emulator.clock.advance(advance);
    await changeTheLookBack(h);
    const run = await h.sync();
    expect(run.status).toBe('success');
    expect(run.sessions).toBeGreaterThan(0);
  }
  now = h.running.emulator.now();
}, 180_000);
afterAll(async () => {
  await h?.close();
});

/** Windows that cut days and quarter hours (odd seconds and milliseconds), one inside a quarter, the whole data. */
function cases(): ReportCase[] {
  const start = now - 3 * DAY;
  const cut = { from: start + 7 * 60_000 + 13_017, to: now - 26 * HOUR + 17 };
  const day = { from: Date.UTC(2026, 9, 30), to: Date.UTC(2026, 9, 31) };
  const inQuarter = { from: now - 30 * HOUR + 100, to: now - 30 * HOUR + 700_000 };
  const acrossQuarter = { from: now - 20 * HOUR - 5 * 60_000 - 1, to: now - 20 * HOUR + 16 * 60_000 };
  const recent = { from: now - 14 * HOUR - 1234, to: now };
  return [
    { timeZone: 'UTC', period: 'day' },
    { timeZone: 'UTC', period: 'hour', ...cut },
    { timeZone: 'Europe/Moscow', period: 'day', ...cut },
    { timeZone: 'Europe/Moscow', period: 'week', ...day },
    { timeZone: 'Asia/Kolkata', period: 'hour', ...cut },
    { timeZone: 'Asia/Kolkata', period: 'day', ...recent },
    { timeZone: 'Asia/Kathmandu', period: 'hour', ...recent },
    { timeZone: 'Asia/Kathmandu', period: 'day', ...cut, channels: ['telegram'] },
    { timeZone: 'America/New_York', period: 'hour', ...recent },
    { timeZone: 'America/New_York', period: 'day', ...cut, channels: ['telegram', 'vk'] },
    { timeZone: 'Australia/Lord_Howe', period: 'hour', ...cut },
    { timeZone: 'UTC', period: 'month', ...cut, channels: ['viber'] },
    { timeZone: 'Asia/Kolkata', period: 'hour', ...inQuarter },
    { timeZone: 'Asia/Kathmandu', period: 'hour', ...acrossQuarter, channels: ['vk', 'chatwidget'] },
    { timeZone: 'UTC', period: 'day', ...recent, channels: ['chatwidget'] },
  ];
}

describe('the rollups against the raw rows', () => {
  it('the windows hold what the comparison is about: clients returning, transfers, labels, edges', async () => {
    const r = await h.withWarehouse((w) =>
      computeStats(w, {
        timeZone: 'UTC',
        period: 'day',
        top: 10,
        catchAllClass: '/CatchAll',
        from: now - 40 * HOUR,
        to: now,
      }),
    );
    expect(r.totals.sessions).toBeGreaterThan(500);
    expect(r.totals.uniqueClients).toBeLessThan(r.totals.sessions);
    expect(r.totals.returningClients).toBeGreaterThan(0);
    expect(r.totals.newClients).toBeGreaterThan(0);
    expect(r.totals.transferredSessions).toBeGreaterThan(0);
    expect(r.sessionLabels.some((l) => l.count > 0)).toBe(true);
    expect(r.messageLabels.some((l) => l.count > 0)).toBe(true);
    expect(r.experiments.some((e) => e.sessions > 0)).toBe(true);
    expect(r.byChannel.length).toBeGreaterThan(2);
  });

  it('every figure is the raw one, after incremental syncs that rewrote the look-back', async () => {
    await h.withWarehouse((w) => expectRollupsEqualRaw(w, cases()));
  }, 120_000);

  it('the rollups the commits kept are those a rebuild gives, and the figures still agree', async () => {
    await h.withWarehouse(async (w) => {
      await expectRollupsEqualRebuild(w);
      await expectRollupsEqualRaw(w, cases().slice(0, 3));
    });
  }, 120_000);

  it('a warehouse without rollups gets them from the migration', async () => {
    await h.withWarehouse(async (w) => {
      for (const table of ROLLUP_TABLES) await w.query(`DROP TABLE ${table}`);
      await w.query('DELETE FROM schema_migrations WHERE version = 24');
    });
    // opening it again applies migration 024: the tables created and filled from the raw rows
    await h.withWarehouse(async (w) => {
      const [row] = await w.query('SELECT count(*) AS n FROM stat_sessions');
      expect(Number(row?.['n'])).toBeGreaterThan(1000);
      await expectRollupsEqualRaw(w, cases().slice(0, 4));
    });
  }, 120_000);
});
