// Writes a data row of a streamed sheet as SpreadsheetML directly (<row><c .../></row>), instead of building
// an exceljs Row and a Cell object per value: for a million rows those objects were most of the writer's heap.
// Numbers carry their format's style id from the workbook's style table; text is an inline string, with its
// column's style when it has one (a long text that wraps).
import type { CellOutput } from './cell-values.js';

/** "A", "B", ..., "Z", "AA", ...: the column letters of 1-based column `n`. */
export function columnLetters(n: number): string {
  let letters = '';
  for (let rest = n; rest > 0; rest = Math.floor((rest - 1) / 26))
    letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  return letters;
}

const XML_SPECIAL = /[&<>]/;
const XML_SPECIAL_ALL = /[&<>]/g;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

export function escapeXmlText(text: string): string {
  return XML_SPECIAL.test(text) ? text.replace(XML_SPECIAL_ALL, (c) => ESCAPES[c]!) : text;
}

/**
 * The XML of row `rowNumber`: one cell per non-null value, with its reference (empty cells are left out);
 * `styleIds[i]` is the style of column i's numbers and texts (0: none); `points` its height when not one line.
 * Text must already fit the cell limit.
 */
export function rowXml(
  rowNumber: number,
  cells: readonly CellOutput[],
  letters: readonly string[],
  styleIds: readonly number[],
  points?: number,
): string {
  // a row grown for its wrapped text: spreadsheet programs keep a written row's height, never grow it
  let xml =
    points === undefined
      ? `<row r="${rowNumber}">`
      : `<row r="${rowNumber}" ht="${points}" customHeight="1">`;
  for (let i = 0; i < cells.length; i += 1) {
    const value = cells[i];
    if (value === null || value === undefined) continue;
    const ref = `${letters[i]}${rowNumber}`;
    if (typeof value === 'number') {
      const style = styleIds[i] ?? 0;
      xml +=
        style === 0 ? `<c r="${ref}"><v>${value}</v></c>` : `<c r="${ref}" s="${style}"><v>${value}</v></c>`;
    } else if (typeof value === 'boolean') {
      xml += `<c r="${ref}" t="b"><v>${value ? 1 : 0}</v></c>`;
    } else {
      const style = styleIds[i] ?? 0;
      const s = style === 0 ? '' : ` s="${style}"`;
      xml += `<c r="${ref}"${s} t="inlineStr"><is><t xml:space="preserve">${escapeXmlText(value)}</t></is></c>`;
    }
  }
  return `${xml}</row>`;
}
