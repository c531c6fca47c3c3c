// Ctrl-C during `reporter-etl sync` of two projects: the stop is said at once, the requests in flight are
// cancelled (an aborted request is neither retried nor warned about), the window being read is left for the
// next run, the second project is not begun, the error is printed once, no Node warning, and the process exits
// 75 within 2 s of the signal. What was committed stays: the next run resumes from it.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_V1_TOKEN } from '../../src/emulator/emulator.js';
import { createHarness, type Harness } from '../helpers/sync-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('reporter-etl sync and Ctrl-C', () => {
  it('cancels the requests in flight, begins no other project, says it once and exits 75 within 2 s', async () => {
    // every answer 150 ms away: a window's reads are in flight when the signal comes
    h = await createHarness({
      realClock: true,
      emulator: { sessions: 6000, projects: ['shop-bot', 'support-bot'], latencyMs: 150 },
    });
    const file = join(h.dir, 'projects.json');
    writeFileSync(
      file,
      JSON.stringify({
        projects: ['shop-bot', 'support-bot'].map((project) => ({
          baseUrl: h!.running.url,
          token: DEFAULT_V1_TOKEN,
          project,
        })),
      }),
    );
    const child = spawn(process.execPath, ['bin/reporter-etl.js', 'sync'], {
      env: {
        ...process.env,
        ...h.env,
        REPORTER_TOKEN: '',
        REPORTER_CONFIG: file,
        REPORTER_HISTORY_DAYS: '7',
        REPORTER_WINDOW_HOURS: '12',
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    let signalledAt = 0;
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (signalledAt === 0 && /"sessions":[1-9][^\n]*"msg":"window committed"/.test(stderr)) {
        signalledAt = performance.now();
        child.kill('SIGINT');
      }
    });
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    const exitMs = performance.now() - signalledAt;
    expect(signalledAt, `${stdout}\n${stderr}`).toBeGreaterThan(0);
    expect(code, stderr).toBe(75);
    expect(exitMs, stderr).toBeLessThan(2000);
    const lines = stderr.split('\n');
    const said = lines.findIndex((l) =>
      l.startsWith('reporter-etl sync: SIGINT: stopping: the requests in flight'),
    );
    expect(said, stderr).toBeGreaterThan(0);
    // no retry of a cancelled request, no Node warning (MaxListenersExceededWarning, ...)
    expect(stderr).not.toMatch(/retrying|UND_ERR|Warning/);
    // the error once, in the log line (not again as `error: ...`), and the second project never begun
    expect(`${stdout}${stderr}`.match(/stopped by a signal/g), stderr).toHaveLength(1);
    expect(stderr).not.toMatch(/"project":"support-bot".*"msg":"sync started"/);
    expect(stdout.trim().split('\n'), stdout).toEqual([expect.stringMatching(/^shop-bot: failed /)]);
  }, 120_000);
});
