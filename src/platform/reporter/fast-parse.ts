// Hand-compiled fast paths for the zod schemas of the records a sync reads by the hundred thousand
// (schemas.ts): zod's generic machinery costs ≈6 µs a record, these straight-line checks a fraction of it.
// Contract: fastX(record) returns exactly what X.parse(record) returns (defaults, transforms, an absent key
// stays absent and a null stays null, loose objects keep their unknown keys, strict ones drop them), or
// undefined when the record is not plainly valid: the caller then runs zod, which decides and names the
// reason. test/platform/reporter/fast-parse.test.ts proves it on the emulator's records and on a mutation sweep.
import {
  type ClientExtendedInfo,
  DATE_TIME_PATTERN,
  type ExtendedMessage,
  type Message,
  type MessageStatus,
  type SessionInfo,
} from './schemas.js';

type Fields = Record<string, unknown>;

/** What a check returns for a value its schema rejects (undefined and null are values some fields keep). */
const BAD: unique symbol = Symbol('rejected');
type Checked<T> = T | typeof BAD;
type Check<T> = (value: unknown) => Checked<T>;

/** zod's object test: any non-null object but an array. */
const isFields = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);

// Values: each check returns what its zod schema makes of the value, or BAD.
const text: Check<string> = (v) => (typeof v === 'string' ? v : BAD);
const nonEmptyText: Check<string> = (v) => (typeof v === 'string' && v.length > 0 ? v : BAD);
/** z.number(): finite numbers only. */
const finite: Check<number> = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : BAD);
const nonNegative: Check<number> = (v) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : BAD);
/** z.number().int(): safe integers only. */
const int: Check<number> = (v) => (Number.isSafeInteger(v) ? (v as number) : BAD);
const nonNegativeInt: Check<number> = (v) =>
  Number.isSafeInteger(v) && (v as number) >= 0 ? (v as number) : BAD;
/** z.boolean().default(false). */
const booleanOrFalse: Check<boolean> = (v) => (v === undefined ? false : typeof v === 'boolean' ? v : BAD);
const boolean: Check<boolean> = (v) => (typeof v === 'boolean' ? v : BAD);
/** schemas.ts `deliveryStatus`: any non-empty text (a status added later is kept as given). */
const status: Check<string> = nonEmptyText;

/** schemas.ts `dateTime`: the same pattern, then Date.parse to epoch ms. */
const epochMs: Check<number> = (v) => {
  if (typeof v !== 'string' || !DATE_TIME_PATTERN.test(v)) return BAD;
  const t = Date.parse(v);
  return Number.isNaN(t) ? BAD : t;
};

/** schemas.ts `id`: a non-empty string or a number of at most 2^53 - 1 in size, as a string. */
const id: Check<string> = (v) =>
  typeof v === 'string'
    ? v.length > 0
      ? v
      : BAD
    : typeof v === 'number' && Math.abs(v) <= Number.MAX_SAFE_INTEGER
      ? String(v)
      : BAD;

/** `.optional()`: undefined passes as it is. */
const optional =
  <T>(check: Check<T>): Check<T | undefined> =>
  (v) =>
    v === undefined ? undefined : check(v);
/** `.nullish()`: undefined and null pass as they are. */
const nullish =
  <T>(check: Check<T>): Check<T | null | undefined> =>
  (v) =>
    v === undefined || v === null ? v : check(v);

const nullishText = nullish(text);
const nullishInt = nullish(int);

/** z.array(item): a new array of the items' values. */
const arrayOf =
  <T>(item: Check<T>): Check<T[]> =>
  (v) => {
    if (!Array.isArray(v)) return BAD;
    const out = new Array<T>(v.length);
    for (let i = 0; i < v.length; i++) {
      const x = item(v[i]);
      if (x === BAD) return BAD;
      out[i] = x;
    }
    return out;
  };

// Objects: `put` sets a field zod always outputs, `putOptional` one whose absent key stays absent (a present
// undefined stays too); both answer false on BAD, so a builder is one && chain in the schema's key order.
function put(out: Fields, key: string, value: unknown): boolean {
  if (value === BAD) return false;
  out[key] = value;
  return true;
}

function putOptional(out: Fields, input: Fields, key: string, value: unknown): boolean {
  if (value === BAD) return false;
  if (value !== undefined || key in input) out[key] = value;
  return true;
}

/** `.loose()`: the keys the shape does not name are copied as they are (all but `__proto__`, as zod does). */
function withUnknownKeys(out: Fields, input: Fields, known: ReadonlySet<string>): Fields {
  for (const key in input) if (!known.has(key) && key !== '__proto__') out[key] = input[key];
  return out;
}

/** sessionData's z.record(z.string(), string | number | boolean → String); anything unusual goes to zod. */
const sessionData: Check<Record<string, string>> = (v) => {
  if (!isFields(v)) return BAD;
  const proto = Object.getPrototypeOf(v);
  if ((proto !== Object.prototype && proto !== null) || Object.getOwnPropertySymbols(v).length > 0)
    return BAD;
  const out: Record<string, string> = {};
  for (const key of Object.keys(v)) {
    if (key === '__proto__') return BAD;
    const value = v[key];
    if (typeof value === 'string') out[key] = value;
    else if (typeof value === 'boolean' || Number.isFinite(value)) out[key] = String(value);
    else return BAD;
  }
  return out;
};

const sessionLabel: Check<Fields> = (v) => {
  if (!isFields(v)) return BAD;
  const o: Fields = {};
  return put(o, 'id', int(v.id)) &&
    put(o, 'name', text(v.name)) &&
    putOptional(o, v, 'priority', nullishInt(v.priority))
    ? o
    : BAD;
};

const labelGroup: Check<Fields> = (v) => {
  if (!isFields(v)) return BAD;
  const o: Fields = {};
  return putOptional(o, v, 'id', nullishInt(v.id)) &&
    put(o, 'name', text(v.name)) &&
    putOptional(o, v, 'priority', nullishInt(v.priority))
    ? o
    : BAD;
};
const nullishLabelGroup = nullish(labelGroup);

const messageLabel: Check<Fields> = (v) => {
  if (!isFields(v)) return BAD;
  const o: Fields = {};
  return put(o, 'id', int(v.id)) &&
    put(o, 'name', text(v.name)) &&
    putOptional(o, v, 'priority', nullishInt(v.priority)) &&
    putOptional(o, v, 'group', nullishLabelGroup(v.group))
    ? o
    : BAD;
};

const nullishSessionLabels = nullish(arrayOf(sessionLabel));
const nullishMessageLabels = nullish(arrayOf(messageLabel));
const nullishSessionData = nullish(sessionData);

const clientInfo: Check<Fields> = (v) => {
  if (!isFields(v)) return BAD;
  const o: Fields = {};
  return put(o, 'id', id(v.id)) &&
    putOptional(o, v, 'firstName', nullishText(v.firstName)) &&
    putOptional(o, v, 'lastName', nullishText(v.lastName)) &&
    putOptional(o, v, 'username', nullishText(v.username))
    ? o
    : BAD;
};

const OPERATOR_INFO_KEYS = new Set(['id']);
const operatorInfo: Check<Fields> = (v) => {
  if (!isFields(v)) return BAD;
  const o: Fields = {};
  return put(o, 'id', id(v.id)) ? withUnknownKeys(o, v, OPERATOR_INFO_KEYS) : BAD;
};

const NLP_INFO_KEYS = new Set(['nlpClass', 'nlpState', 'confidence']);
const nullishFinite = nullish(finite);
const nlpInfo: Check<Fields> = (v) => {
  if (!isFields(v)) return BAD;
  const o: Fields = {};
  return putOptional(o, v, 'nlpClass', nullishText(v.nlpClass)) &&
    putOptional(o, v, 'nlpState', nullishText(v.nlpState)) &&
    putOptional(o, v, 'confidence', nullishFinite(v.confidence))
    ? withUnknownKeys(o, v, NLP_INFO_KEYS)
    : BAD;
};

const REPLY_KEYS = new Set(['type']);
const optionalText = optional(text);
const reply: Check<Fields> = (v) => {
  if (!isFields(v)) return BAD;
  const o: Fields = {};
  return putOptional(o, v, 'type', optionalText(v.type)) ? withUnknownKeys(o, v, REPLY_KEYS) : BAD;
};

const RESPONSE_DATA_KEYS = new Set(['replies']);
const nullishReplies = nullish(arrayOf(reply));
const responseData: Check<Fields> = (v) => {
  if (!isFields(v)) return BAD;
  const o: Fields = {};
  return putOptional(o, v, 'replies', nullishReplies(v.replies))
    ? withUnknownKeys(o, v, RESPONSE_DATA_KEYS)
    : BAD;
};

const nullishOperatorInfo = nullish(operatorInfo);
const nullishNlpInfo = nullish(nlpInfo);
const nullishResponseData = nullish(responseData);

/** schemas.ts `messageCommon`, in its key order. */
function putMessageCommon(o: Fields, r: Fields): boolean {
  return (
    put(o, 'timestamp', epochMs(r.timestamp)) &&
    put(o, 'questionId', nonEmptyText(r.questionId)) &&
    put(o, 'isLivechat', booleanOrFalse(r.isLivechat)) &&
    putOptional(o, r, 'question', nullishText(r.question)) &&
    putOptional(o, r, 'textAnswer', nullishText(r.textAnswer)) &&
    putOptional(o, r, 'event', nullishText(r.event)) &&
    putOptional(o, r, 'operatorInfo', nullishOperatorInfo(r.operatorInfo)) &&
    putOptional(o, r, 'nlpInfo', nullishNlpInfo(r.nlpInfo)) &&
    putOptional(o, r, 'responseData', nullishResponseData(r.responseData)) &&
    putOptional(o, r, 'exception', nullishText(r.exception)) &&
    putOptional(o, r, 'processingTime', nullishInt(r.processingTime)) &&
    putOptional(o, r, 'labels', nullishMessageLabels(r.labels)) &&
    putOptional(o, r, 'comment', nullishText(r.comment))
  );
}

/** The session's owner, in the key order that `extendedMessage` and `sessionInfo` share. */
function putSessionOwner(o: Fields, r: Fields): boolean {
  return (
    put(o, 'sessionId', nonEmptyText(r.sessionId)) &&
    put(o, 'projectShortName', text(r.projectShortName)) &&
    put(o, 'channelType', nonEmptyText(r.channelType)) &&
    put(o, 'botId', text(r.botId)) &&
    put(o, 'client', clientInfo(r.client))
  );
}

/** `extendedMessage.parse(record)` (messages/filter), or undefined: then ask zod. */
export function fastExtendedMessage(record: unknown): ExtendedMessage | undefined {
  if (!isFields(record)) return undefined;
  const o: Fields = {};
  return putMessageCommon(o, record) &&
    putSessionOwner(o, record) &&
    put(o, 'sessionStartTime', epochMs(record.sessionStartTime))
    ? (o as ExtendedMessage)
    : undefined;
}

const nullishNonEmptyText = nullish(nonEmptyText);
const nullishStatus = nullish(status);

/** `message.parse(record)` (messages/by-client, by-session), or undefined: then ask zod. */
export function fastMessage(record: unknown): Message | undefined {
  if (!isFields(record)) return undefined;
  const o: Fields = {};
  return putMessageCommon(o, record) &&
    putOptional(o, record, 'sessionId', nullishNonEmptyText(record.sessionId)) &&
    putOptional(o, record, 'status', nullishStatus(record.status))
    ? (o as Message)
    : undefined;
}

/** `messageStatus.parse(record)` (the status reads), or undefined: then ask zod. */
export function fastMessageStatus(record: unknown): MessageStatus | undefined {
  if (!isFields(record)) return undefined;
  const o: Fields = {};
  return put(o, 'questionId', nonEmptyText(record.questionId)) &&
    putOptional(o, record, 'status', nullishStatus(record.status))
    ? (o as MessageStatus)
    : undefined;
}

const nullishNonNegativeInt = nullish(nonNegativeInt);
const nullishNonNegative = nullish(nonNegative);
const nullishBoolean = nullish(boolean);

/** `sessionInfo.parse(record)` (sessions/filter), or undefined: then ask zod. */
export function fastSessionInfo(record: unknown): SessionInfo | undefined {
  if (!isFields(record)) return undefined;
  const r = record;
  const o: Fields = {};
  return putSessionOwner(o, r) &&
    put(o, 'startTime', epochMs(r.startTime)) &&
    put(o, 'isLivechat', booleanOrFalse(r.isLivechat)) &&
    putOptional(o, r, 'firstQuestion', nullishText(r.firstQuestion)) &&
    putOptional(o, r, 'lastQuestion', nullishText(r.lastQuestion)) &&
    putOptional(o, r, 'questionCount', nullishNonNegativeInt(r.questionCount)) &&
    putOptional(o, r, 'duration', nullishNonNegative(r.duration)) &&
    putOptional(o, r, 'callTaskId', nullishInt(r.callTaskId)) &&
    putOptional(o, r, 'isCallIncoming', nullishBoolean(r.isCallIncoming)) &&
    putOptional(o, r, 'sessionResult', nullishText(r.sessionResult)) &&
    putOptional(o, r, 'sessionData', nullishSessionData(r.sessionData)) &&
    putOptional(o, r, 'labels', nullishSessionLabels(r.labels))
    ? (o as SessionInfo)
    : undefined;
}

const nullishEpochMs = nullish(epochMs);

/** `clientExtendedInfo.parse(record)` (clients/filter), or undefined: then ask zod. */
export function fastClientExtendedInfo(record: unknown): ClientExtendedInfo | undefined {
  if (!isFields(record)) return undefined;
  const r = record;
  const o: Fields = {};
  return put(o, 'id', id(r.id)) &&
    putOptional(o, r, 'firstName', nullishText(r.firstName)) &&
    putOptional(o, r, 'lastName', nullishText(r.lastName)) &&
    putOptional(o, r, 'username', nullishText(r.username)) &&
    putOptional(o, r, 'projectShortName', nullishText(r.projectShortName)) &&
    putOptional(o, r, 'channelType', nullishText(r.channelType)) &&
    putOptional(o, r, 'botId', nullishText(r.botId)) &&
    putOptional(o, r, 'lastSessionId', nullishText(r.lastSessionId)) &&
    putOptional(o, r, 'joinDate', nullishEpochMs(r.joinDate)) &&
    putOptional(o, r, 'lastVisitDate', nullishEpochMs(r.lastVisitDate)) &&
    put(o, 'isBlocked', booleanOrFalse(r.isBlocked)) &&
    putOptional(o, r, 'blockReason', nullishText(r.blockReason)) &&
    putOptional(o, r, 'blockedBy', nullishInt(r.blockedBy)) &&
    putOptional(o, r, 'blockDate', nullishEpochMs(r.blockDate))
    ? (o as ClientExtendedInfo)
    : undefined;
}
