// `reporter-etl demo`: the whole flow for a newcomer, with no configuration: starts the emulator
// in-process with a seeded week of data, syncs it into a demo warehouse, prints the statistics,
// builds a platform report and reconciles it, then says where everything was written. It writes only into a
// folder of its own (new, empty, or marked by an earlier demo) and never removes anything it did not make.
import { mkdirSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_V1_TOKEN } from '../../emulator/emulator.js';
import { startEmulator } from '../../emulator/server.js';
import { UsageError } from '../../errors.js';
import { offsetAt } from '../../time/parse-zoned-time.js';
import { intOption } from '../args.js';
import type { Command, CommandIo } from '../command.js';
import { platformReportCommand } from './platform-report.js';
import { reportCommand } from './report.js';
import { statsCommand } from './stats.js';
import { syncCommand } from './sync.js';

/** The file that marks a folder the demo made: only such a folder (or an empty one) is ever emptied. */
export const DEMO_MARKER = '.reporter-etl-demo';

const HELP = `reporter-etl demo [--sessions N] [--data-dir DIR] [--keep]

Runs the whole flow against the built-in emulator, with no configuration:
  1. starts the Reporter API emulator in this process (a seeded week of data, --sessions, default 3000)
  2. reporter-etl sync        → DIR/warehouse.duckdb
  3. reporter-etl stats       → the week's figures, by day in Europe/Moscow
  4. reporter-etl report summary
                              → DIR/reports/summary_<first day>_<last day>.xlsx: the last 7 whole days in
                                Europe/Moscow, with KPIs, tables and charts, for Excel or LibreOffice
  5. reporter-etl platform-report messages --reconcile
                              → DIR/platform-reports/, compared with the warehouse
and prints the paths of what it wrote. DIR defaults to ./data/demo.
Next steps it suggests: the other reports (reporter-etl report --list) and the scheduler
(reporter-etl schedule --list; reporter-etl run sync).

The demo writes only into a folder of its own: a new or empty DIR, which it marks with a file named
${DEMO_MARKER}, or a DIR an earlier demo marked, which it empties first (unless --keep). A DIR that
holds anything else (your warehouse, say), or that holds the working folder, is refused (exit 2) and left
untouched.
`;

const DEMO_ZONE = 'Europe/Moscow';

/** Whether `inner` is `outer` or lies inside it. */
function isWithin(inner: string, outer: string): boolean {
  const path = relative(outer, inner);
  return path === '' || (!path.startsWith('..') && !isAbsolute(path));
}

/**
 * Makes `dir` the demo's folder: creates it, or takes an empty one, marking it; empties one an earlier demo
 * marked (unless `keep`). Anything else is refused with a UsageError (exit 2) before anything is changed.
 */
function prepareDemoDir(dir: string, keep: boolean): void {
  const option = `--data-dir ${dir}`;
  const mark = () =>
    writeFileSync(join(dir, DEMO_MARKER), 'Made by `reporter-etl demo`, which may empty this folder.\n');
  let isDirectory: boolean;
  try {
    isDirectory = statSync(dir).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR')
      throw new UsageError(`${option}: a part of this path is a file, not a folder; choose another folder`);
    if (code !== 'ENOENT')
      throw new UsageError(`${option}: cannot use this folder (${(error as Error).message})`);
    try {
      mkdirSync(dir, { recursive: true });
    } catch (cause) {
      const reason =
        (cause as NodeJS.ErrnoException).code === 'ENOTDIR' ||
        (cause as NodeJS.ErrnoException).code === 'EEXIST'
          ? 'a part of this path is a file, not a folder'
          : `cannot create it (${(cause as Error).message})`;
      throw new UsageError(`${option}: ${reason}; choose another folder`);
    }
    mark();
    return;
  }
  if (!isDirectory) throw new UsageError(`${option} is a file, not a folder; choose a folder for the demo`);
  const cwd = realpathSync(process.cwd());
  const real = realpathSync(dir);
  if (cwd !== real && isWithin(cwd, real))
    throw new UsageError(
      `${option} holds the working folder ${cwd}: the demo writes into a folder of its own, ` +
        'e.g. --data-dir ./data/demo. Nothing was changed.',
    );
  const entries = readdirSync(dir);
  if (entries.length === 0) {
    mark();
    return;
  }
  if (!entries.includes(DEMO_MARKER)) {
    const shown =
      entries.slice(0, 3).join(', ') + (entries.length > 3 ? `, ... (${entries.length} entries)` : '');
    throw new UsageError(
      `${option} already holds files the demo did not make (${shown}). The demo writes only into a new or ` +
        `empty folder, or one an earlier demo made (it leaves a ${DEMO_MARKER} file there): choose another ` +
        'folder. Nothing was changed.',
    );
  }
  if (keep) return;
  for (const entry of entries)
    if (entry !== DEMO_MARKER) rmSync(join(dir, entry), { recursive: true, force: true });
}

/** YYYY-MM-DD of an instant in a zone (its wall-clock time, as the statistics compute it). */
function localDate(t: number, timeZone: string): string {
  return new Date(t + offsetAt(t, timeZone)).toISOString().slice(0, 10);
}

/** Output of a step, indented under its heading. */
function indented(io: CommandIo): CommandIo {
  return {
    out: (line) => io.out(`  ${line.split('\n').join('\n  ')}`),
    err: (line) => io.err(`  ${line}`),
    isTty: false,
  };
}

async function step(io: CommandIo, title: string, run: () => Promise<number>): Promise<number> {
  io.out(`\n== ${title}`);
  const started = Date.now();
  const code = await run();
  io.out(`   (${((Date.now() - started) / 1000).toFixed(1)} s, exit ${code})`);
  return code;
}

export const demoCommand: Command = {
  name: 'demo',
  help: HELP,
  async run(argv, io) {
    const { values } = parseArgs({
      args: argv,
      options: { sessions: { type: 'string' }, 'data-dir': { type: 'string' }, keep: { type: 'boolean' } },
      strict: true,
    });
    const dataDir = resolve(values['data-dir'] ?? 'data/demo');
    const sessions = intOption(values.sessions, 'sessions', 3000, 100);
    prepareDemoDir(dataDir, values.keep ?? false);
    const started = Date.now();
    const running = await startEmulator({ sessions, days: 7 });
    io.out(
      `Emulator: ${running.url} · ${running.emulator.options.sessions} sessions over 7 days · token ${DEFAULT_V1_TOKEN}`,
    );
    // the commands read their configuration from the environment, as they do for a user
    Object.assign(process.env, {
      REPORTER_BASE_URL: running.url,
      REPORTER_TOKEN: DEFAULT_V1_TOKEN,
      REPORTER_API: 'v1',
      REPORTER_PROJECT: 'shop-bot',
      REPORTER_DATA_DIR: dataDir,
      REPORTER_HISTORY_DAYS: '8',
      REPORTER_RATE_LIMIT_RPM: '600000',
      REPORTER_CONCURRENCY: '8',
      LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'warn',
    });
    const sub = indented(io);
    try {
      const codes = [
        await step(io, 'sync', () => syncCommand.run([], sub)),
        await step(io, `stats (${DEMO_ZONE}, by day)`, () =>
          statsCommand.run(['--tz', DEMO_ZONE, '--top', '5'], sub),
        ),
        await step(io, `report summary (the last 7 whole days in ${DEMO_ZONE})`, () =>
          reportCommand.run(
            [
              'summary',
              '--from',
              localDate(running.emulator.now() - 7 * 86_400_000, DEMO_ZONE),
              '--to',
              localDate(running.emulator.now(), DEMO_ZONE),
              '--tz',
              DEMO_ZONE,
            ],
            sub,
          ),
        ),
        await step(io, 'platform-report messages --reconcile (yesterday)', () =>
          platformReportCommand.run(['messages', '--reconcile'], sub),
        ),
      ];
      io.out('\nWritten:');
      io.out(`  warehouse         ${resolve(dataDir, 'warehouse.duckdb')}`);
      io.out(`  XLSX reports      ${resolve(dataDir, 'reports')}/`);
      io.out(`  platform reports  ${resolve(dataDir, 'platform-reports')}/`);
      io.out(
        `Done in ${((Date.now() - started) / 1000).toFixed(1)} s. Next, with REPORTER_DATA_DIR=${dataDir}: ` +
          'npx reporter-etl stats --json · npx reporter-etl report --list · npx reporter-etl runs',
      );
      return codes.find((c) => c !== 0) ?? 0;
    } finally {
      await running.close();
    }
  },
};
