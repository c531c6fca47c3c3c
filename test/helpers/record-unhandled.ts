// Test helper: stores the `reporter-etl unhandled` run the `unhandled` report reads for a period (every
// project, every channel, /CatchAll), as the command computes it; the report tests' fixtures call it so the
// report has data, like they run kb sync for the knowledge base reports.
import { computeUnhandled, type UnhandledRun } from '../../src/sources/unhandled/compute-unhandled.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';

/** Clusters the catch-all messages of [from, to) and stores the run, computed at `now`. */
export function recordUnhandled(
  warehouse: Warehouse,
  period: { from: number; to: number },
  now: number,
): Promise<UnhandledRun> {
  return computeUnhandled(warehouse, { catchAllClass: '/CatchAll', ...period }, new Date(now));
}
