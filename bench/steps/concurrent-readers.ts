// Step: the full sync again, into an empty warehouse, while another process runs `stats --json` in a loop
// (each run a new process, as an analyst would): the readers' lock waits (from the "waitedMs" of their log
// lines, summed per run), the sync's wall time against the full sync alone (target ≤ 1.1), its CPU against
// its CPU alone and the readers' own CPU (same 2 cores). A control run first: the sync beside the same loop
// reading a copy of the full sync's warehouse (no sharing at all), so the figures separate what sharing the
// warehouse costs from what sharing 2 cores with another process's work costs.
import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { type BenchContext, syncEnvironment, withBenchEmulator } from '../bench-context.js';
import type { BenchStep, StepFigures } from '../bench-step.js';
import { CLI, runChild } from '../run-child.js';
import { runSyncChild } from './run-sync-child.js';

interface ReaderRun {
  exitCode: number;
  waitMs: number;
  wallMs: number;
  cpuSeconds: number;
}

/** One `stats --json` child; its lock wait is the sum of the waits it logged. */
async function runStatsReader(env: Record<string, string>, resourcesFile: string): Promise<ReaderRun> {
  const child = await runChild(CLI, ['stats', '--json'], {
    env: { ...env, LOG_LEVEL: 'info' },
    resourcesFile,
  });
  let waitMs = 0;
  for (const line of child.stderr.split('\n')) {
    const match = /"waitedMs":(\d+)/.exec(line);
    if (match) waitMs += Number(match[1]);
  }
  return {
    exitCode: child.exitCode,
    waitMs,
    wallMs: child.wallMs,
    cpuSeconds: child.userCpuS + child.systemCpuS,
  };
}

function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? null;
}

export const concurrentReadersStep: BenchStep = {
  id: 'concurrent-readers',
  title: 'Full sync while another process runs stats --json in a loop',
  needs: ['full-sync'],
  async run(ctx: BenchContext): Promise<StepFigures> {
    const alone = ctx.fullSync;
    if (!alone) throw new Error('concurrent-readers needs the full-sync step');
    return withBenchEmulator(ctx, {}, async (running) => {
      const copyDir = join(ctx.dir, 'readers-own-copy');
      cpSync(alone.dataDir, copyDir, { recursive: true });
      const control = await syncBesideReaders(
        ctx,
        syncEnvironment(ctx, running.url, join(ctx.dir, 'synced-beside-other-readers')),
        syncEnvironment(ctx, running.url, copyDir),
        'beside-other-readers',
      );
      const dataDir = join(ctx.dir, 'synced-with-readers');
      const env = syncEnvironment(ctx, running.url, dataDir);
      const { sync, runs } = await syncBesideReaders(ctx, env, env, 'with-readers');
      // a run refused because the warehouse had no schema yet (exit 2, the first instants) is not a wait
      const counted = runs.filter((r) => r.exitCode !== 2);
      const waits = counted.map((r) => r.waitMs / 1000).sort((a, b) => a - b);
      const failed = counted.filter((r) => r.exitCode !== 0).length;
      ctx.say(
        `bench: ${counted.length} stats runs beside the sync (${failed} failed); waits p50 ${percentile(waits, 50)} s, p95 ${percentile(waits, 95)} s`,
      );
      return {
        syncSeconds: { value: sync.wallMs / 1000, unit: 's' },
        syncRatio: {
          value: sync.wallMs / alone.wallMs,
          unit: 'ratio',
          note: 'full sync with readers ÷ full sync alone (target ≤ 1.1); the readers share the 2 cores',
        },
        controlSyncSeconds: {
          value: control.sync.wallMs / 1000,
          unit: 's',
          note: 'the full sync beside the same stats --json loop reading a copy of the warehouse',
        },
        controlSyncRatio: {
          value: control.sync.wallMs / alone.wallMs,
          unit: 'ratio',
          note: 'that control ÷ full sync alone: what sharing 2 cores with the readers costs, nothing shared',
        },
        sharingRatio: {
          value: sync.wallMs / control.sync.wallMs,
          unit: 'ratio',
          note: 'full sync with readers of its warehouse ÷ with readers of a copy: what sharing the warehouse costs',
        },
        syncCpuRatio: {
          value: sync.cpuSeconds / alone.cpuSeconds,
          unit: 'ratio',
          note: "the sync process's CPU seconds with readers ÷ alone: what letting the readers in costs it",
        },
        readerCpuSeconds: {
          value: counted.reduce((sum, r) => sum + r.cpuSeconds, 0),
          unit: 's',
          note: "the readers' CPU seconds during the sync, taken from the same 2 cores",
        },
        readerRuns: { value: counted.length, unit: 'count' },
        readerFailures: {
          value: failed,
          unit: 'count',
          note: 'exit 75: waited longer than the read lock wait',
        },
        readerWaitP50: { value: percentile(waits, 50), unit: 's' },
        readerWaitP95: { value: percentile(waits, 95), unit: 's', note: 'target ≤ 5 s' },
        readerWaitMax: { value: waits.at(-1) ?? null, unit: 's' },
      };
    });
  },
};

/** Runs the full sync (env `syncEnv`) while `stats --json` (env `readerEnv`) runs over and over. */
async function syncBesideReaders(
  ctx: BenchContext,
  syncEnv: Record<string, string>,
  readerEnv: Record<string, string>,
  label: string,
): Promise<{ sync: Awaited<ReturnType<typeof runSyncChild>>; runs: ReaderRun[] }> {
  const runs: ReaderRun[] = [];
  const readerWarehouse = join(readerEnv['REPORTER_DATA_DIR'] ?? '', 'warehouse.duckdb');
  let syncing = true;
  const readers = (async () => {
    while (syncing && !existsSync(readerWarehouse)) await new Promise((r) => setTimeout(r, 50));
    while (syncing)
      runs.push(await runStatsReader(readerEnv, join(ctx.dir, `resources-reader-${label}.json`)));
  })();
  try {
    const sync = await runSyncChild(ctx, syncEnv, label).finally(() => {
      syncing = false;
    });
    await readers;
    return { sync, runs };
  } finally {
    syncing = false;
    await readers.catch(() => undefined);
  }
}
