// The one way a report writes a period, an instant and the options that ask for a period, in the report's
// zone: whole local days as dates, the last one inclusive (`2026-10-25 – 2026-10-31 (Europe/Moscow)`, one day
// alone), any other bound as a local time (`to` exclusive); instants as local `2026-10-31 14:05`. The print
// header, the HTML page's heading, the figure sheets and the notes all say it this way.
import { localToInstant } from '../time/parse-zoned-time.js';
import { createZoneClock } from './cell-values.js';

const DAY_MS = 86_400_000;

/** The period in words: `2026-11-20 (UTC)`, `2026-11-16 – 2026-11-22 (Europe/Moscow)`, `2026-11-20 09:30 – 2026-11-20 18:00 (UTC)`. */
export function describePeriod(from: number, to: number, tz: string): string {
  return `${describeDates(from, to, tz)} (${tz})`;
}

/** The period without its zone: `2026-11-16 – 2026-11-22`, or local times when its bounds are not midnights. */
export function describeDates(from: number, to: number, tz: string): string {
  const local = createZoneClock(tz);
  const [wallFrom, wallTo] = [local(from), local(to)];
  if (wholeDays(wallFrom, wallTo)) {
    const [first, last] = [day(wallFrom), day(wallTo - DAY_MS)];
    return first === last ? first : `${first} – ${last}`;
  }
  return `${minute(wallFrom)} – ${minute(wallTo)}`;
}

/** The command-line options that ask for the period: `--from 2026-11-16 --to 2026-11-23 --tz Europe/Moscow`. */
export function periodOptions(from: number, to: number, tz: string): string {
  const local = createZoneClock(tz);
  const [wallFrom, wallTo] = [local(from), local(to)];
  const bound = (wall: number) => (wholeDays(wallFrom, wallTo) ? day(wall) : minute(wall).replace(' ', 'T'));
  return `--from ${bound(wallFrom)} --to ${bound(wallTo)} --tz ${tz}`;
}

/** An instant as a local date: `2026-10-12`. */
export function localDate(t: number, tz: string): string {
  return day(createZoneClock(tz)(t));
}

/** An instant as a local date and time to the minute: `2026-10-12 14:05`. */
export function localMinute(t: number, tz: string): string {
  return minute(createZoneClock(tz)(t)).slice(0, 16);
}

/**
 * The period of the same length just before [from, to), in local time (a week of local days before a week,
 * whatever daylight saving does in between): what a change is measured against.
 */
export function previousPeriod(from: number, to: number, tz: string): { from: number; to: number } {
  const local = createZoneClock(tz);
  const [wallFrom, wallTo] = [local(from), local(to)];
  return { from: localToInstant(wallFrom - (wallTo - wallFrom), tz), to: from };
}

/** The instant `days` local days after `t` (a local midnight stays a local midnight). */
export function addLocalDays(t: number, days: number, tz: string): number {
  return localToInstant(createZoneClock(tz)(t) + days * DAY_MS, tz);
}

function wholeDays(wallFrom: number, wallTo: number): boolean {
  return wallFrom % DAY_MS === 0 && wallTo % DAY_MS === 0 && wallTo > wallFrom;
}

function day(wall: number): string {
  return new Date(wall).toISOString().slice(0, 10);
}

/** Local date and time, seconds shown only when not zero. */
function minute(wall: number): string {
  const iso = new Date(wall).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, iso.slice(17, 23) === '00.000' ? 16 : 19)}`;
}
