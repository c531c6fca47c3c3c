// The k-nearest-neighbour graph of the texts: an undirected edge i–j for each neighbour pair, weighted by
// their cosine (the larger of the two directions; cosines ≤ 0 dropped), as compressed adjacency lists in
// index order so the community detection visits it the same way every time.
import type { Neighbours } from './nearest-neighbours.js';

export interface Graph {
  n: number;
  /** Node i's edges are at [indptr[i], indptr[i + 1]); symmetric; self-loops allowed. */
  indptr: Int32Array;
  adj: Int32Array;
  w: Float64Array;
}

/** The symmetrised graph of `n` nodes' neighbours. */
export function knnGraph(n: number, neighbours: Neighbours): Graph {
  const { k, index, sim } = neighbours;
  const edges = new Map<number, number>();
  for (let i = 0; i < n; i++)
    for (let t = 0; t < k; t++) {
      const j = index[i * k + t]!;
      const s = sim[i * k + t]!;
      if (j < 0 || s <= 0) continue;
      const key = i < j ? i * n + j : j * n + i;
      edges.set(key, Math.max(edges.get(key) ?? 0, s));
    }
  return graphOf(n, edges, true);
}

/**
 * A graph from weighted pairs keyed a·n + b: `mirror` adds each pair both ways (a < b given once), else each
 * key is one directed entry already present both ways (an aggregated graph).
 */
export function graphOf(n: number, edges: ReadonlyMap<number, number>, mirror: boolean): Graph {
  const keys = [...edges.keys()].sort((a, b) => a - b);
  const degree = new Int32Array(n);
  for (const key of keys) {
    degree[Math.floor(key / n)]!++;
    if (mirror) degree[key % n]!++;
  }
  const indptr = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) indptr[i + 1] = indptr[i]! + degree[i]!;
  const fill = Int32Array.from(indptr.subarray(0, n));
  const adj = new Int32Array(indptr[n]!);
  const w = new Float64Array(indptr[n]!);
  for (const key of keys) {
    const a = Math.floor(key / n);
    const b = key % n;
    const s = edges.get(key)!;
    adj[fill[a]!] = b;
    w[fill[a]!++] = s;
    if (!mirror) continue;
    adj[fill[b]!] = a;
    w[fill[b]!++] = s;
  }
  return { n, indptr, adj, w };
}
