// DuckDB's settings while the receiver loads its spool, and their defaults back once a load finds nothing
// new. Each automatic checkpoint rewrites the table's last row group whole, so with large payloads (2,000
// Chat API bodies of 50 KB) a checkpoint every 16 MiB of WAL (DuckDB's default) costs time and memory growing
// with the table: they were most of the receiver's peak RSS (0.9-1.2 GB; 0.55-0.75 GB with these settings).
// So a load's commits checkpoint only past LOAD_CHECKPOINT_THRESHOLD of WAL, the writer's CHECKPOINT when it
// lets go of the file (idle, a turn, the stop) writes the rest, and DuckDB's allocator (jemalloc) gives freed
// memory back at once instead of past 128 MiB (another ~70 MB off the peak, measured in a bare load). They
// stay while records keep coming (the caller's `keep`): with the defaults back between two loads, a live
// stream was checkpointed midway, and the checkpoint at its end then rewrote those rows too (0.47-0.51 GB).
import { EtlError } from '../../errors.js';
import type { SqlStatement, Warehouse } from '../../warehouse/warehouse.js';

/** The WAL a load's commits may leave before DuckDB checkpoints on its own (its default: 16 MiB). */
export const LOAD_CHECKPOINT_THRESHOLD = '256MiB';
/** DuckDB's allocator returns freed memory to the system past this much (its default: 128 MiB). */
const LOAD_ALLOCATOR_FLUSH_THRESHOLD = '1MiB';

const SETTINGS = {
  checkpoint_threshold: LOAD_CHECKPOINT_THRESHOLD,
  allocator_flush_threshold: LOAD_ALLOCATOR_FLUSH_THRESHOLD,
  allocator_bulk_deallocation_flush_threshold: LOAD_ALLOCATOR_FLUSH_THRESHOLD,
};

/** Put first in each load transaction: in force at its commit, even when the file was reopened since. */
export const LOAD_SETTINGS: readonly SqlStatement[] = Object.entries(SETTINGS).map(([name, value]) => ({
  sql: `SET ${name} = '${value}'`,
}));

const RESTORE_SETTINGS: readonly SqlStatement[] = Object.keys(SETTINGS).map((name) => ({
  sql: `RESET ${name}`,
}));

/**
 * Runs a load, then gives the warehouse DuckDB's defaults back (also after a failure), unless `keep` says the
 * load's settings stay for the next one (a stream of requests still arriving).
 */
export async function restoringLoadSettings<T>(
  warehouse: Warehouse,
  load: () => Promise<T>,
  keep: (result: T) => boolean = () => false,
): Promise<T> {
  let result: T;
  try {
    result = await load();
  } catch (error) {
    // a load that could not get the file (locked, closed): no wait for it again, its next open has the defaults
    if (!isWithoutTheFile(error)) await restoreDefaults(warehouse);
    throw error;
  }
  if (!keep(result)) await restoreDefaults(warehouse);
  return result;
}

function restoreDefaults(warehouse: Warehouse): Promise<unknown> {
  // a warehouse that failed (out of memory, invalidated) meanwhile: its next open has the defaults
  return warehouse.execute(RESTORE_SETTINGS).catch(() => undefined);
}

function isWithoutTheFile(error: unknown): boolean {
  return (
    error instanceof EtlError && (error.code === 'warehouse.locked' || error.code === 'warehouse.closed')
  );
}
