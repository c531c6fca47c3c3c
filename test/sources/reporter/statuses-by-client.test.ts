// Delivery statuses asked per client (messages/by-client, read ahead across windows) rather than per
// session: fewer requests than sessions, the statuses still equal the ground truth, and what by-client does
// not answer (here a record that fails validation) is asked for with messages/by-session. The statuses
// reports (statuses-report.test.ts) are turned off here: REPORTER_STATUS_READ=by-client, the fallback path.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../../src/emulator/emulator.js';
import type { SyncSummary } from '../../../src/sources/reporter/run-sync.js';
import { createHarness, expectWarehouseEqualsTruth, type Harness } from '../../helpers/sync-harness.js';

const HOUR = 3_600_000;
const LAG = 5 * 60_000;
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const BY_CLIENT = { REPORTER_STATUS_READ: 'by-client' };
const STATUS_CHANNELS = "('telegram', 'viber', 'vk')";

async function expectExact(harness = h!): Promise<void> {
  const now = harness.running.emulator.now();
  await expectWarehouseEqualsTruth(harness, now - LAG - 4 * 24 * HOUR, now - LAG, ['messageIds', 'statuses']);
}

function countOps(log: RecordedRequest[]): { byClient: number; bySession: number; all: number } {
  return {
    byClient: log.filter((r) => r.url.includes('/messages/by-client')).length,
    bySession: log.filter((r) => r.url.includes('/messages/by-session')).length,
    all: log.length,
  };
}

describe('statuses per client', () => {
  // one full sync serves its own case and the incremental run after it (the last case: it moves the clock);
  // 12-hour windows over 4 days: a client's read covers its sessions of the following windows too
  let full: { harness: Harness; summary: SyncSummary; log: RecordedRequest[] };
  beforeAll(async () => {
    const harness = await createHarness({ emulator: { sessions: 2500 }, env: BY_CLIENT });
    const log: RecordedRequest[] = [];
    harness.running.emulator.requestLog = log;
    full = { harness, summary: await harness.sync(), log };
    harness.running.emulator.requestLog = undefined;
  }, 60_000);
  afterAll(() => full?.harness.close());

  it('a full sync asks once per client and look-ahead, not once per session, and stays exact', async () => {
    const { harness, summary, log } = full;
    expect(summary.error).toBeNull();
    await expectExact(harness);

    const [figures] = await harness.withWarehouse((w) =>
      w.query(
        `select count(distinct m.session_id) as sessions, count(distinct (s.bot_id, s.client_id)) as clients
         from messages m join sessions s using (project, session_id)
         where m.channel_type in ${STATUS_CHANNELS}`,
      ),
    );
    const sessions = Number(figures!['sessions']);
    const clients = Number(figures!['clients']);
    const ops = countOps(log);
    expect(ops.bySession).toBe(0);
    // each client is asked at least once (nothing was known before), and returning clients save requests
    expect(ops.byClient).toBeGreaterThanOrEqual(clients);
    expect(clients).toBeLessThan(sessions);
    expect(ops.byClient).toBeLessThan(sessions);
  });

  it('a status by-client leaves out is asked for with by-session, and the bad record is quarantined', async () => {
    // 500 sessions, not the harness's 1,200: three bad records and their by-session reads need no volume
    h = await createHarness({ emulator: { sessions: 500 }, env: BY_CLIENT });
    const log: RecordedRequest[] = [];
    h.running.emulator.requestLog = log;
    h.running.emulator.faults.script({
      type: 'invalidRecord',
      path: 'messages/by-client',
      variant: 'missingField',
      times: 3,
    });
    const summary = await h.sync();
    expect(summary.error).toBeNull();
    h.running.emulator.faults.assertAllFired();
    await expectExact();
    const ops = countOps(log);
    expect(ops.bySession).toBeGreaterThanOrEqual(1);
    expect(ops.bySession).toBeLessThanOrEqual(3);
    const rejects = await h.withWarehouse((w) =>
      w.query("select count(*) as n from etl_rejects where endpoint = 'messages/by-client'"),
    );
    expect(Number(rejects[0]!['n'])).toBe(3);
  });

  it('an incremental run skips what is final and still brings every status change', async () => {
    const { harness, summary: first } = full;
    expect(first.error).toBeNull();
    harness.running.emulator.clock.advance(6 * HOUR);
    const log: RecordedRequest[] = [];
    harness.running.emulator.requestLog = log;
    const second = await harness.sync();
    expect(second.error).toBeNull();
    expect(second.mode).toBe('incremental');
    await expectExact(harness);
    expect(countOps(log).byClient).toBeGreaterThan(0);
  });
});
