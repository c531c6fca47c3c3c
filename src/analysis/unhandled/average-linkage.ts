// Average-linkage agglomeration of weighted groups, stopping at a similarity threshold: after the community
// detection, communities whose texts are on average this similar are one topic (paraphrase groups). For unit
// vectors the average cosine between two groups' members is the dot product of their weighted means, so the
// means give average linkage exactly; a merge updates it by Lance–Williams: s(A∪B, C) = (wA·s(A,C) + wB·s(B,C)) / (wA + wB).

/** The merged group of each input group (numbered by first appearance), merging while the best pair's average cosine ≥ threshold. */
export function averageLinkage(
  mean: Float64Array,
  weight: Float64Array,
  m: number,
  d: number,
  threshold: number,
): Int32Array {
  const sim = pairwiseSimilarity(mean, m, d);
  const w = Float64Array.from(weight);
  const alive = Uint8Array.from(w, (x) => (x === 0 ? 0 : 1));
  const parent = Int32Array.from({ length: m }, (_, i) => i);
  const bestOf = new Int32Array(m).fill(-1);
  const bestSim = new Float64Array(m).fill(Number.NEGATIVE_INFINITY);
  const refresh = (i: number) => {
    let b = -1;
    let bs = Number.NEGATIVE_INFINITY;
    for (let j = 0; j < m; j++)
      if (j !== i && alive[j] && sim[i * m + j]! > bs) [bs, b] = [sim[i * m + j]!, j];
    bestOf[i] = b;
    bestSim[i] = bs;
  };
  for (let i = 0; i < m; i++) if (alive[i]) refresh(i);
  for (;;) {
    let a = -1;
    let s = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < m; i++) if (alive[i] && bestSim[i]! > s) [a, s] = [i, bestSim[i]!];
    if (a < 0 || s < threshold) break;
    // The lower index keeps the group, for a stable order.
    const [keep, gone] = a < bestOf[a]! ? [a, bestOf[a]!] : [bestOf[a]!, a];
    for (let j = 0; j < m; j++) {
      if (!alive[j] || j === keep || j === gone) continue;
      const v = (w[keep]! * sim[keep * m + j]! + w[gone]! * sim[gone * m + j]!) / (w[keep]! + w[gone]!);
      sim[keep * m + j] = v;
      sim[j * m + keep] = v;
    }
    w[keep]! += w[gone]!;
    alive[gone] = 0;
    parent[gone] = keep;
    for (let j = 0; j < m; j++) {
      if (!alive[j]) continue;
      if (j === keep || bestOf[j] === keep || bestOf[j] === gone) refresh(j);
      else if (sim[j * m + keep]! > bestSim[j]!) [bestSim[j], bestOf[j]] = [sim[j * m + keep]!, keep];
    }
  }
  return rootsNumbered(parent);
}

function pairwiseSimilarity(mean: Float64Array, m: number, d: number): Float64Array {
  const sim = new Float64Array(m * m);
  for (let i = 0; i < m; i++)
    for (let j = i + 1; j < m; j++) {
      let s = 0;
      for (let t = 0; t < d; t++) s += mean[i * d + t]! * mean[j * d + t]!;
      sim[i * m + j] = s;
      sim[j * m + i] = s;
    }
  return sim;
}

/** Each element's root in the merge forest, roots numbered by first appearance. */
function rootsNumbered(parent: Int32Array): Int32Array {
  const root = (i: number): number => (parent[i] === i ? i : root(parent[i]!));
  const ids = new Map<number, number>();
  return Int32Array.from(parent, (_, i) => {
    const r = root(i);
    let id = ids.get(r);
    if (id === undefined) ids.set(r, (id = ids.size));
    return id;
  });
}
