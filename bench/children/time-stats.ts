// The statistics step's timing child: each statement of src/analysis/stats/sql/ separately over the whole
// window (best of 3, through the warehouse as `stats` opens it: read-only, the default memory limit), then the
// whole `computeStats` report (best of 3). Its peak RSS is the statistics' own (the warehouse is built by
// children/build-synthetic.ts in another process).
// Usage: time-stats.js WAREHOUSE.duckdb PROJECT FROM_MS TO_MS; prints {queries, report} as JSON.
import { computeStats, quarterParams, run } from '../../src/analysis/stats/compute-stats.js';
import { STATS_QUERIES } from '../../src/analysis/stats/load-stats-sql.js';
import { silentLogger } from '../../src/log.js';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import type { SqlParam } from '../../src/warehouse/warehouse.js';

const [path, project, fromText, toText] = process.argv.slice(2);
if (!path || !project || !fromText || !toText) {
  process.stderr.write('usage: time-stats.js WAREHOUSE.duckdb PROJECT FROM_MS TO_MS\n');
  process.exit(2);
}
const ROUNDS = 3;
const from = Number(fromText);
const to = Number(toText);

const warehouse = await openWarehouse({ path, access: 'read', log: silentLogger() });
const params: Record<string, SqlParam> = {
  project,
  projects: [project],
  from: new Date(from),
  to: new Date(to),
  all_channels: true,
  channels: [],
  several_channels: false,
  tz: 'Europe/Moscow',
  unit: 'day',
  top: 10,
  // the Prompter's questions are bounded by their own sending time (src/analysis/stats/prompter-stats.ts)
  prompter_from: from,
  prompter_to: to,
  ...quarterParams(from, to),
  // message-bounds: the first and last quarter hour of the data
  first_q_from: new Date(from),
  first_q_to: new Date(from + 900_000),
  last_q_from: new Date(to - 900_000),
  last_q_to: new Date(to),
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
      projects: [project],
      from,
      to,
      timeZone: 'Europe/Moscow',
      period: 'day',
      top: 10,
      catchAllClass: '/CatchAll',
    }),
  );
  process.stdout.write(`${JSON.stringify({ queries, report })}\n`);
} finally {
  await warehouse.close();
}
