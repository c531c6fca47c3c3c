// The file name of a report: <id>_<from>_<to>.xlsx (or .html) in the report's zone. Whole local days give dates with the
// last day inclusive (summary_2026-11-20_2026-11-26.xlsx is that week; one day repeats the date); any other
// bound gives local date-times, `to` exclusive (messages_20261120T0930_20261120T1800.xlsx). Filesystem-safe.
import { createZoneClock } from './cell-values.js';

const DAY_MS = 86_400_000;

export function reportFileName(
  reportId: string,
  from: number,
  to: number,
  tz: string,
  extension: 'xlsx' | 'html' = 'xlsx',
): string {
  const local = createZoneClock(tz);
  const wallFrom = local(from);
  const wallTo = local(to);
  if (wallFrom % DAY_MS === 0 && wallTo % DAY_MS === 0 && wallTo > wallFrom) {
    return `${reportId}_${day(wallFrom)}_${day(wallTo - DAY_MS)}.${extension}`;
  }
  return `${reportId}_${minute(wallFrom)}_${minute(wallTo)}.${extension}`;
}

function day(wall: number): string {
  return new Date(wall).toISOString().slice(0, 10);
}

function minute(wall: number): string {
  const iso = new Date(wall).toISOString();
  const seconds = iso.slice(17, 19) === '00' && iso.slice(20, 23) === '000' ? '' : iso.slice(17, 19);
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}${seconds}`;
}
