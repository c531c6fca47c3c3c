// Which signatures (distinct term sets of questions) say the same thing: each signature becomes the set of
// character trigrams of its terms (so a typo, or another ending, still shares most of them), MinHash with
// locality-sensitive banding proposes the pairs likely to be similar, and a pair whose trigram sets' Jaccard
// similarity reaches the threshold is joined (union-find). Deterministic: fixed hash seeds, no randomness.

const HASHES = 48;
const ROWS = 3;
const BANDS = HASHES / ROWS;
/** Band keys (31 bits) and set indexes are packed in one float: key × MAX_SETS + index < 2^53. */
const MAX_SETS = 2 ** 22;

/** The sorted distinct trigram hashes of terms, each padded `^term$`. */
export function trigramSet(terms: readonly string[]): Uint32Array {
  const set = new Set<number>();
  for (const term of terms) {
    const padded = `^${term}$`;
    for (let i = 0; i + 3 <= padded.length; i++) set.add(hashText(padded.slice(i, i + 3)));
  }
  return Uint32Array.from(set).sort();
}

/** |a ∩ b| / |a ∪ b| of two sorted sets. */
export function jaccard(a: Uint32Array, b: Uint32Array): number {
  let i = 0;
  let j = 0;
  let common = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      common++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  const union = a.length + b.length - common;
  return union === 0 ? 0 : common / union;
}

/**
 * The group (a representative index) of each set, joined where similarity ≥ threshold. The MinHash
 * signatures of every set are kept in one typed array; band by band, the sets are sorted by their band's key
 * (key and index packed in one float, so a typed array's numeric sort does it) and each set of a run of equal
 * keys is compared with the run's first and with its predecessor.
 */
export function groupSimilar(sets: readonly Uint32Array[], threshold: number): Int32Array {
  const n = sets.length;
  if (n > MAX_SETS) throw new RangeError(`groupSimilar: at most ${MAX_SETS} sets, got ${n}`);
  const parent = Int32Array.from(sets.keys());
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]!]!;
      x = parent[x]!;
    }
    return x;
  };
  const join = (a: number, b: number) => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb && jaccard(sets[a]!, sets[b]!) >= threshold) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  const signatures = new Uint32Array(n * HASHES);
  for (let index = 0; index < n; index++)
    minHash(sets[index]!, signatures.subarray(index * HASHES, (index + 1) * HASHES));
  const packed = new Float64Array(n);
  for (let band = 0; band < BANDS; band++) {
    let count = 0;
    for (let index = 0; index < n; index++) {
      if (sets[index]!.length === 0) continue;
      packed[count++] = (bandKey(signatures, index * HASHES, band) >>> 1) * MAX_SETS + index;
    }
    const sorted = packed.subarray(0, count).sort();
    let runKey = -1;
    let first = -1;
    for (let j = 0; j < count; j++) {
      const key = Math.floor(sorted[j]! / MAX_SETS);
      const index = sorted[j]! - key * MAX_SETS;
      if (key !== runKey) [runKey, first] = [key, index];
      else {
        join(first, index);
        join(sorted[j - 1]! - key * MAX_SETS, index);
      }
    }
  }
  for (let i = 0; i < n; i++) parent[i] = find(i);
  return parent;
}

/** The HASHES minimum hashes of a set, into `out`. */
function minHash(set: Uint32Array, out: Uint32Array): void {
  out.fill(0xffffffff);
  for (const value of set) {
    for (let h = 0; h < HASHES; h++) {
      const hashed = mix(value ^ Math.imul(h + 1, 0x9e3779b1));
      if (hashed < out[h]!) out[h] = hashed;
    }
  }
}

/** The key of one band of the signature starting at `offset`. */
function bandKey(signatures: Uint32Array, offset: number, band: number): number {
  let key = band;
  for (let r = 0; r < ROWS; r++)
    key = mix(key ^ signatures[offset + band * ROWS + r]!) ^ Math.imul(r + 1, 0x85ebca6b);
  return key >>> 0;
}

/** A 32-bit avalanche of a 32-bit value (murmur3's finaliser). */
function mix(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** FNV-1a of a short text. */
export function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
