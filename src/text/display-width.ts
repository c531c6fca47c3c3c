// How many terminal columns a text takes: what aligns the columns of the text tables (`runs`, `stats`, the
// management commands). A string's length counts UTF-16 units, so "Жалоба 😡" (8 columns on a terminal: the
// emoji takes two) would be 9 and push the rest of its row out of line. Counted per grapheme (Intl.Segmenter):
// an emoji or an East Asian wide or fullwidth character takes 2 columns, a combining mark or a zero-width
// character 0, everything else 1.

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

const EMOJI = /\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F|\p{Regional_Indicator}/u;
const ZERO_WIDTH = /^(?:\p{Mark}|\p{Default_Ignorable_Code_Point}|\p{Control})+$/u;

/** East Asian Wide (W) and Fullwidth (F) blocks, as [first, last] code points. */
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x20000, 0x3fffd],
];

function isWide(codePoint: number): boolean {
  return WIDE.some(([first, last]) => codePoint >= first && codePoint <= last);
}

/** Columns one grapheme takes: 0, 1 or 2. */
function graphemeWidth(grapheme: string): number {
  if (ZERO_WIDTH.test(grapheme)) return 0;
  if (EMOJI.test(grapheme)) return 2;
  return isWide(grapheme.codePointAt(0) ?? 0) ? 2 : 1;
}

/** Columns `text` takes on a terminal. ASCII is counted without segmenting. */
export function displayWidth(text: string): number {
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  let width = 0;
  for (const { segment } of segmenter.segment(text)) width += graphemeWidth(segment);
  return width;
}

/** `text` filled with spaces to `width` columns, on the right (left-aligned) or on the left (right-aligned). */
export function padToWidth(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(text)));
  return align === 'left' ? text + fill : fill + text;
}

/** `text` cut to at most `width` columns, ending with … when cut; graphemes are never split. */
export function cutToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const { segment } of segmenter.segment(text)) {
    const w = graphemeWidth(segment);
    if (used + w > width - 1) break;
    out += segment;
    used += w;
  }
  return `${out}…`;
}
