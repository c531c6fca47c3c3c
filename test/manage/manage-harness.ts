// Test helpers of the management commands: the sync harness plus a connection to its project, the emulator's
// own view of labels (ground truth, read in-process, never through the client under test), and a runner of a
// CLI Command in-process with the harness environment that maps errors to exit codes as main() does.
import { vi } from 'vitest';
import type { Command, CommandIo } from '../../src/cli/command.js';
import type { ProjectData } from '../../src/emulator/project-data.js';
import { EtlError, EXIT } from '../../src/errors.js';
import { silentLogger } from '../../src/log.js';
import { connectProject, type ProjectConnection } from '../../src/manage/connect-project.js';
import { createHarness, type Harness } from '../helpers/sync-harness.js';

export interface ManageHarness extends Harness {
  p: ProjectData;
  connect(): Promise<ProjectConnection>;
  /** Label ids the platform shows on a session / message now (the emulator's state, not an API answer). */
  sessionLabelIds(sessionId: string): number[];
  messageLabelIds(questionId: string): number[];
  /** Bumped by every change on the platform: unchanged means nothing was written. */
  stateVersion(): number;
  requests(): number;
}

export async function createManageHarness(
  options: Parameters<typeof createHarness>[0] = {},
): Promise<ManageHarness> {
  const h = await createHarness({ ...options, emulator: { sessions: 600, days: 3, ...options.emulator } });
  const p = h.running.emulator.project('shop-bot');
  const now = () => h.running.emulator.now();
  return Object.assign(h, {
    p,
    connect: () => connectProject(h.config, { log: silentLogger(), backoffBaseMs: 1 }),
    sessionLabelIds(sessionId: string) {
      const i = p.sessionIndex(sessionId);
      if (i === undefined) throw new Error(`no session ${sessionId}`);
      return p.sessionLabelIds(i, now()).sort((a, b) => a - b);
    },
    messageLabelIds(questionId: string) {
      const at = p.messageIndex(questionId);
      if (!at) throw new Error(`no message ${questionId}`);
      return p.messageLabelIds(at.i, at.k, now()).sort((a, b) => a - b);
    },
    stateVersion: () => p.state.version,
    requests: () => h.running.emulator.requestCount,
  });
}

export interface CommandResult {
  code: number;
  out: string;
  err: string;
}

/** Runs a Command as main() would (errors become exit codes), with the harness environment. */
export async function runCommand(
  command: Command,
  argv: string[],
  env: Record<string, string>,
  options: { isTty?: boolean } = {},
): Promise<CommandResult> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIo = {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    isTty: options.isTty ?? false,
  };
  for (const [key, value] of Object.entries({ LOG_LEVEL: 'silent', ...env })) vi.stubEnv(key, value);
  let code: number;
  try {
    if (argv.includes('--help')) {
      io.out(command.help);
      code = EXIT.ok;
    } else code = await command.run(argv, io);
  } catch (error) {
    if (error instanceof EtlError) {
      err.push(`reporter-etl ${command.name}: ${error.message}`);
      code = error.exitCode;
    } else if (
      error instanceof TypeError &&
      String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS')
    ) {
      err.push(error.message);
      code = EXIT.usage;
    } else throw error;
  } finally {
    vi.unstubAllEnvs();
  }
  return { code, out: out.join('\n'), err: err.join('\n') };
}
