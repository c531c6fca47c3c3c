// Reads the first worksheet of an XLSX report file row by row through exceljs's streaming reader (the zip is
// inflated and the sheet's XML parsed as they come: no workbook is built, so memory stays flat whatever the
// rows), from a path or from bytes already downloaded. Invariant: rows reach the caller in the file's order
// with their 1-based line; the other worksheets are read past, never kept.
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';

/** A workbook that opens but holds no rows to read; its readers wrap it into their own error, naming the file. */
export class XlsxShapeError extends Error {}

/** The text of an exceljs cell value (rich text, hyperlinks and formula results included). */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value !== 'object') return String(value);
  const v = value as { richText?: { text: string }[]; text?: unknown; result?: unknown; error?: unknown };
  if (Array.isArray(v.richText)) return v.richText.map((r) => r.text).join('');
  if (v.text !== undefined) return cellText(v.text);
  if (v.result !== undefined) return cellText(v.result);
  if (v.error !== undefined) return String(v.error);
  return JSON.stringify(value);
}

/**
 * Calls `onRow` with each row's values (exceljs's: index 1 is column A; a missing cell is a hole) and its line;
 * returns the rows and the first sheet's name. Throws when the workbook does not open or has no worksheet.
 */
export async function readXlsxRows(
  input: string | Uint8Array,
  onRow: (values: readonly unknown[], line: number) => void,
): Promise<{ rows: number; sheet: string | undefined }> {
  const source = typeof input === 'string' ? input : Readable.from([Buffer.from(input)]);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(source, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
  });
  let rows = 0;
  let sheet: string | undefined;
  let index = 0;
  for await (const worksheet of reader) {
    const first = index++ === 0;
    for await (const row of worksheet) {
      if (!first) continue;
      onRow(row.values as unknown[], row.number);
      rows++;
    }
    if (first) sheet = (worksheet as unknown as { name?: string }).name;
  }
  if (index === 0) throw new XlsxShapeError('the workbook has no worksheet');
  return { rows, sheet };
}

/** The text of every cell of a row's values, column A first, up to its last cell. */
export function rowTexts(values: readonly unknown[]): string[] {
  const cells: string[] = [];
  for (let c = 1; c < values.length; c++) cells.push(cellText(values[c]));
  return cells;
}
