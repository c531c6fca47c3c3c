// The warehouse's data tables as ClickHouse tables (the ones the Parquet lake holds): each a
// ReplacingMergeTree(_version) ordered by the warehouse's key, so a row sent again with a higher version
// replaces the old one; the dated tables partitioned by month of `_date` (the UTC date of their time). Types
// are those the ClickHouse that Debian ships (18.16) accepts: no DateTime64, so times are Int64 epoch
// milliseconds; every column but the key is Nullable; a list is Array(String) (empty for NULL).
import type { LakeTable } from '../lake/lake-tables.js';

/** The warehouse key of each table (its rows are unique on it). */
export const TABLE_KEYS: Readonly<Record<string, readonly string[]>> = {
  sessions: ['project', 'session_id'],
  messages: ['project', 'question_id'],
  message_labels: ['project', 'question_id', 'label_id'],
  message_status_history: ['project', 'question_id', 'status'],
  session_labels: ['project', 'session_id', 'label_id'],
  session_data: ['project', 'session_id', 'key'],
  clients: ['project', 'client_id'],
  experiments: ['project', 'experiment_key'],
  session_label_catalogue: ['project', 'label_id'],
  message_label_catalogue: ['project', 'label_id'],
  chatapi_messages: ['project', 'channel', 'question_id', 'type'],
  chatapi_unread_counts: ['project', 'channel', 'client_id', 'taken_at'],
};

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

export function clickHouseColumns(table: string, columns: readonly WarehouseColumn[]): ClickHouseColumn[] {
  const key = new Set(TABLE_KEYS[table] ?? []);
  return columns.map((c) => {
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
  const key = TABLE_KEYS[table.table] ?? ['project'];
  const defs = [...columns.map((c) => `\`${c.name}\` ${c.type}`), '`_date` Date', '`_version` UInt64'];
  return (
    `CREATE TABLE IF NOT EXISTS ${database}.${table.table} (${defs.join(', ')}) ` +
    `ENGINE = ReplacingMergeTree(_version) PARTITION BY toYYYYMM(_date) ORDER BY (${key.map((k) => `\`${k}\``).join(', ')})`
  );
}
