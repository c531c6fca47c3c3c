// A micro-benchmark of the warehouse's values on their way in and out: 200,000 rows of five columns (text,
// integer, timestamp, date, list) staged through the appender (src/warehouse/stage-rows.ts), read back whole
// (query-rows.ts) and streamed (stream-rows.ts), in an in-memory DuckDB on one thread. Not a bench step (it needs
// no emulator): `npm run build && node dist/bench/warehouse-values-cost.js`; it prints CPU ms, best of 7 rounds.
// It uses only the modules' exports, so a copy runs against an older build to compare.
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { queryRows } from '../src/warehouse/query-rows.js';
import { defineStagedTable, stageRows } from '../src/warehouse/stage-rows.js';
import { streamRows } from '../src/warehouse/stream-rows.js';

const ROWS = 200_000;
const ROUNDS = 7;

interface Row {
  text: string;
  count: number;
  sent_at: number;
  day: string;
  tags: string[];
}

const table = defineStagedTable<Row>('stage_values', [
  ['text', 'varchar'],
  ['count', 'bigint'],
  ['sent_at', 'timestamptz'],
  ['day', 'date'],
  ['tags', 'varchar[]'],
]);
const rows: Row[] = Array.from({ length: ROWS }, (_, i) => ({
  text: `question ${i}`,
  count: i,
  sent_at: 1_795_900_000_000 + i * 1000,
  day: '2026-11-29',
  tags: ['billing', 'refund'],
}));

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

async function measure(fn: () => Promise<unknown>): Promise<number> {
  const start = cpuMs();
  await fn();
  return cpuMs() - start;
}

async function round(connection: DuckDBConnection): Promise<Record<string, number>> {
  return {
    stage: await measure(() => stageRows(connection, table, rows)),
    query: await measure(() => queryRows(connection, 'SELECT count, sent_at, day, tags FROM stage_values')),
    stream: await measure(async () => {
      for await (const _ of streamRows(connection, 'SELECT text, count, sent_at, day FROM stage_values'));
    }),
  };
}

const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
const connection = await instance.connect();
const best: Record<string, number> = {};
for (let n = 0; n < ROUNDS; n += 1)
  for (const [step, ms] of Object.entries(await round(connection)))
    best[step] = Math.min(best[step] ?? Number.POSITIVE_INFINITY, ms);
connection.closeSync();
instance.closeSync();
for (const [step, ms] of Object.entries(best)) console.log(`${step}: ${ms.toFixed(0)} ms (${ROWS} rows)`);
