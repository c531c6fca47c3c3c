// Every parameter of the clustering of unhandled questions (docs/unhandled.md#how-topics-are-formed says what
// each does and how it was chosen: on the Banking77 and CLINC150 development sets, then checked without
// retuning on a held-out corpus and on the emulator's topics). Tests and the benchmark may override them; the
// command uses these.

export interface ClusterParams {
  /** LSA dimensions. */
  dims: number;
  /** At most this many distinct texts are clustered; the rest are assigned to the nearest topic. */
  sampleSize: number;
  /** Micro-clusters (the neighbour search's index): this many times √(sample size), at most maxMicro. */
  microPerRoot: number;
  maxMicro: number;
  /** Lloyd passes of the micro-clustering. */
  microIterations: number;
  /** Neighbours per text in the graph, and micro-clusters searched for them. */
  neighbours: number;
  probes: number;
  /** Louvain's resolution γ (1: classic modularity; higher: smaller communities). */
  resolution: number;
  /** Communities merge while the average cosine between their texts is at least this (1: never). */
  postMerge: number;
  /** A topic needs at least this share of the period's messages, and at least minMessages. */
  minShare: number;
  minMessages: number;
  /** A text whose cosine to its nearest topic is below this is "other". */
  otherSimilarity: number;
  /** A topic's top term must be in at least this share of its messages, else its texts are "other". */
  minTermCoverage: number;
  /** Every random choice: k-means++, the SVD's test matrix, the sample. */
  seed: number;
}

export const CLUSTER_PARAMS: Readonly<ClusterParams> = Object.freeze({
  dims: 150,
  sampleSize: 12_000,
  microPerRoot: 2,
  maxMicro: 1500,
  microIterations: 2,
  neighbours: 12,
  probes: 10,
  resolution: 6,
  postMerge: 0.4,
  minShare: 0.0005,
  minMessages: 3,
  otherSimilarity: 0.2,
  minTermCoverage: 0.2,
  seed: 20260,
});
