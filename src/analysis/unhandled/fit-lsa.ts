// LSA: a truncated SVD of the sample's TF-IDF rows by a seeded randomized range finder (Halko, Martinsson and
// Tropp: OVERSAMPLE extra columns, one power iteration, Cholesky QR), then each text's coordinates U·Σ scaled
// to unit length, so a dot product of two texts is their cosine. Deterministic for a seed.
import { gram, orthonormalColumns, symmetricEigen, times } from './dense-algebra.js';
import type { TextRow } from './fit-vectoriser.js';
import { gaussian, seededRandom } from './seeded-random.js';
import { type SparseRows, timesDense, transposeTimesDense } from './sparse-rows.js';

const OVERSAMPLE = 10;
const POWER_ITERATIONS = 1;

export interface Lsa {
  dims: number;
  /** Column → its coordinates (columns × dims, row-major): a row times these is its U·Σ coordinates. */
  components: Float32Array;
}

/** The LSA of `a` in at most `dims` dimensions. */
export function fitLsa(a: SparseRows, dims: number, seed: number): Lsa {
  const l = Math.min(dims + OVERSAMPLE, a.rows, a.cols);
  const next = seededRandom(seed);
  const omega = new Float64Array(a.cols * l);
  for (let i = 0; i < omega.length; i++) omega[i] = gaussian(next);
  let q = orthonormalColumns(timesDense(a, omega, l), a.rows, l, 1);
  for (let it = 0; it < POWER_ITERATIONS; it++) {
    const z = orthonormalColumns(transposeTimesDense(a, q, l), a.cols, l, 1);
    q = orthonormalColumns(timesDense(a, z, l), a.rows, l, it + 1 === POWER_ITERATIONS ? 2 : 1);
  }
  // Z = AᵀQ (cols × l): B = Zᵀ, BBᵀ = ZᵀZ = U S² Uᵀ, and A's right singular vectors are V = Z U S⁻¹, so
  // that a row x of A has the coordinates x·V = its row of U·S.
  const z = transposeTimesDense(a, q, l);
  const { values, vectors } = symmetricEigen(gram(z, a.cols, l), l);
  const kept = Math.min(dims, l);
  const proj = new Float64Array(l * kept);
  for (let j = 0; j < kept; j++) {
    const s = Math.sqrt(Math.max(values[j]!, 0));
    const f = s > 0 ? 1 / s : 0;
    for (let i = 0; i < l; i++) proj[i * kept + j] = vectors[i * l + j]! * f;
  }
  return { dims: kept, components: Float32Array.from(times(z, a.cols, l, proj, kept)) };
}

/** Unit-length coordinates of rows (rows × dims; an empty row stays zero). */
export function projectRows(lsa: Lsa, a: SparseRows): Float32Array {
  const d = lsa.dims;
  const out = new Float32Array(a.rows * d);
  const acc = new Float64Array(d);
  for (let i = 0; i < a.rows; i++) {
    acc.fill(0);
    for (let p = a.indptr[i]!; p < a.indptr[i + 1]!; p++) addScaled(acc, lsa, a.indices[p]!, a.values[p]!);
    let norm = 0;
    for (let j = 0; j < d; j++) norm += acc[j]! * acc[j]!;
    if (norm === 0) continue;
    const s = 1 / Math.sqrt(norm);
    for (let j = 0; j < d; j++) out[i * d + j] = acc[j]! * s;
  }
  return out;
}

/** One text's unit coordinates into `out` (dims); false when they are all zero. */
export function projectTextRow(lsa: Lsa, row: TextRow, out: Float64Array): boolean {
  out.fill(0);
  for (const [j, c] of row.wordCols.entries()) addScaled(out, lsa, c, row.wordVals[j]!);
  for (const [j, c] of row.charCols.entries()) addScaled(out, lsa, c, row.charVals[j]!);
  let norm = 0;
  for (let t = 0; t < lsa.dims; t++) norm += out[t]! * out[t]!;
  if (norm === 0) return false;
  const s = Math.sqrt(norm);
  for (let t = 0; t < lsa.dims; t++) out[t]! /= s;
  return true;
}

function addScaled(acc: Float64Array, lsa: Lsa, column: number, x: number): void {
  const d = lsa.dims;
  const o = column * d;
  for (let t = 0; t < d; t++) acc[t]! += x * lsa.components[o + t]!;
}
