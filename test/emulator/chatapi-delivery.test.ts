// Asynchronous Chat API requests delivered to the channel's webhook (an array of one payload; resent up to
// 3 times after a non-2xx answer or 3 s without one), and the scripted faults on Chat API routes.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defaultChatApiToken } from '../../src/emulator/chatapi/channels.js';
import { webhookAttempts } from '../../src/emulator/chatapi/chat-truth.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.js';
import { chatTimeMs, makeChatCaller } from '../helpers/chatapi-client.js';
import { TEST_NOW } from '../helpers/emulator-client.js';

/** A webhook receiver: answers each delivery with what `answer` says (a status, or 'hang': never). */
interface Receiver {
  url: string;
  bodies: unknown[];
  server: Server;
}

async function startReceiver(answer: (n: number) => number | 'hang'): Promise<Receiver> {
  const bodies: unknown[] = [];
  const server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    const what = answer(bodies.length);
    if (what === 'hang') return;
    res.writeHead(what).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, bodies, server };
}

const FLAKY = `flakyhk1:${'a'.repeat(40)}`;
const HANGING = `hanging1:${'b'.repeat(40)}`;
const NO_HOOK = `nohook01:${'c'.repeat(40)}`;
const TOKEN = defaultChatApiToken('shop-bot');
let running: RunningEmulator;
let flaky: Receiver;
let hanging: Receiver;

beforeAll(async () => {
  flaky = await startReceiver((n) => (n <= 2 ? 500 : 200));
  hanging = await startReceiver(() => 'hang');
  running = await startEmulator({
    sessions: 500,
    days: 2,
    now: TEST_NOW,
    chatApiChannels: [
      { token: TOKEN },
      { token: FLAKY, webhookUrl: flaky.url },
      { token: HANGING, webhookUrl: hanging.url },
      { token: NO_HOOK },
    ],
    chatApiWebhookTimeoutMs: 300,
    chatApiWebhookRetryDelayMs: 20,
  });
});
afterEach(() => {
  running.emulator.faults.assertAllFired();
  running.emulator.faults.clear();
});
afterAll(async () => {
  await running.close();
  for (const receiver of [flaky, hanging]) {
    receiver.server.closeAllConnections();
    await new Promise<void>((resolve) => receiver.server.close(() => resolve()));
  }
});

describe('asynchronous requests', () => {
  it('answer {questionId}; the webhook gets the payload, again after each failure: 3 times for 2 failures', async () => {
    const chat = makeChatCaller(running.url, FLAKY);
    const r = await chat('async', { body: { clientId: 'async-1', query: 'Как оплатить?', cid: 'c-9' } });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['questionId']);
    await running.emulator.chatApi.webhooks.idle();
    expect(flaky.bodies).toHaveLength(3);
    for (const body of flaky.bodies) {
      expect(Array.isArray(body)).toBe(true);
      expect(body).toHaveLength(1);
      const [payload] = body as any[];
      expect(payload).toMatchObject({
        token: FLAKY,
        clientId: 'async-1',
        questionId: r.body.questionId,
        cid: 'c-9',
        blockForm: false,
        data: { nlpClass: '/Payment/Methods', newSessionStarted: true },
      });
      expect(chatTimeMs(payload.timestamp)).toBe(TEST_NOW);
    }
    expect(webhookAttempts(running.emulator, FLAKY).map((a) => [a.attempt, a.outcome])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    // the answer is in the history like a synchronous one
    const history = await chat('client/async-1/history');
    expect(history.body.messages.map((m: any) => [m.type, m.questionId])).toEqual([
      ['client', r.body.questionId],
      ['bot', r.body.questionId],
    ]);
  });

  it('a receiver that never answers gets the first delivery and 3 resends, each given up after the timeout', async () => {
    const chat = makeChatCaller(running.url, HANGING);
    const r = await chat('async', { body: { clientId: 'async-2', event: '/start' } });
    await running.emulator.chatApi.webhooks.idle();
    expect(hanging.bodies.map((b: any) => b[0].questionId)).toEqual(Array(4).fill(r.body.questionId));
    expect(webhookAttempts(running.emulator, HANGING).map((a) => a.outcome)).toEqual(
      Array(4).fill('timeout'),
    );
  });

  it('a channel without a webhook records the delivery as failed', async () => {
    const chat = makeChatCaller(running.url, NO_HOOK);
    const r = await chat('async', { body: { clientId: 'async-3', query: 'hi' } });
    expect(r.status).toBe(200);
    await running.emulator.chatApi.webhooks.idle();
    expect(webhookAttempts(running.emulator, NO_HOOK)).toMatchObject([
      { questionId: r.body.questionId, outcome: 'no-webhook' },
    ]);
  });
});

describe('the webhook set at run time', () => {
  it('POST /__emulator/chatapi/webhook points a channel at a receiver; its next async answer goes there', async () => {
    const receiver = await startReceiver(() => 204);
    try {
      const set = await fetch(`${running.url}/__emulator/chatapi/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: NO_HOOK, url: receiver.url }),
      });
      expect(await set.json()).toEqual({
        token: NO_HOOK,
        webhookUrl: receiver.url,
        prompterWebhookUrl: null,
      });
      const r = await makeChatCaller(running.url, NO_HOOK)('async', {
        body: { clientId: 'async-4', query: 'bye' },
      });
      await running.emulator.chatApi.webhooks.idle();
      expect(receiver.bodies.map((b: any) => b[0].questionId)).toEqual([r.body.questionId]);
    } finally {
      receiver.server.closeAllConnections();
      await new Promise<void>((resolve) => receiver.server.close(() => resolve()));
    }
  });
});

describe('faults on Chat API routes', () => {
  const chat = () => makeChatCaller(running.url, TOKEN);

  it('5xx, then the request goes through', async () => {
    running.emulator.faults.script({ type: 'status503', path: 'chatapi/client' });
    const first = await chat()('client/f-1/state');
    expect(first.status).toBe(503);
    expect((await chat()('client/f-1/state')).status).toBe(200);
  });

  it('429 with Retry-After', async () => {
    running.emulator.faults.script({ type: 'status429', path: 'chatapi/', method: 'POST', retryAfter: 4 });
    const first = await chat()('', { body: { clientId: 'f-2', query: 'hi' } });
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('4');
    expect((await chat()('', { body: { clientId: 'f-2', query: 'hi' } })).status).toBe(200);
  });

  it('a slow answer', async () => {
    running.emulator.faults.script({ type: 'slow', path: 'chatapi/client/f-3/history', delayMs: 400 });
    const started = Date.now();
    const r = await chat()('client/f-3/history');
    expect(r.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(380);
  });
});
