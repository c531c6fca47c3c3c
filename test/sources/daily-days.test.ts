// The days a daily source reads: the history on the first run, then the last day read less the lookback,
// always through today, never past the history.
import { describe, expect, it } from 'vitest';
import { dayBounds, daysToRead } from '../../src/sources/daily-days.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const now = Date.parse('2026-03-10T15:30:00Z');

describe('daysToRead', () => {
  it('reads the history through today on the first run', () => {
    expect(daysToRead({ now, historyMs: 3 * DAY, lookbackMs: 48 * HOUR })).toEqual([
      '2026-03-07',
      '2026-03-08',
      '2026-03-09',
      '2026-03-10',
    ]);
  });

  it('then reads again from the last day read less the lookback, rounded up to whole days', () => {
    const days = daysToRead({ now, lastRead: '2026-03-10', historyMs: 30 * DAY, lookbackMs: 36 * HOUR });
    expect(days).toEqual(['2026-03-08', '2026-03-09', '2026-03-10']);
  });

  it('never goes further back than the history, nor past today', () => {
    expect(daysToRead({ now, lastRead: '2026-01-01', historyMs: 2 * DAY, lookbackMs: 0 })).toEqual([
      '2026-03-08',
      '2026-03-09',
      '2026-03-10',
    ]);
    expect(daysToRead({ now, lastRead: '2026-04-01', historyMs: 30 * DAY, lookbackMs: 0 })).toEqual([
      '2026-03-10',
    ]);
  });

  it('bounds a day as [midnight UTC, next midnight)', () => {
    expect(dayBounds('2026-03-10')).toEqual({
      from: Date.parse('2026-03-10T00:00:00Z'),
      to: now - 15.5 * HOUR + DAY,
    });
  });
});
