// Command-line parsing helpers over node:util parseArgs: every command's strict parse, and numbers and enums
// checked with messages that name the option, so `--sessions abc` says what is wrong and what is expected.
import { readFileSync } from 'node:fs';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from '../errors.js';
import { parseZonedTime } from '../time/parse-zoned-time.js';

/**
 * What a command does with words that are not options: `none` leaves them to parseArgs, which refuses them
 * (as it refuses an unknown option; main answers exit 2 and points to --help); `allow` returns them;
 * `{ refuse: hint }` refuses the first as `unexpected argument "word"<hint>` (a usage error, exit 2).
 */
export type Positionals = 'none' | 'allow' | { refuse: string };

/** A command's argv parsed strictly against its options (main prints --help before a command runs). */
export function parseCommandArgs<O extends NonNullable<ParseArgsConfig['options']>>(
  argv: string[],
  options: O,
  positionals: Positionals = 'none',
) {
  const parsed = parseArgs({
    args: joinNegativeValues(argv, options),
    options,
    strict: true,
    allowPositionals: positionals !== 'none',
  });
  if (typeof positionals === 'object' && parsed.positionals.length > 0)
    throw new UsageError(`unexpected argument ${JSON.stringify(parsed.positionals[0])}${positionals.refuse}`);
  return parsed;
}

/**
 * `--timeout -5` as `--timeout=-5` for an option that takes a value: parseArgs would refuse the negative
 * number as an "ambiguous" option, while the command's own check names the option and its range. Only a
 * word that is a number (`-5`, `-1.5`) is joined: no option of any command is spelt that way.
 */
function joinNegativeValues(argv: string[], options: NonNullable<ParseArgsConfig['options']>): string[] {
  const takesValue = new Set<string>();
  for (const [name, option] of Object.entries(options))
    if (option.type === 'string') takesValue.add(`--${name}`);
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    const next = argv[i + 1];
    if (word === '--') {
      out.push(...argv.slice(i));
      break;
    }
    if (takesValue.has(word) && next !== undefined && /^-\d+(\.\d+)?$/.test(next)) {
      out.push(`${word}=${next}`);
      i++;
    } else out.push(word);
  }
  return out;
}

/** A whole number option: at least `min` (and at most `max` when given), the message naming the range. */
export function intOption(
  value: string | undefined,
  name: string,
  fallback: number,
  min = 0,
  max?: number,
): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || (max !== undefined && Number(value) > max))
    throw new UsageError(
      max === undefined
        ? `--${name} expects a whole number of at least ${min}, got "${value}"`
        : `--${name} expects a whole number from ${min} to ${max}, got "${value}"`,
    );
  return Number(value);
}

export function numberOption(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0)
    throw new UsageError(`--${name} expects a non-negative number, got "${value}"`);
  return n;
}

export function enumOption<T extends string>(
  value: string | undefined,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`--${name} expects one of ${allowed.join(', ')}, got "${value}"`);
  return value as T;
}

/** An instant option read by the one date parser of every command; a time without an offset is UTC. */
export function dateTimeOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  return parseZonedTime(value, name, 'UTC', 'UTC');
}

/**
 * The query of a `--sql TEXT | --sql-file PATH` pair (label-sessions, label-messages, pushgate send); a usage
 * error when both or neither are given (`required` says what the query chooses) or the file cannot be read.
 */
export function sqlOrSqlFile(
  values: { sql?: string | undefined; 'sql-file'?: string | undefined },
  required: string,
): string {
  if (values.sql !== undefined && values['sql-file'] !== undefined)
    throw new UsageError('give the query with --sql or with --sql-file, not both');
  if (values['sql-file'] !== undefined) {
    try {
      return readFileSync(values['sql-file'], 'utf8');
    } catch (error) {
      throw new UsageError(
        `--sql-file ${values['sql-file']}: cannot read it (${error instanceof Error ? error.message : String(error)})`,
      );
    }
  }
  if (values.sql === undefined) throw new UsageError(`--sql is required: ${required}`);
  return values.sql;
}
