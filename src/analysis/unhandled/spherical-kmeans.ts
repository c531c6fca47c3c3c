// Weighted spherical k-means on unit rows (n × d, row-major Float32Array) from a seeded k-means++ start: the
// micro-clusters that index the nearest-neighbour search, and the weighted means (centres) of any grouping.
import { seededRandom } from './seeded-random.js';

/** The dot product of x[xo .. xo + d) and c[co .. co + d), unrolled by 4. */
export function dotAt(x: Float32Array, xo: number, c: Float32Array, co: number, d: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let t = 0;
  for (; t + 3 < d; t += 4) {
    s0 += x[xo + t]! * c[co + t]!;
    s1 += x[xo + t + 1]! * c[co + t + 1]!;
    s2 += x[xo + t + 2]! * c[co + t + 2]!;
    s3 += x[xo + t + 3]! * c[co + t + 3]!;
  }
  for (; t < d; t++) s0 += x[xo + t]! * c[co + t]!;
  return s0 + s1 + s2 + s3;
}

/** k starting centres by k-means++ (D² = 2 − 2·cos, times the row's weight), seeded. */
export function kmeansPlusPlus(
  x: Float32Array,
  n: number,
  d: number,
  w: Float64Array,
  k: number,
  seed: number,
): Float32Array {
  const next = seededRandom(seed);
  const centres = new Float32Array(k * d);
  const best = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
  let total = 0;
  for (let i = 0; i < n; i++) total += w[i]!;
  let pick = pickWeighted(w, total, next());
  for (let c = 0; c < k; c++) {
    centres.set(x.subarray(pick * d, pick * d + d), c * d);
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const dist = Math.max(0, 2 - 2 * dotAt(x, i * d, centres, c * d, d));
      if (dist < best[i]!) best[i] = dist;
      sum += best[i]! * w[i]!;
    }
    if (c + 1 === k) break;
    if (sum <= 0) pick = pickWeighted(w, total, next());
    else {
      let r = next() * sum;
      pick = n - 1;
      for (let i = 0; i < n; i++) {
        r -= best[i]! * w[i]!;
        if (r < 0) {
          pick = i;
          break;
        }
      }
    }
  }
  return centres;
}

function pickWeighted(w: Float64Array, total: number, u: number): number {
  let r = u * total;
  for (let i = 0; i < w.length; i++) {
    r -= w[i]!;
    if (r < 0) return i;
  }
  return w.length - 1;
}

/** Each row's nearest centre (ties to the lower centre). */
export function nearestCentres(x: Float32Array, n: number, d: number, centres: Float32Array, k: number) {
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let bi = 0;
    let bs = Number.NEGATIVE_INFINITY;
    for (let c = 0; c < k; c++) {
      const s = dotAt(x, i * d, centres, c * d, d);
      if (s > bs) [bs, bi] = [s, c];
    }
    labels[i] = bi;
  }
  return labels;
}

/**
 * The weighted mean of the rows of each label (−1: none): `mean` unnormalised (its dot products are average
 * cosines), `centre` of unit length, `weight` the label's total weight.
 */
export function groupMeans(
  x: Float32Array,
  n: number,
  d: number,
  w: Float64Array,
  labels: Int32Array,
  k: number,
) {
  const mean = new Float64Array(k * d);
  const weight = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    const c = labels[i]!;
    if (c < 0) continue;
    weight[c]! += w[i]!;
    for (let t = 0; t < d; t++) mean[c * d + t]! += w[i]! * x[i * d + t]!;
  }
  const centre = new Float32Array(k * d);
  for (let c = 0; c < k; c++) {
    if (weight[c] === 0) continue;
    let norm = 0;
    for (let t = 0; t < d; t++) {
      mean[c * d + t]! /= weight[c]!;
      norm += mean[c * d + t]! ** 2;
    }
    const s = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let t = 0; t < d; t++) centre[c * d + t] = mean[c * d + t]! * s;
  }
  return { mean, centre, weight };
}

/** Lloyd passes of spherical k-means from `start` (k × d); stops early when no row moves. */
export function sphericalKmeans(
  x: Float32Array,
  n: number,
  d: number,
  w: Float64Array,
  start: Float32Array,
  k: number,
  iterations: number,
) {
  let centres = start;
  let labels = new Int32Array(n).fill(-1);
  for (let it = 0; it < iterations; it++) {
    const next = nearestCentres(x, n, d, centres, k);
    let moved = 0;
    for (let i = 0; i < n; i++) if (next[i] !== labels[i]) moved++;
    labels = next;
    const m = groupMeans(x, n, d, w, labels, k);
    // An emptied centre keeps its place (it may win rows back); the others move to their rows' mean.
    const moving = Float32Array.from(centres);
    for (let c = 0; c < k; c++) if (m.weight[c]! > 0) moving.set(m.centre.subarray(c * d, c * d + d), c * d);
    centres = moving;
    if (moved === 0) break;
  }
  return { labels, centres };
}
