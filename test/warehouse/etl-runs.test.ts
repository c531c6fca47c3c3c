// The etl_runs lifecycle: started as running with pid and host, counted by windows, finished with
// status, error and duration; listed newest first with filters; runs of dead processes closed as failed.
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
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
    await warehouse.finishRun('r1', { status: 'partial', error: '2 records rejected', durationMs: 1500 });
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

  it('closes as failed the running runs of processes that died, and only those', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    const deadPid = Number(dead.stdout);
    await warehouse.query(
      "INSERT INTO etl_runs (run_id, job, started_at, status, pid, host) VALUES ('ghost', 'sync', now(), 'running', $1, $2), " +
        "('elsewhere', 'sync', now(), 'running', $1, 'another-host')",
      [deadPid, hostname()],
    );
    await warehouse.startRun({ runId: 'alive', project: PROJECT, job: 'sync', trigger: 'cli' });
    await warehouse.startRun({ runId: 'next', project: PROJECT, job: 'stats', trigger: 'cli' });
    const runs = await warehouse.query('SELECT run_id, status, error FROM etl_runs ORDER BY run_id');
    expect(runs).toEqual([
      { run_id: 'alive', status: 'running', error: null },
      { run_id: 'elsewhere', status: 'running', error: null },
      {
        run_id: 'ghost',
        status: 'failed',
        error: `abandoned: its process (PID ${deadPid} on ${hostname()}) ended without finishing the run`,
      },
      { run_id: 'next', status: 'running', error: null },
    ]);
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
