// Test harness for platform reports: the sync harness (emulator + temp warehouse) with a ready
// PlatformReportContext, the emulator's own count of report tasks, the files in the output directory, an
// independent reader of downloaded files, and a runner of the platform-report CLI in a child process.
import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EmulatorOptions } from '../../src/emulator/emulator.js';
import { silentLogger } from '../../src/log.js';
import type { PlatformReportContext } from '../../src/platform-reports/report-session.js';
import type { RunOptions } from '../../src/platform-reports/resume-platform-reports.js';
import type { WithWarehouse } from '../../src/platform-reports/task-store.js';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { parseCsv, readXlsx } from '../helpers/reports-files.js';
import { createHarness, type Harness } from '../helpers/sync-harness.js';

export const ACCOUNT = 100500;
export const DAY = 86_400_000;

export interface ReportHarness {
  h: Harness;
  /** The warehouse as the code under test reaches it (one open file with `shared`, else opened per call). */
  withWarehouse: WithWarehouse;
  outDir: string;
  ctx(extra?: Partial<PlatformReportContext>): PlatformReportContext;
  options(extra?: Partial<RunOptions>): RunOptions;
  /** Report tasks the emulator holds (DELETED ones excluded). */
  platformTasks(): { taskId: string; status: string; kind: string }[];
  /** Files in the output directory (temporary .part files included, so a leftover shows). */
  files(): string[];
  records(): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

export async function createReportHarness(
  options: {
    api?: 'v1' | 'legacy';
    emulator?: Partial<EmulatorOptions>;
    realClock?: boolean;
    env?: Record<string, string>;
    /** Keep one warehouse open for the whole test (faster; nothing else in this process may open it). */
    shared?: boolean;
  } = {},
): Promise<ReportHarness> {
  const h = await createHarness({
    ...(options.api ? { api: options.api } : {}),
    ...(options.realClock ? { realClock: true } : {}),
    emulator: { sessions: 300, days: 2, reportRowsPerSecond: 500_000, ...options.emulator },
    env: { REPORTER_RETRIES: '4', ...options.env },
  });
  const outDir = join(h.dir, 'platform-reports');
  let opened: Promise<Warehouse> | undefined;
  const withWarehouse: WithWarehouse = options.shared
    ? async (fn) => fn(await (opened ??= openWarehouse({ path: h.config.warehousePath, lockWaitMs: 2000 })))
    : h.withWarehouse;
  return {
    h,
    withWarehouse,
    outDir,
    ctx: (extra = {}) => ({
      config: h.config,
      project: h.config.projects[0]!,
      log: silentLogger(),
      withWarehouse,
      now: () => h.running.emulator.now(),
      backoffBaseMs: 5,
      pollIntervalMs: 20,
      ...extra,
    }),
    options: (extra = {}) => ({ deadlineMs: 20_000, pollSeconds: 5, outDir, ...extra }),
    platformTasks: () =>
      h.running.emulator.reports
        .list(ACCOUNT)
        .map((t) => ({ taskId: t.taskId, status: t.status, kind: t.kind })),
    files: () => (existsSync(outDir) ? readdirSync(outDir).sort() : []),
    records: () =>
      withWarehouse((w) => w.query('select * from platform_report_tasks order by created_at, id')),
    async close() {
      if (opened) await (await opened).close();
      await h.close();
    },
  };
}

/** A downloaded report as rows of text cells, read independently of the code under test. */
export async function fileRows(path: string): Promise<string[][]> {
  if (path.endsWith('.csv')) return parseCsv(readFileSync(path, 'utf8'), ',');
  const data = readFileSync(path);
  const { rows } = await readXlsx(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
  return rows.map((r) => r.map((c) => (c === null ? '' : String(c))));
}

export const sorted = (values: readonly unknown[]): string[] => values.map(String).sort();

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * Runs `reporter-etl platform-report ...` in a child process: through bin/reporter-etl.js once the command
 * is registered in the CLI, until then through its compiled module directly (same output and exit codes).
 */
function commandLine(args: string[]): string[] {
  const main = join(ROOT, 'dist/src/cli/main.js');
  if (existsSync(main) && readFileSync(main, 'utf8').includes('platformReportCommand'))
    return [join(ROOT, 'bin/reporter-etl.js'), 'platform-report', ...args];
  const command = pathToFileURL(join(ROOT, 'dist/src/cli/commands/platform-report.js')).href;
  const errors = pathToFileURL(join(ROOT, 'dist/src/errors.js')).href;
  const shim = `
    const { platformReportCommand: c } = await import(${JSON.stringify(command)});
    const { EtlError } = await import(${JSON.stringify(errors)});
    const io = { out: (l) => process.stdout.write(l + '\\n'), err: (l) => process.stderr.write(l + '\\n'), isTty: false };
    const args = process.argv.slice(1);
    if (args.includes('--help')) { io.out(c.help); process.exitCode = 0; }
    else {
      try { process.exitCode = await c.run(args, io); }
      catch (e) {
        if (e instanceof EtlError) { io.err('reporter-etl platform-report: ' + e.message); process.exitCode = e.exitCode; }
        else if (String(e?.code).startsWith('ERR_PARSE_ARGS')) { io.err('reporter-etl platform-report: ' + e.message); process.exitCode = 2; }
        else { io.err(String(e?.stack ?? e)); process.exitCode = 1; }
      }
    }`;
  return ['--input-type=module', '-e', shim, '--', ...args];
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function cli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      commandLine(args),
      { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'warn', ...env } },
      (error, stdout, stderr) => {
        const code = error ? Number((error as { code?: unknown }).code ?? 1) : 0;
        done({ code, stdout, stderr });
      },
    );
  });
}

/** Starts the CLI without waiting for it: for killing it mid-way. */
export function spawnCli(args: string[], env: Record<string, string>) {
  return spawn(process.execPath, commandLine(args), {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export async function waitFor(test: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const stop = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > stop) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
