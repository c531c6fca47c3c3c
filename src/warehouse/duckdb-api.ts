// DuckDB's Node API, loaded with require() on first use: the package is CommonJS whose index re-exports ~180
// files (ESM's `import` lexes each for named exports: 0.2 CPU-s, against 0.08 through require), and the binding
// is required when the warehouse first needs it (a query, a staged chunk, a file opened), not when its modules
// load: `--help` and a command refused before it opens the warehouse never pay it. The values used are read
// once into a plain object (the package's exports are getters); types still come from '@duckdb/node-api'.
import { createRequire } from 'node:module';
import type * as DuckDB from '@duckdb/node-api';

const USED = [
  'BIGINT',
  'BOOLEAN',
  'DATE',
  'DOUBLE',
  'INTEGER',
  'LIST',
  'TIMESTAMPTZ',
  'VARCHAR',
  'dateValue',
  'listValue',
  'timestampTZValue',
  'DuckDBInstance',
  'DuckDBDataChunk',
  'DuckDBTypeId',
  'JSDuckDBValueConverter',
  'JsonDuckDBValueConverter',
] as const;

/** The values of DuckDB's API the warehouse uses. */
export type DuckDBApi = Pick<typeof DuckDB, (typeof USED)[number]>;

let api: DuckDBApi | undefined;

/** DuckDB's API, required on the first call; later calls return the same object. */
export function duckdb(): DuckDBApi {
  if (api === undefined) {
    const module = createRequire(import.meta.url)('@duckdb/node-api') as typeof DuckDB;
    api = Object.fromEntries(USED.map((name) => [name, module[name]])) as unknown as DuckDBApi;
  }
  return api;
}
