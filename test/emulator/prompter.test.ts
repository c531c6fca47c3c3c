// The emulated Prompter API: POST /chatapi/webhook/prompter_api/{token} answers {questionId}; the answer
// options (one payload object) go to the channel's Prompter webhook, ranked by confidence, at most 5, only
// above the threshold (possibly none), resent after failures; faults and errors on its path.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defaultChatApiToken } from '../../src/emulator/chatapi/channels.js';
import { prompterTruth, prompterWebhookAttempts } from '../../src/emulator/chatapi/chat-truth.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.js';
import { TEST_NOW } from '../helpers/emulator-client.js';

interface Receiver {
  url: string;
  bodies: any[];
  server: Server;
}

async function startReceiver(answer: (n: number) => number): Promise<Receiver> {
  const bodies: any[] = [];
  const server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    res.writeHead(answer(bodies.length)).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, bodies, server };
}

const TOKEN = defaultChatApiToken('shop-bot');
const FLAKY = `flakypr1:${'d'.repeat(40)}`;
let running: RunningEmulator;
let ok: Receiver;
let flaky: Receiver;

beforeAll(async () => {
  ok = await startReceiver(() => 200);
  flaky = await startReceiver((n) => (n <= 2 ? 503 : 204));
  running = await startEmulator({
    sessions: 100,
    days: 1,
    now: TEST_NOW,
    chatApiChannels: [
      { token: TOKEN, prompterWebhookUrl: ok.url },
      { token: FLAKY, prompterWebhookUrl: flaky.url },
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
  for (const receiver of [ok, flaky]) {
    receiver.server.closeAllConnections();
    await new Promise<void>((resolve) => receiver.server.close(() => resolve()));
  }
});

async function ask(
  token: string,
  body: unknown,
  prefix = '',
): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(`${running.url}${prefix}/chatapi/webhook/prompter_api/${token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text === '' ? undefined : JSON.parse(text),
    headers: response.headers,
  };
}

const question = (text: string, chatId = 'chat-1') => ({
  clientInfo: { id: 'agent-client-1', firstName: 'Анна' },
  chatId,
  text,
});

describe('the Prompter API', () => {
  it('answers {questionId} and delivers the ranked options above the threshold, at most 5, as the truth says', async () => {
    const texts = ['Где мой заказ?', 'Оплата заказа картой и доставка', 'Привет', 'q3', '🤔🤔🤔'];
    const ids: string[] = [];
    for (const text of texts) {
      const r = await ask(TOKEN, question(text, `chat-${ids.length}`));
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(['questionId']);
      ids.push(r.body.questionId);
    }
    await running.emulator.chatApi.prompter.webhooks.idle();
    const truth = prompterTruth(running.emulator, TOKEN);
    expect(truth.map((t) => [t.questionId, t.text])).toEqual(ids.map((id, n) => [id, texts[n]]));
    // one object per question (not an array), exactly the payload of the truth
    expect(ok.bodies).toEqual(
      truth.map((t) => ({
        clientInfo: { id: 'agent-client-1' },
        chatId: t.chatId,
        questionId: t.questionId,
        answerOptions: t.options,
      })),
    );
    for (const body of ok.bodies) {
      const confidences = body.answerOptions.map((o: any) => o.intent.confidence);
      expect(confidences.length).toBeLessThanOrEqual(5);
      expect([...confidences].sort((a: number, b: number) => b - a)).toEqual(confidences);
      for (const c of confidences) expect(c).toBeGreaterThanOrEqual(0.3);
      for (const option of body.answerOptions) {
        expect(Number.isInteger(option.intent.id)).toBe(true);
        expect(['plain', 'html', 'markdown']).toContain(option.messages[0].markup);
      }
    }
    // the vocabulary's phrases: the intent they belong to comes first
    expect(ok.bodies[0].answerOptions[0].intent.path).toBe('/Delivery/Status');
    expect(ok.bodies[2].answerOptions[0].intent.path).toBe('/Greeting');
    // a text the classifier does not believe in: no option passed the threshold
    expect(ok.bodies[3].answerOptions).toEqual([]);
    expect(prompterWebhookAttempts(running.emulator, TOKEN).map((a) => a.outcome)).toEqual(
      Array(texts.length).fill(200),
    );
  });

  it('sends a failed delivery again: 3 deliveries of one questionId for 2 failures', async () => {
    const r = await ask(FLAKY, question('Как оплатить?'));
    await running.emulator.chatApi.prompter.webhooks.idle();
    expect(flaky.bodies.map((b) => b.questionId)).toEqual(Array(3).fill(r.body.questionId));
    expect(prompterWebhookAttempts(running.emulator, FLAKY).map((a) => [a.attempt, a.outcome])).toEqual([
      [1, 503],
      [2, 503],
      [3, 204],
    ]);
  });

  it('answers under /chatadapter too; 401 for an unknown token, 400 for a bad body, neither asked', async () => {
    const before = running.emulator.chatApi.prompter.asked.length;
    expect((await ask(TOKEN, question('hi'), '/chatadapter')).status).toBe(200);
    const unknown = await ask(`unknown1:${'e'.repeat(40)}`, question('hi'));
    expect(unknown.status).toBe(401);
    expect(Object.keys(unknown.body).sort()).toEqual(['error', 'message']);
    const noText = await ask(TOKEN, { clientInfo: { id: 'x' }, chatId: 'c' });
    expect(noText.status).toBe(400);
    expect(noText.body.message).toMatch(/text/);
    expect((await ask(TOKEN, { chatId: 'c', text: 'hi' })).status).toBe(400);
    expect(running.emulator.chatApi.prompter.asked.length).toBe(before + 1);
  });

  it('takes the scripted faults on its path (chatapi/webhook/prompter_api): nothing asked when one fires', async () => {
    running.emulator.faults.script({ type: 'status500', path: 'chatapi/webhook/prompter_api' });
    running.emulator.faults.script({
      type: 'status429',
      path: 'chatapi/webhook/prompter_api',
      retryAfter: 2,
    });
    const before = running.emulator.chatApi.prompter.asked.length;
    const first = await ask(TOKEN, question('hi'));
    const second = await ask(TOKEN, question('hi'));
    expect([first.status, second.status].sort()).toEqual([429, 500]);
    expect((first.status === 429 ? first : second).headers.get('retry-after')).toBe('2');
    expect(running.emulator.chatApi.prompter.asked.length).toBe(before);
    expect((await ask(TOKEN, question('hi'))).status).toBe(200);
  });
});
