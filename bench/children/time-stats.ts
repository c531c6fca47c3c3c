// The statistics step's child: builds the synthetic warehouse (bench/synthetic-warehouse.ts) of N messages,
// then times each statement of src/analysis/stats/sql/ separately over the whole window (best of 3, through the
// warehouse as `stats` opens it, default memory limit) and the whole `computeStats` report.
// Usage: time-stats.js WAREHOUSE.duckdb MESSAGES; prints {build, queries, report} as JSON.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { computeStats, run } from '../../src/analysis/stats/compute-stats.js';
import { STATS_QUERIES } from '../../src/analysis/stats/load-stats-sql.js';
import { silentLogger } from '../../src/log.js';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import type { SqlParam } from '../../src/warehouse/warehouse.js';
import { buildSyntheticWarehouse } from '../synthetic-warehouse.js';

const [path, messagesText] = process.argv.slice(2);
if (!path || !messagesText) {
  process.stderr.write('usage: time-stats.js WAREHOUSE.duckdb MESSAGES\n');
  process.exit(2);
}
const ROUNDS = 3;

mkdirSync(dirname(path), { recursive: true });
const buildStarted = performance.now();
const synthetic = await buildSyntheticWarehouse({ path, messages: Number(messagesText) });
const buildSeconds = (performance.now() - buildStarted) / 1000;

const warehouse = await openWarehouse({ path, log: silentLogger() });
const params: Record<string, SqlParam> = {
  project: synthetic.project,
  projects: [synthetic.project],
  from: new Date(synthetic.from),
  to: new Date(synthetic.to),
  all_channels: true,
  channels: [],
  tz: 'Europe/Moscow',
  unit: 'day',
  top: 10,
  // the Prompter's questions are bounded by their own sending time (src/analysis/stats/prompter-stats.ts)
  prompter_from: synthetic.from,
  prompter_to: synthetic.to,
};

async function bestOf<T>(fn: () => Promise<T>): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    await fn();
    best = Math.min(best, (performance.now() - started) / 1000);
  }
  return best;
}

try {
  const queries: Record<string, number> = {};
  for (const name of STATS_QUERIES) queries[name] = await bestOf(() => run(warehouse, name, params));
  const report = await bestOf(() =>
    computeStats(warehouse, {
      projects: [synthetic.project],
      from: synthetic.from,
      to: synthetic.to,
      timeZone: 'Europe/Moscow',
      period: 'day',
      top: 10,
      catchAllClass: '/CatchAll',
    }),
  );
  process.stdout.write(
    `${JSON.stringify({ build: { seconds: buildSeconds, counts: synthetic.counts }, queries, report })}\n`,
  );
} finally {
  await warehouse.close();
}
