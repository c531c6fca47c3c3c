// The key a period's question text is joined back to its messages by when a run is stored: DuckDB's hash of
// the raw text cut to 53 bits (exact in a JS number), so that half a million raw texts need not be held while
// the clustering runs. Keys shared by two texts asked in the period (at half a million texts, about one run
// in 60,000) are found, and those texts are staged with their text as well, so the join stays exact.

/** The bits of hash(question) dropped: 64 − 11 = 53, the integers a double holds exactly. */
export const TEXT_KEY_SHIFT = 11;

/** The keys (ascending) that two or more asked questions share; `asked[n]`: question n was asked in the period. */
export function sharedKeys(keys: Float64Array, asked: Uint8Array): number[] {
  let count = 0;
  for (let n = 0; n < keys.length; n++) if (asked[n]) count++;
  const sorted = new Float64Array(count);
  count = 0;
  for (let n = 0; n < keys.length; n++) if (asked[n]) sorted[count++] = keys[n]!;
  sorted.sort();
  const shared: number[] = [];
  for (let n = 1; n < sorted.length; n++)
    if (sorted[n] === sorted[n - 1] && shared[shared.length - 1] !== sorted[n]) shared.push(sorted[n]!);
  return shared;
}

/** The index of `text` in sorted `texts`, or −1. */
export function indexOfText(texts: readonly string[], text: string): number {
  let lo = 0;
  let hi = texts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const t = texts[mid]!;
    if (t === text) return mid;
    if (t < text) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
