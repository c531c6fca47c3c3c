// Reporter filters (`FiltersDto.filters`): validated into a compiled form that the queries evaluate
// against the skeleton. A malformed filter is a 400 naming the exact field (`filters[2].to`); a TEXT filter
// needs values, comparisonType and isCaseSensitive, as the vendor's TextFilter schema requires.
import { badParameter } from './api-error.js';
import type { ProjectData } from './project-data.js';

export const FILTER_KEYS = [
  'SESSION_ID',
  'SESSION_START_TIME',
  'SESSION_END_TIME',
  'SESSION_LABELS',
  'SESSION_RESULT',
  'INITIATOR',
  'CALL_TASK_ID',
  'CHANNEL_TYPE',
  'BOT_ID',
  'CLIENT_ID_OR_NAME',
  'CLIENT_JOIN_TIME',
  'CLIENT_LAST_ACTIVITY_TIME',
  'MESSAGE_TYPE',
  'MESSAGE_TIME',
  'MESSAGE_TEXT',
  'ANSWER_TEXT',
  'MESSAGE_COUNT',
  'LOG_LABELS',
  'COMMENT_TEXT',
  'NLP_CLASS',
  'NLP_STATE',
  'INTENT',
  'TRANSFER_TO_OPERATOR',
  'WITHOUT_EMPTY_SESSIONS',
  'WITHOUT_EMPTY_MESSAGES',
  'CUSTOM_FIELDS_IN_RESPONSE',
  'EXCEPTION_EXISTENCE',
  'SESSION_DATA',
  'STATE_ROUTES',
] as const;

/** The keys this emulator evaluates, with the filter type each takes. */
export const SUPPORTED_FILTERS: Readonly<Record<string, string>> = {
  SESSION_START_TIME: 'DATE_TIME_RANGE',
  MESSAGE_TIME: 'DATE_TIME_RANGE',
  CLIENT_JOIN_TIME: 'DATE_TIME_RANGE',
  CLIENT_LAST_ACTIVITY_TIME: 'DATE_TIME_RANGE',
  MESSAGE_COUNT: 'NUMERIC_RANGE',
  WITHOUT_EMPTY_SESSIONS: 'RADIO',
  WITHOUT_EMPTY_MESSAGES: 'RADIO',
  TRANSFER_TO_OPERATOR: 'RADIO',
  CHANNEL_TYPE: 'CHECKBOX',
  BOT_ID: 'CHECKBOX',
  SESSION_RESULT: 'CHECKBOX',
  SESSION_LABELS: 'CHECKBOX',
  LOG_LABELS: 'CHECKBOX',
  NLP_CLASS: 'CHECKBOX',
  SESSION_ID: 'TEXT',
  CLIENT_ID_OR_NAME: 'TEXT',
  MESSAGE_TEXT: 'TEXT',
  ANSWER_TEXT: 'TEXT',
  COMMENT_TEXT: 'TEXT',
};

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** Parses a date-time of the API (`yyyy-MM-ddTHH:mm:ss.SSSZ`, other offsets and no milliseconds accepted). */
export function parseDateTime(value: unknown, parameter: string): number {
  if (typeof value !== 'string' || !DATE_TIME.test(value)) {
    throw badParameter(
      parameter,
      `expected a date-time like 2024-05-01T00:00:00.000Z, got ${JSON.stringify(value)}`,
    );
  }
  const t = Date.parse(value);
  if (Number.isNaN(t)) throw badParameter(parameter, `not a valid date-time: ${value}`);
  return t;
}

/** `CHAT_WIDGET`, `ChatWidget` and `chatwidget` are one channel. */
export function normaliseChannel(name: string): string {
  return name.replace(/_/g, '').toLowerCase();
}

export type Range = [number, number];

export interface CompiledFilters {
  sessionStart?: Range;
  messageTime?: Range;
  clientJoin?: Range;
  clientActivity?: Range;
  /** Session-level predicates (cheap: skeleton and state only). */
  session: ((p: ProjectData, i: number, now: number) => boolean)[];
  /** Message-level predicates; a session matches when one of its visible messages passes them all. */
  message: ((p: ProjectData, i: number, k: number, now: number) => boolean)[];
  /** Canonical text of the filters, for caches. */
  key: string;
}

interface RawFilter {
  key?: unknown;
  type?: unknown;
  from?: unknown;
  to?: unknown;
  option?: unknown;
  options?: unknown;
  values?: unknown;
  comparisonType?: unknown;
  isCaseSensitive?: unknown;
}

export function compileFilters(body: unknown, field = 'filters'): CompiledFilters {
  const compiled: CompiledFilters = { session: [], message: [], key: '' };
  if (body === undefined || body === null) return compiled;
  if (typeof body !== 'object' || Array.isArray(body))
    throw badParameter('body', 'expected an object {filters: [...]}');
  const list = (body as { filters?: unknown }).filters;
  if (list === undefined || list === null) return compiled;
  return compileFilterList(list, field);
}

export function compileFilterList(list: unknown, field = 'filters'): CompiledFilters {
  const compiled: CompiledFilters = { session: [], message: [], key: JSON.stringify(list ?? []) };
  if (list === undefined || list === null) return compiled;
  if (!Array.isArray(list)) throw badParameter(field, 'expected an array of filters');
  list.forEach((raw: RawFilter, n) => {
    const at = `${field}[${n}]`;
    if (typeof raw !== 'object' || raw === null) throw badParameter(at, 'expected a filter object');
    if (typeof raw.key !== 'string') throw badParameter(`${at}.key`, 'required string');
    if (typeof raw.type !== 'string') throw badParameter(`${at}.type`, 'required string');
    if (!(FILTER_KEYS as readonly string[]).includes(raw.key))
      throw badParameter(`${at}.key`, `unknown filter key ${raw.key}`);
    const expected = SUPPORTED_FILTERS[raw.key];
    if (!expected) throw badParameter(`${at}.key`, `filter ${raw.key} is not supported by this server`);
    if (raw.type !== expected)
      throw badParameter(`${at}.type`, `filter ${raw.key} takes type ${expected}, got ${raw.type}`);
    addFilter(compiled, raw.key, raw, at);
  });
  return compiled;
}

function dateRange(raw: RawFilter, at: string): Range {
  const from =
    raw.from === undefined || raw.from === null
      ? Number.NEGATIVE_INFINITY
      : parseDateTime(raw.from, `${at}.from`);
  const to =
    raw.to === undefined || raw.to === null ? Number.POSITIVE_INFINITY : parseDateTime(raw.to, `${at}.to`);
  if (from > to) throw badParameter(`${at}.from`, 'is after to');
  return [from, to];
}

function numberBound(value: unknown, parameter: string, fallback: number): number {
  if (value === undefined || value === null || value === '') return fallback;
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : Number.NaN;
  if (!Number.isFinite(n))
    throw badParameter(parameter, `expected a number or a numeric string, got ${JSON.stringify(value)}`);
  return n;
}

function stringList(value: unknown, parameter: string): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw badParameter(parameter, 'expected an array of strings');
  return value as string[];
}

function radio(raw: RawFilter, at: string, allowed: readonly string[]): string {
  if (typeof raw.option !== 'string' || !allowed.includes(raw.option)) {
    throw badParameter(`${at}.option`, `expected one of ${allowed.join(', ')}`);
  }
  return raw.option;
}

/** Applies a checkbox comparison to the set of values a record has. */
function checkbox(raw: RawFilter, at: string, normalise: (v: string) => string = (v) => v) {
  const comparison = raw.comparisonType ?? 'CONTAINS';
  const allowed = ['NOT_IMPORTANT', 'NOT_EXISTS', 'EXISTS', 'CONTAINS', 'NOT_CONTAINS'];
  if (typeof comparison !== 'string' || !allowed.includes(comparison)) {
    throw badParameter(`${at}.comparisonType`, `expected one of ${allowed.join(', ')}`);
  }
  const wanted = new Set(stringList(raw.options, `${at}.options`).map(normalise));
  return (values: readonly string[]): boolean => {
    switch (comparison) {
      case 'NOT_IMPORTANT':
        return true;
      case 'EXISTS':
        return values.length > 0;
      case 'NOT_EXISTS':
        return values.length === 0;
      case 'NOT_CONTAINS':
        return !values.some((v) => wanted.has(normalise(v)));
      default:
        return values.some((v) => wanted.has(normalise(v)));
    }
  };
}

function text(raw: RawFilter, at: string) {
  const comparison = raw.comparisonType;
  const allowed = ['NOT_IMPORTANT', 'CONTAINS', 'NOT_CONTAINS', 'EQUALS'];
  if (typeof comparison !== 'string' || !allowed.includes(comparison)) {
    throw badParameter(`${at}.comparisonType`, `required, one of ${allowed.join(', ')}`);
  }
  if (typeof raw.isCaseSensitive !== 'boolean')
    throw badParameter(`${at}.isCaseSensitive`, 'required boolean (TextFilter)');
  const caseSensitive = raw.isCaseSensitive;
  const fold = (s: string) => (caseSensitive ? s : s.toLowerCase());
  const values = stringList(raw.values, `${at}.values`).map(fold);
  return (candidates: readonly (string | undefined)[]): boolean => {
    const present = candidates.filter((c): c is string => c !== undefined).map(fold);
    switch (comparison) {
      case 'NOT_IMPORTANT':
        return true;
      case 'EQUALS':
        return present.some((c) => values.includes(c));
      case 'NOT_CONTAINS':
        return !present.some((c) => values.some((v) => c.includes(v)));
      default:
        return present.some((c) => values.some((v) => c.includes(v)));
    }
  };
}

function intersect(a: Range | undefined, b: Range): Range {
  return a ? [Math.max(a[0], b[0]), Math.min(a[1], b[1])] : b;
}

function addFilter(c: CompiledFilters, key: string, raw: RawFilter, at: string): void {
  switch (key) {
    case 'SESSION_START_TIME':
      c.sessionStart = intersect(c.sessionStart, dateRange(raw, at));
      return;
    case 'MESSAGE_TIME':
      c.messageTime = intersect(c.messageTime, dateRange(raw, at));
      return;
    case 'CLIENT_JOIN_TIME':
      c.clientJoin = intersect(c.clientJoin, dateRange(raw, at));
      return;
    case 'CLIENT_LAST_ACTIVITY_TIME':
      c.clientActivity = intersect(c.clientActivity, dateRange(raw, at));
      return;
    case 'MESSAGE_COUNT': {
      const from = numberBound(raw.from, `${at}.from`, Number.NEGATIVE_INFINITY);
      const to = numberBound(raw.to, `${at}.to`, Number.POSITIVE_INFINITY);
      c.session.push((p, i, now) => {
        const n = p.skeleton.visibleMessageCount(i, now);
        return n >= from && n <= to;
      });
      return;
    }
    case 'WITHOUT_EMPTY_SESSIONS':
      if (radio(raw, at, ['YES', 'NO', 'NOT_IMPORTANT']) === 'YES') {
        c.session.push((p, i, now) => p.skeleton.visibleMessageCount(i, now) > 0);
      }
      return;
    case 'WITHOUT_EMPTY_MESSAGES':
      if (radio(raw, at, ['YES', 'NO', 'NOT_IMPORTANT']) === 'YES') {
        c.message.push((p, i, k) => p.messageFacts(i, k).question !== undefined);
      }
      return;
    case 'TRANSFER_TO_OPERATOR': {
      const option = radio(raw, at, ['ANY', 'WITH_TRANSFER', 'WITHOUT_TRANSFER']);
      if (option === 'ANY') return;
      const want = option === 'WITH_TRANSFER';
      c.session.push((p, i, now) => {
        const t = p.skeleton.transferAt.get(i);
        return (t >= 0 && p.skeleton.visibleMessageCount(i, now) > t) === want;
      });
      return;
    }
    case 'CHANNEL_TYPE': {
      const test = checkbox(raw, at, normaliseChannel);
      c.session.push((p, i) => test([p.channelOf(i)]));
      return;
    }
    case 'BOT_ID': {
      const test = checkbox(raw, at);
      c.session.push((p, i) => test([p.botIdOf(i)]));
      return;
    }
    case 'SESSION_RESULT': {
      const test = checkbox(raw, at);
      c.session.push((p, i) => test([p.sessionResult(i)]));
      return;
    }
    case 'SESSION_LABELS': {
      const test = checkbox(raw, at);
      c.session.push((p, i, now) => test(p.sessionLabelIds(i, now).map(String)));
      return;
    }
    case 'LOG_LABELS': {
      const test = checkbox(raw, at);
      c.message.push((p, i, k, now) => test(p.messageLabelIds(i, k, now).map(String)));
      return;
    }
    case 'NLP_CLASS': {
      const test = checkbox(raw, at);
      c.message.push((p, i, k) => {
        const cls = p.messageFacts(i, k).nlpClass;
        return test(cls === undefined ? [] : [cls]);
      });
      return;
    }
    case 'SESSION_ID': {
      const test = text(raw, at);
      c.session.push((p, i) => test([p.sessionId(i)]));
      return;
    }
    case 'CLIENT_ID_OR_NAME': {
      const test = text(raw, at);
      c.session.push((p, i) => {
        const info = p.clientInfo(p.skeleton.client.get(i));
        return test([info.id, info.firstName, info.lastName, info.username]);
      });
      return;
    }
    case 'MESSAGE_TEXT': {
      const test = text(raw, at);
      c.message.push((p, i, k) => test([p.messageFacts(i, k).question]));
      return;
    }
    case 'ANSWER_TEXT': {
      // the bot's answer text (textAnswer of the message)
      const test = text(raw, at);
      c.message.push((p, i, k) => test([p.messageFacts(i, k).answer]));
      return;
    }
    case 'COMMENT_TEXT': {
      // the comment people left on the message, as of the clock (none: nothing to match)
      const test = text(raw, at);
      c.message.push((p, i, k, now) => test([p.commentAt(i, k, now)]));
      return;
    }
    default:
      throw badParameter(`${at}.key`, `filter ${key} is not supported by this server`);
  }
}
