// The period of a platform report: --from/--to (ISO, half-open [from, to)), --date (one local day) or, by
// default, yesterday (the last whole local day); local dates and times are read in --tz (REPORTER_TZ, UTC). Invariant: from < to, both epoch ms; the API's inclusive
// ranges are built from it as [from, to - 1 ms] by the request builder, never here.
import { UsageError } from '../errors.js';
import { assertFromBeforeTo } from '../time/check-period.js';
import { localToInstant, offsetAt, parseZonedTime } from '../time/parse-zoned-time.js';

export const DAY_MS = 86_400_000;

export interface ReportPeriod {
  from: number;
  to: number;
}

export interface PeriodOptions {
  from?: string | undefined;
  to?: string | undefined;
  date?: string | undefined;
}

/**
 * The period the options ask for; `now` (epoch ms) decides the default and an open --from. Local dates and
 * times are read in `timeZone` (23 or 25 hours for a day across a daylight-saving change).
 */
export function resolveReportPeriod(options: PeriodOptions, now: number, timeZone = 'UTC'): ReportPeriod {
  const parseInstant = (value: string, option: string) => parseZonedTime(value, option, timeZone);
  const wholeDay = (wallMidnight: number) => ({
    from: localToInstant(wallMidnight, timeZone),
    to: localToInstant(wallMidnight + DAY_MS, timeZone),
  });
  if (options.date !== undefined) {
    if (options.from !== undefined || options.to !== undefined)
      throw new UsageError('--date is one whole day in --tz: use it without --from/--to');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(options.date))
      throw new UsageError(`--date expects a date like 2026-11-21, got "${options.date}"`);
    return wholeDay(parseZonedTime(options.date, 'date', 'UTC'));
  }
  if (options.from === undefined && options.to === undefined) {
    const todayWall = Math.floor((now + offsetAt(now, timeZone)) / DAY_MS) * DAY_MS;
    return wholeDay(todayWall - DAY_MS);
  }
  if (options.from === undefined) throw new UsageError('--to needs --from (the period is [from, to))');
  const from = parseInstant(options.from, 'from');
  const to = options.to === undefined ? Math.floor(now / 1000) * 1000 : parseInstant(options.to, 'to');
  assertFromBeforeTo(from, to, options);
  return { from, to };
}

const isWholeDays = (p: ReportPeriod): boolean => p.from % DAY_MS === 0 && p.to % DAY_MS === 0;
const day = (t: number): string => new Date(t).toISOString().slice(0, 10);

function compactInstant(t: number): string {
  const iso = new Date(t).toISOString();
  const [date, time] = iso.split('T') as [string, string];
  let clock = time.replace('Z', '').replace(/:/g, '');
  if (clock.endsWith('.000')) clock = clock.slice(0, -4);
  if (clock.endsWith('00') && clock.length === 6) clock = clock.slice(0, 4);
  return `${date.replace(/-/g, '')}T${clock}Z`;
}

/** The period as people read it: `2026-10-31`, `2026-10-29..2026-10-31` (whole days) or ISO instants. */
export function describePeriod(p: ReportPeriod): string {
  if (isWholeDays(p)) {
    const last = day(p.to - DAY_MS);
    return p.to - p.from === DAY_MS ? day(p.from) : `${day(p.from)}..${last}`;
  }
  return `${new Date(p.from).toISOString()}..${new Date(p.to).toISOString()}`;
}

/** The period in a file name: `2026-10-31`, `2026-10-29_2026-10-31` (last day inclusive) or `20261031T0600Z_20261031T1800Z`. */
export function periodStamp(p: ReportPeriod): string {
  if (isWholeDays(p)) {
    return p.to - p.from === DAY_MS ? day(p.from) : `${day(p.from)}_${day(p.to - DAY_MS)}`;
  }
  return `${compactInstant(p.from)}_${compactInstant(p.to)}`;
}
