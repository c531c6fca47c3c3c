// The description of one warehouse table, the one place its key, time column, write mode and export rules are
// stated: the batch commit writes by it, and the Parquet lake, ClickHouse and the retention job derive their
// lists from the table registry of these specs, so a table added there is exported without touching them.

/**
 * How a batch's rows reach the table: `replace-by-key` deletes the stored rows whose key a staged row carries
 * and inserts the staged rows; `append` inserts them as they are (a log: events, rejects).
 */
export type TableWriteMode = 'replace-by-key' | 'append';

export interface TableSpec {
  /** The warehouse table (snake_case), as its migration creates it. */
  readonly name: string;
  /** The columns the table's rows are unique on (the lake's and ClickHouse's key too). */
  readonly key: readonly string[];
  /** How a batch writes it. */
  readonly write: TableWriteMode;
  /**
   * The column (as SQL, quoted where it is a keyword) whose UTC date partitions the table in the lake and
   * ClickHouse; none: one partition per project.
   */
  readonly time?: string;
  /** Held by the Parquet lake and ClickHouse (the data); operational tables (runs, state) stay local. */
  readonly exported: boolean;
  /** Columns that may hold a secret: never exported, whatever `exported` says. */
  readonly secretColumns?: readonly string[];
  /** Rows older than REPORTER_RETENTION_DAYS by this column are deleted by the retention job. */
  readonly retainedBy?: string;
}

/** The tables of `specs` that the lake and ClickHouse hold, in registry order. */
export function exportedTables(specs: readonly TableSpec[]): TableSpec[] {
  return specs.filter((s) => s.exported);
}
