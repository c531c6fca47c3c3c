// A table's partitions as the lake and the ClickHouse destination see them: by project, and for the tables of
// events in time also by the UTC date of that time; each with its row count and a fingerprint (the XOR of its
// rows' hashes), so an export rewrites only the partitions whose rows changed since the last one. A time
// column is an instant (TIMESTAMPTZ, its UTC date) or a calendar day (DATE, that day), whatever DuckDB's zone.
import type { Warehouse } from '../warehouse/warehouse.js';
import type { LakeTable } from './lake-tables.js';

export interface LakePartition {
  /** Relative to the lake: `sessions/project=shop-bot/date=2026-11-20`. */
  path: string;
  rows: number;
  fingerprint: string;
  /** The UTC date of a dated table's partition (yyyy-mm-dd). */
  date?: string;
  /** The table's time column is a DATE: the partition's rows are that day's, compared as a DATE. */
  calendarDay?: boolean;
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
  const calendarDay = await isCalendarDay(warehouse, table);
  // a DATE converted AT TIME ZONE would move by the session's zone: a day is formatted as it is
  const date = !table.time
    ? 'NULL'
    : calendarDay
      ? `strftime(t.${table.time}, '%Y-%m-%d')`
      : `strftime(t.${table.time} AT TIME ZONE 'UTC', '%Y-%m-%d')`;
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
      ...(calendarDay ? { calendarDay } : {}),
    };
  });
}

/** Whether the table's time column is a DATE (a calendar day) rather than an instant. */
async function isCalendarDay(warehouse: Warehouse, table: LakeTable): Promise<boolean> {
  if (!table.time) return false;
  const rows = await warehouse.query(
    'SELECT data_type FROM information_schema.columns WHERE table_name = $1 AND column_name = $2',
    [table.table, table.time.replaceAll('"', '')],
  );
  return rows[0]?.['data_type'] === 'DATE';
}

export function partitionPath(table: string, project: string, date: string | undefined): string {
  const base = `${table}/project=${encodeURIComponent(project)}`;
  return date === undefined ? base : `${base}/date=${date}`;
}

/** Whether `path` is one of the project's partition paths of `table` (by date, or the table's one), and nothing else. */
export function isPartitionPathOf(path: string, table: string, project: string): boolean {
  const base = partitionPath(table, project, undefined);
  if (path === base) return true;
  const prefix = `${base}/date=`;
  return path.startsWith(prefix) && DATE.test(path.slice(prefix.length));
}

/** The SQL condition selecting a partition's rows in the warehouse. */
export function partitionWhere(table: LakeTable, project: string, partition: LakePartition): string {
  let where = `project = ${quote(project)}`;
  if (table.time && partition.date && DATE.test(partition.date) && partition.calendarDay) {
    where += ` AND ${table.time} = ${quote(partition.date)}::DATE`;
  } else if (table.time && partition.date && DATE.test(partition.date)) {
    const from = `${partition.date}T00:00:00Z`;
    const to = new Date(Date.parse(from) + 86_400_000).toISOString();
    where += ` AND ${table.time} >= ${quote(from)}::TIMESTAMPTZ AND ${table.time} < ${quote(to)}::TIMESTAMPTZ`;
  }
  return where;
}
