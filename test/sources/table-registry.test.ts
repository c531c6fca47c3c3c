// The table registry (src/sources/tables.ts) against the warehouse its migrations create: every table is
// registered once and every registered table exists, with the key, time, retention and secret columns it
// names; the exported tables carry a project column (the lake and ClickHouse partition by it). And the
// derivations: a table added to a unit is exported, retained or left out by its spec alone, a secret column
// never reaches the lake, and today's exported set is unchanged (a hand list, not read from the code).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, describe, expect, it } from 'vitest';
import { selectRetainedTables } from '../../jobs/retention.js';
import { clickHouseColumns, createTableSql } from '../../src/destinations/clickhouse/clickhouse-tables.js';
import { exportParquet } from '../../src/destinations/lake/export-parquet.js';
import { LAKE_TABLES, selectLakeTables } from '../../src/destinations/lake-tables.js';
import { collectTables, TABLES } from '../../src/sources/tables.js';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import { exportedTables, type TableSpec } from '../../src/warehouse/table-spec.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { EXPORTED_BEFORE_REGISTRY } from '../helpers/exported-before-registry.js';

const dirs: string[] = [];
let warehouse: Warehouse | undefined;
afterEach(async () => {
  await warehouse?.close();
  warehouse = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'table-registry-'));
  dirs.push(dir);
  return dir;
}

async function openFresh(): Promise<Warehouse> {
  warehouse = await openWarehouse({ path: join(tempDir(), 'warehouse.duckdb'), lockWaitMs: 2000 });
  return warehouse;
}

/** The base tables of the migrated warehouse and their columns, as DuckDB reports them. */
async function columnsByTable(w: Warehouse): Promise<Map<string, Set<string>>> {
  const rows = await w.query(
    `SELECT c.table_name, c.column_name FROM information_schema.columns c
       JOIN information_schema.tables t USING (table_catalog, table_schema, table_name)
      WHERE t.table_type = 'BASE TABLE' AND t.table_schema = 'main'`,
  );
  const out = new Map<string, Set<string>>();
  for (const r of rows) {
    const table = String(r['table_name']);
    if (!out.has(table)) out.set(table, new Set());
    out.get(table)!.add(String(r['column_name']));
  }
  return out;
}

const unquote = (column: string) => column.replaceAll('"', '');

describe('the table registry', () => {
  it('registers every table the migrations create, once, with columns that exist', async () => {
    const w = await openFresh();
    const actual = await columnsByTable(w);
    const created = [...actual.keys()].sort();
    expect(TABLES.map((t) => t.name).sort()).toEqual(created);
    for (const spec of TABLES) {
      const columns = actual.get(spec.name)!;
      const named = [
        ...spec.key,
        ...(spec.time ? [spec.time] : []),
        ...(spec.retainedBy ? [spec.retainedBy] : []),
      ];
      for (const column of [...named, ...(spec.secretColumns ?? [])])
        expect(columns.has(unquote(column)), `${spec.name}.${column}`).toBe(true);
      if (spec.exported) {
        expect(columns.has('project'), `${spec.name} is exported: it needs a project column`).toBe(true);
        expect(spec.key[0], `${spec.name}'s key starts with project`).toBe('project');
      }
    }
  });

  it("keeps the set exported before the registry, first and in order, and the retention job's etl_rejects", () => {
    // a source added since exports its tables after these (SOURCES' order); none of these went missing
    const exported = exportedTables(TABLES).map((t) => t.name);
    expect(exported.slice(0, EXPORTED_BEFORE_REGISTRY.length)).toEqual(EXPORTED_BEFORE_REGISTRY);
    expect(LAKE_TABLES.map((t) => t.table)).toEqual(exported);
    expect(selectRetainedTables(TABLES)).toEqual([{ table: 'etl_rejects', column: 'rejected_at' }]);
    // the pushback id (a secret) is marked, on a table that is not exported anyway
    expect(TABLES.find((t) => t.name === 'pushgate_sends')?.secretColumns).toEqual(['pushback_id']);
  });

  it('derives the lake, ClickHouse and retention lists from a spec alone', () => {
    const fake: TableSpec = {
      name: 'fake_events',
      key: ['project', 'event_id'],
      write: 'append',
      time: 'event_time',
      exported: true,
      secretColumns: ['api_token'],
      retainedBy: 'event_time',
    };
    const quiet: TableSpec = { name: 'fake_state', key: ['id'], write: 'replace-by-key', exported: false };
    const tables = collectTables([], [{ id: 'fake', tables: [fake, quiet] }]);
    expect(selectLakeTables(tables)).toEqual([
      {
        table: 'fake_events',
        time: 'event_time',
        key: ['project', 'event_id'],
        secretColumns: ['api_token'],
      },
    ]);
    expect(selectRetainedTables(tables)).toEqual([{ table: 'fake_events', column: 'event_time' }]);
    // ClickHouse: ordered by the spec's key, the secret column left out
    const [lakeTable] = selectLakeTables(tables);
    const columns = clickHouseColumns(lakeTable!, [
      { name: 'project', type: 'VARCHAR' },
      { name: 'event_id', type: 'VARCHAR' },
      { name: 'event_time', type: 'TIMESTAMP WITH TIME ZONE' },
      { name: 'api_token', type: 'VARCHAR' },
    ]);
    expect(columns.map((c) => [c.name, c.type])).toEqual([
      ['project', 'String'],
      ['event_id', 'String'],
      ['event_time', 'Nullable(Int64)'],
    ]);
    expect(createTableSql('db', lakeTable!, columns)).toMatch(/ORDER BY \(`project`, `event_id`\)$/);
    expect(() => collectTables([quiet], [{ id: 'fake', tables: [quiet] }])).toThrow(/fake_state .*twice/);
  });

  it('exports a table added to the registry without a change to the export code, never its secret column', async () => {
    const w = await openFresh();
    await w.query(
      'CREATE TABLE fake_events (project VARCHAR, event_id VARCHAR, event_time TIMESTAMPTZ, api_token VARCHAR, n INTEGER)',
    );
    await w.query(
      `INSERT INTO fake_events VALUES
         ('p1', 'a', '2026-11-01 10:00:00+00', 'tok-secret-aaaaaaaaaaaa', 1),
         ('p1', 'b', '2026-11-02 10:00:00+00', 'tok-secret-bbbbbbbbbbbb', 2),
         ('p2', 'c', '2026-11-02 11:00:00+00', 'tok-secret-cccccccccccc', 3)`,
    );
    const fake: TableSpec = {
      name: 'fake_events',
      key: ['project', 'event_id'],
      write: 'append',
      time: 'event_time',
      exported: true,
      secretColumns: ['api_token'],
    };
    const lake = tempDir();
    const result = await exportParquet(w, lake, { tables: selectLakeTables([...TABLES, fake]) });
    expect(result.projects).toEqual(['p1', 'p2']);
    expect(readdirSync(join(lake, 'fake_events')).sort()).toEqual(['project=p1', 'project=p2']);
    expect(readdirSync(join(lake, 'fake_events', 'project=p1')).sort()).toEqual([
      'date=2026-11-01',
      'date=2026-11-02',
    ]);
    const instance = await DuckDBInstance.create(':memory:');
    const c = await instance.connect();
    try {
      const reader = await c.runAndReadAll(
        `SELECT * FROM read_parquet('${join(lake, 'fake_events', '**', '*.parquet')}', hive_partitioning = true) ORDER BY event_id`,
      );
      expect(reader.columnNames()).not.toContain('api_token');
      expect(reader.getRowObjectsJS().map((r) => [r['project'], r['event_id'], r['n']])).toEqual([
        ['p1', 'a', 1],
        ['p1', 'b', 2],
        ['p2', 'c', 3],
      ]);
    } finally {
      c.closeSync();
      instance.closeSync();
    }
  });
});
