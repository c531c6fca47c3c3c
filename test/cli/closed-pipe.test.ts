// `reporter-etl ... | head -2`: a reader that closes the pipe ends the CLI quietly (exit 0), never with
// an EPIPE stack on stderr. The child's stdout is closed before it writes anything, so its first write fails.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** Runs the compiled CLI with its stdout closed from the start; resolves with its exit code and stderr. */
function runWithClosedStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/reporter-etl.js', ...args], {
      env: { ...process.env, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy(); // the only reader of the pipe is gone before the CLI has started
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('a closed stdout', () => {
  it('ends --help quietly with exit 0', async () => {
    const r = await runWithClosedStdout(['--help']);
    expect(r.stderr).not.toMatch(/EPIPE|Error|at /);
    expect(r.code).toBe(0);
  }, 90_000);

  it('ends a long-running command (the emulator) quietly instead of a stack', async () => {
    const r = await runWithClosedStdout(['emulator', '--port', '0', '--sessions', '100']);
    expect(r.stderr).not.toMatch(/EPIPE|Error|at /);
    expect(r.code).toBe(0);
  }, 90_000);
});
