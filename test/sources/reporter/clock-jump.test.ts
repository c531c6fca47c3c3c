// A forward jump of this machine's clock leaves no gap (issue 43, item 5). One sync on a clock 30 days ahead
// (the emulator's Date header says the platform's time) keeps its watermark at the platform's now; the
// normal syncs after it read every hour the platform went on for. A watermark an earlier version left in the
// future (written by hand here) is repaired by the next normal sync, without --full. Both checked against the
// emulator's ground truth of the whole history, and the watermark against the platform's clock.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log.js';
import { type SyncSummary, syncProject } from '../../../src/sources/reporter/run-sync.js';
import {
  createHarness,
  expectWarehouseEqualsTruth,
  type Harness,
  syncedDataDir,
} from '../../helpers/sync-harness.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const LAG = 5 * MINUTE;
const FIGURES = ['sessionIds', 'messageIds', 'sessionLabels', 'messageLabels', 'statuses'] as const;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A sync whose local clock is the platform's shifted by `offsetMs` (the emulator's clock is the platform's). */
function syncWithClockOffset(harness: Harness, offsetMs: number): Promise<SyncSummary> {
  return harness.withWarehouse((warehouse) =>
    syncProject(
      {
        config: harness.config,
        warehouse,
        log: silentLogger(),
        now: () => harness.running.emulator.now() + offsetMs,
        backoffBaseMs: 5,
      },
      harness.config.projects[0]!,
    ),
  );
}

const platformNow = () => h!.running.emulator.now();
const watermarkOf = async (harness: Harness) => harness.withWarehouse((w) => w.getWatermark('shop-bot'));

describe('a forward jump of the clock', () => {
  // the first normal sync both forward cases start from, run once: each case gets a copy of its warehouse
  const EMULATOR = { sessions: 1200, days: 3 };
  let firstSync: Awaited<ReturnType<typeof syncedDataDir>>;
  beforeAll(async () => {
    firstSync = await syncedDataDir({ emulator: EMULATOR });
  }, 60_000);
  afterAll(() => firstSync?.remove());

  it('+30 days, then normal syncs: the watermark never passes the platform’s now, no hour is left unread', async () => {
    h = await createHarness({ emulator: EMULATOR, from: firstSync.dir });
    const start = platformNow();

    h.running.emulator.clock.advance(3 * HOUR);
    const jumped = await syncWithClockOffset(h, 30 * DAY);
    expect(jumped.status).toBe('success');
    expect(Date.parse(jumped.watermark!)).toBeLessThanOrEqual(platformNow() - LAG + 2_000);
    expect((await watermarkOf(h))!).toBeLessThanOrEqual(platformNow() - LAG + 2_000);

    // the clock is right again; the platform goes on
    for (const hours of [6, 20]) {
      h.running.emulator.clock.advance(hours * HOUR);
      const normal = await h.sync();
      expect(normal.status).toBe('success');
      expect(Date.parse(normal.watermark!)).toBe(platformNow() - LAG);
    }
    const truth = await expectWarehouseEqualsTruth(h, start - LAG - 4 * DAY, platformNow() - LAG, FIGURES);
    expect(truth.sessions).toBeGreaterThan(1000);
  }, 120_000);

  it('a watermark left in the future by an earlier run is repaired by the next normal sync, without --full', async () => {
    h = await createHarness({ emulator: EMULATOR, from: firstSync.dir });
    const start = platformNow();
    // what a sync at +30 days wrote before this version
    const future = new Date(platformNow() + 30 * DAY).toISOString();
    await h.withWarehouse((w) =>
      w.query("UPDATE etl_state SET value = $1 WHERE project = 'shop-bot' AND key = 'watermark'", [future]),
    );
    for (const hours of [8, 30]) {
      h.running.emulator.clock.advance(hours * HOUR);
      const normal = await h.sync();
      expect(normal.status).toBe('success');
      expect(Date.parse(normal.watermark!)).toBe(platformNow() - LAG);
    }
    await expectWarehouseEqualsTruth(h, start - LAG - 4 * DAY, platformNow() - LAG, FIGURES);
  }, 120_000);

  it('a clock behind the platform changes nothing: the range ends at this machine’s now', async () => {
    h = await createHarness({ emulator: { sessions: 300, days: 2 } });
    const behind = await syncWithClockOffset(h, -2 * HOUR);
    expect(behind.status).toBe('success');
    expect(Date.parse(behind.to!)).toBe(platformNow() - 2 * HOUR - LAG);
  }, 60_000);
});
