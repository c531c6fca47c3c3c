// `reporter-etl demo`: the whole flow for a newcomer, with no configuration: starts the emulator
// in-process with a seeded week of data, syncs it into a demo warehouse, prints the statistics,
// builds a platform report and reconciles it, then says where everything was written.
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_V1_TOKEN } from '../../emulator/emulator.js';
import { startEmulator } from '../../emulator/server.js';
import { intOption } from '../args.js';
import type { Command, CommandIo } from '../command.js';
import { platformReportCommand } from './platform-report.js';
import { statsCommand } from './stats.js';
import { syncCommand } from './sync.js';

const HELP = `reporter-etl demo [--sessions N] [--data-dir DIR] [--keep]

Runs the whole flow against the built-in emulator, with no configuration:
  1. starts the Reporter API emulator in this process (a seeded week of data, --sessions, default 3000)
  2. reporter-etl sync        → DIR/warehouse.duckdb
  3. reporter-etl stats       → the week's figures, by day in Europe/Moscow
  4. reporter-etl platform-report messages --reconcile
                              → DIR/platform-reports/, compared with the warehouse
and prints the paths of what it wrote. DIR defaults to ./data/demo and is emptied first unless --keep.
The XLSX "summary" report and the scheduler join the demo when they exist.
`;

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
  summary: 'run the whole flow against the built-in emulator (no configuration needed)',
  help: HELP,
  async run(argv, io) {
    const { values } = parseArgs({
      args: argv,
      options: { sessions: { type: 'string' }, 'data-dir': { type: 'string' }, keep: { type: 'boolean' } },
      strict: true,
    });
    const dataDir = resolve(values['data-dir'] ?? 'data/demo');
    if (!values.keep) rmSync(dataDir, { recursive: true, force: true });
    const started = Date.now();
    const running = await startEmulator({
      sessions: intOption(values.sessions, 'sessions', 3000, 100),
      days: 7,
    });
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
        await step(io, 'stats (Europe/Moscow, by day)', () =>
          statsCommand.run(['--tz', 'Europe/Moscow', '--top', '5'], sub),
        ),
        await step(io, 'platform-report messages --reconcile (yesterday)', () =>
          platformReportCommand.run(['messages', '--reconcile'], sub),
        ),
      ];
      io.out('\nWritten:');
      io.out(`  warehouse         ${resolve(dataDir, 'warehouse.duckdb')}`);
      io.out(`  platform reports  ${resolve(dataDir, 'platform-reports')}/`);
      io.out(
        `Done in ${((Date.now() - started) / 1000).toFixed(1)} s. Next: REPORTER_DATA_DIR=${dataDir} npx reporter-etl stats --json`,
      );
      return codes.find((c) => c !== 0) ?? 0;
    } finally {
      await running.close();
    }
  },
};
