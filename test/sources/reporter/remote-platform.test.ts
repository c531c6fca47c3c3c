// A sync against the emulator as a remote platform (latency, a rate limit, random 429s with Retry-After 1):
// the warehouse still equals the emulator's ground truth exactly, and the run says how it paced itself — the
// requests in flight it grew to and every 429 it was answered (counted by the emulator too), in its summary
// (what `sync --json` prints, checked from the CLI too, with the debug log's changes) and in etl_runs.
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
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

describe('sync against a remote platform', () => {
  it('latency, a rate limit and 3 % random 429s: exactly the ground truth, every 429 counted', async () => {
    h = await createHarness({
      emulator: { sessions: 300, latencyMs: 25, rateLimit: { requests: 60, perMs: 1000 } },
      env: { REPORTER_PAGE_SIZE: '50', REPORTER_CONCURRENCY: '1', REPORTER_MAX_CONCURRENCY: '16' },
    });
    const emulator = h.running.emulator;
    emulator.faults.setRates({ status429: 0.03 });
    const summary = await h.sync();
    expect(summary.error).toBeNull();
    expect(summary.status).toBe('success');
    const to = emulator.now() - LAG;
    await expectEqualsTruth(h, to - 4 * 24 * HOUR, to, [
      'sessionIds',
      'messageIds',
      'sessionLabels',
      'messageLabels',
      'statuses',
      'sessionData',
    ]);

    // every 429 the emulator answered (at random, and by its rate limit) is one the client counted
    const random = emulator.faults.firedByRate.status429 ?? 0;
    const limited = emulator.rateLimit!.rejectedAt.length;
    expect(random).toBeGreaterThan(0);
    expect(summary.throttled).toBe(random + limited);
    expect(summary.requests).toBe(emulator.requestCount);
    // one in flight was not what the server could take: the client grew, within REPORTER_MAX_CONCURRENCY
    expect(summary.concurrencyReached).toBeGreaterThan(1);
    expect(summary.concurrencyReached).toBeLessThanOrEqual(16);

    const [run] = await h.withWarehouse((w) => w.listRuns({ limit: 1 }));
    expect(run).toMatchObject({
      runId: summary.runId,
      concurrencyReached: summary.concurrencyReached,
      throttled: summary.throttled,
    });
  }, 120_000);

  it('sync --json gives the requests in flight reached and the 429s; the debug log tells each change', async () => {
    h = await createHarness({
      realClock: true,
      emulator: { sessions: 200, latencyMs: 20 },
      env: { REPORTER_PAGE_SIZE: '50', REPORTER_CONCURRENCY: '1', REPORTER_MAX_CONCURRENCY: '8' },
    });
    const emulator = h.running.emulator;
    emulator.faults.setRates({ status429: 0.03 });
    const r = await runCli(['sync', '--json'], { ...h.env, LOG_LEVEL: 'debug', LOG_FORMAT: 'json' });
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    const summary = JSON.parse(r.stdout).runs[0];
    expect(summary.status).toBe('success');
    expect(summary.throttled).toBe(emulator.faults.firedByRate.status429);
    expect(summary.throttled).toBeGreaterThan(0);
    expect(summary.concurrencyReached).toBeGreaterThan(1);
    expect(summary.concurrencyReached).toBeLessThanOrEqual(8);
    const changes = r.stderr
      .split('\n')
      .filter((line) => line.includes('requests in flight changed'))
      .map((line) => JSON.parse(line) as { inFlight: number; why: string });
    expect(Math.max(...changes.map((c) => c.inFlight))).toBe(summary.concurrencyReached);
    expect(changes.some((c) => c.why === 'throttled')).toBe(true);
  }, 120_000);
});
