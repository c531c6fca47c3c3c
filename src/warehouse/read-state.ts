// Reads one value of etl_state (a source's or a destination's cursor, by project and key) through the
// Warehouse: the one SELECT of a state value for code that holds a Warehouse, not a connection.
import type { Warehouse } from './warehouse.js';

/** The stored value of `key` for `project`, or undefined when there is none. */
export async function readState(
  warehouse: Warehouse,
  project: string,
  key: string,
): Promise<string | undefined> {
  const [row] = await warehouse.query('SELECT value FROM etl_state WHERE project = $1 AND key = $2', [
    project,
    key,
  ]);
  const value = row?.['value'];
  return value === undefined || value === null ? undefined : String(value);
}
