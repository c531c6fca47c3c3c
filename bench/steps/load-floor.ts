// Step: the load floor. The rows the full sync stored are appended to an empty warehouse of the same
// schema with DuckDB's appender, no HTTP: what storing them costs at least. Timed inside the child
// (reading the rows into memory first is not counted). Twice: DuckDB on 2 threads for the wall time (the
// least here), on 1 thread for the CPU (the least CPU, and the sync's own setting while it commits).
import { join } from 'node:path';
import type { BenchContext } from '../bench-context.js';
import type { BenchStep, StepFigures } from '../bench-step.js';
import { childScript, runChild } from '../run-child.js';

export const loadFloorStep: BenchStep = {
  id: 'load-floor',
  title: 'Load floor: the same rows appended to DuckDB, no HTTP',
  needs: ['full-sync'],
  async run(ctx: BenchContext): Promise<StepFigures> {
    const full = ctx.fullSync!;
    const append = async (threads: number) => {
      const child = await runChild(
        childScript('append-rows.js'),
        [
          join(full.dataDir, 'warehouse.duckdb'),
          join(ctx.dir, `load-floor-${threads}`, 'warehouse.duckdb'),
          String(threads),
        ],
        { resourcesFile: join(ctx.dir, `resources-load-${threads}.json`) },
      );
      if (child.exitCode !== 0) throw new Error(`the load floor failed: ${child.stderr.slice(-2000)}`);
      return JSON.parse(child.stdout) as { rows: number; wallMs: number; cpuMs: number };
    };
    const load = await append(2);
    const oneThread = await append(1);
    return {
      seconds: { value: load.wallMs / 1000, unit: 's', note: 'appending and CHECKPOINT' },
      cpuSeconds: {
        value: oneThread.cpuMs / 1000,
        unit: 's',
        note: 'user + system CPU while appending and checkpointing, DuckDB on 1 thread',
      },
      twoThreadsCpuSeconds: { value: load.cpuMs / 1000, unit: 's', note: 'the same, DuckDB on 2 threads' },
      rows: { value: load.rows, unit: 'count', note: 'all row tables' },
      rowsPerSecond: { value: load.rows / (load.wallMs / 1000), unit: 'rows/s' },
    };
  },
};
