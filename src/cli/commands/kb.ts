// `reporter-etl kb <subcommand>`: the knowledge base service (docs/kb.md). Each subcommand lives in its own
// file (kb-<name>.ts) and is listed in KB_SUBCOMMANDS; `kb --help` shows all of their help texts, `kb <sub>
// --help` its own.
import { UsageError } from '../../errors.js';
import type { Command, CommandIo } from '../command.js';
import { kbEvalSubcommand } from './kb-eval.js';
import { kbSyncSubcommand } from './kb-sync.js';

export interface KbSubcommand {
  name: string;
  summary: string;
  /** Its full help, starting with its usage line. */
  help: string;
  run(argv: string[], io: CommandIo): Promise<number>;
}

export const KB_SUBCOMMANDS: readonly KbSubcommand[] = [kbSyncSubcommand, kbEvalSubcommand];

const HELP = `reporter-etl kb <subcommand> [options]

The knowledge base service (REPORTER_KB_BASE_URL, keys REPORTER_KB_KEY and REPORTER_KB_ADMIN_KEY; see
docs/kb.md). Subcommands:
${KB_SUBCOMMANDS.map((s) => `  ${s.name.padEnd(8)} ${s.summary}`).join('\n')}

${KB_SUBCOMMANDS.map((s) => s.help).join('\n')}`;

export const kbCommand: Command = {
  name: 'kb',
  help: HELP,
  // `kb sync --help` is kb sync's own help; `kb --help` all of them
  helpFor: (argv) => KB_SUBCOMMANDS.find((s) => s.name === argv[0])?.help,
  async run(argv, io) {
    const [name, ...rest] = argv;
    const sub = KB_SUBCOMMANDS.find((s) => s.name === name);
    const names = KB_SUBCOMMANDS.map((s) => s.name).join(', ');
    if (!sub)
      throw new UsageError(
        name === undefined
          ? `kb: give a subcommand: ${names} (reporter-etl kb --help)`
          : `kb: no subcommand ${name} (there is: ${names})`,
      );
    return sub.run(rest, io);
  },
};
