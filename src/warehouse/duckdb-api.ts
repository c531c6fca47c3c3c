// DuckDB's Node API, loaded with require(): the package is CommonJS whose index re-exports ~180 files, and
// ESM's `import` of it lexes every one of them for named exports: about 0.2 CPU-s on each start of the CLI,
// against 0.08 s through require (the same module object: Node keeps one CommonJS cache for both).
// Import the values used at run time from here; types still come from '@duckdb/node-api' (`import type`).
import { createRequire } from 'node:module';
import type * as DuckDB from '@duckdb/node-api';

const api = createRequire(import.meta.url)('@duckdb/node-api') as typeof DuckDB;

export const {
  BIGINT,
  BOOLEAN,
  DATE,
  DOUBLE,
  INTEGER,
  LIST,
  TIMESTAMPTZ,
  VARCHAR,
  dateValue,
  listValue,
  timestampTZValue,
} = api;

export const DuckDBInstance = api.DuckDBInstance;
export type DuckDBInstance = DuckDB.DuckDBInstance;
export const DuckDBDataChunk = api.DuckDBDataChunk;
export type DuckDBDataChunk = DuckDB.DuckDBDataChunk;
export const DuckDBTypeId = api.DuckDBTypeId;
export type DuckDBTypeId = DuckDB.DuckDBTypeId;
export const JSDuckDBValueConverter = api.JSDuckDBValueConverter;
export const JsonDuckDBValueConverter = api.JsonDuckDBValueConverter;
