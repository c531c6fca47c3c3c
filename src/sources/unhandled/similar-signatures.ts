// Which signatures (distinct term sets of questions) say the same thing: each signature becomes the set of
// character trigrams of its terms (so a typo, or another ending, still shares most of them), MinHash with
// locality-sensitive banding proposes the pairs likely to be similar, and a pair whose trigram sets' Jaccard
// similarity reaches the threshold is joined (union-find). Deterministic: fixed hash seeds, no randomness.

const HASHES = 48;
const ROWS = 3;
const BANDS = HASHES / ROWS;

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

/** The group (a representative index) of each set, joined where similarity ≥ threshold. */
export function groupSimilar(sets: readonly Uint32Array[], threshold: number): Int32Array {
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
  const heads = Array.from({ length: BANDS }, () => new Map<number, number>());
  const lasts = Array.from({ length: BANDS }, () => new Map<number, number>());
  const signature = new Uint32Array(HASHES);
  for (let index = 0; index < sets.length; index++) {
    if (sets[index]!.length === 0) continue;
    minHash(sets[index]!, signature);
    for (let band = 0; band < BANDS; band++) {
      const key = bandKey(signature, band);
      const head = heads[band]!.get(key);
      if (head === undefined) heads[band]!.set(key, index);
      else {
        join(head, index);
        join(lasts[band]!.get(key)!, index);
      }
      lasts[band]!.set(key, index);
    }
  }
  for (let i = 0; i < parent.length; i++) parent[i] = find(i);
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

function bandKey(signature: Uint32Array, band: number): number {
  let key = band;
  for (let r = 0; r < ROWS; r++) key = mix(key ^ signature[band * ROWS + r]!) ^ Math.imul(r + 1, 0x85ebca6b);
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
