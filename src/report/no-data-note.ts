// What an empty report says, on its first sheet (and the first section of its HTML page) and on every other
// sheet: "No data for <period>", the period as an analyst names it in the report's zone: whole local days as
// dates (last day inclusive), any other bound as local times (`to` exclusive), then the zone.
import { createZoneClock } from './cell-values.js';

const DAY_MS = 86_400_000;

/** The period in words: `2026-11-20 (UTC)`, `2026-11-16 – 2026-11-22 (Europe/Moscow)`, `2026-11-20 09:30 – 2026-11-20 18:00 (UTC)`. */
export function describeLocalPeriod(from: number, to: number, tz: string): string {
  const local = createZoneClock(tz);
  const wallFrom = local(from);
  const wallTo = local(to);
  if (wallFrom % DAY_MS === 0 && wallTo % DAY_MS === 0 && wallTo > wallFrom) {
    const first = day(wallFrom);
    const last = day(wallTo - DAY_MS);
    return `${first === last ? first : `${first} – ${last}`} (${tz})`;
  }
  return `${minute(wallFrom)} – ${minute(wallTo)} (${tz})`;
}

/** "No data for <period>". */
export function noDataNote(from: number, to: number, tz: string): string {
  return `No data for ${describeLocalPeriod(from, to, tz)}`;
}

function day(wall: number): string {
  return new Date(wall).toISOString().slice(0, 10);
}

function minute(wall: number): string {
  const iso = new Date(wall).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, iso.slice(17, 23) === '00.000' ? 16 : 19)}`;
}
