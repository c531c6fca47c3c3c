// Fire times and catch-up decisions, with instants worked out by hand (zone offsets, a weekend, a DST day).
import { describe, expect, it } from 'vitest';
import { decideCatchUp } from '../../src/schedule/catch-up.js';
import { nextFireTime, previousFireTime, scheduleInterval } from '../../src/schedule/cron-times.js';
import { yesterdayIn } from '../../src/schedule/local-day.js';

const at = (iso: string) => Date.parse(iso);
const MIN = 60_000;
const HOUR = 3_600_000;

describe('fire times', () => {
  it('every 15 minutes, in UTC', () => {
    const now = at('2026-11-21T10:16:30Z');
    expect(previousFireTime('*/15 * * * *', 'UTC', now)).toBe(at('2026-11-21T10:15:00Z'));
    expect(nextFireTime('*/15 * * * *', 'UTC', now)).toBe(at('2026-11-21T10:30:00Z'));
    // a fire time itself is its own previous fire, and not its next one
    expect(previousFireTime('*/15 * * * *', 'UTC', at('2026-11-21T10:30:00Z'))).toBe(
      at('2026-11-21T10:30:00Z'),
    );
    expect(nextFireTime('*/15 * * * *', 'UTC', at('2026-11-21T10:30:00Z'))).toBe(at('2026-11-21T10:45:00Z'));
    expect(scheduleInterval('*/15 * * * *', 'UTC', now)).toBe(15 * MIN);
  });

  it('07:00 in Moscow is 04:00 UTC', () => {
    expect(previousFireTime('0 7 * * *', 'Europe/Moscow', at('2026-11-21T03:59:00Z'))).toBe(
      at('2026-11-20T04:00:00Z'),
    );
    expect(nextFireTime('0 7 * * *', 'Europe/Moscow', at('2026-11-21T03:59:00Z'))).toBe(
      at('2026-11-21T04:00:00Z'),
    );
    expect(scheduleInterval('0 7 * * *', 'Europe/Moscow', at('2026-11-21T12:00:00Z'))).toBe(24 * HOUR);
  });

  it('a weekday schedule on a Monday: the interval spans the weekend', () => {
    // 2026-11-23 is a Monday
    expect(previousFireTime('0 7 * * 1-5', 'UTC', at('2026-11-23T08:00:00Z'))).toBe(
      at('2026-11-23T07:00:00Z'),
    );
    expect(scheduleInterval('0 7 * * 1-5', 'UTC', at('2026-11-23T08:00:00Z'))).toBe(72 * HOUR);
    expect(scheduleInterval('0 7 * * 1-5', 'UTC', at('2026-11-25T08:00:00Z'))).toBe(24 * HOUR);
  });

  it('daylight saving: the daily interval is 23 h on the spring day in Berlin', () => {
    // 2026-03-29: clocks go from 02:00 CET to 03:00 CEST; 07:00 CET = 06:00Z, 07:00 CEST = 05:00Z
    expect(previousFireTime('0 7 * * *', 'Europe/Berlin', at('2026-03-29T12:00:00Z'))).toBe(
      at('2026-03-29T05:00:00Z'),
    );
    expect(scheduleInterval('0 7 * * *', 'Europe/Berlin', at('2026-03-29T12:00:00Z'))).toBe(23 * HOUR);
  });

  it('six fields: seconds first', () => {
    expect(previousFireTime('*/20 * * * * *', 'UTC', at('2026-11-21T10:00:59Z'))).toBe(
      at('2026-11-21T10:00:40Z'),
    );
    expect(scheduleInterval('*/20 * * * * *', 'UTC', at('2026-11-21T10:00:59Z'))).toBe(20_000);
  });

  it('a yearly schedule is found a year back', () => {
    expect(previousFireTime('0 0 1 1 *', 'UTC', at('2026-11-21T00:00:00Z'))).toBe(at('2026-01-01T00:00:00Z'));
    expect(scheduleInterval('0 0 1 1 *', 'UTC', at('2026-11-21T00:00:00Z'))).toBe(365 * 24 * HOUR);
  });
});

describe('catch-up decisions', () => {
  const jobs = [
    { jobId: 'sync', expression: '*/15 * * * *' },
    { jobId: 'daily-report', expression: '0 7 * * *' },
    { jobId: 'retention', expression: '30 3 * * *' },
  ];

  it('runs a job that never succeeded, and one whose last success is older than one interval', () => {
    const now = at('2026-11-21T10:16:00Z');
    const last = new Map([
      ['sync', now - 16 * MIN],
      ['retention', now - 2 * HOUR],
    ]);
    const decisions = decideCatchUp(jobs, last, now, 'UTC');
    expect(decisions.map((d) => [d.jobId, d.due])).toEqual([
      ['sync', true],
      ['daily-report', true],
      ['retention', false],
    ]);
    expect(decisions[1]!.reason).toBe('never ran successfully');
    expect(decisions[0]!.intervalMs).toBe(15 * MIN);
  });

  it('a daily job started just before its fire time waits for it; just after, it catches up', () => {
    const lastRun = at('2026-11-20T07:00:00.200Z');
    const last = new Map([['daily-report', lastRun]]);
    const only = [jobs[1]!];
    expect(decideCatchUp(only, last, at('2026-11-21T06:59:00Z'), 'UTC')[0]!.due).toBe(false);
    expect(decideCatchUp(only, last, at('2026-11-21T07:01:00Z'), 'UTC')[0]!.due).toBe(true);
    // a recent manual sync counts: 14 minutes ago is within the interval
    expect(
      decideCatchUp(
        [jobs[0]!],
        new Map([['sync', at('2026-11-21T10:02:00Z')]]),
        at('2026-11-21T10:16:00Z'),
        'UTC',
      )[0]!.due,
    ).toBe(false);
  });
});

describe('yesterday in a zone', () => {
  it('is the local day before the one holding now', () => {
    // 05:00Z on the 21st is 08:00 in Moscow: yesterday is the 20th, from 21:00Z on the 19th
    expect(yesterdayIn('Europe/Moscow', at('2026-11-21T05:00:00Z'))).toEqual({
      date: '2026-11-20',
      from: at('2026-11-19T21:00:00Z'),
      to: at('2026-11-20T21:00:00Z'),
    });
    // 22:00Z on the 20th is already 01:00 on the 21st in Moscow, still the 20th in UTC
    expect(yesterdayIn('Europe/Moscow', at('2026-11-20T22:00:00Z')).date).toBe('2026-11-20');
    expect(yesterdayIn('UTC', at('2026-11-20T22:00:00Z')).date).toBe('2026-11-19');
  });

  it('is 25 hours long on the autumn change in New York', () => {
    // 2026-11-01: EDT (-4) until 02:00, then EST (-5)
    expect(yesterdayIn('America/New_York', at('2026-11-02T12:00:00Z'))).toEqual({
      date: '2026-11-01',
      from: at('2026-11-01T04:00:00Z'),
      to: at('2026-11-02T05:00:00Z'),
    });
  });
});
