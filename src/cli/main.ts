// The reporter-etl CLI entry: dispatches to a command, maps errors to exit codes (0 ok, 1 failed,
// 2 usage or configuration, 75 try again later); bin.ts sets the process exit code from it.
import { EtlError, EXIT } from '../errors.js';
import type { Command, CommandIo } from './command.js';
import { clientsCommand } from './commands/clients.js';
import { demoCommand } from './commands/demo.js';
import { emulatorCommand } from './commands/emulator.js';
import { experimentsCommand } from './commands/experiments.js';
import { labelMessagesCommand } from './commands/label-messages.js';
import { labelSessionsCommand } from './commands/label-sessions.js';
import { labelsCommand } from './commands/labels.js';
import { platformReportCommand } from './commands/platform-report.js';
import { reportCommand } from './commands/report.js';
import { runCommand } from './commands/run.js';
import { runsCommand } from './commands/runs.js';
import { scheduleCommand } from './commands/schedule.js';
import { statsCommand } from './commands/stats.js';
import { syncCommand } from './commands/sync.js';

const COMMANDS: Command[] = [
  demoCommand,
  syncCommand,
  statsCommand,
  reportCommand,
  runsCommand,
  scheduleCommand,
  runCommand,
  platformReportCommand,
  labelsCommand,
  labelSessionsCommand,
  labelMessagesCommand,
  clientsCommand,
  experimentsCommand,
  emulatorCommand,
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
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.err(`reporter-etl: unknown command "${name}"\n\n${usage()}`);
    return EXIT.usage;
  }
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
