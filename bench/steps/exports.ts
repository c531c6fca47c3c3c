// Step: the exports of the synced warehouse (a copy of the full sync's): the Parquet lake written in full
// (rows per second, the lake's size against the warehouse file), then after an incremental sync (the
// look-back re-read) the incremental export (partitions written out of all: only those the sync touched),
// and, where clickhouse-server is installed, the replication into a ClickHouse started for the step (rows
// per second). Each export is the CLI in a child process, as a user runs it.
import { copyFileSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type BenchContext, syncEnvironment, withBenchEmulator } from '../bench-context.js';
import type { BenchStep, StepFigures } from '../bench-step.js';
import { clickHouseMissing, startClickHouse } from '../clickhouse-server.js';
import { CLI, runChild } from '../run-child.js';
import { runSyncChild } from './run-sync-child.js';

function sizeOf(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}

async function exportChild(ctx: BenchContext, args: string[], env: Record<string, string>, label: string) {
  const child = await runChild(CLI, ['export', ...args, '--json'], {
    env,
    resourcesFile: join(ctx.dir, `resources-export-${label}.json`),
  });
  if (child.exitCode !== 0)
    throw new Error(`export ${args[0]} exited ${child.exitCode}: ${child.stderr.slice(0, 500)}`);
  return {
    wallMs: child.wallMs,
    result: JSON.parse(child.stdout) as {
      written?: string[];
      sent?: string[];
      unchanged: number;
      rows: number;
    },
  };
}

export const exportsStep: BenchStep = {
  id: 'exports',
  title: 'Exports: the Parquet lake (full, then incremental after a sync) and ClickHouse',
  needs: ['full-sync'],
  async run(ctx: BenchContext): Promise<StepFigures> {
    const dataDir = join(ctx.dir, 'exports');
    mkdirSync(dataDir, { recursive: true });
    const warehouse = join(dataDir, 'warehouse.duckdb');
    copyFileSync(join(ctx.fullSync!.dataDir, 'warehouse.duckdb'), warehouse);
    const env = { REPORTER_DATA_DIR: dataDir };
    const lake = join(ctx.dir, 'lake');
    const full = await exportChild(ctx, ['parquet', '--out', lake], env, 'parquet-full');
    const lakeBytes = sizeOf(lake);
    const partitions = (full.result.written ?? []).length;

    await withBenchEmulator(ctx, {}, (running) =>
      runSyncChild(ctx, syncEnvironment(ctx, running.url, dataDir), 'exports-incremental'),
    );
    const incremental = await exportChild(ctx, ['parquet', '--out', lake], env, 'parquet-incremental');
    const written = (incremental.result.written ?? []).length;
    ctx.say(
      `bench: lake ${(lakeBytes / 1e6).toFixed(1)} MB, ${partitions} partitions; incremental wrote ${written} of ${written + incremental.result.unchanged}`,
    );

    const figures: StepFigures = {
      parquetSeconds: { value: full.wallMs / 1000, unit: 's' },
      parquetRowsPerSecond: {
        value: full.result.rows / (full.wallMs / 1000),
        unit: 'rows/s',
        note: 'all tables, the CLI child',
      },
      lakeMb: { value: lakeBytes / 1e6, unit: 'MB' },
      warehouseMb: {
        value: statSync(warehouse).size / 1e6,
        unit: 'MB',
        note: 'the warehouse file it was written from',
      },
      lakePartitions: { value: partitions, unit: 'count' },
      incrementalPartitionsWritten: {
        value: written,
        unit: 'count',
        note: 'after an incremental sync (its look-back re-read): the partitions of the days it touched',
      },
      incrementalPartitionsUnchanged: { value: incremental.result.unchanged, unit: 'count' },
      incrementalParquetSeconds: { value: incremental.wallMs / 1000, unit: 's' },
    };
    const missing = (() => {
      try {
        return clickHouseMissing();
      } catch (error) {
        return (error as Error).message;
      }
    })();
    if (missing) {
      figures['clickhouseRowsPerSecond'] = { value: null, unit: 'rows/s', note: missing };
      return figures;
    }
    const server = await startClickHouse();
    try {
      const ch = await exportChild(
        ctx,
        ['clickhouse'],
        { ...env, REPORTER_CLICKHOUSE_URL: server.url, REPORTER_CLICKHOUSE_DATABASE: 'bench' },
        'clickhouse',
      );
      figures['clickhouseSeconds'] = { value: ch.wallMs / 1000, unit: 's' };
      figures['clickhouseRowsPerSecond'] = {
        value: ch.result.rows / (ch.wallMs / 1000),
        unit: 'rows/s',
        note: 'every table sent over HTTP (JSONEachRow), each partition then its older rows deleted',
      };
    } finally {
      await server.stop();
    }
    return figures;
  },
};
