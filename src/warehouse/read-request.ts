// The read operations of a Warehouse as data: a reader runs one on its own DuckDB connection, or sends it to
// the writer that holds the file (read-service.ts), which runs it on a connection of its own. One function
// executes them in both places, so a reader sees the same values whichever way it reads.
import type { DuckDBConnection } from '@duckdb/node-api';
import { countRejects, listRuns } from './etl-runs.js';
import { getWatermark } from './get-watermark.js';
import { queryRows } from './query-rows.js';
import { readLatestStatuses } from './read-latest-statuses.js';
import type { ListRunsOptions, SqlParams } from './warehouse.js';

export type ReadRequest =
  | { op: 'query'; sql: string; params?: SqlParams | undefined }
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
