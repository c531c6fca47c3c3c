// The scheduler and `run <job>` as users run them: real child processes against the emulator. SIGTERM in the
// middle of a scheduled sync, then in the middle of `run sync`: each exits 0 within the grace period and its
// run is recorded (not left running); a following `run sync` leaves the warehouse equal to the ground truth.
// Plus the configuration and usage errors, which name the setting or option.
import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { JOBS } from '../../jobs/registry.js';
import { runCli } from '../helpers/run-cli.js';
import { createHarness, type Harness, warehouseFigures } from '../helpers/sync-harness.js';

const HOUR = 3_600_000;
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const cli = runCli;

function start(args: string[], env: Record<string, string>): { child: ChildProcess; stderr: () => string } {
  const child = spawn(process.execPath, ['bin/reporter-etl.js', ...args], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => {
    stderr += String(d);
  });
  child.stdout!.resume();
  return { child, stderr: () => stderr };
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

/** Sends SIGTERM once the emulator has answered `requests` more requests; resolves with the exit code and time. */
async function terminateMidRun(
  h: Harness,
  spawned: { child: ChildProcess },
  requests: number,
): Promise<{ code: number | null; ms: number; wasRunning: boolean }> {
  const e = h.running.emulator;
  const before = e.requestCount;
  const gone = exited(spawned.child);
  await waitFor(() => e.requestCount - before >= requests || spawned.child.exitCode !== null, 60_000);
  const wasRunning = spawned.child.exitCode === null;
  const sent = Date.now();
  spawned.child.kill('SIGTERM');
  const code = await gone;
  return { code, ms: Date.now() - sent, wasRunning };
}

describe('reporter-etl schedule and run: SIGTERM', () => {
  it('stops a scheduled sync, then a manual one, cleanly; the next run sync matches the ground truth', async () => {
    h = await createHarness({
      realClock: true,
      emulator: { sessions: 1000 },
      env: { REPORTER_WINDOW_HOURS: '4', REPORTER_SHUTDOWN_GRACE_SECONDS: '20' },
    });
    const env = { ...h.env, REPORTER_JOBS: 'sync' };
    // the warehouse is empty: the catch-up starts the sync at once
    const scheduler = start(['schedule'], env);
    // the whole sync is about 180 requests (25 windows; a window's statuses come from one report task; 3,000
    // sessions instead of 1,000 add only ~40 requests, and ~50 % to the sync's CPU): the stops come well before
    // its end
    const first = await terminateMidRun(h, scheduler, 70);
    expect(first.wasRunning).toBe(true);
    expect(first.code, scheduler.stderr()).toBe(0);
    expect(first.ms).toBeLessThan(20_000);
    expect(scheduler.stderr()).toMatch(/"msg":"catch-up"/);
    expect(scheduler.stderr()).toMatch(/"msg":"scheduler stopped"/);

    const manual = start(['run', 'sync'], env);
    const second = await terminateMidRun(h, manual, 40);
    expect(second.wasRunning).toBe(true);
    expect(second.code, manual.stderr()).toBe(0);
    expect(second.ms).toBeLessThan(20_000);

    const history = await cli(['runs', '--job', 'sync', '--json'], env);
    expect(history.code, history.stderr).toBe(0);
    const runs = JSON.parse(history.stdout).runs as {
      trigger: string;
      status: string;
      error: string;
      windows: number;
    }[];
    expect(runs.map((r) => [r.trigger, r.status])).toEqual([
      ['manual', 'failed'],
      ['schedule', 'failed'],
    ]);
    for (const r of runs) expect(r.error).toMatch(/stopped by a signal/);
    // the scheduled run had committed windows before it stopped
    expect(runs[1]!.windows).toBeGreaterThan(0);

    const last = await cli(['run', 'sync', '--json'], env);
    expect(last.code, last.stderr).toBe(0);
    expect(JSON.parse(last.stdout)).toMatchObject({ job: 'sync', trigger: 'manual', status: 'success' });
    const e = h.running.emulator;
    const to = e.now() - 5 * 60_000;
    const from = to - 3 * 24 * HOUR;
    const truth = h.truth(from, to);
    const figures = await h.withWarehouse((w) => warehouseFigures(w, from, to));
    expect(figures.duplicates).toBe(0);
    expect(figures.sessionIds).toEqual(truth.sessionIds);
    expect(figures.messageIds).toEqual(truth.messageIds);
    expect(figures.statuses).toEqual(truth.statuses);
    const all = await h.withWarehouse((w) => w.listRuns({ limit: 10 }));
    expect(all.filter((r) => r.status === 'running')).toHaveLength(0);
  }, 120_000);
});

describe('reporter-etl schedule and run: usage and configuration', () => {
  it('name the job, the option or the setting at fault', async () => {
    const base = {
      REPORTER_TOKEN: '',
      REPORTER_CONFIG: '',
      REPORTER_DATA_DIR: '/tmp/reporter-etl-no-such-dir',
    };
    const none = await cli(['run'], base);
    expect(none.code).toBe(2);
    // every registered job, in the registry's order (a source's job included without editing this test)
    expect(none.stderr).toContain(JOBS.map((j) => j.id).join(', '));
    const unknown = await cli(['run', 'sink'], base);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no job "sink"/);
    const token = await cli(['run', 'sync'], base);
    expect(token.code).toBe(2);
    expect(token.stderr).toMatch(/REPORTER_TOKEN/);
    const schedule = await cli(['schedule'], base);
    expect(schedule.code).toBe(2);
    // every registered job that talks to the Reporter API (sync, platform-daily, a Reporter-based source's)
    const needApi = JOBS.filter((j) => j.needsApi).map((j) => j.id);
    expect(needApi).toEqual(expect.arrayContaining(['sync', 'platform-daily']));
    expect(schedule.stderr).toContain(`REPORTER_TOKEN: is required by the jobs ${needApi.join(', ')}`);
    const cron = await cli(['schedule', '--list'], { ...base, REPORTER_SCHEDULE_SYNC: '61 * * * *' });
    expect(cron.code).toBe(2);
    expect(cron.stderr).toMatch(/REPORTER_SCHEDULE_SYNC: "61 \* \* \* \*" is not a cron expression/);
    const zone = await cli(['schedule', '--list'], { ...base, REPORTER_TZ: 'Mars/Olympus' });
    expect(zone.code).toBe(2);
    expect(zone.stderr).toMatch(/REPORTER_TZ: expected an IANA time zone/);
    const jobs = await cli(['schedule', '--list'], { ...base, REPORTER_JOBS: 'sync,report' });
    expect(jobs.code).toBe(2);
    expect(jobs.stderr).toMatch(/REPORTER_JOBS.*no job "report"/);
  });

  it('schedule --list shows the schedules in force; run retention needs no token', async () => {
    h = await createHarness({ realClock: true, emulator: { sessions: 100 } });
    const env = {
      ...h.env,
      REPORTER_TOKEN: '',
      REPORTER_TZ: 'Europe/Moscow',
      REPORTER_JOBS: 'sync,retention',
      REPORTER_SCHEDULE_SYNC: '*/5 * * * *',
    };
    const list = await cli(['schedule', '--list', '--json'], env);
    expect(list.code, list.stderr).toBe(0);
    const listing = JSON.parse(list.stdout);
    expect(listing.timeZone).toBe('Europe/Moscow');
    const byJob = Object.fromEntries(listing.jobs.map((j: any) => [j.job, j]));
    expect(byJob.sync).toMatchObject({
      enabled: true,
      schedule: '*/5 * * * *',
      scheduleFrom: 'REPORTER_SCHEDULE_SYNC',
    });
    expect(byJob['daily-report']).toMatchObject({ enabled: false, schedule: '0 7 * * *', nextRun: null });
    // the next 03:30 in Moscow is 00:30 UTC
    expect(byJob.retention.nextRun).toMatch(/T00:30:00\.000Z$/);
    expect(Date.parse(byJob.retention.nextRun) - Date.now()).toBeLessThanOrEqual(24 * HOUR);
    expect(Date.parse(byJob.sync.nextRun) - Date.now()).toBeLessThanOrEqual(5 * 60_000);

    const retention = await cli(['run', 'retention', '--json'], env);
    expect(retention.code, retention.stderr).toBe(0);
    expect(JSON.parse(retention.stdout)).toMatchObject({
      job: 'retention',
      trigger: 'manual',
      status: 'success',
    });
    const after = await cli(['schedule', '--list', '--json'], env);
    const retentionRow = JSON.parse(after.stdout).jobs.find((j: any) => j.job === 'retention');
    expect(retentionRow.lastSuccess).not.toBeNull();
    const help = await cli(['schedule', '--help'], {});
    expect(help.stdout).toMatch(/REPORTER_SCHEDULE_<JOB>/);
    expect(help.stdout).toMatch(/Catch-up/);
  });
});
