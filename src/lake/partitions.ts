// A table's partitions as the lake and the ClickHouse destination see them: by project, and for the tables of
// events in time also by the UTC date of that time; each with its row count and a fingerprint (the XOR of its
// rows' hashes), so an export rewrites only the partitions whose rows changed since the last one.
import type { Warehouse } from '../warehouse/warehouse.js';
import type { LakeTable } from './lake-tables.js';

export interface LakePartition {
  /** Relative to the lake: `sessions/project=shop-bot/date=2026-11-20`. */
  path: string;
  rows: number;
  fingerprint: string;
  /** The UTC date of a dated table's partition (yyyy-mm-dd). */
  date?: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A SQL string literal. */
export const quote = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/** The project's partitions of a table with their row counts and fingerprints. */
export async function partitionsOf(
  warehouse: Warehouse,
  table: LakeTable,
  project: string,
): Promise<LakePartition[]> {
  const date = table.time ? `strftime(t.${table.time} AT TIME ZONE 'UTC', '%Y-%m-%d')` : 'NULL';
  const rows = await warehouse.query(
    `SELECT ${date} AS date, count(*) AS n, bit_xor(hash(t::VARCHAR))::VARCHAR AS fp
     FROM ${table.table} AS t WHERE t.project = $1 GROUP BY ALL ORDER BY 1`,
    [project],
  );
  return rows.map((r) => {
    const day = r['date'] === null ? undefined : String(r['date']);
    return {
      path: partitionPath(table.table, project, day),
      rows: Number(r['n']),
      fingerprint: String(r['fp']),
      ...(day === undefined ? {} : { date: day }),
    };
  });
}

export function partitionPath(table: string, project: string, date: string | undefined): string {
  const base = `${table}/project=${encodeURIComponent(project)}`;
  return date === undefined ? base : `${base}/date=${date}`;
}

/** The SQL condition selecting a partition's rows in the warehouse. */
export function partitionWhere(table: LakeTable, project: string, partition: LakePartition): string {
  let where = `project = ${quote(project)}`;
  if (table.time && partition.date && DATE.test(partition.date)) {
    const from = `${partition.date}T00:00:00Z`;
    const to = new Date(Date.parse(from) + 86_400_000).toISOString();
    where += ` AND ${table.time} >= ${quote(from)}::TIMESTAMPTZ AND ${table.time} < ${quote(to)}::TIMESTAMPTZ`;
  }
  return where;
}
