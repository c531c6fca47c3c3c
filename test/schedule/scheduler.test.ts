// The Scheduler with a fake ticker (the test fires ticks itself) and a fake clock: tickers per enabled job
// with the schedule in force, catch-up from etl_runs at start, ticks recorded as trigger=schedule, a failed
// run that does not stop later ticks, and stop() bounded by its grace period.
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log.js';
import { resolveScheduledJobs } from '../../src/schedule/resolve-scheduled-jobs.js';
import { Scheduler, type StartTicker } from '../../src/schedule/scheduler.js';
import { insertFinishedRun } from '../../src/warehouse/run-history.js';
import { createScheduleHarness, fakeJob, type ScheduleHarness } from './schedule-harness.js';

let h: ScheduleHarness | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

const MIN = 60_000;

function fakeTicker() {
  const tickers: {
    expression: string;
    timeZone: string;
    name: string;
    fire: () => void;
    stopped: boolean;
  }[] = [];
  const start: StartTicker = (expression, timeZone, name, onTick) => {
    const t = { expression, timeZone, name, fire: onTick, stopped: false };
    tickers.push(t);
    return {
      stop: () => {
        t.stopped = true;
      },
    };
  };
  return { start, tickers };
}

describe('Scheduler', () => {
  it('starts a ticker per enabled job with the schedule in force; ticks run the job with trigger=schedule', async () => {
    h = createScheduleHarness({
      REPORTER_JOBS: 'sync,retention',
      REPORTER_SCHEDULE_SYNC: '*/5 * * * *',
      REPORTER_TZ: 'Europe/Moscow',
    });
    const sync = fakeJob('sync');
    let failures = 0;
    const retention = fakeJob(
      'retention',
      async () => {
        failures++;
        throw new Error('cannot delete');
      },
      { defaultSchedule: '30 3 * * *' },
    );
    const report = fakeJob('daily-report');
    const jobs = resolveScheduledJobs(h.config, [sync.job, report.job, retention.job]);
    const ticker = fakeTicker();
    const runner = h.runner();
    const scheduler = new Scheduler({
      jobs,
      runner,
      log: silentLogger(),
      timeZone: h.config.timeZone,
      useWarehouse: h.useWarehouse,
      now: h.clock.now,
      startTicker: ticker.start,
    });
    await scheduler.start({ catchUp: false });
    expect(ticker.tickers.map((t) => [t.name, t.expression, t.timeZone])).toEqual([
      ['sync', '*/5 * * * *', 'Europe/Moscow'],
      ['retention', '30 3 * * *', 'Europe/Moscow'],
    ]);
    ticker.tickers[1]!.fire();
    await runner.idle();
    h.clock.advance(MIN);
    ticker.tickers[0]!.fire();
    await runner.idle();
    h.clock.advance(MIN);
    ticker.tickers[1]!.fire();
    await runner.idle();
    expect(failures).toBe(2);
    expect(sync.started).toHaveLength(1);
    expect(report.started).toHaveLength(0);
    const runs = await h.runs();
    expect(runs.map((r) => [r.job, r.trigger, r.status, r.error])).toEqual([
      ['retention', 'schedule', 'failed', 'cannot delete'],
      ['sync', 'schedule', 'success', null],
      ['retention', 'schedule', 'failed', 'cannot delete'],
    ]);
    expect(await scheduler.stop(1000)).toEqual({ clean: true });
    expect(ticker.tickers.every((t) => t.stopped)).toBe(true);
  });

  it('catches up, once, the jobs whose last success is older than one interval', async () => {
    const now = Date.UTC(2026, 10, 21, 10, 16);
    h = createScheduleHarness({}, now);
    const harness = h;
    const seed = (job: string, startedAt: number, status: 'success' | 'failed') =>
      harness.useWarehouse((w) =>
        insertFinishedRun(w, {
          runId: `${job}-${startedAt}-${status}`,
          project: null,
          job,
          trigger: 'schedule',
          startedAt,
          finishedAt: startedAt + 1000,
          status,
          error: status === 'failed' ? 'x' : null,
        }),
      );
    await seed('sync', now - 40 * MIN, 'success'); // older than 15 min: due
    await seed('sync', now - 5 * MIN, 'failed'); // a failure does not count
    await seed('daily-report', now - 3 * 3_600_000, 'success'); // today 07:16, interval 24 h: not due
    await seed('retention', now - 30 * 3_600_000, 'success'); // older than 24 h: due
    // platform-daily never ran: due
    const jobs = ['sync', 'daily-report', 'platform-daily', 'retention'].map((id) => fakeJob(id));
    const runner = h.runner();
    const scheduler = new Scheduler({
      jobs: resolveScheduledJobs(
        h.config,
        jobs.map((j) => ({
          ...j.job,
          defaultSchedule: {
            sync: '*/15 * * * *',
            'daily-report': '0 7 * * *',
            'platform-daily': '30 7 * * *',
            retention: '30 3 * * *',
          }[j.job.id]!,
        })),
      ),
      runner,
      log: silentLogger(),
      timeZone: 'UTC',
      useWarehouse: h.useWarehouse,
      now: h.clock.now,
      startTicker: fakeTicker().start,
    });
    const decisions = await scheduler.start();
    expect(decisions.map((d) => [d.jobId, d.due])).toEqual([
      ['sync', true],
      ['daily-report', false],
      ['platform-daily', true],
      ['retention', true],
    ]);
    await runner.idle();
    expect(jobs.map((j) => [j.job.id, j.started.length])).toEqual([
      ['sync', 1],
      ['daily-report', 0],
      ['platform-daily', 1],
      ['retention', 1],
    ]);
    const triggers = (await h.runs()).filter((r) => r.startedAt === now).map((r) => [r.job, r.trigger]);
    expect(triggers.sort()).toEqual([
      ['platform-daily', 'schedule'],
      ['retention', 'schedule'],
      ['sync', 'schedule'],
    ]);
    await scheduler.stop(1000);
  });

  it('a catch-up run and a tick of the same job do not overlap', async () => {
    h = createScheduleHarness({ REPORTER_JOBS: 'sync' });
    let release: () => void = () => undefined;
    const sync = fakeJob('sync', () => new Promise((resolve) => (release = () => resolve(undefined))));
    const ticker = fakeTicker();
    const runner = h.runner();
    const scheduler = new Scheduler({
      jobs: resolveScheduledJobs(h.config, [sync.job]),
      runner,
      log: silentLogger(),
      timeZone: 'UTC',
      useWarehouse: h.useWarehouse,
      now: h.clock.now,
      startTicker: ticker.start,
    });
    await scheduler.start();
    while (sync.started.length === 0) await new Promise((r) => setTimeout(r, 5));
    expect(await scheduler.tick('sync')).toMatchObject({
      ran: false,
      reason: 'a run of this job is still running',
    });
    release();
    await runner.idle();
    expect(sync.started).toHaveLength(1);
    await scheduler.stop(1000);
  });

  it('stop() waits for the run in flight up to the grace period, and no longer', async () => {
    h = createScheduleHarness({ REPORTER_JOBS: 'sync' });
    const stubborn = fakeJob('sync', () => new Promise(() => undefined));
    const runner = h.runner();
    const scheduler = new Scheduler({
      jobs: resolveScheduledJobs(h.config, [stubborn.job]),
      runner,
      log: silentLogger(),
      timeZone: 'UTC',
      useWarehouse: h.useWarehouse,
      now: h.clock.now,
      startTicker: fakeTicker().start,
    });
    await scheduler.start();
    while (stubborn.started.length === 0) await new Promise((r) => setTimeout(r, 5));
    const started = performance.now();
    expect(await scheduler.stop(300)).toEqual({ clean: false, leftRunning: 'sync' });
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(290);
    expect(stubborn.started[0]!.signal.aborted).toBe(true);
  });
});

describe('resolveScheduledJobs', () => {
  it('names the setting of an unknown job', () => {
    const jobs = [fakeJob('sync').job, fakeJob('retention').job];
    h = createScheduleHarness({ REPORTER_JOBS: 'sync,reprot' });
    expect(() => resolveScheduledJobs(h!.config, jobs)).toThrow(
      /REPORTER_JOBS.*no job "reprot".*sync, retention/,
    );
    h.close();
    h = createScheduleHarness({ REPORTER_SCHEDULE_SYNCH: '* * * * *' });
    expect(() => resolveScheduledJobs(h!.config, jobs)).toThrow(/REPORTER_SCHEDULE_SYNCH: no job "synch"/);
  });
});
