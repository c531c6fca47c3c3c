// Delivery statuses of whole windows from one platform `messages` report task each (REPORTER_STATUS_READ=report,
// the default): the statuses equal the ground truth on both API generations, with no messages/by-client read
// and a few requests per window; the tasks are deleted afterwards; a report that fails (the task FAILED, the
// file link expired) leaves its window to the per-client reads, still exact; an incremental run after the
// clock moved brings every status change.
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../../src/emulator/emulator.js';
import { createHarness, expectWarehouseEqualsTruth, type Harness } from '../../helpers/sync-harness.js';

const HOUR = 3_600_000;
const LAG = 5 * 60_000;
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function expectExact(): Promise<void> {
  const now = h!.running.emulator.now();
  await expectWarehouseEqualsTruth(h!, now - LAG - 4 * 24 * HOUR, now - LAG, [
    'messageIds',
    'statuses',
    'messageLabels',
  ]);
}

function countOps(log: RecordedRequest[]) {
  const count = (part: string, method?: string) =>
    log.filter((r) => r.url.includes(part) && (method === undefined || r.method === method)).length;
  return {
    byClient: count('/messages/by-client'),
    bySession: count('/messages/by-session'),
    creates: count('/reports/messages', 'POST'),
    downloads: count('/reports/files/'),
    deletes: count('/reports/tasks/', 'DELETE'),
    all: log.length,
  };
}

/** Windows whose report was created (POST reports/messages) before their sessions/filter read began. */
function windowsWithReportAhead(log: RecordedRequest[]): number {
  const fromOf = (r: RecordedRequest, key: string) =>
    (JSON.parse(r.body ?? '{}') as { filters?: { key: string; from: string }[] }).filters?.find(
      (f) => f.key === key,
    )?.from;
  let ahead = 0;
  log.forEach((r, n) => {
    if (!(r.method === 'POST' && r.url.includes('/reports/messages'))) return;
    const from = fromOf(r, 'MESSAGE_TIME');
    const sessionsAt = log.findIndex(
      (s) => s.url.includes('/sessions/filter') && fromOf(s, 'SESSION_START_TIME') === from,
    );
    if (sessionsAt > n) ahead++;
  });
  return ahead;
}

/** The statuses the synced messages hold, and how many are on the status channels. */
async function statusMessages(): Promise<number> {
  const [row] = await h!.withWarehouse((w) =>
    w.query("select count(*) as n from messages where channel_type in ('telegram', 'viber', 'vk')"),
  );
  return Number(row!['n']);
}

describe('statuses from a messages report per window', () => {
  for (const api of ['v1', 'legacy'] as const) {
    it(`a full sync (${api}) reads each window's statuses from one report, exactly`, async () => {
      h = await createHarness({ api, emulator: { sessions: 1500 } });
      const log: RecordedRequest[] = [];
      h.running.emulator.requestLog = log;
      const summary = await h.sync();
      expect(summary.error).toBeNull();
      await expectExact();
      const ops = countOps(log);
      // 3 days of data in 12-hour windows: one report for each window with enough clients
      expect(ops.creates).toBeGreaterThanOrEqual(5);
      expect(ops.creates).toBeLessThanOrEqual(summary.windows);
      expect(ops.downloads).toBe(ops.creates);
      expect(ops.deletes).toBe(ops.creates);
      expect(ops.byClient + ops.bySession).toBe(0);
      expect(await statusMessages()).toBeGreaterThan(1000);
      // after the first windows, each window's report was created ahead: before its sessions were asked for
      expect(windowsWithReportAhead(log)).toBeGreaterThanOrEqual(ops.creates - 2);
      // the run's own count includes the reports' requests
      expect(summary.requests).toBe(ops.all);
      // nothing is left on the platform
      expect(h.running.emulator.reports.list(h.running.emulator.project('shop-bot').accountId)).toHaveLength(
        0,
      );
    });
  }

  it('a report task that fails leaves its window to the per-client reads, still exact', async () => {
    h = await createHarness();
    const log: RecordedRequest[] = [];
    h.running.emulator.requestLog = log;
    h.running.emulator.faults.script({ type: 'reportFail', path: 'reports/messages', times: 1 });
    h.running.emulator.faults.script({ type: 'expiredUrl', path: 'reports/files', times: 1 });
    const summary = await h.sync();
    expect(summary.error).toBeNull();
    h.running.emulator.faults.assertAllFired();
    await expectExact();
    const ops = countOps(log);
    expect(ops.creates).toBeGreaterThanOrEqual(5);
    // the two windows whose report failed asked per client
    expect(ops.byClient).toBeGreaterThan(0);
    expect(ops.bySession).toBe(0);
    // the failed tasks are deleted too
    expect(ops.deletes).toBe(ops.creates);
  });

  it('REPORTER_STATUS_READ=by-client reads no report', async () => {
    h = await createHarness({ env: { REPORTER_STATUS_READ: 'by-client' } });
    const log: RecordedRequest[] = [];
    h.running.emulator.requestLog = log;
    expect((await h.sync()).error).toBeNull();
    await expectExact();
    const ops = countOps(log);
    expect(ops.creates).toBe(0);
    expect(ops.byClient).toBeGreaterThan(0);
  });

  it('an incremental run after the clock moved brings every status change', async () => {
    h = await createHarness();
    expect((await h.sync()).error).toBeNull();
    h.running.emulator.clock.advance(6 * HOUR);
    const second = await h.sync();
    expect(second.error).toBeNull();
    expect(second.mode).toBe('incremental');
    await expectExact();
  });
});
