// The time limit of a command's sandboxed query: `sql --timeout S` or `--sql-timeout S` for one run, else
// REPORTER_SQL_TIMEOUT_SECONDS (0: no limit), with the help line every such command shows.
import { CONFIG_DEFAULTS, type Config } from '../config.js';
import type { SandboxTimeLimit } from '../manage/sandbox-errors.js';
import { numberOption } from './args.js';

/** The limit from the command's option (`--timeout` or `--sql-timeout`, in seconds), else the setting. */
export function sqlTimeLimit(value: string | undefined, option: string, config: Config): SandboxTimeLimit {
  const seconds = numberOption(value, option.replace(/^--/, ''), config.sqlTimeoutMs / 1000);
  return { ms: Math.round(seconds * 1000), option };
}

/** The option's help lines, its text starting at column `width` (the command's own option column). */
export function sqlTimeoutHelp(option: string, width: number): string {
  const indent = ' '.repeat(width);
  return `  ${`${option} S`.padEnd(width - 2)}stop the query after S seconds, exit 2 (0: no limit; default
${indent}REPORTER_SQL_TIMEOUT_SECONDS, ${CONFIG_DEFAULTS.REPORTER_SQL_TIMEOUT_SECONDS}). It also stops, exit 75, when a writer
${indent}(a sync) waits for the warehouse file: run it again`;
}
