// The stored run of `reporter-etl unhandled` for exactly a selection and period, as `stats --json` shows it
// (key `unhandled`): the run's counts, "other" (the messages that joined no topic) and its top clusters, or
// null when that period was not computed.
import type { Warehouse } from '../../warehouse/warehouse.js';
import {
  toCluster,
  toRunFigures,
  type UnhandledCluster,
  type UnhandledOther,
  type UnhandledQuery,
  unhandledRunId,
} from './compute-unhandled.js';
import { SELECT_CLUSTERS, SELECT_RUN } from './unhandled-sql.js';

export interface StoredUnhandled {
  runId: string;
  from: string;
  to: string;
  computedAt: string;
  unrecognised: number;
  previousUnrecognised: number;
  clustered: number;
  other: UnhandledOther;
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
  const run = (await warehouse.query(SELECT_RUN, { run_id: runId }))[0];
  if (run === undefined) return null;
  const clusters = await warehouse.query(`${SELECT_CLUSTERS} LIMIT ${Math.max(0, Math.floor(top))}`, {
    run_id: runId,
  });
  const figures = toRunFigures(run);
  return {
    runId,
    from: figures.from,
    to: figures.to,
    computedAt: new Date(Number(run['computed_ms'])).toISOString(),
    unrecognised: figures.unrecognised,
    previousUnrecognised: figures.previousUnrecognised,
    clustered: figures.clustered,
    other: figures.other,
    clusters: clusters.map(toCluster),
  };
}
