// Opens the warehouse for one step and closes it after, so a command that talks to the platform between
// steps never holds the DuckDB file lock while it waits on the network (a scheduled sync can run meanwhile).
import type { Logger } from '../log.js';
import { openWarehouse } from '../warehouse/open-warehouse.js';
import type { Warehouse } from '../warehouse/warehouse.js';

export type UseWarehouse = <T>(fn: (warehouse: Warehouse) => Promise<T>) => Promise<T>;

/** A `useWarehouse` that opens `path` (waiting up to lockWaitMs for another process) for each call. */
export function useWarehouseAt(options: { path: string; lockWaitMs: number; log?: Logger }): UseWarehouse {
  return async (fn) => {
    const warehouse = await openWarehouse(options);
    try {
      return await fn(warehouse);
    } finally {
      await warehouse.close();
    }
  };
}
