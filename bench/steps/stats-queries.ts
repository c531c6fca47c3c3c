// Step: each statistics statement (src/analysis/stats/sql/) on a synthetic warehouse of 10,000,000 messages
// (bench/synthetic-warehouse.ts, built in DuckDB), timed separately over the whole month, best of 3,
// at the default DuckDB memory limit; and the whole report. Target: under 1 s each.
import { join } from 'node:path';
import type { BenchContext } from '../bench-context.js';
import type { BenchStep, StepFigures } from '../bench-step.js';
import { childScript, runChild } from '../run-child.js';

/** Figures of this step that are not one statement each. */
export const WHOLE_REPORT = 'wholeReport';
export const WAREHOUSE_MESSAGES = 'warehouseMessages';

export const statsQueriesStep: BenchStep = {
  id: 'stats',
  title: 'Statistics queries on a synthetic warehouse',
  needs: [],
  async run(ctx: BenchContext): Promise<StepFigures> {
    const child = await runChild(
      childScript('time-stats.js'),
      [join(ctx.dir, 'synthetic', 'warehouse.duckdb'), String(ctx.options.statsMessages)],
      { resourcesFile: join(ctx.dir, 'resources-stats.json') },
    );
    if (child.exitCode !== 0) throw new Error(`the statistics step failed: ${child.stderr.slice(-2000)}`);
    const out = JSON.parse(child.stdout) as {
      build: { seconds: number; counts: Record<string, number> };
      queries: Record<string, number>;
      report: number;
    };
    ctx.say(
      `bench: synthetic warehouse of ${out.build.counts['messages']?.toLocaleString('en')} messages built in ${out.build.seconds.toFixed(1)} s`,
    );
    const figures: StepFigures = {};
    for (const [name, seconds] of Object.entries(out.queries))
      figures[name] = { value: seconds, unit: 's', note: 'best of 3' };
    figures[WHOLE_REPORT] = { value: out.report, unit: 's', note: 'computeStats, every section, best of 3' };
    figures[WAREHOUSE_MESSAGES] = { value: out.build.counts['messages'] ?? null, unit: 'count' };
    return figures;
  },
};
