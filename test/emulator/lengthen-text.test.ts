// The emulator's long texts (lengthenText): the text repeated and cut to exactly n code points, never half a
// surrogate pair, checked against a code-point-by-code-point build of the same string.
import { describe, expect, it } from 'vitest';
import { lengthenText } from '../../src/emulator/project-data.js';

/** The definition, one code point at a time: the j-th code point is the text's (j mod its length)-th. */
function byCodePoint(text: string, n: number): string {
  const points = Array.from(text);
  let out = '';
  for (let j = 0; j < n; j++) out += points[j % points.length];
  return out;
}

describe('lengthenText', () => {
  const texts = ['#1.2 Привет, как дела?', 'a', 'ab😀c', '😀', '#3.4 Кириллица, Latin, 😀 and 𝒳'];
  for (const text of texts)
    it(`repeats and cuts ${JSON.stringify(text)} to exactly n code points`, () => {
      for (const n of [1, 2, 3, 4, 5, 7, 19, 20, 21, 1000, 40_000]) {
        const long = lengthenText(text, n);
        expect(Array.from(long)).toHaveLength(n);
        expect(long).toBe(byCodePoint(text, n));
        // no lone surrogate at the cut
        expect(long).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
      }
    });
});
