// How wide a text is in the charts' font (DejaVu Sans, regular and bold), read from the font files' own
// advance widths (the TrueType tables head, hhea, hmtx and cmap format 4), so that the chart library lays out
// its labels for the font resvg draws them with: a label measured narrower than it is drawn overlaps its
// neighbour or is cut at the edge. Null when the font files are not there or not readable as
// fonts (the library then estimates). The sheets' wrapped rows are estimated with the same widths (text-lines.ts).
import { existsSync, readFileSync } from 'node:fs';

const REGULAR = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const BOLD = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';

export interface FontWidths {
  unitsPerEm: number;
  /** Advance width (font units) by UTF-16 code unit; missing: the font's default (its .notdef glyph). */
  advance: (code: number) => number;
}

/** A measure for the chart library: (text, CSS font such as "bold 17px DejaVu Sans") → { width } in px. */
export type MeasureText = (text: string, font?: string) => { width: number };

/** DejaVu Sans's regular and bold advance widths, read once; null when its files are missing or unreadable. */
export function dejaVuWidths(): { regular: FontWidths; bold: FontWidths } | null {
  if (loaded === undefined) {
    loaded = null;
    if (existsSync(REGULAR) && existsSync(BOLD)) {
      const regular = readFontWidths(readFileSync(REGULAR));
      const bold = readFontWidths(readFileSync(BOLD));
      if (regular !== null && bold !== null) loaded = { regular, bold };
    }
  }
  return loaded;
}

let loaded: { regular: FontWidths; bold: FontWidths } | null | undefined;

/** The measure of DejaVu Sans, or null when its files are missing. */
export function dejaVuMeasure(): MeasureText | null {
  const fonts = dejaVuWidths();
  if (fonts === null) return null;
  const { regular, bold } = fonts;
  return (text, font = '12px sans-serif') => {
    const size = Number(/(\d+(?:\.\d+)?)px/.exec(font)?.[1] ?? 12);
    const widths = /\bbold\b|\b[6-9]00\b/.test(font) ? bold : regular;
    let units = 0;
    for (let i = 0; i < text.length; i++) units += widths.advance(text.charCodeAt(i));
    return { width: (units / widths.unitsPerEm) * size };
  };
}

/** The advance widths of a TrueType font; null when it lacks a table they need (not a font we can read). */
function readFontWidths(font: Buffer): FontWidths | null {
  const tables = tableOffsets(font);
  const [head, hhea, hmtx, cmap] = ['head', 'hhea', 'hmtx', 'cmap'].map((tag) => tables.get(tag));
  if (head === undefined || hhea === undefined || hmtx === undefined || cmap === undefined) return null;
  const unitsPerEm = font.readUInt16BE(head + 18);
  const metrics = font.readUInt16BE(hhea + 34);
  const glyphWidth = (glyph: number) => font.readUInt16BE(hmtx + 4 * Math.min(glyph, metrics - 1));
  const glyphOf = cmapFormat4(font, cmap);
  const cache = new Map<number, number>();
  return {
    unitsPerEm,
    advance(code) {
      let width = cache.get(code);
      if (width === undefined) {
        width = glyphWidth(glyphOf(code));
        cache.set(code, width);
      }
      return width;
    },
  };
}

function tableOffsets(font: Buffer): Map<string, number> {
  const tables = new Map<string, number>();
  const count = font.readUInt16BE(4);
  for (let i = 0; i < count; i++) {
    const record = 12 + 16 * i;
    tables.set(font.toString('latin1', record, record + 4), font.readUInt32BE(record + 8));
  }
  return tables;
}

/** The glyph of a BMP character through the Unicode (3, 1) cmap subtable of format 4; 0 (.notdef) if none. */
function cmapFormat4(font: Buffer, cmap: number): (code: number) => number {
  const count = font.readUInt16BE(cmap + 2);
  let subtable = -1;
  for (let i = 0; i < count; i++) {
    const record = cmap + 4 + 8 * i;
    const unicode = font.readUInt16BE(record) === 3 && font.readUInt16BE(record + 2) === 1;
    if (unicode) subtable = cmap + font.readUInt32BE(record + 4);
  }
  if (subtable < 0 || font.readUInt16BE(subtable) !== 4) return () => 0;
  const segments = font.readUInt16BE(subtable + 6) / 2;
  const ends = subtable + 14;
  const starts = ends + 2 * segments + 2;
  const deltas = starts + 2 * segments;
  const rangeOffsets = deltas + 2 * segments;
  return (code) => {
    for (let s = 0; s < segments; s++) {
      if (code > font.readUInt16BE(ends + 2 * s)) continue;
      const start = font.readUInt16BE(starts + 2 * s);
      if (code < start) return 0;
      const delta = font.readUInt16BE(deltas + 2 * s);
      const rangeAt = rangeOffsets + 2 * s;
      const range = font.readUInt16BE(rangeAt);
      if (range === 0) return (code + delta) & 0xffff;
      const glyph = font.readUInt16BE(rangeAt + range + 2 * (code - start));
      return glyph === 0 ? 0 : (glyph + delta) & 0xffff;
    }
    return 0;
  };
}
