// The raw features of one masked text: its content terms (Snowball stems, stop words out) with their counts,
// and the character 3–5-grams of its content words (each word padded with spaces, so a typo or another
// Russian ending still shares most of them), hashed to 32 bits by FNV-1a so no string is made per n-gram.

import { questionWords } from './normalise-question.js';
import { isContentWord, stemWord } from './question-terms.js';

/** Character n-gram lengths, inclusive. */
export const CHAR_MIN = 3;
export const CHAR_MAX = 5;

export interface TextFeatures {
  /** Content term → occurrences. */
  word: Map<string, number>;
  /** Hashed character n-gram → occurrences. */
  char: Map<number, number>;
}

/** The features of a masked text. */
export function textFeatures(masked: string): TextFeatures {
  const word = new Map<string, number>();
  const char = new Map<number, number>();
  for (const w of questionWords(masked)) {
    if (!isContentWord(w)) continue;
    const term = stemWord(w);
    word.set(term, (word.get(term) ?? 0) + 1);
    addCharGrams(w, char);
  }
  return { word, char };
}

/** The word's character n-grams of CHAR_MIN..CHAR_MAX, padded with a space on each side, counted into `out`. */
function addCharGrams(w: string, out: Map<number, number>): void {
  const length = w.length + 2;
  const code = (i: number) => (i === 0 || i === length - 1 ? 32 : w.charCodeAt(i - 1));
  for (let i = 0; i < length; i++) {
    // FNV-1a over the n-gram's code units, extended one unit at a time: every length at position i.
    let h = 0x811c9dc5;
    for (let n = 1; n <= CHAR_MAX && i + n <= length; n++) {
      h = Math.imul(h ^ code(i + n - 1), 0x01000193);
      if (n < CHAR_MIN) continue;
      const key = Math.imul(h ^ n, 0x9e3779b1) >>> 0;
      out.set(key, (out.get(key) ?? 0) + 1);
    }
  }
}
