// Delivery statuses of whole windows from one platform `messages` report task each (REPORTER_STATUS_READ=report,
// the default): the statuses equal the ground truth on both API generations, with no messages/by-client read
// and a few requests per window; the tasks are deleted afterwards; a report that fails (the task FAILED, the
// file link expired) leaves its window to the per-client reads, still exact; an incremental run after the
// clock moved brings every status change.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../../src/emulator/emulator.js';
import type { SyncSummary } from '../../../src/sources/reporter/run-sync.js';
import {
  createHarness,
  expectWarehouseEqualsTruth,
  type Harness,
  TWELVE_HOUR_WINDOWS,
} from '../../helpers/sync-harness.js';

const HOUR = 3_600_000;
const LAG = 5 * 60_000;
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/**
 * 500 sessions, not the harness's 1,200, where a case needs no volume (a failed report, the by-client read): the
 * windows still have the clients a report is made for (at least 5 reports a run).
 */
const SMALL = { sessions: 500 };
/** The full syncs whose statuses must be many (more than 1,000 messages on the status channels). */
const FULL = { sessions: 1500 };

async function expectExact(harness = h!): Promise<void> {
  const now = harness.running.emulator.now();
  await expectWarehouseEqualsTruth(harness, now - LAG - 4 * 24 * HOUR, now - LAG, [
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
async function statusMessages(harness: Harness): Promise<number> {
  const [row] = await harness.withWarehouse((w) =>
    w.query("select count(*) as n from messages where channel_type in ('telegram', 'viber', 'vk')"),
  );
  return Number(row!['n']);
}

/** A full sync (requests logged), read from one report per window, exactly. */
async function expectFullSyncByReports(run: {
  harness: Harness;
  summary: SyncSummary;
  log: RecordedRequest[];
}) {
  const { harness, summary, log } = run;
  expect(summary.error).toBeNull();
  await expectExact(harness);
  const ops = countOps(log);
  // 3 days of data in 12-hour windows: one report for each window with enough clients
  expect(ops.creates).toBeGreaterThanOrEqual(5);
  expect(ops.creates).toBeLessThanOrEqual(summary.windows);
  expect(ops.downloads).toBe(ops.creates);
  expect(ops.deletes).toBe(ops.creates);
  expect(ops.byClient + ops.bySession).toBe(0);
  expect(await statusMessages(harness)).toBeGreaterThan(1000);
  // after the first windows, each window's report was created ahead: before its sessions were asked for
  expect(windowsWithReportAhead(log)).toBeGreaterThanOrEqual(ops.creates - 2);
  // the run's own count includes the reports' requests
  expect(summary.requests).toBe(ops.all);
  // nothing is left on the platform
  const emulator = harness.running.emulator;
  expect(emulator.reports.list(emulator.project('shop-bot').accountId)).toHaveLength(0);
}

/** A harness of `options` after one full sync, its requests logged. */
async function fullSync(options: Parameters<typeof createHarness>[0]) {
  const harness = await createHarness({ ...options, env: { ...TWELVE_HOUR_WINDOWS, ...options?.env } });
  const log: RecordedRequest[] = [];
  harness.running.emulator.requestLog = log;
  const summary = await harness.sync();
  harness.running.emulator.requestLog = undefined;
  return { harness, summary, log };
}

describe('statuses from a messages report per window', () => {
  // one full sync on v1 serves its own case and the incremental run after it (the last case: it moves the clock)
  let v1: Awaited<ReturnType<typeof fullSync>>;
  beforeAll(async () => {
    v1 = await fullSync({ emulator: FULL });
  }, 60_000);
  afterAll(() => v1?.harness.close());

  it("a full sync (v1) reads each window's statuses from one report, exactly", async () => {
    await expectFullSyncByReports(v1);
  });

  it("a full sync (legacy) reads each window's statuses from one report, exactly", async () => {
    const run = await fullSync({ api: 'legacy', emulator: FULL });
    h = run.harness;
    await expectFullSyncByReports(run);
  });

  it('a report task that fails leaves its window to the per-client reads, still exact', async () => {
    h = await createHarness({ emulator: SMALL, env: TWELVE_HOUR_WINDOWS });
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
    h = await createHarness({ emulator: SMALL, env: { REPORTER_STATUS_READ: 'by-client' } });
    const log: RecordedRequest[] = [];
    h.running.emulator.requestLog = log;
    expect((await h.sync()).error).toBeNull();
    await expectExact();
    const ops = countOps(log);
    expect(ops.creates).toBe(0);
    expect(ops.byClient).toBeGreaterThan(0);
  });

  it('an incremental run after the clock moved brings every status change', async () => {
    const { harness, summary: first } = v1;
    expect(first.error).toBeNull();
    harness.running.emulator.clock.advance(6 * HOUR);
    const second = await harness.sync();
    expect(second.error).toBeNull();
    expect(second.mode).toBe('incremental');
    await expectExact(harness);
  });
});
