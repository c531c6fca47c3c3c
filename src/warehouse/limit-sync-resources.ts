// Lowers DuckDB's buffer pool and threads for the length of one piece of work, the sync, and gives back the
// defaults after. Its windows are small and its peak RSS must stay flat, while statistics and exports keep the
// larger pool; and its commits of a few thousand rows gain nothing from a second DuckDB thread on a machine
// whose other core parses the next window's JSON (measured: 20% less CPU with one). The warehouse opens the
// file per operation, so both are open options (setMemoryLimit, setThreads).
import type { Warehouse } from './warehouse.js';

/** Sets memory_limit and threads and returns a function that puts the defaults back. */
export async function limitSyncResources(
  warehouse: Warehouse,
  limits: { memoryLimit: string; threads: number },
): Promise<() => Promise<void>> {
  await warehouse.setMemoryLimit(limits.memoryLimit);
  await warehouse.setThreads(limits.threads);
  return async () => {
    await warehouse.setThreads(undefined);
    await warehouse.setMemoryLimit(undefined);
  };
}
