// The warehouse tables the Parquet lake (and ClickHouse) hold, derived from the table registry
// (src/sources/tables.ts): every exported TableSpec, partitioned by project and, for the tables of events in
// time, by the UTC date of that time, so an incremental export rewrites the days that changed. Operational
// tables (runs, state, rejects, write-backs, tasks) are not exported; secret columns never leave.
import { TABLES } from '../sources/tables.js';
import { exportedTables, type TableSpec } from '../warehouse/table-spec.js';

export interface LakeTable {
  table: string;
  /** The column whose UTC date partitions the table; none: one partition per project. */
  time?: string;
  /** The columns its rows are unique on (ClickHouse's ORDER BY). */
  key: readonly string[];
  /** Columns never exported (they may hold a secret). */
  secretColumns: readonly string[];
}

/** The exported tables of `specs` as the lake and ClickHouse read them, in registry order. */
export function selectLakeTables(specs: readonly TableSpec[]): LakeTable[] {
  return exportedTables(specs).map((s) => ({
    table: s.name,
    ...(s.time === undefined ? {} : { time: s.time }),
    key: s.key,
    secretColumns: s.secretColumns ?? [],
  }));
}

export const LAKE_TABLES: readonly LakeTable[] = selectLakeTables(TABLES);
