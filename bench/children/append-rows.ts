// The load floor: the rows of a synced warehouse appended to an empty one (same schema, migrations
// applied first and not timed) with DuckDB's appender, one data chunk at a time, then a CHECKPOINT.
// The rows are read into memory before the clock starts: no HTTP, no parsing, no staging, no deletes.
// Usage: append-rows.js SOURCE.duckdb TARGET.duckdb [THREADS]; prints {rows, wallMs, cpuMs, tables} as JSON
// (cpuMs: user + system CPU of the whole process, DuckDB's threads included, while the clock ran). DuckDB
// runs on THREADS threads, 2 by default (the least wall time here; 1 takes the least CPU, as in the sync).
import { DuckDBDataChunk, DuckDBInstance, type DuckDBType, type DuckDBValue } from '@duckdb/node-api';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import { SYNCED_ROW_TABLES } from '../synced-row-tables.js';

const CHUNK_ROWS = 2048;

const [source, target, threads = '2'] = process.argv.slice(2);
if (!source || !target || !/^[1-9]\d*$/.test(threads)) {
  process.stderr.write('usage: append-rows.js SOURCE.duckdb TARGET.duckdb [THREADS]\n');
  process.exit(2);
}

// the empty warehouse, schema and all, as the sync would find it
await (await openWarehouse({ path: target })).close();

interface TableRows {
  table: string;
  types: DuckDBType[];
  columns: DuckDBValue[][];
  rows: number;
}

const sourceDb = await DuckDBInstance.create(source, { access_mode: 'READ_ONLY' });
const reader = await sourceDb.connect();
const loaded: TableRows[] = [];
for (const table of SYNCED_ROW_TABLES) {
  const result = await reader.runAndReadAll(`SELECT * FROM ${table}`);
  loaded.push({
    table,
    types: result.columnTypes(),
    columns: result.getColumns(),
    rows: result.currentRowCount,
  });
}
reader.closeSync();
sourceDb.closeSync();

const memoryLimit = process.env['REPORTER_DUCKDB_MEMORY_LIMIT'] ?? '256MB';
const targetDb = await DuckDBInstance.create(target, { memory_limit: memoryLimit, threads });
const connection = await targetDb.connect();
const started = performance.now();
const cpuStarted = process.cpuUsage();
const tables: Record<string, { rows: number; ms: number }> = {};
for (const t of loaded) {
  const tableStarted = performance.now();
  const appender = await connection.createAppender(t.table);
  for (let offset = 0; offset < t.rows; offset += CHUNK_ROWS) {
    const size = Math.min(CHUNK_ROWS, t.rows - offset);
    const chunk = DuckDBDataChunk.create(t.types, size);
    chunk.setColumns(t.columns.map((column) => column.slice(offset, offset + size)));
    appender.appendDataChunk(chunk);
  }
  appender.flushSync();
  appender.closeSync();
  tables[t.table] = { rows: t.rows, ms: performance.now() - tableStarted };
}
await connection.run('CHECKPOINT');
const wallMs = performance.now() - started;
const cpu = process.cpuUsage(cpuStarted);
const cpuMs = (cpu.user + cpu.system) / 1000;
connection.closeSync();
targetDb.closeSync();
const rows = loaded.reduce((sum, t) => sum + t.rows, 0);
process.stdout.write(`${JSON.stringify({ rows, wallMs, cpuMs, tables })}\n`);
