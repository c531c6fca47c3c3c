// Runs the compiled CLI (`node bin/reporter-etl.js ...`) as a child process with extra environment, and
// gives back its exit code and output whatever the code (execFile rejects on a non-zero exit); `cwd` runs it
// from another working folder.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

const BIN = resolve('bin/reporter-etl.js');

export async function runCli(
  args: string[],
  env: Record<string, string>,
  options: { cwd?: string } = {},
): Promise<CliResult> {
  try {
    const r = await run(process.execPath, [BIN, ...args], {
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
