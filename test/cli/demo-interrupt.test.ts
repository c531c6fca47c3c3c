// `reporter-etl demo` stopped by SIGTERM while it syncs: the sync stops between windows, no later step runs,
// the demo says it stopped and exits 75 (as an interrupted sync does), without "Done". It once ran every
// remaining step (stats, both reports) after the signal and printed "Done".
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

describe('reporter-etl demo and SIGTERM', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'demo-term-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('stops after the step in progress: no further step, no "Done", exit 75', async () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('REPORTER_')));
    const child = spawn(
      process.execPath,
      ['bin/reporter-etl.js', 'demo', '--sessions', '3000', '--data-dir', join(dir, 'demo')],
      { env: { ...env, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    let signalledAt: number | undefined;
    let afterSignal = -1;
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (signalledAt === undefined && stdout.includes('== sync')) {
        signalledAt = Date.now();
        afterSignal = stdout.length;
        child.kill('SIGTERM');
      }
    });
    const code = await exited;
    expect(signalledAt, `${stdout}\n${stderr}`).toBeDefined();
    const stoppedIn = Date.now() - signalledAt!;
    expect(code, `${stdout}\n${stderr}`).toBe(75);
    expect(stoppedIn, stdout).toBeLessThan(10_000);
    expect(stdout).not.toContain('Done');
    const later = stdout.slice(afterSignal);
    expect(later).not.toMatch(/== (stats|report|platform-report)/);
    expect(stdout).toMatch(/Stopped by SIGTERM/);
  }, 90_000);
});
