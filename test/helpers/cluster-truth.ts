// Test helper: a clustering of unhandled questions judged by true labels, as the issue counts them (the
// unclustered pooled as one "other" cluster): the scores of bench/cluster-scores.ts, and each true topic's
// messages per cluster (its largest cluster, how many clusters it is the majority of).
import { type ClusterScores, OTHER, scoreClustering } from '../../bench/cluster-scores.js';

export { OTHER };

/** The scores of a cluster id per message (undefined: other) against the true label per message. */
export function scoreAgainstTruth(
  truth: readonly string[],
  clusterOf: readonly (string | undefined)[],
  notIntents: ReadonlySet<string> = new Set(),
): ClusterScores {
  return scoreClustering(
    truth,
    clusterOf.map((c) => c ?? OTHER),
    notIntents,
  );
}

/** For each true topic (noise left out), its messages per cluster id (undefined: other). */
export function messagesByTopic(
  truth: readonly (string | undefined)[],
  clusterOf: readonly (string | undefined)[],
): Map<string, Map<string | undefined, number>> {
  const out = new Map<string, Map<string | undefined, number>>();
  for (const [i, topic] of truth.entries()) {
    if (topic === undefined) continue;
    const row = out.get(topic) ?? new Map<string | undefined, number>();
    row.set(clusterOf[i], (row.get(clusterOf[i]) ?? 0) + 1);
    out.set(topic, row);
  }
  return out;
}

/** The id of a topic's largest cluster (other excluded; ties: the smaller id). */
export function largestClusterOf(row: ReadonlyMap<string | undefined, number>): string | undefined {
  return [...row]
    .filter((e): e is [string, number] => e[0] !== undefined)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
}
