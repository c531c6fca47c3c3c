// `reporter-etl kb eval` end to end (the compiled CLI as a child process) against the emulated knowledge base:
// a bad questions file or a missing key is a usage error naming what to fix before anything is asked; a run
// prints its figures (progress on stderr); after a source is replaced (re-indexing: the emulator stops finding
// it) a second run shows the drop, in the kb_eval_run_changes view and in `report kb-eval` (XLSX and HTML),
// as the emulator's truth says; --sql takes the questions from the warehouse, --stream uses SSE.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAsk, retrieveChunks } from '../../../src/emulator/kb/kb-generation.js';
import { kbKeys, kbQuestions } from '../../../src/emulator/kb/kb-truth.js';
import { KB_MAIN_PROJECT_ID } from '../../../src/emulator/kb/kb-world.js';
import { type RunningEmulator, startEmulator } from '../../../src/emulator/server.js';
import { openWarehouse } from '../../../src/warehouse/open-warehouse.js';
import { runCli } from '../../helpers/run-cli.js';
import { column, listedRecords, readWorkbook, sheetNamed } from '../../report/read-workbook.js';

const STACK = /\n\s+at .+\(.+:\d+:\d+\)/;
let dir: string;
let running: RunningEmulator;
let env: Record<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kb-eval-cli-'));
  running = await startEmulator({ sessions: 100, days: 1, kb: { queryProcessingMs: 100 } });
  const keys = kbKeys(running.emulator);
  env = {
    REPORTER_DATA_DIR: dir,
    REPORTER_KB_BASE_URL: `${running.url}/kb`,
    REPORTER_KB_KEY: keys.projectKey,
    REPORTER_LOCK_WAIT_SECONDS: '10',
    REPORTER_RETRIES: '2',
  };
  const questions = kbQuestions(running.emulator).slice(0, 10);
  writeFileSync(
    join(dir, 'questions.csv'),
    [
      'question,expected_sources,expected_answer_contains',
      ...questions.map((q) => `"${q.question}",${q.sourceName},${q.expectedAnswerContains}`),
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'bad.csv'),
    'question,expected_sources\n"fine?",a.md\n"two\nlines?",b.md\n"",c.md\n',
  );
  writeFileSync(join(dir, 'bad.jsonl'), '{"question":"a?"}\n{"question":"b?","expected_sources":[null]}\n');
});
afterAll(async () => {
  await running.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The truth's hit rank of each question of the file, as the emulator ranks its chunks right now. */
function truthRanks(): (number | null)[] {
  return kbQuestions(running.emulator)
    .slice(0, 10)
    .map((q) => {
      const names = retrieveChunks(
        running.emulator.kb,
        KB_MAIN_PROJECT_ID,
        running.emulator.now(),
        parseAsk({ query: q.question }),
      ).map((c) => c.source.name);
      const at = names.indexOf(q.sourceName);
      return at < 0 ? null : at + 1;
    });
}
const hitAt1 = (ranks: (number | null)[]) => ranks.filter((r) => r === 1).length / ranks.length;

describe('reporter-etl kb eval', () => {
  it('refuses a bad questions file naming the line and column, and a missing key, before asking', async () => {
    const before = running.emulator.requestCount;
    const csv = await runCli(['kb', 'eval', '--questions', join(dir, 'bad.csv')], env);
    expect(csv.code).toBe(2);
    expect(csv.stderr).toContain('bad.csv line 5, column question: empty');
    expect(csv.stderr).not.toMatch(STACK);
    const jsonl = await runCli(['kb', 'eval', '--questions', join(dir, 'bad.jsonl')], env);
    expect(jsonl.code).toBe(2);
    expect(jsonl.stderr).toContain('bad.jsonl line 2, field expected_sources: item 1 is null');
    const noKey = await runCli(['kb', 'eval', '--questions', join(dir, 'questions.csv')], {
      ...env,
      REPORTER_KB_KEY: '',
    });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/REPORTER_KB_KEY/);
    const both = await runCli(['kb', 'eval', '--questions', 'x.csv', '--sql', 'select 1'], env);
    expect(both.code).toBe(2);
    expect(running.emulator.requestCount).toBe(before);
    const help = await runCli(['kb', '--help'], env);
    expect(help.stdout).toMatch(/reporter-etl kb eval \(--questions FILE/);
  });

  it('records two runs, and the drop after a source is re-indexed shows in the view and in report kb-eval', async () => {
    const firstRanks = truthRanks();
    const first = await runCli(['kb', 'eval', '--questions', join(dir, 'questions.csv'), '--json'], env);
    expect(first.code, first.stderr).toBe(0);
    const one = JSON.parse(first.stdout) as { runId: string; metrics: { hitAt1: number } };
    expect(one.metrics.hitAt1).toBeCloseTo(hitAt1(firstRanks), 12);
    expect(first.stderr).toMatch(/kb eval: 10\/10 questions/);

    // the source of the first question is replaced: the emulator re-indexes it and stops finding it
    const q0 = kbQuestions(running.emulator)[0]!;
    const replaced = await fetch(`${running.url}/kb/api/knowledge-hub/sources/texts`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${env['REPORTER_KB_KEY']}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: q0.sourceName, text: 'Nothing to see here.' }),
    });
    expect(replaced.status).toBe(200);
    const secondRanks = truthRanks();
    expect(secondRanks[0]).toBeNull();

    const second = await runCli(['kb', 'eval', '--questions', join(dir, 'questions.csv')], env);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(
      new RegExp(`hit@1 ${(hitAt1(secondRanks) * 100).toFixed(1)} % · hit@5 [\\d.]+ % · MRR [\\d.]+`),
    );

    const warehouse = await openWarehouse({ path: join(dir, 'warehouse.duckdb'), access: 'read' });
    let changes: Record<string, unknown>[];
    let regressed: Record<string, unknown>[];
    try {
      changes = await warehouse.query(
        'select run_id, previous_run_id, hit_at_1, hit_at_1_change from kb_eval_run_changes order by started_at',
      );
      regressed = await warehouse.query(
        'select seq, question, previous_hit_rank, hit_rank from kb_eval_question_changes where regressed',
      );
    } finally {
      await warehouse.close();
    }
    expect(changes).toHaveLength(2);
    expect(changes[0]!['run_id']).toBe(one.runId);
    expect(changes[0]!['previous_run_id']).toBeNull();
    expect(changes[1]!['previous_run_id']).toBe(one.runId);
    expect(changes[1]!['hit_at_1_change']).toBeCloseTo(hitAt1(secondRanks) - hitAt1(firstRanks), 12);
    expect(changes[1]!['hit_at_1_change'] as number).toBeLessThan(0);
    expect(regressed.map((r) => r['seq'])).toEqual(
      firstRanks.flatMap((r, i) => (r !== null && r <= 5 && secondRanks[i] === null ? [i + 1] : [])),
    );

    // a third run stopped by SIGTERM after its second question: neither the headline nor a regression source
    running.emulator.requestLog = [];
    const child = spawn(
      process.execPath,
      [
        resolve('bin/reporter-etl.js'),
        'kb',
        'eval',
        '--questions',
        join(dir, 'questions.csv'),
        '--concurrency',
        '1',
      ],
      { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: 'ignore' },
    );
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const retrieves = () => running.emulator.requestLog!.filter((r) => r.url.endsWith('/retrieve')).length;
    while (retrieves() < 2) await new Promise((r) => setTimeout(r, 10));
    child.kill('SIGTERM');
    expect(await exited).toBe(75);
    const asked = retrieves();
    running.emulator.requestLog = undefined;
    expect(asked).toBeLessThan(10);
    const reader = await openWarehouse({ path: join(dir, 'warehouse.duckdb'), access: 'read' });
    let stopped: Record<string, unknown>;
    let stoppedChanges: Record<string, unknown>[];
    try {
      stopped = (await reader.query("select * from kb_eval_run_changes where status = 'stopped'"))[0]!;
      stoppedChanges = await reader.query(
        'select seq, asked, regressed from kb_eval_question_changes where run_id = $r order by seq',
        { r: String(stopped['run_id']) },
      );
    } finally {
      await reader.close();
    }
    expect(stopped['previous_run_id']).toBe(changes[1]!['run_id']);
    expect(stoppedChanges.filter((c) => c['asked']).length).toBe(asked);
    expect(stoppedChanges.filter((c) => !c['asked'] && c['regressed'])).toEqual([]);

    const today = new Date().toISOString().slice(0, 10);
    // without --from/--to: the day of the latest run, not yesterday (which held none)
    const report = await runCli(['report', 'kb-eval', '--json'], env);
    expect(report.code, report.stderr).toBe(0);
    const path = (JSON.parse(report.stdout) as { path: string }).path;
    expect(path).toMatch(new RegExp(`kb-eval_${today}_${today}\\.xlsx$`));
    const { sheets, workbook } = await readWorkbook(path);
    // the headline is the latest run that finished normally (the second), not the stopped one
    const runSheet = sheetNamed(sheets, 'Run');
    expect(column(runSheet, 'Value')[0]).toBe(changes[1]!['run_id']);
    const compared = sheetNamed(sheets, 'Compared with previous');
    // a few records of many figures: printed as a list, a row per figure (src/report/table-rules.ts)
    expect(compared.header).toEqual(['Figure', 'This run', 'Previous run', 'Change']);
    const hit1 = compared.rows.find((r) => r[0] === 'Hit@1')!.slice(1) as number[];
    expect(hit1[0]).toBeCloseTo(hitAt1(secondRanks), 12);
    expect(hit1[1]).toBeCloseTo(hitAt1(firstRanks), 12);
    // a change of a rate in percentage points (issue 45: changes signed with their unit)
    expect(hit1[2]).toBeCloseTo((hitAt1(secondRanks) - hitAt1(firstRanks)) * 100, 10);
    const worse = sheetNamed(sheets, 'Worse than before');
    expect(column(worse, 'Question')).toContain(q0.question);
    const worst = sheetNamed(sheets, 'Worst questions');
    expect(column(worst, 'Question')).toContain(q0.question);
    const runs = sheetNamed(sheets, 'Runs');
    // three runs of many fields: printed as a list, a column per run
    const listed = listedRecords(runs);
    expect(listed.map((r) => r['Run id'])).toEqual([one.runId, changes[1]!['run_id'], stopped['run_id']]);
    expect(listed[0]!['Note']).toBeNull();
    expect(String(listed[2]!['Note'])).toMatch(/^STOPPED/);
    expect(workbook.worksheets.flatMap((w) => w.getImages()).length).toBe(2);

    const html = await runCli(['report', 'kb-eval', '--from', today, '--format', 'html', '--json'], env);
    expect(html.code, html.stderr).toBe(0);
    const page = readFileSync((JSON.parse(html.stdout) as { path: string }).path, 'utf8');
    expect(page).toContain('Worse than before');
    expect(page).toContain(q0.question);
  });

  it('asks the questions a --sql query picks from the warehouse, streamed over SSE', async () => {
    const sql =
      "select question, array_to_string(expected_sources, '|') as expected_sources from kb_eval_questions " +
      'where run_id = (select min(run_id) from kb_eval_runs) order by seq limit 4';
    const r = await runCli(['kb', 'eval', '--sql', sql, '--stream', '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout) as {
      mode: string;
      statusRequests: number;
      metrics: { questions: number; hitAt1: number };
    };
    expect(summary.mode).toBe('stream');
    expect(summary.statusRequests).toBe(0);
    expect(summary.metrics.questions).toBe(4);
    expect(summary.metrics.hitAt1).toBeCloseTo(hitAt1(truthRanks().slice(0, 4)), 12);
  });

  it('warns of expected sources the latest kb sync snapshot does not have, and answers --json with no rows', async () => {
    const sync = await runCli(['kb', 'sync'], env);
    expect(sync.code, sync.stderr).toBe(0);
    const [q0, q1] = kbQuestions(running.emulator);
    // the emulator's truth: its sources' names and ids; the two expectations below are none of them
    const names = [...running.emulator.kb.sources.values()].map((s) => s.name.toLowerCase());
    const ids = [...running.emulator.kb.sources.values()].map((s) => String(s.id));
    expect(names).toContain(q0!.sourceName.toLowerCase());
    expect(names).not.toContain('no-such-source.pdf');
    expect(ids).not.toContain('999999');
    writeFileSync(
      join(dir, 'unknown.csv'),
      `question,expected_sources\n"${q0!.question}",${q0!.sourceName}|no-such-source.pdf\n"${q1!.question}",999999\n`,
    );
    const r = await runCli(['kb', 'eval', '--questions', join(dir, 'unknown.csv'), '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warning: 2 expected sources match no source of the latest kb sync snapshot/);
    expect(r.stderr).toContain('no-such-source.pdf, 999999');
    const summary = JSON.parse(r.stdout) as { unknownExpectedSources: string[] };
    expect(summary.unknownExpectedSources).toEqual(['no-such-source.pdf', '999999']);

    const none = await runCli(
      [
        'kb',
        'eval',
        '--sql',
        "select question from kb_eval_questions where question = 'never asked'",
        '--json',
      ],
      env,
    );
    expect(none.code, none.stderr).toBe(0);
    expect(JSON.parse(none.stdout)).toMatchObject({ questions: 0, runId: null });

    const negative = await runCli(
      ['kb', 'eval', '--questions', join(dir, 'unknown.csv'), '--concurrency', '-1'],
      env,
    );
    expect(negative.code).toBe(2);
    expect(negative.stderr).toContain('--concurrency expects a whole number of at least 1, got "-1"');
  });
});
