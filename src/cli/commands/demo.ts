// `reporter-etl demo`: the whole flow for a newcomer, with no configuration: starts the emulator
// in-process with a seeded week of data, syncs it into a demo warehouse, prints the statistics,
// builds a platform report and reconciles it, then says where everything was written.
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_V1_TOKEN } from '../../emulator/emulator.js';
import { startEmulator } from '../../emulator/server.js';
import { offsetAt } from '../../stats/parse-zoned-time.js';
import { intOption } from '../args.js';
import type { Command, CommandIo } from '../command.js';
import { platformReportCommand } from './platform-report.js';
import { reportCommand } from './report.js';
import { statsCommand } from './stats.js';
import { syncCommand } from './sync.js';

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
and prints the paths of what it wrote. DIR defaults to ./data/demo and is emptied first unless --keep.
Next steps it suggests: the other reports (reporter-etl report --list) and the scheduler
(reporter-etl schedule --list; reporter-etl run sync).
`;

const DEMO_ZONE = 'Europe/Moscow';

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
