// The warehouse's data tables as ClickHouse tables (the ones the Parquet lake holds): each a
// ReplacingMergeTree(_version) ordered by its TableSpec key, so a row sent again with a higher version
// replaces the old one; the dated tables partitioned by month of `_date` (the UTC date of their time). Types
// are those the ClickHouse that Debian ships (18.16) accepts: no DateTime64, so times are Int64 epoch
// milliseconds; every column but the key is Nullable; a list is Array(String) (empty for NULL).
import type { LakeTable } from '../lake-tables.js';

export interface WarehouseColumn {
  name: string;
  /** DuckDB's data_type: VARCHAR, BIGINT, TIMESTAMP WITH TIME ZONE, VARCHAR[], ... */
  type: string;
}

/** How a column is sent: the ClickHouse type and the conversion of its plain value. */
export interface ClickHouseColumn {
  name: string;
  type: string;
  convert: (value: unknown) => unknown;
}

const same = (value: unknown) => value;

function baseType(duckdb: string): { type: string; convert: (value: unknown) => unknown } {
  const t = duckdb.toUpperCase();
  if (t.endsWith('[]'))
    return { type: 'Array(String)', convert: (v) => (Array.isArray(v) ? v.map(String) : []) };
  if (t === 'BIGINT' || t === 'HUGEINT' || t.startsWith('TIMESTAMP') || t === 'DATE')
    return { type: 'Int64', convert: same };
  if (t === 'INTEGER' || t === 'SMALLINT' || t === 'TINYINT') return { type: 'Int32', convert: same };
  if (t === 'DOUBLE' || t === 'FLOAT' || t.startsWith('DECIMAL')) return { type: 'Float64', convert: same };
  if (t === 'BOOLEAN')
    return { type: 'UInt8', convert: (v) => (v === null || v === undefined ? null : v ? 1 : 0) };
  return {
    type: 'String',
    convert: (v) => (v === null || v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v)),
  };
}

/** The columns of `table` as ClickHouse holds them: its key columns never NULL, its secret columns left out. */
export function clickHouseColumns(table: LakeTable, columns: readonly WarehouseColumn[]): ClickHouseColumn[] {
  const key = new Set(table.key);
  const secret = new Set(table.secretColumns);
  return columns
    .filter((c) => !secret.has(c.name))
    .map((c) => {
      const base = baseType(c.type);
      if (key.has(c.name) || base.type.startsWith('Array')) {
        // a key column is never NULL in the warehouse; an Array cannot be Nullable
        const fallback = base.type === 'String' ? '' : base.type.startsWith('Array') ? [] : 0;
        return { name: c.name, type: base.type, convert: (v) => base.convert(v) ?? fallback };
      }
      return { name: c.name, type: `Nullable(${base.type})`, convert: base.convert };
    });
}

export function createTableSql(
  database: string,
  table: LakeTable,
  columns: readonly ClickHouseColumn[],
): string {
  const key = table.key.length > 0 ? table.key : ['project'];
  const defs = [...columns.map((c) => `\`${c.name}\` ${c.type}`), '`_date` Date', '`_version` UInt64'];
  return (
    `CREATE TABLE IF NOT EXISTS ${database}.${table.table} (${defs.join(', ')}) ` +
    `ENGINE = ReplacingMergeTree(_version) PARTITION BY toYYYYMM(_date) ORDER BY (${key.map((k) => `\`${k}\``).join(', ')})`
  );
}
