// One request the warehouse cannot take must not hold back the others: a payload time far out of range (a
// number of epoch ms past the year 275760) and a string with a lone UTF-16 surrogate (valid JSON, which
// DuckDB's JSON reader refuses) are answered 200 and stored (the time NULL, the surrogate as U+FFFD); and a
// spooled record the warehouse refuses anyway (here: a receive time out of range, written into a spool left
// behind) goes to etl_rejects with the reason while the records around it are stored, once, also when the
// same spool is loaded again.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log.js';
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../../src/sources/webhooks/webhook-receiver.js';
import { openWarehouse } from '../../../src/warehouse/open-warehouse.js';
import type { Warehouse } from '../../../src/warehouse/warehouse.js';

let dir: string;
let warehouse: Warehouse;
let receiver: WebhookReceiver | undefined;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'webhooks-unstorable-'));
  warehouse = await openWarehouse({ path: join(dir, 'warehouse.duckdb') });
});
afterEach(async () => {
  await receiver?.close().catch(() => undefined);
  receiver = undefined;
  await warehouse.close();
  rmSync(dir, { recursive: true, force: true });
});

async function start(): Promise<WebhookReceiver> {
  receiver = await startWebhookReceiver({
    host: '127.0.0.1',
    port: 0,
    dataDir: dir,
    warehouse,
    channels: [],
    timeZone: 'UTC',
    log: silentLogger(),
    loadEveryMs: 60_000,
  });
  return receiver;
}

async function postText(path: string, body: string): Promise<number> {
  const response = await fetch(`${receiver!.url}${path}`, { method: 'POST', body });
  await response.arrayBuffer();
  return response.status;
}

const chatText = (questionId: string, timestamp: string, answer: string) =>
  `[{"clientId":"c-1","questionId":"${questionId}","timestamp":${timestamp},"data":{"answer":"${answer}"}}]`;

describe('requests the warehouse could not take as they are', () => {
  it('are stored: an out-of-range time as NULL, a lone surrogate as U+FFFD, and the others beside them', async () => {
    await start();
    expect(await postText('/webhooks/chatapi', chatText('q-1', '"2026-11-20T09:30:00"', 'one'))).toBe(200);
    expect(await postText('/webhooks/chatapi', chatText('q-far', '1e18', 'far'))).toBe(200);
    expect(await postText('/webhooks/chatapi', chatText('q-sur', '"2026-11-20T09:31:00"', 'a\\ud800b'))).toBe(
      200,
    );
    const prompter =
      '{"clientInfo":{"id":"c-1"},"chatId":"chat-1","questionId":"p-1","answerOptions":[{"messages":' +
      '[{"type":"TEXT","text":"x\\udc00y","markup":"plain"}],"intent":{"id":7,"confidence":0.9,"name":"n","path":"/n"}}]}';
    expect(await postText('/webhooks/prompter', prompter)).toBe(200);
    await receiver!.loadNow();
    expect(
      await warehouse.query(
        'select question_id, epoch_ms(timestamp) as t, answer from chatapi_webhook_events order by 1',
      ),
    ).toEqual([
      { question_id: 'q-1', t: Date.parse('2026-11-20T09:30:00Z'), answer: 'one' },
      { question_id: 'q-far', t: null, answer: 'far' },
      { question_id: 'q-sur', t: Date.parse('2026-11-20T09:31:00Z'), answer: 'a\uFFFDb' },
    ]);
    expect(await warehouse.query('select question_id, text from prompter_answer_options')).toEqual([
      { question_id: 'p-1', text: 'x\uFFFDy' },
    ]);
  });

  it('a spooled record the warehouse refuses goes to etl_rejects with the reason; the others are stored once', async () => {
    const spools = join(dir, 'webhooks');
    mkdirSync(spools, { recursive: true });
    const at = Date.parse('2026-11-20T10:00:00Z');
    const line = (questionId: string, receivedAt: number) =>
      `${JSON.stringify({ route: 'chatapi', receivedAt, body: [{ clientId: 'c', questionId, timestamp: '2026-11-20T09:30:00', data: {} }] })}\n`;
    const spool = `spool-${at}-${process.pid}.jsonl`;
    const text = line('q-before', at) + line('q-refused', 1e18) + line('q-after', at + 1);
    writeFileSync(join(spools, spool), text);
    await start();
    await receiver!.loadNow();
    expect(await warehouse.query('select question_id from chatapi_webhook_events order by 1')).toEqual([
      { question_id: 'q-after' },
      { question_id: 'q-before' },
    ]);
    const rejects = await warehouse.query('select endpoint, raw_json, error from etl_rejects');
    expect(rejects).toHaveLength(1);
    expect(rejects[0]?.['endpoint']).toBe('webhooks/chatapi');
    expect(String(rejects[0]?.['raw_json'])).toContain('q-refused');
    expect(String(rejects[0]?.['error'])).toMatch(/^could not be stored: /);
    expect(readdirSync(spools)).not.toContain(spool);
    await receiver!.close();
    receiver = undefined;

    // the same spool again (as after a crash before its offset was committed): nothing twice
    writeFileSync(join(spools, spool), text);
    await start();
    await receiver!.loadNow();
    expect(await warehouse.query('select count(*) as n from chatapi_webhook_events')).toEqual([{ n: 2 }]);
    expect(await warehouse.query('select count(*) as n from etl_rejects')).toEqual([{ n: 1 }]);
  });
});
