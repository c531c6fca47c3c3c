// The plain baseline the clusters of unhandled questions are compared with (issue 48): TF-IDF over words as
// scikit-learn's TfidfVectorizer does by default (lower case, tokens of 2+ word characters, smoothed idf, L2
// rows) and Euclidean k-means told the TRUE number of intents (greedy k-means++ start, best of `inits`
// seeded runs by inertia, as scikit-learn's n_init). The product is never told k; this baseline is.
import { seededRandom } from '../src/analysis/unhandled/seeded-random.js';

interface Rows {
  n: number;
  cols: number;
  indptr: Int32Array;
  indices: Int32Array;
  /** Single precision, as the lab's measurement of this baseline stored them. */
  values: Float32Array;
  /** Each row's squared norm. */
  sq: Float64Array;
}

/** Word TF-IDF rows of the texts, L2-normalised. */
function tfidfRows(texts: readonly string[]): Rows {
  // Python's \w is Unicode (Cyrillic included); JavaScript's is ASCII: hence the explicit classes.
  const tokens = texts.map((t) => t.toLowerCase().match(/[\p{L}\p{N}_]{2,}/gu) ?? []);
  const df = new Map<string, number>();
  for (const ts of tokens) for (const t of new Set(ts)) df.set(t, (df.get(t) ?? 0) + 1);
  const vocabulary = [...df.keys()].sort();
  const column = new Map(vocabulary.map((t, i) => [t, i]));
  const idf = vocabulary.map((t) => Math.log((1 + texts.length) / (1 + df.get(t)!)) + 1);
  const indptr = new Int32Array(texts.length + 1);
  const indices: number[] = [];
  const values: number[] = [];
  for (const [i, ts] of tokens.entries()) {
    const tf = new Map<number, number>();
    for (const t of ts) tf.set(column.get(t)!, (tf.get(column.get(t)!) ?? 0) + 1);
    const row = [...tf].sort((a, b) => a[0] - b[0]).map(([c, f]) => [c, f * idf[c]!] as const);
    const norm = Math.sqrt(row.reduce((a, [, v]) => a + v * v, 0)) || 1;
    for (const [c, v] of row) {
      indices.push(c);
      values.push(v / norm);
    }
    indptr[i + 1] = indices.length;
  }
  const rows = { n: texts.length, cols: vocabulary.length, indptr, indices: Int32Array.from(indices) };
  const vals = Float32Array.from(values);
  const sq = Float64Array.from({ length: texts.length }, (_, i) => {
    let s = 0;
    for (let p = indptr[i]!; p < indptr[i + 1]!; p++) s += vals[p]! ** 2;
    return s;
  });
  return { ...rows, values: vals, sq };
}

/** The squared distance between rows i and r. */
function distance(a: Rows, i: number, r: number): number {
  let s = a.sq[i]! + a.sq[r]!;
  let p = a.indptr[i]!;
  let q = a.indptr[r]!;
  while (p < a.indptr[i + 1]! && q < a.indptr[r + 1]!) {
    if (a.indices[p] === a.indices[q]) s -= 2 * a.values[p++]! * a.values[q++]!;
    else if (a.indices[p]! < a.indices[q]!) p++;
    else q++;
  }
  return Math.max(0, s);
}

/** Greedy k-means++ (2 + ln k candidates a step, the one lowering the potential most): the rows chosen. */
function seedRows(a: Rows, k: number, next: () => number): number[] {
  const best = new Float64Array(a.n);
  const first = Math.floor(next() * a.n);
  for (let i = 0; i < a.n; i++) best[i] = distance(a, i, first);
  const chosen = [first];
  const trials = 2 + Math.floor(Math.log(k));
  for (let c = 1; c < k; c++) {
    const sum = best.reduce((x, y) => x + y, 0);
    let pick = -1;
    let potential = Number.POSITIVE_INFINITY;
    let pickBest = best;
    for (let t = 0; t < trials; t++) {
      let r = next() * sum;
      let candidate = a.n - 1;
      for (let i = 0; i < a.n; i++) {
        r -= best[i]!;
        if (r < 0) {
          candidate = i;
          break;
        }
      }
      const nb = Float64Array.from(best, (b, i) => Math.min(b, distance(a, i, candidate)));
      const pot = nb.reduce((x, y) => x + y, 0);
      if (pot < potential) [pick, potential, pickBest] = [candidate, pot, nb];
    }
    best.set(pickBest);
    chosen.push(pick);
  }
  return chosen;
}

/** Lloyd's k-means from the seeded rows: labels and inertia. */
function lloyd(a: Rows, k: number, seeds: readonly number[], maxIterations = 300) {
  const centres = new Float64Array(k * a.cols);
  const norms = new Float64Array(k);
  for (const [c, r] of seeds.entries()) {
    for (let p = a.indptr[r]!; p < a.indptr[r + 1]!; p++) centres[c * a.cols + a.indices[p]!] = a.values[p]!;
    norms[c] = a.sq[r]!;
  }
  let labels = new Int32Array(a.n).fill(-1);
  let inertia = 0;
  for (let it = 0; it < maxIterations; it++) {
    const next = new Int32Array(a.n);
    let moved = 0;
    inertia = 0;
    for (let i = 0; i < a.n; i++) {
      let [bc, bd] = [0, Number.POSITIVE_INFINITY];
      for (let c = 0; c < k; c++) {
        let dot = 0;
        for (let p = a.indptr[i]!; p < a.indptr[i + 1]!; p++)
          dot += a.values[p]! * centres[c * a.cols + a.indices[p]!]!;
        if (norms[c]! - 2 * dot < bd) [bc, bd] = [c, norms[c]! - 2 * dot];
      }
      next[i] = bc;
      inertia += Math.max(0, a.sq[i]! + bd);
      if (bc !== labels[i]) moved++;
    }
    labels = next;
    if (moved === 0) break;
    recentre(a, k, labels, centres, norms);
  }
  return { labels, inertia };
}

/** Each centre to the mean of its rows (an empty cluster keeps its centre). */
function recentre(a: Rows, k: number, labels: Int32Array, centres: Float64Array, norms: Float64Array) {
  const size = new Float64Array(k);
  const sums = new Float64Array(k * a.cols);
  for (let i = 0; i < a.n; i++) {
    size[labels[i]!]!++;
    for (let p = a.indptr[i]!; p < a.indptr[i + 1]!; p++)
      sums[labels[i]! * a.cols + a.indices[p]!]! += a.values[p]!;
  }
  for (let c = 0; c < k; c++) {
    if (size[c] === 0) continue;
    let norm = 0;
    for (let j = 0; j < a.cols; j++) {
      const v = sums[c * a.cols + j]! / size[c]!;
      centres[c * a.cols + j] = v;
      norm += v * v;
    }
    norms[c] = norm;
  }
}

/** The baseline's cluster of each text: the best of `inits` seeded k-means runs with k clusters. */
export function baselineClusters(texts: readonly string[], k: number, inits = 10, seed = 1): Int32Array {
  const rows = tfidfRows(texts);
  let best: { labels: Int32Array; inertia: number } | undefined;
  for (let s = 0; s < inits; s++) {
    const next = seededRandom(seed + s);
    const run = lloyd(rows, k, seedRows(rows, k, next));
    if (best === undefined || run.inertia < best.inertia) best = run;
  }
  return best!.labels;
}
