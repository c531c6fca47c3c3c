// The README's first command: `reporter-etl demo` runs the whole flow with no configuration at all, and
// writes only into a folder of its own: it never empties a folder it did not make (`--data-dir ..` once
// deleted the parent of the working folder). One whole demo, run once into an empty folder, serves both the
// check of its output and the --data-dir rules that need an earlier demo's folder (a rerun there).
import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CliResult, runCli } from '../helpers/run-cli.js';

/** The first demo: an empty folder of its own, as a user starts it (no REPORTER_ setting, the default log level). */
let root: string;
let demo: string;
let firstRun: CliResult;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'demo-'));
  demo = join(root, 'demo');
  mkdirSync(demo);
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('REPORTER_')));
  firstRun = await new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/reporter-etl.js', 'demo', '--sessions', '100', '--data-dir', demo],
      { env: env as NodeJS.ProcessEnv },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}, 120_000);
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('reporter-etl demo', () => {
  it('syncs, computes statistics, writes the summary workbook and reconciles a platform report against its own emulator', async () => {
    // runs first: the --data-dir checks below rerun the demo in its folder
    const { code, stdout, stderr } = firstRun;
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/shop-bot: success/);
    // piped, as here: no raw JSON log line, no Node warning
    expect(`${stdout}\n${stderr}`).not.toMatch(/^\s*\{"level"|Warning:/m);
    // the Chat API: the app's dialogues, the channel's history in the sync, its events, its funnel row
    expect(stdout).toMatch(/demo-app-client-1: Привет → \S/);
    expect(stdout).toMatch(/Chat API site: success · [\d,]+ clients · [\d,]+ messages/);
    expect(stdout).toMatch(/site: [\d,]+ new events/);
    expect(stdout).toMatch(/received \S+: \S.* \[\/Delivery\/Status\]/);
    expect(stdout).toMatch(/2 pushes received and stored in chatapi_webhook_events/);
    expect(stdout).toMatch(/^\s+chatapi(\s+[\d,]+){7}\s+[\d.]+%\s+[\d.]+%\s+n\/a$/m);
    expect(stdout).toMatch(/Totals/);
    expect(stdout).toMatch(/they agree/);
    // the notification of the sync run whose alert rule fired, as the emulated Pushgate received it
    expect(stdout).toMatch(/alert firing: shop-bot: unrecognisedShare [\d.]+ above 0/);
    expect(stdout).toMatch(/Pushgate received 1 push on the ops pushback \(ops-…\):/);
    expect(stdout).toMatch(/"state": "firing"/);
    expect(stdout).not.toContain('ops-7f3c9a1e5b2d4c68e0a1');
    expect(existsSync(join(demo, 'warehouse.duckdb'))).toBe(true);
    expect(readdirSync(join(demo, 'platform-reports')).some((f) => f.endsWith('.xlsx'))).toBe(true);
    const [kbEval, page, summary, ...others] = readdirSync(join(demo, 'reports')).sort();
    expect(others).toEqual([]);
    expect(summary).toMatch(/^summary_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.xlsx$/);
    // the same summary as one HTML page, named last, to open
    expect(page).toBe(summary!.replace(/\.xlsx$/, '.html'));
    expect(readFileSync(join(demo, 'reports', page!), 'utf8')).toContain('<svg');
    expect(stdout.trimEnd().split('\n').at(-1)).toBe(`Open in a browser: ${join(demo, 'reports', page!)}`);
    // the knowledge base: a snapshot, an evaluation whose figures are printed, its report
    expect(stdout).toMatch(/Knowledge base project support-kb \(id 7001\): snapshot/);
    expect(stdout).toMatch(/kb eval \S+ on project support-kb \(id 7001\): success, 12 questions \(async\)/);
    expect(stdout).toMatch(/hit@1 [\d.]+ % · hit@5 [\d.]+ % · MRR [\d.]+/);
    expect(kbEval).toMatch(/^kb-eval_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.xlsx$/);
    expect(existsSync(join(demo, 'kb-questions.csv'))).toBe(true);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(join(demo, 'reports', summary!));
    expect(workbook.worksheets.map((w) => w.name)).toContain('Summary');
    expect(workbook.worksheets.flatMap((w) => w.getImages())).toHaveLength(4);
    // the report's delivery funnel has the Chat API's row too
    const funnel = workbook.getWorksheet('Delivery funnel');
    const channels: unknown[] = [];
    funnel?.eachRow((row) => channels.push(row.getCell(1).value));
    expect(channels).toContain('chatapi');
    expect(stdout).toContain(summary);
  });
});

describe("reporter-etl demo's --data-dir", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'demo-dir-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const STACK = /\n\s+at |ENOTDIR|EEXIST/;

  it("refuses a folder holding a user's file and leaves it untouched (exit 2)", async () => {
    const data = join(dir, 'data');
    mkdirSync(data);
    writeFileSync(join(data, 'warehouse.duckdb'), 'my real warehouse');
    const r = await runCli(['demo', '--sessions', '100', '--data-dir', data], {});
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      `--data-dir ${data} already holds files the demo did not make (warehouse.duckdb)`,
    );
    expect(r.stderr).not.toMatch(STACK);
    expect(readdirSync(data)).toEqual(['warehouse.duckdb']);
    expect(readFileSync(join(data, 'warehouse.duckdb'), 'utf8')).toBe('my real warehouse');
    // --keep does not make a user's folder the demo's either
    const kept = await runCli(['demo', '--sessions', '100', '--keep', '--data-dir', data], {});
    expect(kept.code, kept.stderr).toBe(2);
    expect(readdirSync(data)).toEqual(['warehouse.duckdb']);
  }, 90_000);

  it('refuses the parent of the working folder (--data-dir ..) and leaves it untouched (exit 2)', async () => {
    const work = join(dir, 'work');
    mkdirSync(work);
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    const r = await runCli(['demo', '--sessions', '100', '--data-dir', '..'], {}, { cwd: work });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /--data-dir .* (holds the working folder|already holds files the demo did not make)/,
    );
    expect(r.stderr).not.toMatch(STACK);
    expect(readdirSync(dir).sort()).toEqual(['notes.txt', 'work']);
    expect(readdirSync(work)).toEqual([]);
  }, 90_000);

  it('refuses a folder under a regular file with a clean message (exit 2)', async () => {
    writeFileSync(join(dir, 'file'), 'x');
    const r = await runCli(['demo', '--sessions', '100', '--data-dir', join(dir, 'file', 'demo')], {});
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/a part of this path is a file, not a folder/);
    expect(r.stderr).not.toMatch(STACK);
  }, 90_000);

  it("takes an empty folder and lists what it wrote; a rerun refuses a user's file there, and removes only its own", async () => {
    // the first demo (beforeAll) took `demo` empty
    expect(firstRun.code, firstRun.stderr).toBe(0);
    const [summary] = readdirSync(join(demo, 'reports'));
    const demoFiles = readdirSync(demo).sort();

    // a user's file at the top level, then inside reports/: refused, nothing removed
    for (const mine of [join(demo, 'notes.txt'), join(demo, 'reports', 'mine.xlsx')]) {
      writeFileSync(mine, 'mine');
      const r = await runCli(['demo', '--sessions', '100', '--data-dir', demo], {});
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain('already holds files the demo did not make');
      expect(r.stderr).toContain(mine.slice(demo.length + 1));
      expect(r.stderr).not.toMatch(STACK);
      expect(readFileSync(mine, 'utf8')).toBe('mine');
      expect(readdirSync(join(demo, 'reports'))).toContain(summary);
      expect(existsSync(join(demo, 'warehouse.duckdb'))).toBe(true);
      // --keep does not take it either
      const kept = await runCli(['demo', '--sessions', '100', '--keep', '--data-dir', demo], {});
      expect(kept.code, kept.stderr).toBe(2);
      expect(readFileSync(mine, 'utf8')).toBe('mine');
      rmSync(mine);
    }
    expect(readdirSync(demo).sort()).toEqual(demoFiles);
    const marker = JSON.parse(readFileSync(join(demo, '.reporter-etl-demo'), 'utf8')) as {
      created: string[];
    };
    expect(marker.created).toEqual(
      expect.arrayContaining(['warehouse.duckdb', 'reports/', 'platform-reports/']),
    );
    expect(marker.created).toContain(`reports/${summary}`);
    expect(marker.created).toContain('kb-questions.csv');

    // the marker copied into a user's folder makes nothing there the demo's
    const copied = join(dir, 'copied');
    mkdirSync(copied);
    writeFileSync(join(copied, '.reporter-etl-demo'), readFileSync(join(demo, '.reporter-etl-demo')));
    writeFileSync(join(copied, 'warehouse.duckdb'), 'my real warehouse');
    writeFileSync(join(copied, 'notes.txt'), 'mine');
    const c = await runCli(['demo', '--sessions', '100', '--data-dir', copied], {});
    expect(c.code, c.stderr).toBe(2);
    expect(c.stderr).toMatch(/made for another folder/);
    expect(c.stderr).not.toMatch(STACK);
    expect(readdirSync(copied).sort()).toEqual(['.reporter-etl-demo', 'notes.txt', 'warehouse.duckdb']);
    expect(readFileSync(join(copied, 'warehouse.duckdb'), 'utf8')).toBe('my real warehouse');

    // an older demo's marker (no list of what it wrote) beside a user's file: refused as well
    const older = join(dir, 'older');
    mkdirSync(older);
    writeFileSync(
      join(older, '.reporter-etl-demo'),
      'Made by `reporter-etl demo`, which may empty this folder.\n',
    );
    writeFileSync(join(older, 'notes.txt'), 'mine');
    const o = await runCli(['demo', '--sessions', '100', '--data-dir', older], {});
    expect(o.code, o.stderr).toBe(2);
    expect(o.stderr).toMatch(/does not list what the demo wrote/);
    expect(readdirSync(older).sort()).toEqual(['.reporter-etl-demo', 'notes.txt']);

    // a clean rerun removes the first run's files and works again
    const second = await runCli(['demo', '--sessions', '100', '--data-dir', demo], {});
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/shop-bot: success/);
    expect(existsSync(join(demo, '.reporter-etl-demo'))).toBe(true);
    expect(existsSync(join(demo, 'warehouse.duckdb'))).toBe(true);
    // the summary (XLSX and HTML) and the kb-eval report, each once
    expect(readdirSync(join(demo, 'reports'))).toHaveLength(3);
  }, 300_000);
});
