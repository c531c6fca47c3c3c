// The emulator's Chat API: the synchronous requests, history, state, statuses and the not-read count, the
// 401 of an unknown token, and the dialogue seen afterwards by the Reporter as a `chatapi` session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHATAPI_TOKEN_FORM, defaultChatApiToken } from '../../src/emulator/chatapi/channels.js';
import { chatStatusSteps } from '../../src/emulator/chatapi/chat-statuses.js';
import { chatClientsSeen, chatClientTruth, chatEventsTruth } from '../../src/emulator/chatapi/chat-truth.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.js';
import { groundTruth } from '../../src/emulator/truth.js';
import { chatTimeMs, makeChatCaller } from '../helpers/chatapi-client.js';
import { makeCaller, pageAll, range, TEST_NOW } from '../helpers/emulator-client.js';

let running: RunningEmulator;
let call: ReturnType<typeof makeCaller>;
let chat: ReturnType<typeof makeChatCaller>;
const TOKEN = defaultChatApiToken('shop-bot');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

beforeAll(async () => {
  running = await startEmulator({ sessions: 1500, days: 3, now: TEST_NOW });
  call = makeCaller(running.url);
  chat = makeChatCaller(running.url, TOKEN);
});
afterAll(() => running.close());

const advance = async (ms: number) => {
  const r = await fetch(`${running.url}/__emulator/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advanceMs: ms }),
  });
  expect(r.status).toBe(200);
};

describe('Chat API channels', () => {
  it('has a default token of the platform form; an unknown token answers 401 {error, message}', async () => {
    expect(TOKEN).toMatch(CHATAPI_TOKEN_FORM);
    const r = await chat('', { body: { clientId: 'x', query: 'hi' }, token: `zzzzzzzz:${'0'.repeat(40)}` });
    expect(r.status).toBe(401);
    expect(typeof r.body.error).toBe('string');
    expect(typeof r.body.message).toBe('string');
    const history = await chat('client/x/history', { token: 'nope' });
    expect(history.status).toBe(401);
  });

  it('answers under /chatadapter/chatapi/{token} too', async () => {
    const adapter = makeChatCaller(running.url, TOKEN, '/chatadapter');
    const r = await adapter('client/nobody/state');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
  });
});

describe('synchronous requests', () => {
  it('POST answers the payload: the bot classified the query, a new session started, cid echoed', async () => {
    const r = await chat('', { body: { clientId: 'alice-1', query: 'Где мой заказ?', cid: 'conn-1' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      token: TOKEN,
      clientId: 'alice-1',
      cid: 'conn-1',
      blockForm: false,
      data: {
        nlpClass: '/Delivery/Status',
        answer: 'Ваш заказ в пути, курьер свяжется с вами за час до доставки.',
        newSessionStarted: true,
        endSession: false,
        debugData: [],
      },
    });
    expect(r.body.data.confidence).toBeGreaterThan(0.5);
    expect(r.body.data.replies[0]).toMatchObject({ type: 'text', state: '/Delivery/Status' });
    expect(chatTimeMs(r.body.timestamp)).toBe(TEST_NOW);
    const again = await chat('', { body: { clientId: 'alice-1', query: 'ыыыы' } });
    expect(again.body.data).toMatchObject({ nlpClass: '/CatchAll', newSessionStarted: false });
    expect(again.body.questionId).not.toBe(r.body.questionId);
  });

  it('a client silent for 30 minutes starts a new session', async () => {
    const first = await chat('', { body: { clientId: 'idle-1', query: 'Привет' } });
    expect(first.body.data.newSessionStarted).toBe(true);
    await advance(29 * 60_000);
    expect((await chat('', { body: { clientId: 'idle-1', query: 'hi' } })).body.data.newSessionStarted).toBe(
      false,
    );
    await advance(30 * 60_000);
    expect((await chat('', { body: { clientId: 'idle-1', query: 'hi' } })).body.data.newSessionStarted).toBe(
      true,
    );
    expect(chatClientTruth(running.emulator, TOKEN, 'idle-1')!.sessionIds).toHaveLength(2);
  });

  it('GET answers clientId, query, event with questionId, timestamp and data; an event gets the start answer', async () => {
    const r = await chat(`?clientId=bob-1&event=${encodeURIComponent('/start')}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ clientId: 'bob-1', query: null, event: '/start' });
    expect(typeof r.body.questionId).toBe('string');
    expect(r.body.data.answer).toMatch(/Здравствуйте/);
    const q = await chat('?clientId=bob-1&query=hi');
    expect(q.body).toMatchObject({ clientId: 'bob-1', query: 'hi', event: null });
    expect(q.body.data.nlpClass).toBe('/Greeting');
  });

  it('refuses a request without clientId, with both or neither of query and event', async () => {
    for (const body of [
      { query: 'hi' },
      { clientId: 'c', query: 'hi', event: '/start' },
      { clientId: 'c' },
    ]) {
      const r = await chat('', { body });
      expect(r.status).toBe(400);
      expect(typeof r.body.message).toBe('string');
    }
    expect((await chat('?clientId=c')).status).toBe(400);
  });
});

describe('the Reporter sees Chat API dialogues', () => {
  it('as a chatapi session with its messages in sessions/filter and messages/filter', async () => {
    const client = 'reporter-seen-1';
    const asked = ['Привет', 'Как оплатить?', 'Спасибо!'];
    const ids: string[] = [];
    for (const query of asked)
      ids.push((await chat('', { body: { clientId: client, query } })).body.questionId);
    const window = { filters: [range('SESSION_START_TIME', TEST_NOW - HOUR, TEST_NOW + HOUR)] };
    const sessions = await pageAll(call, 'sessions/filter', 'sessions', window);
    const mine = sessions.rows.filter((s) => s.client.id === client);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ channelType: 'chatapi', questionCount: 3, firstQuestion: 'Привет' });
    const messages = await pageAll(call, 'messages/filter', 'messages', {
      filters: [range('MESSAGE_TIME', TEST_NOW - HOUR, TEST_NOW + HOUR)],
    });
    const said = messages.rows.filter((m) => m.client.id === client);
    expect(said.map((m) => m.questionId).sort()).toEqual([...ids].sort());
    expect(said.every((m) => m.channelType === 'chatapi' && m.sessionId === mine[0].sessionId)).toBe(true);
    expect(said.map((m) => m.question).sort()).toEqual([...asked].sort());
    const truth = chatClientTruth(running.emulator, TOKEN, client)!;
    expect(truth.sessionIds).toEqual([mine[0].sessionId]);
    // the Reporter's ground truth and messages/by-client have them too
    const reporterTruth = groundTruth(running.emulator.project('shop-bot'), {
      from: TEST_NOW - HOUR,
      now: running.emulator.now(),
    });
    for (const id of ids) expect(reporterTruth.messageIds).toContain(id);
    expect(reporterTruth.sessionIds).toContain(mine[0].sessionId);
    const byClient = await call(`messages/by-client?clientId=${client}&botId=${mine[0].botId}&size=100`);
    expect(byClient.status).toBe(200);
    expect(byClient.body.messages.map((m: any) => m.questionId).sort()).toEqual([...ids].sort());
  });

  it('the generated world has agent replies: operator history messages of transferred chatapi dialogs', async () => {
    const p = running.emulator.project('shop-bot');
    const agentReplies = chatEventsTruth(running.emulator, TOKEN, { all: false });
    expect(agentReplies.length).toBeGreaterThan(0);
    const reply = agentReplies[0]!;
    const at = p.messageIndex(reply.questionId)!;
    expect(p.messageFacts(at.i, at.k).isLivechat).toBe(true);
    const history = await chat(`client/${encodeURIComponent(reply.clientId)}/history?size=100`);
    expect(history.body.messages).toContainEqual(
      expect.objectContaining({ questionId: reply.questionId, type: 'operator' }),
    );
  });

  it('the generated world has chatapi clients whose history the Chat API answers', async () => {
    const seen = chatClientsSeen(running.emulator, TOKEN, { from: TEST_NOW - DAY, to: TEST_NOW });
    expect(seen.length).toBeGreaterThan(5);
    // the Reporter's chatapi messages of the window are exactly the client questions of those histories
    const messages = await pageAll(call, 'messages/filter', 'messages', {
      filters: [
        range('MESSAGE_TIME', TEST_NOW - DAY, TEST_NOW - 1),
        { key: 'CHANNEL_TYPE', type: 'CHECKBOX', options: ['chatapi'] },
      ],
    });
    const reporterIds = new Set(messages.rows.map((m) => m.questionId));
    expect(new Set(messages.rows.map((m) => m.client.id))).toEqual(new Set(seen));
    const historyIds = new Set<string>();
    let paged = 0;
    for (const clientId of seen) {
      for (let page = 0; ; page++) {
        const r = await chat(
          `client/${encodeURIComponent(clientId)}/history?startTime=${new Date(TEST_NOW - DAY).toISOString()}&endTime=${new Date(TEST_NOW).toISOString()}&size=100&page=${page}`,
        );
        expect(r.status).toBe(200);
        for (const m of r.body.messages) if (m.type === 'client') historyIds.add(m.questionId);
        if ((page + 1) * 100 >= r.body.paging.totalCount) break;
        paged++;
      }
    }
    expect(paged).toBeGreaterThan(0);
    expect(historyIds).toEqual(reporterIds);
  });
});

describe('the truth over HTTP', () => {
  it('GET /__emulator/chatapi/truth lists the clients seen in the window with their histories', async () => {
    const from = new Date(TEST_NOW - DAY).toISOString();
    const to = new Date(TEST_NOW).toISOString();
    const r = await fetch(`${running.url}/__emulator/chatapi/truth?token=${TOKEN}&from=${from}&to=${to}`);
    const body = (await r.json()) as any;
    expect(body.token).toBe(TOKEN);
    expect(body.clients.map((c: any) => c.clientId)).toEqual(
      chatClientsSeen(running.emulator, TOKEN, { from: TEST_NOW - DAY, to: TEST_NOW }),
    );
    const one = body.clients[0];
    const history = await chat(`client/${encodeURIComponent(one.clientId)}/history?size=100`);
    expect(one.messages.slice(0, 100).map((m: any) => [m.questionId, m.type, m.status])).toEqual(
      history.body.messages.map((m: any) => [m.questionId, m.type, m.status]),
    );
  });
});

describe('history', () => {
  it('pages oldest first, size default 20 capped at 100, [startTime, endTime)', async () => {
    const client = 'pager-1';
    const t0 = running.emulator.now();
    for (let n = 0; n < 26; n++) await chat('', { body: { clientId: client, query: `вопрос ${n}` } });
    const first = await chat(`client/${client}/history`);
    expect(first.body.paging).toEqual({ page: 0, size: 20, totalCount: 52 });
    expect(first.body.messages).toHaveLength(20);
    const second = await chat(`client/${client}/history?page=2&size=20`);
    expect(second.body.messages).toHaveLength(12);
    const capped = await chat(`client/${client}/history?size=500`);
    expect(capped.body.paging.size).toBe(100);
    expect(capped.body.messages).toHaveLength(52);
    const types = capped.body.messages.map((m: any) => m.type);
    expect(types.filter((t: string) => t === 'client')).toHaveLength(26);
    expect(types.filter((t: string) => t === 'bot')).toHaveLength(26);
    expect(capped.body.messages[0]).toMatchObject({ type: 'client', query: 'вопрос 0' });
    const times = capped.body.messages.map((m: any) => chatTimeMs(m.timestamp));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    const none = await chat(
      `client/${client}/history?startTime=${new Date(t0 + 1).toISOString()}&endTime=${new Date(t0 + HOUR).toISOString()}`,
    );
    expect(none.body.paging.totalCount).toBe(0);
    const at = await chat(
      `client/${client}/history?startTime=${new Date(t0).toISOString()}&endTime=${new Date(t0 + 1).toISOString()}`,
    );
    expect(at.body.paging.totalCount).toBe(52);
  });
});

describe('state', () => {
  it('stores any object as is and answers it unchanged; {} when none', async () => {
    expect((await chat('client/st-1/state')).body).toEqual({});
    const state = { step: 3, cart: [{ sku: 'A-1', qty: 2 }], note: 'привет 👋', nested: { ok: true } };
    const saved = await chat('client/st-1/state', { body: state });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({});
    expect((await chat('client/st-1/state')).body).toEqual(state);
    expect((await chat('client/st-1/state', { body: [1, 2] })).status).toBe(400);
  });
});

describe('message statuses', () => {
  it('move SENT → DELIVERED → READ by the clock, as the timeline of each message says', async () => {
    const seen = chatClientsSeen(running.emulator, TOKEN, { from: TEST_NOW - DAY, to: TEST_NOW });
    const p = running.emulator.project('shop-bot');
    let checked = 0;
    const kinds = new Set<string>();
    for (const clientId of seen.slice(0, 15)) {
      const r = await chat(`client/${encodeURIComponent(clientId)}/history?size=100`);
      for (const m of r.body.messages) {
        if (m.type === 'client') continue;
        const at = p.messageIndex(m.questionId)!;
        const now = running.emulator.now();
        const expected = chatStatusSteps(p, at.i, at.k)
          .filter((s) => s.at <= now)
          .at(-1)?.status;
        expect(m.status).toBe(expected);
        kinds.add(m.status);
        const single = await chat(`client/${encodeURIComponent(clientId)}/message/${m.questionId}/status`);
        expect(single.body).toEqual({ questionId: m.questionId, status: expected });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(kinds.has('READ')).toBe(true);
    expect(kinds.has('DELIVERED') || kinds.has('NOT_SENT')).toBe(true);
  });

  it('a new answer is SENT, DELIVERED within a minute; the not-read count follows', async () => {
    const r = await chat('', { body: { clientId: 'st-move', query: 'Режим работы' } });
    const id = r.body.questionId;
    const status = async () => (await chat(`client/st-move/message/${id}/status`)).body.status;
    const p = running.emulator.project('shop-bot');
    const at = p.messageIndex(id)!;
    const steps = chatStatusSteps(p, at.i, at.k);
    expect(await status()).toBe(steps[0]!.status);
    expect((await chat('client/st-move/message-not-read-count')).body).toEqual({ count: 1 });
    if (steps[0]!.status === 'SENT') {
      await advance(61_000);
      expect(await status()).toBe('DELIVERED');
    }
  });

  it('set one by POST, several by message-statuses; one bad element rejects the whole request', async () => {
    const client = 'st-set';
    const ids: string[] = [];
    for (const query of ['Привет', 'Адрес магазина', 'Спасибо!'])
      ids.push((await chat('', { body: { clientId: client, query } })).body.questionId);
    const set = await chat(`client/${client}/message/${ids[0]}/status`, { body: { status: 'READ' } });
    expect(set.body).toEqual({ questionId: ids[0], status: 'READ' });
    expect((await chat(`client/${client}/message/${ids[0]}/status`)).body.status).toBe('READ');
    expect((await chat(`client/${client}/message-not-read-count`)).body).toEqual({ count: 2 });
    const wrong = await chat(`client/${client}/message/${ids[0]}/status`, { body: { status: 'SEEN' } });
    expect(wrong.status).toBe(400);
    expect((await chat(`client/${client}/message/00000000-0000-0000-0000-000000000000/status`)).status).toBe(
      404,
    );
    const rejected = await chat(`client/${client}/message-statuses`, {
      body: {
        statuses: [
          { questionId: ids[1], status: 'READ' },
          { questionId: ids[2], status: 'BOGUS' },
        ],
      },
    });
    expect(rejected.status).toBe(400);
    expect((await chat(`client/${client}/message-not-read-count`)).body).toEqual({ count: 2 });
    const bulk = await chat(`client/${client}/message-statuses`, {
      body: {
        statuses: [
          { questionId: ids[1], status: 'READ' },
          { questionId: ids[2], status: 'READ' },
        ],
      },
    });
    expect(bulk.body).toEqual({ updated: 2 });
    expect((await chat(`client/${client}/message-not-read-count`)).body).toEqual({ count: 0 });
    const truth = chatClientTruth(running.emulator, TOKEN, client)!;
    expect(truth.notRead).toBe(0);
    expect(truth.messages.filter((m) => m.type === 'bot').map((m) => m.status)).toEqual([
      'READ',
      'READ',
      'READ',
    ]);
  });
});
