// Relative periods against a fixed clock, in zones with and without daylight saving: every expected instant is
// written by hand from the zone's rules (Europe/Berlin: CET +1, CEST +2 from 2026-03-29 01:00Z to 2026-10-25
// 01:00Z; Europe/Moscow: +3 all year), never computed by the code under test.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { expandPeriod, type PeriodValues } from '../../src/time/relative-period.js';

const at = Date.parse;

function period(values: PeriodValues, zone: string, now: string) {
  return expandPeriod(values, zone, at(now));
}

describe('expandPeriod', () => {
  it('today, yesterday and now as --from/--to: local day starts (a day across a change is 23 or 25 hours)', () => {
    // Berlin, Monday 2026-03-30 12:00 CEST: yesterday (the 29th) began at 00:00 CET, today at 00:00 CEST
    expect(period({ from: 'yesterday', to: 'today' }, 'Europe/Berlin', '2026-03-30T10:00:00Z')).toEqual({
      from: '2026-03-28T23:00:00.000Z',
      to: '2026-03-29T22:00:00.000Z',
    });
    // Berlin, 2026-10-26: yesterday (the 25th) was 25 hours long
    expect(period({ from: 'Yesterday', to: 'now' }, 'Europe/Berlin', '2026-10-26T09:15:00Z')).toEqual({
      from: '2026-10-24T22:00:00.000Z',
      to: '2026-10-26T09:15:00.000Z',
    });
    // Moscow at 01:00 local on the 20th is still the 19th in UTC: today is the local day
    expect(period({ from: 'today' }, 'Europe/Moscow', '2026-11-19T22:00:00Z')).toEqual({
      from: '2026-11-19T21:00:00.000Z',
      to: undefined,
    });
    // dates and instants pass as typed
    expect(period({ from: '2026-11-20', to: '2026-11-21T00:00Z' }, 'UTC', '2026-11-25T00:00:00Z')).toEqual({
      from: '2026-11-20',
      to: '2026-11-21T00:00Z',
    });
  });

  it('--last N(h|d|w): hours of 60 minutes, local days and weeks', () => {
    expect(period({ last: '12h' }, 'Europe/Berlin', '2026-03-29T12:00:00Z')).toEqual({
      from: '2026-03-29T00:00:00.000Z',
      to: '2026-03-29T12:00:00.000Z',
    });
    // 14:00 CEST on the 29th back to 14:00 CET on the 28th: 23 hours
    expect(period({ last: '1d' }, 'Europe/Berlin', '2026-03-29T12:00:00Z')).toEqual({
      from: '2026-03-28T13:00:00.000Z',
      to: '2026-03-29T12:00:00.000Z',
    });
    expect(period({ last: '7d' }, 'Europe/Moscow', '2026-11-29T09:30:00Z')).toEqual({
      from: '2026-11-22T09:30:00.000Z',
      to: '2026-11-29T09:30:00.000Z',
    });
    // two weeks back from 10:00 CET on 2026-11-01 is 10:00 CEST on 2026-10-18
    expect(period({ last: ' 2W ' }, 'Europe/Berlin', '2026-11-01T09:00:00Z')).toEqual({
      from: '2026-10-18T08:00:00.000Z',
      to: '2026-11-01T09:00:00.000Z',
    });
  });

  it('--week this|last: ISO weeks from Monday 00:00 local', () => {
    // Wednesday 2026-10-28 in Berlin: this week began Monday the 26th 00:00 CET, the last one Monday the 19th
    // 00:00 CEST (7 days and 1 hour long)
    expect(period({ week: 'last' }, 'Europe/Berlin', '2026-10-28T10:00:00Z')).toEqual({
      from: '2026-10-18T22:00:00.000Z',
      to: '2026-10-25T23:00:00.000Z',
    });
    expect(period({ week: 'this' }, 'Europe/Berlin', '2026-10-28T10:00:00Z')).toEqual({
      from: '2026-10-25T23:00:00.000Z',
      to: '2026-10-28T10:00:00.000Z',
    });
    // Monday 00:30 in Moscow (Sunday 21:30 UTC): this week has begun
    expect(period({ week: 'this' }, 'Europe/Moscow', '2026-11-22T21:30:00Z')).toEqual({
      from: '2026-11-22T21:00:00.000Z',
      to: '2026-11-22T21:30:00.000Z',
    });
    // Sunday 2026-11-29 (UTC): the week began on Monday the 23rd
    expect(period({ week: 'last' }, 'UTC', '2026-11-29T23:59:00Z')).toEqual({
      from: '2026-11-16T00:00:00.000Z',
      to: '2026-11-23T00:00:00.000Z',
    });
  });

  it('--month this|last: calendar months, across a change and a year', () => {
    expect(period({ month: 'last' }, 'Europe/Berlin', '2026-11-15T12:00:00Z')).toEqual({
      from: '2026-09-30T22:00:00.000Z',
      to: '2026-10-31T23:00:00.000Z',
    });
    expect(period({ month: 'this' }, 'Europe/Berlin', '2026-11-15T12:00:00Z')).toEqual({
      from: '2026-10-31T23:00:00.000Z',
      to: '2026-11-15T12:00:00.000Z',
    });
    expect(period({ month: 'last' }, 'Europe/Moscow', '2027-01-10T00:00:00Z')).toEqual({
      from: '2026-11-30T21:00:00.000Z',
      to: '2026-12-31T21:00:00.000Z',
    });
  });

  it('refuses a malformed form, or two ways of saying the period, naming the options', () => {
    const cases: [PeriodValues, RegExp][] = [
      [{ last: '7' }, /--last expects a count and a unit: 12h .*got "7"/],
      [{ last: '0d' }, /--last expects/],
      [{ last: '7m' }, /--last expects/],
      [{ week: 'next' }, /--week expects this or last; got "next"/],
      [{ month: '11' }, /--month expects this or last/],
      [{ last: '7d', from: '2026-11-01' }, /--last and --from\/--to: give one way of saying the period/],
      [{ week: 'last', month: 'last' }, /--week, --month: give one way/],
    ];
    for (const [values, message] of cases) {
      expect(() => period(values, 'UTC', '2026-11-29T00:00:00Z'), JSON.stringify(values)).toThrow(UsageError);
      expect(() => period(values, 'UTC', '2026-11-29T00:00:00Z'), JSON.stringify(values)).toThrow(message);
    }
  });
});
