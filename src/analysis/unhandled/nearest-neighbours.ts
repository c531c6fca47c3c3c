// Approximate k nearest neighbours of unit rows by an inverted-file probe: each row's nearest `probes`
// micro-clusters (spherical-kmeans.ts) are searched member by member, so the search is about n·√n, not n².
// Deterministic: neighbours by cosine, ties by index.
import { dotAt } from './spherical-kmeans.js';

export interface Neighbours {
  k: number;
  /** n × k neighbour indexes (−1: none) and their cosines, best first. */
  index: Int32Array;
  sim: Float32Array;
}

export interface MicroClusters {
  labels: Int32Array;
  centres: Float32Array;
  count: number;
}

/** Each row's `k` nearest rows among the members of its `probes` nearest micro-clusters. */
export function nearestNeighbours(
  x: Float32Array,
  n: number,
  d: number,
  micro: MicroClusters,
  k: number,
  probes: number,
): Neighbours {
  const m = micro.count;
  const members: number[][] = Array.from({ length: m }, () => []);
  for (let i = 0; i < n; i++) if (micro.labels[i]! >= 0) members[micro.labels[i]!]!.push(i);
  const index = new Int32Array(n * k).fill(-1);
  const sim = new Float32Array(n * k).fill(Number.NEGATIVE_INFINITY);
  const centreSim = new Float64Array(m);
  const order = new Int32Array(m);
  const searched = Math.min(probes, m);
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < m; c++) centreSim[c] = dotAt(x, i * d, micro.centres, c * d, d);
    selectBest(order, centreSim, searched);
    for (let a = 0; a < searched; a++)
      for (const j of members[order[a]!]!) {
        if (j !== i) insertNeighbour(index, sim, i * k, k, j, dotAt(x, i * d, x, j * d, d));
      }
  }
  return { k, index, sim };
}

/** The first `count` entries of `order` become the indexes of the highest scores, best first. */
function selectBest(order: Int32Array, score: Float64Array, count: number): void {
  for (let c = 0; c < order.length; c++) order[c] = c;
  for (let a = 0; a < count; a++) {
    let best = a;
    for (let b = a + 1; b < order.length; b++) if (score[order[b]!]! > score[order[best]!]!) best = b;
    const t = order[a]!;
    order[a] = order[best]!;
    order[best] = t;
  }
}

/** Row j with cosine s into the sorted list at [at, at + k), if it beats its last. */
function insertNeighbour(index: Int32Array, sim: Float32Array, at: number, k: number, j: number, s: number) {
  if (s <= sim[at + k - 1]!) return;
  let p = k - 1;
  while (p > 0 && (sim[at + p - 1]! < s || (sim[at + p - 1] === s && index[at + p - 1]! > j))) {
    sim[at + p] = sim[at + p - 1]!;
    index[at + p] = index[at + p - 1]!;
    p--;
  }
  sim[at + p] = s;
  index[at + p] = j;
}
