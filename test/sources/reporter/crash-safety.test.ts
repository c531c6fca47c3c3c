// Exactly once across crashes and concurrent writers, with real child processes running the CLI:
// `kill -9` at several points, then a normal run, leaves the warehouse equal to the ground truth;
// a writer waits for the file while another process holds it, then fails naming that process.
import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ageRunningLeases,
  createHarness,
  expectWarehouseEqualsTruth,
  type Harness,
} from '../../helpers/sync-harness.js';

const HOUR = 3_600_000;
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function spawnSync(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['bin/reporter-etl.js', 'sync', '--json'], {
    env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 2));
  }
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

describe('crash safety', () => {
  it('kill -9 at several points, then one run: nothing missing, nothing twice', async () => {
    // 500 sessions, not the harness's 1,200: 6-hour windows over 4 days still make every run far longer than
    // the last kill point (each window has its count, pages, report task), so every kill lands inside a run
    h = await createHarness({
      emulator: { sessions: 500 },
      env: { REPORTER_WINDOW_HOURS: '6' },
      realClock: true,
    });
    const e = h.running.emulator;
    let killedWhileRunning = 0;
    // in requests: fewer since the windows' statuses come from report tasks rather than one read per client
    for (const killAfter of [3, 30, 60, 45]) {
      const child = spawnSync(h.env);
      const startCount = e.requestCount;
      const gone = exited(child);
      // generous: on a loaded 2-core machine a run can take a minute to reach its last kill point
      await waitFor(() => e.requestCount - startCount >= killAfter || child.exitCode !== null, 120_000);
      if (child.exitCode === null) killedWhileRunning++;
      child.kill('SIGKILL');
      await gone;
      // as if the killed run's lease (LEASE.staleMs) had run out before the next start: a sync of the project
      // refuses to start while another holds a fresh one
      await ageRunningLeases(h);
    }
    // every kill landed inside a run, and the later ones after some windows had committed
    expect(killedWhileRunning).toBe(4);
    expect(await h.withWarehouse((w) => w.getWatermark('shop-bot'))).toBeDefined();
    // the killed runs stopped beating: as if their lease (LEASE.staleMs) had run out since, which the next run
    // sees and closes them as abandoned
    await ageRunningLeases(h);
    const last = await h.sync();
    expect(last.status, last.error ?? '').toBe('success');
    const to = e.now() - 5 * 60_000;
    const from = to - 4 * 24 * HOUR;
    await expectWarehouseEqualsTruth(h, from, to, ['sessionIds', 'messageIds', 'statuses', 'sessionLabels']);
    const runs = await h.withWarehouse((w) => w.listRuns({ limit: 10 }));
    expect(runs.filter((r) => r.status === 'running')).toHaveLength(0);
  }, 600_000);

  it('a writer waits while another process holds the file, then names that process', async () => {
    // 100 sessions, not the harness's 1,200: the lock and its wait need a warehouse file, not volume
    h = await createHarness({ emulator: { sessions: 100 }, realClock: true });
    expect((await h.sync()).status).toBe('success');
    // another process in the middle of a write: DuckDB's lock is held for as long as it keeps the file
    const holder = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import { DuckDBInstance } from '@duckdb/node-api'; const i = await DuckDBInstance.create(process.argv[1]); await i.connect(); process.stdout.write('held'); setInterval(() => {}, 1000);",
        h.config.warehousePath,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise((resolve) => holder.stdout?.once('data', resolve));
    const gone = exited(holder);
    const started = Date.now();
    await expect(h.sync()).rejects.toThrow(new RegExp(`PID ${holder.pid}`));
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    holder.kill('SIGKILL');
    await gone;
    expect((await h.sync()).status).toBe('success');
  }, 180_000);
});
