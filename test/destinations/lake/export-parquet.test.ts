// The Parquet lake read back with DuckDB holds exactly the warehouse's rows, table by table; a second run
// with nothing changed writes nothing; after a sync it rewrites only the partitions that changed; rows
// deleted from the warehouse disappear from the lake; a second warehouse (another project, as on another
// machine) exports into the same lake without touching the first one's files.
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, describe, expect, it } from 'vitest';
import { exportParquet } from '../../../src/destinations/lake/export-parquet.js';
import { TABLES } from '../../../src/sources/tables.js';
import { openWarehouse } from '../../../src/warehouse/open-warehouse.js';
import { ROLLUP_TABLES } from '../../../src/warehouse/rebuild-rollups.js';
import { exportedTables } from '../../../src/warehouse/table-spec.js';
import { EXPORTED_BEFORE_REGISTRY } from '../../helpers/exported-before-registry.js';
import { createHarness, type Harness } from '../../helpers/sync-harness.js';

/**
 * The tables the lake must hold, written by hand (not read from src/destinations/lake-tables.ts, the code under test: a
 * table left out of that list must fail this test).
 */
const EXPORTED_TABLES = EXPORTED_BEFORE_REGISTRY;
/** The warehouse's tables with a project column that stay out of the lake: one machine's work, not the data. */
const NOT_EXPORTED = [
  'alerts',
  'etl_rejects',
  'etl_runs',
  'etl_state',
  'label_writes',
  'platform_report_tasks',
  // derived by `reporter-etl unhandled` from the warehouse, computed again from the lake's messages if wanted
  'unhandled_members',
  'unhandled_runs',
  // the statistics' rollups, derived from the raw rows the lake holds
  ...ROLLUP_TABLES,
];

let h: Harness | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await h?.close();
  h = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lake-'));
  dirs.push(dir);
  return dir;
}

async function exportTo(warehousePath: string, lake: string, options: { full?: boolean } = {}) {
  const warehouse = await openWarehouse({ path: warehousePath, access: 'read' });
  try {
    return await exportParquet(warehouse, lake, options);
  } finally {
    await warehouse.close();
  }
}

/** Rows in the lake and not in the warehouse, and the other way round, per table (0 and 0 when exact). */
async function differences(
  warehousePath: string,
  lake: string,
  project: string,
): Promise<Record<string, [number, number]>> {
  const instance = await DuckDBInstance.create(':memory:');
  const c = await instance.connect();
  try {
    await c.run(`ATTACH '${warehousePath}' AS wh (READ_ONLY)`);
    const out: Record<string, [number, number]> = {};
    for (const table of EXPORTED_TABLES) {
      const cols = (
        await c.runAndReadAll(
          `SELECT column_name FROM information_schema.columns WHERE table_catalog = 'wh' AND table_name = '${table}' ORDER BY ordinal_position`,
        )
      )
        .getRowsJS()
        .map((r) => `"${r[0]}"`)
        .join(', ');
      const warehouseRows = `SELECT ${cols} FROM wh.${table} WHERE project = '${project}'`;
      const files = join(lake, table, `project=${project}`, '**', '*.parquet');
      const lakeRows = existsSync(join(lake, table, `project=${project}`))
        ? `SELECT ${cols} FROM read_parquet('${files}', hive_partitioning = true, hive_types_autocast = false)`
        : `SELECT ${cols} FROM wh.${table} WHERE false`;
      const count = async (sql: string) =>
        Number((await c.runAndReadAll(`SELECT count(*) FROM (${sql})`)).getRowsJS()[0]?.[0]);
      out[table] = [
        await count(`${lakeRows} EXCEPT ALL ${warehouseRows}`),
        await count(`${warehouseRows} EXCEPT ALL ${lakeRows}`),
      ];
    }
    return out;
  } finally {
    c.closeSync();
    instance.closeSync();
  }
}

const exact = (d: Record<string, [number, number]>) => Object.values(d).every(([a, b]) => a === 0 && b === 0);

describe('export parquet', () => {
  it('holds exactly the warehouse’s rows, and a run rewrites only what changed', async () => {
    h = await createHarness({ emulator: { sessions: 1200, days: 5 } });
    expect((await h.sync()).status).toBe('success');
    const path = h.config.warehousePath;
    const lake = tempDir();
    const first = await exportTo(path, lake);
    expect(first.projects).toEqual(['shop-bot']);
    expect(first.written.length).toBeGreaterThan(10);
    expect(await differences(path, lake, 'shop-bot')).toSatisfy(exact);
    // the lake holds a folder per exported table that has rows, and every table with data of a project is
    // either exported or named here as staying out
    const holding: string[] = [];
    for (const table of EXPORTED_TABLES) {
      const [row] = await h.withWarehouse((w) => w.query(`select count(*) as n from ${table}`));
      if (Number(row?.['n']) > 0) holding.push(table);
    }
    expect(holding.length).toBeGreaterThanOrEqual(10);
    expect(
      readdirSync(lake)
        .filter((name) => !name.startsWith('_'))
        .sort(),
    ).toEqual(holding.sort());
    // and it is the table registry's exported set: the lake holds every exported table of TABLES with rows
    const registered: string[] = [];
    for (const { name } of exportedTables(TABLES)) {
      const [row] = await h.withWarehouse((w) => w.query(`select count(*) as n from ${name}`));
      if (Number(row?.['n']) > 0) registered.push(name);
    }
    expect(
      readdirSync(lake)
        .filter((name) => !name.startsWith('_'))
        .sort(),
    ).toEqual(registered.sort());
    const withProject = await h.withWarehouse((w) =>
      w.query(
        "select distinct table_name from information_schema.columns where column_name = 'project' and table_schema = 'main'",
      ),
    );
    // every table with a project is exported by the registry or one of the operational ones kept local
    expect(withProject.map((r) => String(r['table_name'])).sort()).toEqual(
      [...exportedTables(TABLES).map((t) => t.name), ...NOT_EXPORTED].sort(),
    );
    const manifest = JSON.parse(readFileSync(join(lake, '_manifest.json'), 'utf8'));
    const sessions = manifest.projects[0].tables.sessions;
    expect(sessions.columns.map((c: { name: string }) => c.name)).toContain('start_time');
    const [counted] = await h.withWarehouse((w) =>
      w.query("select count(*) as n from sessions where project = 'shop-bot'"),
    );
    expect(sessions.partitions.reduce((sum: number, p: { rows: number }) => sum + p.rows, 0)).toBe(
      counted?.['n'],
    );

    // nothing changed: nothing written
    const again = await exportTo(path, lake);
    expect(again.written).toEqual([]);
    expect(again.unchanged).toBe(first.written.length);

    // a sync a few hours later: only the partitions it touched are rewritten
    const before = statSync(
      join(lake, first.written.find((p) => p.startsWith('sessions/'))!, 'data.parquet'),
    ).mtimeMs;
    h.running.emulator.clock.advance(6 * 3_600_000);
    expect((await h.sync()).status).toBe('success');
    const third = await exportTo(path, lake);
    expect(third.written.length).toBeGreaterThan(0);
    expect(third.unchanged).toBeGreaterThan(0);
    expect(
      statSync(join(lake, first.written.find((p) => p.startsWith('sessions/'))!, 'data.parquet')).mtimeMs,
    ).toBe(before);
    expect(await differences(path, lake, 'shop-bot')).toSatisfy(exact);

    // rows deleted from the warehouse disappear from the lake (a whole day: its partition goes)
    const day = first.written.find((p) => p.startsWith('sessions/'))!.split('date=')[1]!;
    await h.withWarehouse((w) =>
      w.query(`delete from sessions where strftime(start_time at time zone 'UTC', '%Y-%m-%d') = '${day}'`),
    );
    const fourth = await exportTo(path, lake);
    expect(fourth.removed).toContain(`sessions/project=shop-bot/date=${day}`);
    expect(existsSync(join(lake, 'sessions', 'project=shop-bot', `date=${day}`))).toBe(false);
    expect(await differences(path, lake, 'shop-bot')).toSatisfy(exact);

    // another machine's warehouse, another project, the same lake
    const other = join(tempDir(), 'warehouse.duckdb');
    copyFileSync(path, other);
    const w = await openWarehouse({ path: other });
    try {
      for (const table of EXPORTED_TABLES) await w.query(`update ${table} set project = 'help-bot'`);
    } finally {
      await w.close();
    }
    const untouched = statSync(join(lake, '_manifests', 'shop-bot.json')).mtimeMs;
    const theirs = await exportTo(other, lake);
    expect(theirs.projects).toEqual(['help-bot']);
    expect(theirs.written.every((p) => p.includes('project=help-bot'))).toBe(true);
    expect(statSync(join(lake, '_manifests', 'shop-bot.json')).mtimeMs).toBe(untouched);
    expect(await differences(other, lake, 'help-bot')).toSatisfy(exact);
    expect(await differences(path, lake, 'shop-bot')).toSatisfy(exact);
    const combined = JSON.parse(readFileSync(join(lake, '_manifest.json'), 'utf8'));
    expect(combined.projects.map((p: { project: string }) => p.project)).toEqual(['help-bot', 'shop-bot']);
  }, 180_000);
});
