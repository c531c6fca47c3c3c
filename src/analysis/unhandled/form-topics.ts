// Topics from the sample's unit vectors: micro-clusters by spherical k-means (the index of the neighbour
// search), each text's nearest neighbours, communities of that graph by Louvain (where the data choose the
// number of topics: a community needs dense links, not a single chain of similar pairs), then communities
// whose texts are on average this similar merged (paraphrase groups), and topics too small dropped.
import { averageLinkage } from './average-linkage.js';
import type { ClusterParams } from './cluster-params.js';
import { knnGraph } from './knn-graph.js';
import { louvain } from './louvain.js';
import { nearestNeighbours } from './nearest-neighbours.js';
import { groupMeans, kmeansPlusPlus, sphericalKmeans } from './spherical-kmeans.js';

export interface SampleVectors {
  /** n × d unit rows. */
  x: Float32Array;
  n: number;
  d: number;
  /** Each row's messages in the period; 0: never clustered (a text without features). */
  w: Float64Array;
}

export interface FormedTopics {
  /** Each sample row's topic (−1: none). */
  labels: Int32Array;
  /** k × d unit centres (message-weighted means). */
  centres: Float32Array;
  k: number;
  micro: number;
  communities: number;
}

/**
 * The topics of the sample. `start`: each row's starting community (rows seen in the previous run begin in
 * their previous topic). `minMessages`: the smallest topic, in the period's messages; `scale` turns the
 * sample's messages into the period's.
 */
export function formTopics(
  s: SampleVectors,
  p: ClusterParams,
  minMessages: number,
  scale: number,
  start?: Int32Array,
): FormedTopics {
  const { x, n, d, w } = s;
  const m = Math.max(1, Math.min(p.maxMicro, Math.ceil(p.microPerRoot * Math.sqrt(n))));
  const micro = sphericalKmeans(x, n, d, w, kmeansPlusPlus(x, n, d, w, m, p.seed), m, p.microIterations);
  const microCentres = groupMeans(x, n, d, w, micro.labels, m).centre;
  const neighbours = nearestNeighbours(
    x,
    n,
    d,
    { labels: micro.labels, centres: microCentres, count: m },
    p.neighbours,
    p.probes,
  );
  let labels = louvain(knnGraph(n, neighbours), p.resolution, start);
  const communities = countLabels(labels);
  if (p.postMerge < 1) {
    const cm = groupMeans(x, n, d, w, labels, communities);
    const merged = averageLinkage(cm.mean, cm.weight, communities, d, p.postMerge);
    labels = Int32Array.from(labels, (g) => merged[g]!);
  }
  for (let i = 0; i < n; i++) if (w[i] === 0) labels[i] = -1;
  return { ...dropSmall(s, labels, minMessages, scale), micro: m, communities };
}

function countLabels(labels: Int32Array): number {
  let k = 0;
  for (const g of labels) k = Math.max(k, g + 1);
  return k;
}

/** Topics with fewer than `minMessages` (scaled) out, the rest renumbered 0.., with their centres. */
function dropSmall(s: SampleVectors, labels: Int32Array, minMessages: number, scale: number) {
  const k0 = countLabels(labels);
  const sizes = new Float64Array(k0);
  for (let i = 0; i < s.n; i++) if (labels[i]! >= 0) sizes[labels[i]!]! += s.w[i]!;
  const renumber = new Int32Array(k0).fill(-1);
  let k = 0;
  for (let c = 0; c < k0; c++) if (sizes[c]! * scale >= minMessages) renumber[c] = k++;
  const kept = Int32Array.from(labels, (l) => (l >= 0 ? renumber[l]! : -1));
  return { labels: kept, centres: groupMeans(s.x, s.n, s.d, s.w, kept, k).centre, k };
}
