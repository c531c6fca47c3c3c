// Runs the compiled CLI (`node bin/reporter-etl.js ...`) as a child process with extra environment, and
// gives back its exit code and output whatever the code (execFile rejects on a non-zero exit).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  try {
    const r = await run(process.execPath, ['bin/reporter-etl.js', ...args], {
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
