// Lowers DuckDB's buffer pool for the length of one piece of work (the sync: its windows are small and its
// peak RSS must stay flat, while statistics and exports keep the larger default) and gives back the default
// after. The warehouse opens the file per operation, so the limit is an open option (setMemoryLimit).
import type { Warehouse } from './warehouse.js';

/** Sets memory_limit to `limit` and returns a function that puts the default back. */
export async function limitWarehouseMemory(
  warehouse: Warehouse,
  limit: string,
): Promise<() => Promise<void>> {
  await warehouse.setMemoryLimit(limit);
  return async () => {
    await warehouse.setMemoryLimit(undefined);
  };
}
