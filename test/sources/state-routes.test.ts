// The state-routes source against the emulator: every day's routes per channel equal the emulator's truth (its
// own grouping of the sessions by route and result, not the route's answer), in both API generations; a second
// run reads again only the days that may change and replaces them whole, moving its cursor.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayBounds, dayOf } from '../../src/sources/daily-days.js';
import { stateRoutesSource } from '../../src/sources/state-routes/source.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { createHarness, type Harness, runSourceOnce } from '../helpers/sync-harness.js';

const DAY = 86_400_000;

const runSource = (h: Harness) => runSourceOnce(h, stateRoutesSource);

/** The stored routes of a day as `channel|route|result` → sessions. */
async function storedRoutes(w: Warehouse, day: string): Promise<Record<string, number>> {
  const rows = await w.query(
    `select channel_type, route, result, sessions from state_routes where day = $1::DATE order by all`,
    [day],
  );
  // summed by key, so a row stored twice (a day not replaced whole) shows as a count above the truth
  const routes: Record<string, number> = {};
  for (const r of rows) {
    const key = `${r['channel_type']}|${r['route']}|${r['result']}`;
    routes[key] = (routes[key] ?? 0) + Number(r['sessions']);
  }
  return routes;
}

function expectDaysEqualTruth(h: Harness, stored: Record<string, Record<string, number>>) {
  for (const [day, routes] of Object.entries(stored)) {
    const { from, to } = dayBounds(day);
    const truth = h.truth(from, to).stateRoutes;
    expect(routes, day).toEqual(truth);
  }
}

describe.each(['v1', 'legacy'] as const)('state-routes source (%s)', (api) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      api,
      emulator: { sessions: 900, days: 3 },
      env: { REPORTER_HISTORY_DAYS: '3' },
    });
  });
  afterAll(() => h.close());

  it('stores each day of the history with the routes of the truth, per channel', async () => {
    const result = await runSource(h);
    expect(result.status).toBe('success');
    const today = dayOf(h.running.emulator.now());
    const days = Array.from({ length: 4 }, (_, n) => dayOf(dayBounds(today).from - (3 - n) * DAY));
    const stored = await h.withWarehouse(async (w) =>
      Object.fromEntries(await Promise.all(days.map(async (d) => [d, await storedRoutes(w, d)] as const))),
    );
    expect(Object.values(stored).reduce((n, r) => n + Object.keys(r).length, 0)).toBeGreaterThan(10);
    expect(new Set(Object.keys(Object.values(stored)[1]!).map((k) => k.split('|')[0])).size).toBeGreaterThan(
      1,
    );
    expectDaysEqualTruth(h, stored);
  });

  it('a later run re-reads the days that may change and replaces them whole, moving its cursor', async () => {
    const firstRun = await h.withWarehouse((w) =>
      w.query('select min(day)::VARCHAR as d, min(synced_at) as t from state_routes'),
    );
    h.running.emulator.clock.advance(6 * 3_600_000);
    const secondRunAt = h.running.emulator.now();
    await runSource(h);
    const today = dayOf(secondRunAt);
    // every day the second run read (those already stored then too): replaced whole, equal to the truth
    const reread = await h.withWarehouse((w) =>
      w.query('select distinct day::VARCHAR as d from state_routes where synced_at = $1 order by 1', [
        new Date(secondRunAt),
      ]),
    );
    expect(reread.length).toBeGreaterThan(1);
    const stored = await h.withWarehouse(async (w) =>
      Object.fromEntries(
        await Promise.all(
          reread.map(async (r) => [r['d'] as string, await storedRoutes(w, r['d'] as string)] as const),
        ),
      ),
    );
    expectDaysEqualTruth(h, stored);
    const synced = await h.withWarehouse((w) =>
      w.query(
        'select day::VARCHAR as d, min(synced_at) as first, max(synced_at) as last from state_routes group by all order by 1',
      ),
    );
    // the oldest day lies outside the lookback (48 h): not read again; today was
    expect(synced[0]).toEqual({ d: firstRun[0]!['d'], first: firstRun[0]!['t'], last: firstRun[0]!['t'] });
    expect(synced.at(-1)).toEqual({ d: today, first: secondRunAt, last: secondRunAt });
    const state = await h.withWarehouse((w) =>
      w.query("select value from etl_state where key = 'state-routes.last_day'"),
    );
    expect(state.map((r) => r['value'])).toEqual([today]);
  });
});
