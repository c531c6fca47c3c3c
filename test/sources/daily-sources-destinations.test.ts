// The two daily sources reach the destinations through the table registry alone: after state-routes and
// telephony ran, the Parquet lake holds exactly their warehouse rows (days included), and a real ClickHouse
// server (when installed) holds their keys; no export code names them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouse } from '../../src/destinations/clickhouse/clickhouse-http.js';
import { exportClickHouse } from '../../src/destinations/clickhouse/export-clickhouse.js';
import { exportParquet } from '../../src/destinations/lake/export-parquet.js';
import { stateRoutesSource } from '../../src/sources/state-routes/source.js';
import { telephonySource } from '../../src/sources/telephony/source.js';
import { type ClickHouseServer, clickHouseMissing, startClickHouse } from '../helpers/clickhouse-server.js';
import { createHarness, type Harness, runSourceOnce } from '../helpers/sync-harness.js';

const TABLES = { state_routes: ['day', 'channel_type', 'route', 'result'], telephony_daily: ['day'] };
const missing = clickHouseMissing();
let h: Harness;
let server: ClickHouseServer | undefined;

beforeAll(async () => {
  h = await createHarness({ emulator: { sessions: 900, days: 3 }, env: { REPORTER_HISTORY_DAYS: '3' } });
  for (const source of [stateRoutesSource, telephonySource]) await runSourceOnce(h, source);
  if (!missing) server = await startClickHouse();
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await h.close();
});

/** The table's rows as sorted `key|...|sessions-or-calls` lines, days as yyyy-MM-dd. */
function describeRows(table: keyof typeof TABLES, from: string) {
  const key = TABLES[table].map((c) => (c === 'day' ? `strftime(day, '%Y-%m-%d')` : c)).join(" || '|' || ");
  const value = table === 'state_routes' ? 'sessions' : 'incoming_calls + outgoing_calls';
  return `select ${key} || '|' || (${value}) as line from ${from} order by line`;
}

describe('the daily sources in the destinations', () => {
  it('the lake holds exactly their rows, their days included', async () => {
    const lake = mkdtempSync(join(tmpdir(), 'daily-lake-'));
    try {
      await h.withWarehouse((w) => exportParquet(w, lake));
      for (const table of Object.keys(TABLES) as (keyof typeof TABLES)[]) {
        const mine = await h.withWarehouse((w) => w.query(describeRows(table, table)));
        const files = `read_parquet('${lake}/${table}/**/*.parquet', hive_partitioning = false)`;
        const theirs = await h.withWarehouse((w) => w.query(describeRows(table, files)));
        expect(mine.length, table).toBeGreaterThan(0);
        expect(theirs, table).toEqual(mine);
      }
    } finally {
      rmSync(lake, { recursive: true, force: true });
    }
  });

  it.skipIf(missing !== undefined)('ClickHouse holds their keys', async () => {
    const clickhouse = createClickHouse({
      url: server!.url,
      user: 'default',
      password: '',
      database: 'daily_test',
    });
    await h.withWarehouse((w) => exportClickHouse(w, clickhouse));
    for (const [table, columns] of Object.entries(TABLES)) {
      const key = ['project', ...columns];
      const mine = await h.withWarehouse((w) =>
        w.query(`select count(*) as n, count(distinct (${key.join(', ')})) as k from ${table}`),
      );
      const [theirs] = await clickhouse.select<Record<string, unknown>>(
        `SELECT count() AS n FROM ${clickhouse.database}.${table} FINAL FORMAT JSONEachRow`,
      );
      expect(Number(theirs?.['n']), table).toBe(Number(mine[0]!['n']));
      expect(Number(mine[0]!['k']), table).toBe(Number(mine[0]!['n']));
    }
  });
});
