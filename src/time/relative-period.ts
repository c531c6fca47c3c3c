// Relative periods, the one parser of every command that takes a period (stats, report, unhandled, sync
// --from/--to, platform-report): `--last 7d` (also h, w), `--week this|last`, `--month this|last`, and the words
// `today`, `yesterday` and `now` as --from or --to. Days, weeks and months are local ones of the command's
// zone (--tz, else REPORTER_TZ), so a day across a daylight-saving change is 23 or 25 hours, never 24 by
// rule. The result is an instant in ISO 8601 UTC, read on by parseZonedTime like any --from/--to.
import { UsageError } from '../errors.js';
import { localToInstant, offsetAt } from './parse-zoned-time.js';

const DAY_MS = 86_400_000;

/** The options a command with a period takes (node:util parseArgs specs). */
export const PERIOD_OPTIONS = {
  from: { type: 'string' },
  to: { type: 'string' },
  last: { type: 'string' },
  week: { type: 'string' },
  month: { type: 'string' },
} as const;

/** How --help describes them; `indent` is the column of the descriptions. */
export function relativePeriodHelp(indent: number): string {
  const pad = (term: string) => `  ${term.padEnd(indent - 2)}`;
  return [
    `${pad('--last N(h|d|w)')}the last N hours, local days or weeks up to now (--last 7d)`,
    `${pad('--week this|last')}this ISO week (from Monday, up to now) or the last whole one`,
    `${pad('--month this|last')}this month (up to now) or the last whole one`,
    `${' '.repeat(indent)}--from and --to also take today, yesterday (a local day's start) and now`,
  ].join('\n');
}

export interface PeriodValues {
  from?: string | undefined;
  to?: string | undefined;
  last?: string | undefined;
  week?: string | undefined;
  month?: string | undefined;
}

const iso = (t: number): string => new Date(t).toISOString();

/** The local wall-clock time of `t` in the zone, as if it were UTC. */
const wall = (t: number, timeZone: string): number => t + offsetAt(t, timeZone);

/** Midnight (wall time) of the local day of `t`. */
const localMidnight = (t: number, timeZone: string): number =>
  Math.floor(wall(t, timeZone) / DAY_MS) * DAY_MS;

/** A day's start instant `days` local days from the local day of `now` (0 today, -1 yesterday). */
function dayStart(now: number, timeZone: string, days: number): number {
  return localToInstant(localMidnight(now, timeZone) + days * DAY_MS, timeZone);
}

/** `today`, `yesterday`, `now` as an ISO instant; anything else as it was typed. */
function expandWord(value: string | undefined, now: number, timeZone: string): string | undefined {
  const word = value?.trim().toLowerCase();
  if (word === 'today') return iso(dayStart(now, timeZone, 0));
  if (word === 'yesterday') return iso(dayStart(now, timeZone, -1));
  if (word === 'now') return iso(now);
  return value;
}

/** `--last 7d`: [the same local time 7 days ago, now); h counts hours of 60 minutes. */
function lastPeriod(value: string, now: number, timeZone: string): { from: number; to: number } {
  const m = /^\s*(\d{1,5})\s*([hdw])\s*$/i.exec(value);
  if (!m || Number(m[1]) === 0)
    throw new UsageError(
      `--last expects a count and a unit: 12h (hours), 7d (local days) or 4w (weeks); got "${value}"`,
    );
  const n = Number(m[1]);
  const unit = m[2]!.toLowerCase();
  if (unit === 'h') return { from: now - n * 3_600_000, to: now };
  const days = unit === 'd' ? n : 7 * n;
  return { from: localToInstant(wall(now, timeZone) - days * DAY_MS, timeZone), to: now };
}

function thisOrLast(value: string, option: string): 'this' | 'last' {
  const word = value.trim().toLowerCase();
  if (word === 'this' || word === 'last') return word;
  throw new UsageError(`--${option} expects this or last; got "${value}"`);
}

/** `--week this|last`: ISO weeks (Monday to Monday) in the zone; this week ends now. */
function weekPeriod(value: string, now: number, timeZone: string): { from: number; to: number } {
  const midnight = localMidnight(now, timeZone);
  // 1970-01-01 was a Thursday: (day + 3) % 7 counts days since Monday
  const monday = midnight - ((Math.floor(midnight / DAY_MS) + 3) % 7) * DAY_MS;
  const start = localToInstant(monday, timeZone);
  if (thisOrLast(value, 'week') === 'this') return { from: start, to: now };
  return { from: localToInstant(monday - 7 * DAY_MS, timeZone), to: start };
}

/** `--month this|last`: calendar months in the zone; this month ends now. */
function monthPeriod(value: string, now: number, timeZone: string): { from: number; to: number } {
  const today = new Date(localMidnight(now, timeZone));
  const first = (monthsBack: number) =>
    localToInstant(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - monthsBack, 1), timeZone);
  if (thisOrLast(value, 'month') === 'this') return { from: first(0), to: now };
  return { from: first(1), to: first(0) };
}

/**
 * The period options with the relative forms made absolute: --from and --to as ISO instants (or as typed), read
 * on by parseZonedTime. --last, --week and --month each give both ends, and go with no other period option.
 */
export function expandPeriod(values: PeriodValues, timeZone: string, now: number): PeriodValues {
  const relative = (['last', 'week', 'month'] as const).filter((k) => values[k] !== undefined);
  if (
    relative.length > 1 ||
    (relative.length === 1 && (values.from !== undefined || values.to !== undefined))
  )
    throw new UsageError(
      `--${relative.join(', --')}${values.from !== undefined || values.to !== undefined ? ' and --from/--to' : ''}: give one way of saying the period`,
    );
  const kind = relative[0];
  if (kind !== undefined) {
    const read = kind === 'last' ? lastPeriod : kind === 'week' ? weekPeriod : monthPeriod;
    const period = read(values[kind]!, now, timeZone);
    return { from: iso(period.from), to: iso(period.to) };
  }
  return { from: expandWord(values.from, now, timeZone), to: expandWord(values.to, now, timeZone) };
}
