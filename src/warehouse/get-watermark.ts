// Reads a project's sync watermark from etl_state (key 'watermark', an ISO-8601 time). It is only
// ever written by commitWindow, in the same transaction as the rows it covers.
import type { DuckDBConnection } from '@duckdb/node-api';
import { EtlError } from '../errors.js';
import { WATERMARK_KEY } from './commit-window.js';
import { queryRows } from './query-rows.js';
import { WAREHOUSE_SQL as SQL } from './warehouse-sql.js';

/** The watermark in epoch ms, or undefined when the project has none yet. */
export async function getWatermark(
  connection: DuckDBConnection,
  project: string,
): Promise<number | undefined> {
  const [row] = await queryRows(connection, SQL.selectState, { project, key: WATERMARK_KEY });
  const value = row?.['value'];
  if (value === undefined || value === null) return undefined;
  const time = Date.parse(String(value));
  if (Number.isNaN(time)) {
    throw new EtlError(
      'warehouse.state_invalid',
      `The watermark of project ${project} in etl_state is not a time: ${JSON.stringify(value)}`,
    );
  }
  return time;
}
