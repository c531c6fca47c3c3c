// Test helper: stores the `reporter-etl unhandled` run the `unhandled` report reads for a period (every
// project, every channel, /CatchAll), as the command computes it; the report tests' fixtures call it so the
// report has data, like they run kb sync for the knowledge base reports; and the synced harness those tests share.
import { expect } from 'vitest';
import { computeUnhandled, type UnhandledRun } from '../../src/analysis/unhandled/compute-unhandled.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { createHarness, type Harness } from './sync-harness.js';

const DAY = 86_400_000;

/** The sync windows of the unhandled tests' harnesses: a week (their syncs are fixtures, not under test). */
export const UNHANDLED_WINDOW_HOURS = '168';

/** Clusters the catch-all messages of [from, to) and stores the run, computed at `now`. */
export function recordUnhandled(
  warehouse: Warehouse,
  period: { from: number; to: number },
  now: number,
): Promise<UnhandledRun> {
  return computeUnhandled(warehouse, { catchAllClass: '/CatchAll', ...period }, new Date(now));
}

/**
 * A harness of 3,000 sessions over 14 days, synced, and its last 7 whole UTC days: enough catch-all questions
 * for every hidden topic of the emulator in the period and in the 7 days before it. The sync is the fixture,
 * not what is tested: week-long windows (a commit each) cost half the CPU of the harness's 12-hour ones.
 */
export async function createUnhandledHarness(): Promise<{ h: Harness; from: number; to: number }> {
  const h = await createHarness({
    emulator: { sessions: 3000, days: 14 },
    env: { REPORTER_HISTORY_DAYS: '15', REPORTER_WINDOW_HOURS: UNHANDLED_WINDOW_HOURS },
  });
  expect((await h.sync()).status).toBe('success');
  const to = Math.floor(h.running.emulator.now() / DAY) * DAY;
  return { h, from: to - 7 * DAY, to };
}
