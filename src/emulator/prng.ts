// Stateless seeded randomness for the emulator: every value is a pure function of (seed, coordinates),
// so any session or message can be regenerated from its index alone, in any order, without stored state.

/** 32-bit hash of a list of integers (murmur3-style finaliser over a simple mix). */
export function hash32(...values: number[]): number {
  let h = 0x811c9dc5 ^ values.length;
  for (const v of values) {
    let k = Math.imul(v | 0, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
    // fold the high part of large numbers (epoch milliseconds) too
    const hi = Math.floor(v / 4294967296) | 0;
    if (hi !== 0) h = Math.imul(h ^ hi, 0x85ebca6b);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A number in [0, 1) from the coordinates. */
export function unit(...values: number[]): number {
  return hash32(...values) / 4294967296;
}

/** An integer in [0, n) from the coordinates. */
export function pickIndex(n: number, ...values: number[]): number {
  return Math.floor(unit(...values) * n);
}

export function pick<T>(items: readonly T[], ...values: number[]): T {
  return items[pickIndex(items.length, ...values)] as T;
}

/** Picks by weight: `weights` need not sum to 1. */
export function pickWeighted<T>(items: readonly T[], weights: readonly number[], u: number): T {
  const total = weights.reduce((a, b) => a + b, 0);
  let x = u * total;
  for (let i = 0; i < items.length; i++) {
    x -= weights[i] ?? 0;
    if (x < 0) return items[i] as T;
  }
  return items[items.length - 1] as T;
}

/** Hex string of `len` characters from the coordinates. */
export function hex(len: number, ...values: number[]): string {
  let out = '';
  let i = 0;
  while (out.length < len) {
    out += hash32(...values, 0x5eed + i)
      .toString(16)
      .padStart(8, '0');
    i++;
  }
  return out.slice(0, len);
}

/** A stable numeric salt for a string (project names, keys). */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
