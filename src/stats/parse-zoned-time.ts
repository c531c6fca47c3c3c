// Reads the --from / --to of `stats`: an ISO-8601 instant with its offset (2026-11-20T00:00:00Z,
// 2026-11-20T00:00+03:00), or a local date or date-time without one (2026-11-20, 2026-11-20T09:30),
// which is read in the report's IANA time zone, so `--from 2026-11-20 --tz Europe/Moscow` is Moscow midnight.
import { UsageError } from '../errors.js';

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?$/;
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** Epoch ms of `value` (see the header); a UsageError naming the option when it is not a valid time. */
export function parseZonedTime(value: string, option: string, timeZone: string): number {
  const text = value.trim();
  const local = LOCAL.exec(text);
  if (local) {
    const [, y, mo, d, h = '0', mi = '0', s = '0', ms = '0'] = local;
    const wall = Date.UTC(
      Number(y),
      Number(mo) - 1,
      Number(d),
      Number(h),
      Number(mi),
      Number(s),
      Number(ms.padEnd(3, '0')),
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
      throw badTime(value, option);
    return localToInstant(wall, timeZone);
  }
  if (WITH_OFFSET.test(text)) {
    const t = Date.parse(text);
    if (!Number.isNaN(t)) return t;
  }
  throw badTime(value, option);
}

function badTime(value: string, option: string): UsageError {
  return new UsageError(
    `--${option} expects a date-time like 2026-11-20T00:00:00Z or 2026-11-20T00:00:00+03:00, or a local date or date-time (2026-11-20, 2026-11-20T09:30) read in --tz; got "${value}"`,
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
