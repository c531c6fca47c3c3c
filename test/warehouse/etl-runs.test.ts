// The etl_runs lifecycle: started as running with pid and host, counted by windows, finished with
// status, error and duration; listed newest first with filters; runs whose heartbeat (lease) is stale closed
// as failed, on any host and whatever their PID.
import { hostname } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { thisProcess } from '../../src/process/process-identity.js';
import { beatRun } from '../../src/warehouse/etl-runs.js';
import { LEASE } from '../../src/warehouse/lease.js';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { type LiveOwner, liveOwner, ownerThatDied, zombieOwner } from '../helpers/owner-processes.js';
import { makeBatch, makeMessage, makeSession, makeTempDir, PROJECT, T0 } from './fixtures.js';

let temp: ReturnType<typeof makeTempDir>;
let warehouse: Warehouse;
let clock = T0;

beforeEach(async () => {
  temp = makeTempDir();
  clock = T0;
  warehouse = await openWarehouse({ path: `${temp.dir}/warehouse.duckdb`, now: () => clock });
});
afterEach(async () => {
  await warehouse.close();
  temp.cleanup();
});

describe('etl runs', () => {
  it('records a run from start to finish', async () => {
    await warehouse.startRun({ runId: 'r1', project: PROJECT, job: 'sync', trigger: 'cli' });
    expect(await warehouse.listRuns({ limit: 10 })).toEqual([
      {
        runId: 'r1',
        project: PROJECT,
        job: 'sync',
        trigger: 'cli',
        startedAt: T0,
        finishedAt: null,
        status: 'running',
        windows: 0,
        sessions: 0,
        messages: 0,
        requests: 0,
        rejects: 0,
        durationMs: null,
        error: null,
        pid: process.pid,
        host: hostname(),
        notification: null,
        unknownValues: null,
        concurrencyReached: null,
        throttled: null,
      },
    ]);
    await warehouse.commitWindow(
      makeBatch({
        runId: 'r1',
        sessions: [makeSession('s1')],
        messages: [makeMessage('q1', 's1'), makeMessage('q2', 's1')],
        requests: 4,
      }),
    );
    clock = T0 + 1500;
    await warehouse.finishRun('r1', {
      status: 'partial',
      error: '2 records rejected',
      durationMs: 1500,
      concurrencyReached: 9,
      throttled: 3,
    });
    const [run] = await warehouse.listRuns({ limit: 1 });
    expect(run).toMatchObject({
      status: 'partial',
      windows: 1,
      sessions: 1,
      messages: 2,
      requests: 4,
      finishedAt: T0 + 1500,
      durationMs: 1500,
      error: '2 records rejected',
      concurrencyReached: 9,
      throttled: 3,
    });
  });

  it('lists runs newest first, filtered by project and job, up to the limit', async () => {
    for (const [i, [project, job]] of [
      ['a', 'sync'],
      ['b', 'sync'],
      ['a', 'catalogues'],
      ['a', 'sync'],
    ].entries()) {
      clock = T0 + i * 1000;
      await warehouse.startRun({
        runId: `r${i}`,
        project: project ?? null,
        job: job ?? '',
        trigger: 'schedule',
      });
    }
    expect((await warehouse.listRuns({ limit: 10 })).map((r) => r.runId)).toEqual(['r3', 'r2', 'r1', 'r0']);
    expect((await warehouse.listRuns({ project: 'a', job: 'sync', limit: 10 })).map((r) => r.runId)).toEqual([
      'r3',
      'r0',
    ]);
    expect((await warehouse.listRuns({ job: 'sync', limit: 2 })).map((r) => r.runId)).toEqual(['r3', 'r1']);
  });

  it('closes as abandoned the running runs whose heartbeat is stale, of any host, whatever their PID', async () => {
    // PIDs that answer kill(pid, 0) (this test's own: a reused PID, or a zombie not yet reaped) must not
    // keep a run alive; only the heartbeat does. Times are relative to the warehouse clock.
    const stale = new Date(T0 - LEASE.staleMs - 1_000);
    const fresh = new Date(T0 - 5_000);
    await warehouse.query(
      'INSERT INTO etl_runs (run_id, job, started_at, status, pid, host, heartbeat_at) VALUES ' +
        "('other-host-stale', 'sync', $stale, 'running', $pid, 'recreated-container', $stale), " +
        "('other-host-fresh', 'sync', $stale, 'running', $pid, 'another-host', $fresh), " +
        "('reused-pid', 'sync', $stale, 'running', $pid, $host, $stale), " +
        "('before-leases', 'sync', $stale, 'running', $pid, $host, NULL)",
      { pid: process.pid, host: hostname(), stale, fresh },
    );
    await warehouse.startRun({ runId: 'alive', project: PROJECT, job: 'sync', trigger: 'cli' });
    // later than the lease: 'alive' is this process's own run; it is never closed by it
    clock = T0 + 2 * LEASE.staleMs;
    await warehouse.startRun({ runId: 'next', project: PROJECT, job: 'stats', trigger: 'cli' });
    const runs = await warehouse.query('SELECT run_id, status, error FROM etl_runs ORDER BY run_id');
    const abandoned = (host: string) => ({
      status: 'failed',
      error: expect.stringMatching(
        new RegExp(`^abandoned: its process \\(PID ${process.pid} on ${host}\\) stopped its heartbeat at `),
      ),
    });
    expect(runs).toEqual([
      { run_id: 'alive', status: 'running', error: null },
      { run_id: 'before-leases', ...abandoned(hostname()) },
      { run_id: 'next', status: 'running', error: null },
      { run_id: 'other-host-fresh', ...abandoned('another-host') },
      { run_id: 'other-host-stale', ...abandoned('recreated-container') },
      { run_id: 'reused-pid', ...abandoned(hostname()) },
    ]);
  });

  it('leaves a running run of another host with a fresh heartbeat alone', async () => {
    await warehouse.query(
      'INSERT INTO etl_runs (run_id, job, started_at, status, pid, host, heartbeat_at) VALUES ' +
        "('elsewhere', 'sync', $started, 'running', 4242, 'another-host', $beat)",
      { started: new Date(T0 - 10 * LEASE.staleMs), beat: new Date(T0 - LEASE.staleMs / 2) },
    );
    await warehouse.startRun({ runId: 'mine', project: PROJECT, job: 'sync', trigger: 'cli' });
    expect(await warehouse.query("SELECT status FROM etl_runs WHERE run_id = 'elsewhere'")).toEqual([
      { status: 'running' },
    ]);
  });

  it('an exclusive run refuses to start (exit 75) while another run of its job and project holds a fresh lease', async () => {
    // another process's sync of the project, beating 5 s ago: a second sync must not interleave its windows
    await warehouse.query(
      'INSERT INTO etl_runs (run_id, project, job, started_at, status, pid, host, heartbeat_at) VALUES ' +
        "('first', $project, 'sync', $started, 'running', 4242, 'another-host', $beat)",
      { project: PROJECT, started: new Date(T0 - 60_000), beat: new Date(T0 - 5_000) },
    );
    const second = { runId: 'second', project: PROJECT, job: 'sync', trigger: 'cli', exclusive: true };
    const refused = await warehouse.startRun(second).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({ code: 'sync.already_running', exitCode: 75 });
    expect((refused as Error).message).toMatch(
      /another sync of project .+ is running: run first \(PID 4242 on another-host, started /,
    );
    expect(await warehouse.query("SELECT count(*) AS n FROM etl_runs WHERE run_id = 'second'")).toEqual([
      { n: 0 },
    ]);
    // other projects, other jobs and runs that do not ask for exclusivity start as before
    await warehouse.startRun({ ...second, runId: 'other-project', project: 'another-project' });
    await warehouse.startRun({ ...second, runId: 'other-job', job: 'daily-report' });
    await warehouse.startRun({ runId: 'not-exclusive', project: PROJECT, job: 'sync', trigger: 'cli' });
    await warehouse.finishRun('not-exclusive', { status: 'success', durationMs: 1 });
    // once the first run's lease is stale it is closed as abandoned and the second one starts
    clock = T0 + LEASE.staleMs;
    await warehouse.startRun({ ...second, runId: 'second-later' });
    expect(await warehouse.query("SELECT status FROM etl_runs WHERE run_id = 'first'")).toEqual([
      { status: 'failed' },
    ]);
  });

  it('a run that started beside a fresh lease closes it when it finishes, once that lease is stale', async () => {
    // a killed process's run, beating a moment ago: the next run starting now leaves it alone
    await warehouse.query(
      'INSERT INTO etl_runs (run_id, project, job, started_at, status, pid, host, heartbeat_at) VALUES ' +
        "('killed', 'another-project', 'sync', $beat, 'running', 4242, 'another-host', $beat)",
      { beat: new Date(T0 - 1_000) },
    );
    await warehouse.startRun({ runId: 'next', project: PROJECT, job: 'sync', trigger: 'cli' });
    expect(await warehouse.query("SELECT status FROM etl_runs WHERE run_id = 'killed'")).toEqual([
      { status: 'running' },
    ]);
    // it ends after the killed run's lease ran out: `runs` no longer shows that one as running
    clock = T0 + LEASE.staleMs;
    await warehouse.finishRun('next', { status: 'success', durationMs: LEASE.staleMs });
    expect(
      await warehouse.query(
        "SELECT run_id, status FROM etl_runs WHERE run_id IN ('killed', 'next') ORDER BY 1",
      ),
    ).toEqual([
      { run_id: 'killed', status: 'failed' },
      { run_id: 'next', status: 'success' },
    ]);
  });

  it('closes at once, with a fresh heartbeat, the runs of dead owners of this host: reaped, zombie, reused PID', async () => {
    const died = await ownerThatDied();
    const zombie = await zombieOwner();
    const me = thisProcess();
    const beat = new Date(T0 - 1_000);
    try {
      // pid and host only (as written before migration 016): a PID gone or a zombie is dead all the same
      await warehouse.query(
        'INSERT INTO etl_runs (run_id, project, job, started_at, status, pid, host, heartbeat_at) VALUES ' +
          "('died', $project, 'sync', $beat, 'running', $died, $host, $beat), " +
          "('zombie', 'p2', 'sync', $beat, 'running', $zombie, $host, $beat), " +
          "('dead-elsewhere', 'p3', 'sync', $beat, 'running', $died, 'another-host', $beat)",
        { project: PROJECT, died: died.pid, zombie: zombie.owner.pid, host: hostname(), beat },
      );
      // this very PID, but started at another time: the PID was reused
      await warehouse.query(
        'INSERT INTO etl_runs (run_id, project, job, started_at, status, pid, host, boot_id, start_ticks, heartbeat_at) ' +
          "VALUES ('reused', 'p4', 'sync', $beat, 'running', $pid, $host, $boot, $ticks, $beat)",
        { pid: me.pid, host: me.host, boot: me.bootId, ticks: (me.startTicks ?? 0) + 1, beat },
      );
      // an exclusive sync of the dead owner's project starts at once, no waiting for the lease
      await warehouse.startRun({
        runId: 'next',
        project: PROJECT,
        job: 'sync',
        trigger: 'cli',
        exclusive: true,
      });
    } finally {
      await zombie.stop();
    }
    const runs = await warehouse.query('SELECT run_id, status, error FROM etl_runs ORDER BY run_id');
    const host = hostname().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(runs).toEqual([
      { run_id: 'dead-elsewhere', status: 'running', error: null },
      {
        run_id: 'died',
        status: 'failed',
        error: `abandoned: its process (PID ${died.pid} on ${hostname()}) is no longer running; the run was not finished`,
      },
      { run_id: 'next', status: 'running', error: null },
      {
        run_id: 'reused',
        status: 'failed',
        error: expect.stringMatching(
          new RegExp(
            `^abandoned: its process \\(PID ${me.pid} on ${host}\\) is no longer running \\(PID ${me.pid} is another process now\\)`,
          ),
        ),
      },
      {
        run_id: 'zombie',
        status: 'failed',
        error: `abandoned: its process (PID ${zombie.owner.pid} on ${hostname()}) has exited (a zombie not yet reaped); the run was not finished`,
      },
    ]);
    for (const run of runs) expect(String(run['error'])).not.toMatch(/is running|waiting/);
  });

  it('a live owner of this host is refused as running, without the advice to wait for its heartbeat', async () => {
    let live: LiveOwner | undefined;
    try {
      live = await liveOwner();
      const o = live.owner;
      await warehouse.query(
        'INSERT INTO etl_runs (run_id, project, job, started_at, status, pid, host, boot_id, start_ticks, heartbeat_at) ' +
          "VALUES ('live', $project, 'sync', $beat, 'running', $pid, $host, $boot, $ticks, $beat)",
        {
          project: PROJECT,
          pid: o.pid,
          host: o.host,
          boot: o.bootId,
          ticks: o.startTicks,
          beat: new Date(T0 - 1_000),
        },
      );
      const refused = await warehouse
        .startRun({ runId: 'second', project: PROJECT, job: 'sync', trigger: 'cli', exclusive: true })
        .then(
          () => undefined,
          (error: unknown) => error as Error,
        );
      expect(refused?.message).toMatch(
        new RegExp(
          `^another sync of project ${PROJECT} is running: run live \\(PID ${o.pid} on this host, started .+\\); ` +
            'try again when it has finished \\(reporter-etl runs shows it\\)$',
        ),
      );
    } finally {
      await live?.stop();
    }
  });

  it('a heartbeat, and every committed window, refreshes the lease of a running run', async () => {
    await warehouse.startRun({ runId: 'r1', project: PROJECT, job: 'sync', trigger: 'cli' });
    const beatOf = async () =>
      (await warehouse.query("SELECT heartbeat_at FROM etl_runs WHERE run_id = 'r1'"))[0]?.['heartbeat_at'];
    expect(await beatOf()).toBe(T0);
    await beatRun(warehouse, 'r1', T0 + 10_000);
    expect(await beatOf()).toBe(T0 + 10_000);
    const batch = makeBatch({ runId: 'r1', sessions: [makeSession('s1')] });
    await warehouse.commitWindow(batch);
    expect(await beatOf()).toBe(Math.max(T0 + 10_000, batch.seenAt));
    await warehouse.finishRun('r1', { status: 'success', durationMs: 1 });
    // a finished run's heartbeat is not moved any more
    await beatRun(warehouse, 'r1', T0 + 999_999_999);
    expect(await beatOf()).toBe(Math.max(T0 + 10_000, batch.seenAt));
  });

  it('counts the rejects of a run', async () => {
    const reject = {
      project: PROJECT,
      endpoint: 'messages/filter',
      record_id: 'q9',
      raw_json: '{"a":1}',
      error: 'bad',
    };
    await warehouse.commitWindow(
      makeBatch({
        rejects: [
          { ...reject, run_id: 'r1' },
          { ...reject, run_id: 'r1' },
        ],
      }),
    );
    await warehouse.commitWindow(makeBatch({ runId: 'r2', rejects: [{ ...reject, run_id: 'r2' }] }));
    expect(await warehouse.countRejects('r1')).toBe(2);
    expect(await warehouse.countRejects('r2')).toBe(1);
    expect(await warehouse.countRejects('none')).toBe(0);
    expect(
      await warehouse.query(
        "SELECT endpoint, record_id, raw_json, error, rejected_at FROM etl_rejects WHERE run_id = 'r2'",
      ),
    ).toEqual([
      {
        endpoint: 'messages/filter',
        record_id: 'q9',
        raw_json: '{"a":1}',
        error: 'bad',
        rejected_at: T0 + 2 * 3_600_000,
      },
    ]);
  });
});
