// Bulk-loads rows into a TEMP staging table through DuckDB's appender, one data chunk (2,048 rows) at a
// time: never an INSERT per row. Column `seq` keeps the batch order, so "last row wins" is expressible in
// SQL. Values are checked on the way in: a wrong type or an out-of-range number fails with its column.
import type { DuckDBConnection, DuckDBType, DuckDBValue } from '@duckdb/node-api';
import { EtlError } from '../errors.js';
import { duckdb } from './duckdb-api.js';

/**
 * `date` takes a yyyy-MM-dd string (a calendar day, no zone). `bigint` takes a safe integer; `int64` any signed
 * 64-bit integer exactly: a safe integer, or (beyond 2^53, where a number would be rounded) the string of its
 * decimal digits.
 */
export type StageType =
  | 'varchar'
  | 'integer'
  | 'bigint'
  | 'int64'
  | 'double'
  | 'boolean'
  | 'timestamptz'
  | 'date'
  | 'varchar[]';
export type StageValue = string | number | boolean | null | readonly string[];

export interface StageColumn<R> {
  name: string;
  type: StageType;
  value: (row: R) => StageValue;
}

export interface StagedTable<R> {
  /** The TEMP table's name (`stage_...`). */
  name: string;
  columns: readonly StageColumn<R>[];
}

const CHUNK_ROWS = 2048;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const DIGITS = /^-?\d+$/;

const SQL_TYPES: Record<StageType, string> = {
  varchar: 'VARCHAR',
  integer: 'INTEGER',
  bigint: 'BIGINT',
  int64: 'BIGINT',
  double: 'DOUBLE',
  boolean: 'BOOLEAN',
  timestamptz: 'TIMESTAMPTZ',
  date: 'DATE',
  'varchar[]': 'VARCHAR[]',
};

let duckdbTypes: Record<StageType, DuckDBType> | undefined;

/** The appender's type of each stage type (DuckDB is required when rows are first staged). */
function stageDuckDBTypes(): Record<StageType, DuckDBType> {
  const { BIGINT, BOOLEAN, DATE, DOUBLE, INTEGER, LIST, TIMESTAMPTZ, VARCHAR } = duckdb();
  duckdbTypes ??= {
    varchar: VARCHAR,
    integer: INTEGER,
    bigint: BIGINT,
    int64: BIGINT,
    double: DOUBLE,
    boolean: BOOLEAN,
    timestamptz: TIMESTAMPTZ,
    date: DATE,
    'varchar[]': LIST(VARCHAR),
  };
  return duckdbTypes;
}

/** A staged table whose columns are fields of the row with the same names. */
export function defineStagedTable<R>(
  name: string,
  fields: readonly (readonly [keyof R & string, StageType])[],
): StagedTable<R> {
  return {
    name,
    columns: fields.map(([field, type]) => ({
      name: field,
      type,
      value: (row: R) => row[field] as StageValue,
    })),
  };
}

/** The staging table's DDL: `seq` first, then the columns in order (the appender's order). */
export function describeStagingTable(table: StagedTable<never>): string {
  const columns = table.columns.map((c) => `${c.name} ${SQL_TYPES[c.type]}`);
  return `CREATE OR REPLACE TEMP TABLE ${table.name} (seq INTEGER, ${columns.join(', ')})`;
}

/** (Re)creates the staging table and appends the rows; returns the number of rows staged. */
export async function stageRows<R>(
  connection: DuckDBConnection,
  table: StagedTable<R>,
  rows: readonly R[],
): Promise<number> {
  await connection.run(describeStagingTable(table as StagedTable<never>));
  if (rows.length === 0) return 0;
  const { DuckDBDataChunk, INTEGER } = duckdb();
  const duckTypes = stageDuckDBTypes();
  const types = [INTEGER, ...table.columns.map((c) => duckTypes[c.type])];
  const appender = await connection.createAppender(table.name, 'main', 'temp');
  try {
    for (let offset = 0; offset < rows.length; offset += CHUNK_ROWS) {
      const part = rows.slice(offset, offset + CHUNK_ROWS);
      const seq = part.map((_, i) => offset + i);
      const columns: DuckDBValue[][] = [seq];
      for (const column of table.columns) {
        columns.push(
          part.map((row, i) => convertToDuckValue(column.value(row), column, table.name, offset + i)),
        );
      }
      const chunk = DuckDBDataChunk.create(types, part.length);
      chunk.setColumns(columns);
      appender.appendDataChunk(chunk);
    }
    appender.flushSync();
  } catch (error) {
    try {
      appender.clear();
      appender.closeSync();
    } catch {
      // The first error is the one worth reporting; the transaction is rolled back either way.
    }
    throw error;
  }
  appender.closeSync();
  return rows.length;
}

function convertToDuckValue(
  value: StageValue,
  column: StageColumn<never>,
  table: string,
  index: number,
): DuckDBValue {
  if (value === null || value === undefined) return null;
  switch (column.type) {
    case 'varchar':
      if (typeof value === 'string') return value;
      break;
    case 'boolean':
      if (typeof value === 'boolean') return value;
      break;
    case 'double':
      if (typeof value === 'number' && !Number.isNaN(value)) return value;
      break;
    case 'integer':
      if (typeof value === 'number' && Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX)
        return value;
      break;
    case 'bigint':
      if (Number.isSafeInteger(value)) return BigInt(value as number);
      break;
    case 'int64': {
      const exact = toInt64(value);
      if (exact !== undefined) return exact;
      break;
    }
    case 'timestamptz':
      if (typeof value === 'number' && Number.isFinite(value))
        return duckdb().timestampTZValue(BigInt(Math.round(value)) * 1000n);
      break;
    case 'date': {
      // a calendar day: its epoch day, refused unless it reads back as the same yyyy-MM-dd (no 2026-02-31)
      const t = typeof value === 'string' && DAY.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN;
      if (Number.isFinite(t) && new Date(t).toISOString().startsWith(value as string))
        return duckdb().dateValue(t / 86_400_000);
      break;
    }
    case 'varchar[]':
      if (Array.isArray(value) && value.every((item) => typeof item === 'string'))
        return duckdb().listValue(value);
      break;
  }
  throw new EtlError(
    'warehouse.invalid_row',
    `Cannot load row ${index} into ${table.replace(/^stage_/, '')}: column ${column.name} expects ` +
      `${describeType(column.type)}, got ${typeof value === 'number' ? String(value) : JSON.stringify(value)}`,
  );
}

/** A safe integer, or a string of decimal digits (an optional minus) within the signed 64-bit range. */
function toInt64(value: StageValue): bigint | undefined {
  if (Number.isSafeInteger(value)) return BigInt(value as number);
  if (typeof value !== 'string' || !DIGITS.test(value)) return undefined;
  const exact = BigInt(value);
  return exact >= INT64_MIN && exact <= INT64_MAX ? exact : undefined;
}

function describeType(type: StageType): string {
  if (type === 'timestamptz') return 'a time in epoch milliseconds';
  if (type === 'integer') return 'a 32-bit integer';
  if (type === 'bigint') return 'a safe integer';
  if (type === 'int64') return 'a 64-bit integer (a safe integer or the string of its digits)';
  if (type === 'varchar[]') return 'an array of strings';
  return `a ${type}`;
}
