// An instant as a person in a time zone reads it: ISO 8601 local date-time to the second with the zone's
// offset (2026-11-20T12:00:00+03:00), or with Z in UTC (2026-11-20T09:00:00Z): the tables of `runs`.
import { offsetAt } from './parse-zoned-time.js';

/** `t` (epoch ms) as a local ISO date-time in `timeZone`, to the second, with its offset. */
export function formatLocalTime(t: number, timeZone: string): string {
  const offset = offsetAt(t, timeZone);
  const wall = new Date(t + offset).toISOString().slice(0, 19);
  if (offset === 0 && timeZone === 'UTC') return `${wall}Z`;
  const minutes = Math.abs(offset) / 60_000;
  const sign = offset < 0 ? '-' : '+';
  return `${wall}${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}
