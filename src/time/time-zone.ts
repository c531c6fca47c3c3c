// The one check of an IANA time zone name (configuration, --tz): a zone the JavaScript clock knows.
// Invariant: a name Intl.DateTimeFormat refuses (empty, misspelt, padded with spaces) is never accepted.
import { UsageError } from '../errors.js';

export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** The usage error of an unknown --tz value. */
export function unknownTimeZone(timeZone: string): UsageError {
  return new UsageError(
    `--tz: unknown time zone "${timeZone}"; give an IANA zone name such as UTC or Europe/Moscow`,
  );
}

/** `timeZone` when it is a known zone, else the usage error naming --tz. */
export function requireTimeZone(timeZone: string): string {
  if (!isTimeZone(timeZone)) throw unknownTimeZone(timeZone);
  return timeZone;
}
