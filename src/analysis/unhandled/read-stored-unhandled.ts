// The stored run of `reporter-etl unhandled` for exactly a selection and period, as `stats --json` shows it
// (key `unhandled`): the run's counts and its top clusters, or null when that period was not computed.
import type { Warehouse } from '../../warehouse/warehouse.js';
import {
  toCluster,
  type UnhandledCluster,
  type UnhandledQuery,
  unhandledRunId,
} from './compute-unhandled.js';
import { SELECT_CLUSTERS } from './unhandled-sql.js';

export interface StoredUnhandled {
  runId: string;
  from: string;
  to: string;
  computedAt: string;
  unrecognised: number;
  previousUnrecognised: number;
  clustered: number;
  /** The top clusters, biggest first. */
  clusters: UnhandledCluster[];
}

/** The run computed for `query` (the same project, channel, class and period), with its `top` clusters. */
export async function readStoredUnhandled(
  warehouse: Warehouse,
  query: Omit<UnhandledQuery, 'minMessages'>,
  top: number,
): Promise<StoredUnhandled | null> {
  const runId = unhandledRunId(query);
  const runs = await warehouse.query(
    `SELECT unrecognised, previous_unrecognised, clustered, epoch_ms(computed_at) AS computed_ms FROM unhandled_runs WHERE run_id = $run_id`,
    { run_id: runId },
  );
  const run = runs[0];
  if (run === undefined) return null;
  const clusters = await warehouse.query(`${SELECT_CLUSTERS} LIMIT ${Math.max(0, Math.floor(top))}`, {
    run_id: runId,
  });
  return {
    runId,
    from: new Date(query.from).toISOString(),
    to: new Date(query.to).toISOString(),
    computedAt: new Date(Number(run['computed_ms'])).toISOString(),
    unrecognised: Number(run['unrecognised']),
    previousUnrecognised: Number(run['previous_unrecognised']),
    clustered: Number(run['clustered']),
    clusters: clusters.map(toCluster),
  };
}
