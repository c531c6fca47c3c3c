// The read operations of a Warehouse as data: a reader runs one on its own DuckDB connection, or sends it to
// the writer that holds the file (read-service.ts), which runs it on a connection of its own. One function
// executes them in both places, so a reader sees the same values whichever way it reads. `parquet` answers
// the bytes of a Parquet file of one SELECT, written to a private temp folder and removed.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { countRejects, listRuns } from './etl-runs.js';
import { getWatermark } from './get-watermark.js';
import { queryRows } from './query-rows.js';
import { readLatestStatuses } from './read-latest-statuses.js';
import type { ListRunsOptions, SqlParams } from './warehouse.js';

export type ReadRequest =
  | { op: 'query'; sql: string; params?: SqlParams | undefined }
  | { op: 'parquet'; sql: string }
  | { op: 'listRuns'; options: ListRunsOptions }
  | { op: 'countRejects'; runId: string }
  | { op: 'getWatermark'; project: string }
  | {
      op: 'latestStatuses';
      project: string;
      sessionIds: readonly string[];
      between?: { from: number; to: number } | undefined;
    };

/** Runs one read request; the value is what the Warehouse operation of the same name returns. */
export function runReadRequest(connection: DuckDBConnection, request: ReadRequest): Promise<unknown> {
  switch (request.op) {
    case 'query':
      return queryRows(connection, request.sql, request.params);
    case 'parquet':
      return readAsParquet(connection, request.sql);
    case 'listRuns':
      return listRuns(connection, request.options);
    case 'countRejects':
      return countRejects(connection, request.runId);
    case 'getWatermark':
      return getWatermark(connection, request.project);
    case 'latestStatuses':
      return readLatestStatuses(connection, request.project, request.sessionIds, request.between);
  }
}

/** The statement that writes the rows of `select` to a Parquet file at `path`; `select` is one checked SELECT. */
export function copyToParquetSql(select: string, path: string): string {
  return `COPY (\n${select}\n) TO '${path.replaceAll("'", "''")}' (FORMAT parquet, COMPRESSION zstd)`;
}

/** The Parquet file of one SELECT as bytes, by way of a temp folder only this process can read (mode 0700). */
async function readAsParquet(connection: DuckDBConnection, select: string): Promise<Uint8Array> {
  const folder = mkdtempSync(join(tmpdir(), 'reporter-etl-parquet-'));
  try {
    const file = join(folder, 'rows.parquet');
    await connection.run(copyToParquetSql(select, file));
    return new Uint8Array(readFileSync(file));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
