// Step: what the sync's CPU levers that are settings change. The full sync again, back to back against
// fresh emulators: once with the defaults, once with DuckDB on 2 threads (as before
// REPORTER_SYNC_DUCKDB_THREADS defaulted to 1) and once with windows of 24 hours (as before
// REPORTER_WINDOW_HOURS defaulted to 48) and once with the statuses read per client (REPORTER_STATUS_READ=by-client,
// as before the messages report tasks; its requests and wall time are what that lever is about). Each lever's figure is the run without it ÷ the run with the
// defaults, minutes apart at most, so that the machine's noise weighs on both alike. (The levers that are
// code, such as the fast checks of src/platform/reporter/fast-parse.ts, have no switch: bench/README.md gives their
// paired runs.)
import { join } from 'node:path';
import { type BenchContext, syncEnvironment, withBenchEmulator } from '../bench-context.js';
import type { BenchStep, StepFigures } from '../bench-step.js';
import { runSyncChild } from './run-sync-child.js';

/** Each lever as the settings that turn it off. */
export const SYNC_LEVERS = [
  {
    id: 'duckdbThreads',
    env: { REPORTER_SYNC_DUCKDB_THREADS: '2' },
    what: 'DuckDB on 2 threads while syncing',
  },
  { id: 'windowHours', env: { REPORTER_WINDOW_HOURS: '24' }, what: 'windows of 24 hours' },
  {
    id: 'statusRead',
    env: { REPORTER_STATUS_READ: 'by-client' },
    what: 'statuses read per client (no messages report)',
  },
] as const;

async function syncOnce(ctx: BenchContext, label: string, env: Record<string, string>) {
  const dataDir = join(ctx.dir, `levers-${label}`);
  return withBenchEmulator(ctx, {}, (running) =>
    runSyncChild(ctx, { ...syncEnvironment(ctx, running.url, dataDir), ...env }, `levers-${label}`),
  );
}

export const syncLeversStep: BenchStep = {
  id: 'sync-levers',
  title: 'Full sync with each CPU lever off, beside one with the defaults',
  needs: [],
  async run(ctx): Promise<StepFigures> {
    const figures: StepFigures = {};
    // three more syncs of a million messages would double a --large run: there, only when asked by name
    if (ctx.options.large && !ctx.options.only?.includes('sync-levers')) {
      const note = 'not run with --large unless named: npm run bench -- --large --only sync-levers';
      figures.defaultsCpuSeconds = { value: null, unit: 's', note };
      return figures;
    }
    // the defaults after the first lever: no lever is measured far from them in time
    const order = [...SYNC_LEVERS.slice(0, 1), { id: 'defaults', env: {} }, ...SYNC_LEVERS.slice(1)];
    for (const { id, env } of order) {
      const run = await syncOnce(ctx, id, env);
      figures[`${id}CpuSeconds`] = {
        value: run.cpuSeconds,
        unit: 's',
        note: 'user + system CPU of the sync',
      };
      figures[`${id}Seconds`] = { value: run.wallMs / 1000, unit: 's' };
      figures[`${id}PeakRssMb`] = { value: run.maxRssMb, unit: 'MB' };
      figures[`${id}Windows`] = { value: run.windows, unit: 'count' };
      figures[`${id}Requests`] = { value: run.requests, unit: 'count' };
      figures[`${id}Messages`] = { value: run.messages, unit: 'count' };
    }
    return figures;
  },
};
