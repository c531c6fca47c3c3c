// The reporter-etl CLI entry: dispatches to a command, maps errors to exit codes (0 ok, 1 failed,
// 2 usage or configuration, 75 try again later); bin.ts sets the process exit code from it.
import { EtlError, EXIT } from '../errors.js';
import type { CommandEntry, CommandIo } from './command.js';

/**
 * The commands, each loaded only when it runs: importing them all (DuckDB, exceljs, the emulator) would cost
 * every invocation about 0.4 s, `--help` and each scheduled run included.
 */
const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'demo',
    summary: 'run the whole flow against the built-in emulator (no configuration needed)',
    load: async () => (await import('./commands/demo.js')).demoCommand,
  },
  {
    name: 'sync',
    summary: 'sync the Reporter API into the DuckDB warehouse',
    load: async () => (await import('./commands/sync.js')).syncCommand,
  },
  {
    name: 'stats',
    summary: 'statistics over the warehouse; --reconcile compares them with the platform',
    load: async () => (await import('./commands/stats.js')).statsCommand,
  },
  {
    name: 'report',
    summary: 'write an XLSX report for analysts (summary, sessions, messages, labels); --list lists them',
    load: async () => (await import('./commands/report.js')).reportCommand,
  },
  {
    name: 'runs',
    summary: 'show the run history (etl_runs)',
    load: async () => (await import('./commands/runs.js')).runsCommand,
  },
  {
    name: 'sql',
    summary: 'run one read-only SQL query over the warehouse (table, CSV or JSON)',
    load: async () => (await import('./commands/sql.js')).sqlCommand,
  },
  {
    name: 'schedule',
    summary: 'run the jobs on their schedules (sync, daily reports, retention) until stopped',
    load: async () => (await import('./commands/schedule.js')).scheduleCommand,
  },
  {
    name: 'run',
    summary: 'run one scheduled job once, now (sync, daily-report, platform-daily, retention)',
    load: async () => (await import('./commands/run.js')).runCommand,
  },
  {
    name: 'platform-report',
    summary: "the platform's own reports: create, wait, download, resume, reconcile",
    load: async () => (await import('./commands/platform-report.js')).platformReportCommand,
  },
  {
    name: 'labels',
    summary: 'list, create, rename and delete session labels, message labels and their groups',
    load: async () => (await import('./commands/labels.js')).labelsCommand,
  },
  {
    name: 'label-sessions',
    summary: 'put a session label on the sessions a SQL query picks from the warehouse',
    load: async () => (await import('./commands/label-sessions.js')).labelSessionsCommand,
  },
  {
    name: 'label-messages',
    summary: 'put a message label on the messages a SQL query picks from the warehouse',
    load: async () => (await import('./commands/label-messages.js')).labelMessagesCommand,
  },
  {
    name: 'clients',
    summary: 'show, block and unblock a client of a bot',
    load: async () => (await import('./commands/clients.js')).clientsCommand,
  },
  {
    name: 'experiments',
    summary: 'list, create, stop and delete scenario experiments, count their sessions',
    load: async () => (await import('./commands/experiments.js')).experimentsCommand,
  },
  {
    name: 'emulator',
    summary: 'serve the local Reporter API emulator',
    load: async () => (await import('./commands/emulator.js')).emulatorCommand,
  },
];

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'reporter-etl: sync the platform Reporter API into DuckDB, compute statistics, write XLSX reports.',
    '',
    'Usage: reporter-etl <command> [options]    (reporter-etl <command> --help for its options)',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
  ].join('\n');
}

export async function main(argv: string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(usage());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    io.err(`reporter-etl: unknown command "${name}"\n\n${usage()}`);
    return EXIT.usage;
  }
  const command = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(command.help);
    return EXIT.ok;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof EtlError) {
      io.err(`reporter-etl ${name}: ${error.message}`);
      return error.exitCode;
    }
    if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) {
      io.err(`reporter-etl ${name}: ${error.message}\nSee: reporter-etl ${name} --help`);
      return EXIT.usage;
    }
    io.err(
      `reporter-etl ${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return EXIT.failed;
  }
}
