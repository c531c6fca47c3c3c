// The JobRunner against a real warehouse in a temp dir, with fake jobs released by hand: no overlap of one
// job, one job at a time, every run recorded with its trigger, failures recorded and survived, a locked
// warehouse recorded later, and stop() aborting the run in flight.
import { afterEach, describe, expect, it } from 'vitest';
import { EtlError } from '../../src/errors.js';
import { silentLogger } from '../../src/log.js';
import { type FinishedJobRun, JobRunner, type RunOutcome } from '../../src/schedule/job-runner.js';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import { createScheduleHarness, fakeJob, gate, type ScheduleHarness } from './schedule-harness.js';

let h: ScheduleHarness | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

const finished = (o: RunOutcome): FinishedJobRun => {
  if (!o.ran) throw new Error(`skipped: ${o.reason}`);
  return o;
};

describe('JobRunner', () => {
  it('skips a second run of a running or waiting job; other jobs wait their turn', async () => {
    h = createScheduleHarness();
    const runner = h.runner();
    const order: string[] = [];
    const release = gate();
    const slow = fakeJob('sync', async () => {
      order.push('sync:start');
      await release.promise;
      order.push('sync:end');
      return undefined;
    });
    const report = fakeJob('daily-report', async () => {
      order.push('report');
      return undefined;
    });
    const first = runner.run(slow.job, 'schedule');
    const queued = runner.run(report.job, 'schedule');
    // let the first run start
    while (slow.started.length === 0) await new Promise((r) => setTimeout(r, 5));
    expect(await runner.run(slow.job, 'schedule')).toEqual({
      ran: false,
      job: 'sync',
      trigger: 'schedule',
      reason: 'a run of this job is still running',
    });
    expect(await runner.run(slow.job, 'manual')).toMatchObject({ ran: false });
    expect(await runner.run(report.job, 'manual')).toMatchObject({
      ran: false,
      reason: 'a run of this job is already waiting to start',
    });
    expect(order).toEqual(['sync:start']);
    release.open();
    expect(finished(await first).status).toBe('success');
    expect(finished(await queued).status).toBe('success');
    expect(order).toEqual(['sync:start', 'sync:end', 'report']);
    // once done, the job runs again
    expect((await runner.run(slow.job, 'manual')).ran).toBe(true);
    const runs = await h.runs();
    expect(runs.map((r) => [r.job, r.trigger, r.status]).sort()).toEqual([
      ['daily-report', 'schedule', 'success'],
      ['sync', 'manual', 'success'],
      ['sync', 'schedule', 'success'],
    ]);
    expect(runs.every((r) => r.project === null && r.finishedAt !== null)).toBe(true);
  });

  it('refreshes the heartbeat of a running run while the job runs (its lease), without holding the warehouse', async () => {
    h = createScheduleHarness();
    const harness = h;
    const runner = new JobRunner({
      config: harness.config,
      log: silentLogger(),
      useWarehouse: harness.useWarehouse,
      now: harness.clock.now,
      lease: { beatMs: 30 },
    });
    const release = gate();
    const slow = fakeJob('daily-report', () => release.promise.then(() => undefined));
    const run = runner.run(slow.job, 'manual');
    while (slow.started.length === 0) await new Promise((r) => setTimeout(r, 5));
    const beatOf = async () =>
      Number(
        (
          await harness.useWarehouse((w) =>
            w.query("SELECT heartbeat_at FROM etl_runs WHERE status = 'running'"),
          )
        )[0]?.['heartbeat_at'],
      );
    const startedAt = harness.clock.now();
    expect(await beatOf()).toBe(startedAt);
    harness.clock.advance(60_000);
    // a beat comes within a few intervals (generous: the machine may be loaded)
    const stop = Date.now() + 20_000;
    while ((await beatOf()) === startedAt && Date.now() < stop) await new Promise((r) => setTimeout(r, 20));
    expect(await beatOf()).toBe(startedAt + 60_000);
    release.open();
    expect(finished(await run).status).toBe('success');
  });

  it('records a failed run with its error and goes on', async () => {
    h = createScheduleHarness();
    const runner = h.runner();
    let calls = 0;
    const flaky = fakeJob('retention', async () => {
      calls++;
      if (calls === 1) throw new EtlError('warehouse.open_failed', 'disk on fire', { kind: 'transient' });
      return undefined;
    });
    const failed = finished(await runner.run(flaky.job, 'schedule'));
    expect(failed).toMatchObject({ status: 'failed', error: 'disk on fire', exitCode: 75, recorded: true });
    h.clock.advance(60_000);
    const ok = finished(await runner.run(flaky.job, 'schedule'));
    expect(ok.status).toBe('success');
    const runs = await h.runs('retention');
    expect(runs.map((r) => [r.runId, r.status, r.error])).toEqual([
      [ok.runId, 'success', null],
      [failed.runId, 'failed', 'disk on fire'],
    ]);
    // times come from the runner's clock (the harness's fixed one)
    expect(runs[0]!.startedAt).toBe(h.clock.now());
  });

  it('a job that records its own runs gets no second row; when it throws first, the runner writes a failed one', async () => {
    h = createScheduleHarness();
    const runner = h.runner();
    const own = fakeJob(
      'sync',
      async (ctx) => {
        const runId = 'own-row-1';
        await ctx.useWarehouse(async (w) => {
          await w.startRun({ runId, project: 'shop-bot', job: 'sync', trigger: ctx.trigger });
          await w.finishRun(runId, { status: 'success', durationMs: 1 });
        });
        return { recordedRunIds: [runId] };
      },
      { recordsOwnRuns: true },
    );
    const outcome = finished(await runner.run(own.job, 'manual'));
    expect(outcome.runId).toBe('own-row-1');
    h.clock.advance(60_000);
    const broken = fakeJob(
      'sync',
      async () => {
        throw new Error('refused token');
      },
      { recordsOwnRuns: true },
    );
    const failed = finished(await runner.run(broken.job, 'schedule'));
    const runs = await h.runs('sync');
    expect(runs.map((r) => [r.runId, r.project, r.trigger, r.status, r.error])).toEqual([
      [failed.runId, null, 'schedule', 'failed', 'refused token'],
      ['own-row-1', 'shop-bot', 'manual', 'success', null],
    ]);
  });

  it('a run that cannot open the warehouse is recorded by the next run that can', async () => {
    h = createScheduleHarness();
    const runner = h.runner();
    const job = fakeJob('retention');
    // another holder of the file: this process, through a second open
    const holder = await openWarehouse({ path: h.config.warehousePath, lockWaitMs: 1000 });
    // the file is held only inside an operation or a hold(): keep one open until released
    let release = () => {};
    let opened = () => {};
    const isOpen = new Promise<void>((resolve) => (opened = resolve));
    const held = holder.hold(async () => {
      await holder.query('SELECT 1');
      opened();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await isOpen;
    const blocked = finished(await runner.run(job.job, 'schedule'));
    expect(blocked).toMatchObject({ status: 'failed', exitCode: 75, recorded: false });
    expect(blocked.error).toMatch(/locked by this process/);
    expect(job.started).toHaveLength(0);
    expect(runner.unrecorded).toBe(1);
    release();
    await held;
    await holder.close();
    const next = finished(await runner.run(job.job, 'schedule'));
    expect(next.status).toBe('success');
    expect(runner.unrecorded).toBe(0);
    const runs = await h.runs('retention');
    expect(runs.map((r) => [r.runId, r.status])).toEqual(
      expect.arrayContaining([
        [blocked.runId, 'failed'],
        [next.runId, 'success'],
      ]),
    );
    expect(runs.find((r) => r.runId === blocked.runId)!.error).toMatch(/locked/);
  });

  it('stop(): the running job sees its signal, waiting runs are skipped, nothing new starts', async () => {
    h = createScheduleHarness();
    const runner = h.runner();
    const cooperative = fakeJob('sync', async (ctx) => {
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
      return { status: 'failed', error: 'interrupted between windows', exitCode: 75 };
    });
    const other = fakeJob('retention');
    const running = runner.run(cooperative.job, 'schedule');
    const waiting = runner.run(other.job, 'schedule');
    while (cooperative.started.length === 0) await new Promise((r) => setTimeout(r, 5));
    runner.stop();
    expect(await runner.run(other.job, 'manual')).toMatchObject({
      ran: false,
      reason: 'the process is stopping',
    });
    const outcome = finished(await running);
    expect(outcome).toMatchObject({ status: 'failed', interrupted: true, recorded: true });
    expect(await waiting).toMatchObject({ ran: false, reason: 'the process is stopping' });
    await runner.idle();
    expect(other.started).toHaveLength(0);
    const runs = await h.runs();
    expect(runs.map((r) => [r.job, r.status, r.error])).toEqual([
      ['sync', 'failed', 'interrupted between windows'],
    ]);
  });
});
