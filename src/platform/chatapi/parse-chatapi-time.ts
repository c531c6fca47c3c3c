// The Chat API's times: its webhook payloads and history give a local date-time with milliseconds and no zone
// (the seed), read in the channel's zone (REPORTER_CHATAPI_TIMEZONE, default UTC), with or without
// milliseconds; one with an offset or `Z` is read as it says; a number is epoch milliseconds.
import { parseZonedTime } from '../../time/parse-zoned-time.js';

/** The last instant a JS Date holds (year 275760): a number past it is no time (and would overflow DuckDB's). */
const LAST_TIME_MS = 8.64e15;

/** Epoch ms, or undefined when `value` is no time at all (the record is then rejected with the reason). */
export function parseChatApiTime(value: unknown, timeZone: string): number | undefined {
  if (typeof value === 'number')
    return Number.isFinite(value) && value >= 0 && value <= LAST_TIME_MS ? Math.round(value) : undefined;
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(value.trim())) return undefined;
  try {
    return parseZonedTime(value, 'timestamp', timeZone);
  } catch {
    return undefined;
  }
}
