// The fast paths of src/platform/reporter/fast-parse.ts against zod itself, the ground truth of their contract: for
// every input x, fast(x) is undefined or zod accepts x and parses it to a strictly deep-equal value (same
// keys in the same order, absent stays absent). Proved (1) on every record a seeded emulator serves, which
// must all take the fast path, and (2) on a mutation sweep of every field of every record kind.
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { type RunningEmulator, startEmulator } from '../../../src/emulator/server.js';
import {
  fastClientExtendedInfo,
  fastExtendedMessage,
  fastMessage,
  fastMessageStatus,
  fastSessionInfo,
} from '../../../src/platform/reporter/fast-parse.js';
import {
  clientExtendedInfo,
  extendedMessage,
  message,
  messageStatus,
  sessionInfo,
} from '../../../src/platform/reporter/schemas.js';
import { makeCaller, pageAll, TEST_NOW } from '../../helpers/emulator-client.js';

interface Kind {
  schema: z.ZodType;
  fast: (record: unknown) => unknown;
}
const KINDS = {
  sessionInfo: { schema: sessionInfo, fast: fastSessionInfo },
  extendedMessage: { schema: extendedMessage, fast: fastExtendedMessage },
  message: { schema: message, fast: fastMessage },
  messageStatus: { schema: messageStatus, fast: fastMessageStatus },
  clientExtendedInfo: { schema: clientExtendedInfo, fast: fastClientExtendedInfo },
} satisfies Record<string, Kind>;
type KindName = keyof typeof KINDS;

/** The same keys in the same order, all the way down (isDeepStrictEqual ignores the order). */
function sameKeyOrder(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return true;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    isDeepStrictEqual(ka, kb) &&
    ka.every((k) => sameKeyOrder((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

type Outcome = 'same' | 'declined-valid' | 'declined-invalid' | 'VIOLATION';

/** Checks the contract on one input. */
function outcomeOf(kind: Kind, input: unknown): Outcome {
  const fast = kind.fast(input);
  const zod = kind.schema.safeParse(input);
  if (fast === undefined) return zod.success ? 'declined-valid' : 'declined-invalid';
  return zod.success && isDeepStrictEqual(fast, zod.data) && sameKeyOrder(fast, zod.data)
    ? 'same'
    : 'VIOLATION';
}

describe('fast paths on the records a seeded emulator serves', () => {
  let running: RunningEmulator;
  const records: Record<KindName, unknown[]> = {
    sessionInfo: [],
    extendedMessage: [],
    message: [],
    messageStatus: [],
    clientExtendedInfo: [],
  };

  beforeAll(async () => {
    running = await startEmulator({
      sessions: 300,
      days: 3,
      now: TEST_NOW,
      projects: ['shop-bot', 'support-bot'],
      pushbackShare: 0.3,
    });
    const call = makeCaller(running.url);
    for (const project of ['shop-bot', 'support-bot']) {
      const byProject = `&projectShortName=${project}`;
      const sessions = await pageAll(
        call,
        'sessions/filter',
        'sessions',
        {},
        500,
        `&needToReturnSessionLabels=true&needToReturnSessionData=true${byProject}`,
      );
      records.sessionInfo.push(...sessions.rows);
      records.extendedMessage.push(
        ...(await pageAll(call, 'messages/filter', 'messages', {}, 500, byProject)).rows,
      );
      const clients = (await pageAll(call, 'clients/filter', 'clients', {}, 500, byProject)).rows;
      records.clientExtendedInfo.push(...clients);
      // the status reads: by-client for every client, by-session for some sessions
      for (const c of clients) {
        const query = `clientId=${encodeURIComponent(c.id)}&botId=${encodeURIComponent(c.botId)}&size=500`;
        const r = await call(`messages/by-client?${query}${byProject}`);
        if (r.status !== 200) throw new Error(`messages/by-client: ${r.status} ${r.text}`);
        records.message.push(...r.body.messages);
      }
      for (const s of sessions.rows.slice(0, 40)) {
        const r = await call(`messages/by-session?sessionId=${s.sessionId}&size=500${byProject}`);
        if (r.status !== 200) throw new Error(`messages/by-session: ${r.status} ${r.text}`);
        records.message.push(...r.body.messages);
      }
    }
    records.messageStatus.push(...records.message);
  });
  afterAll(async () => {
    await running?.close();
  });

  it('the dataset has the fields worth proving (labels, sessionData, operators, replies, statuses)', () => {
    const count = (kind: KindName, has: (r: any) => boolean) => records[kind].filter(has).length;
    expect(records.sessionInfo.length).toBeGreaterThan(250);
    expect(records.extendedMessage.length).toBeGreaterThan(2000);
    expect(records.message.length).toBeGreaterThan(2000);
    expect(records.clientExtendedInfo.length).toBeGreaterThan(100);
    expect(count('sessionInfo', (r) => r.labels?.length > 0)).toBeGreaterThan(0);
    expect(
      count('sessionInfo', (r) => r.sessionData && Object.keys(r.sessionData).length > 0),
    ).toBeGreaterThan(0);
    expect(count('sessionInfo', (r) => r.callTaskId !== undefined)).toBeGreaterThan(0);
    expect(count('extendedMessage', (r) => r.operatorInfo)).toBeGreaterThan(0);
    expect(count('extendedMessage', (r) => r.labels?.some((l: any) => l.group))).toBeGreaterThan(0);
    expect(count('extendedMessage', (r) => r.responseData?.replies?.length > 0)).toBeGreaterThan(0);
    expect(count('extendedMessage', (r) => r.nlpInfo)).toBeGreaterThan(0);
    expect(count('extendedMessage', (r) => r.comment)).toBeGreaterThan(0);
    expect(count('message', (r) => r.status)).toBeGreaterThan(0);
    expect(count('clientExtendedInfo', (r) => r.joinDate)).toBeGreaterThan(0);
  });

  it.each(Object.keys(KINDS) as KindName[])('every %s record takes the fast path and equals zod', (name) => {
    const outcomes = records[name].map((r) => outcomeOf(KINDS[name], r));
    expect(outcomes.length).toBeGreaterThan(100);
    expect(outcomes.filter((o) => o !== 'same')).toEqual([]);
  });
});

// ---- mutation sweep ----

const client = { id: 'c-1', firstName: 'Ann', lastName: 'Lee', username: 'ann' };
const common = {
  timestamp: '2026-11-01T10:00:05.123Z',
  questionId: 'q-1',
  isLivechat: true,
  question: 'where is my order',
  textAnswer: 'on its way',
  event: 'start',
  operatorInfo: { id: 1001, firstName: 'Olga' },
  nlpInfo: { nlpClass: '/Order', nlpState: '/Order', confidence: 0.5, fromState: '/' },
  responseData: { replies: [{ type: 'switch', text: 'to an agent' }, { text: 'no type' }], answer: 'x' },
  exception: 'boom',
  processingTime: 12,
  labels: [{ id: 1, name: 'vip', priority: 2, group: { id: 3, name: 'topic', priority: 1 } }],
  comment: 'checked',
};
/** A record of each kind with every field the schema names (and a few it does not). */
const FULL: Record<KindName, Record<string, unknown>> = {
  sessionInfo: {
    sessionId: 's-1',
    projectShortName: 'shop-bot',
    channelType: 'telegram',
    botId: 'bot-1',
    client,
    startTime: '2026-11-01T10:00:00.000Z',
    isLivechat: false,
    firstQuestion: 'hi',
    lastQuestion: 'bye',
    questionCount: 3,
    duration: 12.5,
    callTaskId: 7,
    isCallIncoming: true,
    sessionResult: 'DONE',
    sessionData: { plan: 'gold', visits: 3, vip: true },
    labels: [{ id: 1, name: 'vip', priority: 2 }],
    audioFileUrl: 'https://example.org/a.mp3',
  },
  extendedMessage: {
    ...common,
    sessionId: 's-1',
    projectShortName: 'shop-bot',
    channelType: 'telegram',
    botId: 'bot-1',
    client,
    sessionStartTime: '2026-11-01T10:00:00.000Z',
    requestData: { query: 'where' },
  },
  message: { ...common, sessionId: 's-1', status: 'DELIVERED' },
  messageStatus: { questionId: 'q-1', status: 'READ', timestamp: '2026-11-01T10:00:05.123Z' },
  clientExtendedInfo: {
    id: 42,
    firstName: 'Ann',
    lastName: 'Lee',
    username: 'ann',
    projectShortName: 'shop-bot',
    channelType: 'telegram',
    botId: 'bot-1',
    lastSessionId: 's-1',
    joinDate: '2026-10-01T10:00:00.000Z',
    lastVisitDate: '2026-11-01T10:00:00+03:00',
    isBlocked: true,
    blockReason: 'spam',
    blockedBy: 9,
    blockDate: '2026-11-01T11:00:00Z',
    accountId: 100500,
  },
};

/** Values put in place of each field: wrong types, edge numbers, empty strings, date-times good and bad. */
const VALUES: unknown[] = [
  null,
  0,
  -0,
  1,
  -1,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  2 ** 53,
  1e21,
  '',
  'x',
  ' ',
  '0',
  'true',
  true,
  false,
  {},
  [],
  { nested: 1 },
  [1],
  [{}],
  [null],
  new Date(0),
  'SENT',
  'READ',
  'sent',
  // delivery statuses the platform may add later: kept as given by zod and by the fast path alike
  'QUEUED',
  'DELIVERED_TO_DEVICE',
  'switch',
  '2026-11-01T10:00:00.000Z',
  '2026-11-01T10:00:00Z',
  '2026-11-01T10:00Z',
  '2026-11-01T10:00:00.123456789Z',
  '2026-11-01T13:00:00.000+03:00',
  '2026-11-01T13:00:00.000+0300',
  '2026-11-01T05:00:00.5-05:00',
  '2026-11-01T10:00:00.000',
  '2026-11-01 10:00:00.000Z',
  '2026-13-01T10:00:00.000Z',
  '2026-02-30T10:00:00.000Z',
  '2026-11-01T25:00:00.000Z',
  '2026-11-01T10:00:00.0000000000Z',
  '+02026-11-01T10:00:00.000Z',
];

type Path = (string | number)[];
type Node = Record<string | number, unknown>;

/** Every path to a field or array item in `value`, the root's fields first. */
function pathsOf(value: unknown, path: Path = []): Path[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.keys(value).flatMap((k) => {
    const key = Array.isArray(value) ? Number(k) : k;
    return [[...path, key], ...pathsOf((value as Node)[k], [...path, key])];
  });
}

/** Every path to an object (not an array) in `value`, the root included. */
function objectPathsOf(value: unknown): Path[] {
  return [[], ...pathsOf(value)].filter((p) => {
    const v = at(value, p);
    return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
  });
}

const asArray = (node: Node) => node as unknown as unknown[];

function at(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((v, k) => (v as Node)[k], value);
}

/** A deep copy of `base` with `change` applied to the node at `path` (whose parent and key it is given). */
function mutated(base: unknown, path: Path, change: (parent: Node, key: string | number) => void): unknown {
  const copy = structuredClone(base);
  const parent = at(copy, path.slice(0, -1)) as Node;
  change(parent, path[path.length - 1]!);
  return copy;
}

interface Mutation {
  what: string;
  input: unknown;
}

/** The sweep of one base record: each field deleted, set to each value; objects and arrays reshaped. */
function mutationsOf(base: unknown): Mutation[] {
  const out: Mutation[] = [];
  for (const path of pathsOf(base)) {
    const name = path.join('.');
    out.push({ what: `delete ${name}`, input: mutated(base, path, (p, k) => delete p[k]) });
    out.push({ what: `${name} = undefined`, input: mutated(base, path, (p, k) => (p[k] = undefined)) });
    VALUES.forEach((v, i) => {
      out.push({ what: `${name} = VALUES[${i}]`, input: mutated(base, path, (p, k) => (p[k] = v)) });
    });
    if (Array.isArray(at(base, path))) {
      VALUES.forEach((v, i) => {
        out.push({
          what: `${name} += VALUES[${i}]`,
          input: mutated(base, [...path, 0], (p) => asArray(p).push(v)),
        });
      });
      out.push({
        what: `${name} with a hole`,
        input: mutated(base, [...path, 0], (p) => {
          asArray(p).length += 1;
        }),
      });
    }
  }
  for (const path of objectPathsOf(base)) {
    const name = path.join('.') || '(record)';
    const reshape = (what: string, change: (node: Node) => Node) => {
      const copy = structuredClone(base);
      const node = change(at(copy, path) as Node);
      const input = path.length === 0 ? node : copy;
      if (path.length > 0) (at(copy, path.slice(0, -1)) as Node)[path[path.length - 1]!] = node;
      out.push({ what: `${name}: ${what}`, input });
    };
    reshape('unknown key', (n) => Object.assign(n, { unknownKey: 'u' }));
    reshape('unknown object key', (n) => Object.assign(n, { unknownKey: { deep: [1, { x: null }] } }));
    reshape('own __proto__ key', (n) => Object.assign(JSON.parse('{"__proto__": {"polluted": true}}'), n));
    reshape('constructor key', (n) => Object.assign(n, { constructor: 'x' }));
    reshape('null prototype', (n) => Object.assign(Object.create(null), n));
    reshape('a class instance', (n) => Object.assign(new (class Fields {})(), n));
    reshape('numeric key', (n) => Object.assign(n, { 7: 'seven' }));
    reshape('a Map', () => new Map() as unknown as Node);
    reshape('an array', (n) => Object.assign([], n));
  }
  for (const v of VALUES) out.push({ what: `record = ${String(v)}`, input: v });
  out.push({ what: 'record = undefined', input: undefined });
  return out;
}

/** The emulator does not produce these, so they are built by hand: empty optional parts, minimal records. */
const MINIMAL: Record<KindName, Record<string, unknown>> = {
  sessionInfo: {
    sessionId: 's',
    projectShortName: '',
    channelType: 'vk',
    botId: '',
    client: { id: 7 },
    startTime: '2026-11-01T10:00Z',
  },
  extendedMessage: {
    timestamp: '2026-11-01T10:00:00+0100',
    questionId: 'q',
    sessionId: 's',
    projectShortName: 'p',
    channelType: 'c',
    botId: 'b',
    client: { id: 'c' },
    sessionStartTime: '2026-11-01T10:00:00.1Z',
  },
  message: { timestamp: '2026-11-01T10:00:00.000Z', questionId: 'q' },
  messageStatus: { questionId: 'q' },
  clientExtendedInfo: { id: 'c' },
};

describe('fast paths under a mutation sweep', () => {
  it.each(Object.keys(KINDS) as KindName[])('%s: fast(x) is undefined or equals zod.parse(x)', (name) => {
    const kind = KINDS[name];
    const mutations = [...mutationsOf(FULL[name]), ...mutationsOf(MINIMAL[name])];
    const counts: Record<Outcome, number> = {
      same: 0,
      'declined-valid': 0,
      'declined-invalid': 0,
      VIOLATION: 0,
    };
    const violations: string[] = [];
    const declinedValid: string[] = [];
    for (const m of mutations) {
      const outcome = outcomeOf(kind, m.input);
      counts[outcome]++;
      if (outcome === 'VIOLATION') violations.push(m.what);
      if (outcome === 'declined-valid') declinedValid.push(m.what);
    }
    expect(violations).toEqual([]);
    // the fast path declines a record zod accepts only for a sessionData holding its own __proto__ key
    expect(declinedValid.filter((w) => !/sessionData: own __proto__ key/.test(w))).toEqual([]);
    // the sweep is not vacuous: it has both sides of the contract in numbers
    expect(mutations.length).toBeGreaterThan(name === 'messageStatus' ? 150 : 700);
    expect(counts.same).toBeGreaterThan(mutations.length / 10);
    expect(counts['declined-invalid']).toBeGreaterThan(mutations.length / 10);
  });

  it('the base records are valid and take the fast path', () => {
    for (const name of Object.keys(KINDS) as KindName[]) {
      expect(outcomeOf(KINDS[name], FULL[name]), name).toBe('same');
      expect(outcomeOf(KINDS[name], MINIMAL[name]), name).toBe('same');
    }
  });

  it('keeps a delivery status it does not know as given, as zod does (an empty one is refused by both)', () => {
    for (const name of ['message', 'messageStatus'] as const) {
      const record = { ...FULL[name], status: 'QUEUED' };
      expect(KINDS[name].schema.safeParse(record).data, name).toMatchObject({ status: 'QUEUED' });
      expect(outcomeOf(KINDS[name], record), name).toBe('same');
      expect(outcomeOf(KINDS[name], { ...FULL[name], status: '' }), name).toBe('declined-invalid');
    }
  });

  it('takes a numeric client id as its text up to 2^53, and refuses one beyond (JSON.parse rounded it)', () => {
    const kind = KINDS.clientExtendedInfo;
    const safe = { ...FULL.clientExtendedInfo, id: Number.MAX_SAFE_INTEGER };
    expect(kind.schema.safeParse(safe).data).toMatchObject({ id: '9007199254740991' });
    expect(outcomeOf(kind, safe)).toBe('same');
    // 9007199254740993 on the wire: JSON.parse made it ...992, which is no id the platform has
    const rounded = { ...FULL.clientExtendedInfo, id: JSON.parse('9007199254740993') as number };
    expect(kind.schema.safeParse(rounded).success).toBe(false);
    expect(outcomeOf(kind, rounded)).toBe('declined-invalid');
  });

  it('keeps defaults, id strings, epoch ms, present nulls and loose keys as zod does', () => {
    const parsed = fastExtendedMessage({ ...FULL.extendedMessage, isLivechat: undefined, comment: null });
    expect(parsed).toBeDefined();
    expect(parsed?.isLivechat).toBe(false);
    expect(parsed?.comment).toBeNull();
    expect(parsed?.operatorInfo).toEqual({ id: '1001', firstName: 'Olga' });
    expect(parsed?.timestamp).toBe(Date.UTC(2026, 10, 1, 10, 0, 5, 123));
    expect(parsed && 'requestData' in parsed).toBe(false);
    const minimal = fastSessionInfo(MINIMAL.sessionInfo);
    expect(minimal && Object.keys(minimal)).toEqual([
      'sessionId',
      'projectShortName',
      'channelType',
      'botId',
      'client',
      'startTime',
      'isLivechat',
    ]);
    expect(fastSessionInfo(FULL.sessionInfo)?.sessionData).toEqual({
      plan: 'gold',
      visits: '3',
      vip: 'true',
    });
  });
});
