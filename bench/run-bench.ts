// `npm run bench`: runs the benchmark steps in order (each step's prerequisites first), prints the table
// (ratios first, then absolute figures, then peak RSS) and writes bench/results/latest.json (and from it the
// figures table of bench/README.md). A step is one file in STEPS (bench-steps.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_TOKEN, type BenchContext } from './bench-context.js';
import { BENCH_HELP, BenchUsageError, parseBenchOptions } from './bench-options.js';
import type { StepFigures } from './bench-step.js';
import { STEPS, selectSteps } from './bench-steps.js';
import { describeMachine, endLoadAverage } from './describe-machine.js';
import { renderFiguresFile } from './render-figures.js';
import { REPO_ROOT } from './run-child.js';
import { renderResultTable, summariseResults } from './summarise-results.js';
import { writeResults } from './write-results.js';

async function main(argv: readonly string[]): Promise<number> {
  const options = parseBenchOptions(
    argv,
    STEPS.map((s) => s.id),
  );
  if (options.help) {
    process.stdout.write(BENCH_HELP);
    return 0;
  }
  const machine = describeMachine();
  const dir = mkdtempSync(join(tmpdir(), 'reporter-etl-bench-'));
  const ctx: BenchContext = {
    options,
    dir,
    // a fixed clock a little behind the real one: the sync children read up to now minus the safety lag
    emulatorNow: Math.floor(Date.now() / 60_000) * 60_000 - 10 * 60_000,
    token: BENCH_TOKEN,
    say: (line) => process.stderr.write(`${line}\n`),
  };
  const figures: Record<string, StepFigures> = {};
  try {
    for (const step of selectSteps(options.only)) {
      ctx.say(`bench: ${step.title} …`);
      const started = performance.now();
      figures[step.id] = await step.run(ctx);
      ctx.say(`bench: ${step.title}: done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
  } finally {
    if (options.keep) ctx.say(`bench: kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
  const rows = summariseResults(figures, ctx.fullSync?.messages);
  const results = {
    schemaVersion: 1 as const,
    generatedAt: new Date().toISOString(),
    command: ['npm run bench', ...(argv.length > 0 ? ['--', ...argv] : [])].join(' '),
    machine: endLoadAverage(machine),
    size: {
      sessions: options.sessions,
      days: options.days,
      concurrency: options.concurrency,
      seed: options.seed,
      statsMessages: options.statsMessages,
    },
    rows,
    steps: figures,
  };
  // a partial run (--only) must not pass for the latest full figures
  const path = join(REPO_ROOT, 'bench', 'results', options.only ? 'latest-partial.json' : 'latest.json');
  writeResults(path, results);
  // the figures table of bench/README.md is generated from the latest full run, never typed
  if (!options.only) renderFiguresFile(path);
  if (options.json) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  else {
    const m = results.machine;
    process.stdout.write(
      `${options.sessions.toLocaleString('en')} sessions over ${options.days} days; ${m.cpus} × ${m.cpuModel}, ` +
        `${m.memoryGiB} GiB, Node ${m.node}, load ${m.loadAverageStart.join(' ')} → ${m.loadAverageEnd?.join(' ')}\n\n` +
        `${renderResultTable(rows)}\n\nwritten to ${path}\n`,
    );
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof BenchUsageError) {
      process.stderr.write(`bench: ${error.message}\n\n${BENCH_HELP}`);
      process.exit(2);
    }
    process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
