// How many lines a cell's text takes once wrapped in its column, estimated from the font the sheets print
// in (LibreOffice prints Calibri as its metric twin Carlito, or as DejaVu Sans when neither is installed: the
// wider one, whose advance widths font-text-width.ts reads), so that a row is given the height of its tallest
// cell: spreadsheet programs do not grow a row for wrapped text written by a program, and text taller than its
// row prints over the rows below. The estimate breaks at spaces, and a word wider than the column by character.
import { dejaVuWidths, type FontWidths } from './font-text-width.js';

/** The sheets' font size in points (Calibri 11, sheet-layout.ts FONT). */
export const SHEET_FONT_POINTS = 11;

/**
 * A column's width unit at 100 %, in points: the default font's digit. LibreOffice without Calibri or Carlito
 * measures it on DejaVu Sans (0.636 em of 11 pt: 7 pt; a 95-character sheet printed 666 pt wide).
 */
export const CHARACTER_POINTS = 7;

/**
 * Room a cell leaves its text, left and right together: LibreOffice indents about 2 pt a side and wraps a
 * little before the column's edge (measured: a 266 pt column wrapped its text within 258 pt).
 */
const CELL_PADDING_POINTS = 10;

/** One printed line of 11 pt text: DejaVu Sans's 12.8 pt, Carlito's 13.4 pt, and a little more. */
export const LINE_POINTS = 13.5;

/** A row of one line (Excel's default for Calibri 11) and the room above and below a wrapped row's lines. */
export const ROW_POINTS = 15;
const ROW_PADDING_POINTS = 3;

/** Excel's tallest row: text needing more is cut at the row's bottom on paper (the cell keeps it whole). */
export const MAX_ROW_POINTS = 409;

/** The width a text needs, in points at the sheets' font size; without the font files, 0.62 em a character. */
export type TextWidth = (text: string) => number;

const measures = new Map<boolean, TextWidth>();

/** The measure of the sheets' regular (or bold) text, in points. */
export function sheetTextWidth(bold = false): TextWidth {
  let measure = measures.get(bold);
  if (!measure) {
    const fonts = dejaVuWidths();
    measure = fonts === null ? fallbackWidth : fontWidth(bold ? fonts.bold : fonts.regular);
    measures.set(bold, measure);
  }
  return measure;
}

function fallbackWidth(text: string): number {
  return text.length * 0.62 * SHEET_FONT_POINTS;
}

/** A font's measure, with the ASCII advances in a table (the cells of a million-row sheet are measured). */
function fontWidth(font: FontWidths): TextWidth {
  const scale = SHEET_FONT_POINTS / font.unitsPerEm;
  const ascii = new Float64Array(128);
  for (let code = 0; code < 128; code++) ascii[code] = font.advance(code) * scale;
  return (text) => {
    let width = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code < 128) width += ascii[code]!;
      else if (code >= 0xd800 && code <= 0xdbff) {
        // beyond the font's plane (an emoji): another font draws it, about 1.3 em wide
        width += ASTRAL_EM * SHEET_FONT_POINTS;
        i += 1;
      } else width += font.advance(code) * scale;
    }
    return width;
  };
}

/** An emoji's width in em (Noto Color Emoji, which LibreOffice falls back to, draws them about 1.25 em wide). */
const ASTRAL_EM = 1.3;

/** The points a column of `characters` width gives its text at 100 % (2 % kept for the estimate's error). */
export function textRoomPoints(characters: number): number {
  return Math.max(characters * CHARACTER_POINTS * 0.98 - CELL_PADDING_POINTS, CHARACTER_POINTS);
}

/** The characters (column width units) a text needs to fit on one line, padding included. */
export function charactersFor(text: string, bold = false): number {
  return (sheetTextWidth(bold)(text) + CELL_PADDING_POINTS) / CHARACTER_POINTS;
}

/** More lines than the tallest row holds: counting stops there (a 32,000-character cell is not wrapped whole). */
const MOST_LINES = Math.ceil(MAX_ROW_POINTS / LINE_POINTS) + 1;

/** Lines `text` takes wrapped in a column `characters` wide (1 for an empty text; at most MOST_LINES). */
export function wrappedLines(text: string, characters: number, bold = false): number {
  const room = textRoomPoints(characters);
  const width = sheetTextWidth(bold);
  // the common case: a text that fits at once is measured once
  if (text.indexOf('\n') < 0 && (text.length * SHEET_FONT_POINTS * 1.5 <= room || width(text) <= room))
    return 1;
  let lines = 0;
  for (const paragraph of text.split('\n', MOST_LINES)) {
    lines += paragraphLines(paragraph.slice(0, MOST_LINES * 200), room, width);
    if (lines >= MOST_LINES) return MOST_LINES;
  }
  return Math.max(lines, 1);
}

/** Greedy filling, as spreadsheet programs wrap: words as they fit, a word wider than the line cut anywhere. */
function paragraphLines(paragraph: string, room: number, width: TextWidth): number {
  const space = width(' ');
  let lines = 1;
  let used = 0;
  for (const word of paragraph.split(' ')) {
    if (word === '') {
      if (used > 0) used += space;
      continue;
    }
    const w = width(word);
    if (used > 0 && used + space + w <= room) {
      used += space + w;
      continue;
    }
    if (used > 0) {
      lines += 1;
      used = 0;
    }
    if (w <= room) {
      used = w;
      continue;
    }
    // a word wider than the line: cut by character (an emoji whole), each piece as wide as the line takes
    for (const character of word) {
      const c = width(character);
      if (used + c > room && used > 0) {
        lines += 1;
        used = 0;
      }
      used += c;
    }
  }
  return lines;
}

/** A row's height in points for its tallest cell's lines (undefined: one line, the default height). */
export function rowPointsFor(lines: number): number | undefined {
  if (lines <= 1) return undefined;
  return Math.min(MAX_ROW_POINTS, Math.ceil(lines * LINE_POINTS + ROW_PADDING_POINTS));
}
