// Sync against a server that limits like a real one, compared with the emulator's ground truth: pages
// capped below REPORTER_PAGE_SIZE, and a request rate limit (429 with Retry-After) the client must come
// under by itself (no REPORTER_RATE_LIMIT_RPM), measured from when the requests reached the emulator.
import { afterEach, describe, expect, it } from 'vitest';
import { type Arrival, recordArrivals } from '../../helpers/request-arrivals.js';
import {
  createHarness,
  expectWarehouseEqualsTruth as expectEqualsTruth,
  type Harness,
} from '../../helpers/sync-harness.js';

const HOUR = 3_600_000;
const LAG = 5 * 60_000;
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function expectWarehouseEqualsTruth() {
  const to = h!.running.emulator.now() - LAG;
  await expectEqualsTruth(h!, to - 4 * 24 * HOUR, to, [
    'sessionIds',
    'messageIds',
    'sessionLabels',
    'messageLabels',
    'statuses',
    'sessionData',
  ]);
}

/** The most requests that arrived in any `spanMs` starting at or after `from` (and ending by the last one). */
function busiestSpan(arrivals: readonly Arrival[], from: number, spanMs: number): number {
  const times = arrivals.map((a) => a.at).filter((t) => t >= from);
  let most = 0;
  let end = 0;
  for (let start = 0; start < times.length; start++) {
    while (end < times.length && times[end]! < times[start]! + spanMs) end++;
    most = Math.max(most, end - start);
  }
  return most;
}

describe('sync against a server that limits', () => {
  it('pages capped at 100 rows while REPORTER_PAGE_SIZE asks 500: exactly the ground truth', async () => {
    h = await createHarness({ emulator: { maxPageSize: 100 }, env: { REPORTER_PAGE_SIZE: '500' } });
    const summary = await h.sync();
    expect(summary.error).toBeNull();
    expect(summary.status).toBe('success');
    await expectWarehouseEqualsTruth();
  });

  it('a rate limit: after the first 429s the client stays under it, and the warehouse stays exact', async () => {
    // 10 requests/s in bursts of 10: over any 2 s the server lets through at most 10 + 2 × 10 requests
    const LIMIT = 10;
    const mostIn2s = LIMIT + 2 * LIMIT;
    const CONCURRENCY = 4;
    h = await createHarness({
      emulator: { sessions: 300, rateLimit: { requests: LIMIT, perMs: 1000 } },
      env: { REPORTER_PAGE_SIZE: '100', REPORTER_CONCURRENCY: String(CONCURRENCY) },
    });
    const arrivals = recordArrivals(h.running.emulator);
    const summary = await h.sync();
    expect(summary.error).toBeNull();
    expect(summary.status).toBe('success');
    await expectWarehouseEqualsTruth();

    const refused = h.running.emulator.rateLimit!.rejectedAt;
    // the client did go faster than the limit at first (else this proves nothing)...
    expect(refused.length).toBeGreaterThan(0);
    // ...and then kept under it: hardly a request refused (one burst of those in flight at most; a client
    // that only waits out each Retry-After gets one every second or two), none faster than the server lets
    // through, and on average no faster than the limit
    const settled = refused[0]! + 4000;
    expect(refused.filter((t) => t >= settled).length).toBeLessThanOrEqual(2 * CONCURRENCY);
    const after = arrivals.filter((a) => a.at >= settled);
    expect(busiestSpan(arrivals, settled, 2000)).toBeLessThanOrEqual(mostIn2s);
    if (after.length > 2 * LIMIT) {
      // on average no faster than the limit, beside the one burst the bucket holds (a short run is mostly it)
      const seconds = (after.at(-1)!.at - after[0]!.at) / 1000;
      expect(after.length).toBeLessThanOrEqual(LIMIT * 1.1 * seconds + LIMIT);
    }
  }, 180_000);
});
