// The webhook receiver in-process against a real warehouse: both payloads stored as sent (compared with the
// payloads, field by field), a resend stored once, the token never stored, bad bodies 400 with the reason
// and kept in etl_rejects, the key refused without a trace, the payload's zone read from the setting, and
// the Chat API emulator's own deliveries received.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultChatApiToken } from '../../../src/emulator/chatapi/channels.js';
import { webhookAttempts } from '../../../src/emulator/chatapi/chat-truth.js';
import { startEmulator } from '../../../src/emulator/server.js';
import { silentLogger } from '../../../src/log.js';
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../../src/sources/webhooks/webhook-receiver.js';
import { openWarehouse } from '../../../src/warehouse/open-warehouse.js';
import type { Warehouse } from '../../../src/warehouse/warehouse.js';

const TOKEN = `AbCd1234:${'c3'.repeat(20)}`;
let dir: string;
let warehouse: Warehouse;
let receiver: WebhookReceiver | undefined;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'webhooks-'));
  warehouse = await openWarehouse({ path: join(dir, 'warehouse.duckdb') });
});
afterEach(async () => {
  await receiver?.close().catch(() => undefined);
  receiver = undefined;
  await warehouse.close();
  rmSync(dir, { recursive: true, force: true });
});

async function start(options: { key?: string; timeZone?: string } = {}): Promise<WebhookReceiver> {
  receiver = await startWebhookReceiver({
    host: '127.0.0.1',
    port: 0,
    dataDir: dir,
    warehouse,
    key: options.key,
    channels: [{ name: 'site', token: TOKEN }],
    timeZone: options.timeZone ?? 'UTC',
    log: silentLogger(),
    loadEveryMs: 100,
  });
  return receiver;
}

async function post(path: string, body: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${receiver!.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

const chatObject = (questionId: string, extra: Record<string, unknown> = {}) => ({
  token: TOKEN,
  clientId: 'client-7',
  questionId,
  data: {
    nlpClass: '/Delivery/Status',
    confidence: 0.87,
    answer: 'Ваш заказ в пути',
    replies: [{ type: 'text', text: 'Ваш заказ в пути', state: '/Delivery' }],
    newSessionStarted: false,
    debugData: [],
    endSession: false,
    orderId: 'A-17',
  },
  timestamp: '2026-11-20T09:30:00.123',
  blockForm: false,
  ...extra,
});

describe('the webhook receiver', () => {
  it('stores each Chat API object once, without the token, and the Prompter options by rank', async () => {
    await start();
    expect(
      await post('/webhooks/chatapi', [chatObject('q-1'), chatObject('q-2', { clientId: 'client-8' })]),
    ).toEqual({
      status: 200,
      body: {},
    });
    // the platform resends q-1 (its delivery timed out on its side)
    expect((await post('/webhooks/chatapi', [chatObject('q-1')])).status).toBe(200);
    const prompter = {
      clientInfo: { id: 'client-9' },
      chatId: 'chat-3',
      questionId: 'p-1',
      answerOptions: [
        {
          messages: [
            { type: 'TEXT', text: 'Курьер приедет завтра', markup: 'plain' },
            { type: 'IMAGE', url: 'https://example.com/map.png' },
          ],
          intent: { id: 17, confidence: 0.91, name: 'Delivery', path: '/Delivery/Status' },
        },
        {
          messages: [{ type: 'TEXT', text: '<b>Оплата</b> картой', markup: 'html' }],
          intent: { id: 4, confidence: 0.42, name: 'Payment', path: '/Payment' },
        },
      ],
    };
    expect((await post('/webhooks/prompter', prompter)).status).toBe(200);
    expect(
      (await post('/webhooks/prompter', { ...prompter, questionId: 'p-2', answerOptions: [] })).status,
    ).toBe(200);
    expect((await post('/webhooks/prompter', prompter)).status).toBe(200);
    await receiver!.loadNow();

    const events = await warehouse.query(
      "select question_id, channel, client_id, strftime(timestamp at time zone 'UTC', '%Y-%m-%dT%H:%M:%S.%g') as t, nlp_class, confidence, answer, block_form, data::varchar as data from chatapi_webhook_events order by question_id",
    );
    expect(events).toEqual([
      {
        question_id: 'q-1',
        channel: 'site',
        client_id: 'client-7',
        t: '2026-11-20T09:30:00.123',
        nlp_class: '/Delivery/Status',
        confidence: 0.87,
        answer: 'Ваш заказ в пути',
        block_form: false,
        data: JSON.stringify(chatObject('q-1').data),
      },
      {
        question_id: 'q-2',
        channel: 'site',
        client_id: 'client-8',
        t: '2026-11-20T09:30:00.123',
        nlp_class: '/Delivery/Status',
        confidence: 0.87,
        answer: 'Ваш заказ в пути',
        block_form: false,
        data: JSON.stringify(chatObject('q-2').data),
      },
    ]);
    const everything = JSON.stringify(await warehouse.query('select * from chatapi_webhook_events'));
    expect(everything).not.toContain(TOKEN);
    expect(
      await warehouse.query(
        'select question_id, chat_id, client_id, options from prompter_answers order by 1',
      ),
    ).toEqual([
      { question_id: 'p-1', chat_id: 'chat-3', client_id: 'client-9', options: 2 },
      { question_id: 'p-2', chat_id: 'chat-3', client_id: 'client-9', options: 0 },
    ]);
    expect(
      await warehouse.query(
        'select question_id, rank, intent_id, intent_name, intent_path, confidence, text, markup, json_array_length(messages) as messages from prompter_answer_options order by rank',
      ),
    ).toEqual([
      {
        question_id: 'p-1',
        rank: 1,
        intent_id: '17',
        intent_name: 'Delivery',
        intent_path: '/Delivery/Status',
        confidence: 0.91,
        text: 'Курьер приедет завтра',
        markup: 'plain',
        messages: 2,
      },
      {
        question_id: 'p-1',
        rank: 2,
        intent_id: '4',
        intent_name: 'Payment',
        intent_path: '/Payment',
        confidence: 0.42,
        text: '<b>Оплата</b> картой',
        markup: 'html',
        messages: 1,
      },
    ]);
  });

  it('answers 400 with the reason to a bad body and keeps it in etl_rejects; 401 without the key keeps nothing', async () => {
    await start({ key: 'a-secret-of-sixteen-chars' });
    const keyed = (path: string) => `${path}?key=a-secret-of-sixteen-chars`;
    const notJson = await post(keyed('/webhooks/chatapi'), '{"questionId": ');
    expect(notJson.status).toBe(400);
    expect(notJson.body.message).toMatch(/not JSON/);
    const wrongShape = await post(keyed('/webhooks/prompter'), {
      clientInfo: {},
      chatId: 'c',
      questionId: 'q',
    });
    expect(wrongShape.status).toBe(400);
    expect(wrongShape.body.message).toMatch(/clientInfo\.id.*answerOptions/s);
    const emptyArray = await post(keyed('/webhooks/chatapi'), []);
    expect(emptyArray.status).toBe(400);
    expect((await post('/webhooks/chatapi', [chatObject('q-9')])).status).toBe(401);
    expect((await post('/webhooks/chatapi?key=wrong', [chatObject('q-9')])).status).toBe(401);
    expect((await post(keyed('/webhooks/chatapi'), [chatObject('q-10')])).status).toBe(200);
    await receiver!.loadNow();
    const rejects = await warehouse.query(
      'select endpoint, raw_json, error from etl_rejects order by rejected_at, endpoint',
    );
    expect(rejects.map((r) => r['endpoint'])).toEqual([
      'webhooks/chatapi',
      'webhooks/prompter',
      'webhooks/chatapi',
    ]);
    expect(rejects[0]).toMatchObject({ raw_json: '{"questionId": ' });
    expect(await warehouse.query('select question_id from chatapi_webhook_events')).toEqual([
      { question_id: 'q-10' },
    ]);
    expect(receiver!.counts).toMatchObject({ accepted: 1, rejected: 3, unauthorized: 2 });
  });

  it('keeps a Prompter intent id beyond 2^53 exact (int64), as the digits it was sent with', async () => {
    await start();
    // written by hand: JSON.stringify of a number would round it before it was sent
    const body = `{"clientInfo":{"id":"client-9"},"chatId":"chat-4","questionId":"p-big","answerOptions":[
      {"messages":[{"type":"TEXT","text":"a"}],"intent":{"id":9007199254740993,"confidence":0.9,"name":"A","path":"/A"}},
      {"messages":[{"type":"TEXT","text":"b"}],"intent":{"id":17,"confidence":0.5,"name":"B","path":"/B"}}]}`;
    expect((await post('/webhooks/prompter', body)).status).toBe(200);
    await receiver!.loadNow();
    expect(
      await warehouse.query(
        "select rank, intent_id from prompter_answer_options where question_id = 'p-big' order by rank",
      ),
    ).toEqual([
      { rank: 1, intent_id: '9007199254740993' },
      { rank: 2, intent_id: '17' },
    ]);
  });

  it('reads a payload time without a zone in REPORTER_CHATAPI_TIMEZONE', async () => {
    await start({ timeZone: 'Europe/Moscow' });
    await post('/webhooks/chatapi', [chatObject('q-1', { timestamp: '2026-11-20T12:30:00' })]);
    await receiver!.loadNow();
    const [row] = await warehouse.query('select epoch_ms(timestamp) as t from chatapi_webhook_events');
    expect(row?.['t']).toBe(Date.parse('2026-11-20T09:30:00Z'));
  });

  it('takes a body that starts with a UTF-8 byte order mark, as JSON readers do', async () => {
    await start();
    const bom = '\uFEFF';
    expect((await post('/webhooks/chatapi', `${bom}${JSON.stringify([chatObject('q-bom')])}`)).status).toBe(
      200,
    );
    const prompter = { clientInfo: { id: 'c' }, chatId: 'chat', questionId: 'p-bom', answerOptions: [] };
    expect((await post('/webhooks/prompter', `${bom}${JSON.stringify(prompter)}`)).status).toBe(200);
    // only at the start: anywhere else it is a character of the text, and a stray one is no JSON
    expect((await post('/webhooks/chatapi', `[${bom}]`)).status).toBe(400);
    await receiver!.loadNow();
    expect(await warehouse.query('select question_id, answer from chatapi_webhook_events')).toEqual([
      { question_id: 'q-bom', answer: 'Ваш заказ в пути' },
    ]);
    expect(await warehouse.query('select question_id from prompter_answers')).toEqual([
      { question_id: 'p-bom' },
    ]);
  });

  it('close() loads everything acknowledged and removes its spool', async () => {
    const r = await start();
    for (let i = 0; i < 50; i++)
      expect((await post('/webhooks/chatapi', [chatObject(`q-${i}`)])).status).toBe(200);
    await r.close();
    receiver = undefined;
    expect(await warehouse.query('select count(*) as n from chatapi_webhook_events')).toEqual([{ n: 50 }]);
    expect(readdirSync(join(dir, 'webhooks'))).toEqual([]);
  });

  it('receives the deliveries of the Chat API emulator’s asynchronous requests', async () => {
    await start();
    const token = defaultChatApiToken('shop-bot');
    const emulator = await startEmulator({ sessions: 100, days: 1 });
    try {
      emulator.emulator.chatApi.channel(token).webhookUrl = `${receiver!.url}/webhooks/chatapi`;
      const questionIds: string[] = [];
      for (const query of ['Привет', 'Когда доставка?']) {
        const response = await fetch(`${emulator.url}/chatapi/${token}/async`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ clientId: 'app-client-1', query }),
        });
        questionIds.push(((await response.json()) as { questionId: string }).questionId);
      }
      await emulator.emulator.chatApi.webhooks.idle();
      expect(webhookAttempts(emulator.emulator, token).map((a) => a.outcome)).toEqual([200, 200]);
      await receiver!.loadNow();
      const rows = await warehouse.query(
        'select question_id, client_id, channel from chatapi_webhook_events order by question_id',
      );
      expect(rows).toEqual(
        questionIds.sort().map((q) => ({ question_id: q, client_id: 'app-client-1', channel: null })),
      );
    } finally {
      await emulator.close();
    }
  });
});
