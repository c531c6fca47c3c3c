// `reporter-etl prompter ask` end to end: questions from a CSV file sent to the emulator's Prompter API, the
// answers received in-process (--receive) and the requests in prompter_requests as the emulator's truth says;
// a file without a text column is a usage error before anything is sent.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultChatApiToken } from '../../../src/emulator/chatapi/channels.js';
import { prompterTruth } from '../../../src/emulator/chatapi/chat-truth.js';
import { type RunningEmulator, startEmulator } from '../../../src/emulator/server.js';
import { openWarehouse } from '../../../src/warehouse/open-warehouse.js';
import { runCli } from '../../helpers/run-cli.js';
import { column, readWorkbook, sheetNamed } from '../../report/read-workbook.js';

const TOKEN = defaultChatApiToken('shop-bot');
let dir: string;
let port: number;
let running: RunningEmulator;
let env: Record<string, string>;
/** Wall time of the ask run: no latency can exceed it. */
let askMs = 0;
/** When the ask run started and ended (epoch ms): the report's period is taken from them, not from "today". */
let askStarted = 0;
let askEnded = 0;

/** Each question's send and answer times from the warehouse, and when the emulator answered it (its truth). */
async function latenciesOf(
  questionIds: readonly string[],
): Promise<{ ms: number; receivedAt: number; answeredAt: number }[]> {
  const answeredAt = new Map(prompterTruth(running.emulator, TOKEN).map((t) => [t.questionId, t.askedAt]));
  const warehouse = await openWarehouse({ path: join(dir, 'warehouse.duckdb'), access: 'read' });
  try {
    const rows = await warehouse.query(
      'select r.question_id, epoch_ms(r.sent_at) as sent, epoch_ms(a.received_at) as received from prompter_requests r join prompter_answers a using (question_id)',
    );
    return rows
      .filter((r) => questionIds.includes(String(r['question_id'])))
      .map((r) => ({
        ms: Number(r['received']) - Number(r['sent']),
        receivedAt: Number(r['received']),
        answeredAt: answeredAt.get(String(r['question_id']))!,
      }));
  } finally {
    await warehouse.close();
  }
}

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
    const started = Date.now();
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
    askMs = Date.now() - started;
    askStarted = started;
    askEnded = Date.now();
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

  it('measures the suggestions as the emulator made them: stats --json key prompter and report prompter', async () => {
    // the figures, computed here from the emulator's truth and the expected intents of the file
    const truth = prompterTruth(running.emulator, TOKEN).slice(0, QUESTIONS.length);
    const withOptions = truth.filter((t) => t.options.length > 0);
    const expected = truth
      .map((t, n) => ({ paths: t.options.map((o) => o.intent.path), intent: QUESTIONS[n]![1] }))
      .filter((q) => q.intent !== '');
    const top1 = expected.filter((q) => q.paths[0] === q.intent).length;
    const top3 = expected.filter((q) => q.paths.slice(0, 3).includes(q.intent)).length;
    const tenths = Array(10).fill(0);
    for (const t of withOptions) tenths[Math.min(9, Math.floor(t.options[0]!.intent.confidence * 10))]++;
    const firsts = new Map<string, number>();
    for (const t of withOptions)
      firsts.set(t.options[0]!.intent.path, (firsts.get(t.options[0]!.intent.path) ?? 0) + 1);

    const stats = await runCli(['stats', '--json'], env);
    expect(stats.code, stats.stderr).toBe(0);
    const p = JSON.parse(stats.stdout).prompter;
    expect(p).toMatchObject({
      questions: 6,
      sent: 6,
      failed: 0,
      answered: 6,
      withOptions: withOptions.length,
      accuracy: { questions: expected.length, top1, top3 },
    });
    expect(withOptions.length).toBeLessThan(6); // q3 has none
    expect(top1).toBeLessThan(top3); // the mixed question's expected intent comes second
    expect(p.meanOptions).toBeCloseTo(truth.reduce((n, t) => n + t.options.length, 0) / 6, 9);
    expect(p.accuracy.top1Rate).toBeCloseTo(top1 / expected.length, 9);
    expect(p.top1Confidence.buckets.map((b: any) => b.questions)).toEqual(tenths);
    expect(p.top1Confidence.mean).toBeCloseTo(
      withOptions.reduce((n, t) => n + t.options[0]!.intent.confidence, 0) / withOptions.length,
      9,
    );
    expect(Object.fromEntries(p.topIntents.map((i: any) => [i.intentPath, i.questions]))).toEqual(
      Object.fromEntries(firsts),
    );
    // the latencies, each from the request's send to its answer's arrival, checked against the emulator (an
    // answer arrives after the emulator answered) and their median computed here (linear interpolation)
    const latencies = await latenciesOf(truth.map((t) => t.questionId));
    expect(latencies.map((l) => l.receivedAt >= l.answeredAt)).toEqual(latencies.map(() => true));
    const sorted = latencies.map((l) => l.ms).sort((a, b) => a - b);
    const middle = (sorted.length - 1) / 2;
    const median = (sorted[Math.floor(middle)]! + sorted[Math.ceil(middle)]!) / 2;
    expect(sorted[0]).toBeGreaterThan(0);
    expect(p.latencyMs.p50).toBeCloseTo(median, 6);
    expect(p.latencyMs.max).toBe(sorted.at(-1));
    expect(p.latencyMs.max).toBeLessThanOrEqual(askMs);

    // the period of the ask run, minute by minute (a run across midnight is still inside it)
    const minute = (t: number) => new Date(t).toISOString().slice(0, 16);
    const report = await runCli(
      [
        'report',
        'prompter',
        '--from',
        `${minute(askStarted)}Z`,
        '--to',
        `${minute(askEnded + 60_000)}Z`,
        '--out',
        dir,
        '--json',
      ],
      env,
    );
    expect(report.code, report.stderr).toBe(0);
    const { sheets } = await readWorkbook(JSON.parse(report.stdout).path);
    const figures = sheetNamed(sheets, 'Prompter');
    const value = (name: string) => figures.rows.find((r) => r[0] === name)?.[1];
    expect(value('Answered')).toBe(6);
    expect(value('With at least one option')).toBe(withOptions.length);
    expect(value('Top-1 accuracy')).toBeCloseTo(top1 / expected.length, 9);
    expect(value('Top-3 accuracy')).toBeCloseTo(top3 / expected.length, 9);
    expect(column(sheetNamed(sheets, 'Top-1 confidence'), 'Questions')).toEqual(tenths);
  });

  it('--sql asks the questions a SELECT over the warehouse returns; a query without a text column asks none', async () => {
    const before = prompterTruth(running.emulator, TOKEN).length;
    const bad = await runCli(
      ['prompter', 'ask', '--channel', 'site', '--sql', 'select question from prompter_requests'],
      env,
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/column named text/);
    expect(prompterTruth(running.emulator, TOKEN).length).toBe(before);
    const sql =
      "select distinct question as text, expected_intent from prompter_requests where expected_intent = '/Payment/Methods'";
    const r = await runCli(
      [
        'prompter',
        'ask',
        '--channel',
        'site',
        '--sql',
        sql,
        '--receive',
        '--port',
        String(port),
        '--wait',
        '15',
        '--json',
      ],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    const asked = prompterTruth(running.emulator, TOKEN).slice(before);
    expect(asked.map((t) => t.text).sort()).toEqual(
      QUESTIONS.filter(([, e]) => e === '/Payment/Methods')
        .map(([t]) => t)
        .sort(),
    );
    const warehouse = await openWarehouse({ path: join(dir, 'warehouse.duckdb') });
    try {
      const rows = await warehouse.query(
        "select question_id, expected_intent, outcome from prompter_requests where source = 'sql' order by seq",
      );
      expect(rows).toEqual(
        asked.map((t) => ({
          question_id: t.questionId,
          expected_intent: '/Payment/Methods',
          outcome: 'answered',
        })),
      );
    } finally {
      await warehouse.close();
    }
  });
});
