// Small dense linear algebra for the randomized SVD (fit-lsa.ts): a symmetric eigen-decomposition (cyclic
// Jacobi), Gram matrices, products and orthonormal columns (Cholesky QR). Matrices are row-major
// Float64Arrays; every result is deterministic (each eigenvector's largest entry is made positive).

/** Eigenvalues (descending) and eigenvectors (the columns of `vectors`, n × n) of a symmetric n × n matrix. */
export function symmetricEigen(m: Float64Array, n: number): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(m);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    if (offDiagonalIsSmall(a, n)) break;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) rotate(a, v, n, p, q);
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => a[y * n + y]! - a[x * n + x]! || x - y);
  const values = Float64Array.from(order, (i) => a[i * n + i]!);
  const vectors = new Float64Array(n * n);
  for (const [dst, src] of order.entries()) {
    let big = 0;
    for (let k = 0; k < n; k++) if (Math.abs(v[k * n + src]!) > Math.abs(big)) big = v[k * n + src]!;
    const sign = big < 0 ? -1 : 1;
    for (let k = 0; k < n; k++) vectors[k * n + dst] = sign * v[k * n + src]!;
  }
  return { values, vectors };
}

function offDiagonalIsSmall(a: Float64Array, n: number): boolean {
  let off = 0;
  let diag = 0;
  for (let i = 0; i < n; i++) {
    diag += a[i * n + i]! ** 2;
    for (let j = i + 1; j < n; j++) off += a[i * n + j]! ** 2;
  }
  return off <= 1e-18 * Math.max(diag, 1e-300);
}

/** One Jacobi rotation zeroing a[p][q], applied to a (both sides) and accumulated into v. */
function rotate(a: Float64Array, v: Float64Array, n: number, p: number, q: number): void {
  const apq = a[p * n + q]!;
  if (Math.abs(apq) < 1e-300) return;
  const theta = (a[q * n + q]! - a[p * n + p]!) / (2 * apq);
  const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
  const c = 1 / Math.sqrt(t * t + 1);
  const s = t * c;
  for (let k = 0; k < n; k++) {
    const akp = a[k * n + p]!;
    const akq = a[k * n + q]!;
    a[k * n + p] = c * akp - s * akq;
    a[k * n + q] = s * akp + c * akq;
  }
  for (let k = 0; k < n; k++) {
    const apk = a[p * n + k]!;
    const aqk = a[q * n + k]!;
    a[p * n + k] = c * apk - s * aqk;
    a[q * n + k] = s * apk + c * aqk;
  }
  for (let k = 0; k < n; k++) {
    const vkp = v[k * n + p]!;
    const vkq = v[k * n + q]!;
    v[k * n + p] = c * vkp - s * vkq;
    v[k * n + q] = s * vkp + c * vkq;
  }
}

/** A rows × k matrix transposed (k × rows). */
function transpose(y: Float64Array, rows: number, k: number): Float64Array {
  const t = new Float64Array(rows * k);
  for (let r = 0; r < rows; r++) for (let i = 0; i < k; i++) t[i * rows + r] = y[r * k + i]!;
  return t;
}

/** Σ a[ao + t] · b[bo + t] for t < len, unrolled by 4. */
function dot64(a: Float64Array, ao: number, b: Float64Array, bo: number, len: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let t = 0;
  for (; t + 3 < len; t += 4) {
    s0 += a[ao + t]! * b[bo + t]!;
    s1 += a[ao + t + 1]! * b[bo + t + 1]!;
    s2 += a[ao + t + 2]! * b[bo + t + 2]!;
    s3 += a[ao + t + 3]! * b[bo + t + 3]!;
  }
  for (; t < len; t++) s0 += a[ao + t]! * b[bo + t]!;
  return s0 + s1 + s2 + s3;
}

/** The Gram matrix YᵀY (k × k) of a rows × k matrix. */
export function gram(y: Float64Array, rows: number, k: number): Float64Array {
  const t = transpose(y, rows, k);
  const g = new Float64Array(k * k);
  for (let i = 0; i < k; i++)
    for (let j = i; j < k; j++) {
      const v = dot64(t, i * rows, t, j * rows, rows);
      g[i * k + j] = v;
      g[j * k + i] = v;
    }
  return g;
}

/** Y · M for Y rows × k and M k × mCols. */
export function times(
  y: Float64Array,
  rows: number,
  k: number,
  m: Float64Array,
  mCols: number,
): Float64Array {
  const mt = transpose(m, k, mCols);
  const out = new Float64Array(rows * mCols);
  for (let r = 0; r < rows; r++) {
    const yo = r * k;
    const oo = r * mCols;
    for (let j = 0; j < mCols; j++) out[oo + j] = dot64(y, yo, mt, j * k, k);
  }
  return out;
}

/**
 * Orthonormal columns spanning those of Y (rows × k) by Cholesky QR, `passes` times (two: CholeskyQR2), with
 * a tiny shift of the Gram matrix for rank-deficient Y.
 */
export function orthonormalColumns(y: Float64Array, rows: number, k: number, passes = 2): Float64Array {
  let q = y;
  for (let pass = 0; pass < passes; pass++) {
    const g = gram(q, rows, k);
    let trace = 0;
    for (let i = 0; i < k; i++) trace += g[i * k + i]!;
    const shift = (trace / k) * 1e-10 + 1e-300;
    for (let i = 0; i < k; i++) g[i * k + i]! += shift;
    q = times(q, rows, k, upperInverse(cholesky(g, k), k), k);
  }
  return q;
}

/** The upper-triangular R with RᵀR = G (G symmetric positive definite, k × k). */
export function cholesky(g: Float64Array, k: number): Float64Array {
  const r = new Float64Array(k * k);
  for (let j = 0; j < k; j++) {
    let s = g[j * k + j]!;
    for (let t = 0; t < j; t++) s -= r[t * k + j]! ** 2;
    const rjj = Math.sqrt(Math.max(s, 1e-300));
    r[j * k + j] = rjj;
    for (let i = j + 1; i < k; i++) {
      let v = g[j * k + i]!;
      for (let t = 0; t < j; t++) v -= r[t * k + j]! * r[t * k + i]!;
      r[j * k + i] = v / rjj;
    }
  }
  return r;
}

/** The inverse of an upper-triangular k × k matrix. */
export function upperInverse(r: Float64Array, k: number): Float64Array {
  const inv = new Float64Array(k * k);
  for (let j = k - 1; j >= 0; j--) {
    inv[j * k + j] = 1 / r[j * k + j]!;
    for (let i = j - 1; i >= 0; i--) {
      let s = 0;
      for (let t = i + 1; t <= j; t++) s += r[i * k + t]! * inv[t * k + j]!;
      inv[i * k + j] = -s / r[i * k + i]!;
    }
  }
  return inv;
}
