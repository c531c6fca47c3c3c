// `--filter` options as Reporter filter objects: `KEY=a,b` (checkbox CONTAINS, text EQUALS, radio option,
// numeric range `2..10`), `KEY!=a,b` (NOT_CONTAINS), `KEY~text` (text CONTAINS) or a raw JSON filter object.
// Invariants: the period is never a --filter (it comes from --from/--to/--date); errors name the option;
// a TEXT filter carries the vendor spec's required isCaseSensitive (false: text matches ignore case); the
// short forms' values are checked before any request (known channel types, radio options, FROM <= TO).

import { KNOWN_CHANNELS } from '../analysis/stats/compute-stats.js';
import { UsageError } from '../errors.js';
import type { ReporterFilter } from '../platform/reporter/filters.js';
import { normaliseChannel } from '../platform/reporter/normalise-channel.js';
import { parseJsonText } from '../text/parse-json-text.js';

export type { ReporterFilter };

const CHECKBOX = ['CHANNEL_TYPE', 'BOT_ID', 'SESSION_RESULT', 'SESSION_LABELS', 'LOG_LABELS', 'NLP_CLASS'];
const RADIO = ['WITHOUT_EMPTY_SESSIONS', 'WITHOUT_EMPTY_MESSAGES', 'TRANSFER_TO_OPERATOR'];
const TEXT = ['SESSION_ID', 'CLIENT_ID_OR_NAME', 'MESSAGE_TEXT', 'ANSWER_TEXT', 'COMMENT_TEXT'];
const NUMERIC = ['MESSAGE_COUNT'];
/** message-reaction body fields that are not filter keys of the vendor's enum. */
const REACTION_ONLY = ['CLIENT_ID', 'MESSAGE_ID'];
const PERIOD_KEYS = ['SESSION_START_TIME', 'MESSAGE_TIME', 'CLIENT_LAST_ACTIVITY_TIME'];
/** The options of each radio key (the vendor's YesNoNotImportantFilterOption, TransferToOperatorFilterType). */
const YES_NO = ['YES', 'NO', 'NOT_IMPORTANT'];
const RADIO_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  WITHOUT_EMPTY_SESSIONS: YES_NO,
  WITHOUT_EMPTY_MESSAGES: YES_NO,
  TRANSFER_TO_OPERATOR: ['ANY', 'WITH_TRANSFER', 'WITHOUT_TRANSFER'],
};
/** Spellings of the yes/no options a user may type for them. */
const YES_NO_ALIASES: Readonly<Record<string, string>> = { TRUE: 'YES', FALSE: 'NO' };

/** The filter keys `--filter KEY...` offers (every one evaluated by the platform's reports, and the emulator). */
export const REPORT_FILTER_KEYS: readonly string[] = [...CHECKBOX, ...RADIO, ...TEXT, ...NUMERIC];

export const FILTER_KEYS_HELP = REPORT_FILTER_KEYS.join(', ');

function splitValues(raw: string, option: string): string[] {
  const values = raw
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
  if (values.length === 0) throw new UsageError(`${option}: give at least one value after the operator`);
  return values;
}

/** Parses one --filter value. */
export function parseReportFilter(text: string): ReporterFilter {
  const option = `--filter ${text}`;
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = parseJsonText(trimmed);
    } catch (error) {
      throw new UsageError(`${option}: ${(error as Error).message}`);
    }
    const f = parsed as { key?: unknown; type?: unknown };
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new UsageError(`${option}: expected a JSON filter object {"key": ..., "type": ...}`);
    if (typeof f.key !== 'string' || typeof f.type !== 'string')
      throw new UsageError(`${option}: a JSON filter needs string "key" and "type"`);
    if (PERIOD_KEYS.includes(f.key))
      throw new UsageError(`${option}: the period is set with --from/--to or --date, not with a filter`);
    return parsed as ReporterFilter;
  }
  const m = /^([A-Za-z_]+)\s*(!=|=|~)(.*)$/.exec(trimmed);
  if (!m)
    throw new UsageError(
      `${option}: expected KEY=a,b, KEY!=a,b, KEY~text or a JSON filter object (keys: ${FILTER_KEYS_HELP})`,
    );
  const key = m[1]!.toUpperCase();
  const operator = m[2]!;
  const raw = m[3]!;
  if (PERIOD_KEYS.includes(key))
    throw new UsageError(`${option}: the period is set with --from/--to or --date, not with a filter`);
  if (CHECKBOX.includes(key)) {
    if (operator === '~') throw new UsageError(`${option}: ${key} takes = or !=`);
    const options = splitValues(raw, option);
    if (key === 'CHANNEL_TYPE')
      for (const value of options)
        if (!(KNOWN_CHANNELS as readonly string[]).includes(normaliseChannel(value)))
          throw new UsageError(
            `${option}: unknown channel type "${value}" for CHANNEL_TYPE (accepted: ${KNOWN_CHANNELS.join(', ')})`,
          );
    return {
      key,
      type: 'CHECKBOX',
      comparisonType: operator === '=' ? 'CONTAINS' : 'NOT_CONTAINS',
      options,
    };
  }
  if (RADIO.includes(key)) {
    const accepted = RADIO_OPTIONS[key]!;
    if (operator !== '=') throw new UsageError(`${option}: ${key} takes =OPTION (${accepted.join(', ')})`);
    const typed = raw.trim().toUpperCase();
    const value = accepted === YES_NO ? (YES_NO_ALIASES[typed] ?? typed) : typed;
    if (!accepted.includes(value))
      throw new UsageError(
        `${option}: ${key} does not take "${raw.trim()}" (accepted: ${accepted.join(', ')}${accepted === YES_NO ? '; or true, false' : ''})`,
      );
    return { key, type: 'RADIO', option: value };
  }
  if (TEXT.includes(key) || REACTION_ONLY.includes(key)) {
    const comparisonType = operator === '=' ? 'EQUALS' : operator === '~' ? 'CONTAINS' : 'NOT_CONTAINS';
    return { key, type: 'TEXT', comparisonType, values: splitValues(raw, option), isCaseSensitive: false };
  }
  if (NUMERIC.includes(key)) {
    const range = /^\s*(\d+)?\s*\.\.\s*(\d+)?\s*$/.exec(raw);
    if (operator !== '=' || !range || (range[1] === undefined && range[2] === undefined))
      throw new UsageError(`${option}: ${key} takes =FROM..TO (either end may be left out)`);
    if (range[1] !== undefined && range[2] !== undefined && Number(range[1]) > Number(range[2]))
      throw new UsageError(
        `${option}: ${key} range "${raw.trim()}" starts above its end (FROM must be at most TO, e.g. 2..10)`,
      );
    return {
      key,
      type: 'NUMERIC_RANGE',
      ...(range[1] === undefined ? {} : { from: Number(range[1]) }),
      ...(range[2] === undefined ? {} : { to: Number(range[2]) }),
    };
  }
  throw new UsageError(
    `${option}: unknown filter key ${key} (keys: ${FILTER_KEYS_HELP}; or give a JSON filter)`,
  );
}
