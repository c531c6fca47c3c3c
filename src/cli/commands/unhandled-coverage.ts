// The coverage step of `reporter-etl unhandled` (docs/unhandled.md#coverage): the central question of each
// of the run's top clusters asked to the knowledge base's retrieval when REPORTER_KB_KEY is set (outside the
// warehouse's lock: the service may be slow), then stored with the Prompter's suggestions for the clusters'
// messages (unhandled_coverage). Without the key the clusters are stored as not asked (answerable unknown).

import { askCentralQuestions, type CentralRetrieval } from '../../analysis/kb-eval/ask-central-questions.js';
import type { UnhandledCluster, UnhandledRun } from '../../analysis/unhandled/compute-unhandled.js';
import { type ClusterCoverage, storeCoverage } from '../../analysis/unhandled/store-coverage.js';
import type { Config } from '../../config.js';
import type { Logger } from '../../log.js';
import { withConfiguredWarehouse } from '../../manage/use-warehouse.js';
import { createKbClient } from '../../platform/kb/kb-client.js';

/** A cluster as `unhandled --json` prints it: with its coverage (null beyond the top clusters). */
export type CoveredCluster = UnhandledCluster & { coverage: ClusterCoverage | null };

/** Asks and stores the coverage of the run's `top` biggest clusters; every cluster with its coverage. */
export async function coverTopClusters(
  config: Config,
  log: Logger,
  run: UnhandledRun,
  top: number,
  now: Date,
): Promise<CoveredCluster[]> {
  const questions = run.clusters.slice(0, top).map((c) => ({ clusterId: c.id, question: c.label }));
  const answers = config.kb.key === undefined ? questions.map(notAsked) : await ask(config, log, questions);
  const coverage = await withConfiguredWarehouse(config, 'write', log, (warehouse) =>
    storeCoverage(warehouse, run.runId, answers, now),
  );
  return run.clusters.map((c) => ({ ...c, coverage: coverage.get(c.id) ?? null }));
}

function notAsked(q: { clusterId: string; question: string }): CentralRetrieval {
  return { ...q, asked: false, sourceId: null, sourceName: null, score: null, chunk: null, error: null };
}

async function ask(
  config: Config,
  log: Logger,
  questions: { clusterId: string; question: string }[],
): Promise<CentralRetrieval[]> {
  const client = createKbClient({
    config: config.kb,
    concurrency: 1,
    retries: config.retries,
    timeoutMs: config.timeoutMs,
    log,
  });
  try {
    return await askCentralQuestions(client, questions);
  } finally {
    await client.close();
  }
}
