// Test helpers for the scheduler: a Config over a temp data dir, warehouse access on a chosen clock, fake jobs
// whose runs the test releases by hand, and the etl_runs rows of a job.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Config, loadConfig } from '../../src/config.js';
import { EXIT } from '../../src/errors.js';
import { silentLogger } from '../../src/log.js';
import type { UseWarehouse } from '../../src/manage/use-warehouse.js';
import type { Job, JobContext, JobResult } from '../../src/schedule/job.js';
import { JobRunner } from '../../src/schedule/job-runner.js';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import type { RunRecord } from '../../src/warehouse/warehouse.js';

export interface Clock {
  now: () => number;
  set(t: number): void;
  advance(ms: number): void;
}

export function fakeClock(start: number): Clock {
  let t = start;
  return {
    now: () => t,
    set: (v) => {
      t = v;
    },
    advance: (ms) => {
      t += ms;
    },
  };
}

export interface ScheduleHarness {
  dir: string;
  config: Config;
  clock: Clock;
  useWarehouse: UseWarehouse;
  runner(): JobRunner;
  runs(job?: string): Promise<RunRecord[]>;
  close(): void;
}

export function createScheduleHarness(env: Record<string, string> = {}, start = Date.UTC(2026, 10, 21, 7)) {
  const dir = mkdtempSync(join(tmpdir(), 'reporter-etl-schedule-'));
  const config = loadConfig(
    { REPORTER_DATA_DIR: dir, REPORTER_LOCK_WAIT_SECONDS: '0.3', ...env },
    { requireToken: false },
  );
  const clock = fakeClock(start);
  const useWarehouse: UseWarehouse = async (fn) => {
    const w = await openWarehouse({
      path: config.warehousePath,
      lockWaitMs: config.lockWaitMs,
      now: clock.now,
    });
    try {
      return await fn(w);
    } finally {
      await w.close();
    }
  };
  const harness: ScheduleHarness = {
    dir,
    config,
    clock,
    useWarehouse,
    runner: () => new JobRunner({ config, log: silentLogger(), useWarehouse, now: clock.now }),
    runs: (job) => useWarehouse((w) => w.listRuns({ limit: 100, ...(job ? { job } : {}) })),
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
  return harness;
}

export interface Gate {
  promise: Promise<void>;
  open(): void;
}

export function gate(): Gate {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

export interface FakeJob {
  job: Job;
  /** Contexts of the runs started, in order. */
  started: JobContext[];
}

/** A job whose run does `body` (by default: succeeds at once). */
export function fakeJob(
  id: string,
  body: (ctx: JobContext) => Promise<Partial<JobResult> | undefined> = async () => undefined,
  extra: Partial<Job> = {},
): FakeJob {
  const started: JobContext[] = [];
  return {
    started,
    job: {
      id,
      description: `fake ${id}`,
      defaultSchedule: '*/15 * * * *',
      needsApi: false,
      async run(ctx) {
        started.push(ctx);
        const result = await body(ctx);
        return { status: 'success', summary: `${id} done`, exitCode: EXIT.ok, ...result };
      },
      ...extra,
    },
  };
}
