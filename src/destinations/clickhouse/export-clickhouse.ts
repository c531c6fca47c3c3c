// Replicates the warehouse's data tables into ClickHouse (the tables of clickhouse-tables.ts, created on first
// use). Incremental like the Parquet lake: a partition (project, and UTC date for the tables of events) whose
// row count or fingerprint changed since the last run is sent again whole with a new `_version`, then the rows
// of that partition with an older version are deleted (ALTER … DELETE, waited for), so rows deleted from the
// warehouse go too. The partitions sent and their fingerprints are kept in etl_state (project <p>, key
// `clickhouse:<table>`), written after ClickHouse has them: a run killed midway sends those partitions again,
// and `SELECT … FINAL` then gives exactly the warehouse's rows.
import { EtlError } from '../../errors.js';
import { readState } from '../../warehouse/read-state.js';
import type { Warehouse } from '../../warehouse/warehouse.js';
import { LAKE_TABLES, type LakeTable } from '../lake-tables.js';
import { type LakePartition, partitionsOf, partitionWhere } from '../partitions.js';
import type { ClickHouse } from './clickhouse-http.js';
import { type ClickHouseColumn, clickHouseColumns, createTableSql } from './clickhouse-tables.js';
import { statsViewsSql } from './clickhouse-views.js';

/** Rows per INSERT. */
const INSERT_ROWS = 20_000;

export interface ClickHouseExportResult {
  projects: string[];
  sent: string[];
  removed: string[];
  unchanged: number;
  rows: number;
  version: number;
}

type SentPartitions = Record<string, { rows: number; fingerprint: string }>;

const stateKey = (table: string) => `clickhouse:${table}`;
const literal = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

export async function exportClickHouse(
  warehouse: Warehouse,
  clickhouse: ClickHouse,
  options: { projects?: readonly string[]; full?: boolean; now?: () => number } = {},
): Promise<ClickHouseExportResult> {
  const now = options.now ?? Date.now;
  const db = clickhouse.database;
  await clickhouse.run(`CREATE DATABASE IF NOT EXISTS ${db}`);
  const present = new Set(
    (await warehouse.query('SELECT table_name FROM information_schema.tables')).map((r) =>
      String(r['table_name']),
    ),
  );
  const tables = LAKE_TABLES.filter((t) => present.has(t.table));
  const version = Math.max(now(), (await lastVersion(clickhouse, db, tables)) + 1);
  const result: ClickHouseExportResult = {
    projects: [],
    sent: [],
    removed: [],
    unchanged: 0,
    rows: 0,
    version,
  };
  const columnsOf = new Map<string, ClickHouseColumn[]>();
  for (const table of tables) {
    const columns = clickHouseColumns(
      table,
      (
        await warehouse.query(
          'SELECT column_name AS name, data_type AS type FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position',
          [table.table],
        )
      ).map((r) => ({ name: String(r['name']), type: String(r['type']) })),
    );
    columnsOf.set(table.table, columns);
    await clickhouse.run(createTableSql(db, table, columns));
  }
  // the statistics views read every table: created once they all exist (again each run: a newer definition wins)
  if (tables.length === LAKE_TABLES.length) for (const sql of statsViewsSql(db)) await clickhouse.run(sql);
  const projects =
    options.projects ??
    (
      await warehouse.query(
        `SELECT project FROM (${tables.map((t) => `SELECT DISTINCT project FROM ${t.table}`).join(' UNION ')}) ORDER BY 1`,
      )
    ).map((r) => String(r['project']));
  for (const project of projects) {
    for (const table of tables) {
      const columns = columnsOf.get(table.table)!;
      const sent: SentPartitions = options.full ? {} : await readSent(warehouse, project, table.table);
      const partitions = await partitionsOf(warehouse, table, project);
      const now: SentPartitions = {};
      for (const partition of partitions) {
        now[partition.path] = { rows: partition.rows, fingerprint: partition.fingerprint };
        const before = sent[partition.path];
        delete sent[partition.path];
        if (before && before.rows === partition.rows && before.fingerprint === partition.fingerprint) {
          result.unchanged++;
          continue;
        }
        result.rows += await sendPartition(
          warehouse,
          clickhouse,
          table,
          columns,
          project,
          partition,
          version,
        );
        await deleteOlder(clickhouse, table, project, partition.date, version);
        result.sent.push(partition.path);
      }
      // partitions with no rows left in the warehouse
      for (const [path] of Object.entries(sent)) {
        const date = /date=(\d{4}-\d{2}-\d{2})$/.exec(path)?.[1];
        await deleteOlder(clickhouse, table, project, date, version);
        result.removed.push(path);
      }
      await writeSent(warehouse, project, table.table, now);
    }
    result.projects.push(project);
  }
  return result;
}

async function lastVersion(
  clickhouse: ClickHouse,
  db: string,
  tables: readonly LakeTable[],
): Promise<number> {
  const existing = await clickhouse.select<{ name: string }>(
    `SELECT name FROM system.tables WHERE database = ${literal(db)} FORMAT JSONEachRow`,
  );
  const names = new Set(existing.map((t) => t.name));
  let max = 0;
  for (const table of tables.filter((t) => names.has(t.table))) {
    const [row] = await clickhouse.select<{ v: string }>(
      `SELECT max(_version) AS v FROM ${db}.${table.table} FORMAT JSONEachRow`,
    );
    max = Math.max(max, Number(row?.v ?? 0));
  }
  return max;
}

async function sendPartition(
  warehouse: Warehouse,
  clickhouse: ClickHouse,
  table: LakeTable,
  columns: readonly ClickHouseColumn[],
  project: string,
  partition: LakePartition,
  version: number,
): Promise<number> {
  let batch: Record<string, unknown>[] = [];
  let sent = 0;
  const time = table.time?.replaceAll('"', '');
  // the columns named, not *: a secret column is not among them
  const names = columns.map((c) => `"${c.name}"`).join(', ');
  for await (const chunk of warehouse.streamRows(
    `SELECT ${names} FROM ${table.table} WHERE ${partitionWhere(table, project, partition)}`,
  )) {
    for (const values of chunk.rows) {
      const row: Record<string, unknown> = {};
      chunk.columns.forEach((name, i) => {
        const column = columns[i];
        row[name] = column ? column.convert(values[i]) : values[i];
      });
      const at = time === undefined ? undefined : row[time];
      row['_date'] = typeof at === 'number' ? new Date(at).toISOString().slice(0, 10) : '1970-01-01';
      row['_version'] = version;
      batch.push(row);
      if (batch.length >= INSERT_ROWS) {
        await clickhouse.insert(`${clickhouse.database}.${table.table}`, batch);
        sent += batch.length;
        batch = [];
      }
    }
  }
  await clickhouse.insert(`${clickhouse.database}.${table.table}`, batch);
  return sent + batch.length;
}

/** Deletes the partition's rows older than `version` and waits for ClickHouse to have done it. */
async function deleteOlder(
  clickhouse: ClickHouse,
  table: LakeTable,
  project: string,
  date: string | undefined,
  version: number,
): Promise<void> {
  const db = clickhouse.database;
  const where = [`project = ${literal(project)}`, `_version < ${version}`];
  if (table.time && date) where.push(`_date = ${literal(date)}`);
  await clickhouse.run(`ALTER TABLE ${db}.${table.table} DELETE WHERE ${where.join(' AND ')}`);
  for (let waited = 0; ; waited += 50) {
    const [row] = await clickhouse.select<{ n: string }>(
      `SELECT count() AS n FROM system.mutations WHERE database = ${literal(db)} AND table = ${literal(table.table)} AND is_done = 0 FORMAT JSONEachRow`,
    );
    if (Number(row?.n ?? 0) === 0) return;
    if (waited > 120_000)
      throw new EtlError(
        'clickhouse.failed',
        `ClickHouse's delete in ${db}.${table.table} did not finish in 2 minutes`,
        {
          kind: 'transient',
        },
      );
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function readSent(warehouse: Warehouse, project: string, table: string): Promise<SentPartitions> {
  const value = await readState(warehouse, project, stateKey(table));
  try {
    return value === undefined ? {} : (JSON.parse(value) as SentPartitions);
  } catch {
    return {};
  }
}

async function writeSent(
  warehouse: Warehouse,
  project: string,
  table: string,
  sent: SentPartitions,
): Promise<void> {
  await warehouse.execute([
    { sql: 'DELETE FROM etl_state WHERE project = $1 AND key = $2', params: [project, stateKey(table)] },
    {
      sql: 'INSERT INTO etl_state (project, key, value, updated_at) VALUES ($1, $2, $3, now())',
      params: [project, stateKey(table), JSON.stringify(sent)],
    },
  ]);
}
