// Step: the statistics on a synthetic warehouse of --stats-messages messages (10,000,000 by default;
// bench/synthetic-warehouse.ts, built in DuckDB from range() with its rollups, kept between runs in a cache
// folder: BENCH_SYNTHETIC_CACHE, default <os temp>/reporter-etl-bench, `off` to build it afresh): each
// statement timed separately over the whole month (best of 3) and the whole `computeStats` report, in a
// process whose peak RSS is the statistics' own; then `reporter-etl stats --json` and `reporter-etl report
// summary` of the month as their users run them (best of 3, peak RSS). Targets: each statement < 1 s, the
// whole stats < 3 s, the summary < 10 s, peak RSS < 1 GB. Each figure notes the load average when measured.
import { rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { BenchContext } from '../bench-context.js';
import type { BenchStep, StepFigures } from '../bench-step.js';
import { type ChildResult, CLI, childScript, runChild } from '../run-child.js';

/** Figures of this step that are not one statement each. */
export const WHOLE_REPORT = 'wholeReport';
export const WAREHOUSE_MESSAGES = 'warehouseMessages';

interface Synthetic {
  built: boolean;
  refilled?: boolean;
  path: string;
  project: string;
  from: number;
  to: number;
  counts: Record<string, number>;
  seconds: Record<string, number>;
  wallSeconds: number;
}

const load = () => `load ${loadavg()[0]!.toFixed(1)}`;

function cacheDir(ctx: BenchContext): string {
  const setting = process.env['BENCH_SYNTHETIC_CACHE'];
  if (setting === 'off') {
    const fresh = join(ctx.dir, 'synthetic');
    rmSync(fresh, { recursive: true, force: true });
    return fresh;
  }
  return setting && setting !== '' ? setting : join(tmpdir(), 'reporter-etl-bench');
}

function check(child: ChildResult, what: string): ChildResult {
  if (child.exitCode !== 0)
    throw new Error(`${what} failed (exit ${child.exitCode}): ${child.stderr.slice(-2000)}`);
  return child;
}

/** The CLI run `rounds` times: the best wall time, the highest peak RSS. */
async function timeCli(ctx: BenchContext, args: string[], dataDir: string, label: string, rounds = 3) {
  let best = Number.POSITIVE_INFINITY;
  let rss = 0;
  for (let round = 0; round < rounds; round++) {
    const child = check(
      await runChild(CLI, args, {
        env: { REPORTER_DATA_DIR: dataDir, REPORTER_LOG_LEVEL: 'error' },
        resourcesFile: join(ctx.dir, `resources-${label}.json`),
      }),
      `reporter-etl ${args[0]}`,
    );
    best = Math.min(best, child.wallMs / 1000);
    rss = Math.max(rss, child.maxRssMb);
  }
  return { seconds: best, rssMb: rss, note: `best of ${rounds}, ${load()}` };
}

export const statsQueriesStep: BenchStep = {
  id: 'stats',
  title: 'Statistics queries on a synthetic warehouse',
  needs: [],
  async run(ctx: BenchContext): Promise<StepFigures> {
    const build = check(
      await runChild(childScript('build-synthetic.js'), [cacheDir(ctx), String(ctx.options.statsMessages)], {
        resourcesFile: join(ctx.dir, 'resources-stats-build.json'),
      }),
      'the synthetic warehouse',
    );
    const s = JSON.parse(build.stdout) as Synthetic;
    ctx.say(
      `bench: synthetic warehouse of ${s.counts['messages']?.toLocaleString('en')} messages ${
        s.built ? `built in ${s.wallSeconds.toFixed(1)} s` : `reused from ${dirname(s.path)}`
      } (rollups filled in ${s.seconds['rollups']?.toFixed(1)} s when built)`,
    );
    const timed = check(
      await runChild(childScript('time-stats.js'), [s.path, s.project, String(s.from), String(s.to)], {
        resourcesFile: join(ctx.dir, 'resources-stats.json'),
      }),
      'the statistics step',
    );
    const out = JSON.parse(timed.stdout) as { queries: Record<string, number>; report: number };
    const figures: StepFigures = {};
    const note = `best of 3, ${load()}`;
    for (const [name, seconds] of Object.entries(out.queries))
      figures[name] = { value: seconds, unit: 's', note };
    figures[WHOLE_REPORT] = { value: out.report, unit: 's', note: `computeStats, every section, ${note}` };
    figures['statsPeakRss'] = {
      value: timed.maxRssMb,
      unit: 'MB',
      note: 'the timing process: 3 rounds of each statement and of the report',
    };
    const month = [
      '--from',
      new Date(s.from).toISOString(),
      '--to',
      new Date(s.to).toISOString(),
      '--tz',
      'Europe/Moscow',
    ];
    const dataDir = dirname(s.path);
    const cli = await timeCli(ctx, ['stats', '--json', ...month], dataDir, 'stats-cli');
    figures['statsCli'] = {
      value: cli.seconds,
      unit: 's',
      note: `reporter-etl stats --json, the process, ${cli.note}`,
    };
    figures['statsCliPeakRss'] = { value: cli.rssMb, unit: 'MB' };
    const outDir = join(ctx.dir, 'stats-reports');
    const summary = await timeCli(
      ctx,
      ['report', 'summary', ...month, '--out', outDir, '--json'],
      dataDir,
      'summary',
    );
    figures['summaryReport'] = {
      value: summary.seconds,
      unit: 's',
      note: `reporter-etl report summary, the month, ${summary.note}`,
    };
    figures['summaryReportPeakRss'] = { value: summary.rssMb, unit: 'MB' };
    if (s.built) {
      figures['syntheticBuild'] = { value: s.wallSeconds, unit: 's', note: `the ${load()} at the end` };
      figures['rollupsFill'] = {
        value: s.seconds['rollups'] ?? null,
        unit: 's',
        note: 'migration 024 filling an existing warehouse',
      };
    }
    figures[WAREHOUSE_MESSAGES] = { value: s.counts['messages'] ?? null, unit: 'count' };
    return figures;
  },
};
