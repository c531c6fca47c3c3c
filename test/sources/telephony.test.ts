// The telephony source against the emulator: each day's row equals the emulator's truth of its calls (incoming,
// outgoing, billed, average duration), computed from the sessions, not from the stats route's answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayBounds } from '../../src/sources/daily-days.js';
import { telephonySource } from '../../src/sources/telephony/source.js';
import { createHarness, type Harness, runSourceOnce } from '../helpers/sync-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ emulator: { sessions: 1500, days: 3 }, env: { REPORTER_HISTORY_DAYS: '3' } });
});
afterAll(() => h.close());

describe('telephony source', () => {
  it('stores one row per day equal to the truth of the calls started that day', async () => {
    const result = await runSourceOnce(h, telephonySource);
    expect(result.status).toBe('success');
    const rows = await h.withWarehouse((w) =>
      w.query(
        'select day::VARCHAR as day, incoming_calls, outgoing_calls, billed_calls, average_call_seconds from telephony_daily order by day',
      ),
    );
    expect(rows).toHaveLength(4);
    let calls = 0;
    for (const row of rows) {
      const { from, to } = dayBounds(row['day'] as string);
      const truth = h.truth(from, to).calls;
      const count = truth.incoming + truth.outgoing;
      calls += count;
      expect(row, row['day'] as string).toMatchObject({
        incoming_calls: truth.incoming,
        outgoing_calls: truth.outgoing,
        billed_calls: truth.billed,
      });
      if (count === 0) expect(row['average_call_seconds']).toBeNull();
      else expect(row['average_call_seconds']).toBeCloseTo(truth.durationMs / count / 1000, 2);
    }
    expect(calls).toBeGreaterThan(0);
  });
});
