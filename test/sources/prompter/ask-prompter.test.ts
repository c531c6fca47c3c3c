// prompter ask's work in-process against the emulator and the webhook receiver: every question recorded with
// the emulator's questionId, the answers (as the emulator delivered them) stored once even when resent, a
// question with no option answered with none, faults on the Prompter endpoint retried or recorded as failed,
// and questions whose answer never comes marked no_answer after the wait.

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { prompterTruth, prompterWebhookAttempts } from '../../../src/emulator/chatapi/chat-truth.js';
import { type RunningEmulator, startEmulator } from '../../../src/emulator/server.js';
import { silentLogger } from '../../../src/log.js';
import { createPrompterClient } from '../../../src/platform/prompter/prompter-client.js';
import {
  type AskProgress,
  askPrompter,
  describeAskProgress,
} from '../../../src/sources/prompter/ask-prompter.js';
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../../src/sources/webhooks/webhook-receiver.js';
import { openWarehouse } from '../../../src/warehouse/open-warehouse.js';
import type { Warehouse } from '../../../src/warehouse/warehouse.js';

const RESENDING = `resend01:${'a'.repeat(40)}`;
const SILENT = `silent01:${'b'.repeat(40)}`;
let dir: string;
let warehouse: Warehouse;
let receiver: WebhookReceiver;
let running: RunningEmulator;
let proxy: Server;
const firstSeen = new Set<string>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'prompter-'));
  warehouse = await openWarehouse({ path: join(dir, 'warehouse.duckdb') });
  receiver = await startWebhookReceiver({
    host: '127.0.0.1',
    port: 0,
    dataDir: dir,
    warehouse,
    channels: [],
    timeZone: 'UTC',
    log: silentLogger(),
    loadEveryMs: 100,
  });
  // passes every delivery on to the receiver, but answers 500 to the first of each question: the platform
  // sends it again, so the receiver gets each payload twice
  proxy = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const forwarded = await fetch(`${receiver.url}/webhooks/prompter`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const questionId = JSON.parse(body).questionId as string;
    const first = !firstSeen.has(questionId);
    firstSeen.add(questionId);
    res.writeHead(first ? 500 : forwarded.status).end();
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  running = await startEmulator({
    sessions: 100,
    days: 1,
    chatApiChannels: [
      { token: RESENDING, prompterWebhookUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/` },
      { token: SILENT },
    ],
    chatApiWebhookTimeoutMs: 500,
    chatApiWebhookRetryDelayMs: 20,
  });
});
afterEach(() => {
  running.emulator.faults.assertAllFired();
  running.emulator.faults.clear();
});
afterAll(async () => {
  await running.close();
  proxy.closeAllConnections();
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await receiver.close();
  await warehouse.close();
  rmSync(dir, { recursive: true, force: true });
});

function client(token: string, name: string) {
  return createPrompterClient({
    config: { channels: [], baseUrl: running.url, path: '/chatapi', timeZone: 'UTC' },
    channel: { name, token },
    retries: 2,
    backoffBaseMs: 5,
    log: silentLogger(),
  });
}

async function ask(
  token: string,
  name: string,
  batchId: string,
  texts: string[],
  waitMs: number,
  onProgress?: (p: AskProgress) => void,
) {
  const c = client(token, name);
  try {
    return await askPrompter({
      client: c,
      useWarehouse: (fn) => fn(warehouse),
      questions: texts.map((text) => ({ text })),
      batchId,
      source: 'test',
      clientId: 'agent-1',
      waitMs,
      pollMs: 100,
      beforeLook: () => receiver.loadNow(),
      ...(onProgress ? { onProgress } : {}),
      log: silentLogger(),
    });
  } finally {
    await c.close();
  }
}

const requests = (batchId: string) =>
  warehouse.query(
    'select seq, question, channel, question_id, outcome, reason from prompter_requests where batch_id = $b order by seq',
    { b: batchId },
  );

describe('prompter ask', () => {
  it('records each question with its questionId; the resent answers are stored once, as delivered', async () => {
    const texts = ['Где мой заказ?', 'q3', 'Оплата заказа картой и доставка'];
    const progress: AskProgress[] = [];
    const summary = await ask(RESENDING, 'site', 'b-1', texts, 10_000, (p) => progress.push(p));
    // the progress told each question sent, then the answers as they arrived, never more than were sent
    expect(progress.slice(0, 3)).toEqual(
      [1, 2, 3].map((done) => ({ phase: 'sending', done, total: 3, failed: 0 })),
    );
    const waiting = progress.slice(3) as Extract<AskProgress, { phase: 'waiting' }>[];
    expect(waiting.length).toBeGreaterThan(0);
    expect(waiting.every((p) => p.phase === 'waiting' && p.sent === 3 && p.secondsLeft <= 10)).toBe(true);
    expect(waiting.map((p) => p.answered)).toEqual([...waiting.map((p) => p.answered)].sort());
    expect(waiting.at(-1)!.answered).toBe(3);
    expect(describeAskProgress(waiting.at(-1)!)).toMatch(
      /^prompter ask: answers 3\/3 · waiting up to \d+ s$/,
    );
    expect(describeAskProgress(progress[1]!)).toBe('prompter ask: sending 2/3');
    expect(summary).toMatchObject({ asked: 3, sent: 3, failed: 0, answered: 3, noAnswer: 0 });
    const truth = prompterTruth(running.emulator, RESENDING);
    expect(await requests('b-1')).toEqual(
      truth.map((t, n) => ({
        seq: n + 1,
        question: texts[n],
        channel: 'site',
        question_id: t.questionId,
        outcome: 'answered',
        reason: null,
      })),
    );
    await running.emulator.chatApi.prompter.webhooks.idle();
    // every question was delivered twice (500, then 200) ...
    const attempts = prompterWebhookAttempts(running.emulator, RESENDING);
    for (const t of truth)
      expect(attempts.filter((a) => a.questionId === t.questionId).map((a) => a.outcome)).toEqual([500, 200]);
    await receiver.loadNow();
    // ... and stored once, with the options the emulator delivered
    const answers = await warehouse.query('select question_id, options from prompter_answers order by 1');
    expect(answers).toEqual(
      truth
        .map((t) => ({ question_id: t.questionId, options: t.options.length }))
        .sort((a, b) => a.question_id.localeCompare(b.question_id)),
    );
    expect(truth[1]!.options).toEqual([]);
    const options = await warehouse.query(
      'select question_id, rank, intent_path, confidence from prompter_answer_options order by question_id, rank',
    );
    expect(options).toEqual(
      truth
        .flatMap((t) =>
          t.options.map((o, n) => ({
            question_id: t.questionId,
            rank: n + 1,
            intent_path: o.intent.path,
            confidence: o.intent.confidence,
          })),
        )
        .sort((a, b) => a.question_id.localeCompare(b.question_id) || a.rank - b.rank),
    );
  });

  it('retries a fault on the Prompter endpoint; a question whose request keeps failing is recorded failed', async () => {
    const path = 'chatapi/webhook/prompter_api';
    running.emulator.faults.script({ type: 'status503', path, times: 1 });
    running.emulator.faults.script({ type: 'status500', path, times: 3, after: 0 });
    const before = prompterTruth(running.emulator, RESENDING).length;
    // question 1: 503 then three 500s = 1 + 2 retries all fail; question 2: goes through
    const summary = await ask(RESENDING, 'site', 'b-2', ['Привет', 'Спасибо!'], 10_000);
    const truth = prompterTruth(running.emulator, RESENDING).slice(before);
    expect(truth.map((t) => t.text)).toEqual(['Спасибо!']);
    const rows = await requests('b-2');
    expect(rows.map((r) => [r['outcome'], r['question_id']])).toEqual([
      ['failed', null],
      ['answered', truth[0]!.questionId],
    ]);
    expect(String(rows[0]!['reason'])).toMatch(/500/);
    expect(summary).toMatchObject({ sent: 1, failed: 1, answered: 1 });
  });

  it('marks no_answer the questions whose answer does not come within the wait', async () => {
    const started = Date.now();
    const summary = await ask(SILENT, 'silent', 'b-3', ['Привет', 'Где мой заказ?'], 800);
    expect(Date.now() - started).toBeGreaterThanOrEqual(800);
    const truth = prompterTruth(running.emulator, SILENT);
    expect(prompterWebhookAttempts(running.emulator, SILENT).map((a) => a.outcome)).toEqual([
      'no-webhook',
      'no-webhook',
    ]);
    expect((await requests('b-3')).map((r) => [r['question_id'], r['outcome']])).toEqual(
      truth.map((t) => [t.questionId, 'no_answer']),
    );
    expect(summary).toMatchObject({ sent: 2, answered: 0, noAnswer: 2 });
  });

  it('stops at a refused token (chatapi.auth), the question recorded failed, the token nowhere', async () => {
    const unknown = `unknown9:${'f'.repeat(40)}`;
    await expect(ask(unknown, 'gone', 'b-4', ['Привет', 'Пока'], 1_000)).rejects.toMatchObject({
      code: 'chatapi.auth',
    });
    const rows = await requests('b-4');
    expect(rows.map((r) => [r['seq'], r['outcome'], r['question_id']])).toEqual([[1, 'failed', null]]);
    expect(String(rows[0]!['reason'])).toMatch(/^chatapi\.auth: .*channel gone/);
    expect(JSON.stringify(rows)).not.toContain(unknown);
  });
});
