// Runs one SQL statement with bound parameters and returns its rows as plain objects without bigint:
// integers of every width and decimals become number, TIMESTAMP/TIMESTAMPTZ/DATE become epoch ms,
// TIME/INTERVAL/UUID become their SQL text. The one place where JS values meet DuckDB values.
import type {
  DuckDBConnection,
  DuckDBMaterializedResult,
  DuckDBType,
  DuckDBValue,
  DuckDBValueConverter,
  JS,
} from '@duckdb/node-api';
import { duckdb } from './duckdb-api.js';
import type { PlainRow, PlainValue, SqlParam, SqlParams } from './warehouse.js';

const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;

/** Runs a statement for its effect; returns the number of rows it changed. */
export async function runStatement(
  connection: DuckDBConnection,
  sql: string,
  params?: SqlParams,
): Promise<number> {
  const bound = params ? bindParams(params) : undefined;
  const result: DuckDBMaterializedResult = await connection.run(sql, bound?.values, bound?.types);
  return result.rowsChanged;
}

/** Runs a statement and reads all its rows as plain objects. */
export async function queryRows(
  connection: DuckDBConnection,
  sql: string,
  params?: SqlParams,
): Promise<PlainRow[]> {
  const bound = params ? bindParams(params) : undefined;
  const reader = await connection.runAndReadAll(sql, bound?.values, bound?.types);
  return reader.convertRowObjects(convertToPlainValue) as PlainRow[];
}

/** Converts a DuckDB value to a PlainValue, recursing into lists, structs and maps. */
export const convertToPlainValue: DuckDBValueConverter<PlainValue> = (value, type, self) => {
  if (value === null || value === undefined) return null;
  const { DuckDBTypeId, JSDuckDBValueConverter } = duckdb();
  switch (type.typeId) {
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UHUGEINT:
    case DuckDBTypeId.BIGNUM:
      return Number(value);
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_TZ:
    case DuckDBTypeId.TIMESTAMP_S:
    case DuckDBTypeId.TIMESTAMP_MS:
    case DuckDBTypeId.TIMESTAMP_NS:
    case DuckDBTypeId.DATE: {
      const date = JSDuckDBValueConverter(value, type, JSDuckDBValueConverter);
      return date instanceof Date ? date.getTime() : null;
    }
    case DuckDBTypeId.TIME:
    case DuckDBTypeId.TIME_NS:
    case DuckDBTypeId.TIME_TZ:
    case DuckDBTypeId.INTERVAL:
    case DuckDBTypeId.UUID:
      return String(value);
    default:
      return JSDuckDBValueConverter(value, type, self as unknown as DuckDBValueConverter<JS>) as PlainValue;
  }
};

interface BoundParams {
  values: DuckDBValue[] | Record<string, DuckDBValue>;
  types: DuckDBType[] | Record<string, DuckDBType | undefined>;
}

/** JS parameters as DuckDB values with explicit types (an empty string[] still binds as VARCHAR[]). */
export function bindParams(params: SqlParams): BoundParams {
  if (isParamList(params)) {
    const values: DuckDBValue[] = [];
    const types: DuckDBType[] = [];
    for (const param of params) {
      const [value, type] = bindParam(param);
      values.push(value);
      types.push(type);
    }
    return { values, types };
  }
  const values: Record<string, DuckDBValue> = {};
  const types: Record<string, DuckDBType | undefined> = {};
  for (const [name, param] of Object.entries(params)) {
    [values[name], types[name]] = bindParam(param);
  }
  return { values, types };
}

function isParamList(params: SqlParams): params is readonly SqlParam[] {
  return Array.isArray(params);
}

function bindParam(param: SqlParam): [DuckDBValue, DuckDBType] {
  const { BIGINT, BOOLEAN, DOUBLE, INTEGER, LIST, listValue, TIMESTAMPTZ, timestampTZValue, VARCHAR } =
    duckdb();
  if (param === null) return [null, VARCHAR];
  if (typeof param === 'string') return [param, VARCHAR];
  if (typeof param === 'boolean') return [param, BOOLEAN];
  if (typeof param === 'number') {
    if (Number.isInteger(param) && param >= INT32_MIN && param <= INT32_MAX) return [param, INTEGER];
    if (Number.isSafeInteger(param)) return [BigInt(param), BIGINT];
    return [param, DOUBLE];
  }
  // an int64 beyond 2^53 (a knowledge base id) is bound exactly
  if (typeof param === 'bigint') return [param, BIGINT];
  if (param instanceof Date) return [timestampTZValue(BigInt(param.getTime()) * 1000n), TIMESTAMPTZ];
  return [listValue([...param]), LIST(VARCHAR)];
}
