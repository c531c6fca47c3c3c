// The one rule of every command that reads or shows local times (stats, report, sync --from/--to,
// platform-report, runs): the zone is --tz, else REPORTER_TZ (or the REPORTER_CONFIG file's timeZone, as
// config.timeZone has it), else UTC; and the one line of --help that says so.
// Invariant: an unknown --tz is refused with a message naming --tz (REPORTER_TZ is checked by the config).
import { requireTimeZone } from './time-zone.js';

/** The zone of a command's local times: `--tz` when given, else the configured REPORTER_TZ. */
export function commandTimeZone(tzOption: string | undefined, configuredZone: string): string {
  return tzOption === undefined ? configuredZone : requireTimeZone(tzOption);
}

/** The `--tz` line of a command's --help, aligned at `indent` columns after the option. */
export function tzHelp(what: string, indent = 19): string {
  return `  --tz ZONE${' '.repeat(Math.max(1, indent - 9))}IANA time zone of ${what}
${' '.repeat(indent + 2)}(default REPORTER_TZ, else UTC)`;
}
