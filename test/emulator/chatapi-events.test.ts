// The Chat API events long poll: it blocks while there is nothing to answer, `ts` (epoch ms, strictly
// after), `all` (else agent replies only), `cid`, at most 250 oldest first, and the cursor that calls
// without `ts` share; agent replies as operatorResponse events and as `operator` messages in the history.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultChatApiToken } from '../../src/emulator/chatapi/channels.js';
import { chatEventsTruth } from '../../src/emulator/chatapi/chat-truth.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.js';
import { chatTimeMs, makeChatCaller } from '../helpers/chatapi-client.js';
import { TEST_NOW } from '../helpers/emulator-client.js';

let running: RunningEmulator;
/** The project's first channel: the generated chatapi traffic is its history. */
let primary: ReturnType<typeof makeChatCaller>;
/** A second channel of the same project: only what the tests say happens on it. */
let chat: ReturnType<typeof makeChatCaller>;
const PRIMARY = defaultChatApiToken('shop-bot');
const SECOND = defaultChatApiToken('shop-bot', 2);
const WAIT_MS = 700;
const HOUR = 3_600_000;

beforeAll(async () => {
  running = await startEmulator({
    sessions: 1500,
    days: 3,
    now: TEST_NOW,
    chatApiChannels: [{ token: PRIMARY }, { token: SECOND, project: 'shop-bot' }],
    chatApiEventsWaitMs: WAIT_MS,
  });
  primary = makeChatCaller(running.url, PRIMARY);
  chat = makeChatCaller(running.url, SECOND);
});
afterAll(() => running.close());

const nowMs = () => running.emulator.now();
const advance = (ms: number) => running.emulator.clock.advance(ms);
const ask = async (clientId: string, query: string, cid?: string) => {
  const r = await chat('', { body: { clientId, query, ...(cid === undefined ? {} : { cid }) } });
  expect(r.status).toBe(200);
  return r.body.questionId as string;
};

describe('events long poll', () => {
  it('with nothing to answer blocks up to the longest wait, then answers an empty list', async () => {
    const started = Date.now();
    const r = await chat(`events?all=true&ts=${nowMs()}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ events: [] });
    expect(Date.now() - started).toBeGreaterThanOrEqual(WAIT_MS - 50);
  });

  it('answers as soon as an event arrives while it waits', async () => {
    advance(1000);
    const ts = nowMs();
    const pending = chat(`events?all=true&ts=${ts}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
    advance(1);
    const id = await ask('waker-1', 'Привет');
    const r = await pending;
    expect(r.body.events.map((e: any) => e.questionId)).toEqual([id]);
    expect(r.body.events[0]).toMatchObject({ type: 'botResponse', clientId: 'waker-1' });
    expect(r.body.events[0].event.answer).toMatch(/Здравствуйте/);
  });

  it('agent replies: operatorResponse events (the only ones without all=true) and operator messages', async () => {
    advance(1000);
    const ts = nowMs();
    advance(1);
    const switched = await ask('needs-agent', 'Позовите оператора');
    advance(1);
    const toAgent = await ask('needs-agent', 'Номер заказа 777');
    // the agent answers within a minute: nothing for the agent-only poll yet
    expect((await chat(`events?ts=${ts}`)).body.events).toEqual([]);
    advance(61_000);
    const agentOnly = await chat(`events?ts=${ts}`);
    expect(agentOnly.body.events).toHaveLength(1);
    expect(agentOnly.body.events[0]).toMatchObject({
      type: 'operatorResponse',
      clientId: 'needs-agent',
      questionId: toAgent,
    });
    expect(agentOnly.body.events[0].event.operator.id).toMatch(/^op-/);
    const all = await chat(`events?all=true&ts=${ts}`);
    expect(all.body.events.map((e: any) => [e.type, e.questionId])).toEqual([
      ['botResponse', switched],
      ['operatorResponse', toAgent],
    ]);
    expect(all.body.events[0].event.replies.map((r: any) => r.type)).toEqual(['text', 'switch']);
    const history = await chat('client/needs-agent/history');
    expect(history.body.messages.map((m: any) => m.type)).toEqual(['client', 'bot', 'client', 'operator']);
    expect(history.body.messages[3].status).toBeDefined();
  });

  it('ts is epoch milliseconds: events strictly after it', async () => {
    advance(1000);
    const id = await ask('ts-1', 'Адрес магазина');
    const at = nowMs();
    advance(1000);
    const atTs = await chat(`events?all=true&ts=${at}`);
    expect(atTs.body.events).toEqual([]);
    const before = await chat(`events?all=true&ts=${at - 1}`);
    expect(before.body.events.map((e: any) => e.questionId)).toEqual([id]);
    expect(chatTimeMs(before.body.events[0].timestamp)).toBe(at);
  });

  it('cid keeps the events of that connection', async () => {
    advance(1000);
    const ts = nowMs();
    advance(1);
    const a = await ask('cid-a', 'Привет', 'conn-a');
    const b = await ask('cid-b', 'Привет', 'conn-b');
    const onlyA = await chat(`events?all=true&ts=${ts}&cid=conn-a`);
    expect(onlyA.body.events.map((e: any) => [e.questionId, e.cid])).toEqual([[a, 'conn-a']]);
    const both = await chat(`events?all=true&ts=${ts}`);
    expect(both.body.events.map((e: any) => e.questionId)).toEqual([a, b]);
  });

  it('at most 250 oldest first; ts = the last timestamp reads on without a gap or a repeat', async () => {
    advance(1000);
    const ts = nowMs();
    const ids: string[] = [];
    for (let n = 0; n < 300; n++) {
      advance(1);
      ids.push(await ask(`bulk-${n % 7}`, `вопрос ${n}`));
    }
    const first = await chat(`events?all=true&ts=${ts}`);
    expect(first.body.events).toHaveLength(250);
    const last = chatTimeMs(first.body.events[249].timestamp);
    const rest = await chat(`events?all=true&ts=${last}`);
    expect([...first.body.events, ...rest.body.events].map((e: any) => e.questionId)).toEqual(ids);
  });

  it('without ts: the events since the previous call, one cursor shared by every caller', async () => {
    // the first call reads everything since the emulator started: drain it
    for (let n = 0; n < 10; n++) if ((await chat('events?all=true')).body.events.length === 0) break;
    advance(1);
    const one = await ask('cursor-1', 'Привет');
    const firstCaller = await chat('events?all=true');
    expect(firstCaller.body.events.map((e: any) => e.questionId)).toEqual([one]);
    // another caller of the same token: the first one took it
    const started = Date.now();
    expect((await chat('events?all=true')).body.events).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(WAIT_MS - 50);
    const two = await ask('cursor-2', 'Спасибо!');
    const three = await ask('cursor-1', 'Пока');
    expect((await chat('events?all=true')).body.events.map((e: any) => e.questionId)).toEqual([two, three]);
  });

  it('the generated world: the primary channel answers the events the truth has', async () => {
    const ts = nowMs() - 2 * HOUR;
    const r = await primary(`events?all=true&ts=${ts}`);
    const truth = chatEventsTruth(running.emulator, PRIMARY, { after: ts });
    expect(truth.length).toBeGreaterThan(0);
    expect(r.body.events.map((e: any) => [e.type, e.questionId, e.clientId])).toEqual(
      truth.slice(0, 250).map((e) => [e.type, e.questionId, e.clientId]),
    );
    expect(r.body.events.map((e: any) => `${e.timestamp}Z`)).toEqual(
      truth.slice(0, 250).map((e) => e.timestamp),
    );
    // the second channel's dialogues are not the primary's
    expect(r.body.events.some((e: any) => e.clientId.startsWith('bulk-'))).toBe(false);
  });
});
