// The reporter-etl CLI entry: dispatches to a command, maps errors to exit codes (0 ok, 1 failed,
// 2 usage or configuration, 75 try again later); bin.ts sets the process exit code from it.
import { readFileSync } from 'node:fs';
import { EtlError, EXIT } from '../errors.js';
import { CONFIG_DEFAULTS as D } from '../settings/config-defaults.js';
import { SOURCE_COMMANDS } from '../sources/source-commands.js';
import { suggestKey } from '../text/suggest-near.js';
import { wrapHelp } from '../text/wrap-help.js';
import type { CommandEntry, CommandIo } from './command.js';

/**
 * The commands, each loaded only when it runs: importing them all (DuckDB, exceljs, the emulator) would cost
 * every invocation about 0.4 s, `--help` and each scheduled run included.
 */
const BUILT_IN_COMMANDS: readonly CommandEntry[] = [
  {
    name: 'demo',
    summary: 'run the whole flow against the built-in emulator (no configuration needed)',
    load: async () => (await import('./commands/demo.js')).demoCommand,
  },
  {
    name: 'sync',
    summary: "sync the Reporter API (and the Chat API channels' history) into the warehouse",
    load: async () => (await import('./commands/sync.js')).syncCommand,
  },
  {
    name: 'stats',
    summary: 'statistics over the warehouse; --reconcile compares them with the platform',
    load: async () => (await import('./commands/stats.js')).statsCommand,
  },
  {
    name: 'unhandled',
    summary: 'the questions the bot cannot handle, grouped into topics, checked against the KB',
    load: async () => (await import('./commands/unhandled.js')).unhandledCommand,
  },
  {
    name: 'paths',
    summary: "where conversations go through the bot's states, where they get lost, against the platform",
    load: async () => (await import('./commands/paths.js')).pathsCommand,
  },
  {
    name: 'report',
    // the ids of reports/index.ts (not imported here: it loads every report); test/cli/help-*.test.ts checks them
    summary:
      'write a report (XLSX or HTML): summary, sessions, messages, labels, prompter, kb-health, kb-eval, unhandled, paths',
    load: async () => (await import('./commands/report.js')).reportCommand,
  },
  {
    name: 'runs',
    summary: 'show the run history (etl_runs)',
    load: async () => (await import('./commands/runs.js')).runsCommand,
  },
  {
    name: 'rollups',
    summary:
      "rebuild the statistics' rollups from the raw rows (rollups rebuild), should they ever be in doubt",
    load: async () => (await import('./commands/rollups.js')).rollupsCommand,
  },
  {
    name: 'sql',
    summary: 'run one read-only SQL query over the warehouse (table, CSV or JSON)',
    load: async () => (await import('./commands/sql.js')).sqlCommand,
  },
  {
    name: 'chatapi-events',
    summary: 'store the events of the Chat API channels (agent replies, ...), or --follow them',
    load: async () => (await import('./commands/chatapi-events.js')).chatApiEventsCommand,
  },
  {
    name: 'webhooks',
    summary: "receive the platform's pushes (Chat API answers, Prompter options)",
    load: async () => (await import('./commands/webhooks.js')).webhooksCommand,
  },
  {
    name: 'export',
    summary: 'export parquet | clickhouse: the warehouse into a Parquet lake or ClickHouse',
    load: async () => (await import('./commands/export.js')).exportCommand,
  },
  {
    name: 'prompter',
    summary: 'prompter ask: send questions to the Prompter API, to measure its suggestions',
    load: async () => (await import('./commands/prompter.js')).prompterCommand,
  },
  {
    name: 'kb',
    summary: 'the knowledge base: kb sync (a dated snapshot), kb eval (retrieval and answers)',
    load: async () => (await import('./commands/kb.js')).kbCommand,
  },
  {
    name: 'schedule',
    summary: 'run the jobs on their schedules (sync, exports, daily reports, ...) until stopped',
    load: async () => (await import('./commands/schedule.js')).scheduleCommand,
  },
  {
    name: 'run',
    summary: 'run one job once, now (sync, daily-report, ...; run --help names them all)',
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
    name: 'pushgate',
    summary: 'pushgate send: fire the pushbacks of the dialogs a SQL query picks',
    load: async () => (await import('./commands/pushgate.js')).pushgateCommand,
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
    summary: 'serve the local emulator of the platform (the Reporter API and the Chat API)',
    load: async () => (await import('./commands/emulator.js')).emulatorCommand,
  },
];

/**
 * The built-in commands, then the commands the source units offer (each loaded only when it runs), from their
 * light list: main.ts imports nothing heavy, so `--help` and `--version` answer in a tenth of a second.
 */
const COMMANDS: readonly CommandEntry[] = [...BUILT_IN_COMMANDS, ...SOURCE_COMMANDS];

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'reporter-etl: sync the platform (Reporter and Chat API) into DuckDB; statistics, reports, exports.',
    '',
    'Usage: reporter-etl <command> [options]',
    '       reporter-etl help <command>    (or: reporter-etl <command> --help) every option of a command',
    '       reporter-etl --version',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Configuration (environment; docs/configuration.md has every setting):',
    '  REPORTER_TOKEN      the Reporter API token (required by the commands that talk to the platform)',
    `  REPORTER_BASE_URL   the platform's address (default ${D.REPORTER_BASE_URL})`,
    `  REPORTER_DATA_DIR   the folder of warehouse.duckdb and the reports (default ${D.REPORTER_DATA_DIR})`,
    '  REPORTER_CONFIG     a JSON file with several projects instead of the token and address',
    '  REPORTER_CHATAPI_CHANNELS  the Chat API channels to read too (name=token, comma-separated)',
    '  REPORTER_LAKE_DIR, REPORTER_CLICKHOUSE_URL  where the exports write (a Parquet lake, ClickHouse)',
    '',
    'Exit codes: 0 ok, 1 failed, 2 usage or configuration error, 3 partial (some records rejected),',
    '75 try again later (the platform was unavailable, or the warehouse was busy).',
    '',
    'Examples:',
    '  reporter-etl demo                                   the whole flow against the built-in emulator',
    '  REPORTER_TOKEN=... reporter-etl sync                sync the last 30 days, then every few minutes',
    '  reporter-etl stats --from 2026-11-01 --to 2026-11-08 --tz Europe/Moscow',
    '  reporter-etl report summary --from 2026-11-01 --to 2026-11-08',
    '  reporter-etl sql "select channel_type, count(*) from sessions group by 1"',
  ].join('\n');
}

/** `reporter-etl 0.1.0 (Node v20.19.0)`: the version of the package this file belongs to. */
function version(): string {
  let dir = new URL('.', import.meta.url);
  for (let depth = 0; depth < 5; depth++, dir = new URL('..', dir)) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'reporter-etl') return `reporter-etl ${pkg.version} (Node ${process.version})`;
    } catch {
      // not here: one folder up
    }
  }
  return `reporter-etl (version unknown; Node ${process.version})`;
}

function unknownCommand(name: string): string {
  const near = suggestKey(
    name,
    COMMANDS.map((c) => c.name),
  );
  return (
    `reporter-etl: unknown command "${name}"${near ? ` (did you mean "${near}"?)` : ''}\n` +
    wrapHelp(`The commands: ${COMMANDS.map((c) => c.name).join(', ')}. See: reporter-etl --help`)
  );
}

/**
 * node:util parseArgs's "Unknown option '--x'. To specify a positional argument starting with a '-', place it
 * at the end of the command after '--', as in ..." in our words: the option, the nearest one the command's
 * help lists, and where to read them all.
 */
function describeParseError(command: string, help: string, error: Error): string {
  const unknown = /^Unknown option '(-{1,2}[^']+)'/.exec(error.message);
  if (unknown) {
    const options = [...new Set(help.match(/--[a-z][a-z0-9-]*/g) ?? [])];
    const near = suggestKey(unknown[1]!, options);
    return (
      `unknown option ${unknown[1]}${near ? ` (did you mean ${near}?)` : ''}\n` +
      `See: reporter-etl ${command} --help`
    );
  }
  return `${error.message}\nSee: reporter-etl ${command} --help`;
}

export async function main(argv: string[], io: CommandIo): Promise<number> {
  const [first, ...afterFirst] = argv;
  if (first === '--version' || first === '-V' || first === 'version') {
    io.out(version());
    return EXIT.ok;
  }
  // `help sync` is `sync --help`, `help kb sync` is `kb sync --help`
  const helpFor = first === 'help' && afterFirst[0] !== undefined ? afterFirst[0] : undefined;
  const [name, ...rest] = helpFor === undefined ? argv : [...afterFirst, '--help'];
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(wrapHelp(usage()));
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    io.err(unknownCommand(name));
    return EXIT.usage;
  }
  const command = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(wrapHelp(command.helpFor?.(rest) ?? command.help));
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
      io.err(`reporter-etl ${name}: ${describeParseError(name, command.help, error)}`);
      return EXIT.usage;
    }
    // a full disk met where no warehouse operation wrapped it (DuckDB invalidates the database after a failed
    // checkpoint, and the next statement says so): still "make room, then run again", exit 75, no stack
    const { isOutOfSpace, outOfSpaceError } = await import('../warehouse/out-of-space.js');
    if (isOutOfSpace(error)) {
      const full = outOfSpaceError('A write to the warehouse failed', error);
      io.err(`reporter-etl ${name}: ${full.message}`);
      return full.exitCode;
    }
    io.err(
      `reporter-etl ${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return EXIT.failed;
  }
}
