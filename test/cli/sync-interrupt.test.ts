// Ctrl-C during `reporter-etl sync`: the first SIGINT is answered on stderr at once ("stopping after the
// current window… (Ctrl-C again to stop now)"), before the sync ends its window and says how it ended.
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/sync-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('reporter-etl sync and Ctrl-C', () => {
  it('says at once that it is stopping, then stops between windows (exit 75)', async () => {
    h = await createHarness({ realClock: true, emulator: { sessions: 3000 } });
    const child = spawn(process.execPath, ['bin/reporter-etl.js', 'sync'], {
      env: { ...process.env, ...h.env, LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let signalled = false;
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (!signalled && stderr.includes('window committed')) {
        signalled = true;
        child.kill('SIGINT');
      }
    });
    child.stdout.resume();
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(signalled, stderr).toBe(true);
    expect(code, stderr).toBe(75);
    const lines = stderr.split('\n');
    const said = lines.indexOf(
      'reporter-etl sync: SIGINT: stopping after the current window… (Ctrl-C again to stop now)',
    );
    expect(said, stderr).toBeGreaterThan(0);
    // said when the signal came, not at the end: the sync's own last line comes after it
    const ended = lines.findLastIndex((l) => /"msg":"sync /.test(l));
    expect(ended, stderr).toBeGreaterThan(said);
  }, 120_000);
});
