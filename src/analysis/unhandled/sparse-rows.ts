// Compressed sparse rows (CSR): the TF-IDF rows of the distinct texts, and their products with dense
// matrices that the randomized SVD (fit-lsa.ts) needs. Each row's columns are sorted.

export interface SparseRows {
  rows: number;
  cols: number;
  /** Row r's entries are at [indptr[r], indptr[r + 1]). */
  indptr: Int32Array;
  indices: Int32Array;
  values: Float32Array;
}

/** Sparse rows from per-row (column, value) lists. */
export function sparseRows(rows: readonly (readonly [number, number][])[], cols: number): SparseRows {
  let nnz = 0;
  for (const r of rows) nnz += r.length;
  const indptr = new Int32Array(rows.length + 1);
  const indices = new Int32Array(nnz);
  const values = new Float32Array(nnz);
  let at = 0;
  for (const [i, r] of rows.entries()) {
    for (const [c, v] of [...r].sort((a, b) => a[0] - b[0])) {
      indices[at] = c;
      values[at++] = v;
    }
    indptr[i + 1] = at;
  }
  return { rows: rows.length, cols, indptr, indices, values };
}

/** Y = A · B for a dense B (A.cols × k, row-major); Y is A.rows × k. */
export function timesDense(a: SparseRows, b: Float64Array, k: number): Float64Array {
  const y = new Float64Array(a.rows * k);
  for (let i = 0; i < a.rows; i++) {
    const yo = i * k;
    for (let p = a.indptr[i]!; p < a.indptr[i + 1]!; p++) {
      const v = a.values[p]!;
      const bo = a.indices[p]! * k;
      for (let j = 0; j < k; j++) y[yo + j]! += v * b[bo + j]!;
    }
  }
  return y;
}

/** Y = Aᵀ · B for a dense B (A.rows × k, row-major); Y is A.cols × k. */
export function transposeTimesDense(a: SparseRows, b: Float64Array, k: number): Float64Array {
  const y = new Float64Array(a.cols * k);
  for (let i = 0; i < a.rows; i++) {
    const bo = i * k;
    for (let p = a.indptr[i]!; p < a.indptr[i + 1]!; p++) {
      const v = a.values[p]!;
      const yo = a.indices[p]! * k;
      for (let j = 0; j < k; j++) y[yo + j]! += v * b[bo + j]!;
    }
  }
  return y;
}
