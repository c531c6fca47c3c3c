// kb eval's work in-process against the emulated knowledge base over real HTTP and a real DuckDB file. The
// figures are worked out here from the emulator's truth (its questions with the source each was written from and
// the text its answer must contain, its own ranking of the chunks, the answers it generated), never from the
// code's output: hit ranks, hit@1/5, MRR and the expected-text share match them; long polling takes one status
// call per question (counted in the emulator's request log); a stream cut midway is tried once more, then
// recorded as kb.stream_cut; a key that expires midway fails the rest with the reason and the run is kept;
// 429 and 5xx are retried and change nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { KbEvalQuestion } from '../../../src/analysis/kb-eval/read-eval-questions.js';
import { type KbEvalSummary, runKbEval } from '../../../src/analysis/kb-eval/run-kb-eval.js';
import { parseAsk, retrieveChunks } from '../../../src/emulator/kb/kb-generation.js';
import { kbKeys, kbQuestions } from '../../../src/emulator/kb/kb-truth.js';
import { KB_MAIN_PROJECT_ID } from '../../../src/emulator/kb/kb-world.js';
import { type RunningEmulator, startEmulator } from '../../../src/emulator/server.js';
import { silentLogger } from '../../../src/log.js';
import { createKbClient } from '../../../src/platform/kb/kb-client.js';
import { createKbStreamer } from '../../../src/platform/kb/kb-stream.js';
import type { ProcessOwner } from '../../../src/process/process-identity.js';
import { openWarehouse } from '../../../src/warehouse/open-warehouse.js';
import type { Warehouse } from '../../../src/warehouse/warehouse.js';
import { liveOwner, ownerThatDied, zombieOwner } from '../../helpers/owner-processes.js';

let dir: string;
let warehouse: Warehouse;
let running: RunningEmulator;
let runs = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kb-eval-'));
  warehouse = await openWarehouse({ path: join(dir, 'warehouse.duckdb') });
  running = await startEmulator({ sessions: 100, days: 1, kb: { queryProcessingMs: 150 } });
});
afterEach(() => {
  running.emulator.faults.assertAllFired();
  running.emulator.faults.clear();
  running.emulator.requestLog = undefined;
});
afterAll(async () => {
  await running.close();
  await warehouse.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The first `n` truth questions (the source each was written from, the text its answer must contain). */
function truthQuestions(n: number): KbEvalQuestion[] {
  const questions = kbQuestions(running.emulator).slice(0, n);
  return questions.map((q) => ({
    key: q.question,
    question: q.question,
    expectedSources: [q.sourceName],
    expectedAnswerContains: [q.expectedAnswerContains],
  }));
}

/** The emulator's own ranking of a question's chunks, right now: the source names, best first. */
function truthRanking(question: string): string[] {
  return retrieveChunks(
    running.emulator.kb,
    KB_MAIN_PROJECT_ID,
    running.emulator.now(),
    parseAsk({ query: question }),
  ).map((c) => c.source.name);
}

/** The figures of a run worked out from the truth, by the definitions of docs/kb-eval.md. */
function truthFigures(questions: KbEvalQuestion[]) {
  const ranks = questions.map((q) => {
    const at = truthRanking(q.question).indexOf(q.expectedSources[0]!);
    return at < 0 ? null : at + 1;
  });
  const n = questions.length;
  // the answer the emulator generated for each question (the latest record of that request)
  const answers = questions.map((q) => {
    const records = [...running.emulator.kb.queries.values()].filter((r) => r.request === q.question);
    return records.at(-1)?.outcome.response ?? null;
  });
  const withAnswer = answers.filter((a) => a !== null);
  // the base: answered questions with an expected text
  const judged = questions.flatMap((q, i) =>
    answers[i] !== null && q.expectedAnswerContains.length > 0 ? [[q, answers[i]!] as const] : [],
  );
  const contains = judged.filter(([q, a]) =>
    a.toLowerCase().includes(q.expectedAnswerContains[0]!.toLowerCase()),
  ).length;
  return {
    ranks,
    hitAt1: ranks.filter((r) => r === 1).length / n,
    hitAt5: ranks.filter((r) => r !== null && r <= 5).length / n,
    mrr: ranks.reduce<number>((sum, r) => sum + (r === null ? 0 : 1 / r), 0) / n,
    answered: withAnswer.length,
    answerContainsRate: judged.length === 0 ? null : contains / judged.length,
  };
}

async function evaluate(
  questions: KbEvalQuestion[],
  options: {
    mode?: 'async' | 'stream';
    key?: string;
    concurrency?: number;
    timeoutMs?: number;
    waitTimeSeconds?: number;
    lease?: { beatMs: number; staleMs: number };
    signal?: AbortSignal;
    onQuestion?: (done: number) => void;
  } = {},
): Promise<KbEvalSummary> {
  const config = {
    baseUrl: `${running.url}/kb`,
    key: options.key ?? kbKeys(running.emulator).projectKey,
    adminKey: undefined,
  };
  const client = createKbClient({
    config,
    concurrency: 4,
    retries: 3,
    backoffBaseMs: 5,
    log: silentLogger(),
  });
  const streamer =
    options.mode === 'stream'
      ? createKbStreamer({ config, retries: 3, backoffBaseMs: 5, log: silentLogger() })
      : undefined;
  try {
    return await runKbEval({
      client,
      ...(streamer ? { streamer } : {}),
      useWarehouse: (fn) => fn(warehouse),
      questions,
      runId: `run-${++runs}`,
      kbBaseUrl: config.baseUrl,
      questionSource: 'test.csv',
      concurrency: options.concurrency ?? 4,
      waitTimeSeconds: options.waitTimeSeconds ?? 10,
      timeoutMs: options.timeoutMs ?? 30_000,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.lease ? { lease: options.lease } : {}),
      log: silentLogger(),
      ...(options.onQuestion ? { onQuestion: ({ done }) => options.onQuestion!(done) } : {}),
    });
  } finally {
    await client.close();
    await streamer?.close();
  }
}

const questionRows = (runId: string) =>
  warehouse.query(
    `select seq, question, status, error_code, error, hit_rank, chunks, attempts, status_requests, answer,
       answer_contains, retrieval_status, latency_ms
     from kb_eval_questions where run_id = $r order by seq`,
    { r: runId },
  );
const runRow = async (runId: string) =>
  (await warehouse.query('select * from kb_eval_runs where run_id = $r', { r: runId }))[0]!;

describe('kb eval against the emulator', () => {
  it('measures retrieval and answers as the truth says, one long-polled status call per question', async () => {
    // the truth's questions, and two general ones whose expected source the ranking puts below others
    const questions = [
      ...truthQuestions(16),
      ...[
        ['How many days does the summer festival last?', 'festival-bryansk.txt'],
        ['Within how many days can an unused item be returned?', 'returns-monitor.pdf'],
      ].map(([question, source]) => ({
        key: question!,
        question: question!,
        expectedSources: [source!],
        expectedAnswerContains: [],
      })),
    ];
    running.emulator.requestLog = [];
    const summary = await evaluate(questions);
    const statusCalls = running.emulator.requestLog!.filter(
      (r) => r.method === 'GET' && /\/query\/\d+\?waitTimeSeconds=/.test(r.url),
    );
    const truth = truthFigures(questions);
    expect(
      truth.ranks.some((r) => r !== 1),
      'the truth has misses or lower ranks to measure',
    ).toBe(true);

    expect(summary.status).toBe(truth.answered === questions.length ? 'success' : 'partial');
    const run = await runRow(summary.runId);
    expect(run['status']).toBe(summary.status);
    expect(run['questions']).toBe(18);
    expect(run['answered']).toBe(truth.answered);
    expect(run['hit_at_1']).toBeCloseTo(truth.hitAt1, 12);
    expect(run['hit_at_5']).toBeCloseTo(truth.hitAt5, 12);
    expect(run['mrr']).toBeCloseTo(truth.mrr, 12);
    expect(run['answer_contains_rate']).toBeCloseTo(truth.answerContainsRate!, 12);
    expect(run['project_id']).toBe(KB_MAIN_PROJECT_ID);

    const rows = await questionRows(summary.runId);
    expect(rows.map((r) => r['hit_rank'])).toEqual(truth.ranks);
    expect(rows.map((r) => r['chunks'])).toEqual(questions.map((q) => truthRanking(q.question).length));
    // the long poll: the emulator answered each status call once the answer was ready
    expect(statusCalls.length).toBe(questions.length);
    expect(run['status_requests']).toBe(questions.length);
    for (const row of rows.filter((r) => r['status'] === 'answered')) {
      expect(row['status_requests']).toBe(1);
      expect(row['latency_ms'] as number).toBeGreaterThanOrEqual(100);
    }

    // the chunks as the emulator ranked them: sources and ranks
    const chunks = await warehouse.query(
      'select seq, rank, source_title, is_expected from kb_eval_chunks where run_id = $r order by seq, rank',
      { r: summary.runId },
    );
    for (const [n, q] of questions.entries()) {
      const mine = chunks.filter((c) => c['seq'] === n + 1);
      expect(mine.map((c) => c['source_title'])).toEqual(truthRanking(q.question));
      expect(mine.filter((c) => c['is_expected']).map((c) => c['rank'])).toEqual(
        truthRanking(q.question).flatMap((s, i) => (s === q.expectedSources[0] ? [i + 1] : [])),
      );
    }
  });

  it('never asks the status of a generation more than once a second, even with --wait-time 0', async () => {
    // the emulator generates for 150 ms and answers a status call with waitTimeSeconds=0 at once: a tight
    // loop would ask dozens of times per question; one call a second asks twice (at once, then after 1 s)
    const questions = truthQuestions(3);
    running.emulator.requestLog = [];
    const started = Date.now();
    const summary = await evaluate(questions, { waitTimeSeconds: 0, concurrency: 3 });
    const elapsed = Date.now() - started;
    const statusCalls = running.emulator.requestLog!.filter(
      (r) => r.method === 'GET' && /\/query\/\d+\?waitTimeSeconds=0\b/.test(r.url),
    );
    const perQuery = new Map<string, number>();
    for (const call of statusCalls) {
      const id = /\/query\/(\d+)/.exec(call.url)![1]!;
      perQuery.set(id, (perQuery.get(id) ?? 0) + 1);
    }
    expect(perQuery.size).toBe(3);
    for (const calls of perQuery.values()) expect(calls).toBeLessThanOrEqual(2);
    expect(summary.statusRequests).toBe(statusCalls.length);
    expect(summary.metrics.answered).toBe(truthFigures(questions).answered);
    // a question that needed a second call waited out the second between them
    if (statusCalls.length > 3) expect(elapsed).toBeGreaterThanOrEqual(1000);
  });

  it('streams over SSE with the same figures', async () => {
    const questions = truthQuestions(8);
    const summary = await evaluate(questions, { mode: 'stream' });
    const truth = truthFigures(questions);
    const run = await runRow(summary.runId);
    expect(run['mode']).toBe('stream');
    expect(run['hit_at_5']).toBeCloseTo(truth.hitAt5, 12);
    expect(run['answer_contains_rate']).toBeCloseTo(truth.answerContainsRate!, 12);
    expect(run['status_requests']).toBe(0);
    const rows = await questionRows(summary.runId);
    // the streamed answer is the emulator's answer, whole
    for (const [n, q] of questions.entries()) {
      const records = [...running.emulator.kb.queries.values()].filter((r) => r.request === q.question);
      expect(rows[n]!['answer']).toBe(records.at(-1)!.outcome.response ?? null);
    }
  });

  it('tries a stream cut midway once more, and records a stream cut twice as kb.stream_cut', async () => {
    const questions = truthQuestions(3);
    // once: the retry answers
    running.emulator.faults.script({ type: 'streamCut', path: 'kb/query/stream', count: 1 });
    const once = await evaluate(questions, { mode: 'stream', concurrency: 1 });
    let rows = await questionRows(once.runId);
    expect(rows[0]!['status']).toBe('answered');
    expect(rows[0]!['attempts']).toBe(2);
    expect(rows.slice(1).map((r) => r['attempts'])).toEqual([1, 1]);
    expect(once.status).toBe((await runRow(once.runId))['status']);
    running.emulator.faults.assertAllFired();
    running.emulator.faults.clear();

    // twice on the first question: it fails with the reason, the others are answered
    running.emulator.faults.script({ type: 'streamCut', path: 'kb/query/stream', count: 1, times: 2 });
    const twice = await evaluate(questions, { mode: 'stream', concurrency: 1 });
    rows = await questionRows(twice.runId);
    expect(rows[0]!['status']).toBe('error');
    expect(rows[0]!['error_code']).toBe('kb.stream_cut');
    expect(rows[0]!['attempts']).toBe(2);
    expect(String(rows[0]!['error'])).toMatch(/cut before its done event, 2 times/);
    expect(rows[0]!['answer']).toBeNull();
    expect(rows.slice(1).map((r) => r['status'])).toEqual(['answered', 'answered']);
    const run = await runRow(twice.runId);
    expect(run['status']).toBe('partial');
    expect(run['failures']).toBe(1);
    running.emulator.faults.assertAllFired();
    running.emulator.faults.clear();

    // a generation the service fails ends the stream with an error event: failed, not cut, not retried
    running.emulator.faults.script({ type: 'queryFail', path: 'kb/query/stream' });
    const failed = await evaluate(questions, { mode: 'stream', concurrency: 1 });
    rows = await questionRows(failed.runId);
    expect(rows[0]!['status']).toBe('failed');
    expect(rows[0]!['attempts']).toBe(1);
    expect(String(rows[0]!['error'])).toMatch(/^the stream ended with an error event: kb\.\S+ /);
  });

  it('records the questions after a key expires midway as failed with the reason, and keeps the run', async () => {
    const keys = kbKeys(running.emulator);
    const questions = truthQuestions(8);
    const start = running.emulator.now();
    try {
      const summary = await evaluate(questions, {
        key: keys.expiringSoonKey,
        concurrency: 1,
        // after the third question the clock passes the key's expiry
        onQuestion: (done) => {
          if (done === 3) running.emulator.clock.set(Date.parse(keys.expiringSoonAt) + 60_000);
        },
      });
      expect(summary.status).toBe('failed');
      expect(summary.error).toMatch(/refused REPORTER_KB_KEY at question 4/);
      const run = await runRow(summary.runId);
      expect(run['status']).toBe('failed');
      expect(run['finished_at']).not.toBeNull();
      expect(run['questions']).toBe(8);
      expect(run['failures']).toBe(5);
      const rows = await questionRows(summary.runId);
      expect(rows).toHaveLength(8);
      expect(rows.slice(0, 3).map((r) => r['error_code'])).toEqual([null, null, null]);
      expect(rows[3]!['error_code']).toBe('kb.auth');
      expect(rows[3]!['retrieval_status']).toBe('error');
      for (const row of rows.slice(4)) {
        expect(row['status']).toBe('error');
        expect(row['error_code']).toBe('kb.auth');
        expect(String(row['error'])).toMatch(
          /^not asked: the knowledge base refused REPORTER_KB_KEY at question 4/,
        );
      }
      // the figures stay those of the three questions asked before the expiry
      expect(run['with_expected_sources']).toBe(3);
      expect(run['hit_at_1']).toBeCloseTo(truthFigures(questions.slice(0, 3)).hitAt1, 12);
      // the questions never asked are not compared: none of them is worse (or better) than before
      const changes = await warehouse.query(
        'select seq, asked, regressed, improved from kb_eval_question_changes where run_id = $r order by seq',
        { r: summary.runId },
      );
      expect(changes.slice(4).map((c) => [c['asked'], c['regressed'], c['improved']])).toEqual(
        Array.from({ length: 4 }, () => [false, false, false]),
      );
    } finally {
      running.emulator.clock.set(start);
    }
  });

  it('retries 429 and 5xx answers and measures the same figures', async () => {
    const questions = truthQuestions(6);
    const faults = running.emulator.faults;
    faults.script({ type: 'status429', path: 'kb/retrieve', retryAfter: 0, times: 2 });
    faults.script({ type: 'status503', path: 'kb/async/query', times: 2 });
    faults.script({ type: 'status500', path: 'kb/query/', method: 'GET', times: 1 });
    faults.script({ type: 'status502', path: 'kb/info', times: 1 });
    const summary = await evaluate(questions, { concurrency: 2 });
    const truth = truthFigures(questions);
    const run = await runRow(summary.runId);
    expect(run['failures']).toBe(questions.length - truth.answered);
    expect(run['hit_at_1']).toBeCloseTo(truth.hitAt1, 12);
    expect(run['mrr']).toBeCloseTo(truth.mrr, 12);
    expect(run['project_id']).toBe(KB_MAIN_PROJECT_ID);
    expect((await questionRows(summary.runId)).map((r) => r['hit_rank'])).toEqual(truth.ranks);
    // the retried requests are counted: 6 retrievals, 6 submissions, 6 long polls, /info, and the 6 faults
    expect(summary.requests).toBe(1 + 3 * questions.length + 6);
  });

  it('records a generation the service fails, and one that outlasts --timeout, as failures', async () => {
    const questions = truthQuestions(3);
    running.emulator.faults.script({ type: 'queryFail', path: 'kb/async/query' });
    const failed = await evaluate(questions, { concurrency: 1 });
    const rows = await questionRows(failed.runId);
    expect(rows[0]!['status']).toBe('failed');
    expect(rows[0]!['error_code']).toBe('kb.generation_failed');
    expect(String(rows[0]!['error'])).toMatch(/ended FAILED/);
    expect(rows.slice(1).map((r) => r['status'])).toEqual(['answered', 'answered']);
    expect((await runRow(failed.runId))['status']).toBe('partial');
    running.emulator.faults.assertAllFired();

    // a timeout of 1 ms: every generation is still pending when it is looked at
    const late = await evaluate(questions, { timeoutMs: 1 });
    const lateRows = await questionRows(late.runId);
    expect(lateRows.map((r) => r['error_code'])).toEqual(['kb.timeout', 'kb.timeout', 'kb.timeout']);
    expect(lateRows.every((r) => r['retrieval_status'] === 'ok')).toBe(true);
    expect(late.status).toBe('failed');
    expect(late.metrics.hitAt1).toBeCloseTo(truthFigures(questions).hitAt1, 12);
  });

  it('stops asking when stopped, records the rest as not asked, and finishes the run', async () => {
    const questions = truthQuestions(6);
    const controller = new AbortController();
    const summary = await evaluate(questions, {
      concurrency: 1,
      signal: controller.signal,
      onQuestion: (done) => {
        if (done === 2) controller.abort(new Error('stopped by SIGINT'));
      },
    });
    const rows = await questionRows(summary.runId);
    expect(rows).toHaveLength(6);
    expect(rows.slice(0, 2).map((r) => r['error_code'])).toEqual([null, null]);
    for (const row of rows.slice(2)) {
      expect(row['error_code']).toBe('stopped');
      expect(row['error']).toBe('not asked: the run was stopped (stopped by SIGINT)');
    }
    const run = await runRow(summary.runId);
    expect(run['error']).toBe('stopped (stopped by SIGINT)');
    expect(run['status']).toBe('stopped');
    expect(summary.status).toBe('stopped');
    expect(run['failures']).toBe(4);
  });

  it('compares a run only with the last normally finished run of the same question set', async () => {
    const questions = truthQuestions(5);
    const baseline = await evaluate(questions, { concurrency: 1 });
    expect(['success', 'partial']).toContain(baseline.status);
    const truth = truthFigures(questions);
    // every question of the baseline was answered: each one not asked later would read as "worse"
    expect(truth.answered).toBe(5);

    // stopped after its second question: the three it never asked are neither regressed nor improved
    const controller = new AbortController();
    const stopped = await evaluate(questions, {
      concurrency: 1,
      signal: controller.signal,
      onQuestion: (done) => {
        if (done === 2) controller.abort(new Error('stopped by SIGTERM'));
      },
    });
    expect(stopped.status).toBe('stopped');
    const changes = await warehouse.query(
      `select seq, previous_run_id, asked, regressed, improved from kb_eval_question_changes
       where run_id = $r order by seq`,
      { r: stopped.runId },
    );
    expect(changes.map((c) => c['previous_run_id'])).toEqual(Array(5).fill(baseline.runId));
    expect(changes.map((c) => c['asked'])).toEqual([true, true, false, false, false]);
    expect(changes.filter((c) => c['regressed'] || c['improved'])).toEqual([]);

    // the next run's baseline is the normal run, not the stopped one
    const next = await evaluate(questions, { concurrency: 1 });
    const after = await warehouse.query(
      'select run_id, previous_run_id, baseline from kb_eval_run_changes where run_id in ($a, $b, $c)',
      { a: baseline.runId, b: stopped.runId, c: next.runId },
    );
    const byRun = new Map(after.map((r) => [r['run_id'], r]));
    expect(byRun.get(next.runId)!['previous_run_id']).toBe(baseline.runId);
    expect(byRun.get(stopped.runId)!['baseline']).toBe(false);
    expect(byRun.get(next.runId)!['baseline']).toBe(true);

    // a run of two of the five questions (--limit 2) is a set of its own: no previous run to compare with
    const limited = await evaluate(questions.slice(0, 2), { concurrency: 1 });
    expect(limited.questionSet).not.toBe(next.questionSet);
    expect(next.questionSet).toBe(baseline.questionSet);
    const limitedChange = await warehouse.query(
      'select previous_run_id from kb_eval_run_changes where run_id = $r',
      { r: limited.runId },
    );
    expect(limitedChange[0]!['previous_run_id']).toBeNull();
  });

  it('closes at once, its heartbeat fresh, a run whose owner on this host died or is a zombie; a live one stays', async () => {
    const died = await ownerThatDied();
    const zombie = await zombieOwner();
    const live = await liveOwner();
    try {
      const insert = (runId: string, owner: ProcessOwner) =>
        warehouse.execute([
          {
            sql: `INSERT INTO kb_eval_runs (run_id, started_at, status, kb_base_url, question_source, question_set,
                    mode, settings, questions, heartbeat_at, pid, host, boot_id, start_ticks)
                  VALUES ($r, $t, 'running', 'http://x', 'test.csv', 'killed', 'async', '{}', 3, $t, $pid, $host,
                    $boot, $ticks)`,
            params: {
              r: runId,
              t: new Date(),
              pid: owner.pid,
              host: owner.host,
              boot: owner.bootId,
              ticks: owner.startTicks,
            },
          },
        ]);
      await insert('died-run', died);
      await insert('zombie-run', zombie.owner);
      await insert('live-owner-run', live.owner);
      await evaluate(truthQuestions(1));
      const rows = await warehouse.query(
        `select run_id, status, error from kb_eval_runs
         where run_id in ('died-run', 'zombie-run', 'live-owner-run') order by run_id`,
      );
      expect(rows).toEqual([
        {
          run_id: 'died-run',
          status: 'abandoned',
          error: `abandoned: its process (PID ${died.pid} on ${died.host}) is no longer running; the run was not finished`,
        },
        { run_id: 'live-owner-run', status: 'running', error: null },
        {
          run_id: 'zombie-run',
          status: 'abandoned',
          error: `abandoned: its process (PID ${zombie.owner.pid} on ${zombie.owner.host}) has exited (a zombie not yet reaped); the run was not finished`,
        },
      ]);
      await warehouse.execute([
        { sql: "DELETE FROM kb_eval_runs WHERE run_id = 'live-owner-run'", params: {} },
      ]);
    } finally {
      await zombie.stop();
      await live.stop();
    }
  });

  it('closes a run left running by a killed process as abandoned at the next start, and beats while running', async () => {
    // two runs left `running`: one by a process killed an hour ago (no beat since), one still beating
    const insert = (runId: string, beatAt: number) =>
      warehouse.execute([
        {
          sql: `INSERT INTO kb_eval_runs (run_id, started_at, status, kb_base_url, question_source, question_set,
                  mode, settings, questions, heartbeat_at)
                VALUES ($r, $t, 'running', 'http://x', 'test.csv', 'killed', 'async', '{}', 3, $t)`,
          params: { r: runId, t: new Date(beatAt) },
        },
      ]);
    await insert('killed-run', Date.now() - 3_600_000);
    await insert('live-run', Date.now());
    const summary = await evaluate(truthQuestions(2), { lease: { beatMs: 20, staleMs: 60_000 } });
    const rows = await warehouse.query(
      `select run_id, status, finished_at, heartbeat_at, started_at, error from kb_eval_runs
       where run_id in ('killed-run', 'live-run', $r) order by run_id`,
      { r: summary.runId },
    );
    const byRun = new Map(rows.map((r) => [r['run_id'], r]));
    expect(byRun.get('killed-run')!['status']).toBe('abandoned');
    expect(byRun.get('killed-run')!['finished_at']).not.toBeNull();
    expect(String(byRun.get('killed-run')!['error'])).toMatch(/^abandoned/);
    expect(byRun.get('live-run')!['status']).toBe('running');
    // the run's heartbeat moved on from its start while it asked (a beat every 20 ms)
    const mine = byRun.get(summary.runId)!;
    expect(mine['heartbeat_at'] as number).toBeGreaterThan(mine['started_at'] as number);
    const abandoned = await warehouse.query(
      "select run_id, baseline from kb_eval_run_changes where run_id = 'killed-run'",
    );
    expect(abandoned).toEqual([{ run_id: 'killed-run', baseline: false }]);
    await warehouse.execute([{ sql: "DELETE FROM kb_eval_runs WHERE run_id = 'live-run'", params: {} }]);
  });
});
