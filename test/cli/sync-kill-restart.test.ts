// `kill -9` of a sync, then `sync` again at once: the killed process is gone (reaped) on this host, so its run
// is closed as abandoned and the new sync starts without waiting for the 30 s lease; nothing calls the dead
// process running or waiting. A live sync of the same project on this host is still refused, as running.
import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { createHarness, type Harness } from '../helpers/sync-harness.js';

let h: Harness | undefined;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await h?.close();
  h = undefined;
});

/** Starts `sync` and resolves once it has committed a window (its run is `running`, beating). */
async function startSyncUntilCommitted(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['bin/reporter-etl.js', 'sync'], {
    env: { ...process.env, ...env, LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('window committed')) resolve();
    });
    child.once('exit', (code) =>
      reject(new Error(`sync ended (${code}) before a window committed: ${stderr}`)),
    );
  });
  return child;
}

describe('sync after kill -9 of a sync of the same project', () => {
  it('starts at once and closes the killed run as abandoned, never calling it running or waiting', async () => {
    h = await createHarness({
      realClock: true,
      emulator: { sessions: 3000 },
      env: { REPORTER_WINDOW_HOURS: '6' },
    });
    h.running.emulator.faults.script({ type: 'slow', delayMs: 200, times: 100_000 });
    const killed = await startSyncUntilCommitted(h.env);
    const gone = new Promise((resolve) => killed.once('exit', resolve));
    killed.kill('SIGKILL');
    await gone; // reaped: its PID is gone
    h.running.emulator.faults.clear();
    // `runs` does not show it running either: it shows the run as the next one will close it
    const listed = await runCli(['runs', '--json'], h.env);
    expect(listed.code, listed.stderr).toBe(0);
    const shown = JSON.parse(listed.stdout).runs.find((r: { pid: number }) => r.pid === killed.pid);
    expect(shown).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^abandoned: .* is no longer running/),
    });
    const next = await runCli(['sync', '--json'], h.env);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).not.toMatch(/running|waiting/i);
    const runs = await h.withWarehouse((w) => w.listRuns({ job: 'sync', limit: 10 }));
    expect(runs.find((r) => r.pid === killed.pid)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(
        new RegExp(
          `^abandoned: its process \\(PID ${killed.pid} on \\S+\\) is no longer running; the run was not finished$`,
        ),
      ),
    });
    expect(runs.filter((r) => r.status === 'running')).toEqual([]);
  }, 240_000);

  it('a live sync of this host is still refused (exit 75), said to be running on this host', async () => {
    h = await createHarness({
      realClock: true,
      emulator: { sessions: 3000 },
      env: { REPORTER_WINDOW_HOURS: '6' },
    });
    h.running.emulator.faults.script({ type: 'slow', delayMs: 200, times: 100_000 });
    const live = await startSyncUntilCommitted(h.env);
    const refused = await runCli(['sync'], { ...h.env, REPORTER_LOCK_WAIT_SECONDS: '30' });
    expect(refused.code, refused.stderr).toBe(75);
    expect(refused.stderr).toMatch(
      new RegExp(
        `another sync of project \\S+ is running: run \\S+ \\(PID ${live.pid} on this host, started `,
      ),
    );
    // it is known to run: no "if it died" advice
    expect(refused.stderr).not.toMatch(/without its heartbeat/);
  }, 240_000);
});
