// A table's partitions by its time column: an instant (TIMESTAMPTZ) by its UTC date, a calendar day (DATE) by
// that day, and the partition's rows selected back exactly, whatever DuckDB's session zone (here Tokyo and Los
// Angeles, where converting a DATE at a zone moves it by a day).
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { partitionsOf, partitionWhere } from '../../../src/destinations/partitions.js';
import { queryRows } from '../../../src/warehouse/query-rows.js';
import type { Warehouse } from '../../../src/warehouse/warehouse.js';

async function warehouseIn(zone: string) {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run(`SET TimeZone = '${zone}'`);
  await connection.run(`CREATE TABLE daily (project VARCHAR, day DATE, n INTEGER);
    INSERT INTO daily VALUES ('p', DATE '2026-03-01', 1), ('p', DATE '2026-03-01', 2), ('p', DATE '2026-03-02', 3);
    CREATE TABLE events (project VARCHAR, seen TIMESTAMPTZ);
    INSERT INTO events VALUES ('p', '2026-03-01T23:30:00Z'), ('p', '2026-03-02T00:30:00Z');`);
  const warehouse = { query: (sql: string, params?: never) => queryRows(connection, sql, params) };
  return warehouse as unknown as Warehouse;
}

describe.each(['Asia/Tokyo', 'America/Los_Angeles', 'UTC'])('partitions in zone %s', (zone) => {
  it('a DATE column partitions by its day and selects that day back', async () => {
    const w = await warehouseIn(zone);
    const table = { table: 'daily', time: 'day', key: [], secretColumns: [] };
    const partitions = await partitionsOf(w, table, 'p');
    expect(partitions.map((p) => [p.date, p.rows])).toEqual([
      ['2026-03-01', 2],
      ['2026-03-02', 1],
    ]);
    for (const p of partitions) {
      const rows = await w.query(`SELECT count(*) AS n FROM daily WHERE ${partitionWhere(table, 'p', p)}`);
      expect(Number(rows[0]!['n'])).toBe(p.rows);
    }
  });

  it('a TIMESTAMPTZ column partitions by the UTC date of its instants', async () => {
    const w = await warehouseIn(zone);
    const table = { table: 'events', time: 'seen', key: [], secretColumns: [] };
    const partitions = await partitionsOf(w, table, 'p');
    expect(partitions.map((p) => [p.date, p.rows])).toEqual([
      ['2026-03-01', 1],
      ['2026-03-02', 1],
    ]);
    for (const p of partitions) {
      const rows = await w.query(`SELECT count(*) AS n FROM events WHERE ${partitionWhere(table, 'p', p)}`);
      expect(Number(rows[0]!['n'])).toBe(1);
    }
  });
});
