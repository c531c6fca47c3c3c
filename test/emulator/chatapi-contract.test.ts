// Contract tests of the Chat API: every operation of spec/chat-api.yaml is called on the running emulator
// and its answer validated against the operation's response schema (properties the spec does not name are
// errors); Chat API times (no zone) are checked against the spec's ChatTime pattern; error bodies too.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultChatApiToken } from '../../src/emulator/chatapi/channels.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.js';
import { makeChatCaller } from '../helpers/chatapi-client.js';
import { TEST_NOW } from '../helpers/emulator-client.js';
import { OpenApiValidator } from '../helpers/openapi-validator.js';

const SPEC = fileURLToPath(new URL('../../spec/chat-api.yaml', import.meta.url));
const spec = OpenApiValidator.fromYamlFile(SPEC, { extraProperties: 'error' });
const TOKEN = defaultChatApiToken('shop-bot');
const CHAT_TIME = new RegExp(spec.schema('ChatTime')['pattern']);
let running: RunningEmulator;
let chat: ReturnType<typeof makeChatCaller>;

beforeAll(async () => {
  running = await startEmulator({ sessions: 500, days: 2, now: TEST_NOW, chatApiEventsWaitMs: 200 });
  chat = makeChatCaller(running.url, TOKEN);
});
afterAll(() => running.close());

/** How to call each operation of the spec: the path after the token, and the body. */
const CALLS: Record<string, () => Promise<{ path: string; method?: string; body?: unknown }>> = {
  chatApiQuery: async () => ({ path: '', body: { clientId: 'contract-1', query: 'Привет', cid: 'c1' } }),
  chatApiQueryGet: async () => ({ path: '?clientId=contract-1&query=hi' }),
  chatApiAsync: async () => ({ path: 'async', body: { clientId: 'contract-1', event: '/start' } }),
  chatApiEvents: async () => ({ path: `events?all=true&ts=${TEST_NOW - 3_600_000}` }),
  chatApiHistory: async () => ({ path: 'client/contract-1/history?size=100' }),
  chatApiSaveState: async () => ({ path: 'client/contract-1/state', body: { a: [1, { b: 'c' }] } }),
  chatApiLoadState: async () => ({ path: 'client/contract-1/state' }),
  chatApiMessageStatus: async () => ({ path: `client/contract-1/message/${await answered()}/status` }),
  chatApiSetMessageStatus: async () => ({
    path: `client/contract-1/message/${await answered()}/status`,
    body: { status: 'DELIVERED' },
  }),
  chatApiSetMessageStatuses: async () => ({
    path: 'client/contract-1/message-statuses',
    body: { statuses: [{ questionId: await answered(), status: 'READ' }] },
  }),
  chatApiNotReadCount: async () => ({ path: 'client/contract-1/message-not-read-count' }),
};

async function answered(): Promise<string> {
  const r = await chat('', { body: { clientId: 'contract-1', query: 'Адрес магазина' } });
  return r.body.questionId;
}

/** Every `timestamp` string in an answer. */
function timestamps(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) timestamps(v, out);
  else if (typeof value === 'object' && value !== null)
    for (const [key, v] of Object.entries(value)) {
      if (key === 'timestamp' && typeof v === 'string') out.push(v);
      else timestamps(v, out);
    }
  return out;
}

describe('Chat API contract', () => {
  const ops = spec.operations();

  it('the table calls every operation of the spec, and only those', () => {
    expect(ops.map((o) => o.operationId).sort()).toEqual(Object.keys(CALLS).sort());
  });

  for (const op of ops) {
    it(`${op.method.toUpperCase()} ${op.path} (${op.operationId}) answers per the spec`, async () => {
      const call = await CALLS[op.operationId!]!();
      const r = await chat(call.path, {
        method: op.method.toUpperCase(),
        ...(call.body === undefined ? {} : { body: call.body }),
      });
      expect(r.status, r.text).toBe(200);
      const schema = spec.responseSchema(op.operation)!;
      expect(spec.validate(r.body, schema), JSON.stringify(r.body).slice(0, 400)).toEqual([]);
      for (const t of timestamps(r.body)) expect(t).toMatch(CHAT_TIME);
      if (op.operationId === 'chatApiEvents' || op.operationId === 'chatApiHistory')
        expect(timestamps(r.body).length).toBeGreaterThan(0);
    });
  }

  it('errors answer {error, message}: 401, 400, 404', async () => {
    const errors = [
      await chat('client/x/history', { token: `unknown1:${'0'.repeat(40)}` }),
      await chat('', { body: { clientId: 'x' } }),
      await chat('client/contract-1/message/nope/status'),
    ];
    expect(errors.map((e) => e.status)).toEqual([401, 400, 404]);
    for (const e of errors) expect(spec.validateNamed(e.body, 'ChatErrorBody')).toEqual([]);
  });
});
