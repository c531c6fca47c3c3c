// Lowers DuckDB's buffer pool for the length of one piece of work (the sync: its windows are small and its
// peak RSS must stay flat, while statistics and exports keep the larger default) and gives back the limit
// that was set before. The limit is the DuckDB instance's, so only one piece of work should hold it.
import type { Warehouse } from './warehouse.js';

/** Sets memory_limit to `limit` and returns a function that puts the previous value back. */
export async function limitWarehouseMemory(
  warehouse: Warehouse,
  limit: string,
): Promise<() => Promise<void>> {
  const [row] = await warehouse.query("SELECT current_setting('memory_limit') AS memory_limit");
  const previous = String(row?.['memory_limit']);
  await warehouse.query(`SET memory_limit = '${limit.replaceAll("'", "''")}'`);
  return async () => {
    await warehouse.query(`SET memory_limit = '${previous.replaceAll("'", "''")}'`);
  };
}
