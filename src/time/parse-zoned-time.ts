// Reads every command's date-time options (--from, --to, --date, ...): an ISO-8601 instant with its offset
// (2026-11-20T00:00:00Z, 2026-11-20T00:00+03:00), or a local date or date-time without one (2026-11-20,
// 2026-11-20T09:30), read in the given IANA time zone (stats and report: --tz; sync, platform-report: UTC).
// Invariant: a date or time that does not exist (2026-11-31, 2026-02-29, 25:00) is refused, never rolled over.
import { UsageError } from '../errors.js';

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * Epoch ms of `value` (see the header); a UsageError naming the option when it is not a real date-time.
 * `zoneLabel` says in the message where an offset-less time is read (default: `--tz`).
 */
export function parseZonedTime(value: string, option: string, timeZone: string, zoneLabel = '--tz'): number {
  const text = value.trim();
  const m = DATE_TIME.exec(text);
  if (!m) throw badTime(value, option, zoneLabel);
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '0', offset] = m;
  const wall = Date.UTC(
    Number(y),
    Number(mo) - 1,
    Number(d),
    Number(h),
    Number(mi),
    Number(s),
    Number(fraction.padEnd(3, '0').slice(0, 3)),
  );
  const check = new Date(wall);
  if (
    Number.isNaN(wall) ||
    check.getUTCFullYear() !== Number(y) ||
    check.getUTCMonth() !== Number(mo) - 1 ||
    check.getUTCDate() !== Number(d) ||
    Number(h) > 23 ||
    Number(mi) > 59 ||
    Number(s) > 59
  )
    throw badTime(value, option, zoneLabel, 'no such date or time');
  if (offset === undefined) return localToInstant(wall, timeZone);
  if (offset.toUpperCase() === 'Z') return wall;
  const digits = offset.replace(':', '');
  const offsetHours = Number(digits.slice(1, 3));
  const offsetMinutes = Number(digits.slice(3, 5));
  if (offsetHours > 23 || offsetMinutes > 59)
    throw badTime(value, option, zoneLabel, `no such offset ${offset}`);
  const sign = digits.startsWith('-') ? -1 : 1;
  return wall - sign * (offsetHours * 60 + offsetMinutes) * 60_000;
}

function badTime(value: string, option: string, zoneLabel: string, why?: string): UsageError {
  return new UsageError(
    `--${option} expects a date-time like 2026-11-20T00:00:00Z or 2026-11-20T00:00:00+03:00, or a local date or date-time (2026-11-20, 2026-11-20T09:30) read in ${zoneLabel}; got "${value}"${why ? ` (${why})` : ''}`,
  );
}

/** The instant whose wall-clock time in `timeZone` is `wall` (a local time given as if it were UTC). */
export function localToInstant(wall: number, timeZone: string): number {
  let guess = wall - offsetAt(wall, timeZone);
  // a second pass settles the offset on the instant itself (it differs near a daylight-saving change)
  guess = wall - offsetAt(guess, timeZone);
  return guess;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** Offset of `timeZone` from UTC at instant `t`, in ms (Moscow: +3 h). */
export function offsetAt(t: number, timeZone: string): number {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(t)).map((p) => [p.type, p.value]));
  const wall = Date.UTC(
    Number(parts['year']),
    Number(parts['month']) - 1,
    Number(parts['day']),
    Number(parts['hour']),
    Number(parts['minute']),
    Number(parts['second']),
  );
  return wall - (t - (((t % 1000) + 1000) % 1000));
}
