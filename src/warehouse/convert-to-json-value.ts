// DuckDB values as JSON values for people and scripts (`reporter-etl sql`): integers as numbers (as text
// beyond 2^53, never rounded), decimals as numbers, timestamps as ISO 8601 UTC, dates as YYYY-MM-DD,
// intervals, times and UUIDs as DuckDB's text, lists, structs and maps recursively.
import type { DuckDBValueConverter, Json } from '@duckdb/node-api';
import { duckdb } from './duckdb-api.js';

export const convertToJsonValue: DuckDBValueConverter<Json> = (value, type, self) => {
  if (value === null || value === undefined) return null;
  const { DuckDBTypeId, JSDuckDBValueConverter, JsonDuckDBValueConverter } = duckdb();
  switch (type.typeId) {
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.UTINYINT:
    case DuckDBTypeId.USMALLINT:
    case DuckDBTypeId.UINTEGER:
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UHUGEINT:
    case DuckDBTypeId.BIGNUM: {
      const n = Number(value);
      return Number.isSafeInteger(n) ? n : String(value);
    }
    case DuckDBTypeId.DECIMAL:
      return Number(String(value));
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_TZ:
    case DuckDBTypeId.TIMESTAMP_S:
    case DuckDBTypeId.TIMESTAMP_MS:
    case DuckDBTypeId.TIMESTAMP_NS: {
      const date = JSDuckDBValueConverter(value, type, JSDuckDBValueConverter);
      return date instanceof Date && Number.isFinite(date.getTime()) ? date.toISOString() : String(value);
    }
    case DuckDBTypeId.TIME:
    case DuckDBTypeId.TIME_NS:
    case DuckDBTypeId.TIME_TZ:
    case DuckDBTypeId.INTERVAL:
    case DuckDBTypeId.UUID:
      return String(value);
    default:
      return JsonDuckDBValueConverter(value, type, self);
  }
};
