// How a clustering agrees with true labels (the unhandled-real step and the tests of the unhandled questions):
// NMI (arithmetic mean of the entropies, scikit-learn's default), ARI, purity, one-to-one accuracy (Hungarian),
// the largest cluster's share, and how many clusters each true intent is the majority of. Unclustered
// messages are one cluster of their own, OTHER, as the issue counts them.

export const OTHER = '(other)';

export interface ClusterScores {
  nmi: number;
  ari: number;
  purity: number;
  /** Clusters mapped one-to-one to intents (Hungarian): the share of messages on a mapped pair. */
  accuracy: number;
  /** Clusters, OTHER not counted. */
  clusters: number;
  /** The biggest cluster (OTHER not counted) as a share of all messages. */
  largestShare: number;
  otherShare: number;
  /** The most clusters (OTHER not counted) of which one intent is the majority label. */
  maxClustersPerIntent: number;
  /** How many intents are the majority of 0, 1, 2, 3 and 4 or more clusters. */
  perIntentHistogram: [number, number, number, number, number];
}

interface Contingency {
  /** (cluster row × intent column) → messages. */
  cells: Map<number, number>;
  intents: string[];
  rows: number;
  otherRow: number | undefined;
  rowSum: Float64Array;
  colSum: Float64Array;
}

function contingency(truth: readonly string[], predicted: readonly string[]): Contingency {
  const ti = new Map<string, number>();
  const pi = new Map<string, number>();
  for (const t of truth) if (!ti.has(t)) ti.set(t, ti.size);
  for (const p of predicted) if (!pi.has(p)) pi.set(p, pi.size);
  const cols = ti.size;
  const cells = new Map<number, number>();
  const rowSum = new Float64Array(pi.size);
  const colSum = new Float64Array(cols);
  for (const [i, t] of truth.entries()) {
    const r = pi.get(predicted[i]!)!;
    const c = ti.get(t)!;
    cells.set(r * cols + c, (cells.get(r * cols + c) ?? 0) + 1);
    rowSum[r]!++;
    colSum[c]!++;
  }
  return { cells, intents: [...ti.keys()], rows: pi.size, otherRow: pi.get(OTHER), rowSum, colSum };
}

const choose2 = (x: number) => (x * (x - 1)) / 2;

/**
 * The scores of `predicted` (a cluster name per message, OTHER for none) against `truth`. `notIntents`:
 * true labels that are no intent (out-of-scope, noise), left out of the clusters-per-intent count.
 */
export function scoreClustering(
  truth: readonly string[],
  predicted: readonly string[],
  notIntents: ReadonlySet<string> = new Set(),
): ClusterScores {
  const n = truth.length;
  const t = contingency(truth, predicted);
  const cols = t.intents.length;
  let mi = 0;
  for (const [key, c] of t.cells)
    mi += (c / n) * Math.log((c * n) / (t.rowSum[Math.floor(key / cols)]! * t.colSum[key % cols]!));
  const entropy = (s: Float64Array) => -s.reduce((a, x) => a + (x > 0 ? (x / n) * Math.log(x / n) : 0), 0);
  const hp = entropy(t.rowSum);
  const ht = entropy(t.colSum);
  let sumCells = 0;
  for (const c of t.cells.values()) sumCells += choose2(c);
  const sumRows = t.rowSum.reduce((a, x) => a + choose2(x), 0);
  const sumCols = t.colSum.reduce((a, x) => a + choose2(x), 0);
  const expected = (sumRows * sumCols) / choose2(n);
  const majority = majorities(t);
  let largest = 0;
  for (let r = 0; r < t.rows; r++) if (r !== t.otherRow) largest = Math.max(largest, t.rowSum[r]!);
  const perIntent = clustersPerIntent(t, majority.intent, notIntents);
  const histogram: [number, number, number, number, number] = [0, 0, 0, 0, 0];
  for (const c of perIntent.values()) histogram[Math.min(c, 4)]!++;
  return {
    nmi: hp + ht === 0 ? 1 : (2 * mi) / (hp + ht),
    ari: (sumCells - expected) / ((sumRows + sumCols) / 2 - expected),
    purity: majority.total / n,
    accuracy: maxAssignment(matrixOf(t)) / n,
    clusters: t.rows - (t.otherRow === undefined ? 0 : 1),
    largestShare: largest / n,
    otherShare: t.otherRow === undefined ? 0 : t.rowSum[t.otherRow]! / n,
    maxClustersPerIntent: Math.max(0, ...perIntent.values()),
    perIntentHistogram: histogram,
  };
}

/** Each cluster's majority intent (ties: the intent seen first) and the sum of the majorities. */
function majorities(t: Contingency): { intent: Int32Array; total: number } {
  const cols = t.intents.length;
  const best = new Float64Array(t.rows);
  const intent = new Int32Array(t.rows).fill(-1);
  for (const [key, c] of t.cells) {
    const r = Math.floor(key / cols);
    if (c > best[r]! || (c === best[r]! && key % cols < intent[r]!)) [best[r], intent[r]] = [c, key % cols];
  }
  return { intent, total: best.reduce((a, b) => a + b, 0) };
}

function clustersPerIntent(t: Contingency, intent: Int32Array, notIntents: ReadonlySet<string>) {
  const per = new Map(t.intents.filter((x) => !notIntents.has(x)).map((x) => [x, 0]));
  for (let r = 0; r < t.rows; r++) {
    const name = t.intents[intent[r]!]!;
    if (r !== t.otherRow && per.has(name)) per.set(name, per.get(name)! + 1);
  }
  return per;
}

function matrixOf(t: Contingency): number[][] {
  const cols = t.intents.length;
  const m = Array.from({ length: t.rows }, () => new Array<number>(cols).fill(0));
  for (const [key, c] of t.cells) m[Math.floor(key / cols)]![key % cols] = c;
  return m;
}

/** The largest total of a one-to-one assignment of rows to columns (the Hungarian algorithm, O(n³)). */
export function maxAssignment(profit: readonly (readonly number[])[]): number {
  const rows = profit.length;
  const cols = profit[0]?.length ?? 0;
  const n = Math.max(rows, cols);
  let max = 0;
  for (const r of profit) for (const v of r) max = Math.max(max, v);
  // Minimise cost = max − profit on an n × n square (padding costs max).
  const cost = (i: number, j: number) => max - (i < rows && j < cols ? profit[i]![j]! : 0);
  const u = new Float64Array(n + 1);
  const v = new Float64Array(n + 1);
  const p = new Int32Array(n + 1);
  const way = new Int32Array(n + 1);
  for (let i = 1; i <= n; i++) {
    p[0] = i;
    let j0 = 0;
    const minv = new Float64Array(n + 1).fill(Number.POSITIVE_INFINITY);
    const used = new Uint8Array(n + 1);
    do {
      used[j0] = 1;
      const i0 = p[j0]!;
      let delta = Number.POSITIVE_INFINITY;
      let j1 = 0;
      for (let j = 1; j <= n; j++) {
        if (used[j]) continue;
        const cur = cost(i0 - 1, j - 1) - u[i0]! - v[j]!;
        if (cur < minv[j]!) [minv[j], way[j]] = [cur, j0];
        if (minv[j]! < delta) [delta, j1] = [minv[j]!, j];
      }
      for (let j = 0; j <= n; j++)
        if (used[j]) {
          u[p[j]!]! += delta;
          v[j]! -= delta;
        } else minv[j]! -= delta;
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0]!;
      p[j0] = p[j1]!;
      j0 = j1;
    } while (j0);
  }
  let total = 0;
  for (let j = 1; j <= n; j++) if (p[j]! - 1 < rows && j - 1 < cols) total += profit[p[j]! - 1]![j - 1]!;
  return total;
}
