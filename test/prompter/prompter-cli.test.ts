// `reporter-etl prompter ask` end to end: questions from a CSV file sent to the emulator's Prompter API, the
// answers received in-process (--receive) and the requests in prompter_requests as the emulator's truth says;
// a file without a text column is a usage error before anything is sent.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultChatApiToken } from '../../src/emulator/chatapi/channels.js';
import { prompterTruth } from '../../src/emulator/chatapi/chat-truth.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.js';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import { runCli } from '../helpers/run-cli.js';

const TOKEN = defaultChatApiToken('shop-bot');
let dir: string;
let port: number;
let running: RunningEmulator;
let env: Record<string, string>;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The questions of the file: the vocabulary's phrases with the intent they belong to, and two it lacks. */
const QUESTIONS: [string, string][] = [
  ['Где мой заказ?', '/Delivery/Status'],
  ['Как оплатить?', '/Payment/Methods'],
  ['Привет', '/Greeting'],
  ['Оплата заказа картой и доставка', '/Payment/Methods'],
  ['q3', '/Refund'],
  ['🤔🤔🤔', ''],
];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'prompter-cli-'));
  port = await freePort();
  running = await startEmulator({
    sessions: 100,
    days: 1,
    chatApiChannels: [{ token: TOKEN, prompterWebhookUrl: `http://127.0.0.1:${port}/webhooks/prompter` }],
  });
  env = {
    REPORTER_DATA_DIR: dir,
    REPORTER_CHATAPI_CHANNELS: `site=${TOKEN}`,
    REPORTER_CHATAPI_BASE_URL: running.url,
    REPORTER_LOCK_WAIT_SECONDS: '10',
  };
  const csv = ['text,expected_intent', ...QUESTIONS.map(([t, e]) => `"${t}",${e}`)].join('\n');
  writeFileSync(join(dir, 'questions.csv'), csv);
  writeFileSync(join(dir, 'bad.csv'), 'question\nПривет\n');
});
afterAll(async () => {
  await running.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('prompter ask (CLI)', () => {
  it('sends the file, receives the answers in-process and records every question', async () => {
    const r = await runCli(
      [
        'prompter',
        'ask',
        '--file',
        join(dir, 'questions.csv'),
        '--channel',
        'site',
        '--receive',
        '--port',
        String(port),
        '--wait',
        '15',
        '--json',
      ],
      env,
    );
    expect(r.stderr).not.toContain(TOKEN);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary).toMatchObject({ asked: 6, sent: 6, failed: 0, answered: 6, noAnswer: 0 });
    const truth = prompterTruth(running.emulator, TOKEN);
    const warehouse = await openWarehouse({ path: join(dir, 'warehouse.duckdb') });
    try {
      const rows = await warehouse.query(
        'select question, expected_intent, question_id, outcome, channel from prompter_requests order by seq',
      );
      expect(rows).toEqual(
        truth.map((t, n) => ({
          question: QUESTIONS[n]![0],
          expected_intent: QUESTIONS[n]![1] === '' ? null : QUESTIONS[n]![1],
          question_id: t.questionId,
          outcome: 'answered',
          channel: 'site',
        })),
      );
      expect(JSON.stringify(await warehouse.query('select * from prompter_requests'))).not.toContain(TOKEN);
    } finally {
      await warehouse.close();
    }
  });

  it('refuses a file without a text column (exit 2) and sends nothing', async () => {
    const before = prompterTruth(running.emulator, TOKEN).length;
    const r = await runCli(['prompter', 'ask', '--file', join(dir, 'bad.csv'), '--channel', 'site'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no "text" column/);
    expect(prompterTruth(running.emulator, TOKEN).length).toBe(before);
  });
});
