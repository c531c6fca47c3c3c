// Louvain community detection on a weighted undirected graph (modularity with a resolution γ: higher γ,
// smaller communities): local moving, then each community becomes a node, until nothing moves. The data
// choose the number of communities. Deterministic: nodes in index order, ties to the lower community.
// A start partition may be given (texts seen last time begin in their previous topic); nodes can still leave.
import { type Graph, graphOf } from './knn-graph.js';

const MAX_PASSES = 50;
const MAX_LEVELS = 20;
const EPSILON = 1e-12;

/** The community of each node, numbered 0.. by first node; `start`: each node's starting community. */
export function louvain(g0: Graph, gamma: number, start?: Int32Array): Int32Array {
  let g = g0;
  let membership = Int32Array.from({ length: g0.n }, (_, i) => i);
  for (let level = 0; level < MAX_LEVELS; level++) {
    const comm = localMoving(g, gamma, level === 0 ? start : undefined);
    const c = numberByFirst(comm);
    let count = 0;
    for (const x of c) count = Math.max(count, x + 1);
    if (count === g.n) break;
    membership = Int32Array.from(membership, (x) => c[x]!);
    g = aggregate(g, c, count);
  }
  return numberByFirst(membership);
}

/** Communities renumbered 0.. in the order of their first node. */
function numberByFirst(comm: Int32Array): Int32Array {
  const ids = new Map<number, number>();
  return Int32Array.from(comm, (x) => {
    let id = ids.get(x);
    if (id === undefined) ids.set(x, (id = ids.size));
    return id;
  });
}

/** One level of local moving from singletons (or `start`): each node to the community of best gain. */
function localMoving(g: Graph, gamma: number, start?: Int32Array): Int32Array {
  const n = g.n;
  const comm = start ? Int32Array.from(start) : Int32Array.from({ length: n }, (_, i) => i);
  const k = new Float64Array(n);
  let m2 = 0;
  for (let i = 0; i < n; i++) {
    for (let p = g.indptr[i]!; p < g.indptr[i + 1]!; p++) k[i]! += g.w[p]!;
    m2 += k[i]!;
  }
  if (m2 === 0) return comm;
  const tot = new Float64Array(n);
  for (let i = 0; i < n; i++) tot[comm[i]!]! += k[i]!;
  const linkTo = new Float64Array(n);
  const touched: number[] = [];
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    let moved = 0;
    for (let i = 0; i < n; i++) {
      const ci = comm[i]!;
      touched.length = 0;
      for (let p = g.indptr[i]!; p < g.indptr[i + 1]!; p++) {
        const j = g.adj[p]!;
        if (j === i) continue; // a self-loop (an aggregated community's inner weight) moves with the node
        const cj = comm[j]!;
        if (linkTo[cj] === 0) touched.push(cj);
        linkTo[cj]! += g.w[p]!;
      }
      tot[ci]! -= k[i]!;
      let best = ci;
      let bestGain = linkTo[ci]! - (gamma * tot[ci]! * k[i]!) / m2;
      for (const c of touched) {
        const gain = linkTo[c]! - (gamma * tot[c]! * k[i]!) / m2;
        if (gain > bestGain + EPSILON || (Math.abs(gain - bestGain) <= EPSILON && c < best))
          [bestGain, best] = [gain, c];
      }
      tot[best]! += k[i]!;
      if (best !== ci) {
        comm[i] = best;
        moved++;
      }
      for (const c of touched) linkTo[c] = 0;
      linkTo[ci] = 0;
    }
    if (moved === 0) break;
  }
  return comm;
}

/** The graph of the communities: each a node, the weights between them summed (inner weight a self-loop). */
function aggregate(g: Graph, c: Int32Array, count: number): Graph {
  const edges = new Map<number, number>();
  for (let i = 0; i < g.n; i++)
    for (let p = g.indptr[i]!; p < g.indptr[i + 1]!; p++) {
      const key = c[i]! * count + c[g.adj[p]!]!;
      edges.set(key, (edges.get(key) ?? 0) + g.w[p]!);
    }
  return graphOf(count, edges, false);
}
